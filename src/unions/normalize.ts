import { type Finding, finding } from "../findings/index.js";
import { child, type FieldPath, formatPath, toJsonPointer } from "../path/index.js";
import { propertyOf, type SchemaNode, type Union, type UnionMember } from "../schema/index.js";
import {
  clone,
  deleteKey,
  getKey,
  hasKey,
  isObject,
  type JsonObject,
  type JsonValue,
  setKey,
  shallowCopy,
} from "../value/index.js";
import { kepPolicy } from "./kep.js";
import { isSet } from "./members.js";
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

/** A change in words, as the CLI prints it and the admission webhook warns of it: `cleared spec.strategy.rollingUpdate`. */
export function describeChange(c: Change): string {
  if (c.op === "set") return `set ${c.path} = ${JSON.stringify(c.value)}`;
  return `${c.op === "clear" ? "cleared" : "restored"} ${c.path}`;
}

export interface Note {
  /** The struct holding the union, as a Kubernetes path and as a JSON Pointer. */
  path: string;
  pointer: string;
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
 * never mutated. The result is copy-on-write: only the nodes on the way to an
 * edit are copied, the rest is shared with the input, so an object that needs
 * no change costs no copy. Treat inputs and result as immutable.
 */
export function normalize(input: NormalizeInput, options: NormalizeOptions = {}): NormalizeResult {
  const mode = options.mode ?? "update";
  const policy = policies[options.policy ?? "kep"];
  const base =
    mode === "apply" && input.oldObject !== undefined
      ? mergeApplied(input.oldObject, input.object, input.schema)
      : input.object;
  const result: NormalizeResult = { object: base, changes: [], notes: [], errors: [] };
  const plan = input.schema ? planFor(input.schema) : null;
  if (!plan) return result;

  const owned = new WeakSet<object>(); // containers of the result that are not shared with the input
  // On apply the merged object already holds the live one: the applied config is what decides.
  const counterpart = mode === "apply" ? input.object : input.oldObject;
  walkUnions(plan, base, counterpart, (node, other, p, pathOf) => {
    if (p.unions.every((u) => settled(u, node))) return undefined;
    const path = pathOf();
    // Policies edit a draft; it takes the node's place only if something changed.
    const draft = shallowCopy(node);
    const before = result.changes.length;
    for (const union of p.unions) {
      const edit = editor(draft, mode === "apply" ? undefined : other, union, path, result);
      const wrong = wrongTypeDiscriminator(union, draft);
      if (wrong !== undefined) {
        // Deducing a value would overwrite the user's field and hide the type error the
        // API server reports (an unquoted `Off` or `y` is a YAML 1.1 boolean).
        edit.note(`\`${union.discriminator}\` is ${wrong}, not a string: left as is`);
        continue;
      }
      if (mode === "apply") policy.apply(union, { out: draft, applied: other, path }, edit);
      else policy.update(union, { out: draft, old: other, path }, edit);
    }
    if (result.changes.length === before) return undefined;
    result.object = replaceAt(result.object, path, draft, owned);
    return draft;
  });
  if (result.errors.length > 0)
    return { object: input.object, changes: [], notes: result.notes, errors: result.errors };
  return result;
}

/** The JSON type of a discriminator that is present but not a string. */
function wrongTypeDiscriminator(union: Union, node: JsonObject): string | undefined {
  if (union.discriminator === undefined) return undefined;
  const v = getKey(node, union.discriminator);
  if (v === undefined || v === null || typeof v === "string") return undefined;
  return Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/**
 * A union no policy would touch: at most one member present and, with a
 * discriminator, that member selected (or none present and none selected). Most unions of real
 * objects are settled; checking costs a few key lookups, a draft costs a copy.
 */
function settled(union: Union, node: JsonObject): boolean {
  let present: UnionMember | undefined;
  for (const m of union.members) {
    if (!hasKey(node, m.field)) continue;
    if (present) return false;
    present = m;
  }
  if (union.discriminator === undefined) return true;
  const d = getKey(node, union.discriminator);
  // With no member present, a discriminator that selects one may have it restored from the old object.
  if (!present) return !union.members.some((m) => m.value === d);
  return d === present.value && isSet(node, present) && isSet(node, present, "smd");
}

/** Puts `node` at `path`, copying each container on the way that is still shared with the input. */
function replaceAt(root: JsonValue, path: FieldPath, node: JsonObject, owned: WeakSet<object>): JsonValue {
  owned.add(node);
  if (path.length === 0) return node;
  const writable = (v: JsonValue): JsonObject | JsonValue[] => {
    const container = v as JsonObject | JsonValue[];
    if (owned.has(container)) return container;
    const copy = shallowCopy(container);
    owned.add(copy);
    return copy;
  };
  const top = writable(root);
  let parent = top;
  path.forEach((seg, i) => {
    const last = i === path.length - 1;
    if (typeof seg === "number") {
      const list = parent as JsonValue[];
      const next = last ? node : writable(list[seg] as JsonValue);
      list[seg] = next;
      parent = next;
    } else {
      const key = typeof seg === "string" ? seg : seg.key;
      const obj = parent as JsonObject;
      const next = last ? node : writable(getKey(obj, key) as JsonValue);
      setKey(obj, key, next);
      parent = next;
    }
  });
  return top;
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
      result.notes.push({ path: formatPath(path), pointer: toJsonPointer(path), union: union.origin, message });
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
