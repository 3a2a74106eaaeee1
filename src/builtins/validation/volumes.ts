/**
 * What a pod's volume holds (pkg/apis/core/validation validateVolumeSource
 * and the validators it calls): secret, configMap, persistentVolumeClaim,
 * hostPath, emptyDir, gitRepo, nfs, downwardAPI, projected, csi, ephemeral
 * and image sources, with the shared path and file mode rules
 * (validateKeyToPath, ValidateLocalNonReservedPath,
 * validateLocalDescendingPath, validatePathNoBacksteps, fileModeErrorMsg).
 *
 * Left to others: the volume's name (ValidateVolumes), the one-of rules
 * "may not specify more than 1 volume type" and "must specify a volume type"
 * and their per-projection twin (unions/wording.ts). The cloud and legacy
 * sources (gcePersistentDisk, iscsi, rbd, …) have a module of their own
 * (legacy-volumes.ts). Not checked: projected clusterTrustBundle and podCertificate
 * sources (behind the ClusterTrustBundleProjection and PodCertificateRequest
 * feature gates; the API server drops them when those are off).
 *
 * A field the schema marks required is reported Required here only when
 * present and empty: absent, it is the schema's finding.
 */
import { type Finding, tooLong } from "../../findings/index.js";
import { quantitySign } from "../../go/index.js";
import { byteLength, isDNS1123Subdomain, nameIsDNSSubdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  firstSetObject,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  objectAt,
  objectItems,
  oneOf,
  optionalIntAt,
  required,
  requiredIfEmpty,
  stringAt,
  stringMapAt,
  validateAnnotations,
  validateLabels,
} from "./common.js";
import { validateContainerResourceFieldSelector, validateObjectFieldSelector } from "./env.js";
import { legacyVolumeSourceValidators } from "./legacy-volumes.js";
import { quantityOf } from "./quantity.js";

/** fileModeErrorMsg. */
const fileModeErrorMsg = "must be a number between 0 and 0777 (octal), both inclusive";

/**
 * validateVolumeSource's order. It checks the first source set in this order
 * only: another one set is "may not specify more than 1 volume type".
 */
const volumeSourceOrder = [
  "emptyDir",
  "hostPath",
  "gitRepo",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "secret",
  "nfs",
  "iscsi",
  "glusterfs",
  "flocker",
  "persistentVolumeClaim",
  "rbd",
  "cinder",
  "cephfs",
  "quobyte",
  "downwardAPI",
  "fc",
  "flexVolume",
  "configMap",
  "azureFile",
  "vsphereVolume",
  "photonPersistentDisk",
  "portworxVolume",
  "azureDisk",
  "storageos",
  "projected",
  "scaleIO",
  "csi",
  "ephemeral",
  "image",
];

type SourceValidator = (source: JsonObject, path: FieldPath) => Finding[];

const sourceValidators: Readonly<Record<string, SourceValidator>> = {
  emptyDir: validateEmptyDirVolumeSource,
  hostPath: validateHostPathVolumeSource,
  gitRepo: validateGitRepoVolumeSource,
  secret: (s, path) => validateObjectVolumeSource(s, "secretName", path),
  nfs: validateNFSVolumeSource,
  persistentVolumeClaim: (s, path) => requiredIfEmpty(s, "claimName", path),
  downwardAPI: validateDownwardAPIVolumeSource,
  configMap: (s, path) => validateObjectVolumeSource(s, "name", path),
  projected: validateProjectedVolumeSource,
  csi: validateCSIVolumeSource,
  ephemeral: validateEphemeralVolumeSource,
  // validateImageVolumeSource (ImageVolume: beta, on by default since 1.35).
  // An empty pullPolicy is defaulted first. `reference` is required of a Pod
  // only (opts.ResourceIsPod), not of a template: left to a caller that knows.
  image: (s, path) => oneOf(s, "pullPolicy", path, ["Always", "IfNotPresent", "Never"]),
  ...legacyVolumeSourceValidators,
};

/**
 * validateVolumeSource for one item of `volumes` at `path` (`spec.volumes[0]`):
 * the contents of its source.
 */
export function validateVolumeSource(volume: JsonObject, path: FieldPath): Finding[] {
  const first = firstSetObject(volume, volumeSourceOrder);
  const validate = first === undefined ? undefined : sourceValidators[first.field];
  const out = first === undefined || validate === undefined ? [] : validate(first.value, child(path, first.field));
  // the iSCSI rule that needs the volume's name: the initiator names the session `<volume>:<portal>`
  const iscsi = objectAt(volume, "iscsi");
  const name = stringAt(volume, "name") ?? "";
  if (
    iscsi !== undefined &&
    isSet(iscsi, "initiatorName") &&
    byteLength(`${name}:${stringAt(iscsi, "targetPortal") ?? ""}`) > 64
  )
    out.push(
      invalid(
        child(path, "name"),
        name,
        "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        asError,
      ),
    );
  return out;
}

/** The emptyDir check of validateVolumeSource: a size limit not below zero (the medium is not checked). */
function validateEmptyDirVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const limit = quantityOf(getKey(source, "sizeLimit"));
  if (limit === undefined || quantitySign(limit) >= 0) return [];
  return [forbidden(child(path, "sizeLimit"), "SizeLimit field must be a valid resource quantity", asError)];
}

/** HostPathType values, as sets.List prints supportedHostPathTypes. */
const hostPathTypes = [
  "",
  "BlockDevice",
  "CharDevice",
  "Directory",
  "DirectoryOrCreate",
  "File",
  "FileOrCreate",
  "Socket",
];

/** validateHostPathVolumeSource with validateHostPathType: a path without `..`, then a known type. */
export function validateHostPathVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const hostPath = stringAt(source, "path");
  if (hostPath === undefined) return [];
  if (hostPath === "") return requiredIfEmpty(source, "path", path);
  return [...validatePathNoBacksteps(hostPath, child(path, "path")), ...oneOf(source, "type", path, hostPathTypes)];
}

/** validateGitRepoVolumeSource. */
function validateGitRepoVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const directory = stringAt(source, "directory");
  const out = requiredIfEmpty(source, "repository", path);
  if (directory !== undefined) out.push(...validateLocalDescendingPath(directory, child(path, "directory")));
  return out;
}

/** validateNFSVolumeSource: an empty path is both Required and not absolute. */
export function validateNFSVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const out = [...requiredIfEmpty(source, "server", path), ...requiredIfEmpty(source, "path", path)];
  const nfsPath = stringAt(source, "path");
  if (nfsPath !== undefined && !nfsPath.startsWith("/"))
    out.push(invalid(child(path, "path"), nfsPath, "must be an absolute path", asError));
  return out;
}

/**
 * validateSecretVolumeSource (`nameKey` secretName) and
 * validateConfigMapVolumeSource (name): the same rules.
 */
function validateObjectVolumeSource(source: JsonObject, nameKey: string, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (stringAt(source, nameKey) === "") out.push(required(child(path, nameKey), "", asError));
  out.push(...validateMode(source, "defaultMode", path));
  for (const [i, item] of objectItems(source, "items")) out.push(...validateKeyToPath(item, child(path, "items", i)));
  return out;
}

/** validateKeyToPath: an item of a secret or configMap. */
function validateKeyToPath(item: JsonObject, path: FieldPath): Finding[] {
  const out = [...requiredIfEmpty(item, "key", path), ...requiredIfEmpty(item, "path", path)];
  const itemPath = stringAt(item, "path");
  if (itemPath !== undefined) out.push(...validateLocalNonReservedPath(itemPath, child(path, "path")));
  out.push(...validateMode(item, "mode", path));
  return out;
}

/** The file mode checks (defaultMode, mode): 0 to 0777 when set. */
function validateMode(o: JsonObject, key: string, path: FieldPath): Finding[] {
  const mode = optionalIntAt(o, key);
  if (mode === undefined || (mode >= 0 && mode <= 0o777)) return [];
  return [invalid(child(path, key), mode, fileModeErrorMsg, asError)];
}

/** validatePathNoBacksteps: no `..` element (one finding however many). */
export function validatePathNoBacksteps(target: string, path: FieldPath): Finding[] {
  return target.split("/").includes("..") ? [invalid(path, target, "must not contain '..'", asError)] : [];
}

/** validateLocalDescendingPath: relative, without `..`. */
function validateLocalDescendingPath(target: string, path: FieldPath): Finding[] {
  const out = target.startsWith("/") ? [invalid(path, target, "must be a relative path", asError)] : [];
  return [...out, ...validatePathNoBacksteps(target, path)];
}

/** ValidateLocalNonReservedPath: also not `..x` (`..` alone gets both findings, as in Go). */
function validateLocalNonReservedPath(target: string, path: FieldPath): Finding[] {
  const out = validateLocalDescendingPath(target, path);
  if (target.startsWith("..") && !target.startsWith("../"))
    out.push(invalid(path, target, "must not start with '..'", asError));
  return out;
}

/** validDownwardAPIVolumeFieldPathExpressions, as sets.List prints them. */
const volumeFieldPaths = [
  "metadata.annotations",
  "metadata.labels",
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
];

/** validateDownwardAPIVolumeSource: Go checks each item at the source's path, not at `items[i]`. */
function validateDownwardAPIVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const out = validateMode(source, "defaultMode", path);
  for (const [, file] of objectItems(source, "items")) out.push(...validateDownwardAPIVolumeFile(file, path));
  return out;
}

/** validateDownwardAPIVolumeFile. */
function validateDownwardAPIVolumeFile(file: JsonObject, path: FieldPath): Finding[] {
  const out = requiredIfEmpty(file, "path", path);
  const filePath = stringAt(file, "path");
  if (filePath !== undefined) out.push(...validateLocalNonReservedPath(filePath, child(path, "path")));
  const fieldRef = objectAt(file, "fieldRef");
  const resourceFieldRef = objectAt(file, "resourceFieldRef");
  if (isSet(file, "fieldRef")) {
    if (fieldRef !== undefined)
      out.push(...validateObjectFieldSelector(fieldRef, volumeFieldPaths, child(path, "fieldRef")));
    if (isSet(file, "resourceFieldRef"))
      out.push(invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously", asError));
  } else if (isSet(file, "resourceFieldRef")) {
    if (resourceFieldRef !== undefined)
      out.push(...validateContainerResourceFieldSelector(resourceFieldRef, child(path, "resourceFieldRef"), true));
  } else out.push(required(path, "one of fieldRef and resourceFieldRef is required", asError));
  out.push(...validateMode(file, "mode", path));
  return out;
}

/** validateProjectedVolumeSource with validateProjectionSources. */
function validateProjectedVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const out = validateMode(source, "defaultMode", path);
  // Paths are unique across the sources; a repeated one is reported at the volume.
  const paths = new Set<string>();
  const claim = (target: string, badValue: string) => {
    if (paths.has(target)) out.push(invalid(path, badValue, "conflicting duplicate paths", asError));
    else paths.add(target);
  };
  for (const [i, projection] of objectItems(source, "sources")) {
    const at = child(path, "sources", i);
    for (const kind of ["secret", "configMap"]) {
      const object = objectAt(projection, kind);
      if (object === undefined) continue;
      const name = stringAt(object, "name") ?? "";
      if (name === "") out.push(required(child(at, kind, "name"), "", asError));
      for (const [j, item] of objectItems(object, "items")) {
        out.push(...validateKeyToPath(item, child(at, kind, "items", j)));
        // Go prints the secret's or configMap's name, not the path.
        const itemPath = stringAt(item, "path");
        if (itemPath) claim(itemPath, name);
      }
    }
    for (const [, file] of objectItems(objectAt(projection, "downwardAPI"), "items")) {
      out.push(...validateDownwardAPIVolumeFile(file, child(at, "downwardAPI")));
      const filePath = stringAt(file, "path");
      if (filePath) claim(filePath, filePath);
    }
    const token = objectAt(projection, "serviceAccountToken");
    if (token !== undefined)
      out.push(...validateServiceAccountTokenProjection(token, child(at, "serviceAccountToken"), path));
  }
  return out;
}

/** A requested token's lifetime (a projected source's, a CSIDriver's token request's), when set: 10 minutes to 2^32 seconds. */
export function validateTokenExpiration(request: JsonObject, at: FieldPath): Finding[] {
  const expiration = optionalIntAt(request, "expirationSeconds");
  if (expiration === undefined) return [];
  if (expiration < 10 * 60)
    return [invalid(at, expiration, "may not specify a duration less than 10 minutes", asError)];
  if (expiration > 2 ** 32)
    return [invalid(at, expiration, "may not specify a duration larger than 2^32 seconds", asError)];
  return [];
}

/**
 * A serviceAccountToken source, as validateProjectionSources checks it: its
 * path is reported at the projected volume (`projected`), not at the source.
 * An unset expirationSeconds is defaulted to an hour first.
 */
function validateServiceAccountTokenProjection(token: JsonObject, path: FieldPath, projected: FieldPath): Finding[] {
  const out = validateTokenExpiration(token, child(path, "expirationSeconds"));
  const tokenPath = stringAt(token, "path");
  if (tokenPath === "") out.push(...requiredIfEmpty(token, "path", projected));
  else if (tokenPath !== undefined) out.push(...validateLocalNonReservedPath(tokenPath, child(projected, "path")));
  return out;
}

/**
 * Core's ValidateCSIDriverName of `o[key]` (a CSI volume source's `driver`, a VolumeAttachment's attacher, a CSINode
 * driver's name): Required when empty, at most 63 bytes, a DNS subdomain once lower-cased (the name as written the
 * bad value).
 */
export function validateCSIDriverName(o: JsonObject, path: FieldPath, key = "driver"): Finding[] {
  const driver = stringAt(o, key);
  if (driver === undefined) return [];
  const at = child(path, key);
  const out = requiredIfEmpty(o, key, path);
  if (byteLength(driver) > 63) out.push(tooLong(at, driver, 63, asError));
  out.push(...invalidEach(at, driver, isDNS1123Subdomain(driver.toLowerCase())));
  return out;
}

/** validateCSIVolumeSource with ValidateCSIDriverName. */
function validateCSIVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  const out = validateCSIDriverName(source, path);
  const secretRef = objectAt(source, "nodePublishSecretRef");
  const secretName = secretRef === undefined ? undefined : stringAt(secretRef, "name");
  if (secretName === "") out.push(required(child(path, "nodePublishSecretRef", "name"), "", asError));
  // Go reports a bad secret name at csi.name.
  else if (secretName !== undefined)
    out.push(...invalidEach(child(path, "name"), secretName, nameIsDNSSubdomain(secretName, false)));
  return out;
}

/**
 * validateEphemeralVolumeSource: a claim template, whose metadata
 * ValidateTemplateObjectMeta checks. Its spec (ValidatePersistentVolumeClaimSpec)
 * is not checked here.
 */
function validateEphemeralVolumeSource(source: JsonObject, path: FieldPath): Finding[] {
  if (!isSet(source, "volumeClaimTemplate")) return [required(child(path, "volumeClaimTemplate"), "", asError)];
  const metadata = objectAt(objectAt(source, "volumeClaimTemplate"), "metadata");
  return metadata === undefined
    ? []
    : validateTemplateObjectMeta(metadata, child(path, "volumeClaimTemplate", "metadata"));
}

/** ObjectMeta's fields other than labels and annotations, as validateFieldAllowList names their Go fields. */
const templateMetaForbidden: readonly [string, string][] = [
  ["name", "name"],
  ["generateName", "generateName"],
  ["namespace", "namespace"],
  ["selfLink", "selfLink"],
  ["uid", "uID"],
  ["resourceVersion", "resourceVersion"],
  ["generation", "generation"],
  ["creationTimestamp", "creationTimestamp"],
  ["deletionTimestamp", "deletionTimestamp"],
  ["deletionGracePeriodSeconds", "deletionGracePeriodSeconds"],
  ["ownerReferences", "ownerReferences"],
  ["finalizers", "finalizers"],
  ["managedFields", "managedFields"],
];

/**
 * ValidateTemplateObjectMeta: annotations and labels valid, every other
 * field unset. An empty list counts as unset here (Go's reflect.DeepEqual
 * would tell it from nil).
 */
export function validateTemplateObjectMeta(metadata: JsonObject, path: FieldPath): Finding[] {
  const out = validateAnnotations(objectAt(metadata, "annotations"), child(path, "annotations"));
  out.push(...validateLabels(stringMapAt(metadata, "labels"), child(path, "labels")));
  for (const [key, goName] of templateMetaForbidden) {
    const value = getKey(metadata, key);
    const zero = value === undefined || value === null || value === "" || value === 0;
    if (!zero && !(Array.isArray(value) && value.length === 0))
      out.push(forbidden(child(path, goName), "cannot be set", asError));
  }
  return out;
}
