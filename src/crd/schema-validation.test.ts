/**
 * validateVersionSchema: what the API server refuses in a version's openAPIV3Schema, in its words.
 * Sources (apiextensions-apiserver): pkg/apiserver/schema/validation.go (validateStructuralInvariants,
 * validateStructuralMetadataInvariants, validateExtensions, validateNestedValueValidation), complete.go
 * (validateStructuralCompleteness), and pkg/apis/apiextensions/validation/validation.go
 * (validateCustomResourceDefinitionValidation, ValidateCustomResourceDefinitionOpenAPISchema,
 * validateMapListKeysMapSet, specStandardValidatorV3.validate). Messages with `Required value: must not be
 * empty…`, `Forbidden: must be empty to be structural`, `because it is defined in …` are the ones of the
 * apiextensions integration test TestNonStructuralSchemaCondition.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { structuralViolations, validateVersionSchema } from "./schema-validation.js";

const at = ["spec", "versions", 0, "schema", "openAPIV3Schema"];
const P = "spec.versions[0].schema.openAPIV3Schema";
const messages = (schema: JsonValue, minor?: number) =>
  validateVersionSchema(schema, at, { minor }).findings.map((f) => f.message);
const root = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: "object", properties, ...extra });
const str: JsonObject = { type: "string" };
/** A list-type map of objects keyed by `name`, with `extra` on the list and `item` on its items. */
const mapList = (extra: JsonObject = {}, item: JsonObject = {}): JsonObject => ({
  type: "array",
  "x-kubernetes-list-type": "map",
  "x-kubernetes-list-map-keys": ["name"],
  items: { type: "object", required: ["name"], properties: { name: str }, ...item },
  ...extra,
});

describe("structural schemas (pkg/apiserver/schema validation.go, complete.go)", () => {
  it("validateStructuralInvariants: every specified node has a type, arrays have items", () => {
    expect(messages(root({ spec: { properties: { a: str } } }))).toEqual([
      `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ]);
    expect(messages({ properties: { list: { type: "array", items: {} } } })).toEqual([
      `${P}.properties[list].items.type: Required value: must not be empty for specified array items`,
      `${P}.type: Required value: must not be empty at the root`,
    ]);
    expect(messages(root({ map: { type: "object", additionalProperties: {} } }))).toEqual([
      `${P}.properties[map].additionalProperties.type: Required value: must not be empty for specified object fields`,
    ]);
    expect(messages(root({ list: { type: "array" } }))).toEqual([
      `${P}.properties[list].items: Required value: must be specified`,
    ]);
    // x-kubernetes-int-or-string and x-kubernetes-preserve-unknown-fields stand in for a type.
    const free = { "x-kubernetes-preserve-unknown-fields": true };
    expect(messages(root({ a: free, b: { "x-kubernetes-int-or-string": true } }))).toEqual([]);
  });

  it("validateStructuralInvariants: the root is an object without additionalProperties", () => {
    expect(messages({ type: "integer" })).toEqual([`${P}.type: Invalid value: "integer": must be object at the root`]);
    expect(messages({ type: "object", additionalProperties: false })).toEqual([
      `${P}.additionalProperties: Forbidden: must not be used at the root`,
    ]);
  });

  it("validateExtensions: int-or-string is neither preserved nor embedded", () => {
    const both = { "x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true };
    expect(messages(root({ port: both }))).toEqual([
      `${P}.properties[port].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]);
    const embedded = { ...both, "x-kubernetes-preserve-unknown-fields": false, "x-kubernetes-embedded-resource": true };
    expect(messages(root({ port: { ...embedded, "x-kubernetes-preserve-unknown-fields": true } }))).toContain(
      `${P}.properties[port].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    );
  });

  it("validateStructuralInvariants: an embedded resource is an object with properties or preserved fields", () => {
    const embedded = { "x-kubernetes-embedded-resource": true };
    expect(messages(root({ pod: { type: "array", items: str, ...embedded } }))).toContain(
      `${P}.properties[pod].type: Invalid value: "array": must be object if x-kubernetes-embedded-resource is true`,
    );
    expect(messages(root({ pod: { ...embedded, "x-kubernetes-preserve-unknown-fields": true } }))).toEqual([
      `${P}.properties[pod].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]);
    expect(messages(root({ pod: { type: "object", ...embedded } }))).toEqual([
      `${P}.properties[pod].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ]);
    const map = {
      type: "object",
      ...embedded,
      "x-kubernetes-preserve-unknown-fields": true,
      additionalProperties: str,
    };
    expect(messages(root({ pod: map }))).toEqual([
      `${P}.properties[pod].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
    ]);
    const typed = { type: "object", ...embedded, properties: { kind: { type: "integer" }, metadata: str } };
    expect(messages(root({ pod: typed }))).toEqual([
      `${P}.properties[pod].properties[kind].type: Invalid value: "integer": must be string`,
      `${P}.properties[pod].properties[metadata].type: Invalid value: "string": must be object`,
    ]);
  });

  it("validateStructuralMetadataInvariants: the root's metadata restricts name and generateName only", () => {
    const labels = { type: "object", properties: { labels: { type: "object" } } };
    expect(messages(root({ metadata: labels }))).toEqual([
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
    expect(messages(root({ metadata: { type: "object", description: "the object's metadata" } }))).toHaveLength(1);
    const names = { type: "object", properties: { name: { ...str, maxLength: 63 }, generateName: str } };
    expect(messages(root({ metadata: names, apiVersion: str, kind: str }))).toEqual([]);
    expect(messages(root({ apiVersion: { type: "object" } }))).toEqual([
      `${P}.properties[apiVersion].type: Invalid value: "object": must be string`,
    ]);
    // Only a resource's metadata: a field named metadata elsewhere is a field like any other.
    expect(messages(root({ spec: root({ metadata: labels }) }))).toEqual([]);
  });

  it("validateNestedValueValidation: a junctor restricts values only, never shapes them", () => {
    const spec = root({ a: str }, { anyOf: [{ type: "object", required: ["a"] }, { required: ["b"] }] });
    expect(messages(root({ spec }))).toEqual([
      `${P}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
    ]);
    const shaping = {
      description: "d",
      nullable: true,
      default: {},
      additionalProperties: str,
      "x-kubernetes-list-type": "atomic",
      "x-kubernetes-validations": [{ rule: "true" }],
      properties: { metadata: {} },
    };
    expect(messages(root({ spec: root({}, { not: shaping }) }))).toEqual([
      `${P}.properties[spec].not.additionalProperties: Forbidden: must be undefined to be structural`,
      `${P}.properties[spec].not.default: Forbidden: must be undefined to be structural`,
      `${P}.properties[spec].not.description: Forbidden: must be empty to be structural`,
      `${P}.properties[spec].not.nullable: Forbidden: must be false to be structural`,
      `${P}.properties[spec].not.properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.properties[spec].not.x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
      `${P}.properties[spec].not.x-kubernetes-validations: Forbidden: must be empty to be structural`,
      // ValidateCustomResourceDefinitionOpenAPISchema checks junctor branches too.
      `${P}.properties[spec].not.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${P}.properties[spec].not.type: Required value: must be array if x-kubernetes-list-type is specified`,
    ]);
    // The int-or-string spellings may name their two types; example and externalDocs never count.
    const intOrString = { "x-kubernetes-int-or-string": true };
    const pair: JsonValue = [{ type: "integer", example: 1 }, { type: "string" }];
    expect(
      messages(root({ a: { ...intOrString, anyOf: pair }, b: { ...intOrString, allOf: [{ anyOf: pair }] } })),
    ).toEqual([]);
    expect(messages(root({ c: { ...intOrString, anyOf: [{ type: "string" }, { type: "integer" }] } }))).toEqual([
      `${P}.properties[c].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[c].anyOf[1].type: Forbidden: must be empty to be structural`,
    ]);
  });

  it("validateStructuralCompleteness: what the root's junctors name, the structure specifies", () => {
    const schema = root(
      { b: root({}), d: { type: "array", items: str } },
      { not: { properties: { a: {}, b: { properties: { x: {} } } } } },
    );
    expect(messages(schema)).toEqual([
      `${P}.properties[a]: Required value: because it is defined in ${P}.not.properties[a]`,
      `${P}.properties[b].properties[x]: Required value: because it is defined in ${P}.not.properties[b].properties[x]`,
    ]);
    expect(messages(root({ d: { type: "object" } }, { anyOf: [{ properties: { d: { items: {} } } }] }))).toEqual([
      `${P}.properties[d].items: Required value: because it is defined in ${P}.anyOf[0].properties[d].items`,
    ]);
    // Only the root's: the server does not check a junctor deeper down.
    expect(messages(root({ spec: root({}, { oneOf: [{ properties: { ghost: {} } }] }) }))).toEqual([]);
  });

  it("structuralViolations places each violation on its node for the evolution rule", () => {
    const [v] = structuralViolations(root({ metadata: root({ labels: { type: "object" } }) }), at);
    expect(v?.implicit).toEqual(["properties.labels"]);
    const [missing] = structuralViolations(root({}, { oneOf: [{ properties: { ghost: {} } }] }), at);
    expect(missing).toMatchObject({ incomplete: true, where: ["oneOf", 0, "properties", { key: "ghost" }] });
    const [typed] = structuralViolations(root({ spec: root({}, { anyOf: [{ type: "object" }] }) }), at);
    expect(typed).toMatchObject({ node: ["properties", { key: "spec" }], data: ["spec"], where: ["anyOf", 0, "type"] });
  });

  it("a schema that contains itself (YAML aliases) ends, each part checked once", () => {
    const loop: JsonObject = { type: "object", properties: {} };
    const branch: JsonObject = { required: ["a"] };
    branch.allOf = [branch, branch];
    branch.not = branch;
    (loop.properties as JsonObject).self = loop;
    (loop.properties as JsonObject).spec = { type: "object", allOf: [branch, branch], anyOf: [{ properties: {} }] };
    expect(messages({ ...loop, not: branch })).toEqual([]);
    const typed: JsonObject = { type: "string" };
    typed.allOf = [typed, typed];
    expect(messages(root({ a: { type: "object", anyOf: [typed] } }))).toEqual([
      `${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    ]);
  });

  it("a schema NewStructural cannot convert is reported by its keyword, not by structure", () => {
    expect(messages(root({ a: {}, b: { "x-kubernetes-preserve-unknown-fields": false } }))).toEqual([
      `${P}.properties[b].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ]);
  });
});

describe("ValidateCustomResourceDefinitionOpenAPISchema (pkg/apis/apiextensions/validation)", () => {
  it("validateCustomResourceDefinitionValidation: the root is not nullable, an object with the status subresource", () => {
    expect(messages(root({}, { nullable: true }))).toEqual([
      `${P}.nullable: Forbidden: nullable cannot be true at the root`,
    ]);
    const status = (schema: JsonObject) =>
      validateVersionSchema(schema, at, { statusSubresource: true }).findings.map((f) => f.message);
    expect(status({ type: "array", items: str })).toEqual([
      `${P}.type: Invalid value: "array": must be object at the root`,
      `${P}.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    ]);
    expect(status(root({}))).toEqual([]);
  });

  it("validateCustomResourceDefinitionValidation: with the status subresource, the root has allowedFieldsAtRootSchema only", () => {
    const status = (schema: JsonObject) =>
      validateVersionSchema(schema, at, { statusSubresource: true }).findings.map((f) => f.message);
    const only = (schema: JsonObject) =>
      `${P}: Invalid value: ${JSON.stringify(schema)}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`;
    const oneOf = root({ a: str, b: str }, { oneOf: [{ required: ["a"] }, { required: ["b"] }] });
    expect(status(oneOf)).toEqual([only(oneOf)]);
    // each field is looked at in the Go struct's order, and the first refused ends the walk: Nullable comes
    // before AnyOf; the root's own nullable rule is said besides
    const nullable = root({}, { nullable: true, anyOf: [{ required: ["a"] }] });
    expect(status(nullable)).toEqual([only(nullable), `${P}.nullable: Forbidden: nullable cannot be true at the root`]);
    // ID comes before Type, so a refused id ends the walk before the type is looked at (and the standard
    // validator refuses it as well)
    const id = { id: "x", type: "array", items: str };
    expect(status(id)).toEqual([only(id), `${P}.id: Forbidden: id is not supported`]);
    // zero values are skipped: "" and false for strings and bools, null for pointers, slices and maps; an empty
    // list or map decodes as set
    expect(status(root({}, { "x-kubernetes-embedded-resource": false, id: "", enum: null, default: null }))).toEqual(
      [],
    );
    const emptyEnum = root({}, { enum: [] });
    expect(status(emptyEnum)).toEqual([only(emptyEnum)]);
    const minProperties = root({}, { minProperties: 0 });
    expect(status(minProperties)).toEqual([only(minProperties)]);
    const allowed = root(
      { a: str },
      {
        description: "d",
        title: "t",
        required: ["a"],
        example: {},
        externalDocs: { url: "https://example.com" },
        "x-kubernetes-preserve-unknown-fields": true,
        "x-kubernetes-validations": [{ rule: "true" }],
      },
    );
    expect(status(allowed)).toEqual([]);
    // without the status subresource, none of this applies
    expect(messages(oneOf)).toEqual([]);
  });

  it("uniqueItems, and additionalProperties beside properties", () => {
    expect(messages(root({ tags: { type: "array", items: str, uniqueItems: true } }))).toEqual([
      `${P}.properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ]);
    const both = (extra: JsonValue) => root({ spec: root({ a: str }, { additionalProperties: extra }) });
    const exclusive = `${P}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`;
    expect(messages(both(false))).toEqual([exclusive]);
    expect(messages(both(str))).toEqual([exclusive]);
    expect(messages(both(true))).toEqual([]);
  });

  it("specStandardValidatorV3.validate: keywords CRDs do not support", () => {
    const unsupported = {
      type: "array",
      items: [str],
      id: "x",
      $ref: "#/definitions/x",
      definitions: { x: str },
      patternProperties: { "^a": str },
      dependencies: { a: ["b"] },
      additionalItems: false,
    };
    expect(messages(root({ x: unsupported }))).toEqual([
      `${P}.properties[x].id: Forbidden: id is not supported`,
      `${P}.properties[x].additionalItems: Forbidden: additionalItems is not supported`,
      `${P}.properties[x].patternProperties: Forbidden: patternProperties is not supported`,
      `${P}.properties[x].definitions: Forbidden: definitions is not supported`,
      `${P}.properties[x].dependencies: Forbidden: dependencies is not supported`,
      `${P}.properties[x].$ref: Forbidden: $ref is not supported`,
      `${P}.properties[x].items: Forbidden: items must be a schema object and not an array`,
    ]);
    // The unknown type itself is validate/compile.ts's finding; the null type has its own words too.
    expect(messages(root({ x: { type: "null" } }))).toEqual([
      `${P}.properties[x].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ]);
  });

  it("specStandardValidatorV3.validate: no defaults in the root's metadata, kind, apiVersion; no embedding in meta", () => {
    expect(messages(root({ metadata: { type: "object", default: {} }, kind: { ...str, default: "Widget" } }))).toEqual([
      `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
      `${P}.properties[kind].default: Forbidden: must not be set in top-level kind`,
    ]);
    const labels = { type: "object", additionalProperties: { ...str, default: "x" } };
    const meta = { type: "object", properties: { labels, name: { ...str, default: "n" } } };
    const pod = { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: meta } };
    expect(messages(root({ pod }))).toEqual([
      `${P}.properties[pod].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`,
    ]);
    const nested = {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      "x-kubernetes-preserve-unknown-fields": true,
    };
    expect(
      messages(root({ pod: { ...pod, properties: { metadata: { type: "object", properties: { owner: nested } } } } })),
    ).toEqual([
      `${P}.properties[pod].properties[metadata].properties[owner].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
    ]);
  });

  it("specStandardValidatorV3.validate: no default at all where defaults are not allowed (v1beta1)", () => {
    const schema = root({ a: { ...str, default: "x" }, kind: { ...str, default: "Widget" } });
    expect(validateVersionSchema(schema, at, { allowDefaults: false }).findings.map((f) => f.message)).toEqual([
      `${P}.properties[a].default: Forbidden: must not be set`,
      `${P}.properties[kind].default: Forbidden: must not be set in top-level kind`,
    ]);
  });

  it("x-kubernetes-preserve-unknown-fields and x-kubernetes-map-type", () => {
    expect(messages(root({ a: { ...str, "x-kubernetes-map-type": "atomic" } }))).toEqual([
      `${P}.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
    ]);
    expect(messages(root({ a: { type: "object", "x-kubernetes-map-type": "whole" } }))).toEqual([
      `${P}.properties[a].x-kubernetes-map-type: Unsupported value: "whole": supported values: "atomic", "granular"`,
    ]);
    expect(
      messages(root({ a: { "x-kubernetes-map-type": "atomic", "x-kubernetes-preserve-unknown-fields": true } })),
    ).toEqual([`${P}.properties[a].type: Required value: must be object if x-kubernetes-map-type is specified`]);
  });

  it("x-kubernetes-list-type: on arrays, one of atomic, set, map; sets of atomic items", () => {
    expect(messages(root({ a: { ...str, "x-kubernetes-list-type": "atomic" } }))).toEqual([
      `${P}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
    ]);
    expect(messages(root({ a: { type: "array", items: str, "x-kubernetes-list-type": "bag" } }))).toEqual([
      `${P}.properties[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ]);
    const set = (items: JsonObject) => root({ a: { type: "array", "x-kubernetes-list-type": "set", items } });
    expect(messages(set(root({ b: str })))).toEqual([
      `${P}.properties[a].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
    expect(messages(set(root({ b: str }, { "x-kubernetes-map-type": "atomic" })))).toEqual([]);
    expect(messages(set({ type: "array", items: str, "x-kubernetes-list-type": "set" }))).toEqual([
      `${P}.properties[a].items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
  });

  it("x-kubernetes-list-map-keys: only with list-type map, which needs them", () => {
    const keyed = { type: "array", items: root({ name: str }), "x-kubernetes-list-map-keys": ["name"] };
    expect(messages(root({ a: keyed }))).toEqual([
      `${P}.properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ]);
    expect(messages(root({ a: { ...keyed, "x-kubernetes-list-type": "atomic" } }))).toEqual([
      `${P}.properties[a].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
    ]);
    expect(messages(root({ a: mapList({ "x-kubernetes-list-map-keys": [] }) }))).toEqual([
      `${P}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ]);
    expect(messages(root({ a: mapList({ items: str }) }))).toEqual([
      `${P}.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
    ]);
    const noItems = { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] };
    expect(messages(root({ a: noItems }))).toEqual([
      `${P}.properties[a].items: Required value: must be specified`,
      `${P}.properties[a].items: Required value: must have a schema if x-kubernetes-list-type is map`,
    ]);
  });

  it("x-kubernetes-list-map-keys name scalar item properties, once each; the list prints as the release prints it", () => {
    const keys = { "x-kubernetes-list-map-keys": ["name", "port", "name"] };
    expect(messages(root({ a: mapList(keys) }))).toEqual([
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: ["name","port","name"]: entries must all be names of item properties`,
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: ["name","port","name"]: must not contain duplicate entries`,
    ]);
    expect(messages(root({ a: mapList({ "x-kubernetes-list-map-keys": ["name", "port"] }) }), 33)).toEqual([
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: []string{"name", "port"}: entries must all be names of item properties`,
    ]);
    const objectKey = mapList({}, { properties: { name: root({}) } });
    expect(messages(root({ a: objectKey }))).toEqual([
      `${P}.properties[a].items.properties[name].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
    ]);
  });

  it("validateMapListKeysMapSet: set and map items and map keys are never null, map keys always present", () => {
    expect(messages(root({ a: mapList({}, { nullable: true }) }))).toEqual([
      `${P}.properties[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map`,
    ]);
    expect(messages(root({ a: mapList({}, { required: [] }) }))).toEqual([
      `${P}.properties[a].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
    expect(
      messages(root({ a: mapList({}, { required: [], properties: { name: { ...str, default: "x" } } }) })),
    ).toEqual([]);
    expect(messages(root({ a: mapList({}, { properties: { name: { ...str, nullable: true } } }) }))).toEqual([
      `${P}.properties[a].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
    ]);
  });
});

describe("the real CRDs of /work/shared/corpus, all applied to clusters", () => {
  const corpus = "/work/shared/corpus";
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((e) => {
      const path = join(dir, e);
      return statSync(path).isDirectory() ? files(path) : /\.ya?ml$/.test(e) ? [path] : [];
    });
  it.skipIf(!existsSync(corpus))("have no finding in any version's schema", () => {
    const found: string[] = [];
    let versions = 0;
    for (const project of readdirSync(corpus)) {
      const dir = join(corpus, project, "crds");
      if (!existsSync(dir)) continue;
      for (const file of files(dir)) {
        for (const doc of parseSource(readFileSync(file, "utf8"), file).documents) {
          const spec = isObject(doc.value) ? getKey(doc.value, "spec") : undefined;
          const list = isObject(spec) ? getKey(spec, "versions") : undefined;
          if (getKey(doc.value as JsonObject, "kind") !== "CustomResourceDefinition" || !Array.isArray(list)) continue;
          list.forEach((v, i) => {
            const schema = isObject(v) ? getKey(v, "schema") : undefined;
            if (!isObject(schema)) return;
            versions++;
            const path = ["spec", "versions", i, "schema", "openAPIV3Schema"];
            for (const f of validateVersionSchema(getKey(schema, "openAPIV3Schema") ?? null, path).findings)
              found.push(`${file}: ${f.message}`);
          });
        }
      }
    }
    expect(versions).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });
});
