/**
 * API versions Kubernetes no longer serves, from its deprecated-API migration
 * guide: which release removed each apiVersion/kind and what replaces it.
 * A manifest still written against one is refused by every current cluster.
 */

export interface RemovedApi {
  /** The minor release of 1.x that stopped serving it. */
  removedIn: number;
  /** The apiVersion to use instead; none for a kind that went away. */
  replacement?: string;
}

type Row = [apiVersions: string[], kinds: string[], removedIn: number, replacement?: string];

const rows: Row[] = [
  [
    ["extensions/v1beta1", "apps/v1beta1", "apps/v1beta2"],
    ["Deployment", "DaemonSet", "ReplicaSet", "StatefulSet"],
    16,
    "apps/v1",
  ],
  [["extensions/v1beta1"], ["NetworkPolicy"], 16, "networking.k8s.io/v1"],
  [["extensions/v1beta1"], ["PodSecurityPolicy"], 16, "policy/v1beta1"],
  [["apps/v1beta1", "apps/v1beta2"], ["ControllerRevision"], 16, "apps/v1"],
  [["apiextensions.k8s.io/v1beta1"], ["CustomResourceDefinition"], 22, "apiextensions.k8s.io/v1"],
  [
    ["admissionregistration.k8s.io/v1beta1"],
    ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"],
    22,
    "admissionregistration.k8s.io/v1",
  ],
  [["apiregistration.k8s.io/v1beta1"], ["APIService"], 22, "apiregistration.k8s.io/v1"],
  [["authentication.k8s.io/v1beta1"], ["TokenReview"], 22, "authentication.k8s.io/v1"],
  [
    ["authorization.k8s.io/v1beta1"],
    ["SubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectAccessReview", "SelfSubjectRulesReview"],
    22,
    "authorization.k8s.io/v1",
  ],
  [["certificates.k8s.io/v1beta1"], ["CertificateSigningRequest"], 22, "certificates.k8s.io/v1"],
  [["coordination.k8s.io/v1beta1"], ["Lease"], 22, "coordination.k8s.io/v1"],
  [["extensions/v1beta1", "networking.k8s.io/v1beta1"], ["Ingress"], 22, "networking.k8s.io/v1"],
  [["networking.k8s.io/v1beta1"], ["IngressClass"], 22, "networking.k8s.io/v1"],
  [
    ["rbac.authorization.k8s.io/v1beta1"],
    ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"],
    22,
    "rbac.authorization.k8s.io/v1",
  ],
  [["scheduling.k8s.io/v1beta1"], ["PriorityClass"], 22, "scheduling.k8s.io/v1"],
  [["storage.k8s.io/v1beta1"], ["CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"], 22, "storage.k8s.io/v1"],
  [["batch/v1beta1"], ["CronJob"], 25, "batch/v1"],
  [["discovery.k8s.io/v1beta1"], ["EndpointSlice"], 25, "discovery.k8s.io/v1"],
  [["events.k8s.io/v1beta1"], ["Event"], 25, "events.k8s.io/v1"],
  [["autoscaling/v2beta1"], ["HorizontalPodAutoscaler"], 25, "autoscaling/v2"],
  [["policy/v1beta1"], ["PodDisruptionBudget"], 25, "policy/v1"],
  [["policy/v1beta1"], ["PodSecurityPolicy"], 25],
  [["node.k8s.io/v1beta1"], ["RuntimeClass"], 25, "node.k8s.io/v1"],
  [
    ["flowcontrol.apiserver.k8s.io/v1beta1"],
    ["FlowSchema", "PriorityLevelConfiguration"],
    26,
    "flowcontrol.apiserver.k8s.io/v1",
  ],
  [["autoscaling/v2beta2"], ["HorizontalPodAutoscaler"], 26, "autoscaling/v2"],
  [["storage.k8s.io/v1beta1"], ["CSIStorageCapacity"], 27, "storage.k8s.io/v1"],
  [
    ["flowcontrol.apiserver.k8s.io/v1beta2"],
    ["FlowSchema", "PriorityLevelConfiguration"],
    29,
    "flowcontrol.apiserver.k8s.io/v1",
  ],
  [
    ["flowcontrol.apiserver.k8s.io/v1beta3"],
    ["FlowSchema", "PriorityLevelConfiguration"],
    32,
    "flowcontrol.apiserver.k8s.io/v1",
  ],
];

const table = new Map<string, RemovedApi>();
for (const [apiVersions, kinds, removedIn, replacement] of rows) {
  for (const v of apiVersions) for (const k of kinds) table.set(`${v}/${k}`, { removedIn, replacement });
}

/** The removal of an apiVersion/kind of Kubernetes' own, when it happened by `minor` (1.minor). */
export function removedApi(apiVersion: string, kind: string, minor = Number.POSITIVE_INFINITY): RemovedApi | undefined {
  const removal = table.get(`${apiVersion}/${kind}`);
  return removal && removal.removedIn <= minor ? removal : undefined;
}
