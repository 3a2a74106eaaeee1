/**
 * batch/v1 Jobs and CronJobs (pkg/apis/batch/validation/validation.go):
 * validateJobSpec with its restart-policy rule and enums (completionMode,
 * podReplacementPolicy, validateConcurrencyPolicy), the selector a Job's
 * strategy generates (validateGeneratedSelector), and validateCronJobSpec
 * (schedule syntax through robfig/cron, timeZone, history limits).
 */
import type { Finding } from "../../findings/index.js";
import { maxLenError } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  invalid,
  isSet,
  labelSelectorAsSelector,
  nonNegativeAt,
  notSupported,
  objectAt,
  oneOf,
  optionalIntAt,
  required,
  selectorMatches,
  stringAt,
  stringMapAt,
  templateLabels,
  validateLabelSelector,
  zeroIfAbsent,
} from "./common.js";
import { cronParseError, timeZoneLoadError } from "./cron.js";
import { templateAfterPodSpec, validatePodSpec, validateTemplateMetadata } from "./pod.js";
import {
  validateIndexedJobHostname,
  validateIndexedJobLimits,
  validateJobManagedBy,
  validateJobTemplateSpec,
  validatePodFailurePolicy,
  validateSuccessPolicy,
  withJobDefaults,
} from "./workload-rules.js";

const maxParallelismForIndexedJob = 100000;

/**
 * validateJobSpec at `path`: a Job's `spec` after withJobDefaults, or a CronJob's `spec.jobTemplate.spec` as
 * written.
 */
function validateJobSpec(s: JsonObject, path: FieldPath, minor: number): Finding[] {
  const out: Finding[] = [];
  for (const key of [
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "backoffLimit",
    "ttlSecondsAfterFinished",
    "backoffLimitPerIndex",
    "maxFailedIndexes",
  ])
    out.push(...nonNegativeAt(s, key, path));
  if (isSet(s, "maxFailedIndexes") && !isSet(s, "backoffLimitPerIndex"))
    out.push(required(child(path, "backoffLimitPerIndex"), "when maxFailedIndexes is specified", asError));
  out.push(...validateJobManagedBy(s, path));
  out.push(...oneOf(s, "completionMode", path, ["NonIndexed", "Indexed"]));
  const mode = stringAt(s, "completionMode");
  if (mode === "Indexed") {
    if (optionalIntAt(s, "completions") === undefined)
      out.push(required(child(path, "completions"), "when completion mode is Indexed", asError));
    const parallelism = optionalIntAt(s, "parallelism");
    if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob)
      out.push(
        invalid(
          child(path, "parallelism"),
          parallelism,
          `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`,
          asError,
        ),
      );
    out.push(...validateIndexedJobLimits(s, path));
  } else if (mode === "" || mode === "NonIndexed") {
    for (const key of ["backoffLimitPerIndex", "maxFailedIndexes"]) {
      const v = optionalIntAt(s, key);
      if (v !== undefined) out.push(invalid(child(path, key), v, "requires indexed completion mode", asError));
    }
  }
  out.push(...validatePodFailurePolicy(s, path), ...validateSuccessPolicy(s, path));
  out.push(...validatePodReplacementPolicy(s, path));
  const template = objectAt(s, "template");
  const templateAt = child(path, "template");
  // a template or pod spec left out is the zero one, without containers
  const podSpec = zeroIfAbsent(template, "spec");
  out.push(...validateTemplateMetadata(template, templateAt));
  if (podSpec !== undefined)
    out.push(...validatePodSpec(podSpec, child(templateAt, "spec"), { workloadChecksRestartPolicy: true, minor }));
  out.push(...templateAfterPodSpec(template, templateAt));
  // An unset restartPolicy is defaulted to Always (SetDefaults_PodSpec), which a Job's pods may not have.
  const policy = stringAt(podSpec, "restartPolicy");
  const policyAt = child(templateAt, "spec", "restartPolicy");
  if (policy === "" || policy === "Always") out.push(required(policyAt, 'valid values: "OnFailure", "Never"', asError));
  else if (policy !== undefined && policy !== "OnFailure" && policy !== "Never")
    out.push(notSupported(policyAt, policy, ["OnFailure", "Never"], asError));
  else if (policy === "OnFailure" && isSet(s, "podFailurePolicy"))
    out.push(invalid(policyAt, policy, 'only "Never" is supported when podFailurePolicy is specified', asError));
  return out;
}

/** validatePodReplacementPolicy: with a pod failure policy, only Failed. */
function validatePodReplacementPolicy(s: JsonObject, path: FieldPath): Finding[] {
  if (!isSet(s, "podFailurePolicy")) return oneOf(s, "podReplacementPolicy", path, ["Failed", "TerminatingOrFailed"]);
  return oneOf(s, "podReplacementPolicy", path, ["Failed"]);
}

/** The labels the Job strategy puts on the pod template, and its generated selector selects. */
const generatedLabels = new Set([
  "controller-uid",
  "job-name",
  "batch.kubernetes.io/controller-uid",
  "batch.kubernetes.io/job-name",
]);

export function validateJob(object: JsonObject, minor: number): Finding[] {
  const written = objectAt(object, "spec");
  if (written === undefined) return [];
  const s = withJobDefaults(written);
  const path = ["spec"];
  const out = validateJobSpec(s, path, minor);
  out.push(...validateIndexedJobHostname(object, s));
  const selector = objectAt(s, "selector");
  if (getKey(s, "manualSelector") === true) {
    // ValidateJobSpec: a manual selector must be given, and select the template.
    if (selector === undefined) out.push(required(child(path, "selector"), "", asError));
    out.push(...validateLabelSelector(selector, child(path, "selector")));
    const converted = labelSelectorAsSelector(selector);
    const template = objectAt(s, "template");
    if (
      selector !== undefined &&
      converted !== undefined &&
      !selectorMatches(converted, stringMapAt(objectAt(template, "metadata"), "labels"))
    )
      out.push(
        invalid(
          child(path, "template", "metadata", "labels"),
          templateLabels(template),
          "`selector` does not match template `labels`",
          asError,
        ),
      );
  } else if (selector !== undefined) {
    // validateGeneratedSelector: without manualSelector the server generates the selector,
    // and one that selects on anything else no longer matches the labels it generates.
    const own =
      stringMapAt(selector, "matchLabels").some(([k]) => !generatedLabels.has(k)) ||
      (Array.isArray(getKey(selector, "matchExpressions")) &&
        (getKey(selector, "matchExpressions") as unknown[]).length > 0);
    if (own) out.push(invalid(child(path, "selector"), selector, "`selector` not auto-generated", asError));
  }
  return out;
}

/** The part of a zone name IANA allows (batch validation's validTimeZoneCharacters). */
const timeZonePart = /^[A-Za-z.\-_0-9+]{1,14}$/;

function validateTimeZone(zone: string, path: FieldPath): Finding[] {
  if (zone === "") return [invalid(path, zone, "timeZone must be nil or non-empty string", asError)];
  for (const part of zone.split("/")) {
    if (part === "." || part === ".." || part.startsWith("-") || !timeZonePart.test(part))
      return [invalid(path, zone, `unknown time zone ${zone}`, asError)];
  }
  const out: Finding[] = [];
  if (zone.toLowerCase() === "local")
    out.push(
      invalid(
        path,
        zone,
        "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        asError,
      ),
    );
  const problem = timeZoneLoadError(zone);
  if (problem !== undefined) out.push(invalid(path, zone, problem, asError));
  return out;
}

/** CronJob names leave room for the 11 characters the controller appends to its Jobs' names. */
const maxCronJobNameLength = 52;

export function validateCronJob(object: JsonObject, minor: number): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(objectAt(object, "metadata"), "name");
  if (name !== undefined && name.length > maxCronJobNameLength)
    out.push(invalid(["metadata", "name"], name, maxLenError(maxCronJobNameLength), asError));
  const s = objectAt(object, "spec");
  if (s === undefined) return out;
  const path = ["spec"];
  const schedule = stringAt(s, "schedule");
  if (schedule === "") out.push(required(child(path, "schedule"), "", asError));
  else if (schedule !== undefined) {
    const problem = cronParseError(schedule);
    if (problem !== undefined) out.push(invalid(child(path, "schedule"), schedule, problem, asError));
    if (schedule.includes("TZ"))
      out.push(
        invalid(
          child(path, "schedule"),
          schedule,
          "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
          asError,
        ),
      );
  }
  out.push(...nonNegativeAt(s, "startingDeadlineSeconds", path));
  // validateConcurrencyPolicy; an unset policy is defaulted to Allow.
  out.push(...oneOf(s, "concurrencyPolicy", path, ["Allow", "Forbid", "Replace"]));
  const zone = getKey(s, "timeZone");
  if (typeof zone === "string") out.push(...validateTimeZone(zone, child(path, "timeZone")));
  // a job template or its spec left out is the zero one
  const jobSpec = zeroIfAbsent(zeroIfAbsent(s, "jobTemplate"), "spec");
  if (jobSpec !== undefined)
    out.push(
      ...validateJobSpec(jobSpec, child(path, "jobTemplate", "spec"), minor),
      ...validateJobTemplateSpec(jobSpec, child(path, "jobTemplate")),
    );
  out.push(...nonNegativeAt(s, "successfulJobsHistoryLimit", path));
  out.push(...nonNegativeAt(s, "failedJobsHistoryLimit", path));
  return out;
}
