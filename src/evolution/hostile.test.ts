import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../value/index.js";
import { brief, crd, diff, int, obj, rules, str, v1 } from "./test-helpers.js";

/** `depth` nested objects `a.a.a…` ending in `leaf`. */
function nested(depth: number, leaf: JsonObject): JsonObject {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = obj({ a: node });
  return node;
}

describe("inputs that cannot be compared", () => {
  it("a document that is not a CRD is crd-invalid, never a throw", () => {
    for (const bad of [null, 42, "x", [], {}, { kind: "Deployment", apiVersion: "apps/v1" }] as JsonValue[]) {
      expect(rules(diff(bad, v1(obj())))).toEqual(["crd-invalid"]);
      expect(rules(diff(v1(obj()), bad))).toEqual(["crd-invalid"]);
    }
    const found = diff(v1(obj()), { kind: "Deployment" });
    expect(found[0]).toMatchObject({ severity: "error", type: "CrdChange", path: [] });
    expect(found[0]?.message).toBe(
      "the new document is not a CustomResourceDefinition (apiextensions.k8s.io); nothing to compare",
    );
  });

  it("a CRD without versions is crd-invalid", () => {
    const empty = crd([]);
    expect(rules(diff(v1(obj()), empty))).toEqual(["crd-invalid"]);
    expect(diff(v1(obj()), empty)[0]?.detail).toMatch(/without versions/);
  });

  it("versions that are not objects, schemas that are not objects, odd scalar types are findings", () => {
    const odd = v1(obj()) as { spec: JsonObject };
    odd.spec.versions = [
      null,
      3,
      { name: 7, served: "yes", schema: { openAPIV3Schema: [] } },
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: 5, required: "x", enum: "y", maxLength: "9" } },
          },
        },
      },
    ];
    expect(brief(diff(v1(obj()), odd as unknown as JsonValue))).toEqual([
      "version-name-invalid spec.versions[2].name",
      "schema-not-structural ",
      "schema-not-structural v1 spec",
      "field-removed v1 apiVersion",
      "field-removed v1 kind",
      "field-removed v1 metadata",
      "type-changed v1 spec",
    ]);
    const found = diff(v1(obj()), odd as unknown as JsonValue);
    expect(found.find((f) => f.rule === "schema-not-structural" && f.field === "")?.detail).toBe(
      "no schema.openAPIV3Schema; apiextensions.k8s.io/v1 requires one for every version",
    );
    expect(found.find((f) => f.field === "v1 spec" && f.rule === "schema-not-structural")?.detail).toBe(
      "type: must not be empty for specified object fields",
    );
    // Nothing changed, nothing to say, however odd the document.
    expect(diff(odd as unknown as JsonValue, odd as unknown as JsonValue)).toEqual([]);
  });
});

describe("deep and hostile schemas", () => {
  it("compares a schema 20 levels deep down to the bottom", () => {
    const found = diff(v1(nested(20, obj({ leaf: int() }))), v1(nested(20, obj({ leaf: str() }))));
    expect(found).toHaveLength(1);
    expect(found[0]?.field).toBe(`v1 spec.${"a.".repeat(20)}leaf`);
  });

  it("stops at a depth guard on absurd nesting and says so", () => {
    const found = diff(v1(nested(400, obj({ leaf: int() }))), v1(nested(400, obj({ leaf: str() }))));
    expect(rules(found)).toEqual(["crd-invalid"]);
    expect(found[0]?.detail).toMatch(/nested too deeply/);
    // The same schema on both sides has nothing to say, however deep.
    expect(diff(v1(nested(400, obj())), v1(nested(400, obj())))).toEqual([]);
  });

  it("treats __proto__, constructor and hasOwnProperty as ordinary field names", () => {
    const props = JSON.parse(
      '{"__proto__": {"type": "string"}, "constructor": {"type": "integer"}, "hasOwnProperty": {"type": "string"}}',
    );
    const old = v1(obj(props));
    expect(diff(old, old)).toEqual([]);
    const gone = diff(old, v1(obj(JSON.parse('{"constructor": {"type": "string"}}'))));
    expect(brief(gone)).toEqual([
      "field-removed v1 spec.__proto__",
      "field-removed v1 spec.hasOwnProperty",
      "type-changed v1 spec.constructor",
    ]);
    expect(Object.getPrototypeOf(gone[0])).toBe(Object.prototype);
  });

  it("a version named __proto__ is just an invalid name", () => {
    const found = diff(v1(obj()), crd([{ name: "v1" }, { name: "__proto__", served: false }]));
    expect(rules(found)).toEqual(["version-name-invalid"]);
  });

  it("a schema that contains itself (YAML aliases) ends", () => {
    const loop: JsonObject = { type: "object", properties: { gone: int() } };
    (loop.properties as JsonObject).self = loop;
    const other: JsonObject = { type: "object", properties: { extra: str() } };
    (other.properties as JsonObject).self = other;
    expect(diff(v1(loop), v1(loop))).toEqual([]);
    // Compared once at each place, not around the loop forever: the removal is said once.
    expect(brief(diff(v1(loop), v1(other)))).toEqual(["field-removed v1 spec.gone"]);
  });
});
