import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../index.js";
import { getKey, isObject, type JsonValue } from "../value/index.js";
import { type SchemaDefaultsOptions, validateSchemaDefaults } from "./schema-defaults.js";

const at = ["spec", "versions", 0, "schema", "openAPIV3Schema"];
const prefix = "spec.versions[0].schema.openAPIV3Schema.properties[spec]";

/** The messages for a version schema whose `spec` is `spec`. */
function messages(spec: unknown, options?: SchemaDefaultsOptions, extra: Record<string, unknown> = {}): string[] {
  const schema = { type: "object", properties: { spec, ...extra } } as JsonValue;
  return validateSchemaDefaults(schema, at, options).map((f) => f.message);
}

describe("kube-openapi's validator on each default (ValidateDefaults → apiservervalidation.ValidateCustomResource)", () => {
  it("refuses a default of the wrong type, named from the default's own root", () => {
    expect(messages({ type: "object", properties: { a: { type: "string", default: 5 } } })).toEqual([
      `${prefix}.properties[a].default: Invalid value: "integer":  in body must be of type string: "integer"`,
    ]);
  });

  it("refuses enum, pattern and maximum violations inside an object default, at the field's path", () => {
    const spec = {
      type: "object",
      default: { mode: "c", name: "UPPER", size: 5 },
      properties: {
        mode: { type: "string", enum: ["a", "b"] },
        name: { type: "string", pattern: "^[a-z]+$" },
        size: { type: "integer", maximum: 3 },
      },
    };
    expect(messages(spec)).toEqual([
      `${prefix}.default.mode: Unsupported value: "c": supported values: "a", "b"`,
      `${prefix}.default.name: Invalid value: "UPPER": name in body should match '^[a-z]+$'`,
      `${prefix}.default.size: Invalid value: 5: size in body should be less than or equal to 3`,
    ]);
  });

  it("validates the default as written: inner defaults are not applied first, nulls are not dropped", () => {
    const spec = {
      type: "object",
      default: { n: null },
      required: ["r"],
      properties: { r: { type: "string", default: "x" }, n: { type: "string" } },
    };
    expect(messages(spec)).toEqual([
      `${prefix}.default.n: Invalid value: "null": n in body must be of type string: "null"`,
      `${prefix}.default.r: Required value`,
    ]);
  });

  it("checks list item defaults; defaults under additionalProperties are not followed (validate recurses into items and properties only)", () => {
    const spec = {
      type: "object",
      properties: {
        list: { type: "array", items: { type: "integer", default: "one" } },
        map: { type: "object", additionalProperties: { type: "integer", default: "one" } },
      },
    };
    expect(messages(spec)).toEqual([
      `${prefix}.properties[list].items.default: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
  });

  it("accepts valid defaults, and ignores `default: null` (dropped when the CRD is read)", () => {
    const spec = {
      type: "object",
      default: { port: 80 },
      properties: { port: { type: "integer", minimum: 1, default: 8080 }, s: { type: "string", default: null } },
    };
    expect(messages(spec)).toEqual([]);
  });
});

describe("pruned defaults (ValidateDefaults with requirePrunedDefaults: pruning.Prune, then reflect.DeepEqual)", () => {
  const spec = { type: "object", default: { a: "x", b: 1 }, properties: { a: { type: "string" } } };

  it("refuses a default with a field its schema does not know, printing the default", () => {
    expect(messages(spec)).toEqual([`${prefix}.default: Invalid value: {"a":"x","b":1}: must not have unknown fields`]);
  });

  it("goes on to the value validation after it: both are reported", () => {
    const both = { ...spec, default: { a: 5, b: 1 } };
    expect(messages(both)).toEqual([
      `${prefix}.default: Invalid value: {"a":5,"b":1}: must not have unknown fields`,
      `${prefix}.default.a: Invalid value: "integer": a in body must be of type string: "integer"`,
    ]);
  });

  it("is not required on an update of a CRD whose defaults were not all pruned", () => {
    expect(messages(spec, { requirePrunedDefaults: false })).toEqual([]);
  });

  it("keeps what x-kubernetes-preserve-unknown-fields keeps", () => {
    expect(messages({ ...spec, "x-kubernetes-preserve-unknown-fields": true })).toEqual([]);
  });

  it("prunes apiVersion, kind and metadata of an object that is no resource", () => {
    expect(messages({ ...spec, default: { kind: "K" } })).toEqual([
      `${prefix}.default: Invalid value: {"kind":"K"}: must not have unknown fields`,
    ]);
  });

  it("blames an unpruned inner default on itself only, not on the default around it", () => {
    const nested = {
      type: "object",
      default: {},
      properties: { inner: { type: "object", default: { z: 1 }, properties: { a: { type: "string" } } } },
    };
    expect(messages(nested)).toEqual([
      `${prefix}.properties[inner].default: Invalid value: {"z":1}: must not have unknown fields`,
    ]);
  });
});

describe("embedded resources in a default (ValidateDefaults → objectmeta.Validate)", () => {
  const embedded = {
    type: "object",
    "x-kubernetes-embedded-resource": true,
    properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } },
  };

  it("requires apiVersion and kind, and checks metadata names as path segments; the validator is skipped", () => {
    const spec = { ...embedded, default: { kind: "Pod", metadata: { name: "a/b" } } };
    expect(messages(spec)).toEqual([
      `${prefix}.default.apiVersion: Required value`,
      `${prefix}.default.metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
  });

  it("accepts a complete embedded resource, kept by pruning", () => {
    expect(messages({ ...embedded, default: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" } } })).toEqual([]);
  });

  it("takes the root's own default for a resource's (ValidateDefaults marks the root embedded)", () => {
    const root = (value: unknown) =>
      validateSchemaDefaults(
        { type: "object", properties: { spec: { type: "object" } }, default: value } as JsonValue,
        at,
      );
    expect(root({ apiVersion: "v1", kind: "K", metadata: {}, spec: {} })).toEqual([]);
    expect(root({ spec: {} }).map((f) => f.message)).toEqual([
      "spec.versions[0].schema.openAPIV3Schema.default.apiVersion: Required value",
      "spec.versions[0].schema.openAPIV3Schema.default.kind: Required value",
    ]);
  });

  it("leaves a default whose metadata Go could not decode to the server's words (Coerce): no finding", () => {
    expect(messages({ ...embedded, default: { apiVersion: "v1", kind: "Pod", metadata: { name: 5 } } })).toEqual([]);
  });
});

describe("defaults inside a resource's metadata (ValidateDefaults, insideMeta: SurroundingObjectFunc, objectmeta.Validate)", () => {
  // Inside the CRD's own root metadata, ValidateCustomResourceDefinitionOpenAPISchema forbids defaults anyway.
  const resource = (metadata: unknown, kind: unknown = { type: "string" }) => ({
    type: "object",
    "x-kubernetes-embedded-resource": true,
    properties: { apiVersion: { type: "string" }, kind, metadata },
  });

  it("refuses a metadata.name default that is no valid name, in one finding on the default", () => {
    const meta = { type: "object", properties: { name: { type: "string", default: "a/b" } } };
    expect(messages(resource(meta))).toEqual([
      `${prefix}.properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
  });

  it("aggregates several problems in brackets", () => {
    const meta = { type: "object", default: { name: "a/b", generateName: "c%" } };
    expect(messages(resource(meta))).toEqual([
      `${prefix}.properties[metadata].default: Invalid value: {"name":"a/b","generateName":"c%"}: must result in valid metadata: [metadata.generateName: Invalid value: "c%": may not contain '%', metadata.name: Invalid value: "a/b": may not contain '/']`,
    ]);
  });

  it("never reports unknown fields there, and replaces defaults of apiVersion and kind (WithTypeMeta sets them last)", () => {
    const meta = { type: "object", default: { unknown: 1 } };
    expect(messages(resource(meta, { type: "string", default: "Not A Kind" }))).toEqual([]);
  });

  it("then runs the validator on the default as written", () => {
    const meta = { type: "object", properties: { name: { type: "string", maxLength: 2, default: "abc" } } };
    expect(messages(resource(meta))).toEqual([
      `${prefix}.properties[metadata].properties[name].default: Too long: may not be more than 2 bytes`,
    ]);
  });
});

describe("CEL rules on each default (ValidateDefaults → cel.Validator.Validate)", () => {
  const range = {
    type: "object",
    properties: { min: { type: "integer" }, max: { type: "integer" } },
    "x-kubernetes-validations": [{ rule: "self.min <= self.max" }],
  };

  it("refuses a default its own rules refuse, the value printed as the release prints it", () => {
    const spec = { ...range, default: { min: 5, max: 1 } };
    expect(messages(spec)).toEqual([`${prefix}.default: Invalid value: failed rule: self.min <= self.max`]);
    // kunion's CEL module would ratchet an unchanged value to a warning; the server does not ratchet here.
    const schema = { type: "object", properties: { spec } } as JsonValue;
    expect(validateSchemaDefaults(schema, at).map((f) => f.severity)).toEqual(["error"]);
    expect(messages(spec, { celBadValue: "type" })).toEqual([
      `${prefix}.default: Invalid value: "object": failed rule: self.min <= self.max`,
    ]);
  });

  it("does not complete the default with inner defaults before the rules see it", () => {
    const spec = {
      ...range,
      default: { max: 1 },
      properties: { ...range.properties, min: { type: "integer", default: 0 } },
    };
    expect(messages(spec)).toEqual([
      `${prefix}.default: Invalid value: no such key: min evaluating rule: self.min <= self.max`,
    ]);
  });

  it("runs transition rules with the default as its own old value", () => {
    const spec = { type: "integer", default: 1, "x-kubernetes-validations": [{ rule: "self > oldSelf" }] };
    expect(messages(spec)).toEqual([`${prefix}.default: Invalid value: 1: failed rule: self > oldSelf`]);
  });

  it("gives the items of a list that is no list-type=map no old value: their transition rules do not run", () => {
    const rule = { rule: "self > oldSelf" };
    const list = (listType: string) => ({
      type: "array",
      default: [{ k: "a", n: 1 }],
      "x-kubernetes-list-type": listType,
      ...(listType === "map" ? { "x-kubernetes-list-map-keys": ["k"] } : {}),
      items: {
        type: "object",
        required: ["k"],
        properties: { k: { type: "string" }, n: { type: "integer", "x-kubernetes-validations": [rule] } },
      },
    });
    expect(messages(list("atomic"))).toEqual([]);
    expect(messages(list("map"))).toEqual([`${prefix}.default[0].n: Invalid value: 1: failed rule: self > oldSelf`]);
  });

  it("then without an old value, for rules with optionalOldSelf", () => {
    const spec = {
      type: "integer",
      default: 1,
      "x-kubernetes-validations": [{ rule: "oldSelf.hasValue()", optionalOldSelf: true }],
    };
    expect(messages(spec)).toEqual([`${prefix}.default: Invalid value: 1: failed rule: oldSelf.hasValue()`]);
  });

  it("runs no rule once the validator has refused the default", () => {
    const spec = { ...range, default: { min: "5", max: 1 } };
    expect(messages(spec)).toEqual([
      `${prefix}.default.min: Invalid value: "string": min in body must be of type integer: "string"`,
    ]);
  });
});

/** Every YAML file below `dir`. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const corpus = "/work/shared/corpus";
const projects = [
  "gateway-api",
  "cert-manager",
  "prometheus-operator",
  "kubebuilder-book",
  "crossplane",
  "argo-workflows",
];

describe("real CRDs, all accepted by API servers", () => {
  for (const project of projects) {
    const dir = join(corpus, project, "crds");
    it.skipIf(!existsSync(dir))(`${project}: no default is refused`, () => {
      const found: string[] = [];
      let versions = 0;
      for (const file of yamlFiles(dir)) {
        for (const doc of parseSource(readFileSync(file, "utf8"), file).documents) {
          const crd = doc.value;
          if (!isObject(crd) || getKey(crd, "kind") !== "CustomResourceDefinition") continue;
          const spec = getKey(crd, "spec");
          const list = isObject(spec) ? getKey(spec, "versions") : undefined;
          if (!Array.isArray(list)) continue;
          list.forEach((version, i) => {
            const holder = isObject(version) ? getKey(version, "schema") : undefined;
            const schema = isObject(holder) ? getKey(holder, "openAPIV3Schema") : undefined;
            if (schema === undefined) return;
            versions++;
            const path = ["spec", "versions", i, "schema", "openAPIV3Schema"];
            for (const f of validateSchemaDefaults(schema, path)) found.push(`${file}: ${f.message}`);
          });
        }
      }
      expect(versions).toBeGreaterThan(0);
      expect(found).toEqual([]);
    });
  }
});
