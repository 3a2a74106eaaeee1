/**
 * The engine: any version to any version through the hub, with the guarantees the API server checks
 * (apiVersion set, kind and metadata other than labels/annotations untouched) and losslessness by construction:
 * every step is checked by converting its output back; what does not come back is kept in the
 * `kunion.dev/conversion-data` annotation of the output and restored by the conversion back.
 *
 * Copies: a declared spoke's step copies its input only along the paths its rules write (a trie built once per
 * spoke) and shares the rest, and its round trip is compared only along those paths. The object given is never
 * changed; unless the caller lets the result share with it (ConvertOptions.share), the first step works on a
 * whole copy of it instead (a TypeScript spoke's always does), so the result shares nothing with it.
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
import { applyRules, declaredRules } from "./declaration.js";
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
import { copyForWriting, showPath, type WriteTrie, writeTrie } from "./paths.js";
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

export interface ConvertOptions {
  /**
   * The result may share with `object` what the conversion does not write, instead of being a whole copy: for a
   * caller that reads the result and changes neither (the webhook and the CLI serialize it), as Kubernetes'
   * UnsafeConvertToVersion shares with the objects it decodes. The conversion changes `object` in neither case.
   */
  share?: boolean;
}

/** Converts `object` to `toApiVersion` (`group/version`); errors name the object and the path. */
export function convert(
  object: JsonObject,
  toApiVersion: string,
  conversion: Conversion,
  options: ConvertOptions = {},
): { object?: JsonObject; error?: string } {
  try {
    return { object: convertOrThrow(object, toApiVersion, conversion, options.share === true) };
  } catch (e) {
    if (e instanceof Failure) return { error: e.message };
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The object a conversion is about, for its messages (built only when it fails), and what its steps wrote. */
class Subject {
  /** The annotation the last step wrote, and the apiVersion it is for (the one that step came from). */
  wrote: { text: string; apiVersion: string } | undefined;
  constructor(
    readonly object: JsonObject,
    readonly c: Conversion,
  ) {}
  who(): string {
    const kind = getKey(this.object, "kind");
    return describe(this.object, typeof kind === "string" ? kind : this.c.kind);
  }
}

/** One of a conversion's versions: its name, the apiVersion a step writes, and its schema when the CRD is known. */
interface Version {
  name: string;
  apiVersion: string;
  schema: JsonObject | undefined;
}

/**
 * A conversion's versions by apiVersion (`group/version`) and by name, made once per conversion rather than split,
 * built and searched on every call; made again if the conversion's group, hub, spokes or CRD are replaced.
 */
interface VersionTable {
  made: {
    group: string;
    hub: string;
    spokes: ReadonlyMap<string, SpokeConversion>;
    size: number;
    crd: Conversion["crd"];
  };
  byApiVersion: Map<string, Version>;
  byName: Map<string, Version>;
  hub: Version;
}
const tables = new WeakMap<Conversion, VersionTable>();

function versionTable(c: Conversion): VersionTable {
  const known = tables.get(c);
  const m = known?.made;
  if (m?.group === c.group && m.hub === c.hub && m.spokes === c.spokes && m.size === c.spokes.size && m.crd === c.crd)
    return known as VersionTable;
  const byApiVersion = new Map<string, Version>();
  const byName = new Map<string, Version>();
  for (const name of versionsOf(c)) {
    const v = { name, apiVersion: `${c.group}/${name}`, schema: schemaOf(c, name) };
    byApiVersion.set(v.apiVersion, v);
    byName.set(name, v);
  }
  const made = { group: c.group, hub: c.hub, spokes: c.spokes, size: c.spokes.size, crd: c.crd };
  const table: VersionTable = { made, byApiVersion, byName, hub: byName.get(c.hub) as Version };
  tables.set(c, table);
  return table;
}

/** The version `apiVersion` names among `c`'s, undefined when none. */
function versionIn(c: Conversion, table: VersionTable, apiVersion: string): Version | undefined {
  const hit = table.byApiVersion.get(apiVersion);
  if (hit !== undefined) return hit;
  const { group, version } = splitApiVersion(apiVersion);
  return group === c.group ? table.byName.get(version) : undefined;
}

const schemaOf = (c: Conversion, version: string) => c.crd?.versions.find((v) => v.name === version)?.openAPIV3Schema;

function convertOrThrow(object: JsonObject, toApiVersion: string, c: Conversion, share: boolean): JsonObject {
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
  const table = versionTable(c);
  const from = versionIn(c, table, av);
  const to = versionIn(c, table, toApiVersion);
  if (from === undefined)
    throw new Failure(`${subject.who()}: unknown apiVersion ${JSON.stringify(av)}: known versions are ${list()}`);
  if (to === undefined)
    throw new Failure(
      `${subject.who()}: cannot convert to unknown apiVersion ${JSON.stringify(toApiVersion)}: known versions are ${list()}`,
    );
  // Unless it may share, the result is the caller's own, even for an object already at the target. The steps
  // share with their input what they do not write: the first works on a whole copy instead, and the second
  // shares only with the first's output.
  if (av === toApiVersion) return share ? object : clone(object);
  const hub = table.hub;
  let cur = object;
  let whole = !share;
  if (from !== hub) {
    cur = step(cur, from, hub, subject, whole);
    whole = false;
  }
  if (to !== hub) cur = step(cur, hub, to, subject, whole);
  return cur;
}

/**
 * A spoke's result, and `writtenAt`: the paths it was written at when it is known to differ from its input only
 * there (and in apiVersion). Unknown (undefined) when it comes from defineConversion's functions, which may write
 * anywhere, or when pruning removed fields.
 */
interface Converted {
  object: JsonObject;
  writtenAt: WriteTrie | undefined;
}

/**
 * One direction of a spoke over `input`, which it must not change. A declared spoke works on a copy of `input`
 * made only where its rules, and the engine at the `restored` fields, write, so the rest of the result is shared
 * with `input`, unless `whole` asks for a result that shares nothing with it. Any other spoke (defineConversion's
 * functions) is given a whole copy, so a function that edits its argument in place cannot touch the input.
 */
function run(
  spoke: SpokeConversion,
  toHub: boolean,
  input: JsonObject,
  version: Version,
  restored?: readonly DataPath[],
  whole = false,
): Converted {
  const d = declaredRules(spoke);
  let out: JsonValue;
  let writtenAt: WriteTrie | undefined;
  if (d !== undefined) {
    writtenAt = restored === undefined ? d.trie : writeTrie([...d.written, ...restored]);
    // a whole copy equals `input` everywhere, so the result still differs from it only at writtenAt
    out = applyRules(d, toHub, whole ? clone(input) : copyForWriting(input, writtenAt), input);
  } else {
    const arg = clone(input);
    out = toHub ? spoke.toHub(arg) : spoke.fromHub(arg);
  }
  if (!isObject(out)) throw new ConvertError([], "the conversion did not return an object");
  setKey(out, "apiVersion", version.apiVersion);
  const pruned = version.schema === undefined ? out : prune(out, version.schema);
  return { object: pruned, writtenAt: pruned === out ? writtenAt : undefined };
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
 * One step toward or away from the hub. `input` is not changed (it may be the caller's object); the result
 * shares with it what neither the rules nor the step write, or nothing at all when `whole`.
 */
function step(input: JsonObject, fromV: Version, toV: Version, subject: Subject, whole: boolean): JsonObject {
  const c = subject.c;
  const toHub = toV.name === c.hub;
  const spoke = c.spokes.get(toHub ? fromV.name : toV.name) as SpokeConversion;
  const source = fromV.apiVersion;
  const target = toV.apiVersion;
  const what = () => `${subject.who()}: converting ${source} to ${target}`;
  let clean = input;
  let restoring: LostField[] | undefined;
  const ann = annotationsOf(input);
  const raw = ann === undefined ? undefined : getKey(ann, ANNOTATION);
  // What the step before wrote is well-formed, and read only by a step back to where it came from.
  const known = subject.wrote !== undefined && raw === subject.wrote.text && subject.wrote.apiVersion !== target;
  if (ann !== undefined && raw !== undefined && !known) {
    const d = typeof raw === "string" ? decode(raw) : `annotation ${ANNOTATION} is not a string`;
    if (typeof d === "string") throw new Failure(`${what()}: metadata.annotations[${ANNOTATION}]: ${d}`);
    if (d.apiVersion === target) {
      restoring = d.lost;
      clean = withoutAnnotation(input, ann, d.previous, d.keepEmpty);
    }
  }
  // past the rules, this step writes the restored fields, and its annotation into copies it makes
  let there: Converted;
  try {
    there = run(
      spoke,
      toHub,
      clean,
      toV,
      restoring?.map((f) => f.path),
      whole,
    );
  } catch (e) {
    throw failure(e, what());
  }
  const out = there.object;
  if (restoring !== undefined) restore(out, restoring);
  if (getKey(out, "kind") !== getKey(clean, "kind"))
    throw new Failure(`${what()}: kind: Forbidden: a conversion may not change the kind`);
  const changed = changedMetadata(getKey(clean, "metadata"), getKey(out, "metadata"));
  if (changed !== undefined)
    throw new Failure(
      `${what()}: metadata${changed === "" ? "" : `.${changed}`}: Forbidden: a conversion may only change labels and annotations`,
    );
  // Losslessness: convert the output back and keep in the annotation whatever does not come back.
  let back: Converted;
  try {
    back = run(spoke, !toHub, out, fromV);
  } catch (e) {
    throw failure(e, `${what()}: the result cannot be converted back to ${source}, refusing a lossy conversion`);
  }
  // Both ways written only at known paths (the way back's are the rules', among the way there's): elsewhere the
  // round trip gives `clean` itself, so only those paths are compared.
  const lost = lostFields(
    clean,
    back.object,
    there.writtenAt !== undefined && back.writtenAt !== undefined ? there.writtenAt : undefined,
  );
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
    const text = encode(source, lost, typeof previous === "string" ? previous : undefined, keepEmpty);
    setKey(outAnn, ANNOTATION, text);
    subject.wrote = { text, apiVersion: source };
    const bytes = annotationBytes(outAnn);
    if (bytes > ANNOTATIONS_LIMIT)
      throw new Failure(
        `${what()}: metadata.annotations: Too long: must have at most ${ANNOTATIONS_LIMIT} bytes: keeping the fields ${target} cannot hold (${lost.map((f) => f.path.join(".")).join(", ")}) in ${ANNOTATION} would make the annotations ${bytes} bytes`,
      );
  }
  return out;
}
