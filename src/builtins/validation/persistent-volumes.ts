/**
 * PersistentVolumes and PersistentVolumeClaims: a claim's spec (ValidatePersistentVolumeClaimSpec, also a
 * StatefulSet's claim templates'), a volume's access modes and enums, and its spec on
 * create, as pkg/apis/core/validation
 * ValidatePersistentVolumeSpec checks it (not inline, the options of a
 * create): `capacity` (with validateBasicResource and
 * ValidatePositiveQuantityValue), `nodeAffinity` (validateVolumeNodeAffinity
 * and ValidateNodeSelector), the hostPath mount of '/' that may not be
 * recycled, `storageClassName` and `volumeAttributesClassName` (ValidateClassName:
 * VolumeAttributesClass is GA and on since 1.34), and the volume source: the
 * first one set in ValidatePersistentVolumeSpec's order, and `flexVolume`
 * whenever it is set (Go checks it without counting the others first).
 *
 * The sources whose validator is the pod volume's (gcePersistentDisk,
 * reported at `persistentDisk`, awsElasticBlockStore, flocker, quobyte, fc,
 * vsphereVolume, photonPersistentDisk, portworxVolume, azureDisk, hostPath,
 * nfs) are checked by the pod volume's TypeScript validators, and so are
 * the PV twins that check the same (validateRBDPersistentVolumeSource,
 * validateCephFSPersistentVolumeSource, validateFlexPersistentVolumeSource,
 * validateScaleIOPersistentVolumeSource). The other twins add their own
 * rules here: validateISCSIPersistentVolumeSource,
 * validateGlusterfsPersistentVolumeSource, validateCinderPersistentVolumeSource,
 * validateAzureFilePV, validateStorageOSPersistentVolumeSource,
 * validateCSIPersistentVolumeSource (with validatePVSecretReference) and
 * validateLocalVolumeSource.
 *
 * Left to others: the one-of rules "must specify a volume type" and "may not
 * specify more than 1 volume type" (the union registry) and the metadata, but
 * for pkg/volume/validation's mount options annotation rule (checkMountOption).
 *
 * A field the schema marks required is reported Required here only when
 * present and empty: absent, it is the schema's finding; but a claim's data
 * source's kind and name, reported here absent too (required-core.ts). Repeated messages
 * are said once by validateHandWritten (index.ts), as ErrorList.ToAggregate
 * prints them.
 */
import type { Finding } from "../../findings/index.js";
import { type Quantity, quantitySign, quantityString } from "../../go/index.js";
import {
  byteLength,
  isDNS1123Label,
  isDNS1123Subdomain,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from "../../names/index.js";
import { child, type FieldPath, formatPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject } from "../../value/index.js";
import {
  asError,
  forbidden,
  invalid,
  invalidEach,
  invalidShown,
  isSet,
  listAt,
  notSupported,
  objectAt,
  oneOf,
  required,
  requiredIfEmpty,
  stringAt,
  validateLabelSelector,
} from "./common.js";
import { legacyVolumeSourceValidators, validateISCSI } from "./legacy-volumes.js";
import { quantityOf } from "./quantity.js";
import { validateNodeSelector } from "./scheduling.js";
import {
  validateCSIDriverName,
  validateHostPathVolumeSource,
  validateNFSVolumeSource,
  validatePathNoBacksteps,
} from "./volumes.js";

const spec: FieldPath = ["spec"];

/**
 * ValidatePersistentVolumeSpec for a PersistentVolume's `spec` (paths start
 * at `spec`). `name` is the volume's name, which the iSCSI rule on the
 * length of `<name>:<targetPortal>` needs; without it the rule still finds
 * every portal too long with any name.
 */
export function validatePersistentVolumeSpec(s: JsonObject, name = ""): Finding[] {
  const out = validateCapacity(s);
  const nodeAffinitySpecified = isSet(s, "nodeAffinity");
  const affinity = objectAt(s, "nodeAffinity");
  if (affinity !== undefined) out.push(...validateVolumeNodeAffinity(affinity, child(spec, "nodeAffinity")));
  out.push(...validateSources(s, name, nodeAffinitySpecified));
  const hostPath = stringAt(objectAt(s, "hostPath"), "path");
  if (
    isSet(s, "hostPath") &&
    hostPath !== undefined &&
    cleansToRoot(hostPath) &&
    stringAt(s, "persistentVolumeReclaimPolicy") === "Recycle"
  )
    out.push(
      forbidden(
        child(spec, "persistentVolumeReclaimPolicy"),
        "may not be 'recycle' for a hostPath mount of '/'",
        asError,
      ),
    );
  const storageClass = stringAt(s, "storageClassName");
  if (storageClass)
    out.push(...invalidEach(child(spec, "storageClassName"), storageClass, nameIsDNSSubdomain(storageClass, false)));
  out.push(...validateVolumeAttributesClassName(s));
  return out;
}

// ---------------------------------------------------------------------------
// capacity

/**
 * The capacity of a volume that is not inline: some, only `storage`, each
 * quantity not below zero (validateBasicResource) and above it
 * (ValidatePositiveQuantityValue). Go prints the map with %#v; kunion as JSON
 * (null when absent).
 */
function validateCapacity(s: JsonObject): Finding[] {
  const raw = getKey(s, "capacity");
  if (raw !== undefined && raw !== null && !isObject(raw)) return []; // the schema's
  const capacity = isObject(raw) ? raw : undefined;
  const at = child(spec, "capacity");
  const entries = Object.entries(capacity ?? {});
  const out: Finding[] = [];
  if (entries.length === 0) out.push(required(at, "", asError));
  if (capacity === undefined || !Object.hasOwn(capacity, "storage") || entries.length > 1)
    out.push(notSupported(at, capacity ?? null, ["storage"], asError));
  for (const [resource, value] of entries) {
    const q = quantityOf(value);
    if (q === undefined) continue;
    const keyAt = child(at, { key: resource });
    const whole = quantityValue(q);
    if (whole < 0n) out.push(invalid(keyAt, whole, "must be a valid resource quantity", asError));
    if (quantitySign(q) <= 0) out.push(invalid(keyAt, quantityString(q), "must be greater than zero", asError));
  }
  return out;
}

/** Quantity.Value: the whole value, a fraction rounded away from zero. */
function quantityValue(q: Quantity): bigint {
  if (q.exp >= 0) return q.mantissa * 10n ** BigInt(q.exp);
  const d = 10n ** BigInt(-q.exp);
  const quotient = q.mantissa / d;
  if (quotient * d === q.mantissa) return quotient;
  return q.mantissa > 0n ? quotient + 1n : quotient - 1n;
}

// ---------------------------------------------------------------------------
// node affinity

/** validateVolumeNodeAffinity: a required node selector (label values checked strictly, as on create). */
function validateVolumeNodeAffinity(affinity: JsonObject, path: FieldPath): Finding[] {
  const at = child(path, "required");
  if (!isSet(affinity, "required")) return [required(at, "must specify required node constraints", asError)];
  const selector = objectAt(affinity, "required");
  return selector === undefined ? [] : validateNodeSelector(selector, at);
}

// ---------------------------------------------------------------------------
// the volume source

type SourceValidator = (source: JsonObject, path: FieldPath, name: string, nodeAffinitySpecified: boolean) => Finding[];

/** A pod volume's source validator (legacy-volumes.ts) at `spec.<field>`. */
const legacy =
  (field: string): SourceValidator =>
  (source, path) =>
    legacyVolumeSourceValidators[field]?.(source, path) ?? [];

/** ValidatePersistentVolumeSpec's sources, in its order. */
const sourceValidators: readonly [string, SourceValidator][] = [
  ["hostPath", validateHostPathVolumeSource],
  ["gcePersistentDisk", legacy("gcePersistentDisk")],
  ["awsElasticBlockStore", legacy("awsElasticBlockStore")],
  ["glusterfs", validateGlusterfsPersistentVolumeSource],
  ["flocker", legacy("flocker")],
  ["nfs", validateNFSVolumeSource],
  ["rbd", legacy("rbd")],
  ["quobyte", legacy("quobyte")],
  ["cephfs", legacy("cephfs")],
  ["iscsi", validateISCSIPersistentVolumeSource],
  ["cinder", validateCinderPersistentVolumeSource],
  ["fc", legacy("fc")],
  ["flexVolume", legacy("flexVolume")],
  ["azureFile", validateAzureFilePV],
  ["vsphereVolume", legacy("vsphereVolume")],
  ["photonPersistentDisk", legacy("photonPersistentDisk")],
  ["portworxVolume", legacy("portworxVolume")],
  ["azureDisk", legacy("azureDisk")],
  ["scaleIO", legacy("scaleIO")],
  ["local", validateLocalPersistentVolume],
  ["storageos", validateStorageOSPersistentVolumeSource],
  ["csi", validateCSIPersistentVolumeSource],
];

/** The first source set, and flexVolume whenever set; the others are the union's "more than 1 volume type". */
function validateSources(s: JsonObject, name: string, nodeAffinitySpecified: boolean): Finding[] {
  const out: Finding[] = [];
  let counted = 0;
  for (const [field, validate] of sourceValidators) {
    if (!isSet(s, field)) continue;
    const source = objectAt(s, field);
    if (field === "flexVolume" || counted === 0) {
      if (source !== undefined) out.push(...validate(source, child(spec, field), name, nodeAffinitySpecified));
    }
    counted++;
  }
  return out;
}

/** A SecretReference's namespace, which the PV twins require once the reference is set. */
function secretRefNamespace(source: JsonObject, path: FieldPath): Finding[] {
  const ref = objectAt(source, "secretRef");
  return ref !== undefined && stringAt(ref, "namespace") === ""
    ? [required(child(path, "secretRef", "namespace"), "", asError)]
    : [];
}

const iscsiTooLongMsg =
  "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.";

/**
 * validateISCSIPersistentVolumeSource: the pod's rules, but a name with no
 * known prefix is only "must be valid format"; a set secretRef needs a
 * name; with an initiator name, `<volume name>:<targetPortal>` is at most 64
 * bytes, reported at `targetportal` in lower case.
 */
function validateISCSIPersistentVolumeSource(source: JsonObject, path: FieldPath, name: string): Finding[] {
  const out = validateISCSI(source, path, "must be valid format");
  const portal = stringAt(source, "targetPortal") ?? "";
  if (isSet(source, "initiatorName") && byteLength(`${name}:${portal}`) > 64)
    out.push(invalid(child(path, "targetportal"), portal, iscsiTooLongMsg, asError));
  const ref = objectAt(source, "secretRef");
  if (ref !== undefined && stringAt(ref, "name") === "")
    out.push(required(child(path, "secretRef", "name"), "", asError));
  return out;
}

/** validateGlusterfsPersistentVolumeSource: a set endpointsNamespace is a namespace's name. */
function validateGlusterfsPersistentVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const out = legacy("glusterfs")(source, path, "", false);
  const namespace = getKey(source, "endpointsNamespace");
  const at = child(path, "endpointsNamespace");
  if (namespace === "")
    out.push(invalid(at, "", "if the endpointnamespace is set, it must be a valid namespace name", asError));
  else if (typeof namespace === "string") out.push(...invalidEach(at, namespace, nameIsDNSLabel(namespace, false)));
  return out;
}

/** validateCinderPersistentVolumeSource. */
function validateCinderPersistentVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  return [...legacy("cinder")(source, path, "", false), ...secretRefNamespace(source, path)];
}

/** validateStorageOSPersistentVolumeSource. */
function validateStorageOSPersistentVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  return [...legacy("storageos")(source, path, "", false), ...secretRefNamespace(source, path)];
}

/** validateAzureFilePV: a set secretNamespace is not empty. */
function validateAzureFilePV(source: JsonObject, path: FieldPath): Finding[] {
  const out = legacy("azureFile")(source, path, "", false);
  if (getKey(source, "secretNamespace") === "") out.push(required(child(path, "secretNamespace"), "", asError));
  return out;
}

/** validateLocalVolumeSource, then the node affinity a local volume needs. */
function validateLocalPersistentVolume(
  source: JsonObject,
  path: FieldPath,
  _name: string,
  nodeAffinitySpecified: boolean,
): Finding[] {
  const out: Finding[] = [];
  const localPath = stringAt(source, "path");
  if (localPath === "") out.push(...requiredIfEmpty(source, "path", path));
  else if (localPath !== undefined) out.push(...validatePathNoBacksteps(localPath, child(path, "path")));
  if (!nodeAffinitySpecified)
    out.push(required(child(spec, "nodeAffinity"), "Local volume requires node affinity", asError));
  return out;
}

/** The secret references validateCSIPersistentVolumeSource checks (not nodeStageSecretRef). */
const csiSecretRefs = [
  "controllerPublishSecretRef",
  "controllerExpandSecretRef",
  "nodePublishSecretRef",
  "nodeExpandSecretRef",
];

/** validateCSIPersistentVolumeSource: the driver's name (ValidateCSIDriverName, the pod's), a handle, the secrets. */
function validateCSIPersistentVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const out = validateCSIDriverName(source, path);
  out.push(...requiredIfEmpty(source, "volumeHandle", path));
  for (const key of csiSecretRefs) {
    const ref = objectAt(source, key);
    if (ref !== undefined) out.push(...validatePVSecretReference(ref, child(path, key)));
  }
  return out;
}

/** validatePVSecretReference: a name that is a DNS subdomain, a namespace that is a DNS label. */
function validatePVSecretReference(ref: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(ref, "name");
  if (name === "") out.push(required(child(path, "name"), "", asError));
  else if (name !== undefined) out.push(...invalidEach(child(path, "name"), name, isDNS1123Subdomain(name)));
  const namespace = stringAt(ref, "namespace");
  if (namespace === "") out.push(required(child(path, "namespace"), "", asError));
  else if (namespace !== undefined)
    out.push(...invalidEach(child(path, "namespace"), namespace, isDNS1123Label(namespace)));
  return out;
}

// ---------------------------------------------------------------------------
// the rest of the spec

/** Whether Go's path.Clean makes `p` "/": rooted, with nothing but "", "." and ".." after the root. */
const cleansToRoot = (p: string) => p.startsWith("/") && p.split("/").every((e) => e === "" || e === "." || e === "..");

/** volumeAttributesClassName, when set: not empty, a class name, on a CSI volume. */
function validateVolumeAttributesClassName(s: JsonObject): Finding[] {
  if (!isSet(s, "volumeAttributesClassName")) return [];
  const name = stringAt(s, "volumeAttributesClassName");
  if (name === undefined) return [];
  const at = child(spec, "volumeAttributesClassName");
  const out =
    name === ""
      ? [required(at, "an empty string is disallowed", asError)]
      : invalidEach(at, name, nameIsDNSSubdomain(name, false));
  if (!isSet(s, "csi"))
    out.push(required(child(spec, "csi"), "has to be specified when using volumeAttributesClassName", asError));
  return out;
}

// ---------------------------------------------------------------------------
// The objects: a volume's access modes and enums, a claim's spec

const accessModes = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const volumeModes = ["Block", "Filesystem"];

/** The access modes of a claim or a volume: at least one, each supported, ReadWriteOncePod alone. */
function validateAccessModes(s: JsonObject, path: FieldPath, detail: string): Finding[] {
  const at = child(path, "accessModes");
  const modes = listAt(s, "accessModes").filter((m): m is string => typeof m === "string");
  if (listAt(s, "accessModes").length === 0) return [required(at, detail, asError)];
  const out: Finding[] = [];
  for (const mode of modes) if (!accessModes.includes(mode)) out.push(notSupported(at, mode, accessModes, asError));
  const others = modes.some((m) => m !== "ReadWriteOncePod" && accessModes.includes(m));
  if (modes.includes("ReadWriteOncePod") && others)
    out.push(forbidden(at, "may not use ReadWriteOncePod with other access modes", asError));
  return out;
}

/**
 * A PersistentVolumeClaim: its spec after the create strategy's NormalizeDataSources, which copies a
 * dataSource into an absent dataSourceRef, and a dataSourceRef without a namespace into an absent
 * dataSource (AnyVolumeDataSource, on in every release kunion checks): what is wrong with one is said of both.
 */
export function validatePersistentVolumeClaim(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const ds = objectAt(s, "dataSource");
  const dsr = objectAt(s, "dataSourceRef");
  const sourceFields = (ref: JsonObject): JsonObject => {
    const out: JsonObject = {};
    for (const k of ["apiGroup", "kind", "name"]) {
      const v = getKey(ref, k);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
  // the copy's findings sit on the lines of the field it was copied from
  let copy: { from: string; to: string } | undefined;
  if (ds !== undefined && !isSet(s, "dataSourceRef")) copy = { from: "dataSource", to: "dataSourceRef" };
  else if (dsr !== undefined && !isSet(s, "dataSource") && (stringAt(dsr, "namespace") ?? "") === "")
    copy = { from: "dataSourceRef", to: "dataSource" };
  if (copy === undefined) return validatePersistentVolumeClaimSpec(s, ["spec"], minor);
  const { from, to } = copy;
  const normalized = { ...s, [to]: sourceFields(objectAt(s, from) as JsonObject) };
  return validatePersistentVolumeClaimSpec(normalized, ["spec"], minor).map((f) =>
    f.path[1] === to ? { ...f, at: ["spec", from, ...f.path.slice(2)] } : f,
  );
}

/**
 * ValidatePersistentVolumeClaimSpec, of a claim's spec at `path`: access modes, the selector, a positive
 * storage request, the class names (the attributes class from 1.34, where VolumeAttributesClass is GA;
 * before, the create strategy drops it), the volume mode, and the data source and its reference.
 */
export function validatePersistentVolumeClaimSpec(s: JsonObject, path: FieldPath, minor: number): Finding[] {
  const out = validateAccessModes(s, path, "at least 1 access mode is required");
  if (isSet(s, "selector")) out.push(...validateLabelSelector(objectAt(s, "selector"), child(path, "selector")));
  const storageAt = child(path, "resources", { key: "storage" });
  const requests = objectAt(objectAt(s, "resources"), "requests");
  if (!isSet(requests, "storage")) out.push(required(storageAt, "", asError));
  else {
    const q = quantityOf(getKey(requests as JsonObject, "storage"));
    if (q !== undefined && quantitySign(q) <= 0)
      out.push(invalid(storageAt, quantityString(q), "must be greater than zero", asError));
  }
  for (const key of ["storageClassName", ...(minor >= 34 ? ["volumeAttributesClassName"] : [])]) {
    const name = stringAt(s, key);
    if (name !== undefined && name !== "")
      out.push(...invalidEach(child(path, key), name, nameIsDNSSubdomain(name, false)));
  }
  out.push(...oneOf(s, "volumeMode", path, volumeModes));
  const ds = objectAt(s, "dataSource");
  const dsr = objectAt(s, "dataSourceRef");
  if (ds !== undefined) out.push(...validateDataSource(ds, child(path, "dataSource")));
  if (dsr !== undefined) {
    out.push(...validateDataSource(dsr, child(path, "dataSourceRef")));
    const namespace = stringAt(dsr, "namespace");
    if (namespace !== undefined && namespace !== "")
      out.push(...invalidEach(child(path, "dataSourceRef", "namespace"), namespace, nameIsDNSLabel(namespace, false)));
  }
  // The server's bad value is the *field.Path of dataSource, which it prints as Go's %#v of the struct (a
  // pointer address in it); kunion shows the path.
  const dataSourceAt = formatPath(child(path, "dataSource"));
  if (dsr !== undefined && (stringAt(dsr, "namespace") ?? "") !== "") {
    if (ds !== undefined)
      out.push(invalidShown(path, dataSourceAt, "may not be specified when dataSourceRef.namespace is specified"));
  } else if (ds !== undefined && dsr !== undefined && !sameSource(ds, dsr)) {
    out.push(invalidShown(path, dataSourceAt, "must match dataSourceRef"));
  }
  return out;
}

/** isDataSourceEqualDataSourceRef: the same API group (both unset, or equal), kind and name. */
function sameSource(ds: JsonObject, dsr: JsonObject): boolean {
  const group = (ref: JsonObject) => (isSet(ref, "apiGroup") ? getKey(ref, "apiGroup") : null);
  return (
    group(ds) === group(dsr) &&
    (stringAt(ds, "kind") ?? "") === (stringAt(dsr, "kind") ?? "") &&
    (stringAt(ds, "name") ?? "") === (stringAt(dsr, "name") ?? "")
  );
}

/**
 * validateDataSource and validateDataSourceRef: a name and a kind, a kind other than PersistentVolumeClaim only
 * with an API group, and the group a DNS subdomain.
 */
function validateDataSource(ref: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(ref, "name");
  const kind = stringAt(ref, "kind");
  if (name === "") out.push(required(child(at, "name"), "", asError));
  if (kind === "") out.push(required(child(at, "kind"), "", asError));
  const apiGroup = stringAt(ref, "apiGroup") ?? "";
  if (apiGroup === "" && kind !== undefined && kind !== "PersistentVolumeClaim")
    out.push(invalid(at, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup", asError));
  if (apiGroup !== "") out.push(...invalidEach(child(at, "apiGroup"), apiGroup, isDNS1123Subdomain(apiGroup)));
  return out;
}

/** ValidatePersistentVolumeSpec's access modes and enums (the volume source is the union's). */
export function validatePersistentVolume(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const spec = ["spec"];
  return [
    ...validateAccessModes(s, spec, ""),
    ...oneOf(s, "persistentVolumeReclaimPolicy", spec, ["Delete", "Recycle", "Retain"]),
    ...oneOf(s, "volumeMode", spec, volumeModes),
    ...validatePersistentVolumeSpec(s, stringAt(objectAt(object, "metadata"), "name") ?? ""),
    ...checkMountOption(object, s),
  ];
}

const mountOptionAnnotation = "volume.beta.kubernetes.io/mount-options";
/** The sources that take mount options. */
const mountingSources = [
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "glusterfs",
  "nfs",
  "rbd",
  "quobyte",
  "iscsi",
  "cinder",
  "cephfs",
  "azureFile",
  "vsphereVolume",
  "azureDisk",
  "photonPersistentDisk",
];

/**
 * pkg/volume/validation/pv_validation.go checkMountOption: the beta mount options annotation on a volume
 * whose source takes none, at `metadata.annotations.<key>` (Go's Child, not Key).
 */
function checkMountOption(object: JsonObject, s: JsonObject): Finding[] {
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  if (annotations === undefined || !Object.hasOwn(annotations, mountOptionAnnotation)) return [];
  if (mountingSources.some((source) => isSet(s, source))) return [];
  return [
    forbidden(
      ["metadata", "annotations", mountOptionAnnotation],
      "may not specify mount options for this volume type",
      asError,
    ),
  ];
}
