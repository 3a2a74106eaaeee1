/**
 * The required fields the API server does not enforce (required.ts): each entry names a field some release's
 * table marks required (a typo or a stale entry fails here), and such a field absent passes the whole pass;
 * and a status's (table.ts).
 */
import { describe, expect, it } from "vitest";
import "./all-releases.js";
import { buildCatalog, validateObject } from "../check/index.js";
import { type KubernetesRelease, kubernetesReleases } from "./releases.js";
import { goTypeOf, reportedByHand } from "./required.js";
import { coreNotEnforced } from "./required-core.js";
import { groupsNotEnforced } from "./required-groups.js";
import { releaseTable } from "./schemas.js";
import { dns1123LabelError } from "./validation/test-helpers.js";

describe("goTypeOf", () => {
  it.each([
    ["V1LimitRangeSpec", "LimitRangeSpec"],
    ["io.k8s.api.core.v1.LimitRangeSpec", "LimitRangeSpec"],
    ["V1beta1VolumeAttributesClass", "VolumeAttributesClass"],
    ["CoreV1EndpointPort", "EndpointPort"],
    ["DiscoveryV1EndpointPort", "EndpointPort"],
    ["RbacV1Subject", "Subject"],
    ["FlowcontrolV1Subject", "Subject"],
    ["io.k8s.api.rbac.v1.Subject", "Subject"],
  ])("%s is %s", (definition, type) => {
    expect(goTypeOf(definition)).toBe(type);
  });
});

describe("required fields the API server does not enforce", () => {
  const entries = [...coreNotEnforced, ...groupsNotEnforced, ...reportedByHand];

  it("each names a field some release's table marks required, once", () => {
    const marked = new Set<string>();
    for (const release of kubernetesReleases) {
      const table = releaseTable(release);
      for (const [name, def] of Object.entries(table?.defs ?? {}))
        for (const field of def.r ?? []) marked.add(`${goTypeOf(name)}.${field}`);
    }
    const keys = entries.map((e) => `${e.type}.${e.field}`);
    expect(keys.filter((k) => !marked.has(k))).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a LimitRange without limits passes, as ValidateLimitRange lets it", () => {
    const { catalog } = buildCatalog([], []);
    const limitRange = { apiVersion: "v1", kind: "LimitRange", metadata: { name: "l" }, spec: {} };
    for (const release of kubernetesReleases)
      expect(validateObject(catalog, "v1", "LimitRange", limitRange, { kubernetesVersion: release })).toEqual([]);
  });
});

describe("a status, dropped or kept as it is on create and update", () => {
  const { catalog } = buildCatalog([], []);
  const pod = (status: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers: [{ name: "a", image: "nginx" }] },
    status,
  });
  const messages = (status: Record<string, unknown>) =>
    validateObject(catalog, "v1", "Pod", pod(status) as never).map((f) => f.message);

  it("is not asked for its required fields (PrepareForCreate resets it; no validation reads them)", () => {
    expect(messages({ conditions: [{}], containerStatuses: [{ name: "a" }] })).toEqual([]);
  });

  it("is still decoded: its types and unknown fields are refused as anywhere", () => {
    expect(messages({ conditions: "x", bogus: 1 }).sort()).toEqual([
      'status.conditions: Invalid value: "string": status.conditions in body must be of type array: "string"',
      'unknown field "status.bogus"',
    ]);
  });
});

describe("required fields whose absence the hand-written rules report in the server's words", () => {
  const { catalog } = buildCatalog([], []);
  const said = (apiVersion: string, kind: string, object: Record<string, unknown>, release?: KubernetesRelease) =>
    validateObject(catalog, apiVersion, kind, { apiVersion, kind, metadata: { name: "x" }, ...object } as never, {
      kubernetesVersion: release,
    })
      .map((f) => f.message)
      .sort();

  it("are said once, in those words, not as the schema's bare Required value", () => {
    expect(said("rbac.authorization.k8s.io/v1", "Role", { rules: [{ apiGroups: [""], resources: ["pods"] }] })).toEqual(
      ["rules[0].verbs: Required value: verbs must contain at least one value"],
    );
    const path = { path: "/", backend: { service: { name: "s" } } };
    expect(said("networking.k8s.io/v1", "Ingress", { spec: { rules: [{ http: { paths: [path] } }] } })).toEqual([
      // validateHTTPIngressPath returns before the backend, whose port is missing too
      "spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified",
    ]);
    const spread = { labelSelector: { matchLabels: { app: "a" } } };
    const pod = { containers: [{ name: "a", image: "nginx" }], os: {}, topologySpreadConstraints: [spread] };
    expect(said("v1", "Pod", { spec: pod })).toEqual([
      "spec.os.name: Required value: cannot be empty",
      "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
      "spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
      'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ]);
    const hook = { name: "a.example.com", clientConfig: { url: "https://x.example.com" } };
    expect(said("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", { webhooks: [hook] })).toEqual([
      "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
      "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
    ]);
    // the targetPort is defaulted to the port (SetDefaults_Service): 0 twice
    expect(said("v1", "Service", { spec: { ports: [{ name: "http" }] } })).toEqual([
      "spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
      "spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive",
    ]);
  });
  // Each checked against the Go function named in required-core.ts or required-groups.ts: an absent field is
  // Go's zero value, and the server says of it what it says of a written zero, and nothing more.
  it("an absent field is its zero value: a port 0, an empty kind, a zero struct, each in the server's words", () => {
    const probe = { httpGet: { path: "/", httpHeaders: [{ value: "v" }] } };
    const container = { name: "a", image: "i", livenessProbe: probe, readinessProbe: { grpc: {} } };
    expect(said("v1", "Pod", { spec: { containers: [container] } })).toEqual([
      `spec.containers[0].livenessProbe.httpGet.httpHeaders: Invalid value: "": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
      "spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
      "spec.containers[0].readinessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive",
    ]);
    const job = {
      podFailurePolicy: { rules: [{ onExitCodes: {} }] },
      template: { spec: { restartPolicy: "Never", containers: [{ name: "a", image: "i" }] } },
    };
    expect(said("batch/v1", "Job", { spec: job })).toEqual([
      'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]',
      // Go's nil slice
      "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: null: at least one value is required",
    ]);
    const hpa = {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" },
      maxReplicas: 3,
      metrics: [
        { type: "Resource", resource: {} },
        { type: "Pods", pods: {} },
      ],
      behavior: { scaleUp: { policies: [{}] } },
    };
    expect(said("autoscaling/v2", "HorizontalPodAutoscaler", { spec: hpa })).toEqual([
      "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 0: must be greater than zero",
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "": supported values: "Percent", "Pods"',
      "spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero",
      "spec.metrics[0].resource.name: Required value: must specify a resource name",
      "spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization",
      'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
      "spec.metrics[0].resource.target.type: Required value: must specify a metric target type",
      "spec.metrics[1].pods.metric.name: Required value: must specify a metric name",
      "spec.metrics[1].pods.target.averageValue: Required value: must specify a positive target averageValue",
      'spec.metrics[1].pods.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
      "spec.metrics[1].pods.target.type: Required value: must specify a metric target type",
    ]);
    // a reference left out is the zero reference; maxReplicas left out is 0
    const refless = {
      metrics: [{ type: "Object", object: { metric: { name: "m" }, target: { type: "Value", value: 1 } } }],
    };
    expect(said("autoscaling/v2", "HorizontalPodAutoscaler", { spec: refless })).toEqual([
      "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
      "spec.maxReplicas: Required value: must be set and greater than 0",
      "spec.metrics[0].object.describedObject.kind: Required value",
      "spec.metrics[0].object.describedObject.name: Required value",
      'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
      "spec.scaleTargetRef.kind: Required value",
      "spec.scaleTargetRef.name: Required value",
    ]);
    expect(
      said("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", { subjects: [{ kind: "User", name: "u" }] }),
    ).toEqual(['roleRef.kind: Unsupported value: "": supported values: "ClusterRole"', "roleRef.name: Required value"]);
    expect(
      said("rbac.authorization.k8s.io/v1", "RoleBinding", {
        metadata: { name: "x", namespace: "n" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", name: "r" },
        subjects: [{ name: "u" }],
      }),
    ).toEqual([
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
      'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
    ]);
    const parameters = { apiGroup: "example.com" };
    expect(said("networking.k8s.io/v1", "IngressClass", { spec: { controller: "example.com/x", parameters } })).toEqual(
      [
        "spec.parameters.kind: Required value: kind is required",
        "spec.parameters.name: Required value: name is required",
      ],
    );
    const ingressPaths = [
      { path: "/a", pathType: "Prefix" },
      { path: "/b", pathType: "Prefix", backend: { resource: { apiGroup: "example.com" } } },
    ];
    expect(said("networking.k8s.io/v1", "Ingress", { spec: { rules: [{ http: { paths: ingressPaths } }] } })).toEqual([
      'spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required',
      "spec.rules[0].http.paths[1].backend.resource.kind: Required value: kind is required",
      "spec.rules[0].http.paths[1].backend.resource.name: Required value: name is required",
    ]);
    expect(said("networking.k8s.io/v1", "IPAddress", { metadata: { name: "10.0.0.1" } })).toEqual([
      "spec.parentRef: Required value",
    ]);
    const capacity = { metadata: { name: "c", namespace: "n" } };
    const capacityErrors = said("storage.k8s.io/v1", "CSIStorageCapacity", capacity);
    expect(capacityErrors).toHaveLength(1);
    expect(capacityErrors[0]).toMatch(/^storageClassName: Invalid value: "": a lowercase RFC 1123 subdomain must /);
    const rules = [
      {
        subjects: [{ kind: "User", user: { name: "u" } }],
        nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      },
    ];
    expect(said("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", { spec: { rules } })).toEqual([
      "spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
    ]);
    // validateResizePolicy says it at the list, without the index or the field
    const resize = { containers: [{ name: "c", image: "nginx", resizePolicy: [{ resourceName: "cpu" }] }] };
    expect(said("v1", "Pod", { spec: resize })).toEqual(["spec.containers[0].resizePolicy: Required value"]);
    // before 1.33 the API server drops the field (InPlacePodVerticalScaling off)
    expect(said("v1", "Pod", { spec: resize }, "1.32")).toEqual([]);
    const requests = [{ exactly: { deviceClassName: "gpu.example.com" } }];
    expect(said("resource.k8s.io/v1", "ResourceClaim", { spec: { devices: { requests } } })).toEqual([
      `spec.devices.requests[0].name: Invalid value: "": ${dns1123LabelError}`,
    ]);
    const method = { priorityLevelConfiguration: { name: "p" }, distinguisherMethod: {}, rules };
    expect(said("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", { spec: method })).toEqual([
      'spec.distinguisherMethod.type: Unsupported value: {"type":""}: supported values: "ByNamespace", "ByUser"',
    ]);
    // a spec left out is validated as `spec: {}` is (the kind's Go type has a spec struct)
    expect(said("certificates.k8s.io/v1", "CertificateSigningRequest", {})).toEqual([
      "spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST",
      "spec.signerName: Required value",
      "spec.usages: Required value",
    ]);
    expect(said("networking.k8s.io/v1", "Ingress", { spec: null })).toEqual([
      "spec: Invalid value: null: either `defaultBackend` or `rules` must be specified",
    ]);
    expect(said("v1", "ConfigMap", {})).toEqual([]);
    // a pod spec or template left out is the zero one: no containers (validateContainers)
    expect(said("v1", "Pod", {})).toEqual(["spec.containers: Required value"]);
    expect(said("v1", "PodTemplate", { template: { metadata: { labels: { a: "b" } } } })).toEqual([
      "template.spec.containers: Required value",
    ]);
    expect(said("apps/v1", "Deployment", { spec: { selector: { matchLabels: { app: "a" } } } })).toEqual([
      "spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
      "spec.template.spec.containers: Required value",
    ]);
    expect(said("batch/v1", "CronJob", { spec: { schedule: "* * * * *" } })).toEqual([
      "spec.jobTemplate.spec.template.spec.containers: Required value",
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    // a CronJob or HPA without spec: the zero spec's faults, in every release (1.32's OpenAPI makes spec optional)
    for (const minor of [32, 36]) {
      const release = `1.${minor}` as KubernetesRelease;
      expect(said("batch/v1", "CronJob", {}, release)).toContain("spec.schedule: Required value");
      expect(said("autoscaling/v2", "HorizontalPodAutoscaler", {}, release)).toContain(
        "spec.scaleTargetRef.kind: Required value",
      );
    }
    // a ReplicationController's template is a pointer: required itself (ValidatePodTemplateSpecForRC)
    expect(said("v1", "ReplicationController", { spec: { selector: { app: "a" } } })).toEqual([
      "spec.template: Required value",
    ]);
    // and no labels default its selector (SetDefaults_ReplicationController): ValidateNonEmptySelector
    expect(said("v1", "ReplicationController", {})).toEqual([
      "spec.selector: Required value",
      "spec.template: Required value",
    ]);
    // a CRD without spec: what is wrong with the zero spec, no Required value at spec itself
    const crd = said("apiextensions.k8s.io/v1", "CustomResourceDefinition", { metadata: { name: "a.example.com" } });
    expect(crd).toContain("spec.group: Required value");
    expect(crd.filter((m) => m.startsWith("spec: "))).toEqual([]);
    const hook = {
      name: "a.example.com",
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      clientConfig: { service: {} },
    };
    expect(said("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", { webhooks: [hook] })).toEqual([
      "webhooks[0].clientConfig.service.name: Required value: service name is required",
      "webhooks[0].clientConfig.service.namespace: Required value: service namespace is required",
    ]);
  });
});
