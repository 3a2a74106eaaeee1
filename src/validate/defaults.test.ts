import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseSource } from "../source/index.js";
import { getKey, type JsonObject, type JsonValue } from "../value/index.js";
import { compileSchema, validateWithSchema } from "./index.js";
import { lines, messages, object, resource, run } from "./test-helpers.js";

describe("nullable and nulls", () => {
  const schema = {
    type: "object",
    required: ["r"],
    properties: { r: { type: "string" }, n: { type: "string", nullable: true }, d: { type: "string", default: "x" } },
  };
  it("drops a null for a non-nullable field with a warning, as the API server prunes it", () => {
    const r = run(schema, { r: null, n: null, d: null });
    expect(lines(r.findings)).toEqual([
      "warning spec.r: Invalid value: null: the field is not nullable: the API server drops the null",
      "error spec.r: Required value",
    ]);
    expect(getKey(r.object as JsonObject, "spec")).toEqual({ n: null, d: "x" });
  });
  it("drops nulls in maps too", () => {
    const r = run({ type: "object", additionalProperties: { type: "string" } }, { a: null, b: "x" });
    expect(lines(r.findings)).toEqual([
      "warning spec[a]: Invalid value: null: the field is not nullable: the API server drops the null",
    ]);
  });
});

describe("defaulting", () => {
  const schema = {
    type: "object",
    properties: {
      mode: { type: "string", default: "Pipeline" },
      nested: { type: "object", default: {}, properties: { a: { type: "integer", default: 1 } } },
      list: { type: "array", items: { type: "object", properties: { p: { type: "string", default: "TCP" } } } },
      map: {
        type: "object",
        additionalProperties: { type: "object", properties: { w: { type: "integer", default: 5 } } },
      },
      maybe: { type: "string", nullable: true, default: null },
      notNull: { type: "string", default: null },
    },
  };
  it("fills absent properties, defaults inside defaults, and per list item and map value; never a null default", () => {
    const spec = { list: [{}, { p: "UDP" }], map: { x: {} } };
    const input = object(spec);
    const before = JSON.stringify(input);
    const { compiled } = compileSchema(resource(schema));
    const r = validateWithSchema(compiled, input);
    expect(r.findings).toEqual([]);
    expect(getKey(r.object as JsonObject, "spec")).toEqual({
      list: [{ p: "TCP" }, { p: "UDP" }],
      map: { x: { w: 5 } },
      mode: "Pipeline",
      nested: { a: 1 },
    });
    expect(JSON.stringify(input)).toBe(before);
  });
  it("validates after defaulting", () => {
    expect(messages({ type: "object", properties: { n: { type: "integer", default: "x" } } }, {})).toEqual([
      'error spec.n: Invalid value: "string": spec.n in body must be of type integer: "string"',
    ]);
  });
});

const gatewayCrd = join(
  import.meta.dirname,
  "../../../shared/corpus/gateway-api/crds/experimental/gateway.networking.k8s.io_gateways.yaml",
);

describe.skipIf(!existsSync(gatewayCrd))("Gateway API spec.addresses (oneOf that needs the type default)", () => {
  // Read when the tests run, not when they are collected: collection happens even when skipped.
  let schema: JsonObject;
  beforeAll(() => {
    const crd = parseSource(readFileSync(gatewayCrd, "utf8"), gatewayCrd).documents[0]?.value as JsonObject;
    const versions = getKey(getKey(crd, "spec") as JsonObject, "versions") as JsonObject[];
    const v1 = versions.find((v) => getKey(v, "name") === "v1") as JsonObject;
    schema = getKey(getKey(v1, "schema") as JsonObject, "openAPIV3Schema") as JsonObject;
  });
  const gateway = (addresses: JsonValue[]): JsonObject => ({
    apiVersion: "gateway.networking.k8s.io/v1",
    kind: "Gateway",
    metadata: { name: "gw" },
    spec: { gatewayClassName: "example", listeners: [{ name: "http", protocol: "HTTP", port: 80 }], addresses },
  });

  it("passes once type defaults to IPAddress", () => {
    const { compiled, findings } = compileSchema(schema);
    expect(findings.filter((f) => f.rule !== "cel")).toEqual([]);
    const r = validateWithSchema(compiled, gateway([{ value: "1.2.3.4" }, { value: "1234::" }]));
    expect(r.findings.filter((f) => f.rule !== "cel")).toEqual([]);
    const spec = getKey(r.object as JsonObject, "spec") as JsonObject;
    expect(getKey(spec, "addresses")).toEqual([
      { type: "IPAddress", value: "1.2.3.4" },
      { type: "IPAddress", value: "1234::" },
    ]);
  });

  it("would match both branches without the default", () => {
    const copy = JSON.parse(JSON.stringify(schema).replaceAll('"default":"IPAddress"', '"x-removed":"IPAddress"'));
    const { compiled } = compileSchema(copy);
    const r = validateWithSchema(compiled, gateway([{ value: "1.2.3.4" }]));
    expect(lines(r.findings.filter((f) => f.rule !== "cel"))).toContain(
      'error spec.addresses[0]: Invalid value: "": "spec.addresses[0]" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    );
  });

  it("rejects an IPAddress that is not an IP, with the best branch's reasons", () => {
    const { compiled } = compileSchema(schema);
    const r = validateWithSchema(compiled, gateway([{ type: "IPAddress", value: "example.com" }]));
    expect(lines(r.findings.filter((f) => f.rule !== "cel" && f.severity === "error"))).toEqual([
      'error spec.addresses[0]: Invalid value: "": "spec.addresses[0]" must validate one and only one schema (oneOf). Found none valid',
      'error spec.addresses[0].value: Invalid value: "": "spec.addresses[0].value" must validate at least one schema (anyOf)',
      'error spec.addresses[0].value: Invalid value: "example.com": spec.addresses[0].value in body must be of type ipv4: "example.com"',
    ]);
  });
});
