/**
 * The enum-like fields the API server checks by hand, word for word, at the
 * path of every kind that holds them. Sources, in kubernetes/kubernetes:
 * pkg/apis/core/validation/validation.go (validateRestartPolicy,
 * validateDNSPolicy, validatePullPolicy, validateContainerCommon's
 * terminationMessagePolicy, validateContainerPorts, ValidateTolerations and
 * validateTaintEffect, validateHTTPGetAction, validateInitContainerRestartPolicy,
 * ValidateService, validateServicePort, ValidatePersistentVolumeClaimSpec,
 * ValidatePersistentVolumeSpec), pkg/apis/apps/validation/validation.go
 * (ValidateStatefulSetSpec, ValidatePersistentVolumeClaimRetentionPolicyType,
 * ValidatePodTemplateSpecForReplicaSet), pkg/apis/batch/validation/validation.go
 * (validateJobSpec, validatePodReplacementPolicy, validateConcurrencyPolicy),
 * pkg/apis/networking/validation/validation.go (validateHTTPIngressPath,
 * ValidateNetworkPolicyPort, ValidateNetworkPolicySpec) and
 * pkg/apis/autoscaling/validation/validation.go (validateScalingRules).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { container, deployment, pod, said, template } from "./test-helpers.js";

const unsupported = (path: string, bad: string, supported: string[]) =>
  `${path}: Unsupported value: ${JSON.stringify(bad)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}`;

type Case = [string, JsonObject, string[]];
const run = (apiVersion: string, kind: string, cases: Case[]) =>
  it.each(cases)("%s", (_, object, expected) => {
    expect(said(apiVersion, kind, object)).toEqual([...expected].sort());
  });

const probe = (httpGet: JsonObject) => ({ httpGet: { path: "/healthz", port: 8080, ...httpGet } });
const job = (podSpec: JsonObject, spec: JsonObject = {}): JsonObject => ({
  metadata: { name: "j" },
  spec: { template: { spec: { restartPolicy: "Never", containers: [container()], ...podSpec } }, ...spec },
});
const cronJob = (spec: JsonObject, podSpec: JsonObject = {}): JsonObject => ({
  metadata: { name: "c" },
  spec: { schedule: "*/5 * * * *", jobTemplate: job(podSpec), ...spec },
});

describe("pod spec enums, at the pod's path and each template's", () => {
  run("v1", "Pod", [
    [
      "a probe's https scheme",
      pod({ containers: [container({ livenessProbe: probe({ scheme: "https" }) })] }),
      [unsupported("spec.containers[0].livenessProbe.httpGet.scheme", "https", ["HTTP", "HTTPS"])],
    ],
    [
      "a preStop hook's scheme",
      pod({ containers: [container({ lifecycle: { preStop: probe({ scheme: "TCP" }) } })] }),
      [unsupported("spec.containers[0].lifecycle.preStop.httpGet.scheme", "TCP", ["HTTP", "HTTPS"])],
    ],
    ["an unset scheme (defaulted to HTTP)", pod({ containers: [container({ readinessProbe: probe({}) })] }), []],
    [
      "an init container restartPolicy none of the container restart policies (ContainerRestartRules, 1.35+)",
      pod({ initContainers: [container({ name: "init", restartPolicy: "Sometimes" })] }),
      [unsupported("spec.initContainers[0].restartPolicy", "Sometimes", ["Always", "Never", "OnFailure"])],
    ],
    [
      "an init container's port protocol",
      pod({ initContainers: [container({ name: "init", ports: [{ containerPort: 53, protocol: "udp" }] })] }),
      [unsupported("spec.initContainers[0].ports[0].protocol", "udp", ["SCTP", "TCP", "UDP"])],
    ],
    [
      "an init container's pull policy",
      pod({ initContainers: [container({ name: "init", imagePullPolicy: "always" })] }),
      [unsupported("spec.initContainers[0].imagePullPolicy", "always", ["Always", "IfNotPresent", "Never"])],
    ],
    [
      "a toleration without key, operator Equal",
      pod({ tolerations: [{ operator: "Equal", value: "v" }] }),
      [
        'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    ],
    [
      "tolerationSeconds without NoExecute",
      pod({ tolerations: [{ key: "k", operator: "Exists", effect: "NoSchedule", tolerationSeconds: 60 }] }),
      [
        "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      ],
    ],
    [
      "a value with operator Exists",
      pod({ tolerations: [{ key: "k", operator: "Exists", value: "v" }] }),
      [
        'spec.tolerations[0].operator: Invalid value: {"key":"k","operator":"Exists","value":"v"}: value must be empty when `operator` is \'Exists\'',
      ],
    ],
    [
      "tolerations as the docs write them",
      pod({
        tolerations: [
          { key: "node-role.kubernetes.io/control-plane", operator: "Exists", effect: "NoSchedule" },
          { key: "example-key", operator: "Equal", value: "v", effect: "NoExecute", tolerationSeconds: 3600 },
          { operator: "Exists" },
        ],
      }),
      [],
    ],
  ]);

  it("every pod spec gets them, at its own path", () => {
    const bad = { dnsPolicy: "ClusterLast" };
    const dns = (path: string) =>
      unsupported(`${path}.dnsPolicy`, "ClusterLast", ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"]);
    expect(said("apps/v1", "Deployment", deployment({ template: template(bad) }))).toEqual([dns("spec.template.spec")]);
    expect(said("batch/v1", "Job", job(bad))).toEqual([dns("spec.template.spec")]);
    expect(said("batch/v1", "CronJob", cronJob({}, bad))).toEqual([dns("spec.jobTemplate.spec.template.spec")]);
    expect(said("v1", "PodTemplate", { template: template(bad) })).toEqual([dns("template.spec")]);
  });
});

describe("restartPolicy: one finding, the workload's own where it has one", () => {
  it("a Pod lists the three policies", () => {
    expect(said("v1", "Pod", pod({ restartPolicy: "Sometimes" }))).toEqual([
      unsupported("spec.restartPolicy", "Sometimes", ["Always", "OnFailure", "Never"]),
    ]);
  });
  it("a Deployment, ReplicaSet, DaemonSet, StatefulSet or ReplicationController allows Always only", () => {
    const at = "spec.template.spec.restartPolicy";
    const tpl = template({ restartPolicy: "Sometimes" });
    const selector = { matchLabels: { app: "web" } };
    expect(said("apps/v1", "Deployment", deployment({ template: tpl }))).toEqual([
      unsupported(at, "Sometimes", ["Always"]),
    ]);
    for (const kind of ["ReplicaSet", "DaemonSet", "StatefulSet"])
      expect(said("apps/v1", kind, { spec: { selector, template: tpl } }), kind).toEqual([
        unsupported(at, "Sometimes", ["Always"]),
      ]);
    expect(said("v1", "ReplicationController", { spec: { selector: { app: "web" }, template: tpl } })).toEqual([
      unsupported(at, "Sometimes", ["Always"]),
    ]);
  });
  it("a Job or a CronJob's job lists OnFailure and Never", () => {
    expect(said("batch/v1", "Job", job({ restartPolicy: "Sometimes" }))).toEqual([
      unsupported("spec.template.spec.restartPolicy", "Sometimes", ["OnFailure", "Never"]),
    ]);
    expect(said("batch/v1", "CronJob", cronJob({}, { restartPolicy: "Sometimes" }))).toEqual([
      unsupported("spec.jobTemplate.spec.template.spec.restartPolicy", "Sometimes", ["OnFailure", "Never"]),
    ]);
  });
});

describe("Jobs and CronJobs (validateJobSpec, validateConcurrencyPolicy)", () => {
  run("batch/v1", "Job", [
    [
      "podReplacementPolicy",
      job({}, { podReplacementPolicy: "Always" }),
      [unsupported("spec.podReplacementPolicy", "Always", ["Failed", "TerminatingOrFailed"])],
    ],
    [
      "podReplacementPolicy with a pod failure policy",
      job({}, { podReplacementPolicy: "TerminatingOrFailed", podFailurePolicy: { rules: [] } }),
      [unsupported("spec.podReplacementPolicy", "TerminatingOrFailed", ["Failed"])],
    ],
  ]);
  run("batch/v1", "CronJob", [
    [
      "concurrencyPolicy",
      cronJob({ concurrencyPolicy: "forbid" }),
      [unsupported("spec.concurrencyPolicy", "forbid", ["Allow", "Forbid", "Replace"])],
    ],
    [
      "a job's completionMode",
      cronJob({ jobTemplate: { spec: { ...(job({}).spec as JsonObject), completionMode: "Ordered" } } }),
      [unsupported("spec.jobTemplate.spec.completionMode", "Ordered", ["NonIndexed", "Indexed"])],
    ],
  ]);
});

describe("StatefulSets (ValidateStatefulSetSpec)", () => {
  const set = (spec: JsonObject) => ({
    spec: { selector: { matchLabels: { app: "web" } }, template: template(), ...spec },
  });
  run("apps/v1", "StatefulSet", [
    [
      "persistentVolumeClaimRetentionPolicy",
      set({ persistentVolumeClaimRetentionPolicy: { whenDeleted: "Keep", whenScaled: "Delete" } }),
      [unsupported("spec.persistentVolumeClaimRetentionPolicy.whenDeleted", "Keep", ["Retain", "Delete"])],
    ],
    ["Parallel pod management", set({ podManagementPolicy: "Parallel" }), []],
  ]);
});

describe("Services (ValidateService, validateServicePort)", () => {
  const service = (spec: JsonObject) => ({ metadata: { name: "web" }, spec: { ports: [{ port: 80 }], ...spec } });
  run("v1", "Service", [
    [
      "ipFamilyPolicy",
      service({ ipFamilyPolicy: "DualStack" }),
      [unsupported("spec.ipFamilyPolicy", "DualStack", ["PreferDualStack", "RequireDualStack", "SingleStack"])],
    ],
    [
      "an IP family",
      service({ ipFamilies: ["IPv4", "ipv6"] }),
      [unsupported("spec.ipFamilies[1]", "ipv6", ["IPv4", "IPv6"])],
    ],
    [
      "externalTrafficPolicy of a NodePort service",
      service({ type: "NodePort", externalTrafficPolicy: "Nearest" }),
      [unsupported("spec.externalTrafficPolicy", "Nearest", ["Cluster", "Local"])],
    ],
    [
      "externalTrafficPolicy of a ClusterIP service: not NotSupported, Invalid",
      service({ externalTrafficPolicy: "Local" }),
      ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services'],
    ],
    [
      "internalTrafficPolicy",
      service({ internalTrafficPolicy: "Node" }),
      [unsupported("spec.internalTrafficPolicy", "Node", ["Cluster", "Local"])],
    ],
    [
      "a dual-stack LoadBalancer as the docs write it",
      service({
        type: "LoadBalancer",
        ipFamilyPolicy: "PreferDualStack",
        ipFamilies: ["IPv6", "IPv4"],
        externalTrafficPolicy: "Local",
        internalTrafficPolicy: "Cluster",
        sessionAffinity: "ClientIP",
        ports: [{ port: 53, protocol: "UDP" }],
      }),
      [],
    ],
  ]);
});

describe("PersistentVolumeClaims and PersistentVolumes", () => {
  const claim = (spec: JsonObject) => ({
    metadata: { name: "data" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  });
  run("v1", "PersistentVolumeClaim", [
    ["a valid claim", claim({ volumeMode: "Block" }), []],
    [
      "no access mode",
      claim({ accessModes: [] }),
      ["spec.accessModes: Required value: at least 1 access mode is required"],
    ],
    [
      "ReadWriteOncePod with another mode",
      claim({ accessModes: ["ReadWriteOncePod", "ReadOnlyMany"] }),
      ["spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"],
    ],
    ["no storage request", claim({ resources: { requests: {} } }), ["spec.resources[storage]: Required value"]],
  ]);
  const volume = (spec: JsonObject) => ({
    metadata: { name: "pv" },
    spec: { capacity: { storage: "5Gi" }, accessModes: ["ReadWriteOnce"], nfs: { server: "nfs", path: "/" }, ...spec },
  });
  run("v1", "PersistentVolume", [
    ["a valid volume", volume({ persistentVolumeReclaimPolicy: "Retain" }), []],
    [
      "a reclaim policy",
      volume({ persistentVolumeReclaimPolicy: "Keep" }),
      [unsupported("spec.persistentVolumeReclaimPolicy", "Keep", ["Delete", "Recycle", "Retain"])],
    ],
    [
      "an access mode",
      volume({ accessModes: ["RWO"] }),
      [unsupported("spec.accessModes", "RWO", ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"])],
    ],
  ]);
});

describe("NetworkPolicy (ValidateNetworkPolicyPort, ValidateNetworkPolicySpec)", () => {
  const policy = (spec: JsonObject) => ({ metadata: { name: "n" }, spec: { podSelector: {}, ...spec } });
  run("networking.k8s.io/v1", "NetworkPolicy", [
    [
      "a port protocol, in the source's order",
      policy({ ingress: [{ ports: [{ port: 80, protocol: "HTTP" }] }] }),
      [unsupported("spec.ingress[0].ports[0].protocol", "HTTP", ["TCP", "UDP", "SCTP"])],
    ],
    [
      "a policy type",
      policy({ policyTypes: ["Ingress", "ingress"] }),
      [unsupported("spec.policyTypes[1]", "ingress", ["Ingress", "Egress"])],
    ],
    [
      "three policy types",
      policy({ policyTypes: ["Ingress", "Egress", "Ingress"] }),
      ['spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes'],
    ],
  ]);
});

describe("HorizontalPodAutoscaler behavior (validateScalingRules)", () => {
  const hpa = (scaleDown: JsonObject) => ({
    metadata: { name: "h" },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
      maxReplicas: 5,
      behavior: { scaleDown },
    },
  });
  run("autoscaling/v2", "HorizontalPodAutoscaler", [
    [
      "selectPolicy",
      hpa({ selectPolicy: "Maximum" }),
      [unsupported("spec.behavior.scaleDown.selectPolicy", "Maximum", ["Disabled", "Max", "Min"])],
    ],
    [
      "a policy type",
      hpa({ policies: [{ type: "Replicas", value: 1, periodSeconds: 60 }] }),
      [unsupported("spec.behavior.scaleDown.policies[0].type", "Replicas", ["Percent", "Pods"])],
    ],
    [
      "a valid behavior",
      hpa({ selectPolicy: "Min", policies: [{ type: "Percent", value: 10, periodSeconds: 60 }] }),
      [],
    ],
  ]);
});
