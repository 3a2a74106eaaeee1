import { type FieldPath, schemaProperty } from "../path/index.js";
import { propertyOf, type SchemaNode } from "../schema/index.js";
import { deepEqual, getKey, isObject, type JsonObject } from "../value/index.js";
import type { NodeHit, NodePair, RuleDescriptor } from "./rule.js";
import { typeOf } from "./rules/keywords.js";

/** Deeper than any real schema (the API server caps CRD nesting well below); the walk stops there. */
export const maxDepth = 256;
/** Node pairs compared per version at most: a bound on YAML-alias blow-ups. */
const maxPairs = 200_000;

export interface SchemaSide {
  json: JsonObject;
  path: FieldPath;
  node: SchemaNode | undefined;
}

export interface WalkResult {
  hits: NodeHit[];
  /** The walk stopped early (depth or size limit). */
  truncated: boolean;
}

const star = { key: "*" } as const;
const junctors = ["allOf", "anyOf", "oneOf"] as const;

/**
 * Runs every per-node rule over the nodes present in both schemas, breadth
 * first and without recursion. Only shared properties are entered: a removed
 * field is reported once (by `field-removed` on its parent), and a node whose
 * type changed is reported once (by `type-changed`) and not entered.
 */
export function walkSchemas(
  version: string,
  from: SchemaSide,
  to: SchemaSide,
  rules: readonly RuleDescriptor[],
): WalkResult {
  const hits: NodeHit[] = [];
  const typeRule = rules.find((r) => r.id === "type-changed");
  const seen = new Map<JsonObject, Set<JsonObject>>();
  const queue: Array<NodePair & { depth: number }> = [
    {
      version,
      data: [],
      old: from.json,
      new: to.json,
      oldPath: from.path,
      newPath: to.path,
      oldNode: from.node,
      newNode: to.node,
      junctor: false,
      depth: 0,
    },
  ];
  let truncated = false;
  for (let i = 0; i < queue.length; i++) {
    const pair = queue[i]!;
    const again = seen.get(pair.old);
    if (again?.has(pair.new)) continue;
    if (again) again.add(pair.new);
    else seen.set(pair.old, new Set([pair.new]));

    if (typeOf(pair.old) !== typeOf(pair.new) && !pair.junctor) {
      // One finding for the node; its keywords and children are not compared across types.
      if (typeRule?.node) for (const hit of typeRule.node(pair)) hits.push({ rule: typeRule, hit });
      continue;
    }
    for (const rule of rules) {
      if (!rule.node || (pair.junctor && !rule.inJunctors)) continue;
      for (const hit of rule.node(pair)) hits.push({ rule, hit });
    }
    if (pair.depth >= maxDepth || queue.length > maxPairs) {
      // Only a difference below the cut goes unreported.
      truncated ||= hasChildren(pair.old) && hasChildren(pair.new) && !deepEqual(pair.old, pair.new);
      continue;
    }
    const push = (
      oldJson: JsonObject,
      newJson: JsonObject,
      step: FieldPath,
      data: FieldPath,
      oldNode: SchemaNode | undefined,
      newNode: SchemaNode | undefined,
      junctor = pair.junctor,
    ) =>
      queue.push({
        version,
        data,
        old: oldJson,
        new: newJson,
        oldPath: [...pair.oldPath, ...step],
        newPath: [...pair.newPath, ...step],
        oldNode,
        newNode,
        junctor,
        depth: pair.depth + 1,
      });
    const oldProps = getKey(pair.old, "properties");
    const newProps = getKey(pair.new, "properties");
    if (isObject(oldProps) && isObject(newProps)) {
      for (const key of Object.keys(oldProps)) {
        const o = getKey(oldProps, key);
        const n = getKey(newProps, key);
        if (isObject(o) && isObject(n)) {
          const on = propertyOf(pair.oldNode, key);
          const nn = propertyOf(pair.newNode, key);
          push(o, n, schemaProperty(key), [...pair.data, key], on, nn);
        }
      }
    }
    for (const kw of ["items", "additionalProperties"] as const) {
      const o = getKey(pair.old, kw);
      const n = getKey(pair.new, kw);
      if (isObject(o) && isObject(n)) push(o, n, [kw], [...pair.data, star], pair.oldNode?.[kw], pair.newNode?.[kw]);
    }
    // Branches of allOf/anyOf/oneOf are compared by position when their number is unchanged
    // (a changed number of branches is reported by validation-rule-changed).
    for (const kw of junctors) {
      const o = getKey(pair.old, kw);
      const n = getKey(pair.new, kw);
      if (!Array.isArray(o) || !Array.isArray(n) || o.length !== n.length) continue;
      o.forEach((ob, k) => {
        const nb = n[k];
        if (isObject(ob) && isObject(nb)) push(ob, nb, [kw, k], pair.data, undefined, undefined, true);
      });
    }
    // `not` inverts its branch (a tighter branch is a looser schema): validation-rule-changed reports it whole.
  }
  return { hits, truncated };
}

function hasChildren(json: JsonObject): boolean {
  return ["properties", "items", "additionalProperties"].some((k) => isObject(getKey(json, k)));
}
