import { describe, expect, it } from "vitest";
import type { JsonValue } from "../value/index.js";
import { evolutionRules } from "./index.js";
import { compareVersionPriority } from "./revision.js";
import { brief, crd, diff, int, obj, root, rules, str, v1, webhook } from "./test-helpers.js";

const spec = obj({ replicas: int() });

describe("the catalog", () => {
  it("lists every id of evolution.md with its default severity, then crd-invalid", () => {
    expect(evolutionRules.map((r) => `${r.id} ${r.severity}`)).toEqual([
      "identity-changed error",
      "version-removed error",
      "stored-version-removed error",
      "version-unserved warning",
      "storage-version-changed warning",
      "storage-version-count error",
      "version-name-invalid error",
      "conversion-missing error",
      "conversion-invalid error",
      "schema-not-structural error",
      "field-removed error",
      "type-changed error",
      "required-added error",
      "enum-restricted error",
      "enum-extended notice",
      "bounds-tightened error",
      "pattern-changed error",
      "format-changed warning",
      "nullable-removed error",
      "default-changed warning",
      "validation-rule-added error",
      "validation-rule-changed warning",
      "list-type-changed error",
      "unknown-fields-pruned error",
      "union-changed error",
      "union-member-added notice",
      "union-without-discriminator warning",
      "description-changed off",
      "served-versions-diverge error",
      "crd-invalid error",
    ]);
    for (const r of evolutionRules) expect(r.description.length).toBeGreaterThan(10);
  });
});

describe("version priority", () => {
  it("orders versions as Kubernetes does: GA, beta, alpha, then other names", () => {
    const names = [
      "foo10",
      "v1alpha1",
      "v11alpha2",
      "v3beta1",
      "v1",
      "foo1",
      "v10beta3",
      "v2",
      "v12alpha1",
      "v11beta2",
      "v10",
    ];
    expect(names.sort(compareVersionPriority)).toEqual([
      "v10",
      "v2",
      "v1",
      "v11beta2",
      "v10beta3",
      "v3beta1",
      "v12alpha1",
      "v11alpha2",
      "v1alpha1",
      "foo1",
      "foo10",
    ]);
  });
});

describe("whole-CRD rules", () => {
  it("a new kind or group; not a new singular name", () => {
    expect(brief(diff(v1(spec), v1(spec, { kind: "Gadget" })))).toEqual(["identity-changed spec.names.kind"]);
    const renamed = diff(v1(spec), v1(spec, { group: "example.org" }));
    expect(brief(renamed)).toEqual(["identity-changed metadata.name", "identity-changed spec.group"]);
    const singular = v1(spec) as { spec: { names: { singular: string } } };
    singular.spec.names.singular = "gizmo";
    expect(diff(v1(spec), singular as never)).toEqual([]);
  });

  it("a served version that was never stored; not one kept as served: false", () => {
    const old = crd([{ name: "v1", storage: true }, { name: "v1beta1" }], { storedVersions: ["v1"] });
    const gone = diff(old, crd([{ name: "v1" }], { storedVersions: ["v1"] }));
    expect(brief(gone)).toEqual(["version-removed v1beta1"]);
    expect(gone[0]).toMatchObject({ path: ["spec", "versions"], oldPath: ["spec", "versions", 1], version: "v1beta1" });
    const kept = crd(
      [
        { name: "v1", storage: true },
        { name: "v1beta1", served: false },
      ],
      { storedVersions: ["v1"] },
    );
    expect(rules(diff(old, kept))).toEqual(["version-unserved"]);
  });

  it("a version in status.storedVersions is gone (and is not also version-removed)", () => {
    const old = crd([{ name: "v1", storage: true }, { name: "v1beta1" }], { storedVersions: ["v1beta1", "v1"] });
    const found = diff(old, crd([{ name: "v1" }]));
    expect(brief(found)).toEqual(["stored-version-removed v1beta1"]);
    expect(found[0]?.message).toMatch(/^v1beta1: version v1beta1 removed while objects may be stored in it/);
    expect(found[0]?.oldPath).toEqual(["spec", "versions", 1]);
  });

  it("removing the storage version", () => {
    const old = crd([{ name: "v1alpha1", storage: true }, { name: "v1" }]);
    expect(brief(diff(old, crd([{ name: "v1" }])))).toEqual(["stored-version-removed v1alpha1"]);
  });

  it("a skip-version upgrade v1alpha1 → v1 that drops v1beta1 too", () => {
    const old = crd([{ name: "v1alpha1" }, { name: "v1beta1", storage: true }], {
      storedVersions: ["v1alpha1", "v1beta1"],
    });
    expect(brief(diff(old, crd([{ name: "v1" }], { storedVersions: ["v1alpha1", "v1beta1"] })))).toEqual([
      "stored-version-removed v1alpha1",
      "stored-version-removed v1beta1",
    ]);
  });

  it("the new document's own status lists a version it no longer has", () => {
    const found = diff(v1(spec), crd([{ name: "v1", spec }], { storedVersions: ["v1alpha1", "v1"] }));
    expect(found.map((f) => [f.rule, f.path])).toEqual([["stored-version-removed", ["status", "storedVersions", 0]]]);
  });

  it("stored-version-removed never fires for a served version that was never stored", () => {
    const old = crd([{ name: "v2", storage: true }, { name: "v1" }], { storedVersions: ["v2"] });
    expect(rules(diff(old, crd([{ name: "v2" }])))).toEqual(["version-removed"]);
  });

  it("served true → false; a rollback that re-adds old versions unserved reports nothing", () => {
    const old = crd([{ name: "v1", storage: true }, { name: "v1alpha2" }]);
    const unserved = crd([
      { name: "v1", storage: true },
      { name: "v1alpha2", served: false },
    ]);
    const found = diff(old, unserved);
    expect(brief(found)).toEqual(["version-unserved v1alpha2"]);
    expect(found[0]).toMatchObject({
      severity: "warning",
      path: ["spec", "versions", 1, "served"],
      oldValue: true,
      newValue: false,
    });
    const readded = crd([
      { name: "v1", storage: true },
      { name: "v1alpha2", served: false },
      { name: "v1alpha1", served: false },
    ]);
    expect(diff(v1(obj()), readded)).toEqual([]);
  });

  it("storage moved to a version that stays; not when it is unchanged", () => {
    const old = crd([{ name: "v1beta1", storage: true }, { name: "v1" }]);
    const moved = crd([{ name: "v1beta1" }, { name: "v1", storage: true }]);
    const found = diff(old, moved);
    expect(brief(found)).toEqual(["storage-version-changed v1"]);
    expect(found[0]).toMatchObject({ severity: "warning", oldValue: "v1beta1", newValue: "v1" });
    expect(diff(old, old)).toEqual([]);
  });

  it("a second storage version; not when the old revision already had two", () => {
    const one = crd([{ name: "v1", storage: true }, { name: "v2" }]);
    const two = crd([
      { name: "v1", storage: true },
      { name: "v2", storage: true },
    ]);
    expect(rules(diff(one, two))).toEqual(["storage-version-count"]);
    expect(diff(two, two)).toEqual([]);
  });

  it("not a DNS-1035 label, or listed twice; valid names pass", () => {
    expect(brief(diff(v1(spec), crd([{ name: "v1" }, { name: "V2_beta" }])))).toContain("version-name-invalid V2_beta");
    expect(rules(diff(v1(spec), crd([{ name: "v1" }, { name: "v1", served: false }])))).toContain(
      "version-name-invalid",
    );
    expect(
      diff(
        v1(spec),
        crd([
          { name: "v1", spec },
          { name: "v1beta1", served: false, spec },
        ]),
      ),
    ).toEqual([]);
  });

  it("a second served version with another schema and no webhook", () => {
    const next = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: str() }) },
    ]);
    expect(rules(diff(v1(spec), next))).toContain("conversion-missing");
    // Documentation alone needs no conversion.
    const documented = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: int({ description: "How many." }) }) },
    ]);
    expect(diff(v1(spec), documented)).toEqual([]);
    const converted = crd(
      [
        { name: "v1", spec },
        { name: "v2", spec: obj({ replicas: str() }) },
      ],
      { conversion: webhook() },
    );
    expect(rules(diff(v1(spec), converted))).not.toContain("conversion-missing");
  });

  it("url and service, review versions without v1, preserveUnknownFields; a valid webhook passes", () => {
    const both = webhook({ clientConfig: { url: "https://conv.example.com", service: { name: "c", namespace: "n" } } });
    expect(brief(diff(v1(spec), v1(spec, { conversion: both })))).toEqual([
      "conversion-invalid spec.conversion.webhook.clientConfig",
    ]);
    const reviews = webhook({ conversionReviewVersions: ["v2"] });
    expect(brief(diff(v1(spec), v1(spec, { conversion: reviews })))).toEqual([
      "conversion-invalid spec.conversion.webhook.conversionReviewVersions",
    ]);
    const preserve = v1(spec, { conversion: webhook(), preserveUnknownFields: true });
    expect(brief(diff(v1(spec), preserve))).toEqual(["conversion-invalid spec.preserveUnknownFields"]);
    expect(diff(v1(spec), v1(spec, { conversion: webhook() }))).toEqual([]);
  });

  it("missing type, typed junctor branches, metadata beyond name; not when the old revision had it", () => {
    const untyped = v1(obj({ replicas: int(), extra: { description: "no type" } }));
    expect(brief(diff(v1(spec), untyped))).toEqual(["schema-not-structural v1 spec.extra"]);
    expect(diff(v1(spec), untyped)[0]?.detail).toBe("type: must not be empty for specified object fields");
    const junctor = v1(obj({ replicas: int() }, { anyOf: [{ type: "object", required: ["replicas"] }] }));
    const structural = (found: ReturnType<typeof diff>) => found.filter((f) => f.rule === "schema-not-structural");
    expect(structural(diff(v1(spec), junctor)).map((f) => f.detail)).toEqual([
      "anyOf[0].type: must be empty to be structural",
    ]);
    const meta = crd([
      { name: "v1", schema: obj({ apiVersion: str(), kind: str(), spec, metadata: obj({ labels: obj() }) }) },
    ]);
    expect(rules(diff(v1(spec), meta))).toEqual(["schema-not-structural"]);
    expect(diff(v1(spec), meta)[0]?.detail).toBe(
      "properties[metadata]: must not specify anything other than name and generateName, but metadata is implicitly specified (properties.labels)",
    );
    const allowed = crd([
      {
        name: "v1",
        schema: obj({ apiVersion: str(), kind: str(), spec, metadata: obj({ name: str({ maxLength: 20 }) }) }),
      },
    ]);
    expect(diff(v1(spec), allowed)).toEqual([]);
    const intOrString = { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] };
    expect(diff(v1(spec), v1(obj({ replicas: int(), port: intOrString })))).toEqual([]);
    expect(diff(untyped, untyped)).toEqual([]);
  });

  it("a junctor of the root may only name fields the schema itself specifies", () => {
    const oneOf: JsonValue = [{ required: ["spec"] }, { properties: { ghost: {} } }];
    const named = crd([{ name: "v1", schema: { ...root(spec), oneOf } }]);
    expect(diff(v1(spec), named).map((f) => f.detail)).toContain(
      "oneOf[1].properties[ghost]: must be specified in the structural part of the schema too",
    );
    // complete.go checks the root's junctors only: the API server accepts the same junctor on spec.
    const onSpec = v1(obj({ replicas: int() }, { oneOf: [{ required: ["replicas"] }, { properties: { ghost: {} } }] }));
    expect(rules(diff(v1(spec), onSpec))).not.toContain("schema-not-structural");
  });

  it("reads apiextensions.k8s.io/v1beta1's single schema and compares it with the v1 form", () => {
    const legacy = {
      apiVersion: "apiextensions.k8s.io/v1beta1",
      kind: "CustomResourceDefinition",
      metadata: { name: "widgets.example.com" },
      spec: {
        group: "example.com",
        names: { kind: "Widget", plural: "widgets" },
        scope: "Namespaced",
        version: "v1",
        validation: { openAPIV3Schema: root(obj({ replicas: int(), size: str() })) },
      },
    };
    expect(diff(legacy, v1(obj({ replicas: int(), size: str() })))).toEqual([]);
    const found = diff(legacy, v1(obj({ replicas: int() })));
    expect(found.map((f) => [f.rule, f.oldPath])).toEqual([
      [
        "field-removed",
        ["spec", "validation", "openAPIV3Schema", "properties", { key: "spec" }, "properties", { key: "size" }],
      ],
    ]);
  });

  it("a root schema is checked as the root: type object, no additionalProperties", () => {
    const bad = crd([{ name: "v1", schema: { type: "object", additionalProperties: { type: "string" } } }]);
    expect(diff(crd([{ name: "v1", schema: root(spec) }]), bad).map((f) => f.detail)).toContain(
      "additionalProperties: must not be used at the root",
    );
  });
});
