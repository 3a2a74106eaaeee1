/**
 * refusedCrdStructure: what the API server refuses in a CRD's structure (readCrd reads partial CRDs, kustomize
 * patches, without these findings). The messages are the
 * API server's: apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * (ValidateCustomResourceDefinition: `must be spec.names.plural+"."+spec.group`;
 * validateCustomResourceDefinitionSpec: field.Required for spec.group, spec.scope,
 * spec.names.plural and spec.names.kind, validateEnumStrings' NotSupported for the scope,
 * `must have exactly one version marked as storage version` on spec.versions) and apimachinery
 * ValidateObjectMeta (`name or generateName is required`).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../value/index.js";
import { readCrd, refusedCrdStructure } from "./index.js";

const version = (name: string, storage: boolean) => ({
  name,
  served: true,
  storage,
  schema: { openAPIV3Schema: { type: "object" } },
});
const spec = {
  group: "example.com",
  scope: "Namespaced",
  names: { kind: "Thing", plural: "things" },
  versions: [version("v1", true)],
};
const crd = (over: Record<string, unknown>, name = "things.example.com", apiVersion = "apiextensions.k8s.io/v1") =>
  ({ apiVersion, kind: "CustomResourceDefinition", metadata: { name }, spec: { ...spec, ...over } }) as JsonObject;
const messages = (doc: JsonObject) => refusedCrdStructure(doc).map((f) => f.message);

describe("refusedCrdStructure: a CRD's required structure", () => {
  it("a complete CRD has no findings", () => {
    expect(messages(crd({}))).toEqual([]);
  });

  it("spec: {} lacks every field an object is matched by", () => {
    const doc = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "things.example.com" },
      spec: {},
    };
    expect(messages(doc)).toEqual([
      'metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group',
      "spec.group: Required value",
      "spec.scope: Required value",
      "spec.versions: Invalid value: []: must have exactly one version marked as storage version",
      "spec.names.plural: Required value",
      "spec.names.kind: Required value",
    ]);
  });

  it("no version, or two, marked storage: true", () => {
    expect(messages(crd({ versions: [version("v1", false)] }))).toEqual([
      'spec.versions: Invalid value: ["v1"]: must have exactly one version marked as storage version',
    ]);
    expect(messages(crd({ versions: [version("v1", true), version("v2", true)] }))).toEqual([
      'spec.versions: Invalid value: ["v1","v2"]: must have exactly one version marked as storage version',
    ]);
  });

  it("a name other than <plural>.<group>, or none", () => {
    expect(messages(crd({}, "thing.example.com"))).toEqual([
      'metadata.name: Invalid value: "thing.example.com": must be spec.names.plural+"."+spec.group',
    ]);
    expect(messages(crd({}, ""))).toEqual(["metadata.name: Required value: name or generateName is required"]);
  });

  it("a scope other than Cluster or Namespaced", () => {
    expect(messages(crd({ scope: "Global" }))).toEqual([
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ]);
  });

  it("readCrd reads a kustomize patch (a partial CRD) without these findings", () => {
    const patch = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "things.example.com" },
      spec: { conversion: { strategy: "Webhook" } },
    };
    expect(readCrd(patch).findings).toEqual([]);
    expect(messages(patch)).toContain("spec.group: Required value");
  });

  it("v1beta1 defaults the scope and builds versions from spec.version", () => {
    const { scope: _, versions: __, ...rest } = spec;
    const doc = crd({}, "things.example.com", "apiextensions.k8s.io/v1beta1");
    doc.spec = { ...rest, version: "v1", validation: { openAPIV3Schema: { type: "object" } } };
    expect(messages(doc)).toEqual([]);
  });
});
