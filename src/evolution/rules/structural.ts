import { type FieldPath, formatPath, schemaProperty } from "../../path/index.js";
import { deepEqual, getKey, hasKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import type { RevisionVersion } from "../revision.js";
import { fieldOf, type RuleDescriptor, type RuleHit } from "../rule.js";
import { maxDepth } from "../walk.js";

/**
 * apiextensions-apiserver's structural-schema rules (pkg/apiserver/schema,
 * validation.go and complete.go), the main ones: every specified field has a
 * type, arrays have items, allOf/anyOf/oneOf/not only restrict values (no
 * type, additionalProperties, default, title, description, nullable or
 * x-kubernetes-* in them) and name only fields the schema itself specifies,
 * and metadata at the root restricts only name and generateName.
 */
export const schemaNotStructural: RuleDescriptor = {
  id: "schema-not-structural",
  severity: "error",
  description:
    "a schema the API server rejects as non-structural (missing type, junctors that define types, metadata beyond name/generateName)",
  state(rev) {
    const out: RuleHit[] = [];
    const v1 = getKey(rev.doc, "apiVersion") === "apiextensions.k8s.io/v1";
    for (const v of rev.versions) {
      if (v.schema) out.push(...structuralProblems(v));
      else if (v1) {
        out.push({
          path: v.path,
          version: v.name,
          field: v.name,
          detail: "no schema.openAPIV3Schema; apiextensions.k8s.io/v1 requires one for every version",
        });
      }
    }
    return out.map((c) => ({ ...c, key: `${c.field}|${c.detail}` }));
  },
};

type Level = "root" | "item" | "field";
const emptyType: Record<Level, string> = {
  root: "must not be empty at the root",
  item: "must not be empty for specified array items",
  field: "must not be empty for specified object fields",
};

interface Structural {
  json: JsonObject;
  path: FieldPath;
  data: FieldPath;
  level: Level;
  depth: number;
}

const intOrStringAnyOf: JsonValue = [{ type: "integer" }, { type: "string" }];

export function structuralProblems(version: RevisionVersion): RuleHit[] {
  const out: RuleHit[] = [];
  const report = (node: Structural, where: FieldPath, detail: string) =>
    out.push({
      path: [...node.path, ...where],
      version: version.name,
      field: fieldOf(version.name, node.data),
      data: node.data,
      detail: where.length > 0 ? `${formatPath(where)}: ${detail}` : detail,
    });
  const stack: Structural[] = [{ json: version.schema!, path: version.schemaPath, data: [], level: "root", depth: 0 }];
  const seen = new Set<JsonObject>();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { json, level } = node;
    if (seen.has(json) || node.depth > maxDepth) continue;
    seen.add(json);
    const type = getKey(json, "type");
    const t = typeof type === "string" ? type : "";
    const intOrString = getKey(json, "x-kubernetes-int-or-string") === true;
    const preserve = getKey(json, "x-kubernetes-preserve-unknown-fields") === true;
    const embedded = getKey(json, "x-kubernetes-embedded-resource") === true;
    const props = getKey(json, "properties");
    const items = getKey(json, "items");
    const extra = getKey(json, "additionalProperties");
    if (t === "array" && !isObject(items)) report(node, ["items"], "must be specified");
    if (embedded && t !== "object") report(node, ["type"], "must be object if x-kubernetes-embedded-resource is true");
    else if (t === "" && !intOrString && !preserve) report(node, ["type"], emptyType[level]);
    if (embedded && extra !== undefined)
      report(node, ["additionalProperties"], "must not be used if x-kubernetes-embedded-resource is set");
    if (level === "root" && t !== "" && t !== "object") report(node, ["type"], "must be object at the root");
    if (level === "root" && extra !== undefined) report(node, ["additionalProperties"], "must not be used at the root");
    if (intOrString && preserve)
      report(node, ["x-kubernetes-preserve-unknown-fields"], "must be false if x-kubernetes-int-or-string is true");
    if (intOrString && embedded)
      report(node, ["x-kubernetes-embedded-resource"], "must be false if x-kubernetes-int-or-string is true");
    if (embedded && !preserve && (!isObject(props) || Object.keys(props).length === 0)) {
      report(
        node,
        ["properties"],
        "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
      );
    }
    if (isObject(props) && (level === "root" || embedded)) metadataProblems(node, props, report);
    junctorProblems(node, report);

    const next = (child: JsonValue | undefined, step: FieldPath, data: FieldPath, lvl: Level) => {
      if (isObject(child))
        stack.push({ json: child, path: [...node.path, ...step], data, level: lvl, depth: node.depth + 1 });
    };
    if (isObject(props))
      for (const k of Object.keys(props)) next(getKey(props, k), schemaProperty(k), [...node.data, k], "field");
    next(items, ["items"], [...node.data, { key: "*" }], "item");
    next(extra, ["additionalProperties"], [...node.data, { key: "*" }], "field");
  }
  return out;
}

type Report = (node: Structural, where: FieldPath, detail: string) => void;

function metadataProblems(node: Structural, props: JsonObject, report: Report): void {
  for (const k of ["kind", "apiVersion"]) {
    const p = getKey(props, k);
    if (isObject(p) && getKey(p, "type") !== "string") report(node, [...schemaProperty(k), "type"], "must be string");
  }
  const meta = getKey(props, "metadata");
  if (!isObject(meta)) return;
  if (getKey(meta, "type") !== "object") report(node, [...schemaProperty("metadata"), "type"], "must be object");
  if (node.level !== "root") return;
  const metaProps = getKey(meta, "properties");
  const others = isObject(metaProps) ? Object.keys(metaProps).filter((k) => k !== "name" && k !== "generateName") : [];
  const keys = Object.keys(meta).filter((k) => k !== "type" && k !== "default" && k !== "properties");
  if (others.length > 0 || keys.length > 0) {
    const what = [...others.map((k) => `properties.${k}`), ...keys].join(", ");
    report(
      node,
      schemaProperty("metadata"),
      `must not specify anything other than name and generateName, but metadata is implicitly specified (${what})`,
    );
  }
}

/** Keywords a branch of allOf/anyOf/oneOf/not must not set, with the API server's words. */
const forbidden: Array<[string, (v: JsonValue) => boolean, string]> = [
  ["type", (v) => v !== "", "must be empty to be structural"],
  ["additionalProperties", () => true, "must be undefined to be structural"],
  ["default", () => true, "must be undefined to be structural"],
  ["title", (v) => v !== "", "must be empty to be structural"],
  ["description", (v) => v !== "", "must be empty to be structural"],
  ["nullable", (v) => v === true, "must be false to be structural"],
  ["externalDocs", () => true, "must be undefined to be structural"],
  ["x-kubernetes-preserve-unknown-fields", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-embedded-resource", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-int-or-string", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-list-map-keys", (v) => !Array.isArray(v) || v.length > 0, "must be empty to be structural"],
  ["x-kubernetes-list-type", () => true, "must be undefined to be structural"],
  ["x-kubernetes-map-type", () => true, "must be undefined to be structural"],
  ["x-kubernetes-validations", (v) => !Array.isArray(v) || v.length > 0, "must be empty to be structural"],
];

interface Branch {
  json: JsonObject;
  /** The structural node it restricts (completeness: it may name only what that node specifies). */
  counterpart: JsonObject | undefined;
  where: FieldPath;
  depth: number;
}

function junctorProblems(node: Structural, report: Report): void {
  const stack: Branch[] = [];
  const branches = (
    owner: JsonObject,
    counterpart: JsonObject | undefined,
    where: FieldPath,
    depth: number,
    top: boolean,
  ) => {
    const anyOf = getKey(owner, "anyOf");
    const allOf = getKey(owner, "allOf");
    // The two int-or-string spellings: anyOf [integer, string], alone or first in allOf.
    const skipAnyOf = top && deepEqual(anyOf, intOrStringAnyOf);
    for (const kw of ["allOf", "anyOf", "oneOf"] as const) {
      const list = getKey(owner, kw);
      if (!Array.isArray(list) || (kw === "anyOf" && skipAnyOf)) continue;
      list.forEach((b, i) => {
        if (!isObject(b)) return;
        const skipFirst =
          top && kw === "allOf" && i === 0 && Array.isArray(allOf) && deepEqual(getKey(b, "anyOf"), intOrStringAnyOf);
        const json = skipFirst ? withoutKey(b, "anyOf") : b;
        stack.push({ json, counterpart, where: [...where, kw, i], depth });
      });
    }
    const not = getKey(owner, "not");
    if (isObject(not)) stack.push({ json: not, counterpart, where: [...where, "not"], depth });
  };
  branches(node.json, node.json, [], 0, true);
  while (stack.length > 0) {
    const b = stack.pop()!;
    if (b.depth > maxDepth) continue;
    for (const [kw, bad, detail] of forbidden) {
      const v = getKey(b.json, kw);
      if (v !== undefined && bad(v)) report(node, [...b.where, kw], detail);
    }
    const props = getKey(b.json, "properties");
    if (isObject(props)) {
      const own = b.counterpart ? getKey(b.counterpart, "properties") : undefined;
      for (const k of Object.keys(props)) {
        const p = getKey(props, k);
        if (!isObject(p)) continue;
        if (k === "metadata")
          report(node, [...b.where, ...schemaProperty(k)], "must not be specified in a nested context");
        const counterpart = isObject(own) && hasKey(own, k) ? getKey(own, k) : undefined;
        if (!isObject(counterpart)) {
          report(
            node,
            [...b.where, ...schemaProperty(k)],
            "must be specified in the structural part of the schema too",
          );
        }
        stack.push({
          json: p,
          counterpart: isObject(counterpart) ? counterpart : undefined,
          where: [...b.where, ...schemaProperty(k)],
          depth: b.depth + 1,
        });
      }
    }
    const items = getKey(b.json, "items");
    if (isObject(items)) {
      const own = b.counterpart ? getKey(b.counterpart, "items") : undefined;
      if (!isObject(own))
        report(node, [...b.where, "items"], "must be specified in the structural part of the schema too");
      stack.push({
        json: items,
        counterpart: isObject(own) ? own : undefined,
        where: [...b.where, "items"],
        depth: b.depth + 1,
      });
    }
    branches(b.json, b.counterpart, b.where, b.depth + 1, false);
  }
}

function withoutKey(json: JsonObject, key: string): JsonObject {
  const out: JsonObject = Object.create(null);
  for (const k of Object.keys(json)) if (k !== key) out[k] = json[k]!;
  return out;
}
