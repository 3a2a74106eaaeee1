import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { parseSource } from "./index.js";

const corpus = join(import.meta.dirname, "../../../shared/corpus");

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

  it("locates the keys of a large map (looked up by an index, not a search per key), numeric keys too", () => {
    const keys = Array.from({ length: 100 }, (_, i) => `  ${i % 2 === 0 ? `k${i}` : i}: v\n`).join("");
    const [doc] = parseSource(`data:\n${keys}`, "m.yaml").documents;
    expect(doc?.locate(["data", "k0"])).toEqual({ line: 2, column: 3 });
    expect(doc?.locate(["data", "99"])).toEqual({ line: 101, column: 3 });
    expect(doc?.locate(["data", { key: "k98" }])).toEqual({ line: 100, column: 3 });
    expect(doc?.locate(["data", "absent"])).toEqual({ line: 1, column: 1 });
  });

  it("locates list items in JSON input", () => {
    const [doc] = parseSource('{"items": [\n  {"a": 1},\n  {"b": 2}\n]}', "x.json").documents;
    expect(doc?.locate(["items", 1, "b"])).toEqual({ line: 3, column: 4 });
  });

  it("reads scalars as sigs.k8s.io/yaml does (YAML 1.1 as go-yaml v2 has it)", () => {
    const text = "a: =\nb: on\nc: 0777\nd: .\ne: e5\nf: 12:30\ng: 2001-12-14\nh: 1.5\ni: -.5e3\nk: 1_000\n";
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
      k: 1000,
    });
  });

  it("reads integers as go-yaml v2 does, through Go's strconv.ParseInt(s, 0, 64) (resolve.go)", () => {
    const text = "a: 0o17\nb: 0X1F\nc: 0B101\nd: -0o1_7\ne: '0o17'\nf: +0x1f\ng: 0o\nh: 0o8\n";
    const [doc] = parseSource(text, "f.yaml").documents;
    expect(doc?.value).toEqual({ a: 15, b: 31, c: 5, d: -15, e: "0o17", f: 31, g: "0o", h: "0o8" });
  });

  it("reads an integer past int64 and uint64 as go-yaml v2 does: with a base prefix a string, in digits alone a float (resolve.go)", () => {
    const text = [
      "hex: [0xFFFFFFFFFFFFFFFF, 0x1FFFFFFFFFFFFFFFF, +0xFFFFFFFFFFFFFFFF, -0x8000000000000000, -0x8000000000000001]",
      "octal: [0o1777777777777777777777, 0o2000000000000000000000, 0o_2000000000000000000000]",
      `binary: [0b${"1".repeat(64)}, 0b1${"0".repeat(64)}, -0b1${"0".repeat(64)}]`,
      "legacy: [01777777777777777777777, 02000000000000000000000, 0777]",
      "",
    ].join("\n");
    // ParseUint takes the uint64 range only without a sign; past it, yamlStyleFloat takes `0…` as decimal digits
    const expected = {
      hex: [2 ** 64, "0x1FFFFFFFFFFFFFFFF", "+0xFFFFFFFFFFFFFFFF", -(2 ** 63), "-0x8000000000000001"],
      octal: [2 ** 64, "0o2000000000000000000000", "0o_2000000000000000000000"],
      binary: [2 ** 64, `0b1${"0".repeat(64)}`, `-0b1${"0".repeat(64)}`],
      legacy: [2 ** 64, 2e21, 511],
    };
    // the quick reading, and the full one (an anchor sends a document there)
    for (const t of [text, `${text}anchored: &a 1\n`]) {
      const { documents, findings } = parseSource(t, "big.yaml");
      expect(findings).toEqual([]);
      expect(documents[0]?.value).toMatchObject(expected);
    }
    // an explicit tag the text no longer takes is refused, as resolve() refuses it
    expect(parseSource("a: !!int 0x1FFFFFFFFFFFFFFFF\n", "t.yaml").findings.map((f) => f.message)).toEqual([
      "Invalid document: cannot decode !!str `0x1FFFFFFFFFFFFFFFF` as a !!int",
    ]);
  });

  it("reads a number past float64's range as the string go-yaml makes of it (strconv fails), in both readings", () => {
    const digits = "9".repeat(400);
    // The quick reading takes the first document; the anchor sends the second to the full one.
    const text = `a: 1e400\nb: [-1E+309, ${digits}, 0o${"7".repeat(400)}]\nc: 1e-400\n---\nx: &x 1e400\n`;
    const { documents, findings } = parseSource(text, "big.yaml");
    expect(findings).toEqual([]);
    expect(documents.map((d) => d.value)).toEqual([
      { a: "1e400", b: ["-1E+309", digits, `0o${"7".repeat(400)}`], c: 0 },
      { x: "1e400" },
    ]);
  });

  it("refuses infinity and NaN, which JSON has not, at each value with its path (sigs.k8s.io/yaml fails on them)", () => {
    const text =
      "ok: 1\n---\nspec:\n  replicas: .inf\n  list: [1, -.Inf]\n  data: {x: .NaN}\n---\nmerged: &m {z: .inf}\n";
    const { documents, findings } = parseSource(text, "inf.yaml");
    expect(documents.map((d) => d.value)).toEqual([{ ok: 1 }]);
    expect(findings.map((f) => [f.line, f.column, f.severity, f.rule, f.message])).toEqual([
      [
        4,
        3,
        "error",
        "parse",
        "spec.replicas: Invalid value: +Inf: infinity and NaN are not JSON numbers: kubectl refuses the document",
      ],
      [
        5,
        13,
        "error",
        "parse",
        "spec.list[1]: Invalid value: -Inf: infinity and NaN are not JSON numbers: kubectl refuses the document",
      ],
      [
        6,
        10,
        "error",
        "parse",
        "spec.data.x: Invalid value: NaN: infinity and NaN are not JSON numbers: kubectl refuses the document",
      ],
      [
        8,
        13,
        "error",
        "parse",
        "merged.z: Invalid value: +Inf: infinity and NaN are not JSON numbers: kubectl refuses the document",
      ],
    ]);
  });

  it("says why a directive before its --- line is refused: kubectl's reader cuts it from its document", () => {
    // apimachinery's YAMLReader splits at every --- line: go-yaml then gets `%YAML 1.1` alone.
    for (const head of ["%YAML 1.1\n", "# c\n%YAML 1.2\n%TAG !e! tag:e.com,2000:\n\n"]) {
      const { documents, findings } = parseSource(`${head}---\napiVersion: v1\nkind: ConfigMap\n`, "d.yaml");
      expect(documents.map((d) => [d.index, d.value])).toEqual([[1, { apiVersion: "v1", kind: "ConfigMap" }]]);
      expect(findings.map((f) => [f.line, f.column, f.document, f.message])).toEqual([
        [
          head.indexOf("%") === 0 ? 1 : 2,
          1,
          0,
          'Invalid document: directive cut from its document: kubectl splits a file at its --- lines, so it reads this directive alone and refuses it ("did not find expected <document start>"); remove the directive',
        ],
      ]);
    }
    // With no --- after it, the directive lacks its end line, as the `yaml` package says.
    expect(parseSource("a: 1\n---\n%YAML 1.1\n", "e.yaml").findings[0]?.message).toBe(
      "Invalid document: Missing directives-end indicator line",
    );
  });

  it("says a document after a ... line without its --- line is one kubectl would drop", () => {
    // apimachinery's YAMLReader splits at --- lines only; go-yaml's Unmarshal decodes the first document of a part
    const { documents, findings } = parseSource("apiVersion: v1\nkind: ConfigMap\n...\nfoo: bar\n", "d.yaml");
    expect(documents).toEqual([]);
    expect(findings.map((f) => [f.line, f.column, f.message])).toEqual([
      [
        4,
        1,
        'Invalid document: a second document after a "..." line, with no --- line before it: kubectl splits a file at its --- lines only and reads the first document of each part, so this one would be dropped without a word; start it with ---',
      ],
    ]);
    // with its --- line, each is a document of its own
    const separated = parseSource("apiVersion: v1\nkind: ConfigMap\n...\n---\nfoo: bar\n", "e.yaml");
    expect(separated.findings).toEqual([]);
    expect(separated.documents.map((d) => d.value)).toEqual([{ apiVersion: "v1", kind: "ConfigMap" }, { foo: "bar" }]);
  });

  it("refuses nesting past the limit in the same words and place however deep the caller's stack is", () => {
    const answers = new Set<string>();
    const read = (depth: number): void => {
      if (depth > 0) {
        read(depth - 1);
        return;
      }
      for (const text of ["[".repeat(128_000), `a: ${"{".repeat(20_000)}`, "- ".repeat(3_000)]) {
        answers.add(JSON.stringify(parseSource(text, "deep.yaml").findings.map((f) => [f.line, f.column, f.message])));
      }
    };
    for (const depth of [0, 500, 2_000]) read(depth);
    expect([...answers]).toEqual([
      JSON.stringify([[1, 514, "Invalid document: document nests too deeply to be read"]]),
      JSON.stringify([[1, 516, "Invalid document: document nests too deeply to be read"]]),
      JSON.stringify([[1, 1027, "Invalid document: document nests too deeply to be read"]]),
    ]);
  });

  it("reports syntax errors with their line", () => {
    const { documents, findings } = parseSource("ok: 1\n---\na: [1, 2\nb: : :\n", "bad.yaml");
    expect(documents).toHaveLength(1);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]).toMatchObject({ file: "bad.yaml", document: 1, type: "ParseError", severity: "error" });
    expect(findings[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it("refuses duplicate keys with both lines, as kubectl does (goyaml.v3: mapping key already defined)", () => {
    // kubernetes/kubernetes#99286: go-yaml v2 kept the last value silently; kubectl (through
    // kustomize's goyaml.v3) answers `line 2: mapping key "a" already defined at line 1`.
    const { documents, findings } = parseSource("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n", "dup.yaml");
    expect(documents).toEqual([]);
    expect(findings.map((f) => [f.line, f.column, f.severity, f.message])).toEqual([
      [4, 3, "error", 'Invalid document: mapping key "c" already defined at line 3'],
      [5, 1, "error", 'Invalid document: mapping key "a" already defined at line 1'],
    ]);
  });

  it("finds duplicate keys in time linear in the keys (32,000 keys)", () => {
    const keys = Array.from({ length: 32_000 }, (_, i) => `  k${i}: v`).join("\n");
    const started = performance.now();
    const { findings } = parseSource(`data:\n${keys}\n  k7: again\n`, "big.yaml");
    expect(findings.map((f) => f.message)).toEqual(['Invalid document: mapping key "k7" already defined at line 9']);
    expect(performance.now() - started).toBeLessThan(5_000); // quadratic took 14 s
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

  it("refuses an alias bomb in go-yaml's words, on the alias that tips the ratio", () => {
    const bomb = [
      "a: &a [x,x,x,x,x,x,x,x,x]",
      "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
      "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
    ].join("\n");
    const { documents, findings } = parseSource(bomb, "bomb.yaml");
    expect(documents).toEqual([]);
    expect(findings.map((f) => [f.line, f.message])).toEqual([
      [4, "Invalid document: document contains excessive aliasing"],
    ]);
  });

  it("refuses an anchor whose alias refers to itself, in go-yaml's words, instead of looping", () => {
    for (const text of ["a: &a [*a]\n", "a: &a {b: {c: *a}}\n", "- &x\n  - *x\n"]) {
      const { documents, findings } = parseSource(text, "loop.yaml");
      expect(documents).toEqual([]);
      expect(findings[0]?.message).toMatch(/^Invalid document: anchor '(a|x)' value contains itself$/);
    }
  });

  it("expands ordinary aliases and merge keys as go-yaml v2: a key after << overrides, one before is overridden", () => {
    const text =
      "base: &b {x: 1, q: 1}\nlist: [&s v, *s, *s]\nm:\n  q: 0\n  <<: *b\n  x: 2\no:\n  <<: [{z: 1}, {z: 2, w: 2}]\n";
    const [doc] = parseSource(text, "m.yaml").documents;
    expect(doc?.value).toEqual({
      base: { x: 1, q: 1 },
      list: ["v", "v", "v"],
      m: { q: 1, x: 2 },
      o: { z: 1, w: 2 },
    });
  });

  it("accepts many aliases of small anchors, the share go-yaml allows, in linear time", () => {
    const text = `a: &a v\nitems:\n${"- *a\n".repeat(100_000)}`;
    const started = performance.now();
    const { documents, findings } = parseSource(text, "aliases.yaml");
    expect(findings).toEqual([]);
    expect(documents[0]?.value).toMatchObject({ items: { length: 100_000 } });
    expect(performance.now() - started).toBeLessThan(5_000);
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

describe("parseSource on a stream of JSON values (what tools writing one JSON object per line write)", () => {
  // apimachinery's YAMLOrJSONDecoder reads a text starting with { through encoding/json's Decoder,
  // one value after another: kubectl applies each as an object of its own.
  const cm = (name: string, data: string) =>
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":${data}}`;

  it("reads each value as a document of its own, and locates its fields in the whole text", () => {
    const text = `${cm("a", '{"x":"1"}')}
${cm("b", '{"y":"2"}')}
`;
    const { documents, findings } = parseSource(text, "two.json");
    expect(findings).toEqual([]);
    expect(documents.map((d) => [d.index, d.value])).toEqual([
      [0, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { x: "1" } }],
      [1, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "b" }, data: { y: "2" } }],
    ]);
    expect(documents[1]?.locate(["metadata", "name"])).toEqual({ line: 2, column: 51 });
    expect(documents[1]?.locate(["data", "y"])).toEqual({ line: 2, column: 71 });
  });

  it("reads three values, blank lines, a byte order mark, and values sharing a line, and keeps each value's text", () => {
    const text = `\uFEFF\n  {"a": 1}\n\n{"b":\n  {"c": [1, 2]}\n} {"d": null}{"e": "f"}`;
    const { documents, findings } = parseSource(text, "three.json");
    expect(findings).toEqual([]);
    expect(documents.map((d) => [d.index, d.value])).toEqual([
      [0, { a: 1 }],
      [1, { b: { c: [1, 2] } }],
      [2, { d: null }],
      [3, { e: "f" }],
    ]);
    expect(documents[1]?.locate(["b", "c", 1])).toEqual({ line: 5, column: 13 });
    expect(documents[2]?.locate(["d"])).toEqual({ line: 6, column: 4 });
    expect(documents[3]?.locate(["e"])).toEqual({ line: 6, column: 15 });
    // Each value with the blanks after it: the stream is their texts one after another.
    expect(documents.map((d) => d.render([])).join("")).toBe(text.slice(text.indexOf("{")));
  });

  it("refuses a duplicate key in a value, as the API server's strict decoding does, and reads the others", () => {
    const text = `${cm("a", "{}")}\n{"kind": "ConfigMap",\n "kind": "Secret"}\n${cm("c", "{}")}\n`;
    const { documents, findings } = parseSource(text, "dup.json");
    expect(documents.map((d) => d.index)).toEqual([0, 2]);
    expect(findings.map((f) => [f.line, f.column, f.document, f.message])).toEqual([
      [3, 2, 1, 'Invalid document: mapping key "kind" already defined at line 2'],
    ]);
  });

  it("refuses what follows the values and is no JSON value, once, where Go's decoder stops, in its words", () => {
    const says = (go: string) =>
      `Invalid document: not a JSON value: kubectl reads a file that starts with several JSON values as a stream of JSON values to its end, and refuses this ("${go}")`;
    const two = `{"a": 1}\n{"b": 2}\n`;
    for (const [tail, line, column, go] of [
      ["kind: ConfigMap\nmetadata: {}\n", 3, 1, "invalid character 'k' looking for beginning of value"],
      ['---\n{"c": 3}\n', 3, 2, "invalid character '-' in numeric literal"],
      ['{"c": tru}\n{"d": 4}\n', 3, 10, "invalid character '}' in literal true (expecting 'e')"],
      ['{"c": 3,}\n', 3, 9, "invalid character '}' looking for beginning of object key string"],
      ['{"c": [1 2]}\n', 3, 10, "invalid character '2' after array element"],
      ['{"c": "\t"}\n', 3, 8, "invalid character '\\t' in string literal"],
      ['{"c": 3\n', 3, 1, "unexpected EOF"],
    ] as const) {
      const { documents, findings } = parseSource(two + tail, "tail.json");
      expect(documents.map((d) => d.value)).toEqual([{ a: 1 }, { b: 2 }]);
      expect(findings.map((f) => [f.line, f.column, f.document, f.message])).toEqual([[line, column, 2, says(go)]]);
    }
  });

  it("reads a JSON value followed by a --- line as YAML, as Go's decoder does after one value", () => {
    const { documents, findings } = parseSource(`{"a": 1}\n---\nb: 2\n---\n{"c": 3}\n`, "y.json");
    expect(findings).toEqual([]);
    expect(documents.map((d) => [d.index, d.value])).toEqual([
      [0, { a: 1 }],
      [1, { b: 2 }],
      [2, { c: 3 }],
    ]);
    expect(documents[2]?.locate(["c"])).toEqual({ line: 5, column: 2 });
  });
});

describe("a document's root position, told without its syntax tree", () => {
  // A path whose first key no document has: the syntax tree stops at the root and places it.
  const byTree = { key: "\u0000 no such key" };

  it("is where the syntax tree puts it, after comments, blank lines and `---`, in YAML and in JSON streams", () => {
    const yaml = "# a comment\n\n  # indented\nkind: A\n---\n\n  apiVersion: v1\n  kind: B\n--- # next\n\t[1]\n";
    for (const source of [yaml, '{"a": 1}  {"b": 2}\n  {"c": 3}']) {
      const { documents } = parseSource(source, "x.yaml");
      expect(documents.length).toBeGreaterThan(1);
      for (const doc of documents) expect(doc.locate([])).toEqual(doc.locate([byTree]));
    }
  });

  it("agrees with the syntax tree on every document of the corpus", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ya?ml|json)$/.test(entry.name)) files.push(path);
      }
    };
    walk(corpus);
    let documents = 0;
    for (const file of files) {
      for (const doc of parseSource(readFileSync(file, "utf8"), file).documents) {
        documents++;
        expect(doc.locate([]), `${file} #${doc.index}`).toEqual(doc.locate([byTree]));
      }
    }
    expect(documents).toBeGreaterThan(500);
  });
});

describe("explicit scalar tags, as go-yaml v2 resolves them (resolve.go)", () => {
  const read = (value: string) => parseSource(`x: ${value}\n`, "t.yaml");
  it.each([
    ["!!int 12", 12],
    ["!!int '12'", 12],
    ["!!int 0x1F", 31],
    ["!!float 12", 12],
    ["!!float 1.5", 1.5],
    ["!!bool yes", true],
    ["!!str 12", "12"],
  ])("%s is %j", (value, want) => {
    const { documents, findings } = read(value);
    expect(findings).toEqual([]);
    expect(documents[0]?.value).toEqual({ x: want });
  });

  it.each([
    ["!!int abc", "cannot decode !!str `abc` as a !!int"],
    ["!!int 1.5", "cannot decode !!float `1.5` as a !!int"],
    ["!!bool 1", "cannot decode !!int `1` as a !!bool"],
    ["!!int ~", "cannot decode !!null `~` as a !!int"],
    ["!!float 1e400", "cannot decode !!str `1e400` as a !!float"],
  ])("%s is refused: %s", (value, message) => {
    const { documents, findings } = read(value);
    expect(documents).toEqual([]);
    expect(findings.map((f) => [f.message, f.line])).toEqual([[`Invalid document: ${message}`, 1]]);
  });
});
