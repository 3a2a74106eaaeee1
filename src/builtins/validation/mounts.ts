/**
 * What a container's volume mounts must satisfy beyond a name, a mount path and their uniqueness, and its
 * volume devices (raw block volumes): pkg/apis/core/validation/validation.go ValidateVolumeMounts from its
 * volumeDevices checks on, validateLocalDescendingPath, validatePathNoBacksteps, validateMountPropagation,
 * validateMountRecursiveReadOnly, ValidateVolumeDevices, and the name → path maps GetVolumeMountMap and
 * GetVolumeDeviceMap that validateContainerCommon builds for the two to check each other.
 *
 * Go reports a mount's `subPath`, `subPathExpr`, `mountPropagation` and `recursiveReadOnly` at
 * `<container>.volumeMounts.<field>`, without the mount's index (it passes `fldPath.Child(...)`, not
 * `idxPath.Child(...)`); only "subPathExpr and subPath are mutually exclusive" carries the index. Two mounts
 * with the same fault therefore say the same words, which ErrorList.ToAggregate prints once.
 *
 * The same in every release from 1.32 to 1.36. The one rule that changed: 1.32's "not allowed in image volume
 * sources" on a subPath or subPathExpr of an image volume, removed in 1.33 when image volumes went beta with
 * subPath support. It is not checked here: with 1.32's defaults (ImageVolume alpha, off) the API server drops
 * image volumes and the mounts naming them before validating (pkg/api/pod dropImageVolumes), so it never fired.
 */
import type { Finding } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  notFound,
  notSupported,
  objectAt,
  objectItems,
  requiredIfEmpty,
  stringAt,
} from "./common.js";

/** validateMountPropagation's supported modes, as sets.List sorts them. */
const propagationModes = ["Bidirectional", "HostToContainer", "None"];

/** validateMountRecursiveReadOnly's supported values, as sets.List sorts them. */
const recursiveReadOnlyModes = ["Disabled", "Enabled", "IfPossible"];

/** `item: string` of each object of `list` whose `key` is a string (GetVolumeMountMap, GetVolumeDeviceMap). */
function pathsByName(ctr: JsonObject, list: string, key: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, item] of objectItems(ctr, list)) {
    const name = stringAt(item, "name");
    const path = stringAt(item, key);
    // A Go map: a later item of the same name replaces an earlier one's path.
    if (name !== undefined && path !== undefined) out.set(name, path);
  }
  return out;
}

/** GetVolumeDeviceMap: each of the container's volumeDevices, name → devicePath (the last of a name wins). */
export const volumeDeviceMap = (ctr: JsonObject): Map<string, string> =>
  pathsByName(ctr, "volumeDevices", "devicePath");

/** GetVolumeMountMap: each of the container's volumeMounts, name → mountPath (the last of a name wins). */
export const volumeMountMap = (ctr: JsonObject): Map<string, string> => pathsByName(ctr, "volumeMounts", "mountPath");

/**
 * validatePathNoBacksteps: a `..` element between slashes. The API server runs on Linux, where
 * filepath.ToSlash changes nothing: a backslash separates nothing.
 */
const hasBacksteps = (target: string): boolean => target.split("/").includes("..");

/** validateLocalDescendingPath's details: not absolute (path.IsAbs), then no `..` element (said once). */
export function localDescendingPathErrors(target: string): string[] {
  const errs: string[] = [];
  if (target.startsWith("/")) errs.push("must be a relative path");
  if (hasBacksteps(target)) errs.push("must not contain '..'");
  return errs;
}

/** The container's `securityContext.privileged`, as validateMountPropagation reads it: set and true. */
const isPrivileged = (ctr: JsonObject): boolean => {
  const sc = objectAt(ctr, "securityContext");
  return sc !== undefined && getKey(sc, "privileged") === true;
};

/**
 * ValidateVolumeMounts for the mount at `volumeMounts[index]` of `ctr`, from where pod.ts's loop stops
 * (after `mountPath`'s "must be unique") to the end of the loop body: the name and mount path against the
 * container's volumeDevices (`devices`, from volumeDeviceMap), subPath, subPathExpr (with "subPathExpr and
 * subPath are mutually exclusive" in its place between them), mountPropagation and recursiveReadOnly.
 * `path` is `<container>.volumeMounts`.
 */
export function validateMountDetails(
  ctr: JsonObject,
  mount: JsonObject,
  path: FieldPath,
  index: number,
  devices: ReadonlyMap<string, string>,
): Finding[] {
  const out: Finding[] = [];
  const at = child(path, index);

  // Overlap with the container's volumeDevices (mountNameAlreadyExists, mountPathAlreadyExists).
  const name = stringAt(mount, "name");
  if (name !== undefined && devices.has(name))
    out.push(invalid(child(at, "name"), name, "must not already exist in volumeDevices", asError));
  const mountPath = stringAt(mount, "mountPath");
  if (mountPath !== undefined && [...devices.values()].includes(mountPath))
    out.push(invalid(child(at, "mountPath"), mountPath, "must not already exist as a path in volumeDevices", asError));

  const subPath = stringAt(mount, "subPath");
  const subPathExpr = stringAt(mount, "subPathExpr");
  if (subPath) out.push(...invalidEach(child(path, "subPath"), subPath, localDescendingPathErrors(subPath)));
  if (subPathExpr) {
    if (subPath)
      out.push(
        invalid(child(at, "subPathExpr"), subPathExpr, "subPathExpr and subPath are mutually exclusive", asError),
      );
    out.push(...invalidEach(child(path, "subPathExpr"), subPathExpr, localDescendingPathErrors(subPathExpr)));
  }

  // validateMountPropagation, with the container at hand: Bidirectional only when it is privileged.
  const propagation = getKey(mount, "mountPropagation");
  if (typeof propagation === "string") {
    const propagationPath = child(path, "mountPropagation");
    if (!propagationModes.includes(propagation))
      out.push(notSupported(propagationPath, propagation, propagationModes, asError));
    if (propagation === "Bidirectional" && !isPrivileged(ctr))
      out.push(
        forbidden(
          propagationPath,
          "Bidirectional mount propagation is available only to privileged containers",
          asError,
        ),
      );
  }

  // validateMountRecursiveReadOnly (RecursiveReadOnlyMounts: beta and on since 1.31, GA in 1.33).
  const recursiveReadOnly = getKey(mount, "recursiveReadOnly");
  if (typeof recursiveReadOnly === "string") {
    const rroPath = child(path, "recursiveReadOnly");
    switch (recursiveReadOnly) {
      case "Disabled":
        break;
      case "Enabled":
      case "IfPossible":
        if (getKey(mount, "readOnly") !== true)
          out.push(forbidden(rroPath, "may only be specified when readOnly is true", asError));
        // Any mountPropagation set but None, an empty one too.
        if (typeof propagation === "string" && propagation !== "None")
          out.push(forbidden(rroPath, "may only be specified when mountPropagation is None or not specified", asError));
        break;
      default:
        out.push(notSupported(rroPath, recursiveReadOnly, recursiveReadOnlyModes, asError));
    }
  }
  return out;
}

/**
 * ValidateVolumeDevices of `ctr` at `path` (`<container>.volumeDevices`): each device names a volume
 * declared (and valid) in `volumes` whose source is a persistentVolumeClaim or an ephemeral volume, and a
 * device path without `..`; names and paths are unique in the list and none is one of the container's
 * volumeMounts' names or mount paths. An empty name or path is Required when present; absent, the schema's
 * `required` says so.
 */
export function validateVolumeDevices(
  ctr: JsonObject,
  path: FieldPath,
  volumes: ReadonlyMap<string, JsonObject>,
): Finding[] {
  const out: Finding[] = [];
  const mounts = volumeMountMap(ctr);
  const mountPaths = new Set(mounts.values());
  const names = new Set<string>();
  const paths = new Set<string>();
  for (const [i, device] of objectItems(ctr, "volumeDevices")) {
    const at = child(path, i);
    const name = stringAt(device, "name");
    const devicePath = stringAt(device, "devicePath");
    if (name === undefined || devicePath === undefined) continue;
    const namePath = child(at, "name");
    const devicePathPath = child(at, "devicePath");
    const volume = volumes.get(name);

    out.push(...requiredIfEmpty(device, "name", at));
    if (names.has(name)) out.push(invalid(namePath, name, "must be unique", asError));
    // isMatchedDevice: block mode needs a PersistentVolumeClaim, or a generic ephemeral volume's claim.
    if (volume !== undefined && !isSet(volume, "persistentVolumeClaim") && !isSet(volume, "ephemeral"))
      out.push(
        invalid(
          namePath,
          name,
          "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
          asError,
        ),
      );
    if (volume === undefined) out.push(notFound(namePath, name));

    out.push(...requiredIfEmpty(device, "devicePath", at));
    if (paths.has(devicePath)) out.push(invalid(devicePathPath, devicePath, "must be unique", asError));
    // A path with backsteps is not taken; any other is, the empty one too.
    if (devicePath !== "" && hasBacksteps(devicePath))
      out.push(invalid(devicePathPath, devicePath, "can not contain backsteps ('..')", asError));
    else paths.add(devicePath);

    // Overlap with the container's volumeMounts (deviceNameAlreadyExists, devicePathAlreadyExists).
    if (mounts.has(name)) out.push(invalid(namePath, name, "must not already exist in volumeMounts", asError));
    if (mountPaths.has(devicePath))
      out.push(invalid(devicePathPath, devicePath, "must not already exist as a path in volumeMounts", asError));
    if (name !== "") names.add(name);
  }
  return out;
}
