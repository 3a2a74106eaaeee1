/**
 * Dotted data paths (`spec.a.b`) over JSON objects: parse, get, set, delete, and a copy for writing at given
 * paths, walked along their trie (built once per declared spoke).
 */
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

/**
 * Removes the field at `path`. Its parent is replaced by a copy without it rather than edited with `delete`,
 * which would leave the parent a slow dictionary-mode object for every later read and copy; the parent's
 * parent must then be writable too, as it is wherever the parent is (a copy for writing copies the way down).
 */
export function deleteAt(obj: JsonObject, path: DataPath): void {
  let up: JsonObject | undefined;
  let cur: JsonValue | undefined = obj;
  for (let i = 0; i < path.length - 1; i++) {
    if (!isObject(cur)) return;
    up = cur;
    cur = getKey(cur, path[i] as string);
  }
  const key = path[path.length - 1] as string;
  if (!isObject(cur) || !Object.hasOwn(cur, key)) return;
  if (up === undefined) {
    deleteKey(cur, key);
    return;
  }
  // rest properties are defined, as spread's are: a key __proto__ stays a field
  const { [key]: _removed, ...without } = cur;
  setKey(up, path[path.length - 2] as string, without);
}

/**
 * Paths as a tree of their segments, built once per set of paths: `whole` where a path ends (the value there is
 * copied whole, so whatever is below it in the tree does not matter), and the segments below with their subtrees
 * (`keys[i]` leads to `next[i]`: arrays, walked without an iterator).
 */
export interface WriteTrie {
  whole: boolean;
  keys: string[];
  next: WriteTrie[];
}

export function writeTrie(paths: Iterable<DataPath>): WriteTrie {
  const root: WriteTrie = { whole: false, keys: [], next: [] };
  for (const path of paths) {
    let node = root;
    for (const seg of path) {
      if (node.whole) break;
      const i = node.keys.indexOf(seg);
      if (i >= 0) node = node.next[i] as WriteTrie;
      else {
        const child: WriteTrie = { whole: false, keys: [], next: [] };
        node.keys.push(seg);
        node.next.push(child);
        node = child;
      }
    }
    node.whole = true;
    node.keys = [];
    node.next = [];
  }
  return root;
}

/**
 * A copy of `obj` that setAt and deleteAt at the paths of `trie`, and edits inside the values found there, cannot
 * reach past: the objects on the way to each path are copied one level, the value at each path whole, and the
 * rest is shared with `obj`. A list on the way stops the copy (the helpers stop at one too).
 */
export function copyForWriting(obj: JsonObject, trie: WriteTrie): JsonObject {
  return trie.whole ? clone(obj) : copyBelow(obj, trie);
}

function copyBelow(obj: JsonObject, node: WriteTrie): JsonObject {
  const out = shallowCopy(obj);
  for (let i = 0; i < node.keys.length; i++) {
    const seg = node.keys[i] as string;
    const child = node.next[i] as WriteTrie;
    const v = getKey(out, seg);
    if (v === undefined || v === null || typeof v !== "object") continue;
    if (child.whole) setKey(out, seg, clone(v));
    else if (isObject(v)) setKey(out, seg, copyBelow(v, child));
  }
  return out;
}
