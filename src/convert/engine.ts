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

/** The object a conversion is about, for its messages: they are built only when it fails. */
class Subject {
  constructor(
    readonly object: JsonObject,
    readonly c: Conversion,
  ) {}
  who(): string {
    const kind = getKey(this.object, "kind");
    return describe(this.object, typeof kind === "string" ? kind : this.c.kind);
  }
}

function convertOrThrow(object: JsonObject, toApiVersion: string, c: Conversion): JsonObject {
  if (!isObject(object)) throw new Failure("object is not a JSON object");
  const subject = new Subject(object, c);
  const list = () =>
    versionsOf(c)
      .map((v) => `${c.group}/${v}`)
      .join(", ");
  const kind = getKey(object, "kind");
  if (kind !== c.kind) throw new Failure(`${subject.who()}: kind ${formatValue(kind ?? null)} is not ${c.kind}`);
  const av = getKey(object, "apiVersion");
  if (typeof av !== "string") throw new Failure(`${subject.who()}: apiVersion: Required value`);
  const from = splitApiVersion(av);
  const to = splitApiVersion(toApiVersion);
  const known = (v: string) => v === c.hub || c.spokes.has(v);
  if (from.group !== c.group || !known(from.version))
    throw new Failure(`${subject.who()}: unknown apiVersion ${JSON.stringify(av)}: known versions are ${list()}`);
  if (to.group !== c.group || !known(to.version))
    throw new Failure(
      `${subject.who()}: cannot convert to unknown apiVersion ${JSON.stringify(toApiVersion)}: known versions are ${list()}`,
    );
  if (av === toApiVersion) return object;
  let cur = object;
  if (from.version !== c.hub) cur = step(cur, from.version, c.hub, subject);
  if (to.version !== c.hub) cur = step(cur, c.hub, to.version, subject);
  // the steps' results share what they did not write with the input: the caller's object is a whole copy
  return clone(cur);
}

const schemaOf = (c: Conversion, version: string) => c.crd?.versions.find((v) => v.name === version)?.openAPIV3Schema;

/**
 * One direction of a spoke over `input`, which it must not change. A declared spoke's result shares with `input`
 * what neither its rules nor the engine (at the `restored` fields) write; any other spoke (defineConversion's
 * functions) is given a whole copy, so a function that edits its argument in place cannot touch the input.
 */
function run(
  spoke: SpokeConversion,
  toHub: boolean,
  input: JsonObject,
  apiVersion: string,
  c: Conversion,
  version: string,
  restored?: readonly DataPath[],
): JsonObject {
  let out = convertSharing(spoke, toHub, input, restored);
  if (out === undefined) {
    const arg = clone(input);
    out = toHub ? spoke.toHub(arg) : spoke.fromHub(arg);
  }
  if (!isObject(out)) throw new ConvertError([], "the conversion did not return an object");
  setKey(out, "apiVersion", apiVersion);
  const schema = schemaOf(c, version);
  return schema === undefined ? out : prune(out, schema);
}

/** A spoke's error as the step's failure, after `prefix` (the step, built only now). */
function failure(e: unknown, prefix: string): Failure {
  if (e instanceof Failure) return e;
  if (e instanceof ConvertError) {
    const at = e.path.length > 0 ? `${showPath(e.path)}: ` : "";
    return new Failure(`${prefix}: ${at}${e.message}`);
  }
  return new Failure(`${prefix}: ${e instanceof Error ? e.message : String(e)}`);
}

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

const freeToChange = (key: string) => key === "labels" || key === "annotations";

/**
 * Where metadata `after` differs from `before` other than in labels and annotations: undefined when nowhere,
 * the first differing key, or "" when the difference has no key (metadata appeared, went or is not an object).
 * Compared in place: nothing is copied.
 */
function changedMetadata(before: JsonValue | undefined, after: JsonValue | undefined): string | undefined {
  if (before === after) return undefined;
  if (!isObject(before) || !isObject(after)) {
    if (!isObject(before) && !isObject(after)) return deepEqual(before, after) ? undefined : "";
    const keys = Object.keys((isObject(before) ? before : after) as JsonObject);
    return keys.find((k) => !freeToChange(k)) ?? "";
  }
  for (const k of Object.keys(before))
    if (!freeToChange(k) && !deepEqual(before[k] as JsonValue, getKey(after, k))) return k;
  for (const k of Object.keys(after)) if (!freeToChange(k) && !Object.hasOwn(before, k)) return k;
  return undefined;
}

/**
 * One step toward or away from the hub. `input` is not changed (it may be the caller's object): the result
 * shares with it what neither the rules nor the step write.
 */
function step(input: JsonObject, fromV: string, toV: string, subject: Subject): JsonObject {
  const c = subject.c;
  const toHub = toV === c.hub;
  const spoke = c.spokes.get(toHub ? fromV : toV) as SpokeConversion;
  const source = `${c.group}/${fromV}`;
  const target = `${c.group}/${toV}`;
  const what = () => `${subject.who()}: converting ${source} to ${target}`;
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
  // past the rules, this step writes the restored fields, and its annotation into copies it makes
  let out: JsonObject;
  try {
    out = run(
      spoke,
      toHub,
      clean,
      target,
      c,
      toV,
      restoring?.map((f) => f.path),
    );
  } catch (e) {
    throw failure(e, what());
  }
  if (restoring !== undefined) restore(out, restoring);
  if (getKey(out, "kind") !== getKey(clean, "kind"))
    throw new Failure(`${what()}: kind: Forbidden: a conversion may not change the kind`);
  const changed = changedMetadata(getKey(clean, "metadata"), getKey(out, "metadata"));
  if (changed !== undefined)
    throw new Failure(
      `${what()}: metadata${changed === "" ? "" : `.${changed}`}: Forbidden: a conversion may only change labels and annotations`,
    );
  // Losslessness: convert the output back and keep in the annotation whatever does not come back.
  let backObj: JsonObject;
  try {
    backObj = run(spoke, !toHub, out, source, c, fromV);
  } catch (e) {
    throw failure(e, `${what()}: the result cannot be converted back to ${source}, refusing a lossy conversion`);
  }
  const lost = lostFields(clean, backObj);
  if (lost.length > 0) {
    const meta = getKey(out, "metadata");
    const keeping = () =>
      `the fields ${target} cannot hold (${lost.map((f) => f.path.join(".")).join(", ")}) are kept in its annotation ${ANNOTATION}`;
    // Making one would change metadata, which the way back could not undo.
    if (meta === undefined) throw new Failure(`${what()}: metadata: Required value: ${keeping()}`);
    if (!isObject(meta))
      throw new Failure(`${what()}: metadata: Invalid value: ${formatValue(meta)}: must be an object: ${keeping()}`);
    const given = getKey(meta, "annotations");
    if (given !== undefined && !isObject(given))
      throw new Failure(
        `${what()}: metadata.annotations: Invalid value: ${formatValue(given)}: must be an object: ${keeping()}`,
      );
    const keepEmpty = given !== undefined && Object.keys(given).length === 0;
    // out's metadata and annotations may still be the input's: the annotation is written into copies of them
    const outMeta = shallowCopy(meta);
    const outAnn = given === undefined ? {} : shallowCopy(given);
    setKey(outMeta, "annotations", outAnn);
    setKey(out, "metadata", outMeta);
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
