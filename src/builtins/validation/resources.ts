/**
 * A container's resource requirements (pkg/apis/core/validation
 * validateResourceRequirements with validateContainerResourceName, and
 * ValidateResourceQuantityValue) and the resource-name helpers of
 * pkg/apis/core/helper (IsNativeResource, IsExtendedResourceName,
 * IsOvercommitAllowed …). Quantities that do not parse are the schema's
 * `quantity` format; these rules read only those that do.
 */
import type { Finding } from "../../findings/index.js";
import {
  compareQuantities,
  GoError,
  milliValue,
  parseQuantity,
  type Quantity,
  quantitySign,
  quantityString,
  quantityValue,
} from "../../go/index.js";
import { isQualifiedName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  forbidden,
  invalid,
  invalidEach,
  invalidShown,
  isNegativeErrorMsg,
  objectAt,
  required,
} from "./common.js";
import { quantityOf } from "./quantity.js";

const standardContainerResources = new Set(["cpu", "memory", "ephemeral-storage"]);
const standardResources = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "services",
  "replicationcontrollers",
  "resourcequotas",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "storage",
  "requests.storage",
  "services.nodeports",
  "services.loadbalancers",
]);

/** helper integerResources: counted objects, whole numbers only. */
const integerResources = new Set([
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
]);

export const isHugePage = (name: string) => name.startsWith("hugepages-");
export const isNativeResource = (name: string) => !name.includes("/") || name.includes("kubernetes.io/");
const isExtendedResource = (name: string) =>
  !isNativeResource(name) && !name.startsWith("requests.") && isQualifiedName(`requests.${name}`).length === 0;
/** Extended resources (GPUs, …) cannot be overcommitted: requests must equal limits. */
export const isOvercommitAllowed = (name: string) => isNativeResource(name) && !isHugePage(name);
/** IsStandardResourceName, hugepages included. */
const isStandardResource = (name: string) =>
  standardResources.has(name) || isHugePage(name) || name.startsWith("requests.hugepages-");
/** IsStandardQuotaResourceName: the standard resources but `storage`, which a quota names requests.storage. */
export const isStandardQuotaResource = (name: string) => name !== "storage" && isStandardResource(name);
const isIntegerResource = (name: string) => integerResources.has(name) || isExtendedResource(name);

/** validateResourceName: a qualified name, and a standard one when it has no prefix. */
export function validateResourceName(name: string, path: FieldPath): Finding[] {
  const out = invalidEach(path, name, isQualifiedName(name));
  if (out.length === 0 && !name.includes("/") && !isStandardResource(name))
    out.push(invalid(path, name, "must be a standard resource type or fully qualified", asError));
  return out;
}

/** validateResourceName followed by validateContainerResourceName's own checks. */
export function validateContainerResourceName(name: string, path: FieldPath): Finding[] {
  const out = validateResourceName(name, path);
  if (!name.includes("/")) {
    if (!standardContainerResources.has(name) && !isHugePage(name))
      out.push(invalid(path, name, "must be a standard resource for containers", asError));
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    out.push(invalid(path, name, "doesn't follow extended resource name standard", asError));
  }
  return out;
}

/**
 * ValidateResourceQuantityValue of a quantity that parses: non-negative (its String quoted), and whole for
 * integer resources (the quantity shown as Quantity.String does).
 */
export function validateResourceQuantityValue(name: string, raw: JsonValue | undefined, path: FieldPath): Finding[] {
  const q = quantityOf(raw);
  if (q === undefined) return [];
  const out: Finding[] = [];
  if (quantitySign(q) < 0) out.push(invalid(path, quantityString(q), isNegativeErrorMsg, asError));
  if (isIntegerResource(name) && milliValue(q) % 1000n !== 0n)
    out.push(invalidShown(path, quantityString(q), "must be an integer"));
  return out;
}

/** validateResourceRequirements for a container. */
export function validateContainerResources(resources: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const limPath = child(path, "limits");
  const reqPath = child(path, "requests");
  const limits = objectAt(resources, "limits");
  const requests = objectAt(resources, "requests");
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits ?? {})) {
    const at = child(limPath, { key: name });
    out.push(
      ...validateContainerResourceName(name, at),
      ...validateResourceQuantityValue(name, value, at),
      ...validateHugePageValue(name, value, at),
    );
    if (isHugePage(name)) hugePages = true;
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(requests ?? {})) {
    const at = child(reqPath, { key: name });
    out.push(...validateContainerResourceName(name, at), ...validateResourceQuantityValue(name, value, at));
    const limitValue = limits === undefined ? undefined : getKey(limits, name);
    out.push(...requestWithinLimit(name, value, limitValue, reqPath, limPath));
    out.push(...validateHugePageValue(name, value, at));
    if (isHugePage(name)) hugePages = true;
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) out.push(forbidden(path, "HugePages require cpu or memory", asError));
  return out;
}

/**
 * A request against its limit, as validateResourceRequirements and validatePodResources compare them: equal
 * where the resource cannot be overcommitted (which needs a limit), else not above it. Quantities that do not
 * parse are the schema's to report.
 */
export function requestWithinLimit(
  name: string,
  requestValue: JsonValue | undefined,
  limitValue: JsonValue | undefined,
  reqPath: FieldPath,
  limPath: FieldPath,
): Finding[] {
  if (limitValue === undefined)
    return isOvercommitAllowed(name)
      ? []
      : [required(limPath, "Limit must be set for non overcommitable resources", asError)];
  const request = quantityOf(requestValue);
  const limit = quantityOf(limitValue);
  if (request === undefined || limit === undefined) return [];
  const cmp = compareQuantities(request, limit);
  if (cmp !== 0 && !isOvercommitAllowed(name))
    return [
      invalid(reqPath, quantityString(request), `must be equal to ${name} limit of ${quantityString(limit)}`, asError),
    ];
  if (cmp > 0)
    return [
      invalid(
        reqPath,
        quantityString(request),
        `must be less than or equal to ${name} limit of ${quantityString(limit)}`,
        asError,
      ),
    ];
  return [];
}

/**
 * helper.IsHugePageResourceValueDivisible: the page size is the name's suffix (a quantity of whole bytes, more
 * than 0), and the value a whole number of pages.
 */
function isHugePageValueDivisible(name: string, q: Quantity): boolean {
  const pageSize = parseQuantity(name.slice("hugepages-".length));
  if (pageSize instanceof GoError) return false;
  if (quantitySign(pageSize) <= 0 || milliValue(pageSize) % 1000n !== 0n) return false;
  return quantityValue(q) % quantityValue(pageSize) === 0n;
}

/**
 * validateResourceQuantityHugePageValue of one entry of a `limits` or `requests` map, at `at` (its
 * `…limits[hugepages-2Mi]`). Nothing for other resources or a quantity that does not parse.
 */
export function validateHugePageValue(name: string, raw: JsonValue | undefined, at: FieldPath): Finding[] {
  if (!isHugePage(name)) return [];
  const q = quantityOf(raw);
  if (q === undefined || isHugePageValueDivisible(name, q)) return [];
  const shown = quantityString(q);
  return [invalid(at, shown, `${shown} is not positive integer multiple of ${name}`, asError)];
}
