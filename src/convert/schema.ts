/** A version's openAPIV3Schema as far as conversion needs it: pruning unknown fields, and whether a path exists. */
import { getKey, isObject, type JsonObject, type JsonValue, setKey, shallowCopy } from "../value/index.js";
import type { DataPath } from "./types.js";

const ROOT_META = new Set(["apiVersion", "kind", "metadata"]);

/**
 * `obj` without the fields the schema does not know, as the API server prunes them. `obj` is left as it is:
 * the objects that lose a field are copied (and those on the way to them), the rest is shared.
 */
export function prune(obj: JsonObject, schema: JsonObject): JsonObject {
  return pruneNode(obj, schema, true) as JsonObject;
}

function pruneNode(v: JsonValue, s: JsonObject, root: boolean): JsonValue {
  if (Array.isArray(v)) {
    const items = getKey(s, "items");
    if (!isObject(items)) return v;
    let out: JsonValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as JsonValue;
      const y = pruneNode(x, items, false);
      if (y === x) continue;
      out ??= v.slice();
      out[i] = y;
    }
    return out ?? v;
  }
  if (!isObject(v)) return v;
  const props = getKey(s, "properties");
  const extra = getKey(s, "additionalProperties");
  const preserve = getKey(s, "x-kubernetes-preserve-unknown-fields") === true;
  const embedded = getKey(s, "x-kubernetes-embedded-resource") === true;
  let out: JsonObject | undefined;
  for (const k of Object.keys(v)) {
    if ((root || embedded) && ROOT_META.has(k)) continue;
    const x = v[k] as JsonValue;
    const child = isObject(props) ? getKey(props, k) : undefined;
    if (isObject(child) || isObject(extra)) {
      const y = pruneNode(x, (isObject(child) ? child : extra) as JsonObject, false);
      if (y === x) continue;
      out ??= shallowCopy(v);
      setKey(out, k, y);
    } else if (extra !== true && !preserve) {
      out ??= shallowCopy(v);
      delete out[k];
    }
  }
  return out ?? v;
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
