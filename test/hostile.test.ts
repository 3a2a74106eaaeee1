import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinSchemaFor } from "../src/builtins/index.js";
import { run } from "../src/cli/main.js";
import {
  compileSchema,
  type JsonValue,
  loadWorkspace,
  normalize,
  validateObjects,
  validateUnions,
  validateWithSchema,
} from "../src/index.js";
import { fromOpenAPI, parseGoTypes } from "../src/schema/index.js";
import { widgetCrd } from "./widget-crd.js";

function kunion(files: Record<string, string>, ...argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "kunion-hostile-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  let stdout = "";
  let stderr = "";
  const code = run([...argv, dir], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false });
  return { code, stdout, stderr };
}

const deployment = (strategy: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  strategy: ${strategy}\n`;

describe("hostile input never crashes and is named by file and line", () => {
  it("malformed YAML next to a valid document", () => {
    const { code, stdout } = kunion(
      { "m.yaml": `a: [1,\n---\n${deployment("{type: Recreate, rollingUpdate: {}}")}` },
      "validate",
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/m\.yaml:\d+:\d+: error parse: Invalid document: /);
    expect(stdout).toMatch(/m\.yaml:7:\d+: error union: spec\.strategy\.rollingUpdate: Forbidden/);
  });

  it("a YAML alias bomb", () => {
    const bomb = [
      "apiVersion: v1",
      "kind: ConfigMap",
      "data:",
      "  a: &a [x,x,x,x,x,x,x,x,x,x]",
      "  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]",
      "  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]",
      "  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      "  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]",
      "  f: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]",
    ].join("\n");
    const { code, stdout } = kunion({ "bomb.yaml": bomb }, "validate");
    expect(code).toBe(1);
    expect(stdout).toContain("bomb.yaml:7:16: error parse: Invalid document: document contains excessive aliasing");
  });

  it("an 11-byte anchor that refers to itself, through validate, normalize and crd-diff", () => {
    const loop = "a: &a [*a]\n";
    for (const argv of [["validate"], ["normalize"]]) {
      const { code, stdout, stderr } = kunion({ "loop.yaml": loop }, ...argv);
      expect(code).toBe(1);
      expect(stdout + stderr).toContain(
        "loop.yaml:1:8: error parse: Invalid document: anchor 'a' value contains itself",
      );
    }
    const dir = mkdtempSync(join(tmpdir(), "kunion-hostile-"));
    writeFileSync(join(dir, "loop.yaml"), loop);
    let stdout = "";
    const code = run(["crd-diff", join(dir, "loop.yaml"), join(dir, "loop.yaml")], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
      color: false,
    });
    expect(code).toBe(1);
    expect(stdout).toContain("anchor 'a' value contains itself");
  });

  it("a 3 MiB document is read; a larger one is refused as the API server would", () => {
    // Padded through data: annotations are capped at 256 KiB by the API server itself.
    const meta = (n: number) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata: {note: "${"x".repeat(n)}"}\n`;
    // Read whole: the only finding is the ConfigMap's own 1 MiB data limit (core.MaxSecretSize).
    const ok = kunion({ "ok.yaml": meta(3 * 1024 * 1024 - 200) }, "validate");
    expect(ok.stdout).toContain("ok.yaml:1:1: error schema: Too long: may not be more than 1048576 bytes");
    expect(ok.stdout).not.toContain("Request entity too large");
    const { code, stdout } = kunion({ "big.yaml": meta(3 * 1024 * 1024) }, "validate");
    expect(code).toBe(1);
    expect(stdout).toContain("big.yaml:1:1: error parse: Invalid document: Request entity too large: limit is 3145728");
  });

  it("10,000-deep nesting", () => {
    const deep = `apiVersion: v1\nkind: ConfigMap\ndata: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`;
    const { code, stdout } = kunion({ "deep.yaml": deep }, "validate");
    expect(code).toBe(1);
    expect(stdout).toMatch(/deep\.yaml:\d+:\d+: error parse: Invalid document: document nests too deeply/);
  });

  it("a binary file named .yaml", () => {
    const { code, stdout } = kunion({ "bin.yaml": "\u0000\u0001\u0002PNG" }, "validate");
    expect(code).toBe(1);
    expect(stdout).toContain("bin.yaml:1:1: error parse: Invalid document: input is binary, not YAML or JSON");
  });

  it("documents that are not objects, or lack apiVersion and kind", () => {
    const { stdout } = kunion({ "odd.yaml": "- a\n- b\n---\nmetadata: {name: x}\n" }, "validate");
    expect(stdout).toContain("odd.yaml:1:1: error object: Invalid document: a Kubernetes object must be a mapping");
    expect(stdout).toContain("odd.yaml:4:1: error object: apiVersion: Required value");
    expect(stdout).toContain("odd.yaml:4:1: error object: kind: Required value");
  });

  it("non-string discriminators are reported, never thrown", () => {
    for (const bad of ["7", "[RollingUpdate]", "{x: 1}", "true"]) {
      const { code, stdout } = kunion({ "d.yaml": deployment(`{type: ${bad}, rollingUpdate: {}}`) }, "validate");
      expect(code, bad).toBe(1);
      expect(stdout, bad).toMatch(
        /d\.yaml:5:\d+: error schema: spec\.strategy\.type: Invalid value: .* in body must be of type string/,
      );
    }
    const crd = fromOpenAPI({
      type: "object",
      properties: {
        t: { type: "string", enum: ["A"] },
        a: { type: "object" },
      },
      "x-kubernetes-unions": [{ discriminator: "t", "fields-to-discriminateBy": { a: "A" } }],
    }).root;
    const found = validateUnions({ object: { t: 7, a: {} }, schema: crd });
    expect(found.map((f) => f.message)).toEqual([
      't: Invalid value: "integer": t in body must be of type string: "integer"',
      'a: Invalid value: "": may only be specified when `t` is "A"',
    ]);
    // Not overwritten: deducing "A" would hide the type error the API server reports.
    const normalized = normalize({ object: { t: [1], a: {} }, schema: crd });
    expect(normalized.object).toEqual({ t: [1], a: {} });
    expect(normalized.notes.map((n) => n.message)).toEqual(["`t` is a list, not a string: left as is"]);
  });
});

describe("an object with more findings than a call can take arguments", () => {
  // Past about 125,000 elements, `push(...findings)` overflows V8's stack.
  const n = 200_000;

  it("a custom resource whose list holds 200,000 wrong items", () => {
    const crd = crdWithSpec({ type: "object", properties: { items: { type: "array", items: { type: "string" } } } });
    const text = thing({ items: Array.from({ length: n }, () => 1) });
    const ws = loadWorkspace({ inputs: [{ path: "t.json", text }], crds: [{ path: "crd.json", text: crd }] });
    const found = validateObjects(ws.objects, ws.catalog);
    expect(found).toHaveLength(n);
    expect(found[n - 1]?.message).toBe(
      `spec.items[${n - 1}]: Invalid value: "integer": spec.items[${n - 1}] in body must be of type string: "integer"`,
    );
    expect(found[n - 1]?.column).toBe(text.length - 3);
  });

  it("200,000 invalid label keys, and a list wrong in an allOf branch, through validateWithSchema", () => {
    const schema = (spec: JsonValue): JsonValue => ({
      type: "object",
      properties: { metadata: { type: "object" }, spec },
    });
    const labels = Object.fromEntries(Array.from({ length: n }, (_, i) => [`-${i}`, ""]));
    const meta = compileSchema(schema({ type: "object" })).compiled;
    const byLabels = validateWithSchema(meta, { metadata: { name: "t", labels } }).findings;
    expect(byLabels).toHaveLength(n);
    expect(byLabels[n - 1]?.message).toMatch(
      new RegExp(`^metadata\\.labels: Invalid value: "-${n - 1}": name part must`),
    );
    const branch = compileSchema(schema({ type: "array", allOf: [{ items: { type: "string" } }] })).compiled;
    const byBranch = validateWithSchema(branch, { metadata: { name: "t" }, spec: Array.from({ length: n }, () => 1) });
    expect(byBranch.findings).toHaveLength(n + 1);
    expect(byBranch.findings[n]?.message).toBe(
      'spec: Invalid value: "": "spec" must validate all the schemas (allOf). None validated',
    );
  });
});

describe("more documents or list items than a call can take arguments", () => {
  const n = 140_000;

  it("a kind: List of 140,000 items that are no objects, and a file of 140,000 documents", () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n${"- 1\n".repeat(n)}`;
    const fromList = loadWorkspace({ inputs: [{ path: "l.yaml", text: list }] });
    expect(fromList.findings).toHaveLength(n);
    expect(fromList.findings[n - 1]?.line).toBe(n + 3);
    const docs = "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n".repeat(n);
    const fromDocs = loadWorkspace({ inputs: [{ path: "d.yaml", text: docs }] });
    expect(fromDocs.objects).toHaveLength(n);
  });
});

describe("__proto__ and constructor are data, never prototypes", () => {
  const polluted = () => ({}) as Record<string, unknown>;

  it("through normalization of a built-in map and list", () => {
    const object = JSON.parse(
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"__proto__":"x","constructor":"y"}},
        "spec":{"template":{"spec":{"containers":[{"name":"__proto__","env":[{"name":"constructor","value":"v",
        "valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}}}`,
    ) as JsonValue;
    const schema = builtinSchemaFor("apps/v1", "Deployment");
    const result = normalize({ object, oldObject: object, schema });
    expect(JSON.stringify(result.object)).toContain('"__proto__":"x"');
    expect(polluted().name).toBeUndefined();
    const findings = validateUnions({ object, schema }).map((f) => f.message);
    expect(findings).toEqual([
      'spec.template.spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ]);
  });

  it("through a CRD whose schema names properties __proto__ and constructor", () => {
    const crd = widgetCrd({
      kind: "X",
      properties: `spec:
  type: object
  properties:
    __proto__: {type: object}
    constructor: {type: object}
  x-kubernetes-validations:
  - rule: "[has(self.__underscores__proto__underscores__),has(self.constructor)].filter(x,x==true).size() <= 1"`,
    });
    const object =
      '{"apiVersion":"example.com/v1","kind":"X","metadata":{"name":"x"},"spec":{"__proto__":{},"constructor":{}}}';
    const ws = loadWorkspace({ inputs: [{ path: "x.json", text: object }], crds: [{ path: "crd.yaml", text: crd }] });
    expect(ws.findings).toEqual([]);
    const found = validateObjects(ws.objects, ws.catalog).map((f) => `${f.line}: ${f.message}`);
    // CEL names the field `__underscores__proto__underscores__` (Kubernetes' escaping); the rule reports it itself.
    expect(found).toEqual([
      "1: spec: Invalid value: failed rule: [has(self.__underscores__proto__underscores__),has(self.constructor)].filter(x,x==true).size() <= 1",
    ]);
    expect(polluted().type).toBeUndefined();
  });

  it("through Go types with hostile names", () => {
    const types = parseGoTypes([
      {
        path: "x_types.go",
        text: 'type __proto__ struct {\n\t// +unionMember\n\tConstructor *int `json:"constructor"`\n}\n',
      },
    ]);
    expect(types).toBeDefined();
    expect(polluted().Constructor).toBeUndefined();
  });
});

/** A one-version CRD `Thing` of example.com whose `spec` has the given schema. */
function crdWithSpec(spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.example.com" },
    spec: {
      group: "example.com",
      names: { kind: "Thing", plural: "things" },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec } } },
        },
      ],
    },
  });
}
const thing = (spec: unknown) =>
  JSON.stringify({ apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t" }, spec });

describe("hostile schemas are answered with findings, fast", () => {
  it("a CRD with 1,000 CEL rules, one of which does not compile", () => {
    const rules = Array.from({ length: 1000 }, (_, i) => ({ rule: i === 500 ? "self.n +" : `self.n != ${i}` }));
    const crd = crdWithSpec({
      type: "object",
      properties: { n: { type: "integer" } },
      "x-kubernetes-validations": rules,
    });
    const { stdout } = kunion({ "crd.json": crd, "thing.json": thing({ n: 7 }) }, "validate");
    expect(stdout).toMatch(
      /crd\.json:1:\d+: error cel: .*x-kubernetes-validations\[500\]\.rule: Invalid schema: compilation failed/,
    );
    expect(stdout).toContain("thing.json:1:71: error cel: spec: Invalid value: failed rule: self.n != 7");
    expect(stdout.match(/failed rule/g)).toHaveLength(1);
  });

  it("a catastrophic pattern against a long string", () => {
    const crd = crdWithSpec({ type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } });
    const started = performance.now();
    const { stdout } = kunion({ "crd.json": crd, "thing.json": thing({ s: `${"a".repeat(50_000)}b` }) }, "validate");
    // RE2 is linear; a backtracking RegExp would not return in our lifetime.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(stdout).toContain("spec.s in body should match '^(a+)+$'");
  });

  it("a rule that would run away over an unbounded list stops on the cost limit", () => {
    const crd = crdWithSpec({
      type: "object",
      properties: { items: { type: "array", items: { type: "integer" } } },
      "x-kubernetes-validations": [{ rule: "self.items.all(x, self.items.all(y, self.items.all(z, x + y + z >= 0)))" }],
    });
    const started = performance.now();
    const items = Array.from({ length: 10_000 }, (_, i) => i);
    const { code, stdout } = kunion({ "crd.json": crd, "thing.json": thing({ items }) }, "validate");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(code).toBe(1);
    expect(stdout).toMatch(/cost/);
  });

  it("a List whose every item spends its CEL budget stops on the document's work budget, and the run goes on", () => {
    // Each item: 20 rules of about 450,000 each, under the API server's per-call and per-object limits.
    const rule = "self.items.all(x, self.items.all(y, x + y >= 0))";
    const crd = crdWithSpec({
      type: "object",
      properties: { items: { type: "array", items: { type: "integer" } } },
      "x-kubernetes-validations": Array.from({ length: 20 }, (_, i) => ({ rule: `${rule} || ${i} < 0` })),
    });
    const item = { ...JSON.parse(thing({ items: Array.from({ length: 300 }, (_, i) => i) })), kind: "Thing" };
    const list = JSON.stringify({ apiVersion: "v1", kind: "List", items: Array.from({ length: 40 }, () => item) });
    const started = performance.now();
    const { stdout } = kunion(
      { "crd.json": crd, "list.json": list, "next.json": thing({ items: "not a list" }) },
      "validate",
    );
    expect(performance.now() - started).toBeLessThan(30_000);
    const stopped = stdout.split("\n").filter((l) => l.includes("work budget"));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatch(
      /\/list\.json:1:\d+: error work-budget: spec: Invalid value: kunion stopped evaluating validation rules here: the document exceeds its work budget of 20000000 cost units/,
    );
    // Located in the third item (one object's whole budget and more fit; the items share the document's).
    const column = Number(/list\.json:1:(\d+)/.exec(stopped[0] ?? "")?.[1]);
    expect(list.slice(0, column)).toMatch(/\{"apiVersion":"example\.com\/v1"/);
    expect(list.slice(0, column).match(/"kind":"Thing"/g)).toHaveLength(3);
    // The next file is still validated.
    expect(stdout).toMatch(
      /next\.json:1:\d+: error schema: spec\.items: Invalid value: "string": spec\.items in body must be of type array/,
    );
  });
});
