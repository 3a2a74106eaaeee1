/**
 * The API server's hand-written validation of its own kinds
 * (pkg/apis/<group>/validation in kubernetes/kubernetes): the rules no
 * OpenAPI schema states, in the API server's words, one module per API
 * group, and the warnings it sends with an accepted object
 * (warnings.ts). Run after the schema, on objects as written:
 * where the server would first default a field, these rules apply its
 * default. Kubernetes' published schemas carry no enums: the enum-like
 * fields the server checks by hand are checked here. Required fields the
 * schema marks, and the one-of rules of the union registry, are reported
 * there, not here.
 * Imports findings, path, names, value, go and crd (a CustomResourceDefinition's own rules).
 */
import { validateCustomResourceDefinition } from "../../crd/index.js";
import type { Finding } from "../../findings/index.js";
import { splitApiVersion } from "../../names/index.js";
import type { JsonObject } from "../../value/index.js";
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding } from "./admission-policy.js";
import {
  validateMutatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
} from "./admissionregistration.js";
import { validateAPIService } from "./apiregistration.js";
import { validateDaemonSet, validateDeployment, validateReplicaSet, validateStatefulSet } from "./apps.js";
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerV1 } from "./autoscaling.js";
import { validateCronJob, validateJob } from "./batch.js";
import { validateCertificateSigningRequest } from "./certificates.js";
import {
  validateIngressClass,
  validateLimitRange,
  validatePriorityClass,
  validateResourceQuota,
  validateStorageClass,
} from "./cluster.js";
import { once, validateKubeFinalizers } from "./common.js";
import { validateLease } from "./coordination.js";
import {
  validateConfigMap,
  validateNamespace,
  validatePod,
  validatePodTemplate,
  validateReplicationController,
  validateSecret,
  validateService,
} from "./core.js";
import { validateCSIDriver } from "./csi.js";
import { validateEndpointSlice, validateEndpoints } from "./endpoints.js";
import { validateFlowSchema, validatePriorityLevelConfiguration } from "./flowcontrol.js";
import { validateIPAddress, validateServiceCIDR } from "./ip-allocation.js";
import { validateMutatingAdmissionPolicy, validateMutatingAdmissionPolicyBinding } from "./mutating-policy.js";
import { validateIngress, validateNetworkPolicy } from "./networking.js";
import { validateRuntimeClass } from "./node.js";
import { validatePersistentVolume, validatePersistentVolumeClaim } from "./persistent-volumes.js";
import { validatePodDisruptionBudget } from "./policy.js";
import { validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from "./rbac.js";
import { validateDeviceClass, validateResourceClaim, validateResourceClaimTemplate } from "./resource.js";
import {
  validateCSINode,
  validateCSIStorageCapacity,
  validateVolumeAttachment,
  validateVolumeAttributesClass,
} from "./storage.js";
import { warningsFor } from "./warnings.js";
import { validateControllerRevision } from "./workload-rules.js";

/** A kind's hand-written validation, for release 1.`minor`. */
/** A kind's rules; `oldObject`, on an update, for the rules the server skips when the old object fails them. */
type Validator = (object: JsonObject, minor: number, oldObject?: JsonObject) => Finding[];

const validators: Readonly<Record<string, Validator>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, Validator>, {
    "v1/Pod": validatePod,
    "v1/PodTemplate": validatePodTemplate,
    "v1/ReplicationController": validateReplicationController,
    "v1/Service": validateService,
    "v1/ConfigMap": validateConfigMap,
    "v1/Namespace": validateNamespace,
    "v1/Endpoints": validateEndpoints,
    "discovery.k8s.io/v1/EndpointSlice": validateEndpointSlice,
    "v1/Secret": validateSecret,
    "v1/PersistentVolumeClaim": validatePersistentVolumeClaim,
    "v1/PersistentVolume": validatePersistentVolume,
    "v1/ResourceQuota": validateResourceQuota,
    "v1/LimitRange": validateLimitRange,
    "apps/v1/Deployment": validateDeployment,
    "apps/v1/ReplicaSet": validateReplicaSet,
    "apps/v1/DaemonSet": validateDaemonSet,
    "apps/v1/StatefulSet": validateStatefulSet,
    "apps/v1/ControllerRevision": validateControllerRevision,
    "batch/v1/Job": validateJob,
    "batch/v1/CronJob": validateCronJob,
    "networking.k8s.io/v1/Ingress": validateIngress,
    "networking.k8s.io/v1/NetworkPolicy": validateNetworkPolicy,
    "networking.k8s.io/v1/IngressClass": validateIngressClass,
    // v1 from 1.33 (the rules of 1.33 and later; nothing for 1.32's v1beta1)
    ...Object.fromEntries(
      ["v1beta1", "v1"].flatMap((version) => [
        [`networking.k8s.io/${version}/ServiceCIDR`, validateServiceCIDR],
        [`networking.k8s.io/${version}/IPAddress`, validateIPAddress],
      ]),
    ),
    "storage.k8s.io/v1/StorageClass": validateStorageClass,
    "storage.k8s.io/v1/CSIDriver": validateCSIDriver,
    "storage.k8s.io/v1/CSINode": validateCSINode,
    "storage.k8s.io/v1/CSIStorageCapacity": validateCSIStorageCapacity,
    "storage.k8s.io/v1/VolumeAttachment": validateVolumeAttachment,
    // v1 from 1.34, v1beta1 (off by default) before
    ...Object.fromEntries(
      ["v1alpha1", "v1beta1", "v1"].map((version) => [
        `storage.k8s.io/${version}/VolumeAttributesClass`,
        validateVolumeAttributesClass,
      ]),
    ),
    "scheduling.k8s.io/v1/PriorityClass": validatePriorityClass,
    "node.k8s.io/v1/RuntimeClass": validateRuntimeClass,
    "admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration": validateValidatingWebhookConfiguration,
    "admissionregistration.k8s.io/v1/MutatingWebhookConfiguration": validateMutatingWebhookConfiguration,
    // v1 (GA in 1.30), and the v1beta1 1.32 and 1.33 still serve (v1alpha1, a cluster's older documents): the
    // versions convert to one internal type, validated alike
    ...Object.fromEntries(
      ["v1alpha1", "v1beta1", "v1"].flatMap((version) => [
        [`admissionregistration.k8s.io/${version}/ValidatingAdmissionPolicy`, validateValidatingAdmissionPolicy],
        [
          `admissionregistration.k8s.io/${version}/ValidatingAdmissionPolicyBinding`,
          validateValidatingAdmissionPolicyBinding,
        ],
      ]),
    ),
    // served as v1alpha1 (1.32, 1.33), v1beta1 (1.34) and v1 (1.36): the same rules
    ...Object.fromEntries(
      ["v1alpha1", "v1beta1", "v1"].flatMap((version) => [
        [`admissionregistration.k8s.io/${version}/MutatingAdmissionPolicy`, validateMutatingAdmissionPolicy],
        [
          `admissionregistration.k8s.io/${version}/MutatingAdmissionPolicyBinding`,
          validateMutatingAdmissionPolicyBinding,
        ],
      ]),
    ),
    "autoscaling/v1/HorizontalPodAutoscaler": validateHorizontalPodAutoscalerV1,
    "autoscaling/v2/HorizontalPodAutoscaler": validateHorizontalPodAutoscaler,
    "certificates.k8s.io/v1/CertificateSigningRequest": validateCertificateSigningRequest,
    "coordination.k8s.io/v1/Lease": validateLease,
    "flowcontrol.apiserver.k8s.io/v1/FlowSchema": validateFlowSchema,
    "flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration": validatePriorityLevelConfiguration,
    "apiregistration.k8s.io/v1/APIService": validateAPIService,
    "apiextensions.k8s.io/v1/CustomResourceDefinition": validateCustomResourceDefinition,
    "policy/v1/PodDisruptionBudget": validatePodDisruptionBudget,
    "rbac.authorization.k8s.io/v1/Role": validateRole,
    "rbac.authorization.k8s.io/v1/ClusterRole": validateClusterRole,
    "rbac.authorization.k8s.io/v1/RoleBinding": validateRoleBinding,
    "rbac.authorization.k8s.io/v1/ClusterRoleBinding": validateClusterRoleBinding,
    // served from 1.34
    "resource.k8s.io/v1/DeviceClass": validateDeviceClass,
    "resource.k8s.io/v1/ResourceClaim": validateResourceClaim,
    "resource.k8s.io/v1/ResourceClaimTemplate": validateResourceClaimTemplate,
  }),
);

/**
 * The groups and kinds whose validation calls apimachinery's ValidateObjectMeta (or none: the generic checks
 * the API server runs on every object are the schema's), not core's, which adds its finalizer rule.
 * node's `apivalidation` and coordination's `validation` are apimachinery's, despite their names.
 */
const genericObjectMeta = new Set([
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "apiregistration.k8s.io",
  "authentication.k8s.io",
  "authorization.k8s.io",
  "coordination.k8s.io",
  "node.k8s.io",
  // a PodDisruptionBudget's, and a core or events.k8s.io/v1beta1 Event's, validation has no ObjectMeta check
  "policy/PodDisruptionBudget",
  "/Event",
  "events.k8s.io/v1beta1/Event",
  "/Binding",
]);

const usesCoreObjectMeta = (apiVersion: string, kind: string): boolean => {
  const { group } = splitApiVersion(apiVersion);
  return (
    !genericObjectMeta.has(group) &&
    !genericObjectMeta.has(`${group}/${kind}`) &&
    !genericObjectMeta.has(`${apiVersion}/${kind}`)
  );
};

/**
 * The hand-written rules' findings for a built-in object, and the warnings release `minor` (36 for 1.36) would
 * send with it; on an update, `oldObject` is the object as stored.
 */
export function validateHandWritten(
  apiVersion: string,
  kind: string,
  object: JsonObject,
  minor: number,
  oldObject?: JsonObject,
): Finding[] {
  const validate = validators[`${apiVersion}/${kind}`];
  // The server prints its errors through ErrorList.ToAggregate and records each warning once: a message said
  // twice is said once.
  return once([
    ...(usesCoreObjectMeta(apiVersion, kind) ? validateKubeFinalizers(object) : []),
    ...(validate === undefined ? [] : validate(object, minor, oldObject)),
    ...warningsFor(apiVersion, kind, object, minor),
  ]);
}
