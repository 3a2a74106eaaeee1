/**
 * The lifecycle of Kubernetes' own API versions: which release deprecated
 * each apiVersion/kind and which stopped serving it. A manifest written
 * against a removed one is refused by every cluster of that release or
 * later; one still served but deprecated draws the API server's deprecation
 * warning. Facts from the deprecated-API migration guide, the
 * `APILifecycleDeprecated`/`Removed`/`Replacement` methods of k8s.io/api
 * (zz_generated.prerelease-lifecycle.go, core/v1/lifecycle.go), and, for
 * alpha versions, the release whose OpenAPI document no longer lists them.
 */

export interface RemovedApi {
  /** The minor release of 1.x that stopped serving it. */
  removedIn: number;
  /** The apiVersion to use instead; none for a kind that went away. */
  replacement?: string;
}

interface Lifecycle {
  apiVersions: string[];
  kinds: string[];
  /** The minor release from which the API server warns (APILifecycleDeprecated). */
  deprecated?: number;
  /** The minor release that stopped serving it (APILifecycleRemoved). */
  removed?: number;
  /** What the API server names in its warning (APILifecycleReplacement): `<group/version> <Kind>`. */
  replacement?: string;
  /** The apiVersion kunion names once it is removed, where the API server names none. */
  use?: string;
}

/** A row of a version removed before any release kunion validates for: only the error matters. */
const gone = (apiVersions: string[], kinds: string[], removed: number, use?: string): Lifecycle => ({
  apiVersions,
  kinds,
  removed,
  use,
});

const flowcontrol = ["FlowSchema", "PriorityLevelConfiguration"];
const draKinds = ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"];
const vap = ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"];

const lifecycles: Lifecycle[] = [
  // The deprecated-API migration guide, releases 1.16 to 1.32.
  gone(
    ["extensions/v1beta1", "apps/v1beta1", "apps/v1beta2"],
    ["Deployment", "DaemonSet", "ReplicaSet", "StatefulSet"],
    16,
    "apps/v1",
  ),
  gone(["extensions/v1beta1"], ["NetworkPolicy"], 16, "networking.k8s.io/v1"),
  gone(["extensions/v1beta1"], ["PodSecurityPolicy"], 16, "policy/v1beta1"),
  gone(["apps/v1beta1", "apps/v1beta2"], ["ControllerRevision"], 16, "apps/v1"),
  gone(["apiextensions.k8s.io/v1beta1"], ["CustomResourceDefinition"], 22, "apiextensions.k8s.io/v1"),
  gone(
    ["admissionregistration.k8s.io/v1beta1"],
    ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"],
    22,
    "admissionregistration.k8s.io/v1",
  ),
  gone(["apiregistration.k8s.io/v1beta1"], ["APIService"], 22, "apiregistration.k8s.io/v1"),
  gone(["authentication.k8s.io/v1beta1"], ["TokenReview"], 22, "authentication.k8s.io/v1"),
  gone(
    ["authorization.k8s.io/v1beta1"],
    ["SubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectAccessReview", "SelfSubjectRulesReview"],
    22,
    "authorization.k8s.io/v1",
  ),
  gone(["certificates.k8s.io/v1beta1"], ["CertificateSigningRequest"], 22, "certificates.k8s.io/v1"),
  gone(["coordination.k8s.io/v1beta1"], ["Lease"], 22, "coordination.k8s.io/v1"),
  gone(["extensions/v1beta1", "networking.k8s.io/v1beta1"], ["Ingress"], 22, "networking.k8s.io/v1"),
  gone(["networking.k8s.io/v1beta1"], ["IngressClass"], 22, "networking.k8s.io/v1"),
  gone(
    ["rbac.authorization.k8s.io/v1beta1"],
    ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"],
    22,
    "rbac.authorization.k8s.io/v1",
  ),
  gone(["scheduling.k8s.io/v1beta1"], ["PriorityClass"], 22, "scheduling.k8s.io/v1"),
  gone(
    ["storage.k8s.io/v1beta1"],
    ["CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"],
    22,
    "storage.k8s.io/v1",
  ),
  gone(["batch/v1beta1"], ["CronJob"], 25, "batch/v1"),
  gone(["discovery.k8s.io/v1beta1"], ["EndpointSlice"], 25, "discovery.k8s.io/v1"),
  gone(["events.k8s.io/v1beta1"], ["Event"], 25, "events.k8s.io/v1"),
  gone(["autoscaling/v2beta1"], ["HorizontalPodAutoscaler"], 25, "autoscaling/v2"),
  gone(["policy/v1beta1"], ["PodDisruptionBudget"], 25, "policy/v1"),
  gone(["policy/v1beta1"], ["PodSecurityPolicy"], 25),
  gone(["node.k8s.io/v1beta1"], ["RuntimeClass"], 25, "node.k8s.io/v1"),
  gone(["flowcontrol.apiserver.k8s.io/v1beta1"], flowcontrol, 26, "flowcontrol.apiserver.k8s.io/v1"),
  gone(["autoscaling/v2beta2"], ["HorizontalPodAutoscaler"], 26, "autoscaling/v2"),
  gone(["storage.k8s.io/v1beta1"], ["CSIStorageCapacity"], 27, "storage.k8s.io/v1"),
  gone(["flowcontrol.apiserver.k8s.io/v1beta2"], flowcontrol, 29, "flowcontrol.apiserver.k8s.io/v1"),
  gone(["flowcontrol.apiserver.k8s.io/v1beta3"], flowcontrol, 32, "flowcontrol.apiserver.k8s.io/v1"),
  // Alpha versions: the first release whose OpenAPI document lacks them.
  gone(["networking.k8s.io/v1alpha1"], ["IPAddress", "ServiceCIDR"], 31, "networking.k8s.io/v1"),
  gone(
    ["resource.k8s.io/v1alpha2"],
    ["ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"],
    31,
    "resource.k8s.io/v1",
  ),
  gone(
    ["resource.k8s.io/v1alpha2"],
    ["PodSchedulingContext", "ResourceClaimParameters", "ResourceClass", "ResourceClassParameters"],
    31,
  ),
  gone(["admissionregistration.k8s.io/v1alpha1"], vap, 32, "admissionregistration.k8s.io/v1"),
  gone(["authentication.k8s.io/v1alpha1"], ["SelfSubjectReview"], 32, "authentication.k8s.io/v1"),
  gone(["coordination.k8s.io/v1alpha1"], ["LeaseCandidate"], 32),
  gone(["resource.k8s.io/v1alpha3"], ["PodSchedulingContext"], 32),
  gone(["resource.k8s.io/v1alpha3"], draKinds, 34, "resource.k8s.io/v1"),
  gone(["certificates.k8s.io/v1alpha1"], ["PodCertificateRequest"], 35, "certificates.k8s.io/v1beta1"),
  gone(["storage.k8s.io/v1alpha1"], ["VolumeAttributesClass"], 35, "storage.k8s.io/v1"),
  gone(["storagemigration.k8s.io/v1alpha1"], ["StorageVersionMigration"], 35, "storagemigration.k8s.io/v1beta1"),
  gone(["scheduling.k8s.io/v1alpha1"], ["Workload"], 36, "scheduling.k8s.io/v1alpha2"),
  // Beta versions deprecated or removed from 1.32 on (prerelease-lifecycle-gen: deprecated is
  // introduced + 3 and removed is deprecated + 3 unless the type's tags say otherwise).
  {
    apiVersions: ["authentication.k8s.io/v1beta1"],
    kinds: ["SelfSubjectReview"],
    deprecated: 30,
    removed: 33,
    use: "authentication.k8s.io/v1",
  },
  {
    apiVersions: ["admissionregistration.k8s.io/v1beta1"],
    kinds: vap,
    deprecated: 31,
    removed: 34,
    use: "admissionregistration.k8s.io/v1",
  },
  {
    apiVersions: ["networking.k8s.io/v1beta1"],
    kinds: ["IPAddress", "ServiceCIDR"],
    deprecated: 34,
    removed: 37,
    use: "networking.k8s.io/v1",
  },
  {
    apiVersions: ["storage.k8s.io/v1beta1"],
    kinds: ["VolumeAttributesClass"],
    deprecated: 34,
    removed: 37,
    use: "storage.k8s.io/v1",
  },
  { apiVersions: ["resource.k8s.io/v1beta1"], kinds: draKinds, deprecated: 35, removed: 38, use: "resource.k8s.io/v1" },
  { apiVersions: ["resource.k8s.io/v1beta2"], kinds: draKinds, deprecated: 36, removed: 39, use: "resource.k8s.io/v1" },
  { apiVersions: ["coordination.k8s.io/v1beta1"], kinds: ["LeaseCandidate"], deprecated: 36, removed: 39 },
  { apiVersions: ["certificates.k8s.io/v1beta1"], kinds: ["ClusterTrustBundle"], deprecated: 36, removed: 39 },
  // Stable kinds deprecated for good, never removed (core/v1/lifecycle.go).
  { apiVersions: ["v1"], kinds: ["ComponentStatus"], deprecated: 19 },
  { apiVersions: ["v1"], kinds: ["Endpoints"], deprecated: 33, replacement: "discovery.k8s.io/v1 EndpointSlice" },
];

const table = new Map<string, Lifecycle>();
for (const row of lifecycles) {
  for (const v of row.apiVersions) for (const k of row.kinds) table.set(`${v}/${k}`, row);
}

/** The removal of an apiVersion/kind of Kubernetes' own, when it happened by `minor` (1.minor). */
export function removedApi(apiVersion: string, kind: string, minor = Number.POSITIVE_INFINITY): RemovedApi | undefined {
  const row = table.get(`${apiVersion}/${kind}`);
  if (row?.removed === undefined || row.removed > minor) return undefined;
  return { removedIn: row.removed, replacement: row.use };
}

/**
 * The API server's warning for an apiVersion/kind release 1.`minor` still
 * serves but has deprecated, in its words (apiserver endpoints/deprecation
 * WarningMessage): `<group/version> <Kind> is deprecated in v1.X+[,
 * unavailable in v1.Y+][; use <group/version> <Kind>]`.
 */
export function deprecationWarning(apiVersion: string, kind: string, minor: number): string | undefined {
  const row = table.get(`${apiVersion}/${kind}`);
  if (row?.deprecated === undefined || row.deprecated > minor) return undefined;
  if (row.removed !== undefined && row.removed <= minor) return undefined;
  const unavailable = row.removed === undefined ? "" : `, unavailable in v1.${row.removed}+`;
  const use = row.replacement === undefined ? "" : `; use ${row.replacement}`;
  return `${apiVersion} ${kind} is deprecated in v1.${row.deprecated}+${unavailable}${use}`;
}
