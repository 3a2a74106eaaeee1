/**
 * admissionregistration.k8s.io/v1 webhook configurations on create
 * (pkg/apis/admissionregistration/validation/validation.go:
 * ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration,
 * validateValidatingWebhook, validateMutatingWebhook,
 * validateAdmissionReviewVersions, validateRuleWithOperations, validateRule,
 * validateResources, validateMatchConditions, validateMatchCondition;
 * staging apiserver pkg/util/webhook/validation.go ValidateWebhookURL and
 * ValidateWebhookService; apimachinery util/validation IsFullyQualifiedName).
 *
 * On create every option is strict: side effects None or NoneOnDryRun, an
 * AdmissionReview version the server knows, unique webhook names, label
 * values checked. The server's v1 defaults (defaults.go
 * SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook, SetDefaults_Rule,
 * SetDefaults_ServiceReference) come first: an unset failurePolicy is Fail,
 * matchPolicy Equivalent, selectors {}, timeoutSeconds 10, reinvocationPolicy
 * Never, a rule's scope "*", a service's port 443; sideEffects and
 * admissionReviewVersions have no default in v1. An enum set to "" is no
 * unset pointer: it is reported. Match conditions are compiled as the server
 * compiles them (cel's admissionExpressionError).
 *
 * A field the schema marks required whose absence the server words (a webhook's
 * clientConfig, sideEffects and admissionReviewVersions, a service's name and
 * namespace) is reported here absent or empty, and left out of the schema's
 * required lists (required-groups.ts); one it calls a bare Required value (a
 * webhook's name, a condition's name and expression) is reported here only
 * when present and empty or null: absent, it is the schema's finding.
 */

import { admissionExpressionError } from "../../cel/index.js";
import { validateWebhookService, validateWebhookURL } from "../../crd/index.js";
import { type Finding, tooMany } from "../../findings/index.js";
import { trimSpace } from "../../go/index.js";
import { isDNS1035Label, isQualifiedName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { celLibrariesOf } from "../releases.js";
import {
  asError,
  duplicate,
  invalid,
  invalidEach,
  isFullyQualifiedName,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  required,
  requiredIfEmpty,
  stringAt,
  validateLabelSelector,
  zeroIfAbsent,
} from "./common.js";

// The supported values, as the server lists them (sets.List: sorted); the
// admission policies share the first two.
export const failurePolicies = ["Fail", "Ignore"];
export const matchPolicies = ["Equivalent", "Exact"];
const noSideEffectClasses = ["None", "NoneOnDryRun"];
const reinvocationPolicies = ["IfNeeded", "Never"];
const operations = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const scopes = ["*", "Cluster", "Namespaced"];
/** AcceptedAdmissionReviewVersions. */
const admissionReviewVersions = ["v1", "v1beta1"];
const maxMatchConditions = 64;

/** The strings of a list (items of other types are the schema's). */
const stringsOf = (list: readonly JsonValue[]): string[] => list.filter((v): v is string => typeof v === "string");

/**
 * An enum behind a Go pointer: unset or null, the server's default (or nil)
 * stands; any string set, "" included, must be supported.
 */
export function pointerEnum(o: JsonObject, key: string, at: FieldPath, supported: readonly string[]): Finding[] {
  const value = getKey(o, key);
  if (typeof value !== "string" || supported.includes(value)) return [];
  return [notSupported(child(at, key), value, supported, asError)];
}

/** validateResources: a rule's resources, subresources allowed. */
function validateResources(list: readonly JsonValue[], at: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (list.length === 0) out.push(required(at, "", asError));
  const withWildcardSubresource = new Set<string>(); // x/*
  const subresourcesOfWildcard = new Set<string>(); // */x
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  list.forEach((resSub, i) => {
    if (typeof resSub !== "string") return;
    if (resSub === "") {
      out.push(required(child(at, i), "", asError));
      return;
    }
    if (resSub === "*/*") doubleWildcard = true;
    if (resSub === "*") singleWildcard = true;
    const slash = resSub.indexOf("/");
    if (slash < 0) {
      // As in Go, the last resource without a subresource decides.
      withoutSubresource = resSub !== "*";
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSubresource.has(res))
      out.push(invalid(child(at, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`, asError));
    if (subresourcesOfWildcard.has(sub))
      out.push(invalid(child(at, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`, asError));
    if (sub === "*") withWildcardSubresource.add(res);
    if (res === "*") subresourcesOfWildcard.add(sub);
  });
  if (list.length > 1 && doubleWildcard)
    out.push(invalid(at, list, "if '*/*' is present, must not specify other resources", asError));
  if (singleWildcard && withoutSubresource)
    out.push(invalid(at, list, "if '*' is present, must not specify other resources without subresources", asError));
  return out;
}

/** validateRuleWithOperations and validateRule (subresources allowed). */
export function validateRuleWithOperations(rule: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const ops = listAt(rule, "operations");
  if (ops.length === 0) out.push(required(child(at, "operations"), "", asError));
  if (ops.length > 1 && ops.includes("*"))
    out.push(invalid(child(at, "operations"), ops, "if '*' is present, must not specify other operations", asError));
  ops.forEach((op, i) => {
    if (typeof op === "string" && !operations.includes(op))
      out.push(notSupported(child(at, "operations", i), op, operations, asError));
  });
  const groups = listAt(rule, "apiGroups");
  if (groups.length === 0) out.push(required(child(at, "apiGroups"), "", asError));
  if (groups.length > 1 && groups.includes("*"))
    out.push(invalid(child(at, "apiGroups"), groups, "if '*' is present, must not specify other API groups", asError));
  // A group may be "" (the core group); a version may not.
  const versions = listAt(rule, "apiVersions");
  if (versions.length === 0) out.push(required(child(at, "apiVersions"), "", asError));
  if (versions.length > 1 && versions.includes("*"))
    out.push(
      invalid(child(at, "apiVersions"), versions, "if '*' is present, must not specify other API versions", asError),
    );
  versions.forEach((v, i) => {
    if (v === "") out.push(required(child(at, "apiVersions", i), "", asError));
  });
  out.push(...validateResources(listAt(rule, "resources"), child(at, "resources")));
  out.push(...pointerEnum(rule, "scope", at, scopes));
  return out;
}

/** The clientConfig switch of validateValidatingWebhook / validateMutatingWebhook. */
function validateClientConfig(hook: JsonObject, at: FieldPath): Finding[] {
  // absent, null or empty: the zero WebhookClientConfig, which has neither member
  const cc = zeroIfAbsent(hook, "clientConfig");
  if (cc === undefined) return []; // not an object: the schema's
  const configAt = child(at, "clientConfig");
  const hasURL = isSet(cc, "url");
  const service = objectAt(cc, "service");
  if (hasURL === isSet(cc, "service"))
    return [required(configAt, "exactly one of url or service is required", asError)];
  if (hasURL) {
    const url = stringAt(cc, "url");
    return url === undefined ? [] : validateWebhookURL(url, child(configAt, "url"));
  }
  return service === undefined ? [] : validateWebhookService(service, child(configAt, "service"), false);
}

/**
 * validateMatchConditions and validateMatchCondition: each expression compiled trimmed, as the server
 * compiles it (params only for a policy with a paramKind; the authorizer always).
 */
export function validateMatchConditions(
  hook: JsonObject,
  at: FieldPath,
  params: boolean,
  libraries: number,
): Finding[] {
  const out: Finding[] = [];
  const count = listAt(hook, "matchConditions").length;
  if (count > maxMatchConditions) out.push(tooMany(at, count, maxMatchConditions, asError));
  const names = new Set<string>();
  for (const [i, condition] of objectItems(hook, "matchConditions")) {
    const expression = stringAt(condition, "expression");
    const trimmed = expression === undefined ? undefined : trimSpace(expression);
    // absent, it is the schema's required field
    if (trimmed === "") {
      if (Object.hasOwn(condition, "expression")) out.push(required(child(at, i, "expression"), "", asError));
    } else if (trimmed !== undefined) {
      const vars = { params, authorizer: true, variables: undefined, libraries };
      const error = admissionExpressionError(trimmed, vars, "bool");
      if (error !== undefined) out.push(invalid(child(at, i, "expression"), trimmed, error, asError));
    }
    const name = stringAt(condition, "name");
    if (name === "") out.push(...requiredIfEmpty(condition, "name", child(at, i)));
    else if (name !== undefined) {
      out.push(...invalidEach(child(at, i, "name"), name, isQualifiedName(name)));
      if (names.has(name)) out.push(duplicate(child(at, i, "name"), name, asError));
      else names.add(name);
    }
  }
  return out;
}

/** What validateValidatingWebhook and validateMutatingWebhook share, in their order; `mutating` adds reinvocationPolicy. */
function validateWebhook(hook: JsonObject, at: FieldPath, mutating: boolean, libraries: number): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(hook, "name");
  if (name === "") out.push(...requiredIfEmpty(hook, "name", at));
  else if (name !== undefined) out.push(...isFullyQualifiedName(name, child(at, "name")));
  for (const [i, rule] of objectItems(hook, "rules"))
    out.push(...validateRuleWithOperations(rule, child(at, "rules", i)));
  out.push(...pointerEnum(hook, "failurePolicy", at, failurePolicies));
  out.push(...pointerEnum(hook, "matchPolicy", at, matchPolicies));
  if (!isSet(hook, "sideEffects"))
    out.push(required(child(at, "sideEffects"), `must specify one of ${noSideEffectClasses.join(", ")}`, asError));
  out.push(...pointerEnum(hook, "sideEffects", at, noSideEffectClasses));
  const timeout = optionalIntAt(hook, "timeoutSeconds");
  if (timeout !== undefined && (timeout > 30 || timeout < 1))
    out.push(
      invalid(child(at, "timeoutSeconds"), timeout, "the timeout value must be between 1 and 30 seconds", asError),
    );
  out.push(...validateLabelSelector(objectAt(hook, "namespaceSelector"), child(at, "namespaceSelector")));
  out.push(...validateLabelSelector(objectAt(hook, "objectSelector"), child(at, "objectSelector")));
  if (mutating) out.push(...pointerEnum(hook, "reinvocationPolicy", at, reinvocationPolicies));
  out.push(...validateClientConfig(hook, at));
  out.push(...validateMatchConditions(hook, child(at, "matchConditions"), false, libraries));
  return out;
}

/** validateAdmissionReviewVersions, a known version required (as on create). */
function validateAdmissionReviewVersions(hook: JsonObject, at: FieldPath): Finding[] {
  const given = getKey(hook, "admissionReviewVersions");
  if (given !== undefined && given !== null && !Array.isArray(given)) return []; // the schema's type
  const versions = listAt(hook, "admissionReviewVersions");
  if (versions.length === 0)
    return [required(at, `must specify one of ${admissionReviewVersions.join(", ")}`, asError)];
  const out: Finding[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (typeof v !== "string") return;
    if (seen.has(v)) {
      out.push(invalid(child(at, i), v, "duplicate version", asError));
      return;
    }
    seen.add(v);
    out.push(...invalidEach(child(at, i), v, isDNS1035Label(v)));
    if (admissionReviewVersions.includes(v)) accepted = true;
  });
  if (!accepted && stringsOf(versions).length === versions.length)
    out.push(invalid(at, versions, `must include at least one of ${admissionReviewVersions.join(", ")}`, asError));
  return out;
}

function validateConfiguration(object: JsonObject, mutating: boolean, minor: number): Finding[] {
  const out: Finding[] = [];
  const names = new Set<string>();
  for (const [i, hook] of objectItems(object, "webhooks")) {
    const at = ["webhooks", i];
    out.push(...validateWebhook(hook, at, mutating, celLibrariesOf(minor)));
    out.push(...validateAdmissionReviewVersions(hook, child(at, "admissionReviewVersions")));
    const name = stringAt(hook, "name");
    if (name === undefined || name === "") continue;
    if (names.has(name)) out.push(duplicate(child(at, "name"), name, asError));
    else names.add(name);
  }
  return out;
}

/** ValidateValidatingWebhookConfiguration. */
export const validateValidatingWebhookConfiguration = (object: JsonObject, minor: number): Finding[] =>
  validateConfiguration(object, false, minor);

/** ValidateMutatingWebhookConfiguration. */
export const validateMutatingWebhookConfiguration = (object: JsonObject, minor: number): Finding[] =>
  validateConfiguration(object, true, minor);
