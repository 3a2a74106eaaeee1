/**
 * The conversion webhook (conversion.md §3): a `ConversionReview` of
 * apiextensions.k8s.io/v1 or v1beta1 in, the response the API server expects out.
 * The converters are given as a parameter (`Converters`), so this module does not
 * depend on how conversions are declared or compiled. Pure and total: inputs are
 * never mutated (each converter gets a copy, unless it promises to leave its input
 * alone), nothing from the request is executed, and every outcome is an answer, never
 * an exception.
 */
import { splitApiVersion } from "../names/index.js";
import { type FieldPath, formatPath } from "../path/index.js";
import { clone, deepEqual, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";

/**
 * Converts one object to `toApiVersion` (the review's `desiredAPIVersion`, `group/version`).
 * Returns the converted object, or an error naming the path that could not be converted.
 */
export type ConvertFn = (object: JsonObject, toApiVersion: string) => { object?: JsonObject; error?: string };

/** A group/kind's converter. */
export interface Converter {
  convert: ConvertFn;
  /** Version names (`v1`, `v2beta1`), the hub included, without the group. */
  versions: string[];
  /**
   * The converter never changes its argument (kunion's engine, property-tested in src/convert): it is
   * given the request's object, not a copy. Its result may share with it what it did not convert; the
   * handler only reads and answers results.
   */
  leavesInputAlone?: boolean;
}

export interface Converters {
  /** The converter for a group/kind, or undefined when none is deployed. */
  forKind(group: string, kind: string): Converter | undefined;
}

/** An HTTP status and the JSON body to send. */
export interface ReviewAnswer {
  status: 200 | 400;
  body: JsonValue;
}

/** The most objects one review may carry; more is answered with HTTP 400. */
export const maxReviewObjects = 100_000;

const reviewApiVersions = new Set(["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"]);

/** Metadata fields a converter may change (the API server keeps the rest of the original's). */
const mutableMetadata = new Set(["labels", "annotations"]);

/** A malformed review: answered with HTTP 400 and `{error, field}`. */
class Malformed {
  readonly field: FieldPath;
  readonly error: string;
  constructor(field: FieldPath, error: string) {
    this.field = field;
    this.error = error;
  }
}

interface GroupVersion {
  group: string;
  version: string;
}

/** One object of the request, checked. */
interface Item {
  object: JsonObject;
  apiVersion: string;
  gv: GroupVersion;
  kind: string;
  /** The original metadata, or undefined when the object has none. */
  metadata: JsonObject | undefined;
}

/**
 * A ConversionReview request (apiextensions.k8s.io/v1 or v1beta1) in, the response the
 * API server expects out. Pure; never throws.
 *
 * - A well-formed review is answered with HTTP 200: `result.status` is `Success` with every
 *   object converted (same order and count), or `Failure` with a message naming the first
 *   object that failed and why, and no objects (all or nothing).
 * - A malformed review is answered with HTTP 400 and `{error, field}`, `field` naming the part
 *   of the review at fault (`request.uid`, `request.objects[3].kind`; empty for the whole body).
 */
export function handleConversionReview(review: unknown, converters: Converters): ReviewAnswer {
  let parsed: { apiVersion: string; uid: string; desired: string; desiredGv: GroupVersion; items: Item[] };
  try {
    parsed = readReview(review);
  } catch (e) {
    if (e instanceof Malformed) return { status: 400, body: { error: e.error, field: formatPath(e.field) } };
    return { status: 400, body: { error: `the review could not be read: ${describeThrown(e)}`, field: "" } };
  }
  const { apiVersion, uid, desired, desiredGv, items } = parsed;
  const answer = (response: JsonObject): ReviewAnswer => ({
    status: 200,
    body: { apiVersion, kind: "ConversionReview", response },
  });
  const fail = (message: string) => answer({ uid, convertedObjects: [], result: { status: "Failure", message } });

  let converted: JsonObject[];
  try {
    const out = convertAll(items, desired, desiredGv, converters);
    if (typeof out === "string") return fail(out);
    converted = out;
  } catch (e) {
    // Only a Converters implementation that throws gets here (converters' own throws are caught per object).
    return fail(`conversion failed: ${describeThrown(e)}`);
  }
  return answer({ uid, convertedObjects: converted, result: { status: "Success" } });
}

function readReview(review: unknown) {
  if (!isObject(review)) throw new Malformed([], "the body must be a JSON object (a ConversionReview)");
  const apiVersion = getKey(review, "apiVersion");
  if (typeof apiVersion !== "string" || !reviewApiVersions.has(apiVersion)) {
    throw new Malformed(
      ["apiVersion"],
      `must be "apiextensions.k8s.io/v1" or "apiextensions.k8s.io/v1beta1", not ${show(apiVersion)}`,
    );
  }
  const kind = getKey(review, "kind");
  if (kind !== "ConversionReview") throw new Malformed(["kind"], `must be "ConversionReview", not ${show(kind)}`);
  const request = getKey(review, "request");
  if (!isObject(request)) throw new Malformed(["request"], "must be an object");
  const uid = getKey(request, "uid");
  if (typeof uid !== "string" || uid === "") {
    throw new Malformed(["request", "uid"], `must be a non-empty string, not ${show(uid)}`);
  }
  const desired = getKey(request, "desiredAPIVersion");
  const desiredGv = typeof desired === "string" ? parseApiVersion(desired) : undefined;
  if (typeof desired !== "string" || desiredGv === undefined) {
    throw new Malformed(
      ["request", "desiredAPIVersion"],
      `must be an apiVersion ("group/version"), not ${show(desired)}`,
    );
  }
  const objects = getKey(request, "objects");
  if (!Array.isArray(objects)) throw new Malformed(["request", "objects"], `must be a list, not ${show(objects)}`);
  if (objects.length > maxReviewObjects) {
    throw new Malformed(
      ["request", "objects"],
      `too many objects: ${objects.length}, the limit is ${maxReviewObjects} per review`,
    );
  }
  const items: Item[] = new Array(objects.length);
  for (let i = 0; i < objects.length; i++) items[i] = readObject(objects[i], i);
  return { apiVersion, uid, desired, desiredGv, items };
}

function readObject(object: JsonValue | undefined, i: number): Item {
  const at: FieldPath = ["request", "objects", i];
  if (!isObject(object)) throw new Malformed(at, `must be an object, not ${show(object)}`);
  const apiVersion = getKey(object, "apiVersion");
  const gv = typeof apiVersion === "string" ? parseApiVersion(apiVersion) : undefined;
  if (typeof apiVersion !== "string" || gv === undefined) {
    throw new Malformed([...at, "apiVersion"], `must be an apiVersion ("group/version"), not ${show(apiVersion)}`);
  }
  const kind = getKey(object, "kind");
  if (typeof kind !== "string" || kind === "") {
    throw new Malformed([...at, "kind"], `must be a non-empty string, not ${show(kind)}`);
  }
  const metadata = getKey(object, "metadata");
  if (metadata !== undefined && !isObject(metadata)) {
    throw new Malformed([...at, "metadata"], `must be an object, not ${show(metadata)}`);
  }
  return { object, apiVersion, gv, kind, metadata };
}

/** Every object converted, or the failure message of the first that cannot be. */
function convertAll(
  items: readonly Item[],
  desired: string,
  desiredGv: GroupVersion,
  converters: Converters,
): JsonObject[] | string {
  // One lookup per group/kind, not per object (Map keys are safe for any string).
  const lookups = new Map<string, Converter | null>();
  const out: JsonObject[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Item;
    const { gv, kind } = item;
    const key = `${gv.group}\u0000${kind}`;
    let converter = lookups.get(key);
    if (converter === undefined) {
      converter = converters.forKind(gv.group, kind) ?? null;
      lookups.set(key, converter);
    }
    const name = () => objectName(item, i);
    if (converter === null) {
      return `${name()}: no conversion is deployed for kind ${kind} of group ${show(gv.group)} (known versions: none)`;
    }
    const known = converter.versions;
    const knownText = () =>
      `known versions: ${known.length > 0 ? known.map((v) => JSON.stringify(v)).join(", ") : "none"}`;
    if (desiredGv.group !== gv.group) {
      return `${name()}: cannot convert to ${show(desired)}: the object is of group ${show(gv.group)}, not ${show(desiredGv.group)}`;
    }
    if (!known.includes(desiredGv.version)) {
      return `${name()}: the desired version ${show(desiredGv.version)} is not a version of ${kind} (${knownText()})`;
    }
    if (item.apiVersion === desired) {
      out[i] = item.object;
      continue;
    }
    if (!known.includes(gv.version)) {
      return `${name()}: the object's version ${show(gv.version)} is not a version of ${kind} (${knownText()})`;
    }
    let result: { object?: JsonObject; error?: string } | undefined;
    try {
      // A copy unless the converter promises otherwise: one that edits its input in place
      // could touch the request, and hide a change to the metadata from the check below.
      result = converter.convert(converter.leavesInputAlone ? item.object : clone(item.object), desired);
    } catch (e) {
      return `${name()}: converting from ${item.apiVersion} to ${desired}: the converter failed: ${describeThrown(e)}`;
    }
    const error = isObject(result) ? getKey(result as JsonObject, "error") : undefined;
    if (error !== undefined && error !== null && error !== "") {
      return `${name()}: converting from ${item.apiVersion} to ${desired}: ${typeof error === "string" ? error : show(error)}`;
    }
    const object = isObject(result) ? getKey(result as JsonObject, "object") : undefined;
    if (!isObject(object)) {
      return `${name()}: converting from ${item.apiVersion} to ${desired}: the converter returned no object`;
    }
    const problem = checkConverted(item, object, desired);
    if (problem !== undefined) return `${name()}: converted object refused: ${problem}`;
    out[i] = object;
  }
  return out;
}

/**
 * What the API server checks of a converted object (apiextensions-apiserver's webhook
 * converter), made strict: the desired apiVersion, the same kind, and metadata changed in
 * labels and annotations only (the server silently resets the rest; kunion refuses it).
 */
function checkConverted(item: Item, object: JsonObject, desired: string): string | undefined {
  const apiVersion = getKey(object, "apiVersion");
  if (apiVersion !== desired) return `apiVersion is ${show(apiVersion)}, not the desired ${show(desired)}`;
  const kind = getKey(object, "kind");
  if (kind !== item.kind) return `kind changed from ${show(item.kind)} to ${show(kind)}`;
  const metadata = getKey(object, "metadata");
  if (metadata === undefined && item.metadata === undefined) return undefined;
  if (!isObject(metadata)) return `metadata is ${metadata === undefined ? "missing" : show(metadata)}, not an object`;
  const before: JsonObject = item.metadata ?? {};
  const changes: string[] = [];
  const seen = new Set<string>();
  for (const key of [...Object.keys(before), ...Object.keys(metadata)]) {
    if (seen.has(key) || mutableMetadata.has(key)) continue;
    seen.add(key);
    const a = getKey(before, key);
    const b = getKey(metadata, key);
    if (deepEqual(a, b)) continue;
    const field = formatPath(["metadata", key]);
    if (key === "name" || key === "namespace" || key === "uid" || key === "generateName") {
      changes.push(`${field} changed from ${show(a)} to ${show(b)}`);
    } else if (a === undefined) {
      changes.push(`${field} added`);
    } else if (b === undefined) {
      changes.push(`${field} removed`);
    } else {
      changes.push(`${field} changed`);
    }
  }
  if (changes.length > 0) {
    return `metadata tampering: ${changes.join(", ")} (a conversion may change only metadata.labels and metadata.annotations)`;
  }
  for (const key of mutableMetadata) {
    const map = getKey(metadata, key);
    if (map === undefined || map === null) continue;
    if (!isObject(map)) return `metadata.${key} must be a map of strings, not ${show(map)}`;
    for (const k of Object.keys(map)) {
      const v = getKey(map, k);
      if (typeof v !== "string") {
        return `${formatPath(["metadata", key, { key: k }])} must be a string, not ${show(v)}`;
      }
    }
  }
  return undefined;
}

/** `group/version`, or `version` for the core group; undefined when malformed. */
function parseApiVersion(s: string): GroupVersion | undefined {
  if (s === "") return undefined;
  const gv = splitApiVersion(s);
  return s.includes("/") && (gv.group === "" || gv.version === "" || gv.version.includes("/")) ? undefined : gv;
}

/** `request.objects[3] (CronJob default/nightly)`, for failure messages. */
function objectName(item: Item, i: number): string {
  const meta = item.metadata;
  const name = meta !== undefined ? getKey(meta, "name") : undefined;
  const namespace = meta !== undefined ? getKey(meta, "namespace") : undefined;
  const where = formatPath(["request", "objects", i]);
  if (typeof name !== "string" || name === "") return `${where} (${item.kind} without a name)`;
  return `${where} (${item.kind} ${typeof namespace === "string" && namespace !== "" ? `${namespace}/` : ""}${name})`;
}

/** A short rendering of a value for messages: JSON, cut at 100 characters. */
function show(v: unknown): string {
  if (v === undefined) return "nothing";
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = Array.isArray(v) ? "a list" : typeof v;
  }
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function describeThrown(e: unknown): string {
  try {
    if (e instanceof Error) return e.message;
    return typeof e === "string" ? e : show(e);
  } catch {
    return "an unknown error";
  }
}
