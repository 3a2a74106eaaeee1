import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSource } from "../index.js";
import { parseOnce } from "./parse.js";

describe("parseOnce", () => {
  it("reads a text as parseSource does, and the same text at the same path once", () => {
    const text = fc.constantFrom("a: 1\n", "a: [\n", "---\nb: 2\n---\nc: 3\n", "");
    const path = fc.constantFrom("x.yaml", "y.yaml");
    fc.assert(
      fc.property(fc.array(fc.tuple(text, path), { minLength: 1, maxLength: 8 }), (asked) => {
        const parse = parseOnce();
        const first = new Map<string, unknown>();
        for (const [t, p] of asked) {
          const got = parse(t, p);
          const { documents, findings } = parseSource(t, p);
          expect(got.findings).toEqual(findings);
          expect(got.documents.map((d) => [d.file, d.index, d.value])).toEqual(
            documents.map((d) => [d.file, d.index, d.value]),
          );
          const k = JSON.stringify([t, p]);
          if (first.has(k)) expect(got).toBe(first.get(k));
          else first.set(k, got);
        }
      }),
    );
  });

  it("remembers nothing between parsers: each check makes its own", () => {
    expect(parseOnce()("a: 1\n", "x.yaml")).not.toBe(parseOnce()("a: 1\n", "x.yaml"));
  });
});
