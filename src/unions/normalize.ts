import { type Finding, finding } from "../findings/index.js";
import { child, type FieldPath, formatPath, toJsonPointer } from "../path/index.js";
import { propertyOf, type SchemaNode, type Union } from "../schema/index.js";
import { clone, deleteKey, getKey, isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { kepPolicy } from "./kep.js";
import { planFor } from "./plan.js";
import type { UnionEditor, UnionPolicy } from "./policy.js";
import { smdPolicy } from "./smd.js";
import { matchItem, walkUnions } from "./walk.js";

export const policies: Readonly<Record<UnionPolicy["name"], UnionPolicy>> = { kep: kepPolicy, smd: smdPolicy };

export interface NormalizeInput {
  /** The new object (update) or the applied configuration (apply). */
  object: JsonValue;
  /** The stored object; absent on create. In apply mode, the live object. */
  oldObject?: JsonValue;
  schema: SchemaNode | undefined;
}

export interface NormalizeOptions {
  mode?: "update" | "apply";
  policy?: UnionPolicy["name"];
}

export interface Change {
  op: "clear" | "set" | "restore";
  /** Kubernetes field path, e.g. `spec.strategy.rollingUpdate`. */
  path: string;
  /** The same place as a JSON Pointer, for JSONPatch. */
  pointer: string;
  value?: JsonValue;
}

export interface Note {
  path: string;
  union: string;
  message: string;
}

export interface NormalizeResult {
  object: JsonValue;
  changes: Change[];
  notes: Note[];
  /** Policy `smd` only: the errors SMD returned; the object is then returned unchanged. */
  errors: Finding[];
}

/**
 * Normalizes every union of an object (unions.md §3). Pure: the inputs are
 * never mutated; the result is a fresh object with the list of changes made
 * and notes on the unions left alone.
 */
export function normalize(input: NormalizeInput, options: NormalizeOptions = {}): NormalizeResult {
  const mode = options.mode ?? "update";
  const policy = policies[options.policy ?? "kep"];
  const out =
    mode === "apply" && input.oldObject !== undefined
      ? mergeApplied(input.oldObject, input.object, input.schema)
      : clone(input.object);
  const result: NormalizeResult = { object: out, changes: [], notes: [], errors: [] };
  const plan = input.schema ? planFor(input.schema) : null;
  if (!plan) return result;

  const others = mode === "apply" ? [input.object, input.oldObject] : [input.oldObject];
  walkUnions(plan, out, others, (node, counterparts, p, path) => {
    for (const union of p.unions) {
      const edit = editor(node, counterparts[counterparts.length - 1], union, path, result);
      if (mode === "apply")
        policy.apply(union, { out: node, applied: counterparts[0], live: counterparts[1], path }, edit);
      else policy.update(union, { out: node, old: counterparts[0], path }, edit);
    }
  });
  if (result.errors.length > 0)
    return { object: clone(input.object), changes: [], notes: result.notes, errors: result.errors };
  return result;
}

function editor(
  node: JsonObject,
  old: JsonObject | undefined,
  union: Union,
  path: FieldPath,
  result: NormalizeResult,
): UnionEditor {
  const record = (op: Change["op"], at: FieldPath, value?: JsonValue) => {
    const change: Change = { op, path: formatPath(at), pointer: toJsonPointer(at) };
    if (value !== undefined) change.value = value;
    result.changes.push(change);
  };
  return {
    clear(member) {
      deleteKey(node, member.field);
      record("clear", child(path, member.field));
    },
    setDiscriminator(value) {
      const name = union.discriminator;
      if (name === undefined || getKey(node, name) === value) return;
      setKey(node, name, value);
      record("set", child(path, name), value);
    },
    restore(member) {
      const value = old ? getKey(old, member.field) : undefined;
      if (value === undefined) return;
      setKey(node, member.field, clone(value));
      record("restore", child(path, member.field), value);
    },
    note(message) {
      result.notes.push({ path: formatPath(path), union: union.origin, message });
    },
    fail(message) {
      result.errors.push(finding({ type: "FieldValueInvalid", path, detail: message, rule: "union" }));
    },
  };
}

/**
 * The object a server-side apply would produce before normalization: the
 * applied configuration laid over the live object, maps merged by key and
 * lists with `x-kubernetes-list-map-keys` merged by those keys; other lists
 * and scalars are replaced. Field ownership is not modelled: fields a manager
 * stopped applying stay.
 */
export function mergeApplied(live: JsonValue, applied: JsonValue, schema: SchemaNode | undefined): JsonValue {
  if (isObject(live) && isObject(applied)) {
    const out = clone(live);
    for (const key of Object.keys(applied)) {
      const sub = propertyOf(schema, key) ?? schema?.additionalProperties;
      const before = getKey(live, key);
      const value = applied[key] as JsonValue;
      setKey(out, key, before === undefined ? clone(value) : mergeApplied(before, value, sub));
    }
    return out;
  }
  const keys = schema?.listMapKeys;
  if (Array.isArray(live) && Array.isArray(applied) && keys && keys.length > 0) {
    const out = live.map((item) => clone(item));
    for (const [i, item] of applied.entries()) {
      const match = matchItem(live, item, i, keys);
      const at = match === undefined ? -1 : live.indexOf(match);
      if (at < 0) out.push(clone(item));
      else out[at] = mergeApplied(match as JsonValue, item, schema?.items);
    }
    return out;
  }
  return clone(applied);
}
