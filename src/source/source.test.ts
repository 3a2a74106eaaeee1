import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { parseSource } from "./index.js";

describe("parseSource", () => {
  it("reads every document of a multi-document stream and skips empty ones", () => {
    const { documents, findings } = parseSource("a: 1\n---\n---\nb: [x]\n", "f.yaml");
    expect(findings).toEqual([]);
    expect(documents.map((d) => [d.index, d.value])).toEqual([
      [0, { a: 1 }],
      [2, { b: ["x"] }],
    ]);
  });

  it("locates a field, and the nearest parent of a missing field", () => {
    const text = "spec:\n  strategy:\n    type: Recreate\n    rollingUpdate:\n      maxSurge: 1\n";
    const [doc] = parseSource(text, "d.yaml").documents;
    expect(doc?.locate(["spec", "strategy", "rollingUpdate"])).toEqual({ line: 4, column: 5 });
    expect(doc?.locate(["spec", "strategy", "nothing", "deeper"])).toEqual({ line: 2, column: 3 });
    expect(doc?.locate(["spec", "strategy", "type"])).toEqual({ line: 3, column: 5 });
  });

  it("locates list items in JSON input", () => {
    const [doc] = parseSource('{"items": [\n  {"a": 1},\n  {"b": 2}\n]}', "x.json").documents;
    expect(doc?.locate(["items", 1, "b"])).toEqual({ line: 3, column: 4 });
  });

  it("reads scalars as sigs.k8s.io/yaml does (YAML 1.1 as go-yaml v2 has it)", () => {
    const text = "a: =\nb: on\nc: 0777\nd: .\ne: e5\nf: 12:30\ng: 2001-12-14\nh: 1.5\ni: -.5e3\nj: .inf\nk: 1_000\n";
    const [doc] = parseSource(text, "f.yaml").documents;
    expect(doc?.value).toEqual({
      a: "=",
      b: true,
      c: 511,
      d: ".",
      e: "e5",
      f: "12:30",
      g: "2001-12-14",
      h: 1.5,
      i: -500,
      j: Number.POSITIVE_INFINITY,
      k: 1000,
    });
  });

  it("reports syntax errors with their line", () => {
    const { documents, findings } = parseSource("ok: 1\n---\na: [1, 2\nb: : :\n", "bad.yaml");
    expect(documents).toHaveLength(1);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]).toMatchObject({ file: "bad.yaml", document: 1, type: "ParseError", severity: "error" });
    expect(findings[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it("warns of duplicate keys and keeps the last value, as go-yaml v2 does", () => {
    const { documents, findings } = parseSource("a: 1\na: 2\n", "dup.yaml");
    expect(documents[0]?.value).toEqual({ a: 2 });
    expect(findings[0]).toMatchObject({ severity: "warning", line: 2 });
    expect(findings[0]?.message).toBe("Invalid document: Map keys must be unique: the last value is used");
  });

  it("reads a quoted scalar closed at its key's indentation, as go-yaml does (Argo's examples)", () => {
    const text = [
      "spec:",
      "  container:",
      "    args: ['",
      '      echo "a";',
      "      echo b",
      "    ']",
      "    env:",
      "    - name: X",
      "---",
      "kind: Next",
    ].join("\n");
    expect(parseDocument(text.split("---")[0] as string).errors.length).toBeGreaterThan(0); // the strict reading fails
    const { documents, findings } = parseSource(text, "w.yaml");
    expect(findings).toEqual([]);
    expect(documents.map((d) => d.value)).toEqual([
      { spec: { container: { args: [' echo "a"; echo b '], env: [{ name: "X" }] } } },
      { kind: "Next" },
    ]);
  });

  it("splits documents on --- lines before parsing, so a broken one cannot swallow the next", () => {
    const { documents, findings } = parseSource("a: [1, 2\n---\nb: 1\n---   # trailing comment\nc: 2\n", "s.yaml");
    expect(findings.map((f) => f.document)).toContain(0);
    expect(documents.map((d) => [d.index, d.value])).toEqual([
      [1, { b: 1 }],
      [2, { c: 2 }],
    ]);
    expect(documents[1]?.locate(["c"])).toEqual({ line: 5, column: 1 });
  });

  it("refuses an alias bomb instead of expanding it", () => {
    const bomb = [
      "a: &a [x,x,x,x,x,x,x,x,x]",
      "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
      "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
    ].join("\n");
    const { documents, findings } = parseSource(bomb, "bomb.yaml");
    expect(documents).toEqual([]);
    expect(findings[0]?.message).toContain("alias bomb");
    expect(findings[0]?.line).toBe(1);
  });

  it("refuses 10,000-deep nesting with a finding, in flow and block style", () => {
    const flow = `a: ${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    // Block style 10,000 deep would be 50 MB of indentation: 2,000 levels make the point.
    const block = `${Array.from({ length: 2_000 }, (_, i) => `${" ".repeat(i)}a:`).join("\n")} 1`;
    for (const text of [flow, block]) {
      const { documents, findings } = parseSource(text, "deep.yaml");
      expect(documents).toEqual([]);
      expect(findings[0]?.message).toMatch(/nests (too deeply|deeper than)/);
    }
  });

  it("keeps __proto__ and constructor as plain data", () => {
    const [doc] = parseSource("__proto__: {polluted: 1}\nconstructor: {x: 1}\n", "p.yaml").documents;
    const value = doc?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a document above the API server's 3 MiB limit and binary input", () => {
    const big = `data:\n  blob: "${"x".repeat(3 * 1024 * 1024)}"\n---\nsmall: 1\n`;
    const { documents, findings } = parseSource(big, "big.yaml");
    expect(documents.map((d) => d.value)).toEqual([{ small: 1 }]);
    expect(findings[0]?.message).toBe("Invalid document: Request entity too large: limit is 3145728");
    expect(parseSource("a: \u0000", "bin.yaml").findings[0]?.message).toContain("binary");
  });
});
