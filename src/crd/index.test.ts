/**
 * refusedCrdStructure: what the API server refuses in a CRD created whole (readCrd reads partial CRDs, kustomize
 * patches, without these findings): apimachinery ValidateObjectMeta's `name or generateName is required`, then
 * the CRD validation (validation.ts, tested in validation.test.ts), in the API server's words
 * (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go). The routes refuse an inline CRD
 * with the first.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../value/index.js";
import { readCrd, refusedCrdStructure } from "./index.js";
import { validateCustomResourceDefinition } from "./validation.js";

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
const messages = (doc: JsonObject) => refusedCrdStructure(doc, 36).map((f) => f.message);

describe("refusedCrdStructure: a CRD's required structure", () => {
  it("a complete CRD has no findings", () => {
    expect(messages(crd({}))).toEqual([]);
  });

  it("spec: {}: the CRD validation's findings (validation.test.ts lists them), for a named CRD", () => {
    const doc = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "things.example.com" },
      spec: {},
    } as JsonObject;
    const found = messages(doc);
    expect(found).toEqual(validateCustomResourceDefinition(doc, 36).map((f) => f.message));
    expect(found).toContain(
      'metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group',
    );
    expect(found).toContain("spec.group: Required value");
  });

  it("no version, or two, marked storage: true", () => {
    expect(messages(crd({ versions: [version("v1", false)] }))).toEqual([
      'spec.versions: Invalid value: ["v1"]: must have exactly one version marked as storage version',
      "status.storedVersions: Invalid value: []: must have at least one stored version",
    ]);
    expect(messages(crd({ versions: [version("v1", true), version("v2", true)] }))).toEqual([
      'spec.versions: Invalid value: ["v1","v2"]: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
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

  it("the rest of the CRD validation: names, versions, columns, conversion…", () => {
    expect(messages(crd({ names: { kind: "Thing", plural: "things", listKind: "Thing" } }))).toEqual([
      'spec.names.listKind: Invalid value: "Thing": kind and listKind may not be the same',
    ]);
    expect(messages(crd({ conversion: { strategy: "Webhook" } }))[0]).toBe(
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
    );
  });

  it("v1beta1 defaults the scope, builds versions from spec.version, and has none of v1's own rules", () => {
    const { scope: _, versions: __, ...rest } = spec;
    const doc = crd({}, "things.example.com", "apiextensions.k8s.io/v1beta1");
    doc.spec = { ...rest, version: "v1", validation: { openAPIV3Schema: { type: "object" } } };
    expect(messages(doc)).toEqual([]);
    // preserveUnknownFields defaults to true there, and a webhook's review versions to [v1beta1]
    doc.spec = {
      ...rest,
      version: "v1",
      conversion: { strategy: "Webhook", webhookClientConfig: { url: "https://conv.example.com" } },
      preserveUnknownFields: false,
      validation: { openAPIV3Schema: { type: "object" } },
      additionalPrinterColumns: [{ name: "A", type: "time", JSONPath: ".a" }],
    };
    expect(messages(doc)).toEqual([
      'spec.additionalPrinterColumns[0].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
    ]);
    // the top level and the versions may not both have a schema
    doc.spec = {
      ...rest,
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
      validation: { openAPIV3Schema: { type: "object" } },
    };
    expect(messages(doc)).toEqual([
      "spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive",
      'spec.versions: Invalid value: ["v1"]: per-version schemas may not all be set to identical values (top-level validation should be used instead)',
    ]);
  });
});
