import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Finding } from "../index.js";
import { changedLines, inDiff, onChangedLine, placeRemovals } from "./lines.js";

const at = (file: string, line: number, extra: object = {}) =>
  ({
    type: "CrdChange",
    rule: "x",
    severity: "error",
    field: "",
    path: [],
    detail: "",
    message: "m",
    file,
    line,
    ...extra,
  }) as Finding;

describe("changed lines", () => {
  it("come from git's hunks: modified, added and removed lines", () => {
    const lines = changedLines([
      { path: "a.yaml", before: "a\nb\nc\nd\n", after: "a\nB\nc\nd\ne\n" },
      { path: "gone.yaml", before: "a\nb\nc\n", after: "a\nc\n" },
      { path: "new.yaml", after: "x\n" },
      { path: "same.yaml", before: "x\n", after: "x\n" },
    ]);
    expect(lines.get("a.yaml")).toEqual([
      { oldStart: 2, oldCount: 1, newStart: 2, newCount: 1 },
      { oldStart: 4, oldCount: 0, newStart: 5, newCount: 1 },
    ]);
    expect(lines.get("gone.yaml")).toEqual([{ oldStart: 2, oldCount: 1, newStart: 1, newCount: 0 }]);
    expect(lines.get("new.yaml")).toBe("all");
    expect(lines.get("same.yaml")).toEqual([]);
    expect([1, 2, 3, 5].map((l) => onChangedLine(at("a.yaml", l), lines))).toEqual([false, true, false, true]);
    expect(onChangedLine(at("new.yaml", 9), lines)).toBe(true);
    expect(onChangedLine(at("other.yaml", 1), lines)).toBe(false);
    // GitHub shows three lines around a hunk.
    expect(inDiff(at("a.yaml", 1), lines)).toBe(true);
    expect(inDiff(at("same.yaml", 1), lines)).toBe(false);
  });

  it("hold for any edit: every line the new text has and the old did not is changed", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", "d: 1", "  e"), { maxLength: 12 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const text = (ls: string[]) => ls.map((l) => `${l}\n`).join("");
        const lines = changedLines([{ path: "f", before: text(before), after: text(after) }]);
        const hunks = lines.get("f");
        if (hunks === "all" || hunks === undefined) return false;
        // Rebuild the new text from the old one and the hunks: only changed lines come from the new text.
        const rebuilt: string[] = [];
        let old = 1;
        for (const h of hunks) {
          const keepUntil = h.oldCount === 0 ? h.oldStart : h.oldStart - 1;
          while (old <= keepUntil) rebuilt.push(before[old++ - 1] as string);
          old += h.oldCount;
          for (let n = h.newStart; n < h.newStart + h.newCount; n++) rebuilt.push(after[n - 1] as string);
        }
        while (old <= before.length) rebuilt.push(before[old++ - 1] as string);
        expect(rebuilt).toEqual(after);
        return true;
      }),
      { numRuns: 40 },
    );
  });

  it("move a removal onto the hunk that removed its old line, and keep the rest where they are", () => {
    const lines = changedLines([
      { path: "crd.yaml", before: "spec:\n  a: 1\n  b: 2\n  c: 3\n", after: "spec:\n  a: 1\n  c: 3\n" },
    ]);
    const removed = at("crd.yaml", 1, { oldLine: 3, column: 3 });
    const elsewhere = at("crd.yaml", 1, { oldLine: 2 });
    const [moved, kept] = placeRemovals([removed, elsewhere], lines);
    expect(moved).toMatchObject({ line: 2, oldLine: 3, column: 1 });
    expect(kept).toBe(elsewhere);
  });
});
