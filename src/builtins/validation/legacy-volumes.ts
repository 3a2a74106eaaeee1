/**
 * The cloud and legacy sources of a pod's volume, as validateVolumeSource
 * (pkg/apis/core/validation/validation.go) hands them to:
 * validateGCEPersistentDiskVolumeSource, validateAWSElasticBlockStoreVolumeSource,
 * validateISCSIVolumeSource, validateGlusterfsVolumeSource,
 * validateFlockerVolumeSource, validateRBDVolumeSource,
 * validateCinderVolumeSource, validateCephFSVolumeSource,
 * validateQuobyteVolumeSource (with Go's net.SplitHostPort),
 * validateFCVolumeSource, validateFlexVolumeSource, validateAzureFile,
 * validateVsphereVolumeSource, validatePhotonPersistentDiskVolumeSource,
 * validatePortworxVolumeSource, validateAzureDisk (after core/v1
 * SetDefaults_AzureDiskVolumeSource), validateStorageOSVolumeSource and
 * validateScaleIOVolumeSource; pdPartitionErrorMsg and the iSCSI name
 * patterns (iscsiInitiatorIqnRegex, iscsiInitiatorEuiRegex,
 * iscsiInitiatorNaaRegex).
 *
 * Each validator takes the source's own path (`spec.volumes[0].iscsi`). Go
 * reports a gcePersistentDisk source at `persistentDisk`
 * (`spec.volumes[0].persistentDisk.pdName`), not at its JSON name: so does
 * this one. validateVolumeSource's iSCSI rule on the volume's name is in
 * volumes.ts, which holds the volume.
 *
 * PersistentVolumes: ValidatePersistentVolumeSpec calls the same functions
 * for gcePersistentDisk (at `spec.persistentDisk` too), awsElasticBlockStore,
 * flocker, quobyte, fc, vsphereVolume, photonPersistentDisk, portworxVolume
 * and azureDisk, at `spec.<source>`; for iscsi, glusterfs, rbd, cinder,
 * cephfs, flexVolume, azureFile, scaleIO and storageos it calls twins with
 * other rules (validateISCSIPersistentVolumeSource,
 * validateGlusterfsPersistentVolumeSource, validateRBDPersistentVolumeSource,
 * validateCinderPersistentVolumeSource, validateCephFSPersistentVolumeSource,
 * validateFlexPersistentVolumeSource, validateAzureFilePV,
 * validateScaleIOPersistentVolumeSource, validateStorageOSPersistentVolumeSource),
 * not ported here.
 *
 * A field the schema marks required is reported Required here only when
 * present and empty: absent, it is the schema's finding. A field the schema
 * leaves optional that Go requires (flocker's datasets, fc's targetWWNs,
 * storageos' and scaleIO's volumeName, a secretRef's name) is reported absent
 * too. Repeated messages are said once by validateHandWritten (index.ts), as
 * ErrorList.ToAggregate prints them.
 */
import type { Finding } from "../../findings/index.js";
import { byteLength, isDNS1123Label } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  inclusiveRangeError,
  intAt,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  required,
  requiredIfEmpty,
  stringAt,
  stringMapAt,
} from "./common.js";

type SourceValidator = (source: JsonObject, path: FieldPath) => Finding[];

/** pdPartitionErrorMsg: Go checks 0 to 255 but names 1 to 255. */
const pdPartitionErrorMsg = inclusiveRangeError(1, 255);

/** Required when the list is present but empty or null; absent is the schema's `required`. */
function requiredListIfEmpty(o: JsonObject, key: string, path: FieldPath): Finding[] {
  if (!Object.hasOwn(o, key)) return [];
  const v = getKey(o, key);
  return v === null || (Array.isArray(v) && v.length === 0) ? [required(child(path, key), "", asError)] : [];
}

/** An int32 that Go checks against [lo, hi]; absent is Go's 0. */
function outOfRange(o: JsonObject, key: string, path: FieldPath, lo: number, hi: number, detail: string): Finding[] {
  const n = intAt(o, key);
  return n !== undefined && (n < lo || n > hi) ? [invalid(child(path, key), n, detail, asError)] : [];
}

/** A LocalObjectReference `secretRef`: when set, its name must not be empty. */
function secretRefName(o: JsonObject, path: FieldPath): Finding[] {
  const ref = objectAt(o, "secretRef");
  return ref !== undefined && stringAt(ref, "name") === ""
    ? [required(child(path, "secretRef", "name"), "", asError)]
    : [];
}

/** validateGCEPersistentDiskVolumeSource, at `persistentDisk` beside the source, as Go names it. */
function validateGCEPersistentDisk(source: JsonObject, path: FieldPath): Finding[] {
  const at = child(path.slice(0, -1), "persistentDisk");
  return [
    ...requiredIfEmpty(source, "pdName", at),
    ...outOfRange(source, "partition", at, 0, 255, pdPartitionErrorMsg),
  ];
}

/** validateAWSElasticBlockStoreVolumeSource. */
const validateAWSElasticBlockStore: SourceValidator = (source, path) => [
  ...requiredIfEmpty(source, "volumeID", path),
  ...outOfRange(source, "partition", path, 0, 255, pdPartitionErrorMsg),
];

// iSCSI qualified names. Go's IQN pattern is anchored at the end only; `.`
// there matches any character but a newline, `\s` is [\t\n\f\r ], and
// [[:alnum:]] is ASCII.
const iqnPattern = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\t\n\f\r ]+)$/u;
const euiPattern = /^eui[^\n][A-Za-z0-9]{16}$/u;
const naaPattern = /^naa[^\n][A-Za-z0-9]{32}$/u;
const formats: readonly [string, RegExp][] = [
  ["iqn", iqnPattern],
  ["eui", euiPattern],
  ["naa", naaPattern],
];

/**
 * The iSCSI name checks: a known prefix, then that prefix's pattern. One message at most; a name without a
 * known prefix is `unknownPrefix` (a PersistentVolume's twin says less).
 */
function iscsiNameErrors(name: string, unknownPrefix: string): string[] {
  const format = formats.find(([prefix]) => name.startsWith(prefix));
  if (format === undefined) return [unknownPrefix];
  return format[1].test(name) ? [] : ["must be valid format"];
}

/**
 * validateISCSIVolumeSource, and the shared part of validateISCSIPersistentVolumeSource (`unknownPrefix`
 * "must be valid format"). Go reports a bad initiator name at `initiatorname`, in lower case.
 */
export function validateISCSI(
  source: JsonObject,
  path: FieldPath,
  unknownPrefix = "must be valid format starting with iqn, eui, or naa",
): Finding[] {
  const out = requiredIfEmpty(source, "targetPortal", path);
  const iqn = stringAt(source, "iqn");
  if (iqn === "") out.push(...requiredIfEmpty(source, "iqn", path));
  else if (iqn !== undefined) out.push(...invalidEach(child(path, "iqn"), iqn, iscsiNameErrors(iqn, unknownPrefix)));
  out.push(...outOfRange(source, "lun", path, 0, 255, inclusiveRangeError(0, 255)));
  const chap = getKey(source, "chapAuthDiscovery") === true || getKey(source, "chapAuthSession") === true;
  if (chap && !isSet(source, "secretRef")) out.push(required(child(path, "secretRef"), "", asError));
  const initiator = getKey(source, "initiatorName");
  if (typeof initiator === "string")
    out.push(...invalidEach(child(path, "initiatorname"), initiator, iscsiNameErrors(initiator, unknownPrefix)));
  return out;
}

/** validateGlusterfsVolumeSource. */
const validateGlusterfs: SourceValidator = (source, path) => [
  ...requiredIfEmpty(source, "endpoints", path),
  ...requiredIfEmpty(source, "path", path),
];

/** validateFlockerVolumeSource: exactly one of the dataset's name and UUID, reported at the source. */
function validateFlocker(source: JsonObject, path: FieldPath): Finding[] {
  const name = stringAt(source, "datasetName");
  const uuid = stringAt(source, "datasetUUID");
  if (name === undefined || uuid === undefined) return [];
  const out: Finding[] = [];
  if (name === "" && uuid === "") out.push(required(path, "one of datasetName and datasetUUID is required", asError));
  if (name !== "" && uuid !== "")
    out.push(invalid(path, "resource", "datasetName and datasetUUID can not be specified simultaneously", asError));
  if (name.includes("/")) out.push(invalid(child(path, "datasetName"), name, "must not contain '/'", asError));
  return out;
}

/** validateRBDVolumeSource. */
const validateRBD: SourceValidator = (source, path) => [
  ...requiredListIfEmpty(source, "monitors", path),
  ...requiredIfEmpty(source, "image", path),
];

/** validateCinderVolumeSource. */
const validateCinder: SourceValidator = (source, path) => [
  ...requiredIfEmpty(source, "volumeID", path),
  ...secretRefName(source, path),
];

/** validateCephFSVolumeSource. */
const validateCephFS: SourceValidator = (source, path) => requiredListIfEmpty(source, "monitors", path);

/** Whether Go's net.SplitHostPort accepts `hostport` (the port itself is not checked). */
function splitsHostPort(hostport: string): boolean {
  const i = hostport.lastIndexOf(":");
  if (i < 0) return false;
  let j = 0;
  let k = 0;
  if (hostport.startsWith("[")) {
    const end = hostport.indexOf("]");
    if (end < 0 || end + 1 !== i) return false;
    j = 1;
    k = end + 1;
  } else if (hostport.slice(0, i).includes(":")) return false;
  return !hostport.slice(j).includes("[") && !hostport.slice(k).includes("]");
}

const quobyteRegistryMsg = "must be a host:port pair or multiple pairs separated by commas";

/** validateQuobyteVolumeSource: the tenant is checked only when a registry is given, the pairs only when it fits. */
function validateQuobyte(source: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const registry = stringAt(source, "registry");
  const tenant = stringAt(source, "tenant") ?? "";
  if (registry === "") out.push(...requiredIfEmpty(source, "registry", path, quobyteRegistryMsg));
  else if (registry === undefined) {
    // Not a string: the schema's finding.
  } else if (byteLength(tenant) >= 65)
    out.push(required(child(path, "tenant"), "must be a UUID and may not exceed a length of 64 characters", asError));
  else
    for (const pair of registry.split(","))
      if (!splitsHostPort(pair)) out.push(invalid(child(path, "registry"), registry, quobyteRegistryMsg, asError));
  out.push(...requiredIfEmpty(source, "volume", path));
  return out;
}

/** validateFCVolumeSource: targetWWNs with a lun, or wwids. */
function validateFC(source: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const wwns = listAt(source, "targetWWNs");
  const wwids = listAt(source, "wwids");
  if (wwns.length === 0 && wwids.length === 0)
    out.push(required(child(path, "targetWWNs"), "must specify either targetWWNs or wwids, but not both", asError));
  if (wwns.length > 0 && wwids.length > 0)
    out.push(
      invalid(child(path, "targetWWNs"), wwns, "targetWWNs and wwids can not be specified simultaneously", asError),
    );
  if (wwns.length > 0) {
    if (!isSet(source, "lun"))
      out.push(required(child(path, "lun"), "lun is required if targetWWNs is specified", asError));
    else out.push(...outOfRange(source, "lun", path, 0, 255, inclusiveRangeError(0, 255)));
  }
  return out;
}

/** validateFlexVolumeSource: options keys outside the kubernetes.io and k8s.io namespaces. */
function validateFlexVolume(source: JsonObject, path: FieldPath): Finding[] {
  const out = requiredIfEmpty(source, "driver", path);
  for (const [key] of stringMapAt(source, "options")) {
    const slash = key.indexOf("/");
    const namespace = slash < 0 ? key : key.slice(0, slash);
    const normalized = `.${namespace.toLowerCase()}`;
    if (normalized.endsWith(".kubernetes.io") || normalized.endsWith(".k8s.io"))
      out.push(
        invalid(child(path, "options", { key }), key, "kubernetes.io and k8s.io namespaces are reserved", asError),
      );
  }
  return out;
}

/** validateAzureFile. */
const validateAzureFile: SourceValidator = (source, path) => [
  ...requiredIfEmpty(source, "secretName", path),
  ...requiredIfEmpty(source, "shareName", path),
];

/** AzureDataDiskCachingMode and AzureDataDiskKind values, as sets.List sorts them. */
const azureCachingModes = ["None", "ReadOnly", "ReadWrite"];
const azureDiskKinds = ["Dedicated", "Managed", "Shared"];
const managedDiskURIs = [
  "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}",
];
const blobDiskURIs = ["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"];

/**
 * validateAzureDisk. Unset or null, cachingMode is defaulted to ReadWrite
 * and kind to Shared (a blob disk, whose URI must be https://) first; "" is
 * set, and not supported.
 */
function validateAzureDisk(source: JsonObject, path: FieldPath): Finding[] {
  const out = [...requiredIfEmpty(source, "diskName", path), ...requiredIfEmpty(source, "diskURI", path)];
  const caching = getKey(source, "cachingMode");
  if (typeof caching === "string" && !azureCachingModes.includes(caching))
    out.push(notSupported(child(path, "cachingMode"), caching, azureCachingModes, asError));
  const setKind = getKey(source, "kind");
  const kind = setKind === undefined || setKind === null ? "Shared" : setKind;
  if (typeof kind !== "string") return out;
  if (!azureDiskKinds.includes(kind)) out.push(notSupported(child(path, "kind"), kind, azureDiskKinds, asError));
  const uri = stringAt(source, "diskURI");
  if (uri === undefined) return out;
  if (kind === "Managed" && !uri.startsWith("/subscriptions/"))
    out.push(notSupported(child(path, "diskURI"), uri, managedDiskURIs, asError));
  if (kind !== "Managed" && !uri.startsWith("https://"))
    out.push(notSupported(child(path, "diskURI"), uri, blobDiskURIs, asError));
  return out;
}

/** validateStorageOSVolumeSource: DNS labels for the volume's name and namespace. */
function validateStorageOS(source: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(source, "volumeName");
  if (name === "") out.push(required(child(path, "volumeName"), "", asError));
  else if (name !== undefined) out.push(...invalidEach(child(path, "volumeName"), name, isDNS1123Label(name)));
  const namespace = stringAt(source, "volumeNamespace");
  if (namespace) out.push(...invalidEach(child(path, "volumeNamespace"), namespace, isDNS1123Label(namespace)));
  out.push(...secretRefName(source, path));
  return out;
}

/** validateScaleIOVolumeSource. */
function validateScaleIO(source: JsonObject, path: FieldPath): Finding[] {
  const out = [...requiredIfEmpty(source, "gateway", path), ...requiredIfEmpty(source, "system", path)];
  if (stringAt(source, "volumeName") === "") out.push(required(child(path, "volumeName"), "", asError));
  return out;
}

/** The validators of the cloud and legacy sources, by the source's JSON field name. */
export const legacyVolumeSourceValidators: Readonly<Record<string, SourceValidator>> = {
  gcePersistentDisk: validateGCEPersistentDisk,
  awsElasticBlockStore: validateAWSElasticBlockStore,
  iscsi: validateISCSI,
  glusterfs: validateGlusterfs,
  flocker: validateFlocker,
  rbd: validateRBD,
  cinder: validateCinder,
  cephfs: validateCephFS,
  quobyte: validateQuobyte,
  fc: validateFC,
  flexVolume: validateFlexVolume,
  azureFile: validateAzureFile,
  vsphereVolume: (source, path) => requiredIfEmpty(source, "volumePath", path),
  photonPersistentDisk: (source, path) => requiredIfEmpty(source, "pdID", path),
  portworxVolume: (source, path) => requiredIfEmpty(source, "volumeID", path),
  azureDisk: validateAzureDisk,
  storageos: validateStorageOS,
  scaleIO: validateScaleIO,
};
