/**
 * The `kunion.dev/conversion-data` annotation: what a conversion step could not carry, so that converting back
 * restores it. Its value is JSON of only the lost fields:
 *
 *   {"apiVersion": "<version the fields belong to>",
 *    "lost": [{"path": ["spec", "schedule"], "value": "@hourly", "converted": "0 * * * *"}, …],
 *    "previous": "<an earlier step's annotation for another version>"}
 *
 * `value` is the original's value (missing: the original had no such field), `converted` is what converting the
 * annotated object back gives at that path when nobody changed it (missing: nothing). A field is restored only
 * when the conversion back still gives `converted` there: a user's later change to that field wins over the
 * stale original. Only a conversion back to `apiVersion` uses the annotation; `previous` (v1 → hub → v2) is put
 * back when it is used.
 */
import { deepEqual, getKey, isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { deleteAt, getAt, setAt, type WriteTrie } from "./paths.js";

export const ANNOTATION = "kunion.dev/conversion-data";
/** The API server's limit on the total size of an object's annotations. */
export const ANNOTATIONS_LIMIT = 256 * 1024;

export interface LostField {
  path: string[];
  value?: JsonValue;
  converted?: JsonValue;
}

/**
 * What `original` has that `back` (the round trip of the step) does not give again, field by field. With
 * `onlyAt`, the caller knows the two differ at most at those paths: only they are compared.
 */
export function lostFields(original: JsonObject, back: JsonObject, onlyAt?: WriteTrie): LostField[] {
  const out: LostField[] = [];
  if (onlyAt === undefined) walk(original, back, true, [], out);
  else walkAlong(original, back, onlyAt, true, [], out);
  return out;
}

// apiVersion and kind are the conversion's own; metadata is checked apart
const ignoredAtTop = (k: string) => k === "apiVersion" || k === "kind" || k === "metadata";

/** Compares `a` and `b` at `at` (the path of the objects compared, copied only into the entries that need it). */
function walk(a: JsonObject, b: JsonObject, top: boolean, at: string[], out: LostField[]): void {
  for (const k of Object.keys(a)) {
    if (top && ignoredAtTop(k)) continue;
    const x = a[k] as JsonValue;
    const y = getKey(b, k);
    if (x === y) continue;
    if (isObject(x) && isObject(y)) {
      at.push(k);
      walk(x, y, false, at, out);
      at.pop();
    } else if (y === undefined || !deepEqual(x, y)) out.push(entry(at, k, x, y));
  }
  for (const k of Object.keys(b))
    if (!(top && ignoredAtTop(k)) && !Object.hasOwn(a, k)) out.push(entry(at, k, undefined, b[k] as JsonValue));
}

/** `walk`, along the paths of `node` only (whole below the end of each). */
function walkAlong(a: JsonObject, b: JsonObject, node: WriteTrie, top: boolean, at: string[], out: LostField[]): void {
  for (let i = 0; i < node.keys.length; i++) {
    const k = node.keys[i] as string;
    if (top && ignoredAtTop(k)) continue;
    const x = getKey(a, k);
    const y = getKey(b, k);
    if (x === y) continue;
    const child = node.next[i] as WriteTrie;
    if (isObject(x) && isObject(y)) {
      at.push(k);
      if (child.whole) walk(x, y, false, at, out);
      else walkAlong(x, y, child, false, at, out);
      at.pop();
    } else if (x === undefined || y === undefined || !deepEqual(x, y)) out.push(entry(at, k, x, y));
  }
}

function entry(at: readonly string[], k: string, value: JsonValue | undefined, converted: JsonValue | undefined) {
  const e: LostField = { path: [...at, k] };
  if (value !== undefined) e.value = value;
  if (converted !== undefined) e.converted = converted;
  return e;
}

/** Puts lost fields back into `obj` where the conversion still gives what it gave when they were recorded. */
export function restore(obj: JsonObject, lost: readonly LostField[]): void {
  for (const e of lost) {
    if (!deepEqual(getAt(obj, e.path), e.converted)) continue;
    if (e.value === undefined) deleteAt(obj, e.path);
    else setAt(obj, e.path, e.value);
  }
}

/**
 * The annotation's text. `keepEmpty`: the object had an empty annotations map
 * before this one was added, so the way back keeps it rather than removing it.
 * Keys are written in sorted order, so equal contents give equal annotations
 * whatever the order fields were written in.
 */
export function encode(apiVersion: string, lost: readonly LostField[], previous?: string, keepEmpty = false): string {
  const byPath = lost
    .map((f) => ({ key: JSON.stringify(f.path), f }))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map(({ f }) => {
      const e: JsonObject = {};
      if (f.converted !== undefined) e.converted = sorted(f.converted);
      e.path = f.path as string[];
      if (f.value !== undefined) e.value = sorted(f.value);
      return e;
    });
  const out: JsonObject = { apiVersion };
  if (keepEmpty) out.keepEmpty = true;
  out.lost = byPath;
  if (previous !== undefined) out.previous = previous;
  return JSON.stringify(out);
}

/** `v` with the keys of its objects sorted (itself when it holds no object). */
function sorted(v: JsonValue): JsonValue {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(sorted);
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) setKey(out, k, sorted(v[k] as JsonValue));
  return out;
}

export function decode(
  text: string,
): { apiVersion: string; lost: LostField[]; previous?: string; keepEmpty: boolean } | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `annotation ${ANNOTATION} is not JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (!isObject(v) || typeof getKey(v, "apiVersion") !== "string")
    return `annotation ${ANNOTATION} is not an object with an apiVersion`;
  const lost = getKey(v, "lost");
  const ok = (e: JsonValue) => {
    if (!isObject(e)) return false;
    const p = getKey(e, "path");
    return Array.isArray(p) && p.length > 0 && p.every((s) => typeof s === "string");
  };
  if (!Array.isArray(lost) || !lost.every(ok)) return `annotation ${ANNOTATION}: lost must be a list of {path, value}`;
  const previous = getKey(v, "previous");
  if (previous !== undefined && typeof previous !== "string")
    return `annotation ${ANNOTATION}: previous must be a string`;
  const fields = lost.map((e) => {
    const o = e as JsonObject;
    const f: LostField = { path: getKey(o, "path") as string[] };
    if (getKey(o, "value") !== undefined) f.value = getKey(o, "value") as JsonValue;
    if (getKey(o, "converted") !== undefined) f.converted = getKey(o, "converted") as JsonValue;
    return f;
  });
  const out = {
    apiVersion: getKey(v, "apiVersion") as string,
    lost: fields,
    keepEmpty: getKey(v, "keepEmpty") === true,
  };
  return previous === undefined ? out : { ...out, previous };
}

/** Total bytes of an object's annotations (keys and values, UTF-8). */
export function annotationBytes(annotations: JsonObject): number {
  let n = 0;
  for (const k of Object.keys(annotations)) {
    const v = annotations[k];
    n += utf8Length(k) + (typeof v === "string" ? utf8Length(v) : 0);
  }
  return n;
}

/** The UTF-8 length of a string, counted without encoding it (a lone surrogate is 3 bytes, as U+FFFD). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 4 bytes for 2 code units
      i++;
    } else n += 2;
  }
  return n;
}
