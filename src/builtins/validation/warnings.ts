/**
 * The warnings the API server sends back with a built-in object it accepts
 * (each kind's strategy, WarningsOnCreate): a Pod's or a pod template's
 * (pkg/api/pod/warnings.go, warningsForPodSpecAndMeta), with the deprecated
 * node labels of pkg/api/node/util.go; a claim's and a claim template's
 * (pkg/api/persistentvolumeclaim/util.go); a Service's
 * (pkg/api/service/warnings.go); a Job's (pkg/api/job/warnings.go); an
 * Ingress's class annotation; a workload name that is no DNS label. kubectl prints them as
 * `Warning: <field>: <text>`; kunion reports them as warnings, in the same
 * order. Where Go walks a map (a node selector, annotations, a set of
 * paths), kunion walks it in the order it is written: one of the orders Go
 * may take.
 */
import type { Finding } from "../../findings/index.js";
import { milliValue, quantityString, quote, x509KeyPairError } from "../../go/index.js";
import { isDNS1123Label } from "../../names/index.js";
import { child, type FieldPath, formatPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { volumeProjectionMembers } from "../registry.js";
import { apimachineryIPWarnings } from "../releases.js";
import { intAt, isSet, listAt, objectAt, objectItems, optionalIntAt, stringAt, warningAt } from "./common.js";
import { secretBytes } from "./core.js";
import { unrecognizedFormatWarnings } from "./crd-warnings.js";
import {
  endpointSliceWarnings,
  endpointsWarnings,
  formWarningsAt,
  networkPolicyWarnings,
  nodeWarnings,
} from "./network-warnings.js";
import { deprecatedNodeLabels, nodeSelectorTermWarnings, wholeWarning } from "./node-labels.js";
import {
  appArmorContainerAnnotation,
  appArmorProfileOf,
  seccompContainerAnnotation,
  seccompPodAnnotation,
} from "./pod-annotations.js";
import { quantityOf } from "./quantity.js";
import {
  csiStorageCapacityWarnings,
  droppedVolumePluginWarnings,
  persistentVolumeWarnings,
  storageClassWarnings,
} from "./storage-warnings.js";

/** Annotations that once configured a pod and no longer do, and what replaced them. */
const deprecatedAnnotations: ReadonlyMap<string, string> = new Map([
  ["scheduler.alpha.kubernetes.io/critical-pod", 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ["security.alpha.kubernetes.io/sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'],
  ["security.alpha.kubernetes.io/unsafe-sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'],
]);

/**
 * gitRepo: the GitRepoVolumeDriver gate is off by default from 1.33 (KEP-5040, kubernetes#129923; locked off in
 * 1.36, #136400), and the warning says so.
 */
const gitRepoText = (minor: number) =>
  minor >= 33 ? "deprecated in v1.11, and disabled by default in v1.33+" : "deprecated in v1.11";

/** Where each kind that carries a pod holds it: the Pod itself, or its template. */
const podAt: Readonly<Record<string, FieldPath>> = {
  "v1/Pod": [],
  "v1/PodTemplate": ["template"],
  "v1/ReplicationController": ["spec", "template"],
  "apps/v1/Deployment": ["spec", "template"],
  "apps/v1/ReplicaSet": ["spec", "template"],
  "apps/v1/DaemonSet": ["spec", "template"],
  "apps/v1/StatefulSet": ["spec", "template"],
  "batch/v1/Job": ["spec", "template"],
  "batch/v1/CronJob": ["spec", "jobTemplate", "spec", "template"],
};

/**
 * The kinds whose name becomes a pod's hostname or the start of its pods' names, and how their strategy's
 * WarningsOnCreate says so when the name is no DNS label.
 */
const namesPods: Readonly<Record<string, string>> = {
  "v1/Pod": "the Pod's hostname",
  "v1/ReplicationController": "Pod names and hostnames",
  "apps/v1/Deployment": "Pod names and hostnames",
  "apps/v1/ReplicaSet": "Pod names and hostnames",
  "batch/v1/Job": "Pod names and hostnames",
  "batch/v1/CronJob": "Pod names and hostnames",
};

/** A kind's own warnings, beside its name's and its pod's. */
type KindWarnings = (object: JsonObject, minor: number) => Finding[];

const kindWarnings: Readonly<Record<string, KindWarnings>> = {
  "v1/Service": serviceWarnings,
  "v1/PersistentVolumeClaim": claimWarnings,
  "networking.k8s.io/v1/Ingress": ingressWarnings,
  "networking.k8s.io/v1/NetworkPolicy": networkPolicyWarnings,
  "v1/Endpoints": endpointsWarnings,
  "discovery.k8s.io/v1/EndpointSlice": endpointSliceWarnings,
  "v1/Node": nodeWarnings,
  "node.k8s.io/v1/RuntimeClass": runtimeClassWarnings,
  "batch/v1/Job": (object) => jobSpecWarnings(objectAt(object, "spec"), ["spec"]),
  "batch/v1/CronJob": (object) =>
    jobSpecWarnings(objectAt(objectAt(objectAt(object, "spec"), "jobTemplate"), "spec"), [
      "spec",
      "jobTemplate",
      "spec",
    ]),
  "v1/ServiceAccount": serviceAccountWarnings,
  "v1/Secret": secretWarnings,
  "v1/PersistentVolume": persistentVolumeWarnings,
  "storage.k8s.io/v1/StorageClass": storageClassWarnings,
  "storage.k8s.io/v1/CSIStorageCapacity": csiStorageCapacityWarnings,
  "apiextensions.k8s.io/v1/CustomResourceDefinition": unrecognizedFormatWarnings,
};

/** A kind's own warnings that its strategy gives after its pod template's. */
const kindWarningsAfterPod: Readonly<Record<string, KindWarnings>> = {
  "apps/v1/StatefulSet": statefulSetWarnings,
};

/**
 * The warnings the API server sends with a built-in object it accepts (each kind strategy's
 * WarningsOnCreate), as release `minor` (36 for 1.36) words them: its name's, its own, its pod's.
 */
export function warningsFor(apiVersion: string, kind: string, object: JsonObject, minor: number): Finding[] {
  const key = `${apiVersion}/${kind}`;
  // PrepareForCreate's, before WarningsOnCreate's
  const out: Finding[] = key === "v1/Pod" ? podAppArmorWarnings(object) : [];
  const usedIn = Object.hasOwn(namesPods, key) ? namesPods[key] : undefined;
  const name = stringAt(objectAt(object, "metadata"), "name");
  const notLabel = usedIn === undefined || !name ? [] : isDNS1123Label(name);
  if (notLabel.length > 0)
    out.push(
      warningAt(
        ["metadata", "name"],
        `this is used in ${usedIn}, which can result in surprising behavior; a DNS label is recommended: [${notLabel.join(" ")}]`,
      ),
    );
  const own = Object.hasOwn(kindWarnings, key) ? kindWarnings[key] : undefined;
  if (own !== undefined) out.push(...own(object, minor));
  const at = Object.hasOwn(podAt, key) ? podAt[key] : undefined;
  if (at !== undefined) out.push(...podWarnings(at.length === 0 ? object : valueAt(object, at), at, minor));
  const after = Object.hasOwn(kindWarningsAfterPod, key) ? kindWarningsAfterPod[key] : undefined;
  if (after !== undefined) out.push(...after(object, minor));
  return out;
}

/** The Ingress strategy's (pkg/registry/networking/ingress/strategy.go): the class annotation spec.ingressClassName replaced. */
function ingressWarnings(object: JsonObject): Finding[] {
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const annotation = "kubernetes.io/ingress.class";
  // only while spec.ingressClassName is unset: validation refuses the two when they differ
  if (annotations === undefined || !Object.hasOwn(annotations, annotation)) return [];
  if (isSet(objectAt(object, "spec"), "ingressClassName")) return [];
  return [
    wholeWarning(
      ["metadata", "annotations", { key: annotation }],
      `annotation ${quote(annotation)} is deprecated, please use 'spec.ingressClassName' instead`,
    ),
  ];
}

/** pkg/api/node/util.go GetWarningsForRuntimeClass: the message names the selector, not the label. */
function runtimeClassWarnings(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  for (const label of Object.keys(objectAt(objectAt(object, "scheduling"), "nodeSelector") ?? {})) {
    const text = deprecatedNodeLabels.get(label);
    if (text !== undefined) out.push(warningAt(["scheduling", "nodeSelector"], text));
  }
  return out;
}

function valueAt(object: JsonObject, path: FieldPath): JsonObject | undefined {
  let cur: JsonObject | undefined = object;
  for (const seg of path) cur = typeof seg === "string" ? objectAt(cur, seg) : undefined;
  return cur;
}

/**
 * pkg/api/job/warnings.go WarningsForJobSpec, but for the template's (podWarnings): an Indexed Job too large for
 * its controller to track failed indexes. Parallelism defaults to 1.
 */
function jobSpecWarnings(spec: JsonObject | undefined, at: FieldPath): Finding[] {
  if (stringAt(spec, "completionMode") !== "Indexed") return [];
  const completions = optionalIntAt(spec, "completions") ?? 0;
  const parallelism = optionalIntAt(spec, "parallelism") ?? 1;
  if (completions <= 100_000 || parallelism <= 10_000) return [];
  return [
    warningAt(
      at,
      "In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail",
    ),
  ];
}

/** GetWarningsForPersistentVolumeClaim: the beta storage class annotation, and the spec's quantities. */
function claimWarnings(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const beta = "volume.beta.kubernetes.io/storage-class";
  if (annotations !== undefined && Object.hasOwn(annotations, beta))
    out.push(
      warningAt(
        ["metadata", "annotations", { key: beta }],
        'deprecated since v1.8; use "storageClassName" attribute instead',
      ),
    );
  out.push(...claimSpecWarnings(objectAt(object, "spec"), ["spec"]));
  return out;
}

/**
 * pkg/registry/apps/statefulset/strategy.go WarningsOnCreate, after its template's: each claim template's
 * quantities (at `spec.volumeClaimTemplates[i]`, without `.spec`, as Go builds the path), then from 1.33 a
 * negative revisionHistoryLimit (kubernetes#129017).
 */
function statefulSetWarnings(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  const out = objectItems(spec, "volumeClaimTemplates").flatMap(([i, claim]) =>
    claimSpecWarnings(objectAt(claim, "spec"), ["spec", "volumeClaimTemplates", i]),
  );
  const limit = optionalIntAt(spec, "revisionHistoryLimit");
  if (minor >= 33 && limit !== undefined && limit < 0)
    out.push(
      warningAt(
        ["spec", "revisionHistoryLimit"],
        "a negative value retains all historical revisions; a value >= 0 is recommended",
      ),
    );
  return out;
}

/**
 * pkg/registry/core/secret/strategy.go warningsForSecret (kubernetes#113581): a TLS Secret whose certificate
 * and key Go's tls.X509KeyPair does not load, in its words and with no field path (placed at `data`). Both
 * keys are required; without one the validation says so and this has nothing to add.
 */
function secretWarnings(object: JsonObject): Finding[] {
  if (stringAt(object, "type") !== "kubernetes.io/tls") return [];
  const cert = secretBytes(object, "tls.crt");
  const key = secretBytes(object, "tls.key");
  if (cert === undefined || key === undefined) return [];
  const error = x509KeyPairError(cert, key);
  return error === undefined ? [] : [wholeWarning(["data"], error)];
}

/**
 * pkg/registry/core/serviceaccount/strategy.go (kubernetes#128396, 1.32): the annotation that made pods
 * mount only the secrets the ServiceAccount lists, whatever its value.
 */
function serviceAccountWarnings(object: JsonObject): Finding[] {
  const key = "kubernetes.io/enforce-mountable-secrets";
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  if (annotations === undefined || !Object.hasOwn(annotations, key)) return [];
  return [
    warningAt(
      ["metadata", "annotations", { key }],
      "deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets",
    ),
  ];
}

/**
 * pkg/registry/core/pod/strategy.go applyAppArmorVersionSkew, on creating a Pod (kubernetes#123789, 1.30):
 * the API server turns a container's AppArmor annotation into its field, and warns, before any other
 * warning, when the annotation names no valid profile or one other than the pod's. Windows pods are left
 * alone; a container with a profile of its own keeps it.
 */
function podAppArmorWarnings(pod: JsonObject): Finding[] {
  const spec = objectAt(pod, "spec");
  if (spec === undefined || stringAt(objectAt(spec, "os"), "name") === "windows") return [];
  const annotations = objectAt(objectAt(pod, "metadata"), "annotations") ?? {};
  const podProfile = objectAt(objectAt(spec, "securityContext"), "appArmorProfile");
  const out: Finding[] = [];
  for (const [ctr] of containersOf(spec, ["spec"])) {
    const key = appArmorContainerAnnotation + (stringAt(ctr, "name") ?? "");
    const annotation = getKey(annotations, key);
    if (annotation === undefined || isSet(objectAt(ctr, "securityContext"), "appArmorProfile")) continue;
    const profile = typeof annotation === "string" ? appArmorProfileOf(annotation) : undefined;
    if (profile !== undefined && sameProfile(profile, podProfile)) continue;
    out.push(
      warningAt(
        ["metadata", "annotations", { key }],
        'deprecated since v1.30; use the "appArmorProfile" field instead',
      ),
    );
  }
  return out;
}

/** apiequality.Semantic.DeepEqual of the profile an annotation names and the pod's field. */
function sameProfile(profile: { type: string; localhostProfile?: string }, field: JsonObject | undefined): boolean {
  if (field === undefined) return false;
  const keys = Object.keys(field).filter((k) => getKey(field, k) !== null);
  return (
    stringAt(field, "type") === profile.type &&
    getKey(field, "localhostProfile") === profile.localhostProfile &&
    keys.every((k) => k === "type" || k === "localhostProfile")
  );
}

/**
 * The warnings for a Pod (`at` is `[]`) or a pod template at `at`
 * (`spec.template`, `template`, `spec.jobTemplate.spec.template`): `object`
 * holds the `metadata` and `spec` they are about.
 */
function podWarnings(object: JsonObject | undefined, at: FieldPath, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  if (spec === undefined) return [];
  const specAt = child(at, "spec");
  const annotations = objectAt(objectAt(object, "metadata"), "annotations") ?? {};
  const annotationAt = (key: string) => child(at, "metadata", "annotations", { key });
  const out: Finding[] = [];

  // deprecated node labels in the node selector, node affinity and topology spread
  for (const key of Object.keys(objectAt(spec, "nodeSelector") ?? {})) {
    const text = deprecatedNodeLabels.get(key);
    if (text !== undefined) out.push(warningAt(child(specAt, "nodeSelector", { key }), text));
  }
  const nodeAffinity = objectAt(objectAt(spec, "affinity"), "nodeAffinity");
  const requiredAt = child(specAt, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution");
  for (const [i, term] of objectItems(
    objectAt(nodeAffinity, "requiredDuringSchedulingIgnoredDuringExecution"),
    "nodeSelectorTerms",
  ))
    out.push(...nodeSelectorTermWarnings(term, child(requiredAt, "nodeSelectorTerms", i)));
  const preferredAt = child(specAt, "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution");
  for (const [i, term] of objectItems(nodeAffinity, "preferredDuringSchedulingIgnoredDuringExecution"))
    out.push(...nodeSelectorTermWarnings(objectAt(term, "preference"), child(preferredAt, i, "preference")));
  for (const [i, constraint] of objectItems(spec, "topologySpreadConstraints")) {
    const constraintAt = child(specAt, "topologySpreadConstraints", i);
    const key = stringAt(constraint, "topologyKey") ?? "";
    const text = deprecatedNodeLabels.get(key);
    if (text !== undefined) out.push(warningAt(child(constraintAt, "topologyKey"), `${key} is ${text}`));
    if (!isSet(constraint, "labelSelector")) out.push(nullSelector(child(constraintAt, "labelSelector")));
  }

  for (const [key, text] of deprecatedAnnotations)
    if (Object.hasOwn(annotations, key)) out.push(warningAt(annotationAt(key), text));

  // deprecated and removed volume plugins, and a generic ephemeral volume's claim
  for (const [i, volume] of objectItems(spec, "volumes")) {
    const volumeAt = child(specAt, "volumes", i);
    // in Go's order: gitRepo second, cephfs and rbd after a generic ephemeral volume's claim
    out.push(...droppedVolumePluginWarnings(volume, volumeAt, ["photonPersistentDisk"]));
    if (isSet(volume, "gitRepo")) out.push(warningAt(child(volumeAt, "gitRepo"), gitRepoText(minor)));
    out.push(
      ...droppedVolumePluginWarnings(volume, volumeAt, ["scaleIO", "flocker", "storageos", "quobyte", "glusterfs"]),
    );
    const claim = objectAt(objectAt(volume, "ephemeral"), "volumeClaimTemplate");
    if (claim !== undefined)
      out.push(
        ...claimSpecWarnings(objectAt(claim, "spec"), child(volumeAt, "ephemeral", "volumeClaimTemplate", "spec")),
      );
    out.push(...droppedVolumePluginWarnings(volume, volumeAt, ["cephfs", "rbd"]));
  }
  out.push(...(minor >= 33 ? overlappingVolumePaths : overlappingVolumePathsBefore133)(spec, at));

  out.push(...duplicateWarnings(spec, specAt, "hostAliases", "ip", "duplicate ip"));
  out.push(...duplicateWarnings(spec, specAt, "imagePullSecrets", "name", "duplicate name"));
  for (const [i, secret] of objectItems(spec, "imagePullSecrets"))
    if (stringAt(secret, "name") === "")
      out.push(warningAt(child(specAt, "imagePullSecrets", i, "name"), `invalid empty name ${quote("")}`));

  out.push(...fractionalBytes(objectAt(spec, "overhead"), child(specAt, "overhead"), ["memory", "ephemeral-storage"]));

  const podSecurity = objectAt(spec, "securityContext");
  if (!isSet(podSecurity, "seccompProfile") && Object.hasOwn(annotations, seccompPodAnnotation))
    out.push(
      warningAt(annotationAt(seccompPodAnnotation), 'non-functional in v1.27+; use the "seccompProfile" field instead'),
    );
  const podAppArmor = isSet(podSecurity, "appArmorProfile");
  for (const [ctr, ctrAt] of containersOf(spec, specAt)) {
    const name = stringAt(ctr, "name") ?? "";
    const security = objectAt(ctr, "securityContext");
    const seccompKey = seccompContainerAnnotation + name;
    if (!isSet(security, "seccompProfile") && Object.hasOwn(annotations, seccompKey))
      out.push(warningAt(annotationAt(seccompKey), 'non-functional in v1.27+; use the "seccompProfile" field instead'));
    // A Pod's AppArmor annotations become its fields on create (applyAppArmorVersionSkew), a template's do not.
    const appArmorKey = appArmorContainerAnnotation + name;
    if (at.length > 0 && !podAppArmor && !isSet(security, "appArmorProfile") && Object.hasOwn(annotations, appArmorKey))
      out.push(warningAt(annotationAt(appArmorKey), 'deprecated since v1.30; use the "appArmorProfile" field instead'));
    const resources = objectAt(ctr, "resources");
    for (const kind of ["limits", "requests"])
      out.push(
        ...fractionalBytes(objectAt(resources, kind), child(ctrAt, "resources", kind), ["memory", "ephemeral-storage"]),
      );
    out.push(...envWarnings(ctr, ctrAt));
  }

  out.push(...portWarnings(spec, specAt));
  if (minor >= 33) out.push(...portNameWarnings(spec, specAt));
  const grace = optionalIntAt(spec, "terminationGracePeriodSeconds");
  if (grace !== undefined && grace < 0)
    out.push(
      warningAt(
        child(specAt, "terminationGracePeriodSeconds"),
        "must be >= 0; negative values are invalid and will be treated as 1",
      ),
    );

  const affinity = objectAt(spec, "affinity");
  for (const kind of ["podAffinity", "podAntiAffinity"]) {
    const terms = objectAt(affinity, kind);
    if (terms === undefined) continue;
    const requiredTerms = child(specAt, "affinity", kind, "requiredDuringSchedulingIgnoredDuringExecution");
    for (const [i, term] of objectItems(terms, "requiredDuringSchedulingIgnoredDuringExecution"))
      if (!isSet(term, "labelSelector")) out.push(nullSelector(child(requiredTerms, i, "labelSelector")));
    const preferredTerms = child(specAt, "affinity", kind, "preferredDuringSchedulingIgnoredDuringExecution");
    for (const [i, term] of objectItems(terms, "preferredDuringSchedulingIgnoredDuringExecution"))
      if (!isSet(objectAt(term, "podAffinityTerm"), "labelSelector"))
        out.push(nullSelector(child(preferredTerms, i, "podAffinityTerm", "labelSelector")));
  }
  out.push(...podAddressWarnings(spec, specAt, minor));
  return out;
}

/**
 * From 1.33 (kubernetes#122170): a port name used again in the pod, init containers, containers and
 * ephemeral containers in that order (pods.VisitContainersWithPath), each named against the first.
 */
function portNameWarnings(spec: JsonObject, specAt: FieldPath): Finding[] {
  const out: Finding[] = [];
  const first = new Map<string, FieldPath>();
  for (const [ctr, ctrAt] of containersOf(spec, specAt))
    for (const [j, port] of objectItems(ctr, "ports")) {
      const name = stringAt(port, "name");
      if (!name) continue;
      const at = child(ctrAt, "ports", j);
      const other = first.get(name);
      if (other === undefined) first.set(name, at);
      else
        out.push(
          warningAt(
            at,
            `duplicate port name ${quote(name)} with ${formatPath(other)}, services and probes that select ports by name will use ${formatPath(other)}`,
            "FieldValueDuplicate",
          ),
        );
    }
  return out;
}

/**
 * From 1.33 (kubernetes#128786, KEP-4858): the forms of the DNS nameservers and host alias addresses, in
 * apimachinery's words (GetWarningsForIP); from 1.36 only what the strict validation leaves (network-warnings.ts).
 * Where Go gives them among the pod's other warnings is not pinned down here: they come last.
 */
function podAddressWarnings(spec: JsonObject, specAt: FieldPath, minor: number): Finding[] {
  if (!apimachineryIPWarnings(minor)) return [];
  return [
    ...listAt(objectAt(spec, "dnsConfig"), "nameservers").flatMap((ns, i) =>
      formWarningsAt(child(specAt, "dnsConfig", "nameservers", i), ns, false, minor),
    ),
    ...objectItems(spec, "hostAliases").flatMap(([i, alias]) =>
      formWarningsAt(child(specAt, "hostAliases", i, "ip"), getKey(alias, "ip"), false, minor),
    ),
  ];
}

/** GetWarningsForPersistentVolumeClaimSpec: a storage request or limit that is not a whole number of bytes. */
function claimSpecWarnings(spec: JsonObject | undefined, at: FieldPath): Finding[] {
  const resources = objectAt(spec, "resources");
  return ["requests", "limits"].flatMap((kind) =>
    fractionalBytes(objectAt(resources, kind), child(at, "resources", kind), ["storage"]),
  );
}

const nullSelector = (at: FieldPath) => warningAt(at, "a null labelSelector results in matching no pod");

/** Items of a list whose `field` repeats an earlier item's: the API server keeps both and warns. */
function duplicateWarnings(spec: JsonObject, specAt: FieldPath, list: string, field: string, text: string): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const items = listAt(spec, list);
  if (items.length < 2) return out;
  for (const [i, item] of objectItems(spec, list)) {
    const value = stringAt(item, field);
    if (value === undefined) continue;
    if (seen.has(value))
      out.push(warningAt(child(specAt, list, i, field), `${text} ${quote(value)}`, "FieldValueDuplicate"));
    else seen.add(value);
  }
  return out;
}

/** Memory, ephemeral storage or storage quantities that are not a whole number of bytes (`MilliValue() % 1000 != 0`). */
function fractionalBytes(map: JsonObject | undefined, at: FieldPath, names: readonly string[]): Finding[] {
  const out: Finding[] = [];
  for (const name of names) {
    const q = quantityOf(map === undefined ? undefined : getKey(map, name));
    if (q !== undefined && milliValue(q) % 1000n !== 0n)
      out.push(
        warningAt(
          child(at, { key: name }),
          `fractional byte value ${quote(quantityString(q))} is invalid, must be an integer`,
        ),
      );
  }
  return out;
}

/** pods.VisitContainersWithPath: init containers, containers, then ephemeral containers, with their paths. */
function containersOf(spec: JsonObject, specAt: FieldPath): [JsonObject, FieldPath][] {
  const out: [JsonObject, FieldPath][] = [];
  for (const list of ["initContainers", "containers", "ephemeralContainers"])
    for (const [i, ctr] of objectItems(spec, list)) out.push([ctr, child(specAt, list, i)]);
  return out;
}

/**
 * A variable defined twice in one container: the later wins in the container, but a server-side apply
 * merges the list by name and may drop one. Fine only when the later definition builds on the earlier
 * (`X=$(X):more`).
 */
function envWarnings(ctr: JsonObject, ctrAt: FieldPath): Finding[] {
  const out: Finding[] = [];
  const env = objectItems(ctr, "env");
  if (listAt(ctr, "env").length < 2) return out;
  const seen = new Set<string>();
  for (const [i, item] of env) {
    const name = stringAt(item, "name") ?? "";
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    const value = stringAt(item, "value") ?? "";
    const ref = `$(${name})`;
    if (isSet(item, "valueFrom") || value === ref || !value.includes(ref))
      out.push(
        warningAt(
          child(ctrAt, "env", i),
          `hides previous definition of ${quote(name)}, which may be dropped when using apply`,
        ),
      );
  }
  return out;
}

interface PortSeen {
  path: FieldPath;
  hostIP: string;
  hostPort: number;
}

/**
 * Ports of all containers with the same container port and protocol, and a host IP without a host port.
 * The API server accepts them and warns.
 */
function portWarnings(spec: JsonObject, specAt: FieldPath): Finding[] {
  const out: Finding[] = [];
  const seen = new Map<string, PortSeen[]>();
  for (const [ctr, ctrAt] of containersOf(spec, specAt)) {
    for (const [j, port] of objectItems(ctr, "ports")) {
      const containerPort = intAt(port, "containerPort");
      const hostPort = intAt(port, "hostPort");
      const hostIP = stringAt(port, "hostIP");
      const name = stringAt(port, "name");
      const protocol = stringAt(port, "protocol") || "TCP";
      if (containerPort === undefined || hostPort === undefined || hostIP === undefined || name === undefined) continue;
      const at = child(ctrAt, "ports", j);
      // fmt's %+v of the ContainerPort, defaulted as the server holds it
      if (hostIP !== "" && hostPort === 0)
        out.push(
          warningAt(
            at,
            `hostIP set without hostPort: {Name:${name} HostPort:${hostPort} ContainerPort:${containerPort} Protocol:${protocol} HostIP:${hostIP}}`,
          ),
        );
      const key = `${containerPort}/${protocol}`;
      const others = seen.get(key) ?? [];
      for (const other of others) {
        const text = portClash({ path: at, hostIP, hostPort }, other);
        if (text !== undefined)
          out.push(warningAt(at, `${text} with ${formatPath(other.path)}`, "FieldValueDuplicate"));
      }
      seen.set(key, [...others, { path: at, hostIP, hostPort }]);
    }
  }
  return out;
}

function portClash(a: PortSeen, b: PortSeen): string | undefined {
  if (a.hostIP === b.hostIP && a.hostPort === b.hostPort) return "duplicate port definition";
  if (a.hostPort === 0 || b.hostPort === 0) return "overlapping port definition";
  if (a.hostPort === b.hostPort && (a.hostIP === "") !== (b.hostIP === ""))
    return "dangerously ambiguous port definition";
  return undefined;
}

/** A source that maps keys to paths: its field, how the warning names it, and the field of its name. */
type ItemSource = readonly [field: string, what: string, named: string | undefined];
/** A volume's, in Go's order (a Secret volume is named by secretName). */
const itemSources: readonly ItemSource[] = [
  ["configMap", "ConfigMap", "name"],
  ["secret", "Secret", "secretName"],
  ["downwardAPI", "DownwardAPI", undefined],
];
/** A projection's. */
const projectedItemSources: readonly ItemSource[] = [
  ["configMap", "ConfigMap", "name"],
  ["secret", "Secret", "name"],
  ["downwardAPI", "DownwardAPI", undefined],
];
const labelOf = (source: JsonObject, [, what, named]: ItemSource) =>
  named === undefined ? what : `${what} ${quote(stringAt(source, named) ?? "")}`;

/** The `path` of each item of a projection's or a volume's `items`. */
const itemPaths = (source: JsonObject): string[] =>
  objectItems(source, "items").map(([, item]) => stringAt(item, "path") ?? "");

/**
 * warningsForOverlappingVirtualPaths as 1.32 words it: keys of one ConfigMap, Secret, downward API or
 * projected volume written to the same file, or to a file and a directory around it. These warnings carry
 * no field path: they name the volume. A projected volume's sources are checked one by one and against the
 * paths of the sources before; as in Go, a source that adds no paths is checked again with the previous
 * source's. From 1.33 (overlappingVolumePaths) each path names its source.
 */
function overlappingVolumePathsBefore133(spec: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const warn = (volumeAt: FieldPath, texts: string[]) => {
    for (const text of texts) out.push(wholeWarning(volumeAt, text));
  };
  for (const [i, volume] of objectItems(spec, "volumes")) {
    const volumeAt = child(at, "spec", "volumes", i);
    const name = quote(stringAt(volume, "name") ?? "");
    for (const kind of itemSources) {
      const source = objectAt(volume, kind[0]);
      if (source === undefined || !isSet(source, "items")) continue;
      warn(volumeAt, overlaps(itemPaths(source), `volume ${name} (${labelOf(source, kind)}): overlapping paths`));
    }
    const projected = objectAt(volume, "projected");
    if (projected === undefined) continue;
    let paths: string[] = [];
    let message = "";
    const all = new Set<string>();
    // a source that is no object never decodes: the schema says so
    for (const [, source] of objectItems(projected, "sources")) {
      const found = projectionPaths(source);
      if (found === "empty") {
        warn(volumeAt, [`volume ${name} (Projected) has no sources provided`]);
        continue;
      }
      if (found !== undefined) {
        paths = found.paths;
        message = `volume ${name} (Projected ${found.source}): overlapping paths`;
      }
      if (paths.length === 0) continue;
      warn(volumeAt, overlaps(paths, message));
      const unique = [...new Set(paths)];
      warn(volumeAt, overlaps([...unique, ...all].sort(byBytes), message));
      for (const p of unique) all.add(p);
    }
  }
  return out;
}

/** A path an item writes, trailing slashes cut, and the source that writes it ("" in a volume of one source). */
interface SourcePath {
  path: string;
  source: string;
}
const showSourcePath = ({ path, source }: SourcePath) => (source === "" ? quote(path) : `${quote(path)} (${source})`);

/**
 * checkForOverlap from 1.33: the paths before `p` it collides with, all of them: the same path, or one a
 * directory of the other. An empty path collides with nothing.
 */
const collisions = (before: readonly SourcePath[], p: SourcePath): SourcePath[] =>
  p.path === ""
    ? []
    : before.filter(
        (item) =>
          item.path !== "" && (`${item.path}/`.startsWith(`${p.path}/`) || `${p.path}/`.startsWith(`${item.path}/`)),
      );

/**
 * warningsForOverlappingVirtualPaths as 1.33 rewrote it (kubernetes#121968, reworked to track path and
 * source together): each path against every path before it in the volume, one warning per collision,
 * `<path> with <earlier path>`; in a projected volume each names its source (`"a" (Secret "s")`). As in Go,
 * a source that adds no paths is checked again with the previous source's.
 */
function overlappingVolumePaths(spec: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  /** `paths` added to `before`, each checked against those before it. */
  const addChecked = (before: SourcePath[], paths: readonly SourcePath[], warn: (body: string) => void) => {
    for (const p of paths) {
      const trimmed = { path: p.path.replace(/\/+$/, ""), source: p.source };
      for (const c of collisions(before, trimmed)) warn(`${showSourcePath(trimmed)} with ${showSourcePath(c)}`);
      before.push(trimmed);
    }
  };
  const pathsOf = (source: JsonObject, named: string): SourcePath[] =>
    itemPaths(source).map((path) => ({ path, source: named }));
  for (const [i, volume] of objectItems(spec, "volumes")) {
    const volumeAt = child(at, "spec", "volumes", i);
    const name = quote(stringAt(volume, "name") ?? "");
    const warnAs = (what: string) => (body: string) =>
      out.push(wholeWarning(volumeAt, `volume ${name} (${what}): overlapping paths: ${body}`));
    for (const kind of itemSources) {
      const source = objectAt(volume, kind[0]);
      if (source === undefined || !isSet(source, "items")) continue;
      addChecked([], pathsOf(source, ""), warnAs(labelOf(source, kind)));
    }
    const projected = objectAt(volume, "projected");
    if (projected === undefined) continue;
    let paths: SourcePath[] = [];
    // every path of the volume's sources so far
    const all: SourcePath[] = [];
    // a source that is no object never decodes: the schema says so
    for (const [, source] of objectItems(projected, "sources")) {
      const found = projectionPaths(source);
      if (found === "empty") {
        out.push(wholeWarning(volumeAt, `volume ${name} (Projected) has no sources provided`));
        continue;
      }
      if (found !== undefined) paths = found.paths.map((path) => ({ path, source: found.source }));
      addChecked(all, paths, warnAs("Projected"));
    }
  }
  return out;
}

/**
 * The paths a projected volume's source writes and how the warnings name it (`ConfigMap "c"`,
 * `ServiceAccountToken`, `ClusterTrustBundle "b"`); "empty" for a VolumeProjection with none of its members
 * set; undefined for one that maps no paths, whose warnings Go gives with the previous source's paths.
 */
function projectionPaths(source: JsonObject): { paths: string[]; source: string } | "empty" | undefined {
  if (!volumeProjectionMembers.some((kind) => isSet(source, kind))) return "empty";
  const listed = projectedItemSources.find(([field]) => isSet(objectAt(source, field), "items"));
  if (listed !== undefined) {
    const from = objectAt(source, listed[0]) as JsonObject;
    return { paths: itemPaths(from), source: labelOf(from, listed) };
  }
  const token = objectAt(source, "serviceAccountToken");
  if (token !== undefined) return { paths: [stringAt(token, "path") ?? ""], source: "ServiceAccountToken" };
  const bundle = objectAt(source, "clusterTrustBundle");
  if (bundle === undefined) return undefined;
  const named = isSet(bundle, "name") ? stringAt(bundle, "name") : stringAt(bundle, "signerName");
  return { paths: [stringAt(bundle, "path") ?? ""], source: `ClusterTrustBundle ${quote(named ?? "")}` };
}

/** Go's sort.Strings order (bytes of UTF-8), which for these paths is code point order. */
const byBytes = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
};

/** checkVolumeMappingForOverlap: each path, trailing slashes cut, against the ones before it. */
function overlaps(paths: readonly string[], message: string): string[] {
  const out: string[] = [];
  const unique = new Set<string>();
  for (const path of paths) {
    const normalized = path.replace(/\/+$/, "");
    const collision = overlapWith(unique, normalized);
    if (collision !== "") out.push(`${message}: ${quote(normalized)} with ${quote(collision)}`);
    unique.add(normalized);
  }
  return out;
}

/**
 * checkForOverlap, comparisons and all: `item + "/"` starting with `path` also matches `app` against
 * `application`, as in Go; an empty path ends the search with no collision.
 */
function overlapWith(paths: ReadonlySet<string>, path: string): string {
  for (const item of paths) {
    if (item === "" || path === "") return "";
    if (item === path || `${item}/`.startsWith(path) || `${path}/`.startsWith(item)) return item;
  }
  return "";
}

/**
 * pkg/api/service/warnings.go GetWarningsForService, by release: the headless Service's ignored fields
 * from 1.34 (kubernetes#132214; its session affinity one as fixed by #134054), PreferClose from 1.35
 * (#134457), externalIPs deprecated in 1.36 (KEP-5707); the IP fields' forms in apimachinery's words from
 * 1.33 (GetWarningsForIP, GetWarningsForCIDR: kubernetes#128786), in the Service's own before.
 */
function serviceWarnings(object: JsonObject, minor: number): Finding[] {
  const out: Finding[] = [];
  const ipForm = (at: FieldPath, value: JsonValue | undefined, prefix: boolean) => {
    out.push(...formWarningsAt(at, value, prefix, minor));
  };
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const hints = "service.kubernetes.io/topology-aware-hints";
  if (annotations !== undefined && Object.hasOwn(annotations, hints))
    out.push(
      wholeWarning(
        ["metadata", "annotations", { key: hints }],
        `annotation ${hints} is deprecated, please use service.kubernetes.io/topology-mode instead`,
      ),
    );
  const spec = objectAt(object, "spec");
  if (spec === undefined) return out;
  // as defaulted: type ClusterIP, sessionAffinity None; a lone clusterIP copied into clusterIPs
  const type = stringAt(spec, "type") || "ClusterIP";
  const clusterIP = stringAt(spec, "clusterIP");
  const headless = type === "ClusterIP" && clusterIP === "None";
  const externalIPs = listAt(spec, "externalIPs").length > 0;
  if (clusterIP && clusterIP !== "None") {
    const ips = listAt(spec, "clusterIPs");
    for (const [i, ip] of (ips.length > 0 ? ips : [clusterIP]).entries()) ipForm(["spec", "clusterIPs", i], ip, false);
  }
  if (headless && minor >= 34) {
    if (stringAt(spec, "loadBalancerIP"))
      out.push(wholeWarning(["spec", "loadBalancerIP"], "spec.loadBalancerIP is ignored for headless services"));
    if (externalIPs)
      out.push(wholeWarning(["spec", "externalIPs"], "spec.externalIPs is ignored for headless services"));
    if ((stringAt(spec, "sessionAffinity") || "None") !== "None")
      out.push(wholeWarning(["spec", "sessionAffinity"], "spec.SessionAffinity is ignored for headless services"));
  }
  for (const [i, ip] of listAt(spec, "externalIPs").entries()) ipForm(["spec", "externalIPs", i], ip, false);
  if (externalIPs && !headless && type !== "ExternalName" && minor >= 36)
    out.push(
      wholeWarning(
        ["spec", "externalIPs"],
        "spec.externalIPs is deprecated and may no longer be implemented in some clusters",
      ),
    );
  if (stringAt(spec, "loadBalancerIP")) ipForm(["spec", "loadBalancerIP"], getKey(spec, "loadBalancerIP"), false);
  for (const [i, range] of listAt(spec, "loadBalancerSourceRanges").entries())
    ipForm(["spec", "loadBalancerSourceRanges", i], range, true);
  if (type === "ExternalName" && externalIPs)
    out.push(
      wholeWarning(["spec", "externalIPs"], `spec.externalIPs is ignored when spec.type is ${quote("ExternalName")}`),
    );
  if (type !== "ExternalName" && stringAt(spec, "externalName"))
    out.push(
      wholeWarning(
        ["spec", "externalName"],
        `spec.externalName is ignored when spec.type is not ${quote("ExternalName")}`,
      ),
    );
  if (stringAt(spec, "trafficDistribution") === "PreferClose" && minor >= 35)
    out.push(
      warningAt(
        ["spec", "trafficDistribution"],
        `${quote("PreferClose")} is deprecated; use ${quote("PreferSameZone")}`,
      ),
    );
  return out;
}
