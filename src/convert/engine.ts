/**
 * The engine: any version to any version through the hub, with the guarantees the API server checks
 * (apiVersion set, kind and metadata other than labels/annotations untouched) and losslessness by construction:
 * every step is checked by converting its output back; what does not come back is kept in the
 * `kunion.dev/conversion-data` annotation of the output and restored by the conversion back.
 *
 * Choice for one-way `set` rules whose inverse does not reproduce the input (kubebuilder's `@hourly`, double
 * spaces, an explicit `*`): the original is kept in the annotation, so the round trip is lossless; when the way
 * back fails outright (an expression or assertion error), the step fails with an error naming the object and
 * the path rather than write an object that cannot be converted back.
 */
import { formatValue } from "../findings/index.js";
import { splitApiVersion } from "../names/index.js";
import {
  clone,
  deepEqual,
  getKey,
  isObject,
  type JsonObject,
  type JsonValue,
  setKey,
  shallowCopy,
} from "../value/index.js";
import { convertSharing } from "./declaration.js";
import {
  ANNOTATION,
  ANNOTATIONS_LIMIT,
  annotationBytes,
  decode,
  encode,
  type LostField,
  lostFields,
  restore,
} from "./losslessness.js";
import { showPath } from "./paths.js";
import { prune } from "./schema.js";
import { type Conversion, ConvertError, type DataPath, type SpokeConversion } from "./types.js";

export function versionsOf(c: Conversion): string[] {
  return [c.hub, ...[...c.spokes.keys()].filter((v) => v !== c.hub)];
}

function describe(obj: JsonObject, kind: string): string {
  const meta = getKey(obj, "metadata");
  const name = isObject(meta) ? getKey(meta, "name") : undefined;
  const ns = isObject(meta) ? getKey(meta, "namespace") : undefined;
  const id = typeof name === "string" ? (typeof ns === "string" && ns !== "" ? `${ns}/${name}` : name) : "(unnamed)";
  return `${kind} ${id}`;
}

class Failure extends Error {}

/** Converts `object` to `toApiVersion` (`group/version`); errors name the object and the path. */
export function convert(
  object: JsonObject,
  toApiVersion: string,
  conversion: Conversion,
): { object?: JsonObject; error?: string } {
  try {
    return { object: convertOrThrow(object, toApiVersion, conversion) };
  } catch (e) {
    if (e instanceof Failure) return { error: e.message };
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function convertOrThrow(object: JsonObject, toApiVersion: string, c: Conversion): JsonObject {
  if (!isObject(object)) throw new Failure("object is not a JSON object");
  const kind = getKey(object, "kind");
  // Messages are built only when a conversion fails: most objects never need them.
  const who = () => describe(object, typeof kind === "string" ? kind : c.kind);
  const known = versionsOf(c);
  const list = () => known.map((v) => `${c.group}/${v}`).join(", ");
  if (kind !== c.kind) throw new Failure(`${who()}: kind ${formatValue(kind ?? null)} is not ${c.kind}`);
  const av = getKey(object, "apiVersion");
  if (typeof av !== "string") throw new Failure(`${who()}: apiVersion: Required value`);
  const from = splitApiVersion(av);
  const to = splitApiVersion(toApiVersion);
  if (from.group !== c.group || !known.includes(from.version))
    throw new Failure(`${who()}: unknown apiVersion ${JSON.stringify(av)}: known versions are ${list()}`);
  if (to.group !== c.group || !known.includes(to.version))
    throw new Failure(
      `${who()}: cannot convert to unknown apiVersion ${JSON.stringify(toApiVersion)}: known versions are ${list()}`,
    );
  if (av === toApiVersion) return object;
  let cur = object;
  if (from.version !== c.hub) cur = step(cur, from.version, c.hub, c, who);
  if (to.version !== c.hub) cur = step(cur, c.hub, to.version, c, who);
  // the steps' results share what they did not write with the input: the caller's object is a whole copy
  return clone(cur);
}

const schemaOf = (c: Conversion, version: string) => c.crd?.versions.find((v) => v.name === version)?.openAPIV3Schema;

/**
 * One direction of a spoke over `input`, which it must not change. A declared spoke's result shares with `input`
 * what neither its rules nor the engine, at `written`, write; any other spoke (defineConversion's functions) is
 * given a whole copy, so a function that edits its argument in place cannot touch the input.
 */
function run(
  spoke: SpokeConversion,
  toHub: boolean,
  input: JsonObject,
  apiVersion: string,
  c: Conversion,
  version: string,
  written: readonly DataPath[],
): JsonObject {
  let out = convertSharing(spoke, toHub, input, written);
  if (out === undefined) {
    const arg = clone(input);
    out = toHub ? spoke.toHub(arg) : spoke.fromHub(arg);
  }
  if (!isObject(out)) throw new ConvertError([], "the conversion did not return an object");
  setKey(out, "apiVersion", apiVersion);
  const schema = schemaOf(c, version);
  return schema === undefined ? out : prune(out, schema);
}

const ANNOTATIONS_PATH: DataPath = ["metadata", "annotations"];

function annotationsOf(obj: JsonObject): JsonObject | undefined {
  const meta = getKey(obj, "metadata");
  const ann = isObject(meta) ? getKey(meta, "annotations") : undefined;
  return isObject(ann) ? ann : undefined;
}

/**
 * `input` without this step's annotation (the previous one put back), for the conversion back to the version
 * that wrote it: a new top level, metadata and annotations; everything else is shared with `input`, which is
 * left as it is.
 */
function withoutAnnotation(
  input: JsonObject,
  annotations: JsonObject,
  previous: string | undefined,
  keepEmpty: boolean,
) {
  const meta = shallowCopy(getKey(input, "metadata") as JsonObject);
  const ann = shallowCopy(annotations);
  if (previous !== undefined) setKey(ann, ANNOTATION, previous);
  else delete ann[ANNOTATION];
  if (Object.keys(ann).length > 0 || keepEmpty) setKey(meta, "annotations", ann);
  else delete meta.annotations;
  const out = shallowCopy(input);
  setKey(out, "metadata", meta);
  return out;
}

function withoutLabelsAndAnnotations(meta: JsonValue | undefined): JsonValue | undefined {
  if (!isObject(meta)) return meta;
  const out: JsonObject = {};
  for (const k of Object.keys(meta)) if (k !== "labels" && k !== "annotations") setKey(out, k, meta[k] as JsonValue);
  return out;
}

/**
 * One step toward or away from the hub. `input` is not changed (it may be the caller's object): the result
 * shares with it what neither the rules nor the step write.
 */
function step(input: JsonObject, fromV: string, toV: string, c: Conversion, who: () => string): JsonObject {
  const toHub = toV === c.hub;
  const spoke = c.spokes.get(toHub ? fromV : toV) as SpokeConversion;
  const source = `${c.group}/${fromV}`;
  const target = `${c.group}/${toV}`;
  const what = () => `${who()}: converting ${source} to ${target}`;
  let clean = input;
  let restoring: LostField[] | undefined;
  const ann = annotationsOf(input);
  const raw = ann === undefined ? undefined : getKey(ann, ANNOTATION);
  if (ann !== undefined && raw !== undefined) {
    const d = typeof raw === "string" ? decode(raw) : `annotation ${ANNOTATION} is not a string`;
    if (typeof d === "string") throw new Failure(`${what()}: metadata.annotations[${ANNOTATION}]: ${d}`);
    if (d.apiVersion === target) {
      restoring = d.lost;
      clean = withoutAnnotation(input, ann, d.previous, d.keepEmpty);
    }
  }
  const guard = <T>(f: () => T, prefix: () => string): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof ConvertError) {
        const at = e.path.length > 0 ? `${showPath(e.path)}: ` : "";
        throw new Failure(`${prefix()}: ${at}${e.message}`);
      }
      if (e instanceof Failure) throw e;
      throw new Failure(`${prefix()}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  // past the rules, this step writes only the restored fields and the annotations
  const written = [...(restoring ?? []).map((f) => f.path), ANNOTATIONS_PATH];
  const out = guard(() => run(spoke, toHub, clean, target, c, toV, written), what);
  if (restoring !== undefined) restore(out, restoring);
  if (getKey(out, "kind") !== getKey(clean, "kind"))
    throw new Failure(`${what()}: kind: Forbidden: a conversion may not change the kind`);
  const before = withoutLabelsAndAnnotations(getKey(clean, "metadata"));
  const after = withoutLabelsAndAnnotations(getKey(out, "metadata"));
  if (!deepEqual(before, after)) {
    const keys = new Set([
      ...Object.keys(isObject(before) ? before : {}),
      ...Object.keys(isObject(after) ? after : {}),
    ]);
    const changed = [...keys].find(
      (k) =>
        !deepEqual(isObject(before) ? getKey(before, k) : undefined, isObject(after) ? getKey(after, k) : undefined),
    );
    throw new Failure(
      `${what()}: metadata${changed === undefined ? "" : `.${changed}`}: Forbidden: a conversion may only change labels and annotations`,
    );
  }
  // Losslessness: convert the output back and keep in the annotation whatever does not come back.
  const backObj = guard(
    () => run(spoke, !toHub, out, source, c, fromV, []),
    () => `${what()}: the result cannot be converted back to ${source}, refusing a lossy conversion`,
  );
  const lost = lostFields(clean, backObj);
  if (lost.length > 0) {
    const meta = getKey(out, "metadata");
    const keeping = () =>
      `the fields ${target} cannot hold (${lost.map((f) => f.path.join(".")).join(", ")}) are kept in its annotation ${ANNOTATION}`;
    // Making one would change metadata, which the way back could not undo.
    if (meta === undefined) throw new Failure(`${what()}: metadata: Required value: ${keeping()}`);
    if (!isObject(meta))
      throw new Failure(`${what()}: metadata: Invalid value: ${formatValue(meta)}: must be an object: ${keeping()}`);
    let outAnn = getKey(meta, "annotations");
    if (outAnn !== undefined && !isObject(outAnn))
      throw new Failure(
        `${what()}: metadata.annotations: Invalid value: ${formatValue(outAnn)}: must be an object: ${keeping()}`,
      );
    const keepEmpty = outAnn !== undefined && Object.keys(outAnn).length === 0;
    if (outAnn === undefined) {
      outAnn = {};
      setKey(meta, "annotations", outAnn);
    }
    // an earlier step's annotation for another version (v1 → hub → v2) is kept inside this one
    const previous = getKey(outAnn, ANNOTATION);
    setKey(outAnn, ANNOTATION, encode(source, lost, typeof previous === "string" ? previous : undefined, keepEmpty));
    const bytes = annotationBytes(outAnn);
    if (bytes > ANNOTATIONS_LIMIT)
      throw new Failure(
        `${what()}: metadata.annotations: Too long: must have at most ${ANNOTATIONS_LIMIT} bytes: keeping the fields ${target} cannot hold (${lost.map((f) => f.path.join(".")).join(", ")}) in ${ANNOTATION} would make the annotations ${bytes} bytes`,
      );
  }
  return out;
}
