/**
 * Kinds common in cluster manifests, as the API server validates them on
 * create (kubernetes/kubernetes, releases 1.35 and 1.36):
 *
 * - storage.k8s.io/v1 StorageClass: pkg/apis/storage/validation
 *   ValidateStorageClass with validateProvisioner, validateParameters,
 *   validateReclaimPolicy, validateVolumeBindingMode and
 *   validateAllowedTopologies (core's ValidateTopologySelectorTerm and
 *   validateTopologySelectorLabelRequirement), after storage/v1
 *   SetDefaults_StorageClass (reclaimPolicy Delete, volumeBindingMode
 *   Immediate when unset).
 * - scheduling.k8s.io/v1 PriorityClass: pkg/apis/scheduling/validation
 *   ValidatePriorityClass with scheduling/v1 IsKnownSystemPriorityClass and
 *   core's ValidatePreemptionPolicy, after SetDefaults_PriorityClass.
 * - networking.k8s.io/v1 IngressClass: pkg/apis/networking/validation
 *   ValidateIngressClass, validateIngressClassSpec (apimachinery's
 *   IsDomainPrefixedPath) and validateIngressClassParametersReference, after
 *   networking/v1 SetDefaults_IngressClass (scope Cluster when unset).
 * - v1 ResourceQuota: pkg/apis/core/validation ValidateResourceQuotaSpec
 *   (ValidateResourceQuotaResourceName, validateResourceName,
 *   ValidateResourceQuantityValue, ValidateNonnegativeQuantity,
 *   validateResourceQuotaScopes, validateScopeSelector,
 *   validateScopedResourceSelectorRequirement) with the helpers of
 *   pkg/apis/core/helper (IsStandardQuotaResourceName,
 *   IsStandardResourceQuotaScope, IsResourceQuotaScopeValidForResource,
 *   IsIntegerResourceName). The status is dropped on create, so not checked.
 * - v1 LimitRange: ValidateLimitRange (validateLimitRangeTypeName,
 *   validateLimitRangeResourceName), after core/v1 SetDefaults_LimitRangeItem.
 *
 * Repeated messages are said once by validateHandWritten (index.ts), as
 * ErrorList.ToAggregate prints them. A bad
 * value Go prints with %#v (a slice, a struct of the internal `core` package)
 * is printed as JSON, as elsewhere; a resource.Quantity as its String.
 */
import { type Finding, tooLong } from "../../findings/index.js";
import { compareQuantities, milliValue, type Quantity, quantityString } from "../../go/index.js";
import { byteLength, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  duplicate,
  forbidden,
  intAt,
  invalid,
  invalidEach,
  invalidShown,
  isSet,
  listAt,
  objectAt,
  objectItems,
  oneOf,
  required,
  stringAt,
} from "./common.js";
import { validateIngressTypedLocalObjectReference } from "./networking.js";
import { validatePreemptionPolicy } from "./pod-fields.js";
import { quantityOf } from "./quantity.js";
import {
  isOvercommitAllowed,
  isStandardQuotaResource,
  validateContainerResourceName,
  validateResourceName,
  validateResourceQuantityValue,
} from "./resources.js";
import { setOneOf } from "./security.js";
import { validateParameters, validateProvisioner } from "./storage.js";

/** A quantity bad value: Quantity.String(), unquoted. */
const invalidQuantity = (path: FieldPath, q: Quantity, detail: string) => invalidShown(path, quantityString(q), detail);

// ---------------------------------------------------------------------------
// StorageClass

export function validateStorageClass(object: JsonObject): Finding[] {
  // validateParameters allows a StorageClass an empty map
  const out = [...validateProvisioner(object, "provisioner"), ...validateParameters(object, true)];
  // validateReclaimPolicy: an empty policy passes; validateVolumeBindingMode: an empty mode does not.
  out.push(...oneOf(object, "reclaimPolicy", [], ["Delete", "Retain"]));
  out.push(...setOneOf(object, "volumeBindingMode", [], ["Immediate", "WaitForFirstConsumer"]));
  out.push(...validateAllowedTopologies(object));
  return out;
}

/**
 * validateAllowedTopologies. A term equal to an earlier one (same keys, same sets of values) is a
 * duplicate; so is a term without expressions, which equals the empty entries Go's list starts with.
 */
function validateAllowedTopologies(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const seen: Map<string, Set<string>>[] = [];
  for (const [i, term] of objectItems(object, "allowedTopologies")) {
    const exprAt = child(["allowedTopologies"], i, "matchLabelExpressions");
    const exprs = new Map<string, Set<string>>();
    for (const [j, req] of objectItems(term, "matchLabelExpressions")) {
      const at = child(exprAt, j);
      // validateTopologySelectorLabelRequirement.
      const values = listAt(req, "values");
      if (values.length === 0) out.push(required(child(at, "values"), "", asError));
      const set = new Set<string>();
      values.forEach((v, k) => {
        if (typeof v !== "string") return;
        if (set.has(v)) out.push(duplicate(child(at, "values", k), v, asError));
        set.add(v);
      });
      const key = stringAt(req, "key") ?? "";
      if (Object.hasOwn(req, "key")) out.push(...invalidEach(child(at, "key"), key, isQualifiedName(key)));
      // ValidateTopologySelectorTerm: no key twice in a term.
      if (exprs.has(key)) out.push(duplicate(child(at, "key"), key, asError));
      exprs.set(key, set);
    }
    if (exprs.size === 0 || seen.some((other) => sameTerm(other, exprs))) out.push(duplicate(exprAt, "", asError));
    seen.push(exprs);
  }
  return out;
}

function sameTerm(a: ReadonlyMap<string, Set<string>>, b: ReadonlyMap<string, Set<string>>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, values] of a) {
    const other = b.get(key);
    if (other === undefined || other.size !== values.size || [...values].some((v) => !other.has(v))) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// PriorityClass

const highestUserDefinablePriority = 1000000000;
const systemPriorityClassPrefix = "system-";
/** scheduling/v1 systemPriorityClasses: name, value (globalDefault is false for both). */
const systemPriorityClasses: ReadonlyMap<string, number> = new Map([
  ["system-node-critical", 2 * highestUserDefinablePriority + 1000],
  ["system-cluster-critical", 2 * highestUserDefinablePriority],
]);

/** IsKnownSystemPriorityClass: the error it returns, or undefined. */
function knownSystemPriorityClass(name: string, value: number, globalDefault: boolean): string | undefined {
  const expected = systemPriorityClasses.get(name);
  if (expected === undefined) return `${name} is not a known system priority class`;
  if (expected !== value) return `value of ${name} PriorityClass must be ${expected}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export function validatePriorityClass(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(objectAt(object, "metadata"), "name") ?? "";
  const value = intAt(object, "value");
  if (value !== undefined) {
    if (name.startsWith(systemPriorityClassPrefix)) {
      const error = knownSystemPriorityClass(name, value, getKey(object, "globalDefault") === true);
      if (error !== undefined)
        out.push(
          forbidden(
            ["metadata", "name"],
            `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${error}`,
            asError,
          ),
        );
    } else if (value > highestUserDefinablePriority)
      out.push(
        forbidden(
          ["value"],
          `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`,
          asError,
        ),
      );
  }
  out.push(...validatePreemptionPolicy(object, ["preemptionPolicy"]));
  return out;
}

// ---------------------------------------------------------------------------
// IngressClass

const maxLenIngressClassController = 250;
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPath = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** validation.IsDomainPrefixedPath: a DNS subdomain, a slash, then an HTTP path. */
function isDomainPrefixedPath(path: FieldPath, value: string): Finding[] {
  if (value === "") return [required(path, "", asError)];
  const slash = value.indexOf("/");
  const host = slash < 0 ? "" : value.slice(0, slash);
  const rest = slash < 0 ? "" : value.slice(slash + 1);
  if (host === "" || rest === "")
    return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")', asError)];
  const out = invalidEach(path, host, isDNS1123Subdomain(host));
  if (!httpPath.test(rest)) out.push(invalid(path, rest, regexError("Invalid path", httpPathFmt), asError));
  return out;
}

export function validateIngressClass(object: JsonObject): Finding[] {
  const raw = getKey(object, "spec");
  if (raw !== undefined && raw !== null && !isObject(raw)) return [];
  const s = objectAt(object, "spec");
  const spec = ["spec"];
  const out: Finding[] = [];
  // validateIngressClassSpec.
  const controller = stringAt(s, "controller");
  if (controller !== undefined) {
    const at = child(spec, "controller");
    if (byteLength(controller) > maxLenIngressClassController)
      out.push(tooLong(at, "", maxLenIngressClassController, asError));
    out.push(...isDomainPrefixedPath(at, controller));
  }
  const parameters = objectAt(s, "parameters");
  if (parameters !== undefined) out.push(...validateParametersReference(parameters, child(spec, "parameters")));
  return out;
}

/** validateIngressClassParametersReference: validateIngressTypedLocalObjectReference's checks, then the scope's. */
function validateParametersReference(params: JsonObject, at: FieldPath): Finding[] {
  const out = validateIngressTypedLocalObjectReference(params, at);
  // Unset, the scope is defaulted to Cluster.
  const scope = isSet(params, "scope") ? stringAt(params, "scope") : "Cluster";
  if (scope === undefined) return out;
  if (scope !== "Cluster" && scope !== "Namespace") {
    out.push(...setOneOf(params, "scope", at, ["Cluster", "Namespace"]));
    return out;
  }
  const namespace = getKey(params, "namespace");
  const namespaceAt = child(at, "namespace");
  if (scope === "Namespace") {
    if (namespace === undefined || namespace === null)
      out.push(required(namespaceAt, "`parameters.scope` is set to 'Namespace'", asError));
    else if (typeof namespace === "string") out.push(...invalidEach(namespaceAt, namespace, isDNS1123Label(namespace)));
  } else if (namespace !== undefined && namespace !== null)
    out.push(forbidden(namespaceAt, "`parameters.scope` is set to 'Cluster'", asError));
  return out;
}

// ---------------------------------------------------------------------------
// ResourceQuota

/**
 * IsStandardResourceQuotaScope. VolumeAttributesClass (a scope since 1.34) is taken as standard: the
 * helper that admits it was not found, so it is never reported.
 */
const standardScopes = new Set([
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "CrossNamespacePodAffinity",
  "VolumeAttributesClass",
]);
const podComputeResources = new Set([
  "cpu",
  "memory",
  "limits.cpu",
  "limits.memory",
  "requests.cpu",
  "requests.memory",
]);

/** IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case "Terminating":
    case "NotTerminating":
    case "NotBestEffort":
    case "PriorityClass":
    case "CrossNamespacePodAffinity":
      return resource === "pods" || podComputeResources.has(resource);
    case "BestEffort":
      return resource === "pods";
    default:
      return true;
  }
}

const conflictingScopes: readonly (readonly [string, string])[] = [
  ["BestEffort", "NotBestEffort"],
  ["Terminating", "NotTerminating"],
];
const existsOnlyScopes = new Set([
  "BestEffort",
  "NotBestEffort",
  "Terminating",
  "NotTerminating",
  "CrossNamespacePodAffinity",
]);

export function validateResourceQuota(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const spec = ["spec"];
  const out: Finding[] = [];
  // ValidateResourceQuotaSpec.
  const hard = Object.entries(objectAt(s, "hard") ?? {});
  for (const [name, value] of hard) {
    const at = child(spec, "hard", { key: name });
    // ValidateResourceQuotaResourceName.
    out.push(...validateResourceName(name, at));
    if (!name.includes("/") && !isStandardQuotaResource(name))
      out.push(invalid(at, name, "must be a standard resource for quota", asError));
    out.push(...validateResourceQuantityValue(name, value, at));
  }
  // sets.List order.
  const hardNames = hard.map(([name]) => name).sort();
  const shownScopes = getKey(s, "scopes") ?? null;
  // validateResourceQuotaScopes.
  const scopes = listAt(s, "scopes").filter((v): v is string => typeof v === "string");
  const scopesAt = child(spec, "scopes");
  for (const scope of scopes) {
    if (!standardScopes.has(scope)) out.push(invalid(scopesAt, shownScopes, "unsupported scope", asError));
    for (const k of hardNames)
      if (isStandardQuotaResource(k) && !scopeValidForResource(scope, k))
        out.push(invalid(scopesAt, shownScopes, "unsupported scope applied to resource", asError));
  }
  for (const [a, b] of conflictingScopes)
    if (scopes.includes(a) && scopes.includes(b))
      out.push(invalid(scopesAt, shownScopes, "conflicting scopes", asError));
  // validateScopeSelector.
  const selector = objectAt(s, "scopeSelector");
  if (selector !== undefined) out.push(...validateScopeSelector(selector, hardNames, shownScopes));
  return out;
}

/** validateScopedResourceSelectorRequirement: errors name `matchExpressions`, not an index in it. */
function validateScopeSelector(selector: JsonObject, hardNames: readonly string[], shownScopes: JsonValue): Finding[] {
  const out: Finding[] = [];
  const at = ["spec", "scopeSelector", "matchExpressions"];
  const seen = new Set<string>();
  for (const [, req] of objectItems(selector, "matchExpressions")) {
    const scope = stringAt(req, "scopeName");
    const operator = stringAt(req, "operator");
    if (scope !== undefined && Object.hasOwn(req, "scopeName")) {
      if (!standardScopes.has(scope)) out.push(invalid(child(at, "scopeName"), scope, "unsupported scope", asError));
      for (const k of hardNames)
        if (isStandardQuotaResource(k) && !scopeValidForResource(scope, k))
          out.push(invalid(at, selector, "unsupported scope applied to resource", asError));
      if (existsOnlyScopes.has(scope) && operator !== undefined && operator !== "Exists")
        out.push(
          invalid(
            child(at, "operator"),
            operator,
            "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            asError,
          ),
        );
      seen.add(scope);
    }
    const values = getKey(req, "values");
    const count = Array.isArray(values) ? values.length : 0;
    switch (operator) {
      case "In":
      case "NotIn":
        if (count === 0)
          out.push(
            required(
              child(at, "values"),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
              asError,
            ),
          );
        break;
      case "Exists":
      case "DoesNotExist":
        if (count !== 0)
          out.push(
            invalid(
              child(at, "values"),
              values ?? null,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
              asError,
            ),
          );
        break;
      case undefined:
        break;
      default:
        if (Object.hasOwn(req, "operator"))
          out.push(invalid(child(at, "operator"), operator, "not a valid selector operator", asError));
    }
  }
  for (const [a, b] of conflictingScopes)
    if (seen.has(a) && seen.has(b)) out.push(invalid(at, shownScopes, "conflicting scopes", asError));
  return out;
}

// ---------------------------------------------------------------------------
// LimitRange

const standardLimitTypes = new Set(["Pod", "Container", "PersistentVolumeClaim"]);
/** resource.MaxMilliValue: the largest value whose thousandths fit in an int64. */
const maxMilliValue = 9223372036854775807n / 1000n;

/** Quantity.Value: rounded up to a whole number. */
function wholeValue(q: Quantity): bigint {
  if (q.exp >= 0) return q.mantissa * 10n ** BigInt(q.exp);
  const d = 10n ** BigInt(-q.exp);
  const quotient = q.mantissa / d;
  return q.mantissa > 0n && quotient * d !== q.mantissa ? quotient + 1n : quotient;
}

/** Go's %f of a float64. */
const goFloat = (x: number) => (Object.is(x, -0) ? "-0.000000" : x.toFixed(6));

/** A LimitRangeItem's map as the server reads it: name → raw value. */
function resourceMap(item: JsonObject, key: string): Map<string, JsonValue> {
  return new Map(Object.entries(objectAt(item, key) ?? {}));
}

export function validateLimitRange(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const out: Finding[] = [];
  const types = new Set<string>();
  for (const [i, item] of objectItems(s, "limits")) {
    const at = child(["spec", "limits"], i);
    const type = stringAt(item, "type");
    if (type === undefined) continue;
    // validateLimitRangeTypeName, an absent type being ""
    const typeAt = child(at, "type");
    const errs = invalidEach(typeAt, type, isQualifiedName(type));
    if (errs.length === 0 && !type.includes("/") && !standardLimitTypes.has(type))
      errs.push(invalid(typeAt, type, "must be a standard limit type or fully qualified", asError));
    out.push(...errs);
    if (types.has(type)) out.push(duplicate(typeAt, type, asError));
    types.add(type);
    const max = resourceMap(item, "max");
    const min = resourceMap(item, "min");
    const defaults = resourceMap(item, "default");
    const defaultRequests = resourceMap(item, "defaultRequest");
    const ratios = resourceMap(item, "maxLimitRequestRatio");
    if (type === "Container") {
      // SetDefaults_LimitRangeItem: default from max, defaultRequest from default, then from min.
      for (const [k, v] of max) if (!defaults.has(k)) defaults.set(k, v);
      for (const [k, v] of defaults) if (!defaultRequests.has(k)) defaultRequests.set(k, v);
      for (const [k, v] of min) if (!defaultRequests.has(k)) defaultRequests.set(k, v);
    }
    // validateLimitRangeResourceName, of each map the item holds (a Pod's defaults are refused instead).
    const validateName = type === "Pod" || type === "Container" ? validateContainerResourceName : validateResourceName;
    const maps: [string, Map<string, JsonValue>][] = [
      ["max", max],
      ["min", min],
    ];
    if (type === "Pod") {
      if (defaults.size > 0)
        out.push(forbidden(child(at, "default"), "may not be specified when `type` is 'Pod'", asError));
      if (defaultRequests.size > 0)
        out.push(forbidden(child(at, "defaultRequest"), "may not be specified when `type` is 'Pod'", asError));
      defaults.clear();
      defaultRequests.clear();
    } else maps.push(["default", defaults], ["defaultRequest", defaultRequests]);
    if (type === "PersistentVolumeClaim" && !min.has("storage") && !max.has("storage"))
      out.push(
        required(
          child(at, "limits"),
          "either minimum or maximum storage value is required, but neither was provided",
          asError,
        ),
      );
    maps.push(["maxLimitRequestRatio", ratios]);
    const keys = new Set<string>();
    for (const [key, map] of maps)
      for (const name of map.keys()) {
        out.push(...validateName(name, child(at, key, { key: name })));
        keys.add(name);
      }
    for (const k of keys)
      out.push(
        ...compareLimits(at, k, {
          min: quantityOf(min.get(k)),
          max: quantityOf(max.get(k)),
          def: quantityOf(defaults.get(k)),
          request: quantityOf(defaultRequests.get(k)),
          ratio: quantityOf(ratios.get(k)),
        }),
      );
  }
  return out;
}

interface Limits {
  min: Quantity | undefined;
  max: Quantity | undefined;
  def: Quantity | undefined;
  request: Quantity | undefined;
  ratio: Quantity | undefined;
}

/** ValidateLimitRange's checks of one resource: min <= defaultRequest <= default <= max, and the ratio. */
function compareLimits(at: FieldPath, k: string, { min, max, def, request, ratio }: Limits): Finding[] {
  const out: Finding[] = [];
  const s = quantityString;
  const keyAt = (field: string) => child(at, field, { key: k });
  if (min && max && compareQuantities(min, max) > 0)
    out.push(invalidQuantity(keyAt("min"), min, `min value ${s(min)} is greater than max value ${s(max)}`));
  if (request && min && compareQuantities(min, request) > 0)
    out.push(
      invalidQuantity(
        keyAt("defaultRequest"),
        request,
        `min value ${s(min)} is greater than default request value ${s(request)}`,
      ),
    );
  if (request && max && compareQuantities(request, max) > 0)
    out.push(
      invalidQuantity(
        keyAt("defaultRequest"),
        request,
        `default request value ${s(request)} is greater than max value ${s(max)}`,
      ),
    );
  if (request && def && compareQuantities(request, def) > 0)
    out.push(
      invalidQuantity(
        keyAt("defaultRequest"),
        request,
        `default request value ${s(request)} is greater than default limit value ${s(def)}`,
      ),
    );
  if (def && min && compareQuantities(min, def) > 0)
    out.push(invalidQuantity(keyAt("default"), min, `min value ${s(min)} is greater than default value ${s(def)}`));
  if (def && max && compareQuantities(def, max) > 0)
    out.push(invalidQuantity(keyAt("default"), max, `default value ${s(def)} is greater than max value ${s(max)}`));
  if (ratio && compareQuantities(ratio, { mantissa: 1n, exp: 0, dec: false, format: "DecimalSI" }) < 0)
    out.push(invalidQuantity(keyAt("maxLimitRequestRatio"), ratio, `ratio ${s(ratio)} is less than 1`));
  if (ratio && min && max) {
    let ratioValue = Number(wholeValue(ratio));
    let minValue = wholeValue(min);
    let maxValue = wholeValue(max);
    if (wholeValue(ratio) < maxMilliValue && minValue < maxMilliValue && maxValue < maxMilliValue) {
      ratioValue = Number(milliValue(ratio)) / 1000;
      minValue = milliValue(min);
      maxValue = milliValue(max);
    }
    const limit = Number(maxValue) / Number(minValue);
    if (ratioValue > limit)
      out.push(
        invalidQuantity(
          keyAt("maxLimitRequestRatio"),
          ratio,
          `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`,
        ),
      );
  }
  // Resources that cannot be overcommitted (extended resources, hugepages): default and request agree.
  if (!isOvercommitAllowed(k) && def && request && compareQuantities(def, request) !== 0)
    out.push(
      invalidQuantity(
        keyAt("defaultRequest"),
        request,
        `default value ${s(def)} must equal to defaultRequest value ${s(request)} in ${k}`,
      ),
    );
  return out;
}
