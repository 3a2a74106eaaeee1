/**
 * policy/v1 PodDisruptionBudgets (pkg/apis/policy/validation/validation.go
 * ValidatePodDisruptionBudgetSpec): minAvailable and maxUnavailable are
 * exclusive, each a non-negative count or a percentage up to 100%.
 */
import type { Finding } from "../../findings/index.js";
import { child } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import { notMoreThan100Percent, positiveIntOrPercent } from "./apps.js";
import { asError, invalid, isSet, notSupported, objectAt, setStringAt, validateLabelSelector } from "./common.js";

export function validatePodDisruptionBudget(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const spec = ["spec"];
  const out: Finding[] = [];
  if (isSet(s, "minAvailable") && isSet(s, "maxUnavailable"))
    out.push(invalid(spec, s, "minAvailable and maxUnavailable cannot be both set", asError));
  for (const key of ["minAvailable", "maxUnavailable"]) {
    const value = getKey(s, key);
    if (value === undefined || value === null) continue;
    out.push(...positiveIntOrPercent(value, child(spec, key)), ...notMoreThan100Percent(value, child(spec, key)));
  }
  out.push(...validateLabelSelector(objectAt(s, "selector"), child(spec, "selector")));
  out.push(...validateUnhealthyPodEvictionPolicy(s));
  return out;
}

/**
 * ValidatePodDisruptionBudgetSpec's last rule: a set `unhealthyPodEvictionPolicy` (even "") is one of the
 * supported policies, listed sorted.
 */
function validateUnhealthyPodEvictionPolicy(s: JsonObject): Finding[] {
  const value = setStringAt(s, "unhealthyPodEvictionPolicy");
  const supported = ["AlwaysAllow", "IfHealthyBudget"];
  if (value === undefined || supported.includes(value)) return [];
  return [notSupported(["spec", "unhealthyPodEvictionPolicy"], value, supported, asError)];
}
