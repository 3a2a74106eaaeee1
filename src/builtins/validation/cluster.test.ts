/**
 * Cluster kinds, word for word, as the API server validates them on create:
 * pkg/apis/storage/validation ValidateStorageClass (validateProvisioner,
 * validateParameters, validateReclaimPolicy, validateVolumeBindingMode,
 * validateAllowedTopologies with core's ValidateTopologySelectorTerm and
 * validateTopologySelectorLabelRequirement) after SetDefaults_StorageClass;
 * pkg/apis/scheduling/validation ValidatePriorityClass
 * (IsKnownSystemPriorityClass, ValidatePreemptionPolicy);
 * pkg/apis/networking/validation ValidateIngressClass
 * (validateIngressClassSpec, IsDomainPrefixedPath,
 * validateIngressClassParametersReference) after SetDefaults_IngressClass;
 * pkg/apis/core/validation ValidateResourceQuotaSpec
 * (ValidateResourceQuotaResourceName, ValidateResourceQuantityValue,
 * validateResourceQuotaScopes, validateScopedResourceSelectorRequirement) and
 * ValidateLimitRange after SetDefaults_LimitRangeItem.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  validateIngressClass,
  validateLimitRange,
  validatePriorityClass,
  validateResourceQuota,
  validateStorageClass,
} from "./cluster.js";
import { validateHandWritten } from "./index.js";
import {
  dns1123LabelError as labelRegex,
  qualifiedNamePartError as qualifiedNameRegex,
  dns1123SubdomainError as subdomainRegex,
} from "./test-helpers.js";

const said = (findings: readonly Finding[]): string[] =>
  findings.map((f) => `${f.severity === "error" ? "" : `${f.severity} `}${f.message}`).sort();

type Case = [string, JsonObject, string[]];

// ---------------------------------------------------------------------------

const zone = (values: string[], key = "topology.kubernetes.io/zone"): JsonObject => ({ key, values });
const storageClass = (extra: JsonObject = {}): JsonObject => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: "fast" },
  provisioner: "ebs.csi.aws.com",
  parameters: { type: "gp3" },
  reclaimPolicy: "Retain",
  volumeBindingMode: "WaitForFirstConsumer",
  allowedTopologies: [{ matchLabelExpressions: [zone(["us-east-1a", "us-east-1b"])] }],
  ...extra,
});
const topologies = (...terms: JsonObject[][]): JsonObject => ({
  allowedTopologies: terms.map((matchLabelExpressions) => ({ matchLabelExpressions })),
});
const manyParameters = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`key${i}`, "v"]));

describe("StorageClass (ValidateStorageClass)", () => {
  it.each<Case>([
    ["a valid class", storageClass(), []],
    ["the defaults alone (SetDefaults_StorageClass)", { provisioner: "kubernetes.io/no-provisioner" }, []],
    [
      "a provisioner valid once lower-cased (validateProvisioner)",
      storageClass({ provisioner: "Example.COM/ebs" }),
      [],
    ],
    ["an empty reclaim policy", storageClass({ reclaimPolicy: "" }), []],
    ["an empty provisioner", storageClass({ provisioner: "" }), ["provisioner: Required value"]],
    [
      "a provisioner that is no qualified name, reported lower-cased",
      storageClass({ provisioner: "Example.com/-EBS" }),
      [`provisioner: Invalid value: "example.com/-ebs": ${qualifiedNameRegex}`],
    ],
    [
      "an empty parameter key (validateParameters)",
      storageClass({ parameters: { "": "x" } }),
      ['parameters: Invalid value: "": field can not be empty.'],
    ],
    [
      "parameters over 256 KiB",
      storageClass({ parameters: { big: "x".repeat(256 * 1024) } }),
      ["parameters: Too long: may not be more than 262144 bytes"],
    ],
    [
      "more than 512 parameters",
      storageClass({ parameters: manyParameters }),
      ["parameters: Too long: may not be more than 512 bytes"],
    ],
    [
      "an unknown reclaim policy (validateReclaimPolicy)",
      storageClass({ reclaimPolicy: "Recycle" }),
      ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
    ],
    [
      "an unknown binding mode (validateVolumeBindingMode)",
      storageClass({ volumeBindingMode: "Later" }),
      ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'],
    ],
    [
      "an empty binding mode, which is not defaulted",
      storageClass({ volumeBindingMode: "" }),
      ['volumeBindingMode: Unsupported value: "": supported values: "Immediate", "WaitForFirstConsumer"'],
    ],
    [
      "a topology requirement without values (validateTopologySelectorLabelRequirement)",
      storageClass(topologies([zone([])])),
      ["allowedTopologies[0].matchLabelExpressions[0].values: Required value"],
    ],
    [
      "a value twice in a requirement",
      storageClass(topologies([zone(["a", "b", "a"])])),
      ['allowedTopologies[0].matchLabelExpressions[0].values[2]: Duplicate value: "a"'],
    ],
    [
      "a key that is no label name",
      storageClass(topologies([zone(["a"], "-zone")])),
      [`allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: "-zone": ${qualifiedNameRegex}`],
    ],
    [
      "a key twice in a term (ValidateTopologySelectorTerm)",
      storageClass(topologies([zone(["a"]), zone(["b"])])),
      ['allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "topology.kubernetes.io/zone"'],
    ],
    [
      "a term without expressions (validateAllowedTopologies)",
      storageClass({ allowedTopologies: [{}] }),
      ['allowedTopologies[0].matchLabelExpressions: Duplicate value: ""'],
    ],
    [
      "the same term twice, keys and values in another order",
      storageClass(
        topologies(
          [zone(["a", "b"]), zone(["n1"], "kubernetes.io/hostname")],
          [zone(["n1"], "kubernetes.io/hostname"), zone(["b", "a"])],
        ),
      ),
      ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""'],
    ],
    ["terms that differ in one value", storageClass(topologies([zone(["a", "b"])], [zone(["a", "c"])])), []],
  ])("%s", (_, object, expected) => {
    expect(said(validateStorageClass(object))).toEqual([...expected].sort());
  });
});

// ---------------------------------------------------------------------------

const systemReserved =
  "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error:";
const priorityClass = (extra: JsonObject = {}, name = "high-priority"): JsonObject => ({
  apiVersion: "scheduling.k8s.io/v1",
  kind: "PriorityClass",
  metadata: { name },
  value: 1000000,
  globalDefault: false,
  description: "For XYZ service pods only.",
  ...extra,
});

describe("PriorityClass (ValidatePriorityClass)", () => {
  it.each<Case>([
    ["a valid class", priorityClass(), []],
    ["the highest user-definable value", priorityClass({ value: 1000000000, preemptionPolicy: "Never" }), []],
    ["a known system class", priorityClass({ value: 2000001000 }, "system-node-critical"), []],
    [
      "a user value over 1000000000",
      priorityClass({ value: 1000000001 }),
      ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"],
    ],
    [
      "an unknown name with the system prefix (IsKnownSystemPriorityClass)",
      priorityClass({ value: 2000000000 }, "system-custom"),
      [`${systemReserved} system-custom is not a known system priority class`],
    ],
    [
      "a system class with another value",
      priorityClass({ value: 1 }, "system-cluster-critical"),
      [`${systemReserved} value of system-cluster-critical PriorityClass must be 2000000000`],
    ],
    [
      "a system class as the global default",
      priorityClass({ value: 2000001000, globalDefault: true }, "system-node-critical"),
      [`${systemReserved} globalDefault of system-node-critical PriorityClass must be false`],
    ],
    [
      "an unknown preemption policy (ValidatePreemptionPolicy)",
      priorityClass({ preemptionPolicy: "Sometimes" }),
      ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
    ],
    ["an empty preemption policy", priorityClass({ preemptionPolicy: "" }), ["preemptionPolicy: Required value"]],
  ])("%s", (_, object, expected) => {
    expect(said(validatePriorityClass(object))).toEqual([...expected].sort());
  });
});

// ---------------------------------------------------------------------------

const ingressClass = (spec: JsonObject | undefined, parameters: JsonObject = {}): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "IngressClass",
  metadata: { name: "external-lb" },
  ...(spec === undefined
    ? {}
    : {
        spec: {
          controller: "example.com/ingress-controller",
          parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external-lb", ...parameters },
          ...spec,
        },
      }),
});

describe("IngressClass (ValidateIngressClass)", () => {
  it.each<Case>([
    ["a valid class, its scope defaulted to Cluster", ingressClass({}), []],
    ["namespaced parameters", ingressClass({}, { scope: "Namespace", namespace: "ingress" }), []],
    ["no spec (validateIngressClassSpec)", ingressClass(undefined), ["spec.controller: Required value"]],
    [
      "a controller without a domain (IsDomainPrefixedPath)",
      ingressClass({ controller: "ingress-controller" }),
      ['spec.controller: Invalid value: "ingress-controller": must be a domain-prefixed path (such as "acme.io/foo")'],
    ],
    [
      "a controller whose domain is no subdomain",
      ingressClass({ controller: "Example.com/ctl" }),
      [`spec.controller: Invalid value: "Example.com": ${subdomainRegex}`],
    ],
    [
      "a controller whose path is no HTTP path",
      ingressClass({ controller: "example.com/a b" }),
      [
        `spec.controller: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`,
      ],
    ],
    [
      "a controller over 250 bytes",
      ingressClass({ controller: `example.com/${"a".repeat(250)}` }),
      ["spec.controller: Too long: may not be more than 250 bytes"],
    ],
    [
      "an empty kind (validateIngressClassParametersReference)",
      ingressClass({}, { kind: "" }),
      ["spec.parameters.kind: Required value: kind is required"],
    ],
    [
      "a name that is no path segment",
      ingressClass({}, { name: "a/b" }),
      ["spec.parameters.name: Invalid value: \"a/b\": may not contain '/'"],
    ],
    [
      "an API group that is no subdomain",
      ingressClass({}, { apiGroup: "Example.com" }),
      [`spec.parameters.apiGroup: Invalid value: "Example.com": ${subdomainRegex}`],
    ],
    [
      "an unknown scope",
      ingressClass({}, { scope: "Global" }),
      ['spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"'],
    ],
    [
      "the Namespace scope without a namespace",
      ingressClass({}, { scope: "Namespace" }),
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
    [
      "the Namespace scope and a bad namespace",
      ingressClass({}, { scope: "Namespace", namespace: "Bad_NS" }),
      [`spec.parameters.namespace: Invalid value: "Bad_NS": ${labelRegex}`],
    ],
    [
      "the Cluster scope and a namespace",
      ingressClass({}, { scope: "Cluster", namespace: "ingress" }),
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
    [
      "a namespace with the defaulted Cluster scope",
      ingressClass({}, { namespace: "ingress" }),
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
  ])("%s", (_, object, expected) => {
    expect(said(validateIngressClass(object))).toEqual([...expected].sort());
  });
});

// ---------------------------------------------------------------------------

const quota = (spec: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "ResourceQuota",
  metadata: { name: "compute" },
  spec,
});
const selector = (...matchExpressions: JsonObject[]): JsonObject => ({ matchExpressions });
const existsOnly =
  "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

describe("ResourceQuota (ValidateResourceQuotaSpec)", () => {
  it.each<Case>([
    [
      "a valid quota",
      quota({
        hard: {
          pods: "10",
          "requests.cpu": "4",
          "requests.memory": "8Gi",
          "limits.cpu": "8",
          "hugepages-2Mi": "1Gi",
          "requests.storage": "100Gi",
          "count/deployments.apps": "5",
          "requests.nvidia.com/gpu": 4,
        },
      }),
      [],
    ],
    [
      "a quota for a priority class",
      quota({
        hard: { pods: "10", "requests.cpu": "4", "limits.memory": "8Gi", "requests.nvidia.com/gpu": 4 },
        scopeSelector: selector({ scopeName: "PriorityClass", operator: "In", values: ["high"] }),
      }),
      [],
    ],
    ["valid scopes", quota({ hard: { pods: "10", cpu: "1" }, scopes: ["NotTerminating", "NotBestEffort"] }), []],
    [
      "a resource neither standard nor qualified (validateResourceName, ValidateResourceQuotaResourceName)",
      quota({ hard: { foo: "1" } }),
      [
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      ],
    ],
    [
      "a standard resource no quota tracks",
      quota({ hard: { storage: "10Gi" } }),
      ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota'],
    ],
    [
      "a resource name with a bad prefix",
      quota({ hard: { "Example.com/gpu": "1" } }),
      [`spec.hard[Example.com/gpu]: Invalid value: "Example.com/gpu": prefix part ${subdomainRegex}`],
    ],
    [
      "a negative quantity (ValidateNonnegativeQuantity)",
      quota({ hard: { "requests.cpu": "-1" } }),
      ['spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      "a fraction of pods (ValidateResourceQuantityValue)",
      quota({ hard: { pods: "1.5" } }),
      ["spec.hard[pods]: Invalid value: 1500m: must be an integer"],
    ],
    [
      "a fraction of an extended resource",
      quota({ hard: { "nvidia.com/gpu": "500m" } }),
      ["spec.hard[nvidia.com/gpu]: Invalid value: 500m: must be an integer"],
    ],
    [
      "an unknown scope (validateResourceQuotaScopes)",
      quota({ hard: { pods: "1" }, scopes: ["Foo"] }),
      ['spec.scopes: Invalid value: ["Foo"]: unsupported scope'],
    ],
    [
      "a scope that does not apply to two resources (said once by validateHandWritten, below)",
      quota({ hard: { cpu: "1", memory: "1Gi", pods: "1" }, scopes: ["BestEffort"] }),
      [
        'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource',
        'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource',
      ],
    ],
    [
      "conflicting scopes",
      quota({ hard: { pods: "1" }, scopes: ["Terminating", "NotTerminating"] }),
      ['spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes'],
    ],
    [
      "a quality-of-service scope selected with In (validateScopedResourceSelectorRequirement)",
      quota({
        hard: { pods: "1" },
        scopeSelector: selector({ scopeName: "BestEffort", operator: "In", values: ["x"] }),
      }),
      [`spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${existsOnly}`],
    ],
    [
      "In without values",
      quota({ hard: { pods: "1" }, scopeSelector: selector({ scopeName: "PriorityClass", operator: "In" }) }),
      [
        "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      ],
    ],
    [
      "Exists with values",
      quota({
        hard: { pods: "1" },
        scopeSelector: selector({ scopeName: "PriorityClass", operator: "Exists", values: ["a"] }),
      }),
      [
        "spec.scopeSelector.matchExpressions.values: Invalid value: [\"a\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
      ],
    ],
    [
      "an unknown scope name",
      quota({ hard: { pods: "1" }, scopeSelector: selector({ scopeName: "Foo", operator: "Exists" }) }),
      ['spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Foo": unsupported scope'],
    ],
    [
      "an unknown operator",
      quota({
        hard: { pods: "1" },
        scopeSelector: selector({ scopeName: "PriorityClass", operator: "Equals", values: ["a"] }),
      }),
      ['spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator'],
    ],
    [
      "a selected scope that does not apply to a resource",
      quota({
        hard: { "requests.storage": "1Gi" },
        scopeSelector: selector({ scopeName: "NotBestEffort", operator: "Exists" }),
      }),
      [
        'spec.scopeSelector.matchExpressions: Invalid value: {"matchExpressions":[{"scopeName":"NotBestEffort","operator":"Exists"}]}: unsupported scope applied to resource',
      ],
    ],
    [
      "conflicting selected scopes, reported with the (unset) scopes",
      quota({
        hard: { pods: "1" },
        scopeSelector: selector(
          { scopeName: "BestEffort", operator: "Exists" },
          { scopeName: "NotBestEffort", operator: "Exists" },
        ),
      }),
      ["spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes"],
    ],
  ])("%s", (_, object, expected) => {
    expect(said(validateResourceQuota(object))).toEqual([...expected].sort());
  });
});

// ---------------------------------------------------------------------------

const limitRange = (...limits: JsonObject[]): JsonObject => ({
  apiVersion: "v1",
  kind: "LimitRange",
  metadata: { name: "limits" },
  spec: { limits },
});
const cpu = (value: string | number): JsonObject => ({ cpu: value });

describe("LimitRange (ValidateLimitRange)", () => {
  it.each<Case>([
    [
      "valid limits",
      limitRange(
        { type: "Container", default: cpu("500m"), defaultRequest: cpu("500m"), max: cpu("1"), min: cpu("100m") },
        { type: "Pod", max: { cpu: "2", memory: "1Gi" }, maxLimitRequestRatio: cpu(2) },
        { type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { storage: "10Gi" } },
      ),
      [],
    ],
    [
      "min over max (a Pod: nothing defaulted)",
      limitRange({ type: "Pod", max: { memory: "1Gi" }, min: { memory: "2048Mi" } }),
      ["spec.limits[0].min[memory]: Invalid value: 2Gi: min value 2Gi is greater than max value 1Gi"],
    ],
    [
      "min over max for a container, whose defaults come from max (SetDefaults_LimitRangeItem)",
      limitRange({ type: "Container", max: cpu("1"), min: cpu("2") }),
      [
        "spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is greater than default value 1",
        "spec.limits[0].defaultRequest[cpu]: Invalid value: 1: min value 2 is greater than default request value 1",
        "spec.limits[0].min[cpu]: Invalid value: 2: min value 2 is greater than max value 1",
      ],
    ],
    [
      "a default over max, and the request defaulted from it",
      limitRange({ type: "Container", default: cpu("2"), max: cpu("1") }),
      [
        "spec.limits[0].default[cpu]: Invalid value: 1: default value 2 is greater than max value 1",
        "spec.limits[0].defaultRequest[cpu]: Invalid value: 2: default request value 2 is greater than max value 1",
      ],
    ],
    [
      "a default request over the default",
      limitRange({ type: "Container", default: cpu("1"), defaultRequest: cpu("2") }),
      [
        "spec.limits[0].defaultRequest[cpu]: Invalid value: 2: default request value 2 is greater than default limit value 1",
      ],
    ],
    [
      "a default request under min",
      limitRange({ type: "Container", defaultRequest: cpu("100m"), min: cpu("0.5") }),
      [
        "spec.limits[0].defaultRequest[cpu]: Invalid value: 100m: min value 500m is greater than default request value 100m",
      ],
    ],
    [
      "a ratio under 1",
      limitRange({ type: "Pod", maxLimitRequestRatio: cpu("500m") }),
      ["spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 500m: ratio 500m is less than 1"],
    ],
    [
      "a ratio over max/min",
      limitRange({ type: "Pod", max: cpu("2"), min: cpu("1"), maxLimitRequestRatio: cpu(3) }),
      ["spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 3: ratio 3 is greater than max/min = 2.000000"],
    ],
    [
      "defaults for a Pod",
      limitRange({ type: "Pod", default: cpu("1"), defaultRequest: cpu("1") }),
      [
        "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
        "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
      ],
    ],
    [
      "a type twice",
      limitRange({ type: "Container", max: cpu("1") }, { type: "Container", max: cpu("2") }),
      ['spec.limits[1].type: Duplicate value: "Container"'],
    ],
    [
      "an unknown type (validateLimitRangeTypeName)",
      limitRange({ type: "Node", max: cpu("1") }),
      ['spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified'],
    ],
    [
      "a claim limit without storage",
      limitRange({ type: "PersistentVolumeClaim", max: { "requests.storage": "1Gi" } }),
      [
        "spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided",
      ],
    ],
    [
      "a claim limit on an unknown resource (validateLimitRangeResourceName)",
      limitRange({ type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { foo: "1" } }),
      ['spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified'],
    ],
    [
      "a resource containers cannot ask for, copied into the defaults",
      limitRange({ type: "Container", max: { storage: "1Gi" } }),
      [
        'spec.limits[0].default[storage]: Invalid value: "storage": must be a standard resource for containers',
        'spec.limits[0].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers',
        'spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers',
      ],
    ],
    [
      "an extended resource whose default and request differ",
      limitRange({ type: "Container", default: { "nvidia.com/gpu": "2" }, defaultRequest: { "nvidia.com/gpu": "1" } }),
      [
        "spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: 1: default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu",
      ],
    ],
  ])("%s", (_, object, expected) => {
    expect(said(validateLimitRange(object))).toEqual([...expected].sort());
  });
});

describe("a ResourceQuota through validateHandWritten", () => {
  it("says a repeated message once, as ErrorList.ToAggregate prints it", () => {
    const object = {
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "q" },
      spec: { hard: { cpu: "1", memory: "1Gi", pods: "1" }, scopes: ["BestEffort"] },
    };
    expect(validateHandWritten("v1", "ResourceQuota", object, 36).map((f) => f.message)).toEqual([
      'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource',
    ]);
  });
});
