/**
 * Schemas of Kubernetes' own kinds, from the kubernetes-models package: its
 * validators were generated ahead of time from Kubernetes' OpenAPI document,
 * so they run without code generation (Workers allow them), and they carry
 * what that document says of each field: types, required fields, enums,
 * formats. Their errors are turned into findings in the API server's words.
 *
 * What they cannot say: unknown fields (the OpenAPI document does not close
 * objects) and rules the API server checks by hand beyond unions. Nor can
 * their errors tell a map key from a field name: map keys print dotted
 * (`limits.cpu`), not in brackets as the API server does (`limits[cpu]`).
 */

import { validate as mutatingWebhooks } from "kubernetes-models/_schemas/IoK8sApiAdmissionregistrationV1MutatingWebhookConfiguration";
import { validate as validatingWebhooks } from "kubernetes-models/_schemas/IoK8sApiAdmissionregistrationV1ValidatingWebhookConfiguration";
import { validate as daemonSet } from "kubernetes-models/_schemas/IoK8sApiAppsV1DaemonSet";
import { validate as deployment } from "kubernetes-models/_schemas/IoK8sApiAppsV1Deployment";
import { validate as replicaSet } from "kubernetes-models/_schemas/IoK8sApiAppsV1ReplicaSet";
import { validate as statefulSet } from "kubernetes-models/_schemas/IoK8sApiAppsV1StatefulSet";
import { validate as hpa } from "kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscaler";
import { validate as cronJob } from "kubernetes-models/_schemas/IoK8sApiBatchV1CronJob";
import { validate as job } from "kubernetes-models/_schemas/IoK8sApiBatchV1Job";
import { validate as lease } from "kubernetes-models/_schemas/IoK8sApiCoordinationV1Lease";
import { validate as configMap } from "kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap";
import { validate as endpoints } from "kubernetes-models/_schemas/IoK8sApiCoreV1Endpoints";
import { validate as limitRange } from "kubernetes-models/_schemas/IoK8sApiCoreV1LimitRange";
import { validate as namespace } from "kubernetes-models/_schemas/IoK8sApiCoreV1Namespace";
import { validate as persistentVolume } from "kubernetes-models/_schemas/IoK8sApiCoreV1PersistentVolume";
import { validate as persistentVolumeClaim } from "kubernetes-models/_schemas/IoK8sApiCoreV1PersistentVolumeClaim";
import { validate as pod } from "kubernetes-models/_schemas/IoK8sApiCoreV1Pod";
import { validate as podTemplate } from "kubernetes-models/_schemas/IoK8sApiCoreV1PodTemplate";
import { validate as replicationController } from "kubernetes-models/_schemas/IoK8sApiCoreV1ReplicationController";
import { validate as resourceQuota } from "kubernetes-models/_schemas/IoK8sApiCoreV1ResourceQuota";
import { validate as secret } from "kubernetes-models/_schemas/IoK8sApiCoreV1Secret";
import { validate as service } from "kubernetes-models/_schemas/IoK8sApiCoreV1Service";
import { validate as serviceAccount } from "kubernetes-models/_schemas/IoK8sApiCoreV1ServiceAccount";
import { validate as ingress } from "kubernetes-models/_schemas/IoK8sApiNetworkingV1Ingress";
import { validate as ingressClass } from "kubernetes-models/_schemas/IoK8sApiNetworkingV1IngressClass";
import { validate as networkPolicy } from "kubernetes-models/_schemas/IoK8sApiNetworkingV1NetworkPolicy";
import { validate as podDisruptionBudget } from "kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget";
import { validate as clusterRole } from "kubernetes-models/_schemas/IoK8sApiRbacV1ClusterRole";
import { validate as clusterRoleBinding } from "kubernetes-models/_schemas/IoK8sApiRbacV1ClusterRoleBinding";
import { validate as role } from "kubernetes-models/_schemas/IoK8sApiRbacV1Role";
import { validate as roleBinding } from "kubernetes-models/_schemas/IoK8sApiRbacV1RoleBinding";
import { validate as priorityClass } from "kubernetes-models/_schemas/IoK8sApiSchedulingV1PriorityClass";
import { validate as storageClass } from "kubernetes-models/_schemas/IoK8sApiStorageV1StorageClass";
import { type Finding, finding, notSupported, required } from "../findings/index.js";
import { formatPath, type PathSegment } from "../path/index.js";
import { getKey, isObject, type JsonValue } from "../value/index.js";

/** The shape of an Ajv error as the generated validators report it. */
interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const validators: Record<string, Validator> = {
  "v1/ConfigMap": configMap,
  "v1/Endpoints": endpoints,
  "v1/LimitRange": limitRange,
  "v1/Namespace": namespace,
  "v1/PersistentVolume": persistentVolume,
  "v1/PersistentVolumeClaim": persistentVolumeClaim,
  "v1/Pod": pod,
  "v1/PodTemplate": podTemplate,
  "v1/ReplicationController": replicationController,
  "v1/ResourceQuota": resourceQuota,
  "v1/Secret": secret,
  "v1/Service": service,
  "v1/ServiceAccount": serviceAccount,
  "apps/v1/DaemonSet": daemonSet,
  "apps/v1/Deployment": deployment,
  "apps/v1/ReplicaSet": replicaSet,
  "apps/v1/StatefulSet": statefulSet,
  "batch/v1/CronJob": cronJob,
  "batch/v1/Job": job,
  "autoscaling/v2/HorizontalPodAutoscaler": hpa,
  "networking.k8s.io/v1/Ingress": ingress,
  "networking.k8s.io/v1/IngressClass": ingressClass,
  "networking.k8s.io/v1/NetworkPolicy": networkPolicy,
  "rbac.authorization.k8s.io/v1/ClusterRole": clusterRole,
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": clusterRoleBinding,
  "rbac.authorization.k8s.io/v1/Role": role,
  "rbac.authorization.k8s.io/v1/RoleBinding": roleBinding,
  "policy/v1/PodDisruptionBudget": podDisruptionBudget,
  "storage.k8s.io/v1/StorageClass": storageClass,
  "scheduling.k8s.io/v1/PriorityClass": priorityClass,
  "coordination.k8s.io/v1/Lease": lease,
  "admissionregistration.k8s.io/v1/MutatingWebhookConfiguration": mutatingWebhooks,
  "admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration": validatingWebhooks,
};

/** Whether kunion has a schema for this built-in kind. */
export function hasBuiltinSchema(apiVersion: string, kind: string): boolean {
  return Object.hasOwn(validators, `${apiVersion}/${kind}`);
}

/** Schema findings for a built-in object; undefined when the kind has no schema here. */
export function validateBuiltin(apiVersion: string, kind: string, object: JsonValue): Finding[] | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!Object.hasOwn(validators, key)) return undefined;
  const validate = validators[key] as Validator;
  if (validate(object)) return [];
  return oneCausePerPath(validate.errors ?? []).map((e) => toFinding(object, e));
}

/**
 * A value that fails every branch of a `oneOf`/`anyOf` (int-or-string,
 * quantities) makes Ajv report each branch and the combinator: one cause, so
 * keep one error there, the most specific (a format over a type).
 */
function oneCausePerPath(errors: readonly AjvError[]): AjvError[] {
  const combined = new Set(
    errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf").map((e) => e.instancePath),
  );
  const out: AjvError[] = [];
  for (const e of errors) {
    if (!combined.has(e.instancePath)) out.push(e);
    else if (!out.some((kept) => kept.instancePath === e.instancePath)) {
      const atPath = errors.filter(
        (x) => x.instancePath === e.instancePath && x.keyword !== "oneOf" && x.keyword !== "anyOf",
      );
      out.push(atPath.find((x) => x.keyword === "format") ?? atPath[0] ?? e);
    }
  }
  return out;
}

function toFinding(object: JsonValue, e: AjvError): Finding {
  const path = pathOf(object, e.instancePath);
  const value = valueAt(object, path);
  switch (e.keyword) {
    case "required":
      return required([...path, String(e.params.missingProperty)]);
    case "enum":
      return notSupported(path, value, (e.params.allowedValues as unknown[]).map(String));
    case "type": {
      // As kube-openapi: the bad value printed is the type found, not the value.
      const detail = `${formatPath(path)} in body must be of type ${String(e.params.type)}: "${jsonType(value)}"`;
      return finding({ type: "FieldValueTypeInvalid", path, badValue: jsonType(value), detail });
    }
    case "format": {
      const detail = `${formatPath(path)} in body must be of type ${String(e.params.format)}: ${JSON.stringify(value)}`;
      return finding({ type: "FieldValueInvalid", path, badValue: value, detail });
    }
    default:
      return finding({ type: "FieldValueInvalid", path, badValue: value, detail: `failed ${e.keyword}` });
  }
}

/** A JSON Pointer as field path segments: list indexes become numbers. */
function pathOf(object: JsonValue, pointer: string): PathSegment[] {
  const path: PathSegment[] = [];
  let node: JsonValue | undefined = object;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) {
      const i = Number(token);
      path.push(i);
      node = node[i];
    } else {
      path.push(token);
      node = isObject(node) ? getKey(node, token) : undefined;
    }
  }
  return path;
}

function valueAt(object: JsonValue, path: readonly PathSegment[]): JsonValue | undefined {
  let node: JsonValue | undefined = object;
  for (const seg of path) {
    if (typeof seg === "number") node = Array.isArray(node) ? node[seg] : undefined;
    else node = isObject(node) ? getKey(node, typeof seg === "string" ? seg : seg.key) : undefined;
  }
  return node;
}

function jsonType(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
