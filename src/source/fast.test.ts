import fc from "fast-check";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { goYamlSchema, readQuickly } from "./fast.js";
import { parseSource } from "./index.js";
import { goYaml } from "./schema.js";
import { readTree } from "./tree.js";

/** What the full reading (index.ts) makes of one document: its value, or undefined where it reports a problem. */
function readFully(text: string): unknown {
  const doc = parseDocument(text, goYaml);
  if (doc.errors.length > 0) {
    // The lenient reading, as index.ts does it once the `yaml` package refuses the text.
    try {
      return load(text, { schema: goYamlSchema, json: true }) ?? null;
    } catch {
      return undefined;
    }
  }
  const tree = readTree(doc, 512);
  return tree.refusal || tree.duplicates.length > 0 || tree.nonFinite ? undefined : (tree.value ?? null);
}

// Scalars in every spelling go-yaml v2 reads as something other than a string, and near misses.
const scalar = fc.oneof(
  fc.constantFrom("x", "1", "-1", "+1", "0.5", ".5", "1.", "1e3", "1E-3", "e5", "1_000", "0x1F", "0X1f", "0b101"),
  fc.constantFrom("0o17", "017", "08", "12:30", ".inf", "-.Inf", ".NaN", "~", "null", "Null", "NULL", "nULL", ""),
  fc.constantFrom("y", "Y", "yes", "No", "on", "OFF", "true", "False", "TRUE", "tRUE", "2001-01-01", "<<", "= "),
  fc.constantFrom("'quoted'", '"d\\tq"', '"\\u00e9"', "'it''s'", '"1"', "'yes'", "a b", "a: b", "#", "- x", "*a"),
  fc.stringMatching(/^[a-zA-Z0-9 .:_-]{0,10}$/),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
);
const key = fc.oneof(
  scalar,
  fc.constantFrom(
    "a",
    "b",
    "? a",
    "[a]",
    "[a] #c\n",
    "{a: 1}",
    "? [a]",
    "? {a: 1}",
    "? - a\n",
    "__proto__",
    "null",
    "~",
  ),
);

type Tree = string | { seq: Tree[]; flow: boolean } | { map: Array<[string, Tree]>; flow: boolean };
const tree = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.record({ seq: fc.array(tie("node"), { maxLength: 4 }), flow: fc.boolean() }),
    fc.record({ map: fc.array(fc.tuple(key, tie("node")), { maxLength: 4 }), flow: fc.boolean() }),
  ),
})).node;

function flow(t: Tree): string {
  if (typeof t === "string") return t;
  if ("seq" in t) return `[${t.seq.map(flow).join(", ")}]`;
  return `{${t.map.map(([k, v]) => `${k}: ${flow(v)}`).join(", ")}}`;
}

function block(t: Tree, indent: number): string {
  const pad = " ".repeat(indent);
  if (typeof t !== "string" && !t.flow && "seq" in t && t.seq.length > 0)
    return t.seq.map((item) => `\n${pad}-${block(item, indent + 2)}`).join("");
  if (typeof t !== "string" && !t.flow && "map" in t && t.map.length > 0)
    return t.map.map(([k, v]) => `\n${pad}${k}:${block(v, indent + 2)}`).join("");
  return ` ${flow(t)}`;
}

// Block scalars, multi-line and quoted text, comments and line breaks, in the places manifests have them.
const textPart = fc.constantFrom("|", "|-", ">+", ">2", "'a\n  b'", '"a\\\n b"', "a\n  b", "x # c", "#c", "\t", "é");
const lines = fc.array(
  fc.tuple(fc.nat({ max: 4 }), fc.constantFrom("k: ", "- ", "", "k:", "  "), fc.oneof(scalar, textPart)),
  { maxLength: 8 },
);

const texts = fc.oneof(
  tree.map((t) => block(t, 0).replace(/^\n/, "").trimStart()),
  fc.jsonValue().map((v) => JSON.stringify(v, null, 1)),
  fc
    .tuple(lines, fc.constantFrom("\n", "\r\n"))
    .map(([ls, end]) => ls.map(([indent, lead, rest]) => " ".repeat(indent) + lead + rest).join(end)),
  fc
    .array(
      fc.constantFrom(
        "a",
        ":",
        " ",
        "\n",
        "\r",
        "\uFEFF",
        "\u0085",
        "\u2028",
        "{{ .Values.x }}",
        "constructor",
        "__proto__",
        "<<",
        "!",
        "%YAML 1.1\n",
        "...\n",
        "-",
        "[",
        "]",
        "{",
        "}",
        ",",
        "'",
        '"',
        "?",
        "#",
        "\t",
        "1",
        "y",
        "&a",
        "*a",
        "|",
        ">",
      ),
      {
        maxLength: 30,
      },
    )
    .map((parts) => parts.join("")),
);

describe("readQuickly", () => {
  it("gives the full reading's value whenever it gives one (property)", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const quick = readQuickly(text, 512);
        if (quick) expect(quick.value).toStrictEqual(readFully(text));
      }),
      { numRuns: 20000 },
    );
  });

  it("reads ordinary manifests itself, and leaves anchors, merge keys, tags, null and complex keys, empty list items, indented or kept block scalars and tabs in indentation to the full reading", () => {
    expect(readQuickly("apiVersion: v1\nkind: ConfigMap\ndata: {a: yes, b: 0777, c: '1'}\n", 512)).toEqual({
      value: { apiVersion: "v1", kind: "ConfigMap", data: { a: true, b: 511, c: "1" } },
    });
    for (const text of [
      "a: &x 1\nb: *x\n",
      "<<: {a: 1}\n",
      "a: !!str 1\n",
      "~: 1\n",
      "? a\n: 1\n",
      "[a]: 1\n",
      "a: 1\na: 2\n",
      "? - a\n: 1\n",
      "? [a] # c\n: 1\n",
      "{? [a]}",
      "a: [? [a]]\n",
      "- a\n-\n  - \n- b\n",
      "a: |2\n   x\n",
      "a: >+\n x\n \n",
      "{{ .Values.x }}\n",
      "a: {x, [b]}\n",
      "\rkind: x\n",
      "# c\n\uFEFF: 1\n",
      " k: |\n \t",
    ])
      expect(readQuickly(text, 512), text).toBeUndefined();
  });

  it("reads a number past float64's range as its text, and leaves infinity and NaN to the full reading", () => {
    expect(readQuickly("a: 1e400\nb: -1e999\n", 512)).toEqual({ value: { a: "1e400", b: "-1e999" } });
    for (const text of ["a: .inf\n", "a: [-.Inf]\n", "a: {b: .NaN}\n"])
      expect(readQuickly(text, 512), text).toBeUndefined();
  });

  it("leaves nesting near the limit to the full reading, which reports it", () => {
    const deep = `${"[".repeat(600)}x${"]".repeat(600)}`;
    expect(readQuickly(deep, 512)).toBeUndefined();
    expect(parseSource(deep, "deep.yaml").findings.map((f) => f.message)).toEqual([
      "Invalid document: document nests too deeply to be read",
    ]);
  });

  it("builds the syntax tree of a quickly read document only to locate a finding or render an edit", () => {
    const text = "# head\napiVersion: v1\nkind: ConfigMap\ndata:\n  a: x\n";
    const [doc] = parseSource(`a: 1\n---\n${text}`, "f.yaml").documents.slice(1);
    expect(doc?.locate(["data", "a"])).toEqual({ line: 7, column: 3 });
    expect(doc?.render([{ path: ["data", "a"], value: "z" }])).toBe(text.replace("a: x", "a: z"));
  });
});
