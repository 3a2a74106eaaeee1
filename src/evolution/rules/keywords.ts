import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";

/** The type a schema node accepts: its `type`, `int-or-string`, or `""` when unspecified. */
export function typeOf(json: JsonObject): string {
  if (getKey(json, "x-kubernetes-int-or-string") === true) return "int-or-string";
  const t = getKey(json, "type");
  return typeof t === "string" ? t : "";
}

export const typeName = (t: string) => (t === "" ? "unspecified" : t);

/** A property's schema, own keys only. */
export function propertySchema(json: JsonObject, name: string): JsonObject | undefined {
  const props = getKey(json, "properties");
  const p = isObject(props) ? getKey(props, name) : undefined;
  return isObject(p) ? p : undefined;
}

export function stringList(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

export function numberOf(json: JsonObject, key: string): number | undefined {
  const v = getKey(json, key);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** A keyword's value as the node has it (absent: undefined). */
export const readKeyword =
  (name: string) =>
  (json: JsonObject): JsonValue | undefined =>
    getKey(json, name);
