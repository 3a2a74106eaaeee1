import { type Finding, invalid, type Severity } from "../findings/index.js";
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
import { maxDepth } from "./compile.js";
import { unknownFieldAtLoc } from "./metadata.js";
import { childLoc, type Loc, type Node, toPath } from "./types.js";

/**
 * What the API server does to an object before validating it, in one pass:
 * - structural defaulting (apiextensions' structuraldefaulting): a property
 *   that is absent — or null while not nullable — gets its `default`
 *   (deep-copied, then defaulted further); defaults of `items` and
 *   `additionalProperties` apply per element;
 * - a null for a non-nullable property or map value without a default is
 *   dropped (PruneNonNullableNullsWithoutDefaults), with a warning; null
 *   list items stay and fail type validation;
 * - pruning: fields the schema does not know are dropped (apiextensions'
 *   pruning), except under x-kubernetes-preserve-unknown-fields and the
 *   apiVersion/kind/metadata of resources. kubectl's strict field
 *   validation reports each as `unknown field "spec.foo"`.
 * Returns the defaulted object with unknown fields kept (what the user
 * wrote, completed) and the pruned one (what the server validates).
 * Copy-on-write: the input is never mutated, unchanged subtrees are shared.
 */
export interface Prepared {
  defaulted: JsonValue;
  pruned: JsonValue;
}

export interface PrepareOptions {
  /** Where warnings and unknown fields go; undefined to collect nothing (the old object). */
  findings: Finding[] | undefined;
  /** Severity of unknown fields, undefined to ignore them. */
  unknown: Severity | undefined;
}

/** The object root: apiVersion, kind and metadata are its own. */
export const ROOT = 1;
/** A resource's metadata: ObjectMeta, whose fields metadata.ts checks. */
export const META = 2;
/** Items of a list under x-kubernetes-preserve-unknown-fields keep unknown fields (apiextensions' skipPrune). */
export const PRESERVE = 4;
export const metaFields = new Set(["apiVersion", "kind", "metadata"]);

export function prepare(node: Node, value: JsonValue, options: PrepareOptions): Prepared {
  const changed = walk(node, value, undefined, options, 0, ROOT);
  return changed ? { defaulted: changed[0], pruned: changed[1] } : { defaulted: value, pruned: value };
}

const dropped = (loc: Loc) =>
  invalid(toPath(loc), null, "the field is not nullable: the API server drops the null", { severity: "warning" });

/** A changed node's two forms; `undefined` from a walk means "both are the input": no allocation for the common case. */
type Pair = [defaulted: JsonValue, pruned: JsonValue];

function walk(
  node: Node,
  value: JsonValue,
  loc: Loc | undefined,
  opts: PrepareOptions,
  depth: number,
  flags: number,
): Pair | undefined {
  if (depth > maxDepth) return undefined;
  if (Array.isArray(value)) return list(node, value, loc, opts, depth, flags);
  if (!isObject(value)) return undefined;
  const track = opts.findings !== undefined;
  let full: JsonObject | undefined;
  let pruned: JsonObject | undefined;
  for (const [name, child] of node.defaulted ?? []) {
    const v = getKey(value, name);
    if (v === undefined || (v === null && !child.nullable)) {
      full ??= shallowCopy(value);
      setKey(full, name, clone(child.default as JsonValue));
    }
  }
  const src = full ?? value;
  const resource = flags & ROOT || node.embedded;
  const open = node.preserveUnknown || node.additionalAllowed || flags & (PRESERVE | META);
  for (const key of Object.keys(src)) {
    const v = getKey(src, key) as JsonValue;
    const prop = node.properties?.get(key);
    const child = prop ?? node.additional;
    if (!child) {
      if (open || (resource && metaFields.has(key))) continue;
      if (opts.unknown && opts.findings) opts.findings.push(unknownFieldAtLoc(childLoc(loc, key), opts.unknown));
      pruned ??= shallowCopy(src);
      deleteKey(pruned, key);
      continue;
    }
    let next = v;
    if (v === null && !child.nullable) {
      if (child.hasDefault) next = clone(child.default as JsonValue);
      else {
        full ??= shallowCopy(value);
        deleteKey(full, key);
        pruned ??= shallowCopy(src);
        deleteKey(pruned, key);
        if (track) opts.findings?.push(dropped(childLoc(loc, prop ? key : { key })));
        continue;
      }
    }
    // A scalar holds no defaults and no unknown fields: nothing below it to walk.
    const changed =
      typeof next === "object" && next !== null
        ? walk(
            child,
            next,
            track ? childLoc(loc, prop ? key : { key }) : undefined,
            opts,
            depth + 1,
            flagsOf(prop, resource, key),
          )
        : undefined;
    const [d, p] = changed ?? [next, next];
    if (d !== v) {
      full ??= shallowCopy(value);
      setKey(full, key, d);
    }
    if (p !== v) {
      pruned ??= shallowCopy(src);
      setKey(pruned, key, p);
    }
  }
  if (!full && !pruned) return undefined;
  // A child's pruned form includes its defaults, so `pruned` has every default `full` has.
  const defaulted = full ?? value;
  return [defaulted, pruned ?? defaulted];
}

const flagsOf = (prop: Node | undefined, resource: unknown, key: string) =>
  prop && resource && key === "metadata" ? META : 0;

function list(
  node: Node,
  value: JsonValue[],
  loc: Loc | undefined,
  opts: PrepareOptions,
  depth: number,
  flags: number,
): Pair | undefined {
  const items = node.items;
  if (!items) return undefined;
  const inherit = node.preserveUnknown || flags & PRESERVE ? PRESERVE : 0;
  let full: JsonValue[] | undefined;
  let pruned: JsonValue[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const v = value[i] as JsonValue;
    let next = v;
    if (v === null && !items.nullable && items.hasDefault) next = clone(items.default as JsonValue);
    const changed =
      typeof next === "object" && next !== null
        ? walk(items, next, opts.findings ? childLoc(loc, i) : undefined, opts, depth + 1, inherit)
        : undefined;
    const [d, p] = changed ?? [next, next];
    if (d !== v) {
      full ??= value.slice();
      full[i] = d;
    }
    if (p !== v) {
      pruned ??= value.slice();
      pruned[i] = p;
    }
  }
  if (!full && !pruned) return undefined;
  // Where an item was defaulted, its pruned form carries the defaults too.
  const defaulted = full ?? value;
  return [defaulted, pruned ?? defaulted];
}
