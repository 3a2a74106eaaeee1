/**
 * CEL types for the checker and for typed values: the declared type of `self`
 * built from an openAPIV3Schema node the way apiextensions' `SchemaDeclType`
 * does (integer → int, number → double, date/date-time → timestamp, duration,
 * byte → bytes, int-or-string → dyn, objects with properties → object types
 * with escaped field names, additionalProperties → map, items → list).
 */
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { escapeName } from "./escape.js";

export type ScalarKind =
  | "int"
  | "uint"
  | "double"
  | "bool"
  | "string"
  | "bytes"
  | "null"
  | "duration"
  | "timestamp"
  | "dyn"
  | "error";

export interface ObjectField {
  /** The property name in the JSON object. */
  raw: string;
  type: CelT;
}

export type ListKind = "atomic" | "set" | "map";

export type CelT =
  | { k: ScalarKind }
  | { k: "type"; of?: CelT }
  | { k: "list"; elem: CelT; listType?: ListKind; mapKeys?: readonly string[] }
  | { k: "map"; key: CelT; val: CelT }
  | { k: "object"; name: string; fields: ReadonlyMap<string, ObjectField>; embedded?: boolean }
  | { k: "opaque"; name: string; params: readonly CelT[] }
  | { k: "var"; name: string };

const scalars = new Map<ScalarKind, CelT>();
export function scalar(k: ScalarKind): CelT {
  let t = scalars.get(k);
  if (t === undefined) {
    t = { k };
    scalars.set(k, t);
  }
  return t;
}
export const INT = scalar("int");
export const UINT = scalar("uint");
export const DOUBLE = scalar("double");
export const BOOL = scalar("bool");
export const STRING = scalar("string");
export const BYTES = scalar("bytes");
export const NULL = scalar("null");
export const DURATION = scalar("duration");
export const TIMESTAMP = scalar("timestamp");
export const DYN = scalar("dyn");
export const ERROR = scalar("error");
export const listOf = (elem: CelT): CelT => ({ k: "list", elem });
export const mapOf = (key: CelT, val: CelT): CelT => ({ k: "map", key, val });
export const opaque = (name: string, ...params: CelT[]): CelT => ({ k: "opaque", name, params });
export const optionalOf = (t: CelT): CelT => opaque("optional_type", t);
export const typeOf = (of?: CelT): CelT => (of === undefined ? { k: "type" } : { k: "type", of });

/** cel-go's rendering of a type in messages. */
export function typeName(t: CelT): string {
  switch (t.k) {
    case "null":
      return "null_type";
    case "duration":
      return "google.protobuf.Duration";
    case "timestamp":
      return "google.protobuf.Timestamp";
    case "type":
      return t.of === undefined ? "type" : `type(${typeName(t.of)})`;
    case "list":
      return `list(${typeName(t.elem)})`;
    case "map":
      return `map(${typeName(t.key)}, ${typeName(t.val)})`;
    case "object":
      return t.name;
    case "opaque":
      return t.params.length === 0 ? t.name : `${t.name}(${t.params.map(typeName).join(", ")})`;
    case "var":
      return t.name;
    default:
      return t.k;
  }
}

/**
 * A key identifying a type structurally (for caching compiled programs by rule text and type).
 * Object field order does not matter; identical subtrees share their key through a WeakMap.
 */
const keyCache = new WeakMap<object, string>();
export function typeKey(t: CelT): string {
  const cached = keyCache.get(t);
  if (cached !== undefined) return cached;
  let key: string;
  switch (t.k) {
    case "list":
      key = `list<${typeKey(t.elem)}|${t.listType ?? "atomic"}|${(t.mapKeys ?? []).join(",")}>`;
      break;
    case "map":
      key = `map<${typeKey(t.key)},${typeKey(t.val)}>`;
      break;
    case "object": {
      const parts = [...t.fields.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([n, f]) => `${JSON.stringify(n)}=${JSON.stringify(f.raw)}:${typeKey(f.type)}`);
      key = `obj{${parts.join(";")}}`;
      break;
    }
    case "type":
      key = t.of === undefined ? "type" : `type<${typeKey(t.of)}>`;
      break;
    case "opaque":
      key = `${t.name}<${t.params.map(typeKey).join(",")}>`;
      break;
    case "var":
      key = `'${t.name}`;
      break;
    default:
      key = t.k;
  }
  keyCache.set(t, key);
  return key;
}

const schemaTypeCache = new WeakMap<JsonObject, { root: CelT | undefined; plain: CelT | undefined }>();

/**
 * `SchemaDeclType` of apiextensions: the CEL type of values validated by `node`.
 * `resourceRoot` adds `apiVersion`, `kind` and `metadata.name`/`generateName`
 * (the root of a custom resource, and embedded resources).
 * Undefined when the node has no CEL type (no `type` and not int-or-string).
 */
export function schemaType(node: JsonObject, resourceRoot = false): CelT | undefined {
  let entry = schemaTypeCache.get(node);
  if (entry === undefined) {
    entry = { root: undefined, plain: undefined };
    schemaTypeCache.set(node, entry);
    const e = entry;
    e.plain = build(node, false);
    e.root = isEmbedded(node) ? e.plain : build(node, true);
  }
  return resourceRoot ? entry.root : entry.plain;
}

function isEmbedded(node: JsonObject): boolean {
  return getKey(node, "x-kubernetes-embedded-resource") === true;
}

function child(v: JsonValue | undefined): CelT | undefined {
  if (!isObject(v)) return undefined;
  return schemaType(v, isEmbedded(v));
}

function build(node: JsonObject, resourceRoot: boolean): CelT | undefined {
  if (getKey(node, "x-kubernetes-int-or-string") === true) return DYN;
  const type = getKey(node, "type");
  switch (type) {
    case "array": {
      const items = getKey(node, "items");
      const elem = child(items);
      if (elem === undefined) return undefined;
      const lt = getKey(node, "x-kubernetes-list-type");
      const keys = getKey(node, "x-kubernetes-list-map-keys");
      const out: CelT = {
        k: "list",
        elem,
        listType: lt === "set" ? "set" : lt === "map" ? "map" : "atomic",
        mapKeys: Array.isArray(keys) ? keys.filter((x): x is string => typeof x === "string") : undefined,
      };
      return out;
    }
    case "object": {
      const ap = getKey(node, "additionalProperties");
      if (isObject(ap)) {
        const val = child(ap);
        if (val !== undefined) return mapOf(STRING, val);
        return undefined;
      }
      const fields = new Map<string, ObjectField>();
      const props = getKey(node, "properties");
      if (isObject(props)) {
        for (const raw of Object.keys(props)) {
          const t = child(getKey(props, raw));
          const name = escapeName(raw);
          if (t !== undefined && name !== undefined) fields.set(name, { raw, type: t });
        }
      }
      if (resourceRoot || isEmbedded(node)) addTypeAndObjectMeta(fields);
      return { k: "object", name: "object", fields, embedded: resourceRoot || isEmbedded(node) };
    }
    case "string":
      switch (getKey(node, "format")) {
        case "byte":
          return BYTES;
        case "duration":
          return DURATION;
        case "date":
        case "date-time":
          return TIMESTAMP;
        default:
          return STRING;
      }
    case "boolean":
      return BOOL;
    case "number":
      return DOUBLE;
    case "integer":
      return INT;
    default:
      return undefined;
  }
}

/** `WithTypeAndObjectMeta`: apiVersion, kind, metadata.name and metadata.generateName are always accessible. */
function addTypeAndObjectMeta(fields: Map<string, ObjectField>): void {
  const meta0 = fields.get("metadata")?.type;
  if (
    fields.get("apiVersion")?.type === STRING &&
    fields.get("kind")?.type === STRING &&
    meta0?.k === "object" &&
    meta0.fields.get("name")?.type === STRING &&
    meta0.fields.get("generateName")?.type === STRING
  )
    return;
  fields.set("apiVersion", { raw: "apiVersion", type: STRING });
  fields.set("kind", { raw: "kind", type: STRING });
  const meta = new Map<string, ObjectField>([
    ["name", { raw: "name", type: STRING }],
    ["generateName", { raw: "generateName", type: STRING }],
  ]);
  fields.set("metadata", { raw: "metadata", type: { k: "object", name: "object", fields: meta } });
}

/** The OpenAPI `type` the API server prints as the bad value of a failed rule (`sts.Type`). */
export function schemaTypeName(node: JsonObject): string {
  const t = getKey(node, "type");
  return typeof t === "string" ? t : "";
}
