/**
 * Fields of a PodSpec that ValidatePodSpec checks one by one, outside its containers:
 * pkg/apis/core/validation/validation.go validateReadinessGates, validateSchedulingGates,
 * ValidateRuntimeClassName, ValidatePreemptionPolicy, validateOverhead, validateHostUsers,
 * validateSELinuxChangePolicy (called last by validatePodSpecSecurityContext), and the header names of
 * validateHTTPGetAction. Each export is one Go function; the caller places it in ValidatePodSpec's order.
 *
 * Releases (1.`minor`) matter where a feature gate decides, by its default in pkg/features/kube_features.go:
 * - UserNamespacesSupport: beta and off in 1.30–1.32 (`hostUsers` is dropped), on from 1.33.
 * - SELinuxChangePolicy: alpha and off in 1.32 (`seLinuxChangePolicy` is dropped), beta and on from 1.33.
 * - SELinuxMount: beta and off from 1.33 (still off in 1.36), so pkg/api/pod/util.go
 *   useOnlyRecursiveSELinuxChangePolicy makes `Recursive` the only value a new object may take.
 */
import type { Finding } from "../../findings/index.js";
import { isDNS1123Subdomain, isQualifiedName, regexError } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  forbidden,
  invalidEach,
  isSet,
  notSupported,
  objectAt,
  objectItems,
  required,
  stringAt,
} from "./common.js";
import { validateContainerResources } from "./resources.js";

/** validateReadinessGates: each condition type is a qualified name, at `readinessGates[i].conditionType`. */
export function validateReadinessGates(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  for (const [i, gate] of objectItems(spec, "readinessGates")) {
    // absent, "": no qualified name either
    const conditionType = stringAt(gate, "conditionType");
    if (conditionType === undefined) continue;
    out.push(
      ...invalidEach(child(path, "readinessGates", i, "conditionType"), conditionType, isQualifiedName(conditionType)),
    );
  }
  return out;
}

/**
 * validateSchedulingGates: each name a qualified name and unique. Go reports both at the item,
 * `schedulingGates[i]`, not at its `name`.
 */
export function validateSchedulingGates(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const [i, gate] of objectItems(spec, "schedulingGates")) {
    // absent, "": no qualified name either
    const name = stringAt(gate, "name");
    if (name === undefined) continue;
    const at = child(path, "schedulingGates", i);
    out.push(...invalidEach(at, name, isQualifiedName(name)));
    if (seen.has(name)) out.push(duplicate(at, name, asError));
    seen.add(name);
  }
  return out;
}

/** ValidateRuntimeClassName of a set `runtimeClassName` (a pointer: "" is checked too), a DNS subdomain. */
export function validateRuntimeClassName(spec: JsonObject, path: FieldPath): Finding[] {
  const name = stringAt(spec, "runtimeClassName");
  if (!isSet(spec, "runtimeClassName") || name === undefined) return [];
  return invalidEach(child(path, "runtimeClassName"), name, isDNS1123Subdomain(name));
}

/** ValidatePreemptionPolicy's values, in its order (not sorted). */
const preemptionPolicies = ["PreemptLowerPriority", "Never"];

/**
 * ValidatePreemptionPolicy of `holder.preemptionPolicy` when set (a pointer: unset, a Pod's is left to the
 * Priority admission plugin and a PriorityClass's is defaulted), reported at `at`, the field itself:
 * `spec.preemptionPolicy` for a pod spec, `preemptionPolicy` for a PriorityClass.
 */
export function validatePreemptionPolicy(holder: JsonObject, at: FieldPath): Finding[] {
  const policy = stringAt(holder, "preemptionPolicy");
  if (!isSet(holder, "preemptionPolicy") || policy === undefined) return [];
  if (policy === "") return [required(at, "", asError)];
  return preemptionPolicies.includes(policy) ? [] : [notSupported(at, policy, preemptionPolicies, asError)];
}

/**
 * validateOverhead: the container rules of validateResourceRequirements, with the overhead as its limits,
 * so at `overhead.limits[<name>]` (and `overhead` for "HugePages require cpu or memory").
 */
export function validateOverhead(spec: JsonObject, path: FieldPath): Finding[] {
  const overhead = objectAt(spec, "overhead");
  if (overhead === undefined) return [];
  return validateContainerResources({ limits: overhead }, child(path, "overhead"));
}

/**
 * The release from which validateHostUsers words its errors "when `hostUsers` is false" (kubernetes PR
 * #132868, merged in July 2025; before it, "when `pod.Spec.HostUsers` is false"). UNVERIFIED: no copy of
 * validation.go from 1.34 or later was read; 1.34 is taken from the date of the change.
 */
const hostUsersPlainWordsFrom = 34;

/**
 * validateHostUsers: a pod in a user namespace of its own (`hostUsers: false`) may not share the host's
 * network, PID or IPC namespace. Go names the last two by their Go fields: `spec.HostPID`, `spec.HostIPC`.
 * Before 1.33 UserNamespacesSupport is off and `hostUsers` is dropped before validation.
 */
export function validateHostUsers(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  if (minor < 33 || getKey(spec, "hostUsers") !== false) return [];
  const detail = minor >= hostUsersPlainWordsFrom ? "when `hostUsers` is false" : "when `pod.Spec.HostUsers` is false";
  const out: Finding[] = [];
  for (const [key, name] of [
    ["hostNetwork", "hostNetwork"],
    ["hostPID", "HostPID"],
    ["hostIPC", "HostIPC"],
  ] as const)
    if (getKey(spec, key) === true) out.push(forbidden(child(path, name), detail, asError));
  return out;
}

/**
 * validateSELinuxChangePolicy of a set `securityContext.seLinuxChangePolicy`. With SELinuxMount off (its
 * default through 1.36) a new object may only ask for `Recursive`; in 1.32 the field is dropped.
 */
export function validateSELinuxChangePolicy(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  const sc = objectAt(spec, "securityContext");
  const policy = stringAt(sc, "seLinuxChangePolicy");
  if (minor < 33 || !isSet(sc, "seLinuxChangePolicy") || policy === undefined || policy === "Recursive") return [];
  return [notSupported(child(path, "securityContext", "seLinuxChangePolicy"), policy, ["Recursive"], asError)];
}

const httpHeaderNameFmt = "[-A-Za-z0-9]+";
const httpHeaderName = /^[-A-Za-z0-9]+$/;

/** apimachinery validation.IsHTTPHeaderName. */
function isHTTPHeaderName(value: string): string[] {
  if (httpHeaderName.test(value)) return [];
  return [
    regexError(
      "a valid HTTP header must consist of alphanumeric characters or '-'",
      httpHeaderNameFmt,
      "X-Header-Name",
    ),
  ];
}

/**
 * The header names of validateHTTPGetAction, for the `httpGet` action at `at`: Go reports them at
 * `<at>.httpHeaders`, without the header's index.
 */
export function validateHTTPHeaders(httpGet: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  for (const [, header] of objectItems(httpGet, "httpHeaders")) {
    // absent, "": no header name either
    const name = stringAt(header, "name");
    if (name === undefined) continue;
    out.push(...invalidEach(child(at, "httpHeaders"), name, isHTTPHeaderName(name)));
  }
  return out;
}
