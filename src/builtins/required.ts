/**
 * Properties Kubernetes' OpenAPI marks required that the API server accepts absent. The published `required`
 * lists come from Go struct fields without `omitempty` or `+optional`; Go decodes an absent one as its zero
 * value, and only hand-written validation refuses it, where it does. Where it does not, kunion must not either:
 * these are left out of the required lists of every table (the generated ones and a cluster's own documents),
 * with those whose absence the hand-written rules report in the server's words (`reportedByHand`).
 * Each entry names the Go type (its OpenAPI definition's last segment, as both tables' names end: the
 * generator's `V1LimitRangeSpec`, a document's `io.k8s.api.core.v1.LimitRangeSpec`), the field, and the
 * validation function that lets it pass.
 */

import type { NotEnforced } from "./not-enforced.js";
import { coreNotEnforced, coreReportedByHand } from "./required-core.js";
import { groupsNotEnforced, groupsReportedByHand } from "./required-groups.js";

export type { NotEnforced } from "./not-enforced.js";

/**
 * Required fields whose absence the server refuses in its own words, which the hand-written rules
 * (validation/) give for an absent field as for Go's zero value: left out of the required lists too, so that
 * only those words are said.
 */
export const reportedByHand: readonly NotEnforced[] = [...coreReportedByHand, ...groupsReportedByHand];

const notEnforced = new Set(
  [...coreNotEnforced, ...groupsNotEnforced, ...reportedByHand].map((e) => `${e.type}.${e.field}`),
);

/** The Go type a table's definition name stands for: `V1LimitRangeSpec`, `io.k8s.api.core.v1.LimitRangeSpec` → `LimitRangeSpec`. */
export function goTypeOf(definition: string): string {
  const last = definition.slice(definition.lastIndexOf(".") + 1);
  return last.replace(/^(?:[A-Z][a-z]+)*V\d+(?:(?:alpha|beta)\d+)?(?=[A-Z])/, "");
}

/** `required` of definition `definition` less what the API server does not enforce. */
export const enforcedRequired = (definition: string, required: readonly string[]): string[] => {
  const type = goTypeOf(definition);
  return required.filter((field) => !notEnforced.has(`${type}.${field}`));
};
