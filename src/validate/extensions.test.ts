import { describe, expect, it } from "vitest";
import { getKey, type JsonObject } from "../value/index.js";
import { compileSchema, validateWithSchema } from "./index.js";
import { lines, messages, object, resource, run } from "./test-helpers.js";

describe("x-kubernetes-int-or-string", () => {
  const schema = { type: "object", properties: { port: { "x-kubernetes-int-or-string": true } } };
  it("accepts an integer or a string", () => {
    expect(messages(schema, { port: 8080 })).toEqual([]);
    expect(messages(schema, { port: "http" })).toEqual([]);
  });
  it("rejects other types with the type list integer,string", () => {
    expect(messages(schema, { port: true })).toEqual([
      'error spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
    expect(messages(schema, { port: 1.5 })).toEqual([
      'error spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"',
    ]);
  });
});

describe("x-kubernetes-preserve-unknown-fields", () => {
  const schema = {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
    properties: { known: { type: "integer" }, nested: { type: "object", properties: {} } },
  };
  it("keeps and accepts fields the schema does not know, and still checks the ones it knows", () => {
    const r = run(schema, { known: "x", extra: { deep: [1] }, nested: { no: 1 } });
    expect(lines(r.findings)).toEqual([
      'error unknown field "spec.nested.no"',
      'error spec.known: Invalid value: "string": spec.known in body must be of type integer: "string"',
    ]);
    expect(getKey(getKey(r.object as JsonObject, "spec") as JsonObject, "extra")).toEqual({ deep: [1] });
  });
  it("applies to the items of a preserved list (apiextensions' skipPrune)", () => {
    const list = {
      type: "array",
      "x-kubernetes-preserve-unknown-fields": true,
      items: { type: "object", properties: {} },
    };
    expect(messages({ type: "object", properties: { l: list } }, { l: [{ any: 1 }] })).toEqual([]);
  });
});

describe("x-kubernetes-embedded-resource", () => {
  const schema = {
    type: "object",
    properties: {
      template: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
      },
    },
  };
  it("requires apiVersion and kind", () => {
    expect(messages(schema, { template: { spec: {} } })).toEqual([
      "error spec.template.apiVersion: Required value",
      "error spec.template.kind: Required value",
    ]);
  });
  it("checks apiVersion, kind and metadata as the API server does", () => {
    expect(
      messages(schema, {
        template: { apiVersion: "a/b/c", kind: "Pod_1", metadata: { name: "a/b", labels: { "x y": "" } } },
      }),
    ).toEqual([
      'error spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "error spec.template.kind: Invalid value: \"Pod_1\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "error spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
      "error spec.template.metadata.labels: Invalid value: \"x y\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(
      messages(schema, { template: { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "x-" } } }),
    ).toEqual([]);
  });
  it("allows apiVersion, kind and metadata even when the embedded schema lists properties", () => {
    const strict = {
      type: "object",
      properties: {
        t: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object" } } },
      },
    };
    expect(
      messages(strict, { t: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: {}, other: 1 } }),
    ).toEqual(['error unknown field "spec.t.other"']);
  });
});

describe("x-kubernetes-list-type", () => {
  it("set: a later duplicate is a Duplicate value", () => {
    const schema = { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } };
    expect(messages(schema, ["a", "b", "a", "a"])).toEqual([
      'error spec[2]: Duplicate value: "a"',
      'error spec[3]: Duplicate value: "a"',
    ]);
  });
  it("map: duplicates by the key fields, reported as JSON with sorted keys", () => {
    const schema = {
      type: "object",
      properties: {
        pipeline: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["step"],
          items: { type: "object", properties: { step: { type: "string" }, fn: { type: "string" } } },
        },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["protocol", "containerPort"],
          items: {
            type: "object",
            properties: { containerPort: { type: "integer" }, protocol: { type: "string", default: "TCP" } },
          },
        },
      },
    };
    expect(
      messages(schema, {
        pipeline: [
          { step: "one", fn: "a" },
          { step: "one", fn: "b" },
        ],
        ports: [{ containerPort: 80 }, { containerPort: 80, protocol: "TCP" }, { containerPort: 80, protocol: "UDP" }],
      }),
    ).toEqual([
      'error spec.pipeline[1]: Duplicate value: {"step":"one"}',
      'error spec.ports[1]: Duplicate value: {"containerPort":80,"protocol":"TCP"}',
    ]);
  });
  it("map: items must be objects", () => {
    const schema = {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["k"],
      items: { type: "object", properties: { k: { type: "integer" } } },
    };
    expect(messages(schema, [{ k: 1 }, 2])).toEqual([
      'error spec[1]: Invalid value: "integer": spec[1] in body must be of type object: "integer"',
      "error spec[1]: Invalid value: 2: must be an object for an array of list-type map",
    ]);
  });
  it("atomic lists and x-kubernetes-map-type have no checks of their own", () => {
    const schema = {
      type: "object",
      "x-kubernetes-map-type": "atomic",
      properties: { l: { type: "array", "x-kubernetes-list-type": "atomic", items: { type: "string" } } },
    };
    expect(messages(schema, { l: ["a", "a"] })).toEqual([]);
  });
});

describe("unknown fields", () => {
  const schema = {
    type: "object",
    properties: { items: { type: "array", items: { type: "object", properties: {} } } },
  };
  it("are errors in kubectl's strict wording by default", () => {
    const r = run(schema, { foo: 1, items: [{ bar: 2 }] });
    expect(lines(r.findings)).toEqual(['error unknown field "spec.foo"', 'error unknown field "spec.items[0].bar"']);
    expect(r.findings[0]).toMatchObject({ type: "UnknownField", field: "spec.foo", path: ["spec", "foo"] });
  });
  it("are warnings or ignored on request, and kept in the returned object", () => {
    expect(messages(schema, { foo: 1 }, { unknownFields: "warning" })).toEqual(['warning unknown field "spec.foo"']);
    const r = run(schema, { foo: 1 }, { unknownFields: "ignore" });
    expect(r.findings).toEqual([]);
    expect(getKey(getKey(r.object as JsonObject, "spec") as JsonObject, "foo")).toBe(1);
  });
  it("include a misspelt top-level field and unknown metadata fields", () => {
    const { compiled } = compileSchema(resource({ type: "object" }));
    const r = validateWithSchema(compiled, { ...object({}, { name: "x", lables: {} }), specc: {} });
    expect(lines(r.findings)).toEqual(['error unknown field "specc"', 'error unknown field "metadata.lables"']);
  });
});
