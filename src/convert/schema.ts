/** A version's openAPIV3Schema as far as conversion needs it: pruning unknown fields, and whether a path exists. */
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import type { DataPath } from "./types.js";

const ROOT_META = new Set(["apiVersion", "kind", "metadata"]);

/** Removes (in place) fields the schema does not know, as the API server prunes them. */
export function prune(obj: JsonObject, schema: JsonObject): void {
  pruneNode(obj, schema, true);
}

function pruneNode(v: JsonValue, s: JsonObject, root: boolean): void {
  if (Array.isArray(v)) {
    const items = getKey(s, "items");
    if (isObject(items)) for (const x of v) pruneNode(x, items, false);
    return;
  }
  if (!isObject(v)) return;
  const props = getKey(s, "properties");
  const extra = getKey(s, "additionalProperties");
  const preserve = getKey(s, "x-kubernetes-preserve-unknown-fields") === true;
  const embedded = getKey(s, "x-kubernetes-embedded-resource") === true;
  for (const k of Object.keys(v)) {
    if ((root || embedded) && ROOT_META.has(k)) continue;
    const child = isObject(props) ? getKey(props, k) : undefined;
    if (isObject(child)) pruneNode(v[k] as JsonValue, child, false);
    else if (isObject(extra)) pruneNode(v[k] as JsonValue, extra, false);
    else if (extra === true || preserve) continue;
    else delete v[k];
  }
}

/** Whether the schema has a place for `path` (anything goes below maps and preserved objects). */
export function schemaHasPath(schema: JsonObject, path: DataPath): boolean {
  let s: JsonObject = schema;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] as string;
    if (i === 0 && seg === "metadata") return true;
    while (isObject(getKey(s, "items"))) s = getKey(s, "items") as JsonObject;
    const props = getKey(s, "properties");
    const child = isObject(props) ? getKey(props, seg) : undefined;
    if (isObject(child)) {
      s = child;
      continue;
    }
    const extra = getKey(s, "additionalProperties");
    if (isObject(extra)) {
      s = extra;
      continue;
    }
    return extra === true || getKey(s, "x-kubernetes-preserve-unknown-fields") === true;
  }
  return true;
}
