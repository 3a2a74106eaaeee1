import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FieldPath } from "../path/index.js";
import type { JsonObject, JsonValue } from "../value/index.js";
import { type Edit, parseSource, printYaml, readsAsNonString } from "./index.js";
import { applyEdits } from "./render.js";

const readBack = (text: string): JsonValue | undefined => {
  const { documents, findings } = parseSource(text, "printed.yaml");
  expect(findings, text).toEqual([]);
  expect(documents, text).toHaveLength(1);
  return documents[0]?.value;
};

// Every spelling go-yaml v2 (resolve.go) or a YAML 1.1 reader takes for something other than a string.
const yaml11Words = ["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false"];
const moreWords = ["False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "yEs", "oN", "nULL", "~", "null", "Null"];
const numbers = ["0x1F", "0X1f", "-0x1F", "0o17", "0O17", "017", "-017", "0b101", "-0b101", "1_000", "+1", "-0"];
const floats = ["1e3", "1E3", "-1e-3", "1.", ".5", "-.5e3", "1_0.5", "+.5", ".", "e5", ".e5", "1_000.0_1", "0x1p3"];
const special = [".inf", "-.inf", "+.INF", ".Inf", ".nan", ".NaN", ".NAN", "1:20", "-1:20:30.5", "190:20:30"];
const dates = ["2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-1-1", "<<"];
const yaml11Spellings = [...yaml11Words, ...moreWords, ...numbers, ...floats, ...special, ...dates, ""];

const tricky = [
  ...yaml11Spellings,
  "a: b",
  "- x",
  "#c",
  "a #c",
  "x:",
  "*a",
  "&a",
  "!t",
  "%x",
  "@x",
  "`x",
  "'",
  '"',
  "---",
  "--- x",
  "...",
  "a\n---\nb",
  "line\nline",
  " lead",
  "trail ",
  "a \nb",
  "\n",
  "\tx",
  "x\t",
  "a\rb",
  "\u0085",
  "a\u2028b",
  "\u2029",
  "\uFEFFx",
  "\u0000",
  "\uD800",
  "💥",
  "{{ .Values.x }}",
  "[a]",
  "{a: 1}",
  "? x",
  "? ",
  "- ",
  "x".repeat(200),
  `${"word ".repeat(40)}end`,
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...tricky) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[-+.0-9a-fA-Fxob_:eE]{1,8}$/) },
);
const scalar = fc.oneof(
  text,
  // JSON values: no infinity (nor NaN), which parseSource refuses as go-yaml's JSON conversion does.
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, 1e21, -1e-7, 5e-324),
);
const value = fc.letrec<{ value: JsonValue; object: JsonObject }>((tie) => ({
  value: fc.oneof({ depthSize: "small" }, scalar, tie("object"), fc.array(tie("value"), { maxLength: 4 })),
  object: fc.dictionary(text, tie("value"), { maxKeys: 5, noNullPrototype: true }) as fc.Arbitrary<JsonObject>,
})).object;

describe("printYaml", () => {
  it("quotes every YAML 1.1 boolean, null, number and timestamp spelling, values and keys alike", () => {
    for (const s of yaml11Spellings) {
      expect(readsAsNonString(s), s).toBe(true);
      const printed = printYaml({ [s]: s, list: [s] });
      expect(readBack(printed), printed).toEqual({ [s]: s, list: [s] });
      expect(printed, s).not.toMatch(new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`, "m"));
    }
  });

  it("leaves ordinary strings plain", () => {
    expect(printYaml({ image: "nginx:1.27", cpu: "500m", memory: "1Gi", name: "web", version: "1.2.3" })).toBe(
      "image: nginx:1.27\ncpu: 500m\nmemory: 1Gi\nname: web\nversion: 1.2.3\n",
    );
  });

  it("never folds a long string, however deep (regressions.yaml: a string 19 levels deep)", () => {
    let deep: JsonValue = `${"a".repeat(20)} ${"b".repeat(100)}`;
    for (let i = 0; i < 30; i++) deep = [deep];
    const printed = printYaml({ x: deep });
    expect(printed).toContain(`${"a".repeat(20)} ${"b".repeat(100)}\n`);
    expect(readBack(printed)).toEqual({ x: deep });
  });

  it("prints an object shared twice in full, without anchors", () => {
    const shared = { a: 1 };
    expect(printYaml({ first: shared, second: shared })).toBe("first:\n  a: 1\nsecond:\n  a: 1\n");
  });

  it("reads back as the same value, for any value (property)", () => {
    fc.assert(
      fc.property(value, (v) => {
        const printed = printYaml(v);
        expect(readBack(printed), printed).toEqual(v);
      }),
      { numRuns: 1000 },
    );
  });
});

/** Paths to every node of a value, the root excepted. */
function pathsOf(v: JsonValue, path: (string | number)[] = []): (string | number)[][] {
  if (v === null || typeof v !== "object") return [];
  const entries: [string | number, JsonValue][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return entries.flatMap(([k, x]) => [[...path, k], ...pathsOf(x, [...path, k])]);
}

describe("SourceDocument.render", () => {
  it("edits in place a document without aliases, and the text reads back as the edited value (property)", () => {
    const edit = fc.record({
      pick: fc.nat(),
      value: fc.option(
        value.map((o) => o as JsonValue),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(value, fc.array(edit, { minLength: 1, maxLength: 3 }), (base, picks) => {
        const paths = pathsOf(base).filter((p) => typeof p[p.length - 1] === "string");
        fc.pre(paths.length > 0);
        const edits: Edit[] = picks.map(({ pick, value: set }) => ({
          path: paths[pick % paths.length] as FieldPath,
          value: set,
        }));
        // As normalization edits a union: distinct fields, none inside another.
        const inside = (a: FieldPath, b: FieldPath) => a.length <= b.length && a.every((s, i) => s === b[i]);
        fc.pre(edits.every((a, i) => edits.every((b, j) => i === j || !inside(a.path, b.path))));
        const [doc] = parseSource(`# head\n${printYaml(base)}`, "d.yaml").documents;
        const lost: string[] = [];
        const rendered = doc?.render(edits, (why) => lost.push(why)) as string;
        expect(readBack(rendered), rendered).toEqual(applyEdits(base, edits));
        expect(lost).toEqual([]);
        expect(rendered).toContain("# head\n");
      }),
      { numRuns: 500 },
    );
  });

  it("returns the text byte for byte when there are no edits", () => {
    const text = "# c\na:   {x: 1}   # odd\nb: yes\n";
    expect(parseSource(text, "d.yaml").documents[0]?.render([])).toBe(text);
  });

  it("quotes the strings it writes: a CronJob field set to no, on or 0x1F stays a string", () => {
    const [doc] = parseSource("spec:\n  schedule: {minute: '1'}  # keep\n", "c.yaml").documents;
    const edits = [
      { path: ["spec", "schedule", "hour"], value: "no" },
      { path: ["spec", "schedule", "day"], value: "0x1F" },
      { path: ["spec", "schedule", "on"], value: "1:20" },
    ];
    const rendered = doc?.render(edits) as string;
    expect(rendered).toContain("# keep");
    expect(readBack(rendered)).toEqual({ spec: { schedule: { minute: "1", hour: "no", day: "0x1F", on: "1:20" } } });
  });

  it("prints anew, and says why, an edit through an alias: the anchor's other uses keep their value", () => {
    const text = "x-anchor: &a1\n  s3: {bucket: b}\nspec:\n  destination: *a1  # c\n";
    const [doc] = parseSource(text, "d.yaml").documents;
    const lost: string[] = [];
    const rendered = doc?.render([{ path: ["spec", "destination", "type"], value: "S3" }], (w) => lost.push(w));
    expect(lost).toEqual(["spec.destination is an alias of the anchor &a1, which other places share"]);
    expect(readBack(rendered as string)).toEqual({
      "x-anchor": { s3: { bucket: "b" } },
      spec: { destination: { s3: { bucket: "b" }, type: "S3" } },
    });
  });

  it("prints anew, and says why, the removal of a field a merge key gives", () => {
    const text = "a: &s {type: Recreate, rollingUpdate: {maxSurge: 1}}\nspec:\n  strategy: {<<: *s}\n";
    const [doc] = parseSource(text, "d.yaml").documents;
    const lost: string[] = [];
    const rendered = doc?.render([{ path: ["spec", "strategy", "rollingUpdate"] }], (w) => lost.push(w));
    expect(lost).toEqual(["spec.strategy takes fields from a merge key (<<), which other places share"]);
    expect(readBack(rendered as string)).toEqual({
      a: { type: "Recreate", rollingUpdate: { maxSurge: 1 } },
      spec: { strategy: { type: "Recreate" } },
    });
  });

  it("edits in place a field next to a merge key, which overrides the merged one", () => {
    const text = "a: &s {type: Recreate}\nspec:\n  strategy:\n    <<: *s\n    x: 1 # c\n";
    const [doc] = parseSource(text, "d.yaml").documents;
    const lost: string[] = [];
    const rendered = doc?.render([{ path: ["spec", "strategy", "type"], value: "RollingUpdate" }], (w) => lost.push(w));
    expect(lost).toEqual([]);
    expect(rendered).toContain("# c");
    expect(readBack(rendered as string)).toEqual({
      a: { type: "Recreate" },
      spec: { strategy: { type: "RollingUpdate", x: 1 } },
    });
  });

  it("prints anew a document only the lenient reader could read, and keeps it byte for byte without edits", () => {
    // go-yaml reads a quoted scalar whose closing quote sits at its key's indentation; the yaml package does not.
    const text = "# c\nargs: ['\n  a\n']\nkind: X\n";
    const [doc] = parseSource(text, "d.yaml").documents;
    expect(doc?.value).toEqual({ args: [" a "], kind: "X" });
    expect(doc?.render([])).toBe(text);
    const lost: string[] = [];
    const rendered = doc?.render([{ path: ["kind"], value: "no" }], (w) => lost.push(w));
    expect(lost).toEqual(["only a lenient reading could read it: its syntax tree is not the document"]);
    expect(readBack(rendered as string)).toEqual({ args: [" a "], kind: "no" });
  });

  it("keeps a value of a JSON stream JSON, with the blanks after it: edited in place, or else printed anew as JSON", () => {
    // YAML among the values would end the stream for kubectl, which reads it as JSON to its end.
    const text = '{"a": 1}\r\n{"spec": {"s": {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}}}\r\n\r\n{"c": 3}';
    const documents = parseSource(text, "s.json").documents;
    const lost: string[] = [];
    const cleared = documents[1]?.render([{ path: ["spec", "s", "rollingUpdate"] }], (w) => lost.push(w));
    expect(cleared).toBe('{"spec": {"s": {"type": "Recreate"}}}\r\n\r\n');
    expect(lost).toEqual([]);
    // The `yaml` package writes a new mapping in flow style with plain keys: YAML, not JSON.
    const set = documents[2]?.render([{ path: ["d"], value: { e: "yes" } }], (w) => lost.push(w));
    expect(set).toBe('{"c":3,"d":{"e":"yes"}}');
    expect(lost).toEqual(["the text edited in place is not JSON, which a value of a JSON stream must stay"]);
    expect(documents[0]?.render([])).toBe('{"a": 1}\r\n');
  });
});
