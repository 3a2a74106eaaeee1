import { isCrd, readCrd } from "../crd/index.js";
import type { FieldPath } from "../path/index.js";
import type { SchemaNode } from "../schema/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";

/** One version of a CRD revision, with where it sits in the document. */
export interface RevisionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** The version's entry in the document (`spec.versions[2]`, or `spec` for v1beta1's single `spec.version`). */
  path: FieldPath;
  schema: JsonObject | undefined;
  schemaPath: FieldPath;
  /** The union model of the schema. */
  node: SchemaNode | undefined;
}

/** One revision of a CRD, as the evolution rules read it. */
export interface Revision {
  doc: JsonObject;
  spec: JsonObject;
  name: string;
  group: string;
  plural: string;
  kind: string;
  scope: string;
  versions: RevisionVersion[];
  /** `status.storedVersions`: every version objects may still be stored in. */
  storedVersions: string[];
  conversion: JsonObject | undefined;
  /** `spec.conversion.strategy` is Webhook. */
  webhook: boolean;
}

const str = (v: JsonValue | undefined) => (typeof v === "string" ? v : "");
const obj = (v: JsonValue | undefined) => (isObject(v) ? v : undefined);

/** A revision, or why it cannot be compared. */
export function readRevision(value: JsonValue): Revision | string {
  if (!isCrd(value)) return "not a CustomResourceDefinition (apiextensions.k8s.io)";
  const { crd } = readCrd(value);
  const spec = obj(getKey(value, "spec")) ?? {};
  const names = obj(getKey(spec, "names")) ?? {};
  // readCrd keeps the object entries of spec.versions in order; their indexes locate them in the document.
  const raw = getKey(spec, "versions");
  const indexes: number[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((v, i) => {
      if (isObject(v)) indexes.push(i);
    });
  }
  const versions = crd.versions.map((v, k): RevisionVersion => {
    const i = indexes[k];
    return {
      name: v.name,
      served: v.served,
      storage: v.storage,
      path: i === undefined ? ["spec"] : ["spec", "versions", i],
      schema: v.openAPIV3Schema,
      schemaPath: v.schemaPath,
      node: v.schema,
    };
  });
  if (versions.length === 0) return "a CustomResourceDefinition without versions";
  const status = obj(getKey(value, "status"));
  const stored = status ? getKey(status, "storedVersions") : undefined;
  const conversion = obj(getKey(spec, "conversion"));
  return {
    doc: value,
    spec,
    name: crd.name,
    group: str(getKey(spec, "group")),
    plural: str(getKey(names, "plural")),
    kind: str(getKey(names, "kind")),
    scope: str(getKey(spec, "scope")),
    versions,
    storedVersions: Array.isArray(stored) ? stored.filter((s): s is string => typeof s === "string") : [],
    conversion,
    webhook: conversion !== undefined && getKey(conversion, "strategy") === "Webhook",
  };
}

/** The first version of that name. */
export function versionNamed(rev: Revision, name: string): RevisionVersion | undefined {
  return rev.versions.find((v) => v.name === name);
}

const versionRe = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes version priority (apimachinery's CompareKubeAwareVersionStrings):
 * GA before beta before alpha, higher numbers first, other names last in
 * alphabetical order. Negative when `a` has the higher priority.
 */
export function compareVersionPriority(a: string, b: string): number {
  const ma = versionRe.exec(a);
  const mb = versionRe.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const level = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === "beta" ? 1 : 0);
  return level(mb) - level(ma) || Number(mb[1]) - Number(ma[1]) || Number(mb[3] ?? 0) - Number(ma[3] ?? 0) || 0;
}
