import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import type { JsonObject, JsonValue } from "../value/index.js";
import { type CelRules, compileRules, evaluateRules } from "./index.js";
import { escapeName, unescapeName } from "./language/escape.js";
import { besidesEstimatedCost } from "./libraries/testing.js";
import type { CompiledRules } from "./rules.js";

const budget = () => ({ remaining: 10_000_000 });
const corpus = join(import.meta.dirname, "../../../shared/corpus");

function compile(node: JsonObject, resourceRoot = false) {
  const out = compileRules(node, ["spec", "validation", "openAPIV3Schema"], { resourceRoot });
  return out;
}
function withRules(schema: JsonObject, ...rules: JsonObject[]): JsonObject {
  return { ...schema, "x-kubernetes-validations": rules };
}
function messages(schema: JsonObject, self: JsonValue, oldSelf?: JsonValue, path = ["spec"]): string[] {
  const { rules, findings } = compile(schema);
  expect(besidesEstimatedCost(findings).map((f) => f.message)).toEqual([]);
  if (rules === undefined) throw new Error("no rules");
  return evaluateRules(rules, self, oldSelf, path, budget(), "type").map((f) => f.message);
}

describe("property name escaping", () => {
  test("escapes as apiserver/pkg/cel/escaping.go", () => {
    expect(escapeName("namespace")).toBe("__namespace__");
    expect(escapeName("in")).toBe("__in__");
    expect(escapeName("foo-bar")).toBe("foo__dash__bar");
    expect(escapeName("a.b/c")).toBe("a__dot__b__slash__c");
    expect(escapeName("x__y")).toBe("x__underscores__y");
    expect(escapeName("__x")).toBe("__underscores__x");
    expect(escapeName("plain_name1")).toBe("plain_name1");
    expect(escapeName("1abc")).toBeUndefined();
    expect(escapeName("a b")).toBeUndefined();
    expect(escapeName("a:b")).toBeUndefined();
    expect(unescapeName("foo__dash__bar__dot__baz")).toBe("foo-bar.baz");
    expect(unescapeName("__namespace__")).toBe("namespace");
  });
  test("escaped names in rules; unescapable names are not accessible", () => {
    const schema = withRules(
      {
        type: "object",
        properties: {
          namespace: { type: "string" },
          "foo-bar": { type: "integer" },
          "a.b": { type: "string" },
          "x y": { type: "string" },
        },
      },
      { rule: "self.__namespace__ == 'ns' && self.foo__dash__bar == 1 && self.a__dot__b == 'v'" },
    );
    expect(messages(schema, { namespace: "ns", "foo-bar": 1, "a.b": "v" })).toEqual([]);
    expect(messages(schema, { namespace: "other", "foo-bar": 1, "a.b": "v" })).toEqual([
      `spec: Invalid value: "object": failed rule: self.__namespace__ == 'ns' && self.foo__dash__bar == 1 && self.a__dot__b == 'v'`,
    ]);
    const bad = compile(
      withRules({ type: "object", properties: { namespace: { type: "string" } } }, { rule: "self.namespace == 'x'" }),
    );
    expect(bad.findings[0]?.detail).toContain("undefined field 'namespace'");
    const spaced = compile(
      withRules({ type: "object", properties: { "x y": { type: "string" } } }, { rule: "has(self.x)" }),
    );
    expect(spaced.findings[0]?.detail).toContain("undefined field 'x'");
  });
  test.skipIf(!existsSync(corpus))("crossplane Usage: cross-namespace rule with __namespace__", () => {
    const crd = parseYaml(readFileSync(join(corpus, "crossplane/crds/protection.crossplane.io_usages.yaml"), "utf8"));
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec as JsonObject;
    const { rules, findings } = compileRules(spec, ["spec"]);
    expect(findings).toEqual([]);
    const of = {
      apiVersion: "v1",
      kind: "ConfigMap",
      resourceRef: { name: "using-resource", namespace: "crossplane-system" },
    };
    const out = evaluateRules(
      rules!,
      { replayDeletion: true, of, reason: "protected" },
      undefined,
      ["spec"],
      budget(),
      "type",
    );
    expect(out.map((f) => f.message)).toEqual([
      'spec: Invalid value: "object": cross-namespace "spec.of" is not allowed without "spec.by" resource.',
    ]);
    const sameNs = { ...of, resourceRef: { name: "using-resource" } };
    expect(evaluateRules(rules!, { of: sameNs, reason: "r" }, undefined, ["spec"], budget(), "type")).toEqual([]);
    const withBy = { of, by: { apiVersion: "v1", kind: "Pod", resourceRef: { name: "p" } } };
    expect(evaluateRules(rules!, withBy, undefined, ["spec"], budget(), "type")).toEqual([]);
  });
});

describe("values are typed from the schema", () => {
  const schema = (rule: string) =>
    withRules(
      {
        type: "object",
        properties: {
          i: { type: "integer" },
          n: { type: "number" },
          ios: { "x-kubernetes-int-or-string": true },
          ts: { type: "string", format: "date-time" },
          d: { type: "string", format: "date" },
          dur: { type: "string", format: "duration" },
          b: { type: "string", format: "byte" },
          set: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
          atomic: { type: "array", items: { type: "string" } },
          ml: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            items: { type: "object", properties: { name: { type: "string" }, v: { type: "integer" } } },
          },
          labels: { type: "object", additionalProperties: { type: "string" } },
        },
      },
      { rule },
    );
  const ok = (rule: string, self: JsonValue, old?: JsonValue) => expect(messages(schema(rule), self, old)).toEqual([]);
  const bad = (rule: string, self: JsonValue, old?: JsonValue) =>
    expect(messages(schema(rule), self, old)).toHaveLength(1);

  test("integer → int, number → double (ints in a number field are doubles)", () => {
    ok("type(self.i) == int && self.i == 3", { i: 3 });
    ok("type(self.n) == double && self.n == 3.0 && self.n > 2", { n: 3 });
    const err = compile(schema("self.n == 3"));
    expect(err.findings[0]?.detail).toContain("found no matching overload for '_==_' applied to '(double, int)'");
  });
  test("int-or-string is dyn: int or string at run time", () => {
    ok("type(self.ios) == int && self.ios == 80", { ios: 80 });
    ok("type(self.ios) == string && self.ios.endsWith('%')", { ios: "50%" });
  });
  test("date-time and date → timestamp, duration → duration, byte → bytes", () => {
    ok("self.ts == timestamp('2024-05-01T10:00:00Z') && self.ts.getMonth() == 4", { ts: "2024-05-01T12:00:00+02:00" });
    ok("self.ts > timestamp('2024-01-01T00:00:00Z')", { ts: "2024-05-01T12:00:00.5Z" });
    ok("self.d == timestamp('2024-05-01T00:00:00Z')", { d: "2024-05-01" });
    ok("self.dur == duration('90m') && self.dur > duration('1h')", { dur: "1h30m" });
    ok("self.b == b'hello' && size(self.b) == 5", { b: "aGVsbG8=" });
  });
  test("list-type set and map compare as sets and maps; atomic lists in order", () => {
    ok("self.set == oldSelf.set", { set: ["a", "b"] }, { set: ["b", "a"] });
    bad("self.atomic == oldSelf.atomic", { atomic: ["a", "b"] }, { atomic: ["b", "a"] });
    ok(
      "self.ml == oldSelf.ml",
      {
        ml: [
          { name: "x", v: 1 },
          { name: "y", v: 2 },
        ],
      },
      {
        ml: [
          { name: "y", v: 2 },
          { name: "x", v: 1 },
        ],
      },
    );
    bad(
      "self.ml == oldSelf.ml",
      {
        ml: [
          { name: "x", v: 1 },
          { name: "y", v: 2 },
        ],
      },
      {
        ml: [
          { name: "y", v: 3 },
          { name: "x", v: 1 },
        ],
      },
    );
  });
  test("maps (additionalProperties) and objects", () => {
    ok("self.labels['app.kubernetes.io/name'] == 'x' && 'app.kubernetes.io/name' in self.labels", {
      labels: { "app.kubernetes.io/name": "x" },
    });
    ok("self.labels.all(k, k.contains('/'))", { labels: { "a/b": "1", "c/d": "2" } });
  });
  test("field presence: absent fields are absent, accessing them is a runtime error", () => {
    ok("!has(self.i) && has(self.n)", { n: 1 });
    expect(messages(schema("self.i == 1"), { n: 1 })).toEqual([
      'spec: Invalid value: "object": no such key: i evaluating rule: self.i == 1',
    ]);
  });
  test("embedded resources and the resource root see apiVersion, kind, metadata.name", () => {
    const rule = { rule: "self.metadata.name.startsWith('x') && self.kind == 'K'" };
    const object = { apiVersion: "v1", kind: "K", metadata: { name: "xy", labels: { a: "b" } }, spec: {} };
    // declared or not: apiserver's SchemaDeclType gives the root WithTypeAndObjectMeta
    const declared: JsonObject[] = [
      { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } },
      { spec: { type: "object" } },
    ];
    for (const properties of declared) {
      const { rules, findings } = compile(withRules({ type: "object", properties }, rule), true);
      expect(findings).toEqual([]);
      expect(evaluateRules(rules!, object, undefined, [], budget(), "type")).toEqual([]);
    }
    // a node below the root that declares the same fields is no resource: its metadata is what it declares
    const nested = compile(
      withRules(
        {
          type: "object",
          properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } },
        },
        rule,
      ),
    );
    expect(nested.findings.map((f) => f.detail)).toEqual([expect.stringContaining("undefined field 'name'")]);
    const embedded = withRules(
      { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
      { rule: "self.kind == 'Pod'" },
    );
    expect(messages(embedded, { apiVersion: "v1", kind: "Pod", metadata: {} })).toEqual([]);
  });
});

describe("transition rules", () => {
  test("self == oldSelf runs only on update", () => {
    const schema = withRules({ type: "string" }, { rule: "self == oldSelf", message: "Value is immutable" });
    expect(messages(schema, "a")).toEqual([]);
    expect(messages(schema, "a", "a")).toEqual([]);
    expect(messages(schema, "b", "a", ["spec", "group"])).toEqual([
      'spec.group: Invalid value: "string": Value is immutable',
    ]);
  });
  test.skipIf(!existsSync(corpus))("crossplane MRD state: oldSelf != 'Active'", () => {
    const crd = parseYaml(
      readFileSync(join(corpus, "crossplane/crds/apiextensions.crossplane.io_managedresourcedefinitions.yaml"), "utf8"),
    );
    const state = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.state as JsonObject;
    const { rules, findings } = compileRules(state, ["spec", "state"]);
    expect(findings).toEqual([]);
    const path = ["spec", "state"];
    expect(evaluateRules(rules!, "Active", "Inactive", path, budget(), "type")).toEqual([]);
    expect(evaluateRules(rules!, "Active", "Active", path, budget(), "type")).toEqual([]);
    expect(evaluateRules(rules!, "Inactive", undefined, path, budget(), "type")).toEqual([]);
    expect(evaluateRules(rules!, "Inactive", "Active", path, budget(), "type").map((f) => f.message)).toEqual([
      'spec.state: Invalid value: "string": state cannot be changed once it becomes Active',
    ]);
  });
  test("ratcheting: an unchanged value only warns about rules without oldSelf", () => {
    const schema = withRules(
      { type: "string" },
      { rule: "self.size() < 3", message: "too long" },
      { rule: "self == oldSelf", message: "immutable" },
    );
    const { rules } = compile(schema);
    const unchanged = evaluateRules(rules!, "abcd", "abcd", ["spec"], budget(), "type");
    expect(unchanged.map((f) => [f.severity, f.message])).toEqual([
      ["warning", 'spec: Invalid value: "string": too long'],
    ]);
    const changed = evaluateRules(rules!, "abcd", "abcde", ["spec"], budget(), "type");
    expect(changed.map((f) => [f.severity, f.detail])).toEqual([
      ["error", "too long"],
      ["error", "immutable"],
    ]);
  });
  test("optionalOldSelf makes oldSelf an optional and runs on create", () => {
    const schema = withRules(
      { type: "integer" },
      { rule: "!oldSelf.hasValue() || self >= oldSelf.value()", message: "must not decrease", optionalOldSelf: true },
    );
    expect(messages(schema, 3)).toEqual([]);
    expect(messages(schema, 3, 2)).toEqual([]);
    expect(messages(schema, 1, 2)).toEqual(['spec: Invalid value: "integer": must not decrease']);
    const unused = compile(withRules({ type: "integer" }, { rule: "self > 0", optionalOldSelf: true }));
    expect(unused.findings.map((f) => f.message)).toEqual([
      "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule",
    ]);
  });
});

describe("a field selected from an optional (cel-go checkSelectField, applyQualifiers, evalTestOnly)", () => {
  const obj = {
    type: "object",
    properties: { size: { type: "integer" }, limits: { type: "object", properties: { max: { type: "integer" } } } },
  };
  const rule = (text: string) => withRules(obj, { rule: text, message: "no", optionalOldSelf: true });
  test("is an optional: none on create, or where the old object has no such field", () => {
    const shrinks = rule("oldSelf.size.orValue(0) <= self.size");
    expect(messages(shrinks, { size: 1 })).toEqual([]);
    expect(messages(shrinks, { size: 1 }, {})).toEqual([]);
    expect(messages(shrinks, { size: 3 }, { size: 2 })).toEqual([]);
    expect(messages(shrinks, { size: 1 }, { size: 2 })).toEqual(['spec: Invalid value: "object": no']);
    // every selection past an optional one is optional too
    const nested = rule("oldSelf.limits.max.orValue(-1) == -1 || self.limits.max >= oldSelf.limits.max.value()");
    expect(messages(nested, { limits: { max: 1 } }, { limits: {} })).toEqual([]);
    expect(messages(nested, { limits: { max: 1 } }, {})).toEqual([]);
    expect(messages(nested, { limits: { max: 1 } }, { limits: { max: 2 } })).toEqual([
      'spec: Invalid value: "object": no',
    ]);
  });
  test("has() of it asks whether the optional has a value with that field", () => {
    const present = rule("has(oldSelf.size) == (self.size == 1)");
    expect(messages(present, { size: 2 })).toEqual([]);
    expect(messages(present, { size: 2 }, {})).toEqual([]);
    expect(messages(present, { size: 1 }, { size: 5 })).toEqual([]);
    expect(messages(present, { size: 2 }, { size: 5 })).toEqual(['spec: Invalid value: "object": no']);
  });
  test("is typed as an optional: used as the field's type it does not compile", () => {
    const { findings } = compile(rule("oldSelf.size + 1 > self.size"));
    expect(findings.map((f) => f.detail)).toEqual([
      "compilation failed: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(optional_type(int), int)'\n | oldSelf.size + 1 > self.size\n | .............^",
    ]);
  });
});

describe("messages, messageExpression, reason, fieldPath", () => {
  const obj = {
    type: "object",
    properties: {
      a: { type: "integer" },
      b: { type: "object", properties: { c: { type: "string" } } },
      m: { type: "object", additionalProperties: { type: "string" } },
    },
  };
  test("Kubernetes 1.35 prints a simple value as it is and an object or list not at all", () => {
    // kubernetes#132798 and #133832 (apiextensions-apiserver schema/cel/validation.go, 1.35).
    const run = (schema: JsonObject, self: JsonValue) => {
      const { rules } = compile(schema);
      return evaluateRules(rules!, self, undefined, ["spec"], budget(), "value").map((f) => f.message);
    };
    expect(run(withRules(obj, { rule: "self.a > 1" }), { a: 1 })).toEqual([
      "spec: Invalid value: failed rule: self.a > 1",
    ]);
    expect(run(withRules({ type: "integer" }, { rule: "self >= 0" }), -3)).toEqual([
      "spec: Invalid value: -3: failed rule: self >= 0",
    ]);
    expect(run(withRules({ type: "string" }, { rule: "self != 'x'", message: "not x" }), "x")).toEqual([
      'spec: Invalid value: "x": not x',
    ]);
    expect(run(withRules({ type: "array", items: { type: "string" } }, { rule: "size(self) > 1" }), ["x"])).toEqual([
      "spec: Invalid value: failed rule: size(self) > 1",
    ]);
  });
  test("Kubernetes 1.34 and older: default message and the type name as the bad value", () => {
    expect(messages(withRules(obj, { rule: "self.a > 1" }), { a: 1 })).toEqual([
      'spec: Invalid value: "object": failed rule: self.a > 1',
    ]);
    expect(
      messages(withRules({ type: "array", items: { type: "string" } }, { rule: "size(self) > 1" }), ["x"]),
    ).toEqual(['spec: Invalid value: "array": failed rule: size(self) > 1']);
    expect(messages(withRules({ "x-kubernetes-int-or-string": true }, { rule: "type(self) == int" }), "x")).toEqual([
      'spec: Invalid value: "": failed rule: type(self) == int',
    ]);
  });
  test("messageExpression, with fallback to message", () => {
    const s = withRules(obj, { rule: "self.a > 1", message: "static", messageExpression: "'a is ' + string(self.a)" });
    expect(messages(s, { a: 1 })).toEqual(['spec: Invalid value: "object": a is 1']);
    // string(int) has no size the estimate knows: the API server refuses the CRD (kubernetes#124234), and kunion
    // says so, running the rule all the same
    expect(compile(s).findings.map((f) => f.message)).toEqual([
      "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
      "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].messageExpression: estimated at 1.8e18 each time it runs, once per object; the limit is 10,000,000",
    ]);
    const empty = withRules(obj, { rule: "self.a > 1", message: "static", messageExpression: "''" });
    expect(messages(empty, { a: 1 })).toEqual(['spec: Invalid value: "object": static']);
    const failing = withRules(obj, { rule: "self.a > 1", message: "static", messageExpression: "self.b.c" });
    expect(messages(failing, { a: 1 })).toEqual(['spec: Invalid value: "object": static']);
    const notString = compile(withRules(obj, { rule: "self.a > 1", messageExpression: "self.a" }));
    expect(notString.findings.map((f) => [f.field, f.detail])).toEqual([
      [
        "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].messageExpression",
        "messageExpression must evaluate to a string",
      ],
    ]);
  });
  test("reason changes the error type and wording", () => {
    const r = (reason: string) =>
      messages(withRules(obj, { rule: "self.a > 1", message: "too small", reason }), { a: 1 });
    expect(r("FieldValueForbidden")).toEqual(["spec: Forbidden: too small"]);
    expect(r("FieldValueRequired")).toEqual(["spec: Required value: too small"]);
    expect(r("FieldValueDuplicate")).toEqual(['spec: Duplicate value: "object"']);
    expect(r("FieldValueInvalid")).toEqual(['spec: Invalid value: "object": too small']);
    const bad = compile(withRules(obj, { rule: "self.a > 1", reason: "Nope" }));
    expect(bad.findings[0]?.field).toBe("spec.validation.openAPIV3Schema.x-kubernetes-validations[0].reason");
  });
  test("fieldPath is appended to the data path", () => {
    const out = (fieldPath: string) =>
      evaluateRules(
        compile(withRules(obj, { rule: "false", message: "m", fieldPath })).rules!,
        { a: 1, b: { c: "x" }, m: { "k.x": "v" } },
        undefined,
        ["spec"],
        budget(),
        "type",
      ).map((f) => f.message);
    expect(out(".b.c")).toEqual(['spec.b.c: Invalid value: "object": m']);
    expect(out(".b['c']")).toEqual(['spec.b.c: Invalid value: "object": m']);
    expect(out(".m['k.x']")).toEqual(['spec.m[k.x]: Invalid value: "object": m']);
    const bad = compile(withRules(obj, { rule: "false", fieldPath: ".nope" }));
    expect(bad.findings.map((f) => [f.field, f.detail])).toEqual([
      ["spec.validation.openAPIV3Schema.x-kubernetes-validations[0].fieldPath", "fieldPath must be a valid path"],
    ]);
  });
  test("runtime errors are findings", () => {
    expect(messages(withRules(obj, { rule: "self.a / 0 == 1" }), { a: 1 })).toEqual([
      'spec: Invalid value: "object": division by zero evaluating rule: self.a / 0 == 1',
    ]);
  });
});

// apiextensions validation.go ValidateCustomResourceDefinitionOpenAPISchema, the loop over XValidations: each
// check in its own field.Error type, the bad value printed where the type prints one.
describe("a rule's own fields, in the words and error types of the server's schema validation", () => {
  const obj = {
    type: "object",
    properties: { a: { type: "integer" }, m: { type: "object", additionalProperties: {} } },
  };
  const said = (...rules: JsonObject[]) => compile(withRules(obj, ...rules)).findings.map((f) => f.message);
  const at = (i: number, field: string) => `spec.validation.openAPIV3Schema.x-kubernetes-validations[${i}].${field}`;
  test("rule, message and messageExpression", () => {
    expect(said({ message: "m" }, { rule: "  " })).toEqual([
      `${at(0, "rule")}: Required value: rule is not specified`,
      `${at(1, "rule")}: Required value: rule is not specified`,
    ]);
    expect(said({ rule: "true", message: "  " }, { rule: "true", message: "a\nb" })).toEqual([
      `${at(0, "message")}: Invalid value: "  ": message must be non-empty if specified`,
      `${at(1, "message")}: Invalid value: "a\\nb": message must not contain line breaks`,
    ]);
    // a messageExpression does not stand in for the message of a rule on several lines
    expect(said({ rule: "true &&\ntrue", messageExpression: "'x'" }, { rule: "true", messageExpression: " " })).toEqual(
      [
        `${at(0, "message")}: Required value: message must be specified if rule contains line breaks`,
        `${at(1, "messageExpression")}: Required value: messageExpression must be non-empty if specified`,
      ],
    );
  });
  test("a node with such an error compiles none of its rules (validateOpenAPISchema skips CEL on schema errors)", () => {
    expect(said({ message: "m" }, { rule: "self.nope == 1" })).toEqual([
      `${at(0, "rule")}: Required value: rule is not specified`,
    ]);
    const { findings } = compile(withRules(obj, { rule: "true", reason: "Bogus" }));
    expect(findings.map((f) => f.rule)).toEqual(["schema"]);
  });
  test("reason and optionalOldSelf", () => {
    expect(said({ rule: "true", reason: "Bogus" })).toEqual([
      `${at(0, "reason")}: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]);
    // a *bool the server checks for nil: false is set too
    expect(said({ rule: "self.a > 0", optionalOldSelf: false })).toEqual([
      `${at(0, "optionalOldSelf")}: Invalid value: false: may not be set if oldSelf is not used in rule`,
    ]);
  });
  test("fieldPath: three checks of their own, the path parsed as ValidFieldPath parses it", () => {
    const fieldPath = (path: string) => said({ rule: "true", message: "m", fieldPath: path });
    for (const ok of [".a", "['a']", ".m.anything", ".m['k.x']"]) expect(fieldPath(ok)).toEqual([]);
    // every field comes after a dot or in brackets: ValidFieldPath's "expected [ or . but got: a"
    for (const bad of ["a", ".a.", ".nope", ".a.b", "['a'", "[a]", " .a"])
      expect(fieldPath(bad)).toEqual([
        `${at(0, "fieldPath")}: Invalid value: ${JSON.stringify(bad)}: fieldPath must be a valid path`,
      ]);
    expect(fieldPath("  ")).toEqual([
      `${at(0, "fieldPath")}: Invalid value: "  ": fieldPath must be non-empty if specified`,
      `${at(0, "fieldPath")}: Invalid value: "  ": fieldPath must be a valid path`,
    ]);
    expect(fieldPath(".a\n")).toEqual([
      `${at(0, "fieldPath")}: Invalid value: ".a\\n": fieldPath must not contain line breaks`,
      `${at(0, "fieldPath")}: Invalid value: ".a\\n": fieldPath must be a valid path`,
    ]);
  });
});

describe("compile errors are SchemaError findings", () => {
  const obj = {
    type: "object",
    properties: { a: { type: "integer" }, l: { type: "array", items: { type: "string" } } },
  };
  const detail = (rule: string) => {
    const out = compile(withRules(obj, { rule }));
    expect(out.rules).toBeUndefined();
    expect(out.findings.every((f) => f.type === "SchemaError" && f.rule === "cel")).toBe(true);
    return out.findings.map((f) => f.detail).join("\n");
  };
  test("parse, type and result errors", () => {
    expect(detail("self.a >")).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error/);
    expect(detail("self.b == 1")).toBe(
      "compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b == 1\n | ....^",
    );
    expect(detail("foo == 1")).toContain("undeclared reference to 'foo' (in container '')");
    // cel-go's parser places a call at its opening parenthesis (VisitMemberCall's `open`, VisitGlobalCall's `op`)
    expect(detail("self.a.startsWith('x')")).toBe(
      "compilation failed: ERROR: <input>:1:18: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.a.startsWith('x')\n | .................^",
    );
    // an operator at its token, a macro (and what it expands to) at its parenthesis, as cel-go's checker tests
    // place `x.all(e, 0)`: "found no matching overload for '_&&_' applied to '(bool, int)'" at column 6
    expect(detail("self.a + 'x' == 1")).toBe(
      "compilation failed: ERROR: <input>:1:8: found no matching overload for '_+_' applied to '(int, string)'\n | self.a + 'x' == 1\n | .......^",
    );
    expect(detail("[1].all(e, 0)")).toBe(
      "compilation failed: ERROR: <input>:1:8: found no matching overload for '_&&_' applied to '(bool, int)'\n | [1].all(e, 0)\n | .......^",
    );
    expect(detail("true ? self.a : 'b'")).toBe(
      "compilation failed: ERROR: <input>:1:6: found no matching overload for '_?_:_' applied to '(bool, int, string)'\n | true ? self.a : 'b'\n | .....^",
    );
    expect(detail("size(self.a, 1) == 1")).toBe(
      "compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int, int)'\n | size(self.a, 1) == 1\n | ....^",
    );
    expect(detail("self.a")).toBe("cel expression must evaluate to a bool");
    expect(detail("[1, 'a'].size() == 2")).toContain("expected type 'int' but found 'string'");
    expect(detail("self.a.all(x, true)")).toContain("cannot be the range of a comprehension");
    const f = compile(withRules(obj, { rule: "self.b == 1" })).findings[0]!;
    expect(f.path).toEqual(["spec", "validation", "openAPIV3Schema", "x-kubernetes-validations", 0, "rule"]);
  });
  // cel-go's Errors.ToDisplayString (common/errors.go): sorted by line and column, at most 100, then a count
  test("several errors: in the order of their places, a hundred at most", () => {
    // the checker meets the arguments before the call it cannot resolve, which stands before them
    expect(detail("self.l.nope(a, b)")).toBe(
      [
        "compilation failed: ERROR: <input>:1:12: undeclared reference to 'nope' (in container '')",
        " | self.l.nope(a, b)",
        " | ...........^",
        "ERROR: <input>:1:13: undeclared reference to 'a' (in container '')",
        " | self.l.nope(a, b)",
        " | ............^",
        "ERROR: <input>:1:16: undeclared reference to 'b' (in container '')",
        " | self.l.nope(a, b)",
        " | ...............^",
      ].join("\n"),
    );
    const names = Array.from({ length: 102 }, (_, i) => `x${i}`);
    const shown = detail(`[${names.join(", ")}].size() == 0`).split("\n");
    expect(shown.filter((l) => l.startsWith("ERROR:") || l.startsWith("compilation failed: ERROR:"))).toHaveLength(100);
    expect(shown.at(-1)).toBe("2 more errors were truncated");
    expect(shown.at(-2)).toMatch(/^ \| \.+\^$/);
  });
  test("the other rules of the node still compile", () => {
    const out = compile(withRules(obj, { rule: "self.b == 1" }, { rule: "self.a > 0" }));
    expect(out.findings).toHaveLength(1);
    expect(evaluateRules(out.rules!, { a: 0 }, undefined, ["spec"], budget(), "type").map((f) => f.detail)).toEqual([
      "failed rule: self.a > 0",
    ]);
  });
  test("identical rules compile once (cache by rule text, type and libraries)", () => {
    const make = () =>
      withRules(
        { type: "object", properties: { x: { type: "string" }, y: { type: "string" }, n: { type: "integer" } } },
        { rule: "has(self.x) && self.x.matches('^[a-z]+$') && self.y.size() < 10 && self.n > 0 && self.x != self.y" },
      );
    const program = (rules: unknown) => (rules as CompiledRules).rules[0]?.program;
    const first = program(compile(make()).rules);
    expect(first).toBeDefined();
    for (let i = 0; i < 100; i++) expect(program(compile(make()).rules)).toBe(first);
    // another release's libraries compile it anew
    const older = compileRules(make(), ["spec"], { libraries: 31 }).rules;
    expect(program(older)).not.toBe(first);
    expect(program(compileRules(make(), ["spec"], { libraries: 31 }).rules)).toBe(program(older));
  });
  test("one text on nodes of other types, and on a release without its macros: each checked on its own", () => {
    const rule = "self.v.all(k, v, string(v).size() < 3 && self.v[k] == v)";
    const at = (values: JsonObject) =>
      withRules(
        { type: "object", properties: { v: { type: "object", maxProperties: 10, additionalProperties: values } } },
        { rule },
      );
    const strings = compile(at({ type: "string", maxLength: 10 }));
    const ints = compile(at({ type: "integer" }));
    expect([strings.findings, ints.findings]).toEqual([[], []]);
    const failing = (rules: CelRules | undefined, v: JsonObject) =>
      evaluateRules(rules!, { v }, undefined, ["spec"], budget(), "type").length;
    expect([failing(strings.rules, { a: "ab" }), failing(strings.rules, { a: "abc" })]).toEqual([0, 1]);
    expect([failing(ints.rules, { a: 12 }), failing(ints.rules, { a: 123 })]).toEqual([0, 1]);
    // parsed with the macros of Kubernetes 1.32 (its CEL compatibility version, 31), `all(k, v, …)` is no macro
    const older = compileRules(at({ type: "string", maxLength: 10 }), ["spec"], { libraries: 31 });
    expect(older.findings.map((f) => f.detail).join("\n")).toContain("undeclared reference to 'k'");
    expect(compileRules(at({ type: "string", maxLength: 10 }), ["spec"], { libraries: 32 }).findings).toEqual([]);
  });
});

describe("cost limits", () => {
  const list = Array.from({ length: 10_000 }, (_, i) => `item-${i}`);
  const schema = withRules(
    { type: "array", items: { type: "string" } },
    { rule: "self.all(x, self.all(y, self.all(z, true)))" },
  );
  test("a runaway rule stops fast with the per-call limit message", () => {
    const { rules } = compile(schema);
    const b = budget();
    const start = performance.now();
    const out = evaluateRules(rules!, list, undefined, ["spec", "items"], b, "type");
    expect(performance.now() - start).toBeLessThan(1000);
    expect(out.map((f) => f.message)).toEqual([
      `spec.items: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, self.all(z, true)))`,
    ]);
    expect(b.remaining).toBeLessThan(0);
    // nothing further runs with an exhausted budget
    expect(evaluateRules(rules!, list, undefined, ["spec", "items"], b)).toEqual([]);
  });
  test("running out of the per-object budget", () => {
    const { rules } = compile(schema);
    const start = performance.now();
    const out = evaluateRules(rules!, list, undefined, ["spec"], { remaining: 50_000 }, "type");
    expect(performance.now() - start).toBeLessThan(1000);
    expect(out.map((f) => f.message)).toEqual([
      'spec: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });
  // one call past both the API server's limit and kunion's work budget: the server's words, as its validator
  // sees the cost first (apiextensions validation.go: the budget, then the per-call limit)
  test("a call charged past the work budget too is refused as the API server refuses it", () => {
    const { rules } = compile(withRules({ type: "integer" }, { rule: "lists.range(self).size() > 0" }));
    expect(evaluateRules(rules!, 100_000_000, undefined, ["spec"], budget(), "type").map((f) => f.message)).toEqual([
      'spec: Invalid value: "integer": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
    expect(evaluateRules(rules!, 2_000_000, undefined, ["spec"], budget(), "type").map((f) => f.message)).toEqual([
      `spec: Invalid value: "integer": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: lists.range(self).size() > 0`,
    ]);
  });
  test("cheap rules consume a little of the budget", () => {
    const { rules } = compile(
      withRules({ type: "array", items: { type: "string" } }, { rule: "self.all(x, x.size() < 20)" }),
    );
    const b = budget();
    expect(evaluateRules(rules!, list, undefined, ["spec"], b)).toEqual([]);
    expect(b.remaining).toBeLessThan(10_000_000 - 10_000);
    expect(b.remaining).toBeGreaterThan(10_000_000 - 200_000);
  });
});
