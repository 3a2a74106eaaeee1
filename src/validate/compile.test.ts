import { describe, expect, it } from "vitest";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { compileSchema, validateWithSchema } from "./index.js";
import { lines, messages, object, resource, run } from "./test-helpers.js";

it("a CEL-carrying schema reports that rules were skipped after a blocking error, the value as the release prints it", () => {
  // apiextensions-apiserver pkg/registry/customresource/strategy.go: field.Invalid(nil, nil, …) after a blocking
  // error; values print as JSON from 1.34 (kubernetes#132314), as a quoted "null" before.
  const schema = {
    type: "object",
    "x-kubernetes-validations": [{ rule: "self.a > 0" }],
    properties: { a: { type: "integer" } },
  };
  const skipped =
    "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";
  expect(lines(run(schema, { a: "x" }).findings)).toEqual([
    'error spec.a: Invalid value: "string": spec.a in body must be of type integer: "string"',
    `notice Invalid value: null: ${skipped}`,
  ]);
  expect(lines(run(schema, { a: "x" }, { jsonValues: false }).findings)[1]).toBe(
    `notice Invalid value: "null": ${skipped}`,
  );
});

describe("ratcheting against the old object", () => {
  const schema = { type: "object", properties: { x: { type: "string", maxLength: 3 }, y: { type: "string" } } };
  it("an error on a value unchanged since the old object only warns", () => {
    expect(messages(schema, { x: "toolong", y: "new" }, { oldObject: { x: "toolong", y: "old" } })).toEqual([
      "warning spec.x: Too long: may not be more than 3 bytes",
    ]);
    expect(messages(schema, { x: "toolong!" }, { oldObject: { x: "toolong" } })).toEqual([
      "error spec.x: Too long: may not be more than 3 bytes",
    ]);
  });
  it("list-type=map items correlate by key, other lists not at all", () => {
    const items = { type: "object", properties: { k: { type: "string" }, v: { type: "string", maxLength: 1 } } };
    const byKey = { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items };
    const atomic = { type: "array", items };
    const s = { type: "object", properties: { m: byKey, a: atomic } };
    const old = { m: [{ k: "1", v: "long" }], a: [{ k: "1", v: "long" }] };
    const now = { m: [{ k: "0" }, { k: "1", v: "long" }], a: [{ k: "0" }, { k: "1", v: "long" }] };
    expect(messages(s, now, { oldObject: old })).toEqual([
      "warning spec.m[1].v: Too long: may not be more than 1 byte",
      "error spec.a[1].v: Too long: may not be more than 1 byte",
    ]);
  });
});

describe("the compile step", () => {
  it("reports invalid schema parts with their schema path and never throws", () => {
    const { findings } = compileSchema(
      resource({
        type: "object",
        properties: { x: { type: "string", pattern: "(?<=a)b" }, n: { multipleOf: 0 }, t: { type: "strin" } },
      }),
    );
    expect(findings.map((f) => f.message)).toEqual([
      // apiextensions validation.go: Go's regexp compiles the pattern; the type is field.NotSupported.
      'properties[spec].properties[x].pattern: Invalid value: "(?<=a)b": must be a valid regular expression, but isn\'t: error parsing regexp: invalid named capture: `(?<=a)b`',
      "properties[spec].properties[n].multipleOf: Invalid schema: must be greater than 0",
      'properties[spec].properties[t].type: Unsupported value: "strin": supported values: "array", "boolean", "integer", "number", "object", "string"',
    ]);
    expect(findings[0]?.path).toEqual(["properties", { key: "spec" }, "properties", { key: "x" }, "pattern"]);
    expect(compileSchema(null).findings.map((f) => f.message)).toEqual(["Invalid schema: must be a schema object"]);
    expect(compileSchema({ properties: [] } as unknown as JsonValue).findings.map((f) => f.message)).toEqual([
      "properties: Invalid schema: must be an object",
    ]);
  });

  it("shares one compilation between equal schemas", () => {
    const a = compileSchema(resource({ type: "object", properties: { z: { type: "string", minLength: 7 } } }));
    const b = compileSchema(
      JSON.parse(JSON.stringify(resource({ properties: { z: { minLength: 7, type: "string" } }, type: "object" }))),
    );
    expect(b.compiled).toBe(a.compiled);
  });

  it("refuses schemas nested past 1000 levels with a finding", () => {
    let deep: JsonObject = { type: "string" };
    for (let i = 0; i < 1200; i++) deep = { type: "object", properties: { a: deep } };
    const { compiled, findings } = compileSchema(deep);
    expect(findings.map((f) => f.detail)).toEqual(["schema nesting exceeds 1000 levels"]);
    let value: JsonValue = "x";
    for (let i = 0; i < 1200; i++) value = { a: value };
    // The value is walked down to the limit and no further.
    const deeper = validateWithSchema(compiled, value as JsonObject).findings.filter((f) =>
      f.detail.startsWith("nesting"),
    );
    expect(deeper.map((f) => [f.detail, f.path.length])).toEqual([
      ["nesting deeper than 1000 levels is not validated", 1001],
    ]);
  });
});

it("a catastrophic pattern runs in linear time (RE2)", () => {
  const schema = { type: "object", properties: { x: { type: "string", pattern: "(a+)+$" } } };
  const { compiled } = compileSchema(resource(schema));
  const value = object({ x: `${"a".repeat(50_000)}!` });
  const start = performance.now();
  const r = validateWithSchema(compiled, value);
  // a bound against backtracking, which takes minutes on this input, not a measure of speed
  expect(performance.now() - start).toBeLessThan(5_000);
  expect(r.findings).toHaveLength(1);
});

it("hostile keys are plain data in schemas, objects and defaults", () => {
  const schema = {
    type: "object",
    properties: JSON.parse('{"__proto__": {"type": "string", "default": "d"}, "constructor": {"type": "integer"}}'),
  };
  const spec = JSON.parse('{"constructor": "x", "toString": 1}');
  const r = run(schema, spec);
  expect(lines(r.findings)).toEqual([
    'error unknown field "spec.toString"',
    'error spec.constructor: Invalid value: "string": spec.constructor in body must be of type integer: "string"',
  ]);
  const out = getKey(r.object as JsonObject, "spec") as JsonObject;
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  expect(Object.hasOwn(out, "__proto__") && getKey(out, "__proto__")).toBe("d");
  expect(({} as Record<string, unknown>).d).toBeUndefined();
  const mapped = run({ type: "object", additionalProperties: { type: "integer" } }, JSON.parse('{"__proto__": "x"}'));
  expect(lines(mapped.findings)).toEqual([
    'error spec.__proto__: Invalid value: "string": spec.__proto__ in body must be of type integer: "string"',
  ]);
  expect(isObject(r.object)).toBe(true);
});

// apiextensions validation.go: each rule's estimated cost times its cardinality (getExpressionCost, cel_validation.go
// childContext), and the schema's total (TotalCost), against StaticEstimatedCostLimit and StaticEstimatedCRDCostLimit
describe("the rules' estimated cost, as the API server refuses a CRD for it", () => {
  const costFindings = (schema: JsonObject) =>
    compileSchema(schema).findings.map(
      (f) => `${f.field}: ${f.type === "FieldValueForbidden" ? "Forbidden: " : ""}${f.detail}`,
    );
  const hint =
    "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
  const hosts = (bounds: JsonObject) => ({
    type: "object",
    properties: {
      hosts: {
        type: "array",
        ...bounds,
        items: {
          type: "object",
          properties: { name: { type: "string", maxLength: 63 } },
          "x-kubernetes-validations": [{ rule: "self.name.matches('^a')" }],
        },
      },
    },
  });
  it("a rule in an unbounded list runs as many times as items fit in a request", () => {
    // the rule costs 28 (matches over 63 × 4 bytes); its node fits 3 MiB / 3 times in a request: 2.9x the limit
    // and kunion's note of where the cost comes from
    expect(costFindings(hosts({}))).toEqual([
      `properties[hosts].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.9x ${hint}`,
      "properties[hosts].items.x-kubernetes-validations[0].rule: estimated at 28 each time it runs, up to 1,048,576 times, as many as fit in a 3 MiB request: a list or map above it has no maxItems or maxProperties; the limit is 10,000,000",
    ]);
    // bounded, it runs at most 100 times
    expect(costFindings(hosts({ maxItems: 100 }))).toEqual([]);
  });
  it("past the schema's total, the costly rules and the schema are refused too", () => {
    const tags = {
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" } } },
      "x-kubernetes-validations": [{ rule: "self.tags.all(x, x.contains('gpu'))" }],
    };
    expect(costFindings(tags)).toEqual([
      `x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
      "x-kubernetes-validations[0].rule: estimated at 329,857,577,778 each time it runs, once per object; the limit is 10,000,000",
      "x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
      `: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
    ]);
  });
});
