/** Dotted data paths (`spec.a.b`) over JSON objects: parse, get, set, delete, and a copy for writing at given paths. */
import {
  clone,
  deleteKey,
  getKey,
  isObject,
  type JsonObject,
  type JsonValue,
  setKey,
  shallowCopy,
} from "../value/index.js";
import { ConvertError, type DataPath } from "./types.js";

/** `spec.a.b` → ["spec", "a", "b"], or an error message. */
export function parseDataPath(text: string): DataPath | string {
  if (text.trim() === "") return "must be a non-empty path";
  const parts = text.split(".");
  if (parts.some((p) => p === "")) return "must be dotted property names (spec.a.b)";
  const [head, second] = parts;
  if (head === "apiVersion" || head === "kind") return `${head} is set by the conversion itself`;
  if (head === "metadata" && !((second === "labels" || second === "annotations") && parts.length > 2))
    return "only metadata.labels.<key> and metadata.annotations.<key> may be converted";
  return parts;
}

export const showPath = (p: DataPath) => p.join(".");

export function getAt(obj: JsonObject, path: DataPath): JsonValue | undefined {
  let cur: JsonValue | undefined = obj;
  for (const seg of path) {
    if (!isObject(cur)) return undefined;
    cur = getKey(cur, seg);
  }
  return cur;
}

/** The parent object of `path`, created as needed; an error when a non-object is in the way. */
function parentOf(obj: JsonObject, path: DataPath, create: boolean): JsonObject | undefined {
  let cur = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i] as string;
    const next = getKey(cur, seg);
    if (next === undefined || next === null) {
      if (!create) return undefined;
      const fresh: JsonObject = {};
      setKey(cur, seg, fresh);
      cur = fresh;
    } else if (isObject(next)) cur = next;
    else throw new ConvertError(path.slice(0, i + 1), `expected an object, found ${JSON.stringify(next)}`);
  }
  return cur;
}

export function setAt(obj: JsonObject, path: DataPath, value: JsonValue): void {
  const parent = parentOf(obj, path, true) as JsonObject;
  setKey(parent, path[path.length - 1] as string, value);
}

export function deleteAt(obj: JsonObject, path: DataPath): void {
  let cur: JsonValue | undefined = obj;
  for (let i = 0; i < path.length - 1; i++) {
    if (!isObject(cur)) return;
    cur = getKey(cur, path[i] as string);
  }
  if (isObject(cur)) deleteKey(cur, path[path.length - 1] as string);
}

/**
 * A copy of `obj` that setAt and deleteAt at `paths`, and edits inside the values found there, cannot reach
 * past: the objects on the way to each path are copied one level, the value at each path whole, and the rest
 * is shared with `obj`.
 */
export function copyForWriting(obj: JsonObject, paths: Iterable<DataPath>): JsonObject {
  const root = shallowCopy(obj);
  const copied = new Set<JsonValue>([root]); // copied one level: their children may still be shared
  const whole = new Set<JsonValue>(); // copied whole: nothing below is shared
  for (const path of paths) {
    let cur = root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i] as string;
      const next = getKey(cur, seg);
      // nothing to copy: absent, a scalar, or a list (the helpers stop at one), or already whole
      if (next === undefined || next === null || typeof next !== "object" || whole.has(next)) break;
      if (i === path.length - 1) {
        const copy = clone(next);
        setKey(cur, seg, copy);
        whole.add(copy);
      } else if (!isObject(next)) break;
      else if (copied.has(next)) cur = next;
      else {
        const copy = shallowCopy(next);
        setKey(cur, seg, copy);
        copied.add(copy);
        cur = copy;
      }
    }
  }
  return root;
}
