/**
 * Security contexts, as pkg/apis/core/validation checks them: the pod's
 * (validatePodSpecSecurityContext, validateSysctls, ValidateHostSysctl) and
 * a container's (ValidateSecurityContext). The seccomp and AppArmor profile
 * rules are checked elsewhere (unions/wording.ts); `privileged` against the
 * cluster's --allow-privileged is not checked, the cluster is unknown here.
 *
 * In the API server's internal types the pod's host namespaces
 * (`hostNetwork`, `hostPID`, `hostIPC`) and `shareProcessNamespace` sit in
 * its security context, which is never nil: they are read from the spec, and
 * reported under `securityContext`, as the server does.
 */
import type { Finding } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  inclusiveRangeError,
  invalid,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  required,
  stringAt,
} from "./common.js";

/**
 * An enum the server neither defaults nor skips when empty (a Go pointer, or
 * a string it checks as is): checked whenever set, an empty string too, a
 * NotSupported listing `supported` in the source's order.
 */
export function setOneOf(o: JsonObject, key: string, path: FieldPath, supported: readonly string[]): Finding[] {
  const value = stringAt(o, key);
  if (!isSet(o, key) || value === undefined || supported.includes(value)) return [];
  return [notSupported(child(path, key), value, supported, asError)];
}

/** validation.IsValidUserID and IsValidGroupID: the same range, 0 to MaxInt32. */
function idRange(value: number | undefined, path: FieldPath): Finding[] {
  return value !== undefined && (value < 0 || value > 2147483647)
    ? [invalid(path, value, inclusiveRangeError(0, 2147483647), asError)]
    : [];
}

/** validatePodSpecSecurityContext of the spec at `path` (`spec`, `spec.template.spec`, …). */
export function validatePodSecurityContext(spec: JsonObject, path: FieldPath): Finding[] {
  const at = child(path, "securityContext");
  const sc = objectAt(spec, "securityContext");
  const out: Finding[] = [];
  for (const key of ["fsGroup", "runAsUser", "runAsGroup"])
    out.push(...idRange(optionalIntAt(sc, key), child(at, key)));
  listAt(sc, "supplementalGroups").forEach((gid, g) => {
    if (typeof gid === "number" && Number.isInteger(gid)) out.push(...idRange(gid, child(at, "supplementalGroups", g)));
  });
  if (getKey(spec, "shareProcessNamespace") === true && getKey(spec, "hostPID") === true)
    out.push(
      invalid(
        child(at, "shareProcessNamespace"),
        true,
        "ShareProcessNamespace and HostPID cannot both be enabled",
        asError,
      ),
    );
  if (sc === undefined) return out;
  out.push(...validateSysctls(sc, spec, child(at, "sysctls")));
  // validateFSGroupChangePolicy and validateSupplementalGroupsPolicy, sets.List order.
  out.push(...setOneOf(sc, "fsGroupChangePolicy", at, ["Always", "OnRootMismatch"]));
  out.push(...setOneOf(sc, "supplementalGroupsPolicy", at, ["Merge", "Strict"]));
  return out;
}

/** SysctlContainSlashFmt, anchored, as the message prints it. */
const sysctlRegex = "^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";
const sysctlSegment = /^[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;

/** IsValidSysctlName: segments joined by dots or slashes (split first, so the check stays linear). */
const isValidSysctlName = (name: string) =>
  name.length <= 253 && name.split(/[./]/).every((segment) => sysctlSegment.test(segment));

/** validateSysctls: names required, well formed and unique, and not of a namespace shared with the host. */
function validateSysctls(sc: JsonObject, spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const names = new Set<string>();
  for (const [i, sysctl] of objectItems(sc, "sysctls")) {
    const name = stringAt(sysctl, "name");
    if (name === undefined) continue;
    const at = child(path, i, "name");
    // An absent name is the schema's required field.
    if (name === "") {
      if (Object.hasOwn(sysctl, "name")) out.push(required(at, "", asError));
    } else if (!isValidSysctlName(name))
      out.push(invalid(at, name, `must have at most 253 characters and match regex ${sysctlRegex}`, asError));
    else if (names.has(name)) out.push(duplicate(at, name, asError));
    // ValidateHostSysctl (namespaced sysctls may stay only on an update of a pod that had them).
    const namespace = sysctlNamespace(name);
    if (namespace === "Net" && getKey(spec, "hostNetwork") === true)
      out.push(invalid(at, name, "may not be specified when 'hostNetwork' is true", asError));
    else if (namespace === "IPC" && getKey(spec, "hostIPC") === true)
      out.push(invalid(at, name, "may not be specified when 'hostIPC' is true", asError));
    names.add(name);
  }
  return out;
}

/** component-helpers sysctl nameToNamespace: the IPC sysctls known by name. */
const ipcSysctls = new Set([
  "kernel.sem",
  "kernel.shmall",
  "kernel.shmmax",
  "kernel.shmmni",
  "kernel.shm_rmid_forced",
  "kernel.shm",
  "kernel.msgmax",
  "kernel.msgmnb",
  "kernel.msgmni",
  "kernel.msg",
]);

/**
 * component-helpers sysctl GetNamespace: the kernel namespace of a sysctl
 * (NormalizeName, cut at the first `*`), or "" when it is not namespaced.
 */
function sysctlNamespace(sysctl: string): "IPC" | "Net" | "" {
  let name = sysctl;
  // NormalizeName: a name whose first separator is a slash has its dots and slashes swapped.
  if (/^[^./]*\//.test(name)) name = name.replace(/[./]/g, (c) => (c === "." ? "/" : "."));
  const star = name.indexOf("*");
  if (star >= 0) name = name.slice(0, star);
  if (ipcSysctls.has(name) || name.startsWith("fs.mqueue.")) return "IPC";
  return name.startsWith("net.") ? "Net" : "";
}

/**
 * ValidateSecurityContext of a container, at its `securityContext`.
 * `hostUsers` is the pod's `spec.hostUsers` (true unless it is false).
 */
export function validateSecurityContext(sc: JsonObject, path: FieldPath, hostUsers: boolean): Finding[] {
  const out: Finding[] = [];
  for (const key of ["runAsUser", "runAsGroup"]) out.push(...idRange(optionalIntAt(sc, key), child(path, key)));
  // ValidateProcMountType: on by default since 1.33 (ProcMountType).
  out.push(...setOneOf(sc, "procMount", path, ["Default", "Unmasked"]));
  if (hostUsers && stringAt(sc, "procMount") === "Unmasked")
    out.push(invalid(child(path, "procMount"), "Unmasked", "`hostUsers` must be false to use `Unmasked`", asError));
  // The server prints the security context as a Go struct; kunion as written.
  if (getKey(sc, "allowPrivilegeEscalation") === false) {
    if (getKey(sc, "privileged") === true)
      out.push(invalid(path, sc, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true", asError));
    for (const cap of listAt(objectAt(sc, "capabilities"), "add"))
      if (cap === "CAP_SYS_ADMIN")
        out.push(
          invalid(
            path,
            sc,
            "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            asError,
          ),
        );
  }
  return out;
}
