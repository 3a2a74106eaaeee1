import type { SchemaNode, Union } from "../schema/index.js";

/**
 * A schema reduced to the branches that lead to a union, compiled once per
 * schema node and cached: normalizing or validating an object then touches
 * only the fields that can hold a union, never the rest of a 2 MB CRD.
 */
export interface Plan {
  unions: readonly Union[];
  properties: ReadonlyArray<readonly [string, Plan]>;
  items?: Plan;
  listMapKeys?: readonly string[];
  values?: Plan;
}

const cache = new WeakMap<SchemaNode, Plan | null>();

/** The plan of a schema, or null when no union is reachable from it. */
export function planFor(root: SchemaNode): Plan | null {
  const cached = cache.get(root);
  if (cached !== undefined) return cached;
  // Two passes so that recursive schemas (SMD named types) terminate: build a
  // draft for every reachable node, then keep the drafts that reach a union.
  const drafts = new Map<SchemaNode, Draft>();
  const pending: SchemaNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop() as SchemaNode;
    if (drafts.has(node)) continue;
    const children: Array<[Edge, SchemaNode]> = [];
    for (const [name, child] of Object.entries(node.properties ?? {})) children.push([{ property: name }, child]);
    if (node.items) children.push([{ items: true }, node.items]);
    if (node.additionalProperties) children.push([{ values: true }, node.additionalProperties]);
    drafts.set(node, { node, children, reaches: (node.unions?.length ?? 0) > 0 });
    for (const [, child] of children) pending.push(child);
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const draft of drafts.values()) {
      if (!draft.reaches && draft.children.some(([, c]) => drafts.get(c)?.reaches)) {
        draft.reaches = true;
        changed = true;
      }
    }
  }
  const plans = new Map<SchemaNode, Plan>();
  for (const [node, draft] of drafts) {
    if (draft.reaches) plans.set(node, { unions: node.unions ?? [], properties: [] });
  }
  for (const [node, plan] of plans) {
    const mutable = plan as { -readonly [K in keyof Plan]: Plan[K] };
    const props: Array<[string, Plan]> = [];
    for (const [edge, child] of (drafts.get(node) as Draft).children) {
      const childPlan = plans.get(child);
      if (!childPlan) continue;
      if ("property" in edge) props.push([edge.property, childPlan]);
      else if ("items" in edge) {
        mutable.items = childPlan;
        if (node.listMapKeys && node.listMapKeys.length > 0) mutable.listMapKeys = node.listMapKeys;
      } else mutable.values = childPlan;
    }
    mutable.properties = props;
  }
  const result = plans.get(root) ?? null;
  cache.set(root, result);
  return result;
}

type Edge = { property: string } | { items: true } | { values: true };
interface Draft {
  node: SchemaNode;
  children: Array<[Edge, SchemaNode]>;
  reaches: boolean;
}
