import type { FieldPath, PathSegment } from "../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import type { Plan } from "./plan.js";

/**
 * Visits every object of `root` that carries unions, with the matching node
 * of another revision (`counterpart`: the old object on update, the applied
 * configuration on apply). Counterparts are matched as unions.md §3 says: list
 * items by their `x-kubernetes-list-map-keys` when the list has them,
 * otherwise by index; map entries by key. The visitor runs before the walk
 * descends and may return a replacement node to descend into (normalization's
 * edited copy), so a member it clears is not walked.
 */
export type UnionVisitor = (
  node: JsonObject,
  counterpart: JsonObject | undefined,
  plan: Plan,
  /** The node's path, built on demand: most visits report nothing. */
  path: () => FieldPath,
) => JsonObject | undefined;

/** Paths are built only for nodes that are visited: a linked list until then. */
interface PathLink {
  parent: PathLink | undefined;
  segment: PathSegment;
}

function pathOf(link: PathLink | undefined): PathSegment[] {
  const out: PathSegment[] = [];
  for (let l = link; l; l = l.parent) out.push(l.segment);
  return out.reverse();
}

/**
 * Deeper than this the walk stops: the source refuses documents nested past
 * 512 levels, and a recursive schema (SMD named types) could otherwise follow
 * an API caller's object down until the stack runs out.
 */
export const maxWalkDepth = 1000;

export function walkUnions(plan: Plan, root: JsonValue, counterpart: JsonValue | undefined, visit: UnionVisitor): void {
  const walk = (
    p: Plan,
    original: JsonValue,
    other: JsonValue | undefined,
    link: PathLink | undefined,
    depth: number,
  ) => {
    if (depth > maxWalkDepth) return;
    if (isObject(original)) {
      const otherObject = isObject(other) ? other : undefined;
      const value = (p.unions.length > 0 ? visit(original, otherObject, p, () => pathOf(link)) : undefined) ?? original;
      for (const [name, childPlan] of p.properties) {
        const v = getKey(value, name);
        if (typeof v !== "object" || v === null) continue;
        const o = otherObject && getKey(otherObject, name);
        walk(childPlan, v, o, { parent: link, segment: name }, depth + 1);
      }
      if (p.values) {
        for (const key of Object.keys(value)) {
          const o = otherObject && getKey(otherObject, key);
          walk(p.values, value[key] as JsonValue, o, { parent: link, segment: { key } }, depth + 1);
        }
      }
    } else if (Array.isArray(original) && p.items) {
      const otherList = Array.isArray(other) ? other : undefined;
      for (let i = 0; i < original.length; i++) {
        const item = original[i] as JsonValue;
        const o = otherList && matchItem(otherList, item, i, p.listMapKeys);
        walk(p.items, item, o, { parent: link, segment: i }, depth + 1);
      }
    }
  };
  walk(plan, root, counterpart, undefined, 0);
}

/** The item of `list` that corresponds to `item` at index `i` of the other revision. */
export function matchItem(
  list: readonly JsonValue[],
  item: JsonValue,
  i: number,
  keys: readonly string[] | undefined,
): JsonValue | undefined {
  if (!keys) return list[i];
  if (!isObject(item)) return undefined;
  // Lists are short and usually in the same order: try the same index first.
  const same = list[i];
  if (same !== undefined && sameKeys(same, item, keys)) return same;
  for (const candidate of list) if (sameKeys(candidate, item, keys)) return candidate;
  return undefined;
}

function sameKeys(candidate: JsonValue, item: JsonObject, keys: readonly string[]): boolean {
  if (!isObject(candidate)) return false;
  for (const k of keys) if (getKey(candidate, k) !== getKey(item, k)) return false;
  return true;
}
