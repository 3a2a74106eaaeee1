/**
 * The built-in registry (unions.md §5): a type graph of Kubernetes' own kinds,
 * reduced to the fields that lead to a union, with the unions attached where
 * Kubernetes declares them (in Go, or by hand-written validation). Pure data,
 * built once at import and frozen: nodes such as the PodSpec are shared by
 * every kind that embeds them, so nothing may mutate them.
 *
 * Member values of non-discriminated unions are `defaultMemberValue(field)`
 * (KEP 002's default); discriminator values are the Go constants. `wording`
 * names the API server's own messages in `unions/wording.ts`.
 */
import {
  defaultMemberValue,
  emptyRecord,
  type MemberKind,
  memberKindOf,
  type SchemaNode,
  type Union,
  type UnionMember,
} from "../schema/index.js";

export interface BuiltinKind {
  apiVersion: string;
  kind: string;
}

interface MemberSpec {
  field: string;
  /** Discriminator value; defaults to the Go field name. */
  value?: string;
  optional?: boolean;
  /** Overrides the kind read from the member's schema (Go non-pointer scalars are `zero`). */
  kind?: MemberKind;
}

interface UnionSpec {
  discriminator?: string;
  members: readonly (string | MemberSpec)[];
  emptyValues?: readonly string[];
  exactlyOne: boolean;
  wording?: string;
}

// ---------------------------------------------------------------------------
// Builders

const string = (): SchemaNode => ({ type: "string" });
/** A struct whose own fields lead to no union. */
const opaque = (): SchemaNode => ({ type: "object" });

function listOf(items: SchemaNode, listMapKeys?: string[]): SchemaNode {
  const node: SchemaNode = { type: "array", items };
  if (listMapKeys) node.listMapKeys = listMapKeys;
  return node;
}

/** An object schema for the Go struct `goType`, with the unions it declares. */
function struct(goType: string, fields: Record<string, SchemaNode>, ...unions: UnionSpec[]): SchemaNode {
  const properties = emptyRecord<SchemaNode>();
  for (const [name, node] of Object.entries(fields)) properties[name] = node;
  const node: SchemaNode = { type: "object", properties };
  if (unions.length > 0) node.unions = unions.map((u) => union(goType, properties, u));
  return node;
}

function union(goType: string, properties: Record<string, SchemaNode>, spec: UnionSpec): Union {
  const fieldOf = (name: string): SchemaNode => {
    const node = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!node) throw new Error(`built-in ${goType}: ${name} is not a property`);
    return node;
  };
  const members = spec.members.map((m): UnionMember => {
    const s = typeof m === "string" ? { field: m } : m;
    return {
      field: s.field,
      value: s.value ?? defaultMemberValue(s.field),
      optional: s.optional ?? false,
      kind: s.kind ?? memberKindOf(fieldOf(s.field)),
    };
  });
  if (spec.discriminator !== undefined) fieldOf(spec.discriminator);
  const out: Union = {
    members,
    emptyValues: [...(spec.emptyValues ?? [])],
    exactlyOne: spec.exactlyOne,
    deduce: false,
    origin: `built-in ${goType}`,
  };
  if (spec.discriminator !== undefined) out.discriminator = spec.discriminator;
  if (spec.wording !== undefined) out.wording = spec.wording;
  return out;
}

/** Properties named `fields`, each an opaque struct. */
function opaqueFields(fields: readonly string[]): Record<string, SchemaNode> {
  return Object.fromEntries(fields.map((f) => [f, opaque()]));
}

// ---------------------------------------------------------------------------
// core/v1: containers

/** Probe (ProbeHandler is inline), validated by core's validateHandler. */
const probeHandlerMembers = ["exec", "httpGet", "tcpSocket", "grpc"] as const;
const probe = struct("ProbeHandler", opaqueFields(probeHandlerMembers), {
  members: probeHandlerMembers,
  exactlyOne: true,
  wording: "handler",
});

const lifecycleHandlerMembers = ["exec", "httpGet", "tcpSocket", "sleep"] as const;
const lifecycleHandler = struct("LifecycleHandler", opaqueFields(lifecycleHandlerMembers), {
  members: lifecycleHandlerMembers,
  exactlyOne: true,
  wording: "handler",
});
const lifecycle = struct("Lifecycle", { postStart: lifecycleHandler, preStop: lifecycleHandler });

const envVarSourceMembers = ["fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"] as const;
const envVarSource = struct("EnvVarSource", opaqueFields(envVarSourceMembers), {
  members: envVarSourceMembers,
  exactlyOne: true,
  // Reported by the EnvVar wording, which sees `value` too (see wording.ts).
  wording: "envVarSource",
});

const envVar = struct(
  "EnvVar",
  { name: string(), value: string(), valueFrom: envVarSource },
  // `value` is a Go non-pointer string: "" is unset.
  { members: [{ field: "value", kind: "zero" }, "valueFrom"], exactlyOne: false, wording: "envVar" },
);

const envFromSource = struct(
  "EnvFromSource",
  { prefix: string(), configMapRef: opaque(), secretRef: opaque() },
  { members: ["configMapRef", "secretRef"], exactlyOne: true, wording: "envFromSource" },
);

const profileTypes = ["RuntimeDefault", "Unconfined"] as const;
/**
 * SeccompProfile and AppArmorProfile: `localhostProfile` under the type
 * Localhost (the Go constant; the published spec's `LocalhostProfile` is
 * wrong), no member under the other types.
 */
const securityProfile = (goType: string, wording: string): SchemaNode =>
  struct(
    goType,
    { type: string(), localhostProfile: string() },
    {
      discriminator: "type",
      members: [{ field: "localhostProfile", value: "Localhost" }],
      emptyValues: profileTypes,
      exactlyOne: true,
      wording,
    },
  );
const seccompProfile = securityProfile("SeccompProfile", "seccompProfile");
const appArmorProfile = securityProfile("AppArmorProfile", "appArmorProfile");
const securityContext = struct("SecurityContext", { seccompProfile, appArmorProfile });

/** Container; EphemeralContainer shares these fields (EphemeralContainerCommon). */
const container = struct("Container", {
  name: string(),
  env: listOf(envVar, ["name"]),
  envFrom: listOf(envFromSource),
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe,
  lifecycle,
  securityContext,
});

// ---------------------------------------------------------------------------
// core/v1: volumes

/** A VolumeProjection's members, in Go's field order. */
export const volumeProjectionMembers = [
  "secret",
  "downwardAPI",
  "configMap",
  "serviceAccountToken",
  "clusterTrustBundle",
  "podCertificate",
] as const;
const volumeProjection = struct("VolumeProjection", opaqueFields(volumeProjectionMembers), {
  members: volumeProjectionMembers,
  exactlyOne: true,
});

/** VolumeSource members in Go struct (and protobuf) order. */
export const volumeSourceMembers = [
  "hostPath",
  "emptyDir",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "gitRepo",
  "secret",
  "nfs",
  "iscsi",
  "glusterfs",
  "persistentVolumeClaim",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "flocker",
  "downwardAPI",
  "fc",
  "azureFile",
  "configMap",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "photonPersistentDisk",
  "projected",
  "portworxVolume",
  "scaleIO",
  "storageos",
  "csi",
  "ephemeral",
  "image",
] as const;
const volume = struct(
  "VolumeSource",
  {
    name: string(),
    ...opaqueFields(volumeSourceMembers),
    projected: struct("ProjectedVolumeSource", { sources: listOf(volumeProjection) }),
  },
  { members: volumeSourceMembers, exactlyOne: true, wording: "volumeSource" },
);

/** PersistentVolumeSource members in Go struct order. */
export const persistentVolumeSourceMembers = [
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "hostPath",
  "glusterfs",
  "nfs",
  "rbd",
  "iscsi",
  "cinder",
  "cephfs",
  "fc",
  "flocker",
  "flexVolume",
  "azureFile",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "local",
  "storageos",
  "csi",
] as const;
/** PersistentVolumeSpec, with PersistentVolumeSource inline. */
const persistentVolumeSpec = struct("PersistentVolumeSource", opaqueFields(persistentVolumeSourceMembers), {
  members: persistentVolumeSourceMembers,
  exactlyOne: true,
  wording: "persistentVolumeSource",
});

// ---------------------------------------------------------------------------
// core/v1: pods

const podSecurityContext = struct("PodSecurityContext", { seccompProfile, appArmorProfile });

/** One PodSpec node, shared by every kind that embeds a pod template. */
const podSpec = struct("PodSpec", {
  containers: listOf(container, ["name"]),
  initContainers: listOf(container, ["name"]),
  ephemeralContainers: listOf(container, ["name"]),
  volumes: listOf(volume, ["name"]),
  securityContext: podSecurityContext,
});
const podTemplateSpec = struct("PodTemplateSpec", { spec: podSpec });

// ---------------------------------------------------------------------------
// apps/v1

// The server defaults `rollingUpdate` whenever the type is (or defaults to)
// RollingUpdate (apps/v1 SetDefaults_Deployment, SetDefaults_DaemonSet), and a
// StatefulSet needs none: the member may be absent while selected.
const rollingUpdate: MemberSpec = { field: "rollingUpdate", value: "RollingUpdate", optional: true };

/**
 * An apps/v1 strategy: `type` selects `rollingUpdate` or `otherType`, which
 * has no member. `type` is defaulted by the server: not required.
 */
const appsStrategy = (goType: string, otherType: string, wording: string): SchemaNode =>
  struct(
    goType,
    { type: string(), rollingUpdate: opaque() },
    { discriminator: "type", members: [rollingUpdate], emptyValues: [otherType], exactlyOne: false, wording },
  );
const deploymentStrategy = appsStrategy("DeploymentStrategy", "Recreate", "deploymentStrategy");
const daemonSetUpdateStrategy = appsStrategy("DaemonSetUpdateStrategy", "OnDelete", "daemonSetUpdateStrategy");
const statefulSetUpdateStrategy = appsStrategy("StatefulSetUpdateStrategy", "OnDelete", "statefulSetUpdateStrategy");

const deployment = struct("Deployment", {
  spec: struct("DeploymentSpec", { template: podTemplateSpec, strategy: deploymentStrategy }),
});
const statefulSet = struct("StatefulSet", {
  spec: struct("StatefulSetSpec", { template: podTemplateSpec, updateStrategy: statefulSetUpdateStrategy }),
});
const daemonSet = struct("DaemonSet", {
  spec: struct("DaemonSetSpec", { template: podTemplateSpec, updateStrategy: daemonSetUpdateStrategy }),
});
const replicaSet = struct("ReplicaSet", { spec: struct("ReplicaSetSpec", { template: podTemplateSpec }) });

// ---------------------------------------------------------------------------
// batch/v1

const podFailurePolicyRule = struct(
  "PodFailurePolicyRule",
  { action: string(), onExitCodes: opaque(), onPodConditions: listOf(opaque()) },
  { members: ["onExitCodes", "onPodConditions"], exactlyOne: true },
);
const jobSpec = struct("JobSpec", {
  template: podTemplateSpec,
  podFailurePolicy: struct("PodFailurePolicy", { rules: listOf(podFailurePolicyRule) }),
});
const job = struct("Job", { spec: jobSpec });
const cronJob = struct("CronJob", {
  spec: struct("CronJobSpec", { jobTemplate: struct("JobTemplateSpec", { spec: jobSpec }) }),
});

// ---------------------------------------------------------------------------
// autoscaling/v2

const metricTypes = [
  { field: "object", value: "Object" },
  { field: "pods", value: "Pods" },
  { field: "resource", value: "Resource" },
  { field: "containerResource", value: "ContainerResource" },
  { field: "external", value: "External" },
] as const;
const metricFields = { type: string(), ...opaqueFields(metricTypes.map((m) => m.field)) };
const metricSpec = struct("MetricSpec", metricFields, {
  discriminator: "type",
  members: metricTypes,
  exactlyOne: true,
  wording: "metricSource",
});
const metricStatus = struct("MetricStatus", metricFields, {
  discriminator: "type",
  members: metricTypes,
  exactlyOne: true,
  wording: "metricStatus",
});
const horizontalPodAutoscaler = struct("HorizontalPodAutoscaler", {
  spec: struct("HorizontalPodAutoscalerSpec", { metrics: listOf(metricSpec) }),
  status: struct("HorizontalPodAutoscalerStatus", { currentMetrics: listOf(metricStatus) }),
});

// ---------------------------------------------------------------------------
// networking.k8s.io/v1

const ingressBackend = struct(
  "IngressBackend",
  { service: opaque(), resource: opaque() },
  { members: ["service", "resource"], exactlyOne: true, wording: "ingressBackend" },
);
const ingress = struct("Ingress", {
  spec: struct("IngressSpec", {
    defaultBackend: ingressBackend,
    rules: listOf(
      struct("IngressRule", {
        http: struct("HTTPIngressRuleValue", {
          paths: listOf(struct("HTTPIngressPath", { path: string(), backend: ingressBackend })),
        }),
      }),
    ),
  }),
});

// ---------------------------------------------------------------------------
// flowcontrol.apiserver.k8s.io/v1

const subject = struct(
  "Subject",
  { kind: string(), user: opaque(), group: opaque(), serviceAccount: opaque() },
  {
    discriminator: "kind",
    members: [
      { field: "user", value: "User" },
      { field: "group", value: "Group" },
      { field: "serviceAccount", value: "ServiceAccount" },
    ],
    exactlyOne: true,
    wording: "flowSchemaSubject",
  },
);
const flowSchema = struct("FlowSchema", {
  spec: struct("FlowSchemaSpec", {
    rules: listOf(struct("PolicyRulesWithSubjects", { subjects: listOf(subject) })),
  }),
});

const limitResponse = struct(
  "LimitResponse",
  { type: string(), queuing: opaque() },
  // The value is the Go constant `Queue` (not `Queuing`).
  {
    discriminator: "type",
    members: [{ field: "queuing", value: "Queue" }],
    emptyValues: ["Reject"],
    exactlyOne: true,
    wording: "limitResponse",
  },
);
const priorityLevelConfiguration = struct("PriorityLevelConfiguration", {
  spec: struct(
    "PriorityLevelConfigurationSpec",
    {
      type: string(),
      limited: struct("LimitedPriorityLevelConfiguration", { limitResponse }),
      exempt: opaque(),
    },
    {
      discriminator: "type",
      // `exempt` may be empty when selected: its defaults apply.
      members: [
        { field: "limited", value: "Limited" },
        { field: "exempt", value: "Exempt", optional: true },
      ],
      exactlyOne: true,
      wording: "priorityLevelConfigurationSpec",
    },
  ),
});

// ---------------------------------------------------------------------------
// admissionregistration.k8s.io/v1alpha1, v1beta1, v1

const mutation = struct(
  "Mutation",
  { patchType: string(), applyConfiguration: opaque(), jsonPatch: opaque() },
  {
    discriminator: "patchType",
    members: [
      { field: "applyConfiguration", value: "ApplyConfiguration" },
      { field: "jsonPatch", value: "JSONPatch" },
    ],
    exactlyOne: true,
    wording: "mutation",
  },
);
const mutatingAdmissionPolicy = struct("MutatingAdmissionPolicy", {
  spec: struct("MutatingAdmissionPolicySpec", { mutations: listOf(mutation) }),
});

// ---------------------------------------------------------------------------
// resource.k8s.io/v1

const deviceRequest = struct(
  "DeviceRequest",
  { name: string(), exactly: opaque(), firstAvailable: listOf(opaque()) },
  { members: ["exactly", "firstAvailable"], exactlyOne: true, wording: "deviceRequest" },
);
const resourceClaimSpec = struct("ResourceClaimSpec", {
  devices: struct("DeviceClaim", { requests: listOf(deviceRequest) }),
});
const resourceClaim = struct("ResourceClaim", { spec: resourceClaimSpec });
const resourceClaimTemplate = struct("ResourceClaimTemplate", {
  spec: struct("ResourceClaimTemplateSpec", { spec: resourceClaimSpec }),
});

// ---------------------------------------------------------------------------
// Kinds

const kinds: readonly (readonly [apiVersions: readonly string[], kind: string, schema: SchemaNode])[] = [
  [["v1"], "Pod", struct("Pod", { spec: podSpec })],
  [["v1"], "PodTemplate", struct("PodTemplate", { template: podTemplateSpec })],
  [["v1"], "PersistentVolume", struct("PersistentVolume", { spec: persistentVolumeSpec })],
  [["apps/v1"], "Deployment", deployment],
  [["apps/v1"], "StatefulSet", statefulSet],
  [["apps/v1"], "DaemonSet", daemonSet],
  [["apps/v1"], "ReplicaSet", replicaSet],
  [["batch/v1"], "Job", job],
  [["batch/v1"], "CronJob", cronJob],
  [["autoscaling/v2"], "HorizontalPodAutoscaler", horizontalPodAutoscaler],
  [["networking.k8s.io/v1"], "Ingress", ingress],
  [["flowcontrol.apiserver.k8s.io/v1"], "FlowSchema", flowSchema],
  [["flowcontrol.apiserver.k8s.io/v1"], "PriorityLevelConfiguration", priorityLevelConfiguration],
  [
    [
      "admissionregistration.k8s.io/v1alpha1",
      "admissionregistration.k8s.io/v1beta1",
      "admissionregistration.k8s.io/v1",
    ],
    "MutatingAdmissionPolicy",
    mutatingAdmissionPolicy,
  ],
  [["resource.k8s.io/v1"], "ResourceClaim", resourceClaim],
  [["resource.k8s.io/v1"], "ResourceClaimTemplate", resourceClaimTemplate],
];

const byKey = new Map<string, SchemaNode>();
const kindList: BuiltinKind[] = [];
for (const [apiVersions, kind, schema] of kinds) {
  deepFreeze(schema);
  for (const apiVersion of apiVersions) {
    byKey.set(`${apiVersion} ${kind}`, schema);
    kindList.push({ apiVersion, kind });
  }
}

/** The schema of a built-in kind with its unions, or undefined when kunion does not know it. */
export function builtinSchemaFor(apiVersion: string, kind: string): SchemaNode | undefined {
  return byKey.get(`${apiVersion} ${kind}`);
}

/** Every (apiVersion, kind) the registry knows, one entry per served version. */
export function builtinKinds(): BuiltinKind[] {
  return kindList.map((k) => ({ ...k }));
}

/** Freezes a schema graph; shared nodes are visited once. */
function deepFreeze(root: SchemaNode): void {
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const child of Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push(child);
    }
    Object.freeze(v);
  }
}
