/**
 * HorizontalPodAutoscalers, autoscaling/v2 and autoscaling/v1
 * (pkg/apis/autoscaling/validation/validation.go): validateHorizontalPodAutoscalerSpec
 * (the replica bounds, then the target reference, the metrics and the behavior, each
 * validated whatever the others gave), ValidateCrossVersionObjectReference with
 * ValidateAPIVersion, validateMetrics, validateMetricSpec and its sources,
 * validateMetricTarget, validateMetricIdentifier, validateBehavior and
 * validateScalingRules; with the options that
 * pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go
 * (validationOptionsForHorizontalPodAutoscaler) gives on a create, or on an update
 * against the stored object.
 *
 * The server validates its internal object. A v2 object is that object once
 * defaulted (pkg/apis/autoscaling/v2/defaults.go: minReplicas 1, the 80% cpu metric
 * for an empty list, each scaling rule's unset fields). A v1 object is first
 * defaulted (minReplicas 1) and converted (pkg/apis/autoscaling/v1/conversion.go),
 * which the v1 validator here does before the same rules, so its messages name the
 * internal fields (spec.metrics[0].resource.target.averageUtilization).
 * The registry's metric-source union defers to validateMetricSpec here, which sees the
 * metrics of either version.
 */
import type { Finding } from "../../findings/index.js";
import { quantitySign, quantityString } from "../../go/index.js";
import { isDNS1123Label, isValidPathSegmentName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  firstSetObject,
  forbidden,
  invalid,
  invalidEach,
  invalidShown,
  isNegativeErrorMsg,
  isSet,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  required,
  setStringAt,
  stringAt,
  zeroIfAbsent,
} from "./common.js";
import { quantityOf } from "./quantity.js";
import { validateContainerResourceName } from "./resources.js";

const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;
/** autoscaling.DefaultCPUUtilization: the metric an HPA without any is given. */
const defaultCPUUtilization = 80;

/** CrossVersionObjectReferenceValidationOptions. */
interface ReferenceOptions {
  allowEmptyAPIGroup: boolean;
  allowInvalidAPIVersion: boolean;
}

/** HorizontalPodAutoscalerSpecValidationOptions, with what the release and the API version decide. */
interface SpecOptions {
  minor: number;
  minReplicasLowerBound: number;
  scaleTargetRef: ReferenceOptions;
  objectMetrics: ReferenceOptions;
  /** HPAConfigurableTolerance: the field survives PrepareForCreate and is validated. */
  tolerance: boolean;
}

const spec: FieldPath = ["spec"];

/** autoscaling/v2 HorizontalPodAutoscaler: ValidateHorizontalPodAutoscaler (ValidateHorizontalPodAutoscalerUpdate's spec rules on an update). */
export function validateHorizontalPodAutoscaler(object: JsonObject, minor: number, oldObject?: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  return validateSpec(s, specOptions(s, objectAt(oldObject, "spec"), minor));
}

/**
 * autoscaling/v1 HorizontalPodAutoscaler: converted to the internal object
 * (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler), then
 * ValidateHorizontalPodAutoscaler as for v2.
 */
export function validateHorizontalPodAutoscalerV1(
  object: JsonObject,
  minor: number,
  oldObject?: JsonObject,
): Finding[] {
  const s = internalSpecOfV1(object);
  if (s === undefined) return [];
  const old = oldObject === undefined ? undefined : internalSpecOfV1(oldObject);
  return validateSpec(s, specOptions(s, old, minor));
}

/**
 * validationOptionsForHorizontalPodAutoscaler. HPAScaleToZero is off by default,
 * so at least one replica, unless the stored object already has none. From 1.34
 * (kubernetes#132537) the references' apiVersions are validated: the target's must
 * name a group unless it is a ReplicationController, and neither is checked on an
 * update that keeps the target's apiVersion and kind, or whose stored object
 * metrics already fail it.
 */
function specOptions(s: JsonObject, old: JsonObject | undefined, minor: number): SpecOptions {
  const target = objectAt(s, "scaleTargetRef");
  const oldTarget = objectAt(old, "scaleTargetRef");
  const apiVersions = minor >= 34;
  const scaleTargetRef = { allowEmptyAPIGroup: false, allowInvalidAPIVersion: !apiVersions };
  if (
    old !== undefined &&
    stringAt(oldTarget, "apiVersion") === stringAt(target, "apiVersion") &&
    stringAt(oldTarget, "kind") === stringAt(target, "kind")
  )
    scaleTargetRef.allowInvalidAPIVersion = true;
  else if (stringAt(target, "kind") === "ReplicationController") scaleTargetRef.allowEmptyAPIGroup = true;
  const objectMetrics = { allowEmptyAPIGroup: true, allowInvalidAPIVersion: !apiVersions };
  for (const [, metric] of objectItems(old, "metrics")) {
    const described = objectAt(objectAt(metric, "object"), "describedObject");
    if (stringAt(metric, "type") === "Object" && apiVersionError(described, objectMetrics) !== undefined)
      objectMetrics.allowInvalidAPIVersion = true;
  }
  // HPAConfigurableTolerance: alpha in 1.33 and 1.34 (dropDisabledFields clears the field unless the stored
  // object uses it), beta and on from 1.35.
  const tolerance = minor >= 35 || (minor >= 33 && toleranceInUse(old));
  return {
    minor,
    minReplicasLowerBound: optionalIntAt(old, "minReplicas") === 0 ? 0 : 1,
    scaleTargetRef,
    objectMetrics,
    tolerance,
  };
}

const toleranceInUse = (s: JsonObject | undefined): boolean =>
  ["scaleUp", "scaleDown"].some((d) => isSet(objectAt(objectAt(s, "behavior"), d), "tolerance"));

/** validateHorizontalPodAutoscalerSpec, on the defaulted spec. */
function validateSpec(s: JsonObject, opts: SpecOptions): Finding[] {
  const out: Finding[] = [];
  const minReplicas = optionalIntAt(s, "minReplicas") ?? 1;
  // absent, Go's zero
  const maxReplicas = isSet(s, "maxReplicas") ? optionalIntAt(s, "maxReplicas") : 0;
  const maxAt = child(spec, "maxReplicas");
  if (minReplicas < opts.minReplicasLowerBound)
    out.push(
      invalid(
        child(spec, "minReplicas"),
        minReplicas,
        `must be greater than or equal to ${opts.minReplicasLowerBound}`,
        asError,
      ),
    );
  if (maxReplicas !== undefined) {
    // 1.36 (kubernetes#135412, declarative validation of maxReplicas) words it as a required field.
    if (opts.minor >= 36 && maxReplicas === 0) out.push(required(maxAt, "must be set and greater than 0", asError));
    else if (opts.minor >= 36 && maxReplicas < 0)
      out.push(invalid(maxAt, maxReplicas, "must be greater than or equal to 1", asError));
    else if (opts.minor < 36 && maxReplicas < 1)
      out.push(invalid(maxAt, maxReplicas, "must be greater than 0", asError));
    if (maxReplicas < minReplicas)
      out.push(invalid(maxAt, maxReplicas, "must be greater than or equal to `minReplicas`", asError));
  }
  out.push(
    ...crossVersionObjectReference(
      zeroIfAbsent(s, "scaleTargetRef"),
      child(spec, "scaleTargetRef"),
      opts.scaleTargetRef,
    ),
    ...validateMetrics(s, child(spec, "metrics"), minReplicas, opts),
    ...validateBehavior(objectAt(s, "behavior"), child(spec, "behavior"), opts),
  );
  return out;
}

/**
 * ValidateCrossVersionObjectReference. A kind, name or apiVersion left out is "" (a reference left out, the
 * zero one).
 */
function crossVersionObjectReference(ref: JsonObject | undefined, at: FieldPath, opts: ReferenceOptions): Finding[] {
  if (ref === undefined) return [];
  const out: Finding[] = [];
  for (const key of ["kind", "name"]) {
    const value = stringAt(ref, key);
    if (value === "") out.push(required(child(at, key), "", asError));
    else if (value !== undefined) out.push(...invalidEach(child(at, key), value, isValidPathSegmentName(value, false)));
  }
  const apiVersion = stringAt(ref, "apiVersion");
  const error = apiVersionError(ref, opts);
  if (apiVersion !== undefined && error !== undefined)
    out.push(invalid(child(at, "apiVersion"), apiVersion, error, asError));
  return out;
}

/** ValidateAPIVersion over schema.ParseGroupVersion: the error's text, or undefined. */
function apiVersionError(ref: JsonObject | undefined, opts: ReferenceOptions): string | undefined {
  const apiVersion = stringAt(ref, "apiVersion");
  if (opts.allowInvalidAPIVersion || apiVersion === undefined) return undefined;
  const slashes = apiVersion.split("/").length - 1;
  if (slashes > 1) return `unexpected GroupVersion string: ${apiVersion}`;
  // "" and "/" parse to the empty GroupVersion; "v1" to the core group.
  const group = slashes === 1 ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  if (!opts.allowEmptyAPIGroup && group === "") return "apiVersion must specify API group";
  return undefined;
}

/** validateMetrics. An empty list was given the cpu metric, which is neither an Object nor an External one. */
function validateMetrics(s: JsonObject, at: FieldPath, minReplicas: number, opts: SpecOptions): Finding[] {
  const out: Finding[] = [];
  let objectOrExternal = false;
  for (const [i, metric] of objectItems(s, "metrics")) {
    out.push(...validateMetricSpec(metric, child(at, i), opts));
    const type = stringAt(metric, "type");
    if (type === "Object" || type === "External") objectOrExternal = true;
  }
  if (minReplicas === 0 && !objectOrExternal)
    out.push(
      forbidden(at, "must specify at least one Object or External metric to support scaling to zero replicas", asError),
    );
  return out;
}

/** validMetricSourceTypesList, sorted, and each type's field. */
const metricSources: Readonly<Record<string, string>> = {
  ContainerResource: "containerResource",
  External: "external",
  Object: "object",
  Pods: "pods",
  Resource: "resource",
};

/**
 * validateMetricSpec: the type required and one of the source types, the first
 * source set validated in Go's order, the source the type names populated and every
 * other populated source Forbidden. The server reports an unknown type twice (before
 * and in its switch) and the extra sources in Go's map order; its aggregated message
 * prints each error once, and kunion gives the extra sources sorted.
 */
function validateMetricSpec(metric: JsonObject, at: FieldPath, opts: SpecOptions): Finding[] {
  const out: Finding[] = [];
  const type = stringAt(metric, "type") ?? "";
  const expected = Object.hasOwn(metricSources, type) ? metricSources[type] : undefined;
  const typeAt = child(at, "type");
  if (type === "") out.push(required(typeAt, "must specify a metric source type", asError));
  if (expected === undefined) out.push(notSupported(typeAt, type, Object.keys(metricSources), asError));
  out.push(...validateMetricSource(metric, at, opts));
  if (expected !== undefined && !isSet(metric, expected))
    out.push(required(child(at, expected), "must populate information for the given metric source", asError));
  const present = Object.values(metricSources).filter((f) => isSet(metric, f));
  if (present.length !== 1)
    for (const f of present.filter((f) => f !== expected).sort())
      out.push(forbidden(child(at, f), "must populate the given metric source only", asError));
  return out;
}

/** The first source set, in validateMetricSpec's order, by its validate*Source. */
function validateMetricSource(metric: JsonObject, at: FieldPath, opts: SpecOptions): Finding[] {
  const first = firstSetObject(metric, ["object", "external", "pods", "resource", "containerResource"]);
  if (first === undefined) return [];
  const { field: source, value: src } = first;
  const srcAt = child(at, source);
  // an absent target or metric is the zero struct, validated as such
  const target = zeroIfAbsent(src, "target");
  const identifier = zeroIfAbsent(src, "metric");
  const targetAt = child(srcAt, "target");
  const out: Finding[] = [];
  const has = (key: string) => isSet(target, key);
  switch (source) {
    case "object":
      out.push(
        ...crossVersionObjectReference(
          zeroIfAbsent(src, "describedObject"),
          child(srcAt, "describedObject"),
          opts.objectMetrics,
        ),
        ...validateMetricIdentifier(identifier, child(srcAt, "metric")),
        ...metricTarget(target, targetAt),
      );
      if (!has("value") && !has("averageValue"))
        out.push(required(child(targetAt, "averageValue"), "must set either a target value or averageValue", asError));
      break;
    case "external":
      out.push(...validateMetricIdentifier(identifier, child(srcAt, "metric")), ...metricTarget(target, targetAt));
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
      out.push(...validateMetricIdentifier(identifier, child(srcAt, "metric")), ...metricTarget(target, targetAt));
      if (!has("averageValue"))
        out.push(required(child(targetAt, "averageValue"), "must specify a positive target averageValue", asError));
      break;
    default: {
      const name = stringAt(src, "name");
      if (name === "") out.push(required(child(srcAt, "name"), "must specify a resource name", asError));
      else if (name !== undefined && source === "containerResource")
        out.push(...validateContainerResourceName(name, child(srcAt, "name")));
      if (source === "containerResource") {
        const container = stringAt(src, "container");
        if (container === "") out.push(required(child(srcAt, "container"), "must specify a container", asError));
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
  if (type === "") out.push(required(child(at, "type"), "must specify a metric target type", asError));
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

/** validateMetricIdentifier: a metric name, fit for a URL path segment. */
function validateMetricIdentifier(metric: JsonObject | undefined, at: FieldPath): Finding[] {
  if (metric === undefined) return [];
  const name = stringAt(metric, "name");
  if (name === "") return [required(child(at, "name"), "must specify a metric name", asError)];
  return name === undefined ? [] : invalidEach(child(at, "name"), name, isValidPathSegmentName(name, false));
}

/** validateBehavior: scaleUp, then scaleDown. */
function validateBehavior(behavior: JsonObject | undefined, at: FieldPath, opts: SpecOptions): Finding[] {
  return ["scaleUp", "scaleDown"].flatMap((direction) =>
    validateScalingRules(objectAt(behavior, direction), child(at, direction), opts),
  );
}

/**
 * validateScalingRules and validateScalingPolicy of one direction (`behavior.scaleUp` or `scaleDown`), in Go's
 * order: the stabilization window, the select policy, the policies, then the tolerance. Unset fields take the
 * defaults first (copyHPAScalingRules keeps what is written); an empty `policies` list is written, so it stays
 * empty.
 */
function validateScalingRules(rules: JsonObject | undefined, at: FieldPath, opts: SpecOptions): Finding[] {
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
    if (type !== undefined && type !== "Pods" && type !== "Percent")
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
  // ValidateNonnegativeQuantity: the bad value is the quantity's String, quoted.
  const tolerance = opts.tolerance ? quantityOf(getKey(rules, "tolerance")) : undefined;
  if (tolerance !== undefined && quantitySign(tolerance) < 0)
    out.push(invalid(child(at, "tolerance"), quantityString(tolerance), isNegativeErrorMsg, asError));
  return out;
}

// ---------------------------------------------------------------------------
// autoscaling/v1 to the internal object (pkg/apis/autoscaling/v1/conversion.go)

/** autoscaling.MetricSpecsAnnotation and BehaviorSpecsAnnotation: what v2 holds that v1 has no field for. */
const metricsAnnotation = "autoscaling.alpha.kubernetes.io/metrics";
const behaviorAnnotation = "autoscaling.alpha.kubernetes.io/behavior";

/**
 * The internal spec of a v1 HPA, spelled with v2's fields: Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_
 * HorizontalPodAutoscalerSpec (targetCPUUtilizationPercentage becomes a cpu Utilization metric), then
 * Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler: the metrics annotation's metrics
 * go before it, the behavior annotation gives the behavior, and an HPA left without any metric gets the 80% cpu
 * one. An annotation that does not decode is ignored, as the conversion ignores it.
 */
function internalSpecOfV1(object: JsonObject): JsonObject | undefined {
  const s = objectAt(object, "spec");
  if (s === undefined) return undefined;
  const out: JsonObject = {};
  for (const key of ["scaleTargetRef", "minReplicas", "maxReplicas"]) {
    const value = getKey(s, key);
    if (value !== undefined) out[key] = value;
  }
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const metrics: JsonObject[] = decoded(() => v1Metrics(setStringAt(annotations, metricsAnnotation))) ?? [];
  const cpu = optionalIntAt(s, "targetCPUUtilizationPercentage");
  if (cpu !== undefined) metrics.push(cpuMetric(cpu));
  out.metrics = metrics.length > 0 ? metrics : [cpuMetric(defaultCPUUtilization)];
  const behavior = decoded(() => internalBehavior(setStringAt(annotations, behaviorAnnotation)));
  if (behavior !== undefined) out.behavior = behavior;
  return out;
}

const cpuMetric = (utilization: number): JsonObject => ({
  type: "Resource",
  resource: { name: "cpu", target: { type: "Utilization", averageUtilization: utilization } },
});

/** A value Go's encoding/json would refuse for the field's type: the whole annotation is dropped. */
class Undecodable extends Error {}
const undecodable = (): never => {
  throw new Undecodable();
};

function decoded<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (e) {
    if (e instanceof Undecodable) return undefined;
    throw e;
  }
}

/** A struct field as encoding/json finds it: the last key that matches the field's name, case aside. */
function goField(o: JsonObject, name: string): JsonValue | undefined {
  let found: JsonValue | undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(o)) if (key.toLowerCase() === lower) found = value;
  return found;
}

/** A JSON value decoded into a Go pointer, slice or struct field: undefined for absent or null. */
const present = (v: JsonValue | undefined): JsonValue | undefined => (v === null ? undefined : v);

function goString(v: JsonValue | undefined): string | undefined {
  const p = present(v);
  return p === undefined ? undefined : typeof p === "string" ? p : undecodable();
}

function goInt32(v: JsonValue | undefined): number | undefined {
  const p = present(v);
  if (p === undefined) return undefined;
  return typeof p === "number" && Number.isInteger(p) && p >= -(2 ** 31) && p < 2 ** 31 ? p : undecodable();
}

function goObject(v: JsonValue | undefined): JsonObject | undefined {
  const p = present(v);
  return p === undefined ? undefined : isObject(p) ? p : undecodable();
}

function goList(v: JsonValue | undefined): JsonValue[] | undefined {
  const p = present(v);
  return p === undefined ? undefined : Array.isArray(p) ? p : undecodable();
}

/** resource.Quantity's UnmarshalJSON: a string or a number that parses. */
function goQuantity(v: JsonValue | undefined): JsonValue | undefined {
  const p = present(v);
  if (p === undefined) return undefined;
  return quantityOf(p) === undefined ? undecodable() : p;
}

/** metav1.LabelSelector, decoded only to know it decodes: the HPA rules do not look inside. */
function goLabelSelector(v: JsonValue | undefined): JsonObject | undefined {
  const selector = goObject(v);
  if (selector === undefined) return undefined;
  for (const value of Object.values(goObject(goField(selector, "matchLabels")) ?? {})) goString(value);
  for (const item of goList(goField(selector, "matchExpressions")) ?? []) {
    const requirement = goObject(item) ?? {};
    goString(goField(requirement, "key"));
    goString(goField(requirement, "operator"));
    for (const value of goList(goField(requirement, "values")) ?? []) goString(value);
  }
  return selector;
}

/** Fields of a converted object: only those that are set. */
function fields(entries: [string, JsonValue | undefined][]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of entries) if (value !== undefined) out[key] = value;
  return out;
}

const metricIdentifier = (name: string | undefined, selector: JsonObject | undefined): JsonObject =>
  fields([
    ["name", name ?? ""],
    ["selector", selector],
  ]);

/** The annotation's []autoscalingv1.MetricSpec, each through Convert_v1_MetricSpec_To_autoscaling_MetricSpec. */
function v1Metrics(annotation: string | undefined): JsonObject[] {
  if (annotation === undefined) return [];
  let list: JsonValue;
  try {
    list = JSON.parse(annotation) as JsonValue;
  } catch {
    return undecodable();
  }
  return (goList(list) ?? []).map((item) => v1Metric(goObject(item) ?? {}));
}

function v1Metric(m: JsonObject): JsonObject {
  const object = goObject(goField(m, "object"));
  const pods = goObject(goField(m, "pods"));
  const resource = goObject(goField(m, "resource"));
  const containerResource = goObject(goField(m, "containerResource"));
  const external = goObject(goField(m, "external"));
  return fields([
    ["type", goString(goField(m, "type")) ?? ""],
    ["object", object && v1ObjectSource(object)],
    ["pods", pods && v1PodsSource(pods)],
    ["resource", resource && v1ResourceSource(resource)],
    ["containerResource", containerResource && v1ContainerResourceSource(containerResource)],
    ["external", external && v1ExternalSource(external)],
  ]);
}

/** Convert_v1_ObjectMetricSource_To_autoscaling_ObjectMetricSource: targetValue is no pointer, so always set. */
function v1ObjectSource(src: JsonObject): JsonObject {
  const ref = goObject(goField(src, "target")) ?? {};
  const averageValue = goQuantity(goField(src, "averageValue"));
  return {
    describedObject: {
      kind: goString(goField(ref, "kind")) ?? "",
      name: goString(goField(ref, "name")) ?? "",
      apiVersion: goString(goField(ref, "apiVersion")) ?? "",
    },
    metric: metricIdentifier(goString(goField(src, "metricName")), goLabelSelector(goField(src, "selector"))),
    target: fields([
      ["type", averageValue === undefined ? "Value" : "AverageValue"],
      ["value", goQuantity(goField(src, "targetValue")) ?? "0"],
      ["averageValue", averageValue],
    ]),
  };
}

/** Convert_v1_PodsMetricSource_To_autoscaling_PodsMetricSource: targetAverageValue is no pointer, so always set. */
function v1PodsSource(src: JsonObject): JsonObject {
  return {
    metric: metricIdentifier(goString(goField(src, "metricName")), goLabelSelector(goField(src, "selector"))),
    target: { type: "AverageValue", averageValue: goQuantity(goField(src, "targetAverageValue")) ?? "0" },
  };
}

/** Convert_v1_ResourceMetricSource_To_autoscaling_ResourceMetricSource: a utilization, else an average value. */
function v1ResourceSource(src: JsonObject): JsonObject {
  const utilization = goInt32(goField(src, "targetAverageUtilization"));
  return {
    name: goString(goField(src, "name")) ?? "",
    target: fields([
      ["type", utilization === undefined ? "AverageValue" : "Utilization"],
      ["averageUtilization", utilization],
      ["averageValue", goQuantity(goField(src, "targetAverageValue"))],
    ]),
  };
}

function v1ContainerResourceSource(src: JsonObject): JsonObject {
  return { ...v1ResourceSource(src), container: goString(goField(src, "container")) ?? "" };
}

/** Convert_v1_ExternalMetricSource_To_autoscaling_ExternalMetricSource: a value, else an average value. */
function v1ExternalSource(src: JsonObject): JsonObject {
  const value = goQuantity(goField(src, "targetValue"));
  return {
    metric: metricIdentifier(goString(goField(src, "metricName")), goLabelSelector(goField(src, "metricSelector"))),
    target: fields([
      ["type", value === undefined ? "AverageValue" : "Value"],
      ["value", value],
      ["averageValue", goQuantity(goField(src, "targetAverageValue"))],
    ]),
  };
}

/**
 * The behavior annotation: JSON of the internal HorizontalPodAutoscalerBehavior, whose fields have no json tags
 * (ScaleUp, StabilizationWindowSeconds, ...; encoding/json matches them case aside). Kept only when a direction
 * is set. The v1 defaulter knows no behavior, so nothing is filled in: a direction without policies has none.
 */
function internalBehavior(annotation: string | undefined): JsonObject | undefined {
  if (annotation === undefined) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(annotation) as JsonValue;
  } catch {
    return undecodable();
  }
  const behavior = goObject(value) ?? {};
  const scaleUp = goObject(goField(behavior, "ScaleUp"));
  const scaleDown = goObject(goField(behavior, "ScaleDown"));
  if (scaleUp === undefined && scaleDown === undefined) return undefined;
  return fields([
    ["scaleUp", scaleUp && internalScalingRules(scaleUp)],
    ["scaleDown", scaleDown && internalScalingRules(scaleDown)],
  ]);
}

function internalScalingRules(rules: JsonObject): JsonObject {
  const policies = (goList(goField(rules, "Policies")) ?? []).map((item) => {
    const policy = goObject(item) ?? {};
    return {
      type: goString(goField(policy, "Type")) ?? "",
      value: goInt32(goField(policy, "Value")) ?? 0,
      periodSeconds: goInt32(goField(policy, "PeriodSeconds")) ?? 0,
    };
  });
  return fields([
    ["stabilizationWindowSeconds", goInt32(goField(rules, "StabilizationWindowSeconds"))],
    ["selectPolicy", goString(goField(rules, "SelectPolicy"))],
    ["policies", policies],
    ["tolerance", goQuantity(goField(rules, "Tolerance"))],
  ]);
}
