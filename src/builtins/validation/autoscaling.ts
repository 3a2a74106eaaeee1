/**
 * autoscaling/v2 HorizontalPodAutoscalers (pkg/apis/autoscaling/validation/validation.go):
 * validateHorizontalPodAutoscalerSpec (replica bounds; then, only when the
 * target reference is valid, the metrics; then, only when those are, the
 * behavior), the metric sources and validateMetricTarget. Which source a
 * metric's type selects is the union registry's.
 */
import type { Finding } from "../../findings/index.js";
import { quantitySign, quantityString } from "../../go/index.js";
import { isDNS1123Label, isValidPathSegmentName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  firstSetObject,
  forbidden,
  invalid,
  invalidEach,
  invalidShown,
  isSet,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  required,
  requiredIfEmpty,
  setStringAt,
  stringAt,
} from "./common.js";
import { quantityOf } from "./quantity.js";
import { validateContainerResourceName } from "./resources.js";

/** The feature gate HPAScaleToZero is off by default: at least one replica. */
const minReplicasLowerBound = 1;
const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;

export function validateHorizontalPodAutoscaler(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const spec = ["spec"];
  const out: Finding[] = [];
  const minReplicas = optionalIntAt(s, "minReplicas");
  const maxReplicas = optionalIntAt(s, "maxReplicas");
  if (minReplicas !== undefined && minReplicas < minReplicasLowerBound)
    out.push(
      invalid(
        child(spec, "minReplicas"),
        minReplicas,
        `must be greater than or equal to ${minReplicasLowerBound}`,
        asError,
      ),
    );
  if (maxReplicas !== undefined && maxReplicas < 1)
    out.push(invalid(child(spec, "maxReplicas"), maxReplicas, "must be greater than 0", asError));
  if (minReplicas !== undefined && maxReplicas !== undefined && maxReplicas < minReplicas)
    out.push(
      invalid(child(spec, "maxReplicas"), maxReplicas, "must be greater than or equal to `minReplicas`", asError),
    );
  const ref = crossVersionObjectReference(objectAt(s, "scaleTargetRef"), child(spec, "scaleTargetRef"));
  if (ref.failed) return [...out, ...ref.findings];
  const metrics = validateMetrics(s, child(spec, "metrics"), minReplicas);
  if (metrics.length > 0) return [...out, ...metrics];
  return [...out, ...validateBehavior(objectAt(s, "behavior"), child(spec, "behavior"))];
}

/**
 * ValidateCrossVersionObjectReference. A kind or name left out is the
 * schema's required field, yet still stops the metrics from being validated.
 */
function crossVersionObjectReference(
  ref: JsonObject | undefined,
  at: FieldPath,
): { failed: boolean; findings: Finding[] } {
  let failed = false;
  const findings: Finding[] = [];
  for (const key of ["kind", "name"]) {
    const value = stringAt(ref, key);
    if (value === "") {
      failed = true;
      if (ref !== undefined) findings.push(...requiredIfEmpty(ref, key, at));
    } else if (value !== undefined) {
      const errs = invalidEach(child(at, key), value, isValidPathSegmentName(value, false));
      failed ||= errs.length > 0;
      findings.push(...errs);
    }
  }
  return { failed, findings };
}

function validateMetrics(s: JsonObject, at: FieldPath, minReplicas: number | undefined): Finding[] {
  const out: Finding[] = [];
  let objectOrExternal = false;
  for (const [i, metric] of objectItems(s, "metrics")) {
    out.push(...validateMetricSource(metric, child(at, i)));
    const type = stringAt(metric, "type");
    if (type === "Object" || type === "External") objectOrExternal = true;
  }
  if (minReplicas === 0 && !objectOrExternal)
    out.push(
      forbidden(at, "must specify at least one Object or External metric to support scaling to zero replicas", asError),
    );
  return out;
}

/** validateMetricSpec validates the first source set, in its own order. */
function validateMetricSource(metric: JsonObject, at: FieldPath): Finding[] {
  const first = firstSetObject(metric, ["object", "external", "pods", "resource", "containerResource"]);
  if (first === undefined) return [];
  const { field: source, value: src } = first;
  const srcAt = child(at, source);
  const target = objectAt(src, "target");
  const targetAt = child(srcAt, "target");
  const out: Finding[] = [];
  const has = (key: string) => isSet(target, key);
  switch (source) {
    case "object":
      out.push(
        ...crossVersionObjectReference(objectAt(src, "describedObject"), child(srcAt, "describedObject")).findings,
      );
      out.push(
        ...validateMetricIdentifier(objectAt(src, "metric"), child(srcAt, "metric")),
        ...metricTarget(target, targetAt),
      );
      if (!has("value") && !has("averageValue"))
        out.push(required(child(targetAt, "averageValue"), "must set either a target value or averageValue", asError));
      break;
    case "external":
      out.push(
        ...validateMetricIdentifier(objectAt(src, "metric"), child(srcAt, "metric")),
        ...metricTarget(target, targetAt),
      );
      if (!has("value") && !has("averageValue"))
        out.push(
          required(
            child(targetAt, "averageValue"),
            "must set either a target value for metric or a per-pod target",
            asError,
          ),
        );
      if (has("value") && has("averageValue"))
        out.push(
          forbidden(
            child(targetAt, "value"),
            "may not set both a target value for metric and a per-pod target",
            asError,
          ),
        );
      break;
    case "pods":
      out.push(
        ...validateMetricIdentifier(objectAt(src, "metric"), child(srcAt, "metric")),
        ...metricTarget(target, targetAt),
      );
      if (!has("averageValue"))
        out.push(required(child(targetAt, "averageValue"), "must specify a positive target averageValue", asError));
      break;
    default: {
      const name = stringAt(src, "name");
      if (name === "") out.push(...requiredIfEmpty(src, "name", srcAt, "must specify a resource name"));
      else if (name !== undefined && source === "containerResource")
        out.push(...validateContainerResourceName(name, child(srcAt, "name")));
      if (source === "containerResource") {
        const container = stringAt(src, "container");
        if (container === "") out.push(...requiredIfEmpty(src, "container", srcAt, "must specify a container"));
        else if (container !== undefined)
          out.push(...invalidEach(child(srcAt, "container"), container, isDNS1123Label(container)));
      }
      out.push(...metricTarget(target, targetAt));
      if (!has("averageUtilization") && !has("averageValue"))
        out.push(
          required(
            child(targetAt, "averageUtilization"),
            "must set either a target raw value or a target utilization",
            asError,
          ),
        );
      if (has("averageUtilization") && has("averageValue"))
        out.push(
          forbidden(
            child(targetAt, "averageValue"),
            "may not set both a target raw value and a target utilization",
            asError,
          ),
        );
    }
  }
  return out;
}

const targetTypes = new Set(["Utilization", "Value", "AverageValue"]);

/** validateMetricTarget. */
function metricTarget(target: JsonObject | undefined, at: FieldPath): Finding[] {
  if (target === undefined) return [];
  const out: Finding[] = [];
  const type = stringAt(target, "type");
  if (type === "" && Object.hasOwn(target, "type"))
    out.push(required(child(at, "type"), "must specify a metric target type", asError));
  if (type !== undefined && !targetTypes.has(type))
    out.push(invalid(child(at, "type"), type, "must be either Utilization, Value, or AverageValue", asError));
  for (const key of ["value", "averageValue"]) {
    const q = quantityOf(getKey(target, key));
    if (q !== undefined && quantitySign(q) !== 1)
      out.push(invalidShown(child(at, key), quantityString(q), "must be positive"));
  }
  const utilization = optionalIntAt(target, "averageUtilization");
  if (utilization !== undefined && utilization < 1)
    out.push(invalid(child(at, "averageUtilization"), utilization, "must be greater than 0", asError));
  return out;
}

/** validateBehavior and validateScalingRules. */
function validateBehavior(behavior: JsonObject | undefined, at: FieldPath): Finding[] {
  return ["scaleUp", "scaleDown"].flatMap((direction) =>
    validateScalingRules(objectAt(behavior, direction), child(at, direction)),
  );
}

/**
 * validateMetricIdentifier: a metric name, fit for a URL path segment. A `metric` or `name` left out is the
 * schema's required field.
 */
function validateMetricIdentifier(metric: JsonObject | undefined, at: FieldPath): Finding[] {
  if (metric === undefined) return [];
  const name = stringAt(metric, "name");
  if (name === "") return requiredIfEmpty(metric, "name", at, "must specify a metric name");
  return name === undefined ? [] : invalidEach(child(at, "name"), name, isValidPathSegmentName(name, false));
}

/**
 * validateScalingRules and validateScalingPolicy of one direction (`behavior.scaleUp` or `scaleDown`), in Go's
 * order: the stabilization window, the select policy, then the policies. Unset fields take the defaults first
 * (copyHPAScalingRules keeps what is written); an empty `policies` list is written, so it stays empty.
 */
function validateScalingRules(rules: JsonObject | undefined, at: FieldPath): Finding[] {
  if (rules === undefined) return [];
  const out: Finding[] = [];
  const window = optionalIntAt(rules, "stabilizationWindowSeconds");
  const windowAt = child(at, "stabilizationWindowSeconds");
  if (window !== undefined && window < 0)
    out.push(invalid(windowAt, window, "must be greater than or equal to zero", asError));
  if (window !== undefined && window > maxStabilizationWindowSeconds)
    out.push(invalid(windowAt, window, `must be less than or equal to ${maxStabilizationWindowSeconds}`, asError));
  const selectPolicy = setStringAt(rules, "selectPolicy");
  if (selectPolicy !== undefined && !["Disabled", "Max", "Min"].includes(selectPolicy))
    out.push(notSupported(child(at, "selectPolicy"), selectPolicy, ["Disabled", "Max", "Min"], asError));
  const policies = getKey(rules, "policies");
  const policiesAt = child(at, "policies");
  if (Array.isArray(policies) && policies.length === 0)
    out.push(required(policiesAt, "must specify at least one Policy", asError));
  for (const [i, policy] of objectItems(rules, "policies")) {
    const policyAt = child(policiesAt, i);
    const type = stringAt(policy, "type");
    if (type !== undefined && Object.hasOwn(policy, "type") && type !== "Pods" && type !== "Percent")
      out.push(notSupported(child(policyAt, "type"), type, ["Percent", "Pods"], asError));
    const value = optionalIntAt(policy, "value") ?? 0;
    const period = optionalIntAt(policy, "periodSeconds") ?? 0;
    if (value <= 0) out.push(invalid(child(policyAt, "value"), value, "must be greater than zero", asError));
    if (period <= 0) out.push(invalid(child(policyAt, "periodSeconds"), period, "must be greater than zero", asError));
    if (period > maxPeriodSeconds)
      out.push(
        invalid(child(policyAt, "periodSeconds"), period, `must be less than or equal to ${maxPeriodSeconds}`, asError),
      );
  }
  return out;
}
