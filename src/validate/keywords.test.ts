import { describe, expect, it } from "vitest";
import { messages, run } from "./test-helpers.js";

// One test per keyword, with the messages kube-openapi and apiextensions print.

describe("type", () => {
  it("reports the data's type name as the value, as the API server does", () => {
    expect(messages({ type: "object", properties: { replicas: { type: "integer" } } }, { replicas: "three" })).toEqual([
      'error spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });

  it("names every JSON type", () => {
    const schema = {
      type: "object",
      properties: {
        s: { type: "string" },
        i: { type: "integer" },
        n: { type: "number" },
        b: { type: "boolean" },
        a: { type: "array" },
        o: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      },
    };
    expect(messages(schema, { s: 1, i: 1.5, n: "1", b: "true", a: {}, o: [] })).toEqual([
      'error spec.s: Invalid value: "integer": spec.s in body must be of type string: "integer"',
      'error spec.i: Invalid value: "number": spec.i in body must be of type integer: "number"',
      'error spec.n: Invalid value: "string": spec.n in body must be of type number: "string"',
      'error spec.b: Invalid value: "string": spec.b in body must be of type boolean: "string"',
      'error spec.a: Invalid value: "object": spec.a in body must be of type array: "object"',
      'error spec.o: Invalid value: "array": spec.o in body must be of type object: "array"',
    ]);
  });

  it("accepts integral numbers as integers and integers as numbers", () => {
    expect(
      messages({ type: "object", properties: { i: { type: "integer" }, n: { type: "number" } } }, { i: 2.0, n: 3 }),
    ).toEqual([]);
  });

  it("reports null in a list of a non-nullable type, and accepts it when nullable", () => {
    expect(messages({ type: "array", items: { type: "string" } }, ["a", null])).toEqual([
      'error spec[1]: Invalid value: "null": spec[1] in body must be of type string: "null"',
    ]);
    expect(messages({ type: "array", items: { type: "string", nullable: true } }, ["a", null])).toEqual([]);
  });

  it("reports a non-string value for a string format as the format", () => {
    expect(messages({ type: "object", properties: { t: { type: "string", format: "date-time" } } }, { t: 5 })).toEqual([
      'error spec.t: Invalid value: "int64": spec.t in body must be of type date-time: "int64"',
    ]);
  });
});

describe("enum", () => {
  it("lists the supported values", () => {
    expect(messages({ type: "object", properties: { x: { type: "string", enum: ["a", "b"] } } }, { x: "c" })).toEqual([
      'error spec.x: Unsupported value: "c": supported values: "a", "b"',
    ]);
  });

  it("compares structured values deeply and prints them as JSON", () => {
    const schema = {
      type: "object",
      properties: { x: { enum: [1, { a: [1, 2] }], "x-kubernetes-preserve-unknown-fields": true } },
    };
    expect(messages(schema, { x: { a: [1, 2] } })).toEqual([]);
    expect(messages(schema, { x: 2 })).toEqual([
      'error spec.x: Unsupported value: 2: supported values: "1", "{\\"a\\":[1,2]}"',
    ]);
  });
});

it("enum never matches null, even when nullable (kube-openapi's basicCommonValidator)", () => {
  expect(
    messages({ type: "object", properties: { x: { type: "string", nullable: true, enum: ["a", null] } } }, { x: null }),
  ).toEqual(['error spec.x: Unsupported value: "null": supported values: "a", "null"']);
});

describe("string keywords", () => {
  const schema = (s: object) => ({ type: "object", properties: { x: { type: "string", ...s } } });

  it("maxLength counts code points and uses field.TooLong", () => {
    expect(messages(schema({ maxLength: 3 }), { x: "abcd" })).toEqual([
      "error spec.x: Too long: may not be more than 3 bytes",
    ]);
    expect(messages(schema({ maxLength: 3 }), { x: "😀😀😀" })).toEqual([]);
    expect(messages(schema({ maxLength: 1 }), { x: "ab" })).toEqual([
      "error spec.x: Too long: may not be more than 1 byte",
    ]);
  });

  it("minLength", () => {
    expect(messages(schema({ minLength: 3 }), { x: "ab" })).toEqual([
      'error spec.x: Invalid value: "ab": spec.x in body should be at least 3 chars long',
    ]);
    expect(messages(schema({ minLength: 2 }), { x: "😀😀" })).toEqual([]);
  });

  it("pattern matches anywhere, with RE2 semantics", () => {
    expect(messages(schema({ pattern: "^[0-9]+$" }), { x: "abc" })).toEqual([
      "error spec.x: Invalid value: \"abc\": spec.x in body should match '^[0-9]+$'",
    ]);
    expect(messages(schema({ pattern: "[0-9]" }), { x: "a1b" })).toEqual([]);
  });

  it("stops at the first failing string keyword, as kube-openapi does", () => {
    expect(messages(schema({ maxLength: 2, pattern: "^[0-9]+$" }), { x: "abc" })).toEqual([
      "error spec.x: Too long: may not be more than 2 bytes",
    ]);
  });
});

describe("number keywords", () => {
  const schema = (s: object) => ({ type: "object", properties: { x: { type: "number", ...s } } });

  it("minimum and maximum, inclusive", () => {
    expect(messages(schema({ minimum: 1, maximum: 10 }), { x: 11 })).toEqual([
      "error spec.x: Invalid value: 11: spec.x in body should be less than or equal to 10",
    ]);
    expect(messages(schema({ minimum: 1, maximum: 10 }), { x: 0 })).toEqual([
      "error spec.x: Invalid value: 0: spec.x in body should be greater than or equal to 1",
    ]);
    expect(messages(schema({ minimum: 1, maximum: 10 }), { x: 10 })).toEqual([]);
  });

  it("exclusiveMinimum and exclusiveMaximum are booleans (OpenAPI v3.0)", () => {
    expect(messages(schema({ minimum: 1, exclusiveMinimum: true }), { x: 1 })).toEqual([
      "error spec.x: Invalid value: 1: spec.x in body should be greater than 1",
    ]);
    expect(messages(schema({ maximum: 2.5, exclusiveMaximum: true }), { x: 2.5 })).toEqual([
      "error spec.x: Invalid value: 2.5: spec.x in body should be less than 2.5",
    ]);
  });

  it("multipleOf, for integers and floats", () => {
    expect(messages(schema({ multipleOf: 5 }), { x: 7 })).toEqual([
      "error spec.x: Invalid value: 7: spec.x in body should be a multiple of 5",
    ]);
    expect(messages(schema({ multipleOf: 0.1 }), { x: 0.3 })).toEqual([]);
    expect(messages(schema({ multipleOf: 0.5 }), { x: 0.7 })).toEqual([
      "error spec.x: Invalid value: 0.7: spec.x in body should be a multiple of 0.5",
    ]);
  });

  it("reports every failing number keyword", () => {
    expect(messages(schema({ multipleOf: 2, maximum: 4 }), { x: 5 })).toEqual([
      "error spec.x: Invalid value: 5: spec.x in body should be a multiple of 2",
      "error spec.x: Invalid value: 5: spec.x in body should be less than or equal to 4",
    ]);
  });
});

describe("array keywords", () => {
  const schema = (s: object) => ({
    type: "object",
    properties: { items: { type: "array", items: { type: "integer" }, ...s } },
  });

  it("maxItems uses field.TooMany", () => {
    expect(messages(schema({ maxItems: 3 }), { items: [1, 2, 3, 4, 5] })).toEqual([
      "error spec.items: Too many: 5: must have at most 3 items",
    ]);
    expect(messages(schema({ maxItems: 1 }), { items: [1, 2] })).toEqual([
      "error spec.items: Too many: 2: must have at most 1 item",
    ]);
  });

  it("minItems", () => {
    expect(messages(schema({ minItems: 2 }), { items: [1] })).toEqual([
      "error spec.items: Invalid value: 1: spec.items in body should have at least 2 items",
    ]);
  });

  it("uniqueItems", () => {
    expect(messages(schema({ uniqueItems: true }), { items: [1, 2, 1] })).toEqual([
      'error spec.items: Invalid value: "": spec.items in body shouldn\'t contain duplicates',
    ]);
  });

  it("items validates every element with its index in the path", () => {
    expect(messages(schema({}), { items: [1, "x"] })).toEqual([
      'error spec.items[1]: Invalid value: "string": spec.items[1] in body must be of type integer: "string"',
    ]);
  });
});

describe("object keywords", () => {
  it("required", () => {
    expect(messages({ type: "object", properties: { x: { type: "string" } }, required: ["x"] }, {})).toEqual([
      "error spec.x: Required value",
    ]);
  });

  it("minProperties and maxProperties; a size failure skips the properties, as kube-openapi returns early", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } },
      minProperties: 1,
      maxProperties: 2,
      required: ["a"],
    };
    expect(messages(schema, {})).toEqual([
      "error spec: Invalid value: 0: spec in body should have at least 1 properties",
    ]);
    expect(messages(schema, { a: 1, b: "", c: "" })).toEqual(["error spec: Too many: 3: must have at most 2 items"]);
  });

  it("additionalProperties with a schema validates map values, the key joined with a dot in the field and the message", () => {
    // kube-openapi validate/object_validator.go names a map value `path + "." + key`, and apiextensions
    // makes that name the field (kubeOpenAPIResultToFieldErrors in
    // apiextensions-apiserver/pkg/apiserver/validation/validation.go: errPath.Child(err.Name)).
    expect(
      messages({ type: "object", additionalProperties: { type: "integer" } }, { "app.kubernetes.io/name": "x", ok: 1 }),
    ).toEqual([
      'error spec.app.kubernetes.io/name: Invalid value: "string": spec.app.kubernetes.io/name in body must be of type integer: "string"',
    ]);
  });

  it("additionalProperties: true allows anything", () => {
    expect(messages({ type: "object", additionalProperties: true }, { a: { b: [1] } })).toEqual([]);
  });
});

describe("allOf, anyOf, oneOf, not", () => {
  it("anyOf reports its composite message and the best branch's errors", () => {
    const schema = {
      type: "object",
      properties: { cpu: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] } },
    };
    expect(messages(schema, { cpu: 1.5 })).toEqual([
      'error spec.cpu: Invalid value: "number": spec.cpu in body must be of type integer,string: "number"',
      'error spec.cpu: Invalid value: "": "spec.cpu" must validate at least one schema (anyOf)',
      'error spec.cpu: Invalid value: "number": spec.cpu in body must be of type integer: "number"',
    ]);
  });

  it("oneOf needs exactly one branch", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
    };
    expect(messages(schema, { a: 1, b: 2 })).toEqual([
      'error spec: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(messages(schema, {})).toEqual([
      'error spec: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid',
      "error spec.a: Required value",
    ]);
    expect(messages(schema, { b: 1 })).toEqual([]);
  });

  it("branches see the pruned value: an unknown field cannot satisfy them", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "integer" } },
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    };
    expect(messages(schema, { b: 1 }, { unknownFields: "ignore" })).toEqual([
      'error spec: Invalid value: "": "spec" must validate at least one schema (anyOf)',
      "error spec.a: Required value",
    ]);
  });

  it("allOf reports every failing branch", () => {
    const schema = { type: "string", allOf: [{ minLength: 2 }, { pattern: "^a" }] };
    expect(messages(schema, "b")).toEqual([
      'error spec: Invalid value: "b": spec in body should be at least 2 chars long',
      "error spec: Invalid value: \"b\": spec in body should match '^a'",
      'error spec: Invalid value: "": "spec" must validate all the schemas (allOf). None validated',
    ]);
  });

  it("not", () => {
    expect(messages({ type: "string", not: { enum: ["x"] } }, "x")).toEqual([
      'error spec: Invalid value: "": "spec" must not validate the schema (not)',
    ]);
    expect(messages({ type: "string", not: { enum: ["x"] } }, "y")).toEqual([]);
  });

  it("branches are value validations: extra fields in them are not unknown", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" } },
      anyOf: [{ properties: { a: { minLength: 1 } } }],
    };
    expect(messages(schema, { a: "x" })).toEqual([]);
  });
});

it("findings carry their path as segments, a map key as kube-openapi names it", () => {
  const f = run({ type: "object", additionalProperties: { type: "string" } }, { "a.b": 1 }).findings[0];
  expect(f?.path).toEqual(["spec", "a.b"]);
  expect(f?.rule).toBe("schema");
  expect(f?.type).toBe("FieldValueTypeInvalid");
});
