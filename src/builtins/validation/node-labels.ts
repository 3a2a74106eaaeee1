/**
 * What the API server's warnings say of node labels Kubernetes deprecated (pkg/api/node/util.go), shared by
 * the kinds that select nodes: pods and their templates, RuntimeClasses, and the storage kinds' topologies.
 */
import type { Finding } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { objectItems, stringAt, warningAt } from "./common.js";

/** pkg/api/node/util.go deprecatedNodeLabels: a node label and what to say about using it. */
export const deprecatedNodeLabels: ReadonlyMap<string, string> = new Map([
  ["beta.kubernetes.io/arch", 'deprecated since v1.14; use "kubernetes.io/arch" instead'],
  ["beta.kubernetes.io/os", 'deprecated since v1.14; use "kubernetes.io/os" instead'],
  ["failure-domain.beta.kubernetes.io/region", 'deprecated since v1.17; use "topology.kubernetes.io/region" instead'],
  ["failure-domain.beta.kubernetes.io/zone", 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead'],
  ["beta.kubernetes.io/instance-type", 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead'],
  ["app.kubernetes.io/created-by", "deprecated since v1.9"],
  ["scheduler.alpha.kubernetes.io/preferAvoidPods", "deprecated since v1.22; use Taints and Tolerations instead"],
  ["node-role.kubernetes.io/master", 'use "node-role.kubernetes.io/control-plane" instead'],
]);

/** GetWarningsForNodeSelectorTerm: its match expressions on deprecated node labels. */
export function nodeSelectorTermWarnings(term: JsonObject | undefined, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  for (const [i, expression] of objectItems(term, "matchExpressions")) {
    const key = stringAt(expression, "key") ?? "";
    const text = deprecatedNodeLabels.get(key);
    if (text !== undefined) out.push(warningAt(child(at, "matchExpressions", i, "key"), `${key} is ${text}`));
  }
  return out;
}

/** A warning whose text is whole (no field path before it), placed at the field it is about. */
export function wholeWarning(at: FieldPath, text: string): Finding {
  return { ...warningAt(at, text), message: text };
}
