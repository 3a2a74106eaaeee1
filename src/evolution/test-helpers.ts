/** Compact CRD fixtures for the evolution tests: a CRD is its versions, each version its `spec` schema. */
import type { JsonObject, JsonValue } from "../value/index.js";
import { type CrdChangeFinding, type DiffOptions, diffCrds } from "./index.js";

export interface VersionSpec {
  name: string;
  served?: boolean;
  storage?: boolean;
  /** The schema of `spec`. */
  spec?: JsonObject;
  /** The whole openAPIV3Schema, when `spec` is not enough. */
  schema?: JsonObject;
}

export interface CrdSpec {
  group?: string;
  kind?: string;
  plural?: string;
  scope?: string;
  conversion?: JsonObject;
  storedVersions?: string[];
  preserveUnknownFields?: boolean;
}

export const str = (extra: JsonObject = {}): JsonObject => ({ type: "string", ...extra });
export const int = (extra: JsonObject = {}): JsonObject => ({ type: "integer", ...extra });
export const obj = (properties: JsonObject = {}, extra: JsonObject = {}): JsonObject => ({
  type: "object",
  properties,
  ...extra,
});
export const list = (items: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: "array", items, ...extra });

export function root(spec: JsonObject): JsonObject {
  return obj({ apiVersion: str(), kind: str(), metadata: { type: "object" }, spec });
}

/** A CRD; the first version is the storage version unless one says otherwise. */
export function crd(versions: VersionSpec[], more: CrdSpec = {}): JsonObject {
  const group = more.group ?? "example.com";
  const plural = more.plural ?? "widgets";
  const anyStorage = versions.some((v) => v.storage !== undefined);
  const spec: JsonObject = {
    group,
    names: { kind: more.kind ?? "Widget", plural, singular: "widget", listKind: `${more.kind ?? "Widget"}List` },
    scope: more.scope ?? "Namespaced",
    versions: versions.map((v, i) => ({
      name: v.name,
      served: v.served ?? true,
      storage: anyStorage ? (v.storage ?? false) : i === 0,
      schema: { openAPIV3Schema: v.schema ?? root(v.spec ?? obj()) },
    })),
  };
  if (more.conversion) spec.conversion = more.conversion;
  if (more.preserveUnknownFields !== undefined) spec.preserveUnknownFields = more.preserveUnknownFields;
  const doc: JsonObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec,
  };
  if (more.storedVersions) doc.status = { storedVersions: more.storedVersions };
  return doc;
}

/** A one-version CRD (`v1`) with this `spec` schema. */
export const v1 = (spec: JsonObject, more: CrdSpec = {}) => crd([{ name: "v1", spec }], more);

export function diff(a: JsonValue, b: JsonValue, options?: DiffOptions): CrdChangeFinding[] {
  return diffCrds(a, b, options);
}

/** `rule field` of each finding: compact and order-preserving. */
export const brief = (findings: readonly CrdChangeFinding[]) => findings.map((f) => `${f.rule} ${f.field}`);
export const rules = (findings: readonly CrdChangeFinding[]) => findings.map((f) => f.rule);
export const webhook = (extra: JsonObject = {}): JsonObject => ({
  strategy: "Webhook",
  webhook: {
    clientConfig: { service: { name: "conv", namespace: "system" } },
    conversionReviewVersions: ["v1"],
    ...extra,
  },
});
