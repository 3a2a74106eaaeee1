import { child, type FieldPath } from "../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import type { Plan } from "./plan.js";

/**
 * Visits every object of `root` that carries unions, with the matching nodes
 * of other revisions (`counterparts`: the old object, the applied config).
 * Counterparts are matched as unions.md §3 says: list items by their
 * `x-kubernetes-list-map-keys` when the list has them, otherwise by index; map
 * entries by key. The visitor runs before the walk descends, so a member it
 * clears is not walked. Iterative: deep objects cannot overflow the stack.
 */
export type UnionVisitor = (
  node: JsonObject,
  counterparts: ReadonlyArray<JsonObject | undefined>,
  plan: Plan,
  path: FieldPath,
) => void;

interface Frame {
  plan: Plan;
  value: JsonValue;
  others: ReadonlyArray<JsonValue | undefined>;
  path: FieldPath;
}

export function walkUnions(
  plan: Plan,
  root: JsonValue,
  others: ReadonlyArray<JsonValue | undefined>,
  visit: UnionVisitor,
): void {
  const stack: Frame[] = [{ plan, value: root, others, path: [] }];
  while (stack.length > 0) {
    const { plan: p, value, others: o, path } = stack.pop() as Frame;
    const next: Frame[] = [];
    if (isObject(value)) {
      const counterparts = o.map((x) => (isObject(x) ? x : undefined));
      if (p.unions.length > 0) visit(value, counterparts, p, path);
      for (const [name, childPlan] of p.properties) {
        const v = getKey(value, name);
        if (v === undefined || v === null) continue;
        next.push({
          plan: childPlan,
          value: v,
          others: counterparts.map((c) => (c ? getKey(c, name) : undefined)),
          path: child(path, name),
        });
      }
      if (p.values) {
        for (const key of Object.keys(value)) {
          next.push({
            plan: p.values,
            value: value[key] as JsonValue,
            others: counterparts.map((c) => (c ? getKey(c, key) : undefined)),
            path: child(path, { key }),
          });
        }
      }
    } else if (Array.isArray(value) && p.items) {
      const items = p.items;
      const keys = p.listMapKeys;
      const lists = o.map((x) => (Array.isArray(x) ? x : undefined));
      value.forEach((item, i) => {
        next.push({
          plan: items,
          value: item,
          others: lists.map((list) => (list ? matchItem(list, item, i, keys) : undefined)),
          path: child(path, i),
        });
      });
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as Frame);
  }
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
  return list.find((candidate) => isObject(candidate) && keys.every((k) => sameKey(candidate, item, k)));
}

function sameKey(a: JsonObject, b: JsonObject, key: string): boolean {
  return getKey(a, key) === getKey(b, key);
}
