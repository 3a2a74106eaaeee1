/**
 * Workload rules apps.ts and batch.ts did not yet hold, each named after the
 * Go function it follows, in its words, paths and order:
 *
 * - pkg/apis/batch/validation/validation.go: validatePodFailurePolicy (with
 *   its rule, onExitCodes and onPodConditions checks), the successPolicy
 *   branch of validateJobSpec with validateSuccessPolicy and
 *   validateIndexesFormat, the managedBy check, the Indexed-mode limits, the
 *   pod hostname check of ValidateJob, and ValidateJobTemplateSpec's
 *   selector rules.
 * - pkg/apis/apps/validation/validation.go: ValidateDeploymentStrategy's
 *   Recreate branch, ValidateStatefulSetSpec's updateStrategy switch with
 *   validateRollingUpdateStatefulSet, its serviceName check, and
 *   ValidateControllerRevision.
 *
 * Every value is read as the server sees it after apps/v1 and batch/v1
 * defaulting (SetDefaults_Job, SetDefaults_StatefulSet).
 */
import { type Finding, tooLong, tooMany } from "../../findings/index.js";
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue, shallowCopy } from "../../value/index.js";
import {
  asError,
  duplicate,
  invalid,
  invalidEach,
  isSet,
  listAt,
  nonNegative,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  required,
  stringAt,
} from "./common.js";

// ---------------------------------------------------------------------------
// batch: Jobs

const maxPodFailurePolicyRules = 20;
const maxPodFailurePolicyOnExitCodesValues = 255;
const maxPodFailurePolicyOnPodConditionsPatterns = 20;
const maxManagedByLength = 63;
const maxJobSuccessPolicySucceededIndexesLimit = 64 * 1024;
const maxSuccessPolicyRule = 20;
const maxFailedIndexesForIndexedJob = 100_000;
const completionsSoftLimit = 100_000;
const parallelismLimitForHighCompletions = 10_000;
const maxFailedIndexesLimitForHighCompletions = 10_000;

/** The sets Go lists with sets.List: sorted. */
const podFailurePolicyActions = ["Count", "FailIndex", "FailJob", "Ignore"];
const onExitCodesOperators = ["In", "NotIn"];
const conditionStatuses = ["False", "True", "Unknown"];

/** `completionMode` after SetDefaults_Job (NonIndexed when unset). */
const isIndexed = (s: JsonObject): boolean => stringAt(s, "completionMode") === "Indexed";

/**
 * A Job's spec as SetDefaults_Job leaves it for what its validation reads: completions and parallelism 1 when
 * neither is set, an absent or empty onPodConditions status True. A CronJob's job template is not defaulted so
 * (SetObjectDefaults_CronJob calls SetDefaults_CronJob and the pod spec's defaults, not SetDefaults_Job): its
 * validation reads the spec as written.
 */
export function withJobDefaults(s: JsonObject): JsonObject {
  const out = shallowCopy(s);
  if (!isSet(s, "completions") && !isSet(s, "parallelism")) {
    out.completions = 1;
    out.parallelism = 1;
  }
  const policy = objectAt(s, "podFailurePolicy");
  if (policy !== undefined)
    out.podFailurePolicy = {
      ...policy,
      rules: listAt(policy, "rules").map((rule) =>
        isObject(rule) && Array.isArray(getKey(rule, "onPodConditions"))
          ? {
              ...rule,
              onPodConditions: listAt(rule, "onPodConditions").map((p) =>
                isObject(p) && stringAt(p, "status") === "" ? { ...p, status: "True" } : p,
              ),
            }
          : rule,
      ),
    };
  return out;
}

/**
 * The managedBy check of validateJobSpec: IsDomainPrefixedPath, then at most
 * 63 characters. Goes right after the maxFailedIndexes checks.
 */
export function validateJobManagedBy(s: JsonObject, path: FieldPath): Finding[] {
  const managedBy = getKey(s, "managedBy");
  if (typeof managedBy !== "string") return [];
  const at = child(path, "managedBy");
  const out = isDomainPrefixedPath(at, managedBy);
  if (managedBy.length > maxManagedByLength) out.push(tooLong(at, managedBy, maxManagedByLength, asError));
  return out;
}

const httpPathFormat = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathPattern = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** apimachinery validation.IsDomainPrefixedPath: `<DNS subdomain>/<HTTP path>`. */
function isDomainPrefixedPath(at: FieldPath, value: string): Finding[] {
  if (value === "") return [required(at, "", asError)];
  const slash = value.indexOf("/");
  const host = slash < 0 ? "" : value.slice(0, slash);
  const rest = slash < 0 ? "" : value.slice(slash + 1);
  if (host === "" || rest === "")
    return [invalid(at, value, 'must be a domain-prefixed path (such as "acme.io/foo")', asError)];
  const out = invalidEach(at, host, isDNS1123Subdomain(host));
  if (!httpPathPattern.test(rest)) out.push(invalid(at, rest, regexError("Invalid path", httpPathFormat), asError));
  return out;
}

/**
 * The Indexed branch of validateJobSpec after its parallelism check:
 * maxFailedIndexes against completions and the two caps, then the limits for
 * more than 100000 completions with backoffLimitPerIndex.
 */
export function validateIndexedJobLimits(s: JsonObject, path: FieldPath): Finding[] {
  if (!isIndexed(s)) return [];
  const out: Finding[] = [];
  const completions = optionalIntAt(s, "completions");
  const maxFailed = optionalIntAt(s, "maxFailedIndexes");
  const parallelism = optionalIntAt(s, "parallelism");
  const maxFailedAt = child(path, "maxFailedIndexes");
  if (completions !== undefined && maxFailed !== undefined && maxFailed > completions)
    out.push(invalid(maxFailedAt, maxFailed, "must be less than or equal to completions", asError));
  if (maxFailed !== undefined && maxFailed > maxFailedIndexesForIndexedJob)
    out.push(
      invalid(maxFailedAt, maxFailed, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`, asError),
    );
  if (completions !== undefined && completions > completionsSoftLimit && isSet(s, "backoffLimitPerIndex")) {
    const high = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
    if (maxFailed === undefined)
      out.push(required(maxFailedAt, `must be specified when completions is above ${completionsSoftLimit}`, asError));
    if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions)
      out.push(
        invalid(
          child(path, "parallelism"),
          parallelism,
          `must be less than or equal to ${parallelismLimitForHighCompletions} ${high}`,
          asError,
        ),
      );
    if (maxFailed !== undefined && maxFailed > maxFailedIndexesLimitForHighCompletions)
      out.push(
        invalid(
          maxFailedAt,
          maxFailed,
          `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${high}`,
          asError,
        ),
      );
  }
  return out;
}

/** validatePodFailurePolicy, called by validateJobSpec when `podFailurePolicy` is set. */
export function validatePodFailurePolicy(s: JsonObject, path: FieldPath): Finding[] {
  const policy = objectAt(s, "podFailurePolicy");
  if (policy === undefined) return [];
  const at = child(path, "podFailurePolicy");
  const rulesAt = child(at, "rules");
  const rules = listAt(policy, "rules");
  const out: Finding[] = [];
  if (rules.length > maxPodFailurePolicyRules)
    out.push(tooMany(rulesAt, rules.length, maxPodFailurePolicyRules, asError));
  const podSpec = objectAt(objectAt(s, "template"), "spec");
  const containerNames = new Set<string>();
  for (const key of ["containers", "initContainers"])
    for (const [, c] of objectItems(podSpec, key)) containerNames.add(stringAt(c, "name") ?? "");
  rules.forEach((rule, i) => {
    if (isObject(rule)) out.push(...validatePodFailurePolicyRule(s, rule, child(rulesAt, i), containerNames));
  });
  return out;
}

function validatePodFailurePolicyRule(
  s: JsonObject,
  rule: JsonObject,
  at: FieldPath,
  containerNames: ReadonlySet<string>,
): Finding[] {
  const out: Finding[] = [];
  const actionAt = child(at, "action");
  const action = stringAt(rule, "action") ?? "";
  if (action === "") out.push(required(actionAt, `valid values: ${goQuotedList(podFailurePolicyActions)}`, asError));
  else if (action === "FailIndex") {
    if (!isSet(s, "backoffLimitPerIndex"))
      out.push(invalid(actionAt, action, "requires the backoffLimitPerIndex to be set", asError));
  } else if (!podFailurePolicyActions.includes(action))
    out.push(notSupported(actionAt, action, podFailurePolicyActions, asError));
  const onExitCodes = objectAt(rule, "onExitCodes");
  const onPodConditions = listAt(rule, "onPodConditions");
  if (onExitCodes !== undefined)
    out.push(...validatePodFailurePolicyRuleOnExitCodes(onExitCodes, child(at, "onExitCodes"), containerNames));
  if (onPodConditions.length > 0)
    out.push(...validatePodFailurePolicyRuleOnPodConditions(onPodConditions, child(at, "onPodConditions")));
  // field.OmitValueType: the message leaves the value out.
  if (onExitCodes !== undefined && onPodConditions.length > 0)
    out.push(invalid(at, undefined, "specifying both OnExitCodes and OnPodConditions is not supported", asError));
  if (onExitCodes === undefined && onPodConditions.length === 0)
    out.push(invalid(at, undefined, "specifying one of OnExitCodes and OnPodConditions is required", asError));
  return out;
}

function validatePodFailurePolicyRuleOnPodConditions(patterns: JsonValue[], at: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (patterns.length > maxPodFailurePolicyOnPodConditionsPatterns)
    out.push(tooMany(at, patterns.length, maxPodFailurePolicyOnPodConditionsPatterns, asError));
  patterns.forEach((pattern, j) => {
    if (!isObject(pattern)) return;
    const patternAt = child(at, j);
    const type = stringAt(pattern, "type") ?? "";
    out.push(...invalidEach(child(patternAt, "type"), type, isQualifiedName(type)));
    // a Job's absent status is True by now (withJobDefaults); a CronJob's job template's is not
    const status = stringAt(pattern, "status");
    if (status === "")
      out.push(required(child(patternAt, "status"), `valid values: ${goQuotedList(conditionStatuses)}`, asError));
    else if (status !== undefined && !conditionStatuses.includes(status))
      out.push(notSupported(child(patternAt, "status"), status, conditionStatuses, asError));
  });
  return out;
}

function validatePodFailurePolicyRuleOnExitCodes(
  onExitCodes: JsonObject,
  at: FieldPath,
  containerNames: ReadonlySet<string>,
): Finding[] {
  const out: Finding[] = [];
  const operatorAt = child(at, "operator");
  const operator = stringAt(onExitCodes, "operator") ?? "";
  if (operator === "") out.push(required(operatorAt, `valid values: ${goQuotedList(onExitCodesOperators)}`, asError));
  else if (!onExitCodesOperators.includes(operator))
    out.push(notSupported(operatorAt, operator, onExitCodesOperators, asError));
  const containerName = getKey(onExitCodes, "containerName");
  if (typeof containerName === "string" && !containerNames.has(containerName))
    out.push(
      invalid(
        child(at, "containerName"),
        containerName,
        "must be one of the container or initContainer names in the pod template",
        asError,
      ),
    );
  const valuesAt = child(at, "values");
  const values = listAt(onExitCodes, "values").filter((v): v is number => typeof v === "number");
  // an absent list is Go's nil slice, printed null
  if (values.length === 0)
    out.push(
      invalid(valuesAt, isSet(onExitCodes, "values") ? values : null, "at least one value is required", asError),
    );
  else if (values.length > maxPodFailurePolicyOnExitCodesValues)
    out.push(tooMany(valuesAt, values.length, maxPodFailurePolicyOnExitCodesValues, asError));
  let ordered = true;
  const seen = new Set<number>();
  values.forEach((value, j) => {
    const valueAt = child(valuesAt, j);
    if (operator === "In" && value === 0)
      out.push(invalid(valueAt, value, "must not be 0 for the In operator", asError));
    if (seen.has(value)) out.push(duplicate(valueAt, value, asError));
    else seen.add(value);
    if (j > 0 && (values[j - 1] ?? value) > value) ordered = false;
  });
  if (!ordered) out.push(invalid(valuesAt, values, "must be ordered", asError));
  return out;
}

/**
 * The successPolicy branch of validateJobSpec: only for Indexed Jobs, then
 * validateSuccessPolicy. Goes right after validatePodFailurePolicy.
 */
export function validateSuccessPolicy(s: JsonObject, path: FieldPath): Finding[] {
  const policy = objectAt(s, "successPolicy");
  if (policy === undefined) return [];
  const at = child(path, "successPolicy");
  if (!isIndexed(s)) return [invalid(at, policy, "requires indexed completion mode", asError)];
  const out: Finding[] = [];
  const rulesAt = child(at, "rules");
  const rules = listAt(policy, "rules");
  if (rules.length === 0)
    out.push(required(rulesAt, "at least one rules must be specified when the successPolicy is specified", asError));
  if (rules.length > maxSuccessPolicyRule) out.push(tooMany(rulesAt, rules.length, maxSuccessPolicyRule, asError));
  // An Indexed Job without completions is refused by validateJobSpec already (the Go code would dereference nil).
  const completions = optionalIntAt(s, "completions");
  if (completions === undefined) return out;
  rules.forEach((rule, i) => {
    if (isObject(rule)) out.push(...validateSuccessPolicyRule(rule, completions, child(rulesAt, i)));
  });
  return out;
}

function validateSuccessPolicyRule(rule: JsonObject, completions: number, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const indexes = getKey(rule, "succeededIndexes");
  const count = optionalIntAt(rule, "succeededCount");
  const hasIndexes = typeof indexes === "string";
  if (count === undefined && !hasIndexes)
    out.push(required(at, "at least one of succeededCount or succeededIndexes must be specified", asError));
  let total = 0;
  if (hasIndexes) {
    const indexesAt = child(at, "succeededIndexes");
    if (indexes.length > maxJobSuccessPolicySucceededIndexesLimit)
      out.push(tooLong(indexesAt, indexes, maxJobSuccessPolicySucceededIndexesLimit, asError));
    const parsed = validateIndexesFormat(indexes, completions);
    if (typeof parsed === "string")
      out.push(invalid(indexesAt, indexes, `error parsing succeededIndexes: ${parsed}`, asError));
    else total = parsed;
  }
  if (count !== undefined) {
    const countAt = child(at, "succeededCount");
    out.push(...nonNegative(count, countAt));
    if (count > completions)
      out.push(
        invalid(
          countAt,
          count,
          `must be less than or equal to ${completions} (the number of specified completions)`,
          asError,
        ),
      );
    if (hasIndexes && count > total)
      out.push(
        invalid(
          countAt,
          count,
          `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          asError,
        ),
      );
  }
  return out;
}

/** strconv.Atoi: an optional sign and decimal digits; undefined where Go returns an error. */
function atoi(s: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : undefined;
}

/** parseIndexInterval: `x` or `x-y` with x < y < completions; the error text otherwise. */
function parseIndexInterval(interval: string, completions: number): [number, number] | string {
  const limits = interval.split("-");
  if (limits.length > 2)
    return `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const first = limits[0] ?? "";
  const second = limits[1] ?? "";
  const x = atoi(first);
  if (x === undefined) return `cannot convert string to integer for index: ${JSON.stringify(first)}`;
  if (x >= completions) return `too large index: ${JSON.stringify(first)}`;
  if (limits.length === 1) return [x, x];
  const y = atoi(second);
  if (y === undefined) return `cannot convert string to integer for index: ${JSON.stringify(second)}`;
  if (y >= completions) return `too large index: ${JSON.stringify(second)}`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

/** validateIndexesFormat: the number of indexes a list of intervals holds, or the parse error. */
export function validateIndexesFormat(indexes: string, completions: number): number | string {
  if (indexes === "") return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of indexes.split(",")) {
    const parsed = parseIndexInterval(interval, completions);
    if (typeof parsed === "string") return parsed;
    const [x, y] = parsed;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/**
 * ValidateJob's check after ValidateJobSpec: an Indexed Job's last pod
 * hostname (`<name>-<completions-1>`) must be a DNS label; `s` is its spec
 * after withJobDefaults.
 */
export function validateIndexedJobHostname(object: JsonObject, s: JsonObject): Finding[] {
  if (!isIndexed(s)) return [];
  const completions = optionalIntAt(s, "completions");
  if (completions === undefined || completions <= 0) return [];
  const name = stringAt(objectAt(object, "metadata"), "name") ?? "";
  const hostname = `${name}-${completions - 1}`;
  if (isDNS1123Label(hostname).length === 0) return [];
  return [
    invalid(["metadata", "name"], name, `will not able to create pod with invalid DNS label: ${hostname}`, asError),
  ];
}

/**
 * ValidateJobTemplateSpec's own checks, after validateJobSpec of
 * `spec.jobTemplate.spec`: the selector is always generated, so none may be
 * given, and manualSelector may not be true.
 */
export function validateJobTemplateSpec(jobSpec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const selector = getKey(jobSpec, "selector");
  if (isObject(selector))
    out.push(invalid(child(path, "spec", "selector"), selector, "`selector` will be auto-generated", asError));
  if (getKey(jobSpec, "manualSelector") === true)
    out.push(notSupported(child(path, "spec", "manualSelector"), true, ["nil", "false"], asError));
  return out;
}

// ---------------------------------------------------------------------------
// apps

/** The release whose ValidateStatefulSetSpec first checks `serviceName` (kubernetes PR #130233). */
export const statefulSetServiceNameMinor = 33;

/** ValidateStatefulSetSpec on create: a non-empty serviceName must be a DNS-1123 label (it becomes the pods' subdomain). */
export function validateStatefulSetServiceName(s: JsonObject, path: FieldPath, minor: number): Finding[] {
  if (minor < statefulSetServiceNameMinor) return [];
  const name = stringAt(s, "serviceName") ?? "";
  if (name === "") return [];
  return invalidEach(child(path, "serviceName"), name, isDNS1123Label(name));
}

/** ValidateControllerRevision after the object metadata: data is mandatory, revision not negative. */
export function validateControllerRevision(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const data = getKey(object, "data");
  if (data === undefined || data === null) out.push(required(["data"], "data is mandatory", asError));
  out.push(...nonNegative(optionalIntAt(object, "revision"), ["revision"]));
  return out;
}

// ---------------------------------------------------------------------------
// Go's printing

/** `%q` of a []string, as fmt prints `sets.List(...)`: `["a" "b"]`. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
}
