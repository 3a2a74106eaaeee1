/**
 * The resource rules of a PodSpec that resources.ts leaves out, from
 * pkg/apis/core/validation/validation.go:
 *
 * - validateResizePolicy: a container's resizePolicy (InPlacePodVerticalScaling,
 *   on by default from 1.33; the field is dropped before).
 * - validatePodResourceClaims and validateResourceClaimNames: spec.resourceClaims
 *   and the claims a container names (DynamicResourceAllocation, on by default
 *   from 1.34; both fields are dropped before).
 * - validatePodResources: pod-level spec.resources (PodLevelResources, on by
 *   default from 1.34; dropped before), with validatePodResourceName and
 *   validatePodResourceConsistency.
 *
 * Go ranges over resource maps in no fixed order; these rules take the
 * manifest's key order. A struct Go prints with %#v through pointers (a
 * PodResourceClaim) is printed as JSON, as elsewhere in kunion.
 */
import { type Finding, finding } from "../../findings/index.js";
import { addQuantities, compareQuantities, type Quantity, quantityString } from "../../go/index.js";
import { isDNS1123Label, isDNS1123Subdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  notSupported,
  objectAt,
  objectItems,
  required,
  stringAt,
} from "./common.js";
import { quantityOf } from "./quantity.js";
import {
  isHugePage,
  isOvercommitAllowed,
  requestWithinLimit,
  validateHugePageValue,
  validateResourceName,
  validateResourceQuantityValue,
} from "./resources.js";

/** Releases from which each feature gate is on by default (pkg/features/kube_features.go). */
const inPlacePodVerticalScalingFrom = 33;
const dynamicResourceAllocationFrom = 34;
const podLevelResourcesFrom = 34;

/** A resource list in the manifest's key order, quantities that do not parse left out (the schema reports them). */
function resourceList(o: JsonObject | undefined): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(o ?? {})) {
    const q = quantityOf(raw);
    if (q !== undefined) out.set(name, q);
  }
  return out;
}

/** addResourceList of component-helpers' resource package. */
function addResourceList(list: Map<string, Quantity>, add: ReadonlyMap<string, Quantity>): void {
  for (const [name, q] of add) {
    const have = list.get(name);
    list.set(name, have === undefined ? q : addQuantities(have, q));
  }
}

/** maxResourceList: the greater of each. */
function maxResourceList(list: Map<string, Quantity>, other: ReadonlyMap<string, Quantity>): void {
  for (const [name, q] of other) {
    const have = list.get(name);
    if (have === undefined || compareQuantities(q, have) > 0) list.set(name, q);
  }
}

// ---------------------------------------------------------------------------
// Resize policy

/** supportedResizeResources and supportedResizePolicies, as sets.List sorts them. */
const resizeResources = ["cpu", "memory"];
const resizeRestartPolicies = ["NotRequired", "RestartContainer"];

/**
 * validateResizePolicy of a container (regular or init) at `at`, in a pod whose restartPolicy is
 * `podRestartPolicy` (the spec's; empty is defaulted to Always). Only the Duplicate has an index: Go reports the
 * rest at `…resizePolicy`. Before 1.33 the field is dropped.
 */
export function validateResizePolicy(
  ctr: JsonObject,
  at: FieldPath,
  podRestartPolicy: string | undefined,
  minor: number,
): Finding[] {
  if (minor < inPlacePodVerticalScalingFrom) return [];
  const out: Finding[] = [];
  const path = child(at, "resizePolicy");
  const seen = new Set<string>();
  for (const [i, policy] of objectItems(ctr, "resizePolicy")) {
    const resourceName = stringAt(policy, "resourceName");
    const restartPolicy = stringAt(policy, "restartPolicy");
    if (resourceName === undefined || restartPolicy === undefined) continue;
    if (seen.has(resourceName)) out.push(duplicate(child(path, i), resourceName, asError));
    seen.add(resourceName);
    if (resourceName === "") out.push(required(path, "", asError));
    else if (!resizeResources.includes(resourceName))
      out.push(notSupported(path, resourceName, resizeResources, asError));
    if (restartPolicy === "") out.push(required(path, "", asError));
    else if (!resizeRestartPolicies.includes(restartPolicy))
      out.push(notSupported(path, restartPolicy, resizeRestartPolicies, asError));
    if (podRestartPolicy === "Never" && restartPolicy !== "NotRequired")
      out.push(invalid(path, restartPolicy, "must be 'NotRequired' when `restartPolicy` is 'Never'", asError));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Dynamic resource allocation

/** gatherPodResourceClaimNames: every non-empty name in spec.resourceClaims, valid or not. */
export function podClaimNames(spec: JsonObject): Set<string> {
  const names = new Set<string>();
  for (const [, claim] of objectItems(spec, "resourceClaims")) {
    const name = stringAt(claim, "name");
    if (name) names.add(name);
  }
  return names;
}

/** validatePodResourceClaims (with validatePodResourceClaim) of `spec.resourceClaims`; `path` is the spec's. */
export function validatePodResourceClaims(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  if (minor < dynamicResourceAllocationFrom) return [];
  const out: Finding[] = [];
  const names = new Set<string>();
  for (const [i, claim] of objectItems(spec, "resourceClaims")) {
    const at = child(path, "resourceClaims", i);
    const name = stringAt(claim, "name");
    if (name === "") out.push(required(child(at, "name"), "", asError));
    else if (name !== undefined) {
      if (names.has(name)) out.push(duplicate(child(at, "name"), name, asError));
      else {
        out.push(...invalidEach(child(at, "name"), name, isDNS1123Label(name)));
        names.add(name);
      }
    }
    const hasClaim = isSet(claim, "resourceClaimName");
    const hasTemplate = isSet(claim, "resourceClaimTemplateName");
    if (hasClaim && hasTemplate)
      out.push(
        invalid(
          at,
          claim,
          "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
          asError,
        ),
      );
    if (!hasClaim && !hasTemplate)
      out.push(invalid(at, claim, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`", asError));
    for (const key of ["resourceClaimName", "resourceClaimTemplateName"]) {
      const value = getKey(claim, key);
      // ValidateResourceClaimName and ValidateResourceClaimTemplateName are NameIsDNSSubdomain.
      if (typeof value === "string") out.push(...invalidEach(child(at, key), value, isDNS1123Subdomain(value)));
    }
  }
  return out;
}

/**
 * validateResourceClaimNames of `resources.claims` (a container's, or the pod's) at `at`, the
 * `…resources` path; `claimNames` is podClaimNames(spec). A claim is named once, or each of its requests
 * once; it must be one of the pod's. Before 1.34 the field is dropped.
 */
export function validateContainerClaims(
  resources: JsonObject | undefined,
  at: FieldPath,
  claimNames: ReadonlySet<string>,
  minor: number,
): Finding[] {
  if (minor < dynamicResourceAllocationFrom) return [];
  const out: Finding[] = [];
  const path = child(at, "claims");
  const names = new Set<string>();
  for (const [i, claim] of objectItems(resources, "claims")) {
    const itemPath = child(path, i);
    const name = stringAt(claim, "name");
    const request = stringAt(claim, "request");
    if (name === undefined || request === undefined) continue;
    if (name === "") {
      out.push(required(itemPath, "", asError));
      continue;
    }
    if (names.has(name)) out.push(duplicate(itemPath, name, asError));
    else {
      let key = name;
      if (request !== "") {
        out.push(...invalidEach(child(itemPath, "request"), request, isDNS1123Label(request)));
        key += `/${request}`;
      }
      if (names.has(key)) out.push(duplicate(itemPath, key, asError));
      else if (request === "") {
        // The whole claim, after one of its requests.
        for (const taken of names) {
          const slash = taken.indexOf("/");
          if (slash >= 0 && taken.slice(0, slash) === name) out.push(duplicate(itemPath, name, asError));
        }
      }
      names.add(key);
    }
    if (!claimNames.has(name)) {
      const listed = [...claimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${
        listed.length === 0 ? " which is empty" : `: ${listed.join(", ")}`
      }`;
      out.push(finding({ type: "FieldValueNotFound", path: itemPath, badValue: name, detail, ...asError }));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Pod-level resources

/** resourcehelper.SupportedPodLevelResources, as sets.List sorts it (the prefix stands for every huge page size). */
const podLevelResourceNames = ["cpu", "hugepages-", "memory"];
const isPodLevelResource = (name: string) => name === "cpu" || name === "memory" || isHugePage(name);

/** validatePodResourceName: a resource name, and one that pod-level resources support. */
function validatePodResourceName(name: string, at: FieldPath): Finding[] {
  const out = validateResourceName(name, at);
  if (out.length > 0) return out;
  return isPodLevelResource(name) ? [] : [notSupported(at, name, podLevelResourceNames, asError)];
}

export interface PodLevelResourcesOptions {
  minor: number;
  /**
   * The spec is a Pod's (not a template's): SetDefaults_Pod has defaulted each container's missing requests to
   * its limits, and the pod's missing requests (defaultPodRequests, when it sets limits) before validation.
   */
  resourceIsPod: boolean;
  /** podClaimNames(spec). */
  claimNames: ReadonlySet<string>;
}

/** A container's requests as validation sees them: on a Pod, a limit stands for a missing request. */
function effectiveRequests(ctr: JsonObject, resourceIsPod: boolean): Map<string, Quantity> {
  const resources = objectAt(ctr, "resources");
  const requests = resourceList(objectAt(resources, "requests"));
  if (resourceIsPod)
    for (const [name, q] of resourceList(objectAt(resources, "limits"))) if (!requests.has(name)) requests.set(name, q);
  return requests;
}

/**
 * resourcehelper.AggregateContainerRequests: the regular containers' requests summed with the sidecars'
 * (restartPolicy Always), or more when an init container, with the sidecars started before it, asks for more.
 */
function aggregateContainerRequests(spec: JsonObject, resourceIsPod: boolean): Map<string, Quantity> {
  const total = new Map<string, Quantity>();
  for (const [, ctr] of objectItems(spec, "containers")) addResourceList(total, effectiveRequests(ctr, resourceIsPod));
  const sidecars = new Map<string, Quantity>();
  const initPeak = new Map<string, Quantity>();
  for (const [, ctr] of objectItems(spec, "initContainers")) {
    const requests = effectiveRequests(ctr, resourceIsPod);
    let use: Map<string, Quantity>;
    if (stringAt(ctr, "restartPolicy") === "Always") {
      addResourceList(total, requests);
      addResourceList(sidecars, requests);
      use = sidecars;
    } else {
      use = new Map();
      addResourceList(use, requests);
      addResourceList(use, sidecars);
    }
    maxResourceList(initPeak, use);
  }
  maxResourceList(total, initPeak);
  return total;
}

/** The pod-level requests as validation sees them: on a Pod with pod-level limits, defaultPodRequests has run. */
function effectivePodRequests(
  resources: JsonObject,
  aggregate: ReadonlyMap<string, Quantity>,
  resourceIsPod: boolean,
): { raw: [string, JsonValue][]; list: Map<string, Quantity> } {
  const raw = Object.entries(objectAt(resources, "requests") ?? {});
  const list = resourceList(objectAt(resources, "requests"));
  const limits = objectAt(resources, "limits") ?? {};
  if (!resourceIsPod || Object.keys(limits).length === 0) return { raw, list };
  const has = (name: string) => raw.some(([n]) => n === name);
  const add = (name: string, q: Quantity) => {
    raw.push([name, quantityString(q)]);
    list.set(name, q);
  };
  for (const [name, q] of aggregate)
    if (!has(name) && isPodLevelResource(name) && isOvercommitAllowed(name)) add(name, q);
  for (const [name, q] of resourceList(limits)) if (!has(name) && isPodLevelResource(name)) add(name, q);
  return { raw, list };
}

/**
 * validatePodResources of `spec.resources` (`path` is the spec's): no claims; validateResourceRequirements with
 * validatePodResourceName; then validatePodResourceConsistency: the pod's requests cover the containers'
 * aggregate, and no regular container's limit exceeds the pod's (at Go's path
 * `…resources.containers[i][cpu].limits`). Before 1.34 the field is dropped.
 */
export function validatePodLevelResources(
  spec: JsonObject,
  path: FieldPath,
  options: PodLevelResourcesOptions,
): Finding[] {
  if (options.minor < podLevelResourcesFrom) return [];
  const resources = objectAt(spec, "resources");
  if (resources === undefined) return [];
  const at = child(path, "resources");
  const out: Finding[] = [];
  if (isSet(resources, "claims"))
    out.push(forbidden(child(at, "claims"), "claims cannot be set for Resources at pod-level", asError));

  const aggregate = aggregateContainerRequests(spec, options.resourceIsPod);
  const requests = effectivePodRequests(resources, aggregate, options.resourceIsPod);
  const limPath = child(at, "limits");
  const reqPath = child(at, "requests");
  const limitsRaw = objectAt(resources, "limits");
  const limits = resourceList(limitsRaw);
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, raw] of Object.entries(limitsRaw ?? {})) {
    const key = child(limPath, { key: name });
    out.push(...validatePodResourceName(name, key), ...validateResourceQuantityValue(name, raw, key));
    if (isHugePage(name)) {
      hugePages = true;
      out.push(...validateHugePageValue(name, raw, key));
    }
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  for (const [name, raw] of requests.raw) {
    const key = child(reqPath, { key: name });
    out.push(...validatePodResourceName(name, key), ...validateResourceQuantityValue(name, raw, key));
    out.push(
      ...requestWithinLimit(name, raw, limitsRaw === undefined ? undefined : getKey(limitsRaw, name), reqPath, limPath),
    );
    if (isHugePage(name)) {
      hugePages = true;
      out.push(...validateHugePageValue(name, raw, key));
    }
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) out.push(forbidden(at, "HugePages require cpu or memory", asError));
  out.push(...validateContainerClaims(resources, at, options.claimNames, options.minor));

  // validatePodResourceConsistency
  for (const [name, total] of aggregate) {
    const podRequest = requests.list.get(name);
    if (podRequest !== undefined && compareQuantities(total, podRequest) > 0)
      out.push(
        invalid(
          child(reqPath, { key: name }),
          quantityString(podRequest),
          `must be greater than or equal to aggregate container requests of ${quantityString(total)}`,
          asError,
        ),
      );
  }
  for (const [i, ctr] of objectItems(spec, "containers")) {
    for (const [name, limit] of resourceList(objectAt(objectAt(ctr, "resources"), "limits"))) {
      const podLimit = limits.get(name);
      if (podLimit !== undefined && compareQuantities(limit, podLimit) > 0)
        out.push(
          invalid(
            child(at, "containers", i, { key: name }, "limits"),
            quantityString(limit),
            `must be less than or equal to pod limits of ${quantityString(podLimit)}`,
            asError,
          ),
        );
    }
  }
  return out;
}
