/**
 * rbac.authorization.k8s.io/v1 (pkg/apis/rbac/validation/validation.go):
 * ValidatePolicyRule for Roles and ClusterRoles (verbs required; resource
 * rules name groups and resources; non-resource URLs only cluster-wide),
 * a ClusterRole's aggregation rule, and ValidateRoleBinding's reference and
 * subjects. An empty apiGroup is defaulted (rbac/v1 defaults.go) first.
 */
import type { Finding } from "../../findings/index.js";
import { isDNS1123Subdomain, isValidPathSegmentName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  invalid,
  invalidEach,
  labelSelectorAsSelector,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  required,
  requiredIfEmpty,
  stringAt,
  validateLabelSelector,
  zeroIfAbsent,
} from "./common.js";

const group = "rbac.authorization.k8s.io";

function validatePolicyRule(rule: JsonObject, namespaced: boolean, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  // absent or empty alike (a nil slice); a value of another type is the schema's
  const verbs = getKey(rule, "verbs");
  if ((verbs === undefined || verbs === null || Array.isArray(verbs)) && listAt(rule, "verbs").length === 0)
    out.push(required(child(at, "verbs"), "verbs must contain at least one value", asError));
  const urls = listAt(rule, "nonResourceURLs");
  if (urls.length > 0) {
    const value = getKey(rule, "nonResourceURLs");
    if (namespaced)
      out.push(
        invalid(child(at, "nonResourceURLs"), value, "namespaced rules cannot apply to non-resource URLs", asError),
      );
    if (
      listAt(rule, "apiGroups").length > 0 ||
      listAt(rule, "resources").length > 0 ||
      listAt(rule, "resourceNames").length > 0
    )
      out.push(
        invalid(
          child(at, "nonResourceURLs"),
          value,
          "rules cannot apply to both regular resources and non-resource URLs",
          asError,
        ),
      );
    return out;
  }
  if (listAt(rule, "apiGroups").length === 0)
    out.push(required(child(at, "apiGroups"), "resource rules must supply at least one api group", asError));
  if (listAt(rule, "resources").length === 0)
    out.push(required(child(at, "resources"), "resource rules must supply at least one resource", asError));
  return out;
}

export function validateRole(object: JsonObject): Finding[] {
  return objectItems(object, "rules").flatMap(([i, rule]) => validatePolicyRule(rule, true, ["rules", i]));
}

export function validateClusterRole(object: JsonObject): Finding[] {
  const out = objectItems(object, "rules").flatMap(([i, rule]) => validatePolicyRule(rule, false, ["rules", i]));
  const aggregation = objectAt(object, "aggregationRule");
  if (aggregation !== undefined) {
    const at = ["aggregationRule", "clusterRoleSelectors"];
    if (listAt(aggregation, "clusterRoleSelectors").length === 0)
      out.push(required(at, "at least one clusterRoleSelector required if aggregationRule is non-nil", asError));
    for (const [i, selector] of objectItems(aggregation, "clusterRoleSelectors")) {
      out.push(...validateLabelSelector(selector, child(at, i)));
      if (labelSelectorAsSelector(selector) === undefined)
        out.push(invalid(child(at, i), selector, "invalid label selector.", asError));
    }
  }
  return out;
}

function validateBinding(object: JsonObject, roleKinds: readonly string[], namespaced: boolean): Finding[] {
  const out: Finding[] = [];
  // left out, the zero reference (its apiGroup defaulted)
  const roleRef = zeroIfAbsent(object, "roleRef");
  if (roleRef !== undefined) {
    const apiGroup = stringAt(roleRef, "apiGroup") || group;
    if (apiGroup !== group) out.push(notSupported(["roleRef", "apiGroup"], apiGroup, [group], asError));
    const kind = stringAt(roleRef, "kind");
    if (kind !== undefined && !roleKinds.includes(kind))
      out.push(notSupported(["roleRef", "kind"], kind, roleKinds, asError));
    const name = stringAt(roleRef, "name");
    if (name === "") out.push(required(["roleRef", "name"], "", asError));
    else if (name !== undefined)
      out.push(...invalidEach(["roleRef", "name"], name, isValidPathSegmentName(name, false)));
  }
  for (const [i, subject] of objectItems(object, "subjects"))
    out.push(...validateSubject(subject, namespaced, ["subjects", i]));
  return out;
}

/** ValidateRoleBindingSubject. */
function validateSubject(subject: JsonObject, namespaced: boolean, at: FieldPath): Finding[] {
  const out = requiredIfEmpty(subject, "name", at);
  const name = stringAt(subject, "name") ?? "";
  const apiGroup = stringAt(subject, "apiGroup") ?? "";
  const kind = stringAt(subject, "kind");
  switch (kind) {
    case "ServiceAccount":
      if (name !== "") out.push(...invalidEach(child(at, "name"), name, isDNS1123Subdomain(name)));
      if (apiGroup !== "") out.push(notSupported(child(at, "apiGroup"), apiGroup, [""], asError));
      if (!namespaced && stringAt(subject, "namespace") === "") out.push(required(child(at, "namespace"), "", asError));
      break;
    case "User":
    case "Group":
      if ((apiGroup || group) !== group) out.push(notSupported(child(at, "apiGroup"), apiGroup, [group], asError));
      break;
    case undefined:
      break;
    default:
      out.push(notSupported(child(at, "kind"), kind, ["ServiceAccount", "User", "Group"], asError));
  }
  return out;
}

export const validateRoleBinding = (object: JsonObject) => validateBinding(object, ["Role", "ClusterRole"], true);
export const validateClusterRoleBinding = (object: JsonObject) => validateBinding(object, ["ClusterRole"], false);
