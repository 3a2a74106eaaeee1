/**
 * A PodSpec's scheduling fields, as pkg/apis/core/validation ValidatePodSpec
 * checks them: `nodeSelector` (its ValidateLabels call), `affinity`
 * (validateAffinity and what it calls), `topologySpreadConstraints`
 * (validateTopologySpreadConstraints), `priorityClassName`, and tolerations
 * (ValidateTolerations, which RuntimeClasses and the tolerations annotation use too). The options
 * are those of a create (GetValidationOptionsFromPodSpecAndMeta without an
 * old pod): label values in selectors and required node affinity are
 * checked strictly.
 *
 * On create the Pod strategy merges `matchLabelKeys` into the label
 * selector before validating (MatchLabelKeysInPodAffinity, and in 1.36
 * MatchLabelKeysInPodTopologySpreadSelectorMerge): the rule that a key may
 * not be in both is applied here to the selector as written, as for a pod
 * template, which finds a subset of what it finds for a Pod.
 */
import type { Finding } from "../../findings/index.js";
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  forbidden,
  intAt,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  oneOf,
  optionalIntAt,
  required,
  requiredIfEmpty,
  stringAt,
  stringMapAt,
  validateLabelSelector,
  validateLabels,
} from "./common.js";
import { setOneOf } from "./security.js";

/** The scheduling checks of ValidatePodSpec at `path` (`spec`, `spec.template.spec`, …). */
export function validatePodScheduling(spec: JsonObject, path: FieldPath): Finding[] {
  const out = validateLabels(stringMapAt(spec, "nodeSelector"), child(path, "nodeSelector"));
  const affinity = objectAt(spec, "affinity");
  if (affinity !== undefined) out.push(...validateAffinity(affinity, child(path, "affinity")));
  out.push(...validateTopologySpreadConstraints(spec, child(path, "topologySpreadConstraints")));
  const priorityClassName = stringAt(spec, "priorityClassName");
  if (priorityClassName)
    out.push(
      ...invalidEach(child(path, "priorityClassName"), priorityClassName, isDNS1123Subdomain(priorityClassName)),
    );
  return out;
}

/** validateAffinity. */
function validateAffinity(affinity: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const node = objectAt(affinity, "nodeAffinity");
  if (node !== undefined) out.push(...validateNodeAffinity(node, child(path, "nodeAffinity")));
  for (const key of ["podAffinity", "podAntiAffinity"]) {
    const pod = objectAt(affinity, key);
    if (pod !== undefined) out.push(...validatePodAffinity(pod, child(path, key)));
  }
  return out;
}

/** validateNodeAffinity. */
function validateNodeAffinity(affinity: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const requiredTerms = objectAt(affinity, "requiredDuringSchedulingIgnoredDuringExecution");
  if (requiredTerms !== undefined)
    out.push(...validateNodeSelector(requiredTerms, child(path, "requiredDuringSchedulingIgnoredDuringExecution")));
  // ValidatePreferredSchedulingTerms: label values are not checked in preferences.
  const preferredPath = child(path, "preferredDuringSchedulingIgnoredDuringExecution");
  for (const [i, term] of objectItems(affinity, "preferredDuringSchedulingIgnoredDuringExecution")) {
    out.push(...validateWeight(term, child(preferredPath, i)));
    const preference = objectAt(term, "preference");
    if (preference !== undefined)
      out.push(...validateNodeSelectorTerm(preference, false, child(preferredPath, i, "preference")));
  }
  return out;
}

/** ValidateNodeSelector, of a required node affinity. */
export function validateNodeSelector(selector: JsonObject, path: FieldPath): Finding[] {
  const termsPath = child(path, "nodeSelectorTerms");
  if (isSet(selector, "nodeSelectorTerms") && listAt(selector, "nodeSelectorTerms").length === 0)
    return [required(termsPath, "must have at least one node selector term", asError)];
  return objectItems(selector, "nodeSelectorTerms").flatMap(([i, term]) =>
    validateNodeSelectorTerm(term, true, child(termsPath, i)),
  );
}

/** ValidateNodeSelectorTerm. */
function validateNodeSelectorTerm(term: JsonObject, checkValues: boolean, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  for (const [j, req] of objectItems(term, "matchExpressions"))
    out.push(...validateNodeSelectorRequirement(req, checkValues, child(path, "matchExpressions", j)));
  for (const [j, req] of objectItems(term, "matchFields"))
    out.push(...validateNodeFieldSelectorRequirement(req, child(path, "matchFields", j)));
  return out;
}

/** ValidateNodeSelectorRequirement. An absent key or operator is "", refused as written empty. */
function validateNodeSelectorRequirement(req: JsonObject, checkValues: boolean, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const values = listAt(req, "values");
  const operator = stringAt(req, "operator");
  const valuesPath = child(path, "values");
  switch (operator) {
    case "In":
    case "NotIn":
      if (values.length === 0)
        out.push(required(valuesPath, "must be specified when `operator` is 'In' or 'NotIn'", asError));
      break;
    case "Exists":
    case "DoesNotExist":
      if (values.length > 0)
        out.push(forbidden(valuesPath, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", asError));
      break;
    case "Gt":
    case "Lt":
      if (values.length !== 1)
        out.push(required(valuesPath, "must be specified single value when `operator` is 'Lt' or 'Gt'", asError));
      break;
    case undefined:
      break;
    default:
      out.push(invalid(child(path, "operator"), operator, "not a valid selector operator", asError));
  }
  const key = stringAt(req, "key");
  if (key !== undefined) out.push(...invalidEach(child(path, "key"), key, isQualifiedName(key)));
  if (checkValues)
    values.forEach((v, j) => {
      if (typeof v === "string") out.push(...invalidEach(child(valuesPath, j), v, isValidLabelValue(v)));
    });
  return out;
}

/** ValidateNodeFieldSelectorRequirement: `metadata.name` is the only field a node can be selected by. */
function validateNodeFieldSelectorRequirement(req: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const values = listAt(req, "values");
  const operator = stringAt(req, "operator");
  if (operator === "In" || operator === "NotIn") {
    if (values.length !== 1)
      out.push(
        required(
          child(path, "values"),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
          asError,
        ),
      );
  } else if (operator !== undefined)
    out.push(invalid(child(path, "operator"), operator, "not a valid selector operator", asError));
  const key = stringAt(req, "key");
  if (key === "metadata.name")
    values.forEach((v, i) => {
      if (typeof v === "string") out.push(...invalidEach(child(path, "values", i), v, isDNS1123Subdomain(v)));
    });
  else if (key !== undefined) out.push(invalid(child(path, "key"), key, "not a valid field selector key", asError));
  return out;
}

/** The weight of a preferred term (an absent one is 0). */
function validateWeight(term: JsonObject, path: FieldPath): Finding[] {
  const weight = intAt(term, "weight");
  return weight !== undefined && (weight <= 0 || weight > 100)
    ? [invalid(child(path, "weight"), weight, "must be in the range 1-100", asError)]
    : [];
}

/** validatePodAffinity and validatePodAntiAffinity, which check the same. */
function validatePodAffinity(affinity: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const requiredPath = child(path, "requiredDuringSchedulingIgnoredDuringExecution");
  for (const [i, term] of objectItems(affinity, "requiredDuringSchedulingIgnoredDuringExecution"))
    out.push(...validatePodAffinityTerm(term, child(requiredPath, i)));
  // validateWeightedPodAffinityTerms.
  const preferredPath = child(path, "preferredDuringSchedulingIgnoredDuringExecution");
  for (const [i, weighted] of objectItems(affinity, "preferredDuringSchedulingIgnoredDuringExecution")) {
    out.push(...validateWeight(weighted, child(preferredPath, i)));
    const term = objectAt(weighted, "podAffinityTerm");
    if (term !== undefined) out.push(...validatePodAffinityTerm(term, child(preferredPath, i, "podAffinityTerm")));
  }
  return out;
}

/** validatePodAffinityTerm, with ValidatePodAffinityTermSelector. */
function validatePodAffinityTerm(term: JsonObject, path: FieldPath): Finding[] {
  const out = [
    ...validateLabelSelector(objectAt(term, "labelSelector"), child(path, "labelSelector")),
    ...validateLabelSelector(objectAt(term, "namespaceSelector"), child(path, "namespaceSelector")),
  ];
  // The server reports a bad namespace at `namespace`, not at its index in `namespaces`.
  for (const [, name] of stringItems(term, "namespaces"))
    out.push(...invalidEach(child(path, "namespace"), name, isDNS1123Label(name)));
  out.push(...validateMatchLabelKeysAndMismatchLabelKeys(term, path));
  const topologyKey = stringAt(term, "topologyKey");
  if (topologyKey !== undefined && Object.hasOwn(term, "topologyKey")) {
    out.push(...requiredIfEmpty(term, "topologyKey", path, "can not be empty"));
    out.push(...invalidEach(child(path, "topologyKey"), topologyKey, isQualifiedName(topologyKey)));
  }
  return out;
}

/**
 * validateMatchLabelKeysAndMismatchLabelKeys. A selector expression on a key
 * of `matchLabelKeys` is reported when the key is already in the selector,
 * at the term's path indexed by the key's place in `matchLabelKeys`, as the
 * server does.
 */
function validateMatchLabelKeysAndMismatchLabelKeys(term: JsonObject, path: FieldPath): Finding[] {
  const selector = objectAt(term, "labelSelector");
  const matchKeys = stringItems(term, "matchLabelKeys");
  const out = [
    ...validateLabelKeys(term, "matchLabelKeys", selector, child(path, "matchLabelKeys")),
    ...validateLabelKeys(term, "mismatchLabelKeys", selector, child(path, "mismatchLabelKeys")),
  ];
  if (selector !== undefined) {
    const index = new Map(matchKeys.map(([i, key]) => [key, i]));
    const seen = new Set(stringMapAt(selector, "matchLabels").map(([key]) => key));
    for (const [, req] of objectItems(selector, "matchExpressions")) {
      const key = stringAt(req, "key") ?? "";
      const i = index.get(key);
      if (i !== undefined && seen.has(key))
        out.push(invalid(child(path, i), key, "exists in both matchLabelKeys and labelSelector", asError));
      seen.add(key);
    }
  }
  const mismatch = new Set(stringItems(term, "mismatchLabelKeys").map(([, key]) => key));
  for (const [i, key] of matchKeys)
    if (mismatch.has(key))
      out.push(
        invalid(child(path, "matchLabelKeys", i), key, "exists in both matchLabelKeys and mismatchLabelKeys", asError),
      );
  return out;
}

/** validateLabelKeys: label names, and only beside a label selector. */
function validateLabelKeys(o: JsonObject, key: string, selector: JsonObject | undefined, path: FieldPath): Finding[] {
  if (listAt(o, key).length === 0) return [];
  if (selector === undefined) return [forbidden(path, "must not be specified when labelSelector is not set", asError)];
  return stringItems(o, key).flatMap(([i, name]) => invalidEach(child(path, i), name, isQualifiedName(name)));
}

/**
 * validateTopologySpreadConstraints. Of `matchLabelKeys` only validateLabelKeys
 * is applied: in 1.36 (MatchLabelKeysInPodTopologySpreadSelectorMerge) a key
 * is found in the selector only once the Pod strategy has merged it there.
 */
function validateTopologySpreadConstraints(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const constraints = objectItems(spec, "topologySpreadConstraints");
  constraints.forEach(([i, constraint], n) => {
    const at = child(path, i);
    // ValidateMaxSkew.
    // An absent field is Go's zero value: 0, "", "".
    const maxSkew = intAt(constraint, "maxSkew");
    if (maxSkew !== undefined && maxSkew <= 0)
      out.push(invalid(child(at, "maxSkew"), maxSkew, "must be greater than zero", asError));
    // ValidateTopologyKey.
    if (!isSet(constraint, "topologyKey") || stringAt(constraint, "topologyKey") === "")
      out.push(required(child(at, "topologyKey"), "can not be empty", asError));
    // ValidateWhenUnsatisfiable, sets.List order.
    const actions = ["DoNotSchedule", "ScheduleAnyway"];
    if (!isSet(constraint, "whenUnsatisfiable"))
      out.push(notSupported(child(at, "whenUnsatisfiable"), "", actions, asError));
    else out.push(...setOneOf(constraint, "whenUnsatisfiable", at, actions));
    // ValidateSpreadConstraintNotRepeat: reported once, against the first later repeat.
    const topologyKey = stringAt(constraint, "topologyKey");
    const action = stringAt(constraint, "whenUnsatisfiable");
    const repeated = constraints
      .slice(n + 1)
      .some(([, c]) => stringAt(c, "topologyKey") === topologyKey && stringAt(c, "whenUnsatisfiable") === action);
    if (repeated && topologyKey !== undefined && action !== undefined)
      out.push(duplicate(child(at, "{topologyKey, whenUnsatisfiable}"), `{${topologyKey}, ${action}}`, asError));
    // validateMinDomains.
    const minDomains = optionalIntAt(constraint, "minDomains");
    if (minDomains !== undefined) {
      if (minDomains <= 0) out.push(invalid(child(at, "minDomains"), minDomains, "must be greater than zero", asError));
      if (action !== undefined && action !== "DoNotSchedule")
        out.push(
          invalid(
            child(at, "minDomains"),
            minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`,
            asError,
          ),
        );
    }
    // validateNodeInclusionPolicy, sets.List order.
    out.push(...setOneOf(constraint, "nodeAffinityPolicy", at, ["Honor", "Ignore"]));
    out.push(...setOneOf(constraint, "nodeTaintsPolicy", at, ["Honor", "Ignore"]));
    const selector = objectAt(constraint, "labelSelector");
    out.push(...validateLabelKeys(constraint, "matchLabelKeys", selector, child(at, "matchLabelKeys")));
    out.push(...validateLabelSelector(selector, child(at, "labelSelector")));
  });
  return out;
}

/** A list's items that are strings, with their indexes. */
function stringItems(o: JsonObject, key: string): [number, string][] {
  const out: [number, string][] = [];
  listAt(o, key).forEach((item, i) => {
    if (typeof item === "string") out.push([i, item]);
  });
  return out;
}

/** ValidateTolerations of `holder.tolerations` at `path`, with validateTaintEffect for a toleration's effect. */
export function validateTolerations(holder: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  for (const [i, toleration] of objectItems(holder, "tolerations")) {
    const at = child(path, i);
    const key = stringAt(toleration, "key");
    const operator = stringAt(toleration, "operator");
    const value = stringAt(toleration, "value");
    const effect = stringAt(toleration, "effect");
    if (key === undefined || operator === undefined || value === undefined || effect === undefined) continue;
    if (key !== "") out.push(...invalidEach(child(at, "key"), key, isQualifiedName(key)));
    if (key === "" && operator !== "Exists")
      out.push(
        invalid(
          child(at, "operator"),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
          asError,
        ),
      );
    if (isSet(toleration, "tolerationSeconds") && effect !== "NoExecute")
      out.push(
        invalid(child(at, "effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set", asError),
      );
    switch (operator) {
      case "":
      case "Equal": {
        const errs = isValidLabelValue(value);
        if (errs.length > 0) out.push(invalid(child(at, "operator"), value, errs.join(";"), asError));
        break;
      }
      case "Exists":
        if (value !== "")
          out.push(
            invalid(child(at, "operator"), toleration, "value must be empty when `operator` is 'Exists'", asError),
          );
        break;
      default:
        out.push(notSupported(child(at, "operator"), operator, ["Equal", "Exists"], asError));
    }
    out.push(...oneOf(toleration, "effect", at, ["NoSchedule", "PreferNoSchedule", "NoExecute"]));
  }
  return out;
}
