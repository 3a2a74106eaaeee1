/**
 * apps/v1 workload controllers (pkg/apis/apps/validation/validation.go):
 * ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateDaemonSetSpec,
 * ValidateStatefulSetSpec and the template checks they share
 * (ValidatePodTemplateSpecForReplicaSet, …), with the rolling-update
 * parameters after the server's defaults (apps/v1 defaults.go). Strategy
 * types are the unions' (unions/wording.ts).
 */
import type { Finding } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  forbidden,
  intAt,
  invalid,
  isSet,
  isValidPercent,
  labelSelectorAsSelector,
  listAt,
  nonNegative,
  nonNegativeAt,
  objectAt,
  objectItems,
  oneOf,
  optionalIntAt,
  required,
  type Selector,
  selectorMatches,
  stringAt,
  stringMapAt,
  templateLabels,
  validateLabelSelector,
  zeroIfAbsent,
} from "./common.js";
import { validatePersistentVolumeClaimSpec } from "./persistent-volumes.js";
import { templateAfterPodSpec, validatePodSpec, validateTemplateMetadata } from "./pod.js";
import { validateStatefulSetServiceName } from "./workload-rules.js";

const spec = ["spec"];
const templatePath = child(spec, "template");

/**
 * A controller's pods restart forever: `restartPolicy` must be (or default
 * to) Always. The pod spec's own check is not repeated at the same path
 * (validatePodSpec's workloadChecksRestartPolicy).
 */
export function restartAlways(template: JsonObject | undefined, templateAt: FieldPath): Finding[] {
  return oneOf(objectAt(template, "spec"), "restartPolicy", child(templateAt, "spec"), ["Always"]);
}

/** The pod spec of a controller's template at `templateAt`, whose restartPolicy the controller checks. */
export function controllerPodSpec(template: JsonObject | undefined, templateAt: FieldPath, minor: number): Finding[] {
  // a template or pod spec left out is the zero one, without containers
  const podSpec = zeroIfAbsent(template, "spec");
  if (podSpec === undefined) return [];
  return [
    ...validatePodSpec(podSpec, child(templateAt, "spec"), { workloadChecksRestartPolicy: true, minor }),
    ...templateAfterPodSpec(template, templateAt),
  ];
}

/** The template's labels must be selected by the controller's selector (an empty selector selects all). */
function selectorMatchesTemplate(selector: Selector, template: JsonObject | undefined, at: FieldPath): Finding[] {
  if (selector === "everything") return [];
  const labels = stringMapAt(objectAt(template, "metadata"), "labels");
  if (selectorMatches(selector, labels)) return [];
  return [
    invalid(
      child(at, "metadata", "labels"),
      templateLabels(template),
      "`selector` does not match template `labels`",
      asError,
    ),
  ];
}

/** The `spec.selector` checks every controller makes: strict label syntax, and not empty. */
function validateSelector(s: JsonObject, controller: string): { findings: Finding[]; selector?: Selector } {
  const raw = getKey(s, "selector");
  const selector = objectAt(s, "selector");
  const findings = validateLabelSelector(selector, child(spec, "selector"));
  if (selector !== undefined && stringMapAt(selector, "matchLabels").length === 0) {
    const expressions = getKey(selector, "matchExpressions");
    if (!Array.isArray(expressions) || expressions.length === 0)
      findings.push(invalid(child(spec, "selector"), raw, `empty selector is invalid for ${controller}`, asError));
  }
  const converted = labelSelectorAsSelector(selector);
  return converted === undefined ? { findings } : { findings, selector: converted };
}

/** ValidatePodTemplateSpecForReplicaSet, shared by Deployments and ReplicaSets. */
function replicaSetTemplate(s: JsonObject, selector: Selector, controller: string, minor: number): Finding[] {
  const template = objectAt(s, "template");
  const out = selectorMatchesTemplate(selector, template, templatePath);
  out.push(...templatePodSpec(template, controller, minor));
  return out;
}

/**
 * A controller's template (ValidatePodTemplateSpec): its metadata, the pod rules, restartPolicy Always, no
 * activeDeadlineSeconds.
 */
function templatePodSpec(template: JsonObject | undefined, controller: string, minor: number): Finding[] {
  const podSpec = objectAt(template, "spec");
  const out = validateTemplateMetadata(template, templatePath);
  out.push(...controllerPodSpec(template, templatePath, minor));
  out.push(...restartAlways(template, templatePath));
  if (isSet(podSpec, "activeDeadlineSeconds")) {
    const at = child(templatePath, "spec", "activeDeadlineSeconds");
    out.push(forbidden(at, `activeDeadlineSeconds in ${controller} is not Supported`, asError));
  }
  return out;
}

/** ValidateReplicaSetSpec; Deployments share it but for the strategy and deadlines. */
function replicaSetLike(s: JsonObject, word: string, controller: string, minor: number): Finding[] {
  const out = [...nonNegativeAt(s, "replicas", spec), ...nonNegativeAt(s, "minReadySeconds", spec)];
  const selected = validateSelector(s, word);
  out.push(...selected.findings);
  if (selected.selector === undefined)
    out.push(invalid(child(spec, "selector"), getKey(s, "selector"), "invalid label selector", asError));
  else out.push(...replicaSetTemplate(s, selected.selector, controller, minor));
  return out;
}

export function validateReplicaSet(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec");
  // The API server's own copy-and-paste: a ReplicaSet's empty selector is "invalid for deployment".
  return s === undefined ? [] : replicaSetLike(s, "deployment", "ReplicaSet", minor);
}

export function validateDeployment(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const out = replicaSetLike(s, "deployment", "ReplicaSet", minor);
  const strategy = objectAt(s, "strategy");
  const type = stringAt(strategy, "type");
  if (type === "" || type === "RollingUpdate") {
    // SetDefaults_Deployment: 25% each when unset.
    const rolling = objectAt(strategy, "rollingUpdate");
    const at = child(spec, "strategy", "rollingUpdate");
    const maxUnavailable = intOrPercent(rolling, "maxUnavailable", "25%");
    const maxSurge = intOrPercent(rolling, "maxSurge", "25%");
    out.push(...positiveIntOrPercent(maxUnavailable, child(at, "maxUnavailable")));
    out.push(...positiveIntOrPercent(maxSurge, child(at, "maxSurge")));
    if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0)
      out.push(invalid(child(at, "maxUnavailable"), maxUnavailable, "may not be 0 when `maxSurge` is 0", asError));
    out.push(...notMoreThan100Percent(maxUnavailable, child(at, "maxUnavailable")));
  }
  out.push(...nonNegativeAt(s, "revisionHistoryLimit", spec));
  // progressDeadlineSeconds defaults to 600 (SetDefaults_Deployment).
  const deadline = Object.hasOwn(s, "progressDeadlineSeconds") ? optionalIntAt(s, "progressDeadlineSeconds") : 600;
  const minReady = intAt(s, "minReadySeconds");
  if (deadline !== undefined) {
    out.push(...nonNegative(deadline, child(spec, "progressDeadlineSeconds")));
    if (minReady !== undefined && deadline <= minReady)
      out.push(
        invalid(child(spec, "progressDeadlineSeconds"), deadline, "must be greater than minReadySeconds", asError),
      );
  }
  return out;
}

export function validateDaemonSet(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const selector = objectAt(s, "selector");
  const out = validateLabelSelector(selector, child(spec, "selector"));
  const template = objectAt(s, "template");
  const converted = labelSelectorAsSelector(selector);
  if (converted !== undefined && !selectorMatches(converted, stringMapAt(objectAt(template, "metadata"), "labels")))
    out.push(
      invalid(
        child(templatePath, "metadata", "labels"),
        templateLabels(template),
        "`selector` does not match template `labels`",
        asError,
      ),
    );
  if (converted === "everything" && selector !== undefined)
    out.push(invalid(child(spec, "selector"), selector, "empty selector is invalid for daemonset", asError));
  out.push(...templatePodSpec(template, "DaemonSet", minor));
  out.push(...nonNegativeAt(s, "minReadySeconds", spec), ...nonNegativeAt(s, "templateGeneration", spec));
  const strategy = objectAt(s, "updateStrategy");
  const type = stringAt(strategy, "type");
  if (type === "" || type === "RollingUpdate") {
    // SetDefaults_DaemonSet: maxUnavailable 1, maxSurge 0 when unset.
    const rolling = objectAt(strategy, "rollingUpdate");
    const at = child(spec, "updateStrategy", "rollingUpdate");
    const maxUnavailable = intOrPercent(rolling, "maxUnavailable", 1);
    const maxSurge = intOrPercent(rolling, "maxSurge", 0);
    out.push(...positiveIntOrPercent(maxUnavailable, child(at, "maxUnavailable")));
    out.push(...positiveIntOrPercent(maxSurge, child(at, "maxSurge")));
    out.push(...notMoreThan100Percent(maxUnavailable, child(at, "maxUnavailable")));
    out.push(...notMoreThan100Percent(maxSurge, child(at, "maxSurge")));
    const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
    const hasSurge = intOrPercentValue(maxSurge) !== 0;
    if (hasUnavailable && hasSurge)
      out.push(invalid(child(at, "maxSurge"), maxSurge, "may not be set when maxUnavailable is non-zero", asError));
    else if (!hasUnavailable && !hasSurge)
      out.push(required(child(at, "maxUnavailable"), "cannot be 0 when maxSurge is 0", asError));
  }
  out.push(...nonNegativeAt(s, "revisionHistoryLimit", spec));
  return out;
}

/**
 * ValidateStatefulSetSpec. Through 1.33 the API server does not validate a
 * StatefulSet's pod spec (its volume mounts may name volume claim templates)
 * or its claim templates: the pods and claims are refused later, when the
 * controller creates them. From 1.34 it validates both on create: the claim
 * templates after the retention policy (kubernetes#132212,
 * ValidateVolumeClaimTemplates), the pod spec in
 * ValidatePodTemplateSpecForStatefulSet (kubernetes#131790) with a volume
 * for each claim template, as the controller gives its pods. On an update
 * (`oldObject`) it skips either when the old StatefulSet's already fail it
 * (StatefulSetValidationOptions' SkipValidatePodTemplateSpec and
 * SkipValidateVolumeClaimTemplates), so an old object stays updatable.
 */
export function validateStatefulSet(object: JsonObject, minor: number, oldObject?: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const oldSpec = objectAt(oldObject, "spec");
  const out: Finding[] = [];
  // An unset policy is defaulted to OrderedReady.
  const podManagement = stringAt(s, "podManagementPolicy");
  if (podManagement && podManagement !== "OrderedReady" && podManagement !== "Parallel")
    out.push(
      invalid(child(spec, "podManagementPolicy"), podManagement, "must be 'OrderedReady' or 'Parallel'", asError),
    );
  // ValidatePersistentVolumeClaimRetentionPolicy: each unset rule is defaulted to Retain.
  const retention = objectAt(s, "persistentVolumeClaimRetentionPolicy");
  const retentionAt = child(spec, "persistentVolumeClaimRetentionPolicy");
  for (const key of ["whenDeleted", "whenScaled"])
    out.push(...oneOf(retention, key, retentionAt, ["Retain", "Delete"]));
  if (minor >= 34 && (oldSpec === undefined || claimTemplates(oldSpec, minor).length === 0))
    out.push(...claimTemplates(s, minor));
  out.push(...nonNegativeAt(s, "replicas", spec), ...nonNegativeAt(s, "minReadySeconds", spec));
  const start = optionalIntAt(objectAt(s, "ordinals"), "start");
  out.push(...nonNegative(start, child(spec, "ordinals.start")));
  out.push(...validateStatefulSetServiceName(s, spec, minor));
  const rolling = objectAt(objectAt(s, "updateStrategy"), "rollingUpdate");
  if (rolling !== undefined && stringAt(objectAt(s, "updateStrategy"), "type") !== "OnDelete") {
    const at = child(spec, "updateStrategy", "rollingUpdate");
    out.push(...nonNegativeAt(rolling, "partition", at));
    // MaxUnavailableStatefulSet: alpha and off until 1.34, when the server drops the field; on from 1.35.
    if (minor >= 35 && isSet(rolling, "maxUnavailable")) {
      const maxUnavailable = getKey(rolling, "maxUnavailable") as JsonValue;
      out.push(...positiveIntOrPercent(maxUnavailable, child(at, "maxUnavailable")));
      if (intOrPercentValue(maxUnavailable) === 0)
        out.push(invalid(child(at, "maxUnavailable"), maxUnavailable, "cannot be 0", asError));
      out.push(...notMoreThan100Percent(maxUnavailable, child(at, "maxUnavailable")));
    }
  }
  const selected = validateSelector(s, "statefulset");
  out.push(...selected.findings);
  const template = objectAt(s, "template");
  if (selected.selector === undefined) out.push(invalid(child(spec, "selector"), getKey(s, "selector"), "", asError));
  else {
    // ValidatePodTemplateSpecForStatefulSet: the template's metadata, and from 1.34 its pod spec.
    out.push(...selectorMatchesTemplate(selected.selector, template, templatePath));
    out.push(...validateTemplateMetadata(template, templatePath));
    if (minor >= 34 && (oldSpec === undefined || statefulPodSpec(oldSpec, minor).length === 0))
      out.push(...statefulPodSpec(s, minor));
  }
  out.push(...restartAlways(template, templatePath));
  if (isSet(objectAt(template, "spec"), "activeDeadlineSeconds"))
    out.push(
      forbidden(
        child(templatePath, "spec", "activeDeadlineSeconds"),
        "activeDeadlineSeconds in StatefulSet is not Supported",
        asError,
      ),
    );
  return out;
}

/** ValidateVolumeClaimTemplates: each claim template's spec. */
function claimTemplates(s: JsonObject, minor: number): Finding[] {
  return objectItems(s, "volumeClaimTemplates").flatMap(([i, claim]) => {
    const claimSpec = objectAt(claim, "spec");
    return claimSpec === undefined
      ? []
      : validatePersistentVolumeClaimSpec(claimSpec, child(spec, "volumeClaimTemplates", i, "spec"), minor);
  });
}

/** The pod spec ValidatePodTemplateSpecForStatefulSet validates: the template's, with the claims' volumes. */
const statefulPodSpec = (s: JsonObject, minor: number): Finding[] =>
  controllerPodSpec(withClaimVolumes(s, objectAt(s, "template")), templatePath, minor);

/**
 * The template with a volume for each claim template, as the StatefulSet controller's updateStorage gives its
 * pods: a persistentVolumeClaim of the claim's name first, then the template's own volumes but one of a claim's
 * name, which the claim replaces. So a mount may name a claim template.
 */
function withClaimVolumes(s: JsonObject, template: JsonObject | undefined): JsonObject | undefined {
  const podSpec = objectAt(template, "spec");
  const claims = new Set<string>();
  for (const [, claim] of objectItems(s, "volumeClaimTemplates")) {
    const name = stringAt(objectAt(claim, "metadata"), "name");
    if (name) claims.add(name);
  }
  if (template === undefined || podSpec === undefined || claims.size === 0) return template;
  const own = listAt(podSpec, "volumes").filter((v) => !(isObject(v) && claims.has(stringAt(v, "name") ?? "")));
  const claimed = [...claims].map((name): JsonObject => ({ name, persistentVolumeClaim: { claimName: name } }));
  return { ...template, spec: { ...podSpec, volumes: [...claimed, ...own] } };
}

// ---------------------------------------------------------------------------
// int-or-percent parameters (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent)

function intOrPercent(o: JsonObject | undefined, key: string, fallback: number | string): JsonValue {
  const v = o === undefined ? undefined : getKey(o, key);
  return v === undefined || v === null ? fallback : v;
}

/** getPercentValue: the number of a valid percent string. */
function percentValue(v: JsonValue): number | undefined {
  return typeof v === "string" && isValidPercent(v).length === 0 ? Number(v.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue. */
function intOrPercentValue(v: JsonValue): number | undefined {
  const percent = percentValue(v);
  if (percent !== undefined) return percent;
  if (typeof v === "number") return v;
  // IntOrString.IntValue: a string that is not a number counts as 0.
  return typeof v === "string" ? (/^[+-]?[0-9]+$/.test(v) ? Number(v) : 0) : undefined;
}

export function positiveIntOrPercent(v: JsonValue, path: FieldPath): Finding[] {
  if (typeof v === "string") return isValidPercent(v).map((m) => invalid(path, v, m, asError));
  if (typeof v === "number" && Number.isInteger(v)) return nonNegative(v, path);
  return [];
}

export function notMoreThan100Percent(v: JsonValue, path: FieldPath): Finding[] {
  const percent = percentValue(v);
  return percent !== undefined && percent > 100 ? [invalid(path, v, "must not be greater than 100%", asError)] : [];
}
