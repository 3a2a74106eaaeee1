/**
 * HorizontalPodAutoscalers (pkg/apis/autoscaling/validation/validation.go
 * validateHorizontalPodAutoscalerSpec, ValidateCrossVersionObjectReference, ValidateAPIVersion,
 * validateMetricSpec, validateScalingRules), with
 * pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go's
 * validationOptionsForHorizontalPodAutoscaler, the v2 defaults and, for autoscaling/v1, the
 * conversion to the internal object (pkg/apis/autoscaling/v1/conversion.go), whose field
 * names the messages give.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerV1 } from "./autoscaling.js";
import { said } from "./test-helpers.js";

const deployment = { apiVersion: "apps/v1", kind: "Deployment", name: "web" };
const v2 = (spec: JsonObject): JsonObject => ({
  metadata: { name: "h" },
  spec: { scaleTargetRef: deployment, maxReplicas: 5, ...spec },
});
const v1 = (spec: JsonObject, annotations?: JsonObject): JsonObject => ({
  metadata: { name: "h", ...(annotations === undefined ? {} : { annotations }) },
  spec: { scaleTargetRef: deployment, maxReplicas: 5, ...spec },
});
const saidV2 = (o: JsonObject, minor = 36) => said("autoscaling/v2", "HorizontalPodAutoscaler", o, minor);
const updateV2 = (o: JsonObject, old: JsonObject, minor = 36) =>
  validateHorizontalPodAutoscaler(o, minor, old)
    .map((f) => f.message)
    .sort();
const saidV1 = (o: JsonObject, minor = 36, old?: JsonObject) =>
  validateHorizontalPodAutoscalerV1(o, minor, old)
    .map((f) => f.message)
    .sort();
const metricsAnnotation = (metrics: unknown) => ({
  "autoscaling.alpha.kubernetes.io/metrics": JSON.stringify(metrics),
});
const behaviorAnnotation = (behavior: unknown) => ({
  "autoscaling.alpha.kubernetes.io/behavior": JSON.stringify(behavior),
});
const sorted = (messages: string[]) => [...messages].sort();

describe("the replica bounds, after SetDefaults_HorizontalPodAutoscaler (minReplicas 1)", () => {
  it("maxReplicas 0 without minReplicas is also below the defaulted minReplicas, through 1.35", () => {
    expect(saidV2(v2({ maxReplicas: 0 }), 35)).toEqual(
      sorted([
        "spec.maxReplicas: Invalid value: 0: must be greater than 0",
        "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
      ]),
    );
  });
  it("from 1.36 (kubernetes#135412) maxReplicas 0 is a required value and a negative one below 1", () => {
    expect(saidV2(v2({ maxReplicas: 0 }))).toEqual(
      sorted([
        "spec.maxReplicas: Required value: must be set and greater than 0",
        "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
      ]),
    );
    expect(saidV2(v2({ maxReplicas: -2, minReplicas: 1 }))).toEqual(
      sorted([
        "spec.maxReplicas: Invalid value: -2: must be greater than or equal to 1",
        "spec.maxReplicas: Invalid value: -2: must be greater than or equal to `minReplicas`",
      ]),
    );
    expect(saidV2(v2({ maxReplicas: -2 }), 35)).toEqual(
      sorted([
        "spec.maxReplicas: Invalid value: -2: must be greater than 0",
        "spec.maxReplicas: Invalid value: -2: must be greater than or equal to `minReplicas`",
      ]),
    );
  });
  it("a stored minReplicas of 0 lowers the bound on an update", () => {
    const hpa = v2({ minReplicas: 0 });
    expect(updateV2(hpa, v2({ minReplicas: 0 }))).toEqual([
      "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
    ]);
    expect(updateV2(hpa, v2({ minReplicas: 1 }))).toEqual(
      sorted([
        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
        "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
      ]),
    );
  });
});

describe("validateHorizontalPodAutoscalerSpec validates the target, the metrics and the behavior each", () => {
  it("a bad target reference does not keep the metrics or the behavior from being validated", () => {
    expect(
      saidV2(
        v2({
          scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "a/b" },
          metrics: [{ type: "Pods", pods: { metric: { name: "rps" }, target: { type: "Value", value: "1" } } }],
          behavior: { scaleUp: { policies: [] } },
        }),
      ),
    ).toEqual(
      sorted([
        "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'",
        "spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue",
        "spec.behavior.scaleUp.policies: Required value: must specify at least one Policy",
      ]),
    );
  });
});

describe("ValidateAPIVersion (kubernetes#132537, from 1.34)", () => {
  const noGroup = 'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group';
  it("the target's apiVersion must name a group", () => {
    expect(saidV2(v2({ scaleTargetRef: { kind: "Deployment", name: "web" } }))).toEqual([noGroup]);
    expect(saidV2(v2({ scaleTargetRef: { apiVersion: "v1", kind: "Deployment", name: "web" } }))).toEqual([
      'spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group',
    ]);
    expect(saidV2(v2({ scaleTargetRef: { kind: "Deployment", name: "web" } }), 34)).toEqual([noGroup]);
  });
  it("not before 1.34", () => {
    expect(saidV2(v2({ scaleTargetRef: { kind: "Deployment", name: "web" } }), 33)).toEqual([]);
  });
  it("a ReplicationController may be in the core group", () => {
    expect(saidV2(v2({ scaleTargetRef: { kind: "ReplicationController", name: "web" } }))).toEqual([]);
    expect(saidV2(v2({ scaleTargetRef: { apiVersion: "v1", kind: "ReplicationController", name: "web" } }))).toEqual(
      [],
    );
  });
  it("schema.ParseGroupVersion refuses more than one slash", () => {
    expect(
      saidV2(v2({ scaleTargetRef: { apiVersion: "apps/v1/x", kind: "ReplicationController", name: "web" } })),
    ).toEqual([
      'spec.scaleTargetRef.apiVersion: Invalid value: "apps/v1/x": unexpected GroupVersion string: apps/v1/x',
    ]);
  });
  const objectMetric = (apiVersion?: string) => ({
    type: "Object",
    object: {
      describedObject: { ...(apiVersion === undefined ? {} : { apiVersion }), kind: "Service", name: "s" },
      metric: { name: "rps" },
      target: { type: "Value", value: "1" },
    },
  });
  it("an object metric's described object may be in the core group, or have none", () => {
    expect(saidV2(v2({ metrics: [objectMetric(), objectMetric("v1")] }))).toEqual([]);
    expect(saidV2(v2({ metrics: [objectMetric("a/b/c")] }))).toEqual([
      'spec.metrics[0].object.describedObject.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    ]);
    expect(saidV2(v2({ metrics: [objectMetric("a/b/c")] }), 33)).toEqual([]);
  });
  it("an update that keeps the target's apiVersion and kind is not checked (the strategy's ratcheting)", () => {
    const hpa = v2({ scaleTargetRef: { kind: "Deployment", name: "web" } });
    expect(updateV2(hpa, v2({ scaleTargetRef: { kind: "Deployment", name: "old" } }))).toEqual([]);
    expect(updateV2(hpa, v2({ scaleTargetRef: { kind: "StatefulSet", name: "web" } }))).toEqual([noGroup]);
    expect(updateV2(hpa, v2({ scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" } }))).toEqual([
      noGroup,
    ]);
  });
  it("an update whose stored object metrics already fail is not checked", () => {
    const hpa = v2({ metrics: [objectMetric("x/y/z")] });
    expect(updateV2(hpa, v2({ metrics: [objectMetric("a/b/c")] }))).toEqual([]);
    expect(updateV2(hpa, v2({ metrics: [objectMetric("v1")] }))).toEqual([
      'spec.metrics[0].object.describedObject.apiVersion: Invalid value: "x/y/z": unexpected GroupVersion string: x/y/z',
    ]);
  });
});

describe("a scaling rule's tolerance (HPAConfigurableTolerance: alpha in 1.33, beta from 1.35)", () => {
  const hpa = v2({ behavior: { scaleDown: { tolerance: "-0.05" } } });
  const negative = 'spec.behavior.scaleDown.tolerance: Invalid value: "-50m": must be greater than or equal to 0';
  it("is validated from 1.35 (ValidateNonnegativeQuantity)", () => {
    expect(saidV2(hpa, 35)).toEqual([negative]);
    expect(saidV2(v2({ behavior: { scaleDown: { tolerance: "0" } } }), 35)).toEqual([]);
  });
  it("is dropped on create while the gate is off, kept on an update of an HPA that uses it", () => {
    expect(saidV2(hpa, 34)).toEqual([]);
    expect(updateV2(hpa, v2({ behavior: { scaleUp: { tolerance: "0.1" } } }), 34)).toEqual([negative]);
  });
});

describe("autoscaling/v1, converted to the internal object (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler)", () => {
  it("a valid autoscaler, with or without a target utilization", () => {
    expect(saidV1(v1({ targetCPUUtilizationPercentage: 50 }))).toEqual([]);
    expect(saidV1(v1({ minReplicas: 2 }))).toEqual([]);
  });
  it("targetCPUUtilizationPercentage is the internal cpu metric's averageUtilization", () => {
    expect(
      saidV1(
        v1({
          scaleTargetRef: { kind: "Deployment", name: "a/b" },
          minReplicas: 0,
          maxReplicas: 0,
          targetCPUUtilizationPercentage: -5,
        }),
      ),
    ).toEqual(
      sorted([
        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
        "spec.maxReplicas: Required value: must be set and greater than 0",
        "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'",
        'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
        "spec.metrics[0].resource.target.averageUtilization: Invalid value: -5: must be greater than 0",
        "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
      ]),
    );
  });
  it("v1's defaults too: maxReplicas 0 is below the defaulted minReplicas, in 1.35's words", () => {
    expect(saidV1(v1({ maxReplicas: 0 }), 35)).toEqual(
      sorted([
        "spec.maxReplicas: Invalid value: 0: must be greater than 0",
        "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
      ]),
    );
  });
  it("the target's apiVersion from 1.34, not on an update that keeps it", () => {
    const hpa = v1({ scaleTargetRef: { apiVersion: "v1", kind: "Deployment", name: "web" } });
    const error = 'spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group';
    expect(saidV1(hpa, 34)).toEqual([error]);
    expect(saidV1(hpa, 33)).toEqual([]);
    expect(saidV1(hpa, 36, hpa)).toEqual([]);
    expect(saidV1(v1({ scaleTargetRef: { kind: "ReplicationController", name: "rc" } }))).toEqual([]);
  });
  it("the metrics annotation's metrics come first, converted (their quantities always set)", () => {
    const annotations = metricsAnnotation([
      { type: "Pods", pods: { metricName: "", targetAverageValue: "0" } },
      { type: "Object", object: { target: { kind: "Ingress", name: "main", apiVersion: "a/b/c" }, metricName: "rps" } },
      { type: "External", external: { metricName: "queue" } },
      { type: "Resource", resource: { name: "memory" } },
    ]);
    expect(saidV1(v1({ targetCPUUtilizationPercentage: 0 }, annotations))).toEqual(
      sorted([
        "spec.metrics[0].pods.metric.name: Required value: must specify a metric name",
        "spec.metrics[0].pods.target.averageValue: Invalid value: 0: must be positive",
        'spec.metrics[1].object.describedObject.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        "spec.metrics[1].object.target.value: Invalid value: 0: must be positive",
        "spec.metrics[2].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target",
        "spec.metrics[3].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization",
        "spec.metrics[4].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
      ]),
    );
  });
  it("an annotated metric's type and sources (validateMetricSpec)", () => {
    const annotations = metricsAnnotation([
      { type: "Bogus" },
      { type: "Resource", pods: { metricName: "rps", targetAverageValue: "1" } },
      null,
      {
        type: "External",
        external: { metricName: "q", targetValue: "1" },
        pods: { metricName: "rps", targetAverageValue: "1" },
        object: { target: { kind: "Service", name: "s" }, metricName: "m", targetValue: "1" },
      },
    ]);
    expect(saidV1(v1({}, annotations))).toEqual(
      sorted([
        'spec.metrics[0].type: Unsupported value: "Bogus": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
        "spec.metrics[1].resource: Required value: must populate information for the given metric source",
        "spec.metrics[2].type: Required value: must specify a metric source type",
        'spec.metrics[2].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
        "spec.metrics[3].object: Forbidden: must populate the given metric source only",
        "spec.metrics[3].pods: Forbidden: must populate the given metric source only",
      ]),
    );
  });
  it("an annotation that does not decode is ignored, as the conversion ignores it", () => {
    const bad = { "autoscaling.alpha.kubernetes.io/metrics": "[{" };
    expect(saidV1(v1({ minReplicas: 0 }, bad))).toEqual(
      sorted([
        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
        "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
      ]),
    );
    // A value of the wrong type fails the whole list.
    const mistyped = metricsAnnotation([
      { type: "Pods", pods: { metricName: "", targetAverageValue: "0" } },
      { type: "Pods", pods: { metricName: 5 } },
    ]);
    expect(saidV1(v1({}, mistyped))).toEqual([]);
  });
  it("the behavior annotation is the internal behavior, not defaulted", () => {
    const annotations = behaviorAnnotation({
      ScaleUp: { StabilizationWindowSeconds: 4000 },
      scaleDown: { policies: [{ type: "Pods", value: 0, periodSeconds: 15 }], tolerance: "-1" },
    });
    expect(saidV1(v1({}, annotations), 35)).toEqual(
      sorted([
        "spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600",
        "spec.behavior.scaleUp.policies: Required value: must specify at least one Policy",
        "spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero",
        'spec.behavior.scaleDown.tolerance: Invalid value: "-1": must be greater than or equal to 0',
      ]),
    );
    expect(saidV1(v1({}, annotations), 34)).toHaveLength(3);
    expect(saidV1(v1({}, behaviorAnnotation({ ScaleUp: { Policies: "none" } })))).toEqual([]);
    expect(saidV1(v1({}, behaviorAnnotation({})))).toEqual([]);
  });
});

describe("a metric's type and source (validateMetricSpec), v2 as written", () => {
  const metric = (m: JsonObject) => saidV2(v2({ metrics: [m] }));
  const sources = '"ContainerResource", "External", "Object", "Pods", "Resource"';
  const pods = { metric: { name: "rps" }, target: { type: "AverageValue", averageValue: "10" } };
  const resource = { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } };

  it("forbids every populated source but the one the type names, sorted", () => {
    const external = { metric: { name: "q" }, target: { type: "Value", value: "1" } };
    expect(metric({ type: "Resource", resource, pods, external })).toEqual(
      sorted([
        "spec.metrics[0].external: Forbidden: must populate the given metric source only",
        "spec.metrics[0].pods: Forbidden: must populate the given metric source only",
      ]),
    );
  });

  it("requires the source the type names", () => {
    expect(metric({ type: "Pods" })).toEqual([
      "spec.metrics[0].pods: Required value: must populate information for the given metric source",
    ]);
  });

  it("requires a type among the sorted source types, once each", () => {
    expect(metric({ type: "", resource })).toEqual(
      sorted([
        "spec.metrics[0].type: Required value: must specify a metric source type",
        `spec.metrics[0].type: Unsupported value: "": supported values: ${sources}`,
      ]),
    );
    expect(metric({ type: "Bogus", resource })).toEqual([
      `spec.metrics[0].type: Unsupported value: "Bogus": supported values: ${sources}`,
    ]);
  });

  it("accepts one source of the type's kind", () => {
    expect(metric({ type: "Pods", pods })).toEqual([]);
  });
});
