/**
 * A pod spec's operating system and its Windows options, as
 * pkg/apis/core/validation/validation.go checks them: validateOS, and then
 * validateLinux or validateWindows (ValidatePodSpec calls one of them when
 * `os.name` is valid), validateWindowsSecurityContextOptions (called for the
 * pod's security context by validatePodSpecSecurityContext and for each
 * container's by ValidateSecurityContext), and validateWindowsHostProcessPod
 * (called for every pod, whatever its OS).
 *
 * validateWindowsHostProcessPod also refuses hostProcess containers when the
 * cluster disallows privileged containers (`capabilities.Get().AllowPrivileged`,
 * the API server's --allow-privileged): kunion assumes they are allowed, as
 * security.ts does for `privileged`, so that rule is not checked.
 *
 * In the API server's internal types the pod's `hostNetwork`, `hostPID`,
 * `hostIPC`, `hostUsers` and `shareProcessNamespace` sit in its security
 * context, which the conversion from v1 always creates: they are read from
 * the spec, and reported at `spec.hostPID` and so on, as the server does.
 *
 * Releases (kunion checks 1.32 to 1.36): the OS field (IdentifyPodOS) and
 * HostProcess containers are GA before 1.32, their rules hold in every
 * release. Some fields the Windows rules forbid exist only behind a feature
 * gate; where the gate is off the server drops the field before validating,
 * so the rule bites from the release that turns the gate on by default:
 * `hostUsers` (UserNamespacesSupport), `securityContext.supplementalGroupsPolicy`
 * (SupplementalGroupsPolicy) and `securityContext.seLinuxChangePolicy`
 * (SELinuxChangePolicy, the field itself new in 1.32) from 1.33. A
 * container's `procMount` is forced to "Default", not dropped, when its gate
 * (ProcMountType) is off, so it is refused for a Windows pod in every release.
 */
import type { Finding } from "../../findings/index.js";
import { byteLength, isDNS1123Subdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  required,
  setStringAt,
  stringAt,
} from "./common.js";

/** validOS, as sets.List sorts it. */
const validOS = ["linux", "windows"];

const windowsPod = "cannot be set for a windows pod";
const linuxPod = "windows options cannot be set for a linux pod";

/**
 * Each container with its path, in podshelper.VisitContainersWithPath's
 * order: init containers, containers, then ephemeral containers.
 */
function visitContainers(spec: JsonObject, path: FieldPath): [FieldPath, JsonObject][] {
  const out: [FieldPath, JsonObject][] = [];
  for (const list of ["initContainers", "containers", "ephemeralContainers"])
    for (const [i, ctr] of objectItems(spec, list)) out.push([child(path, list, i), ctr]);
  return out;
}

/** A `*bool` as Go decodes it: undefined when unset (or not a boolean, left to the schema). */
function optionalBool(o: JsonObject | undefined, key: string): boolean | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  return typeof v === "boolean" ? v : undefined;
}

/**
 * validatePodOS: all that ValidatePodSpec checks of the pod's OS and Windows
 * options, for the spec at `path` (`spec`, `spec.template.spec`, …), in the
 * server's order: each container's windowsOptions (containers, init
 * containers, ephemeral containers, as validateContainers and its siblings
 * visit them), the pod's, validateWindowsHostProcessPod, then the OS.
 */
export function validatePodOS(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  const out: Finding[] = [];
  for (const list of ["containers", "initContainers", "ephemeralContainers"])
    for (const [i, ctr] of objectItems(spec, list)) {
      const at = child(path, list, i, "securityContext", "windowsOptions");
      out.push(
        ...validateWindowsSecurityContextOptions(objectAt(objectAt(ctr, "securityContext"), "windowsOptions"), at),
      );
    }
  out.push(
    ...validateWindowsSecurityContextOptions(
      objectAt(objectAt(spec, "securityContext"), "windowsOptions"),
      child(path, "securityContext", "windowsOptions"),
    ),
  );
  out.push(...validateWindowsHostProcessPod(spec, path));

  const os = objectAt(spec, "os");
  if (os === undefined) return out;
  const osErrs = validateOS(os, child(path, "os"));
  if (osErrs !== undefined) {
    out.push(...osErrs);
    return out;
  }
  const name = stringAt(os, "name");
  if (name === "linux") out.push(...validateLinux(spec, path));
  else if (name === "windows") out.push(...validateWindows(spec, path, minor));
  return out;
}

/**
 * validateOS: a name is required (absent or "") and one of validOS, reported at `os` itself. Undefined when the
 * name is valid (or not a string, left to the schema).
 */
function validateOS(os: JsonObject, path: FieldPath): Finding[] | undefined {
  const name = isSet(os, "name") ? stringAt(os, "name") : "";
  if (name === undefined) return [];
  if (name === "") return [required(child(path, "name"), "cannot be empty", asError)];
  return validOS.includes(name) ? undefined : [notSupported(path, name, validOS, asError)];
}

/** validateLinux: no windowsOptions, on the pod or on any container. */
function validateLinux(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (isSet(objectAt(spec, "securityContext"), "windowsOptions"))
    out.push(forbidden(child(path, "securityContext", "windowsOptions"), linuxPod, asError));
  for (const [at, ctr] of visitContainers(spec, path))
    if (isSet(objectAt(ctr, "securityContext"), "windowsOptions"))
      out.push(forbidden(child(at, "securityContext", "windowsOptions"), linuxPod, asError));
  return out;
}

/** The pod's fields validateWindows refuses, in its order, each `[holder, key]` (the spec or its security context). */
const podSecurityContextFields: ["spec" | "sc", string][] = [
  ["sc", "appArmorProfile"],
  ["sc", "seLinuxOptions"],
  ["spec", "hostUsers"],
  ["spec", "hostPID"],
  ["spec", "hostIPC"],
  ["sc", "seccompProfile"],
  ["sc", "fsGroup"],
  ["sc", "fsGroupChangePolicy"],
  ["sc", "sysctls"],
  ["spec", "shareProcessNamespace"],
  ["sc", "runAsUser"],
  ["sc", "runAsGroup"],
  ["sc", "supplementalGroups"],
  ["sc", "supplementalGroupsPolicy"],
  ["sc", "seLinuxChangePolicy"],
];

/** A container's security context fields validateWindows refuses, in its order. */
const containerSecurityContextFields = [
  "appArmorProfile",
  "seLinuxOptions",
  "seccompProfile",
  "capabilities",
  "readOnlyRootFilesystem",
  "privileged",
  "allowPrivilegeEscalation",
  "procMount",
  "runAsUser",
  "runAsGroup",
];

/**
 * Whether validateWindows sees the field as set: pointers and slices when not
 * nil (an empty list decodes to a non-nil slice), `sysctls` when not empty,
 * `hostPID` and `hostIPC` (plain booleans) when true.
 */
function setForWindows(holder: JsonObject | undefined, key: string): boolean {
  if (key === "sysctls") return listAt(holder, key).length > 0;
  if (key === "hostPID" || key === "hostIPC") return holder !== undefined && getKey(holder, key) === true;
  return isSet(holder, key);
}

/** Fields the server drops before validating until 1.33, where their feature gates turn on by default. */
const gatedUntil33 = new Set(["hostUsers", "supplementalGroupsPolicy", "seLinuxChangePolicy"]);

/** validateWindows: Linux-only fields of the pod's security context and of every container's, for release 1.`minor`. */
function validateWindows(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  const out: Finding[] = [];
  const sc = objectAt(spec, "securityContext");
  for (const [holder, key] of podSecurityContextFields) {
    if (minor < 33 && gatedUntil33.has(key)) continue;
    const inSpec = holder === "spec";
    if (setForWindows(inSpec ? spec : sc, key))
      out.push(forbidden(inSpec ? child(path, key) : child(path, "securityContext", key), windowsPod, asError));
  }
  for (const [at, ctr] of visitContainers(spec, path)) {
    const ctrSc = objectAt(ctr, "securityContext");
    if (ctrSc === undefined) continue;
    for (const key of containerSecurityContextFields)
      if (isSet(ctrSc, key)) out.push(forbidden(child(at, "securityContext", key), windowsPod, asError));
  }
  return out;
}

// ---------------------------------------------------------------------------
// validateWindowsSecurityContextOptions

/** maxGMSACredentialSpecLengthInKiB, and the limits of runAsUserName's parts (bytes, as Go's len). */
const maxGMSACredentialSpecKiB = 64;
const maxRunAsUserNameDomainLength = 256;
const maxRunAsUserNameUserLength = 104;

/** ctrlRegex: POSIX [:cntrl:], ASCII only in Go's regexp (U+0000 to U+001F and U+007F). */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
/** validNetBiosRegex: 1 to 15 characters (runes), none of \ / : * ? " < > |, not starting with a dot. */
const netBiosDomain = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
/** validWindowsUserDomainDNSRegex: DNS labels of either case joined by dots. */
const dnsLabel = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?";
const dnsDomain = new RegExp(`^${dnsLabel}(?:\\.${dnsLabel})*$`);
/** invalidUserNameCharsRegex and invalidUserNameDotsSpacesRegex. */
const invalidUserNameChars = /["/\\:;|=,+*?<>@[\]]/;
const onlyDotsAndSpaces = /^[. ]+$/;

/** validateWindowsSecurityContextOptions of the windowsOptions at `path`. */
function validateWindowsSecurityContextOptions(options: JsonObject | undefined, path: FieldPath): Finding[] {
  if (options === undefined) return [];
  const out: Finding[] = [];

  // gmsaCredentialSpecName names a GMSACredentialSpec custom resource.
  const specName = setStringAt(options, "gmsaCredentialSpecName");
  if (specName !== undefined)
    out.push(...invalidEach(child(path, "gmsaCredentialSpecName"), specName, isDNS1123Subdomain(specName)));

  const credSpec = setStringAt(options, "gmsaCredentialSpec");
  if (credSpec !== undefined) {
    const at = child(path, "gmsaCredentialSpec");
    if (credSpec === "") out.push(invalid(at, credSpec, "gmsaCredentialSpec cannot be an empty string", asError));
    else if (byteLength(credSpec) > maxGMSACredentialSpecKiB * 1024)
      out.push(invalid(at, credSpec, `gmsaCredentialSpec size must be under ${maxGMSACredentialSpecKiB} KiB`, asError));
  }

  const userName = setStringAt(options, "runAsUserName");
  if (userName !== undefined) out.push(...validateRunAsUserName(userName, child(path, "runAsUserName")));
  return out;
}

/** runAsUserName: `[DOMAIN\]USER`, the domain a NetBIOS or DNS name, the user of limited length and characters. */
function validateRunAsUserName(name: string, path: FieldPath): Finding[] {
  const bad = (detail: string) => invalid(path, name, detail, asError);
  if (name === "") return [bad("runAsUserName cannot be an empty string")];
  if (hasControlCharacter(name)) return [bad("runAsUserName cannot contain control characters")];
  const parts = name.split("\\");
  if (parts.length > 2) return [bad("runAsUserName cannot contain more than one backslash")];
  const [first = "", second] = parts;
  const hasDomain = second !== undefined;
  const domain = hasDomain ? first : "";
  const user = second ?? first;

  const out: Finding[] = [];
  if (byteLength(domain) >= maxRunAsUserNameDomainLength)
    out.push(bad(`runAsUserName's Domain length must be under ${maxRunAsUserNameDomainLength} characters`));
  if (hasDomain && !(netBiosDomain.test(domain) || dnsDomain.test(domain)))
    out.push(bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
  const userBytes = byteLength(user);
  if (userBytes === 0) out.push(bad("runAsUserName's User cannot be empty"));
  else if (userBytes > maxRunAsUserNameUserLength)
    out.push(bad(`runAsUserName's User length must not be longer than ${maxRunAsUserNameUserLength} characters`));
  if (onlyDotsAndSpaces.test(user)) out.push(bad("runAsUserName's User cannot contain only periods or spaces"));
  if (invalidUserNameChars.test(user))
    out.push(bad(`runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`));
  return out;
}

// ---------------------------------------------------------------------------
// validateWindowsHostProcessPod

/**
 * validateWindowsHostProcessPod, for every pod: a container's hostProcess
 * must equal the pod's when both are set; if any container is a HostProcess
 * container (set, or inherited from the pod), all must be, and the pod must
 * use the host's network.
 */
function validateWindowsHostProcessPod(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const podHostProcess = optionalBool(objectAt(objectAt(spec, "securityContext"), "windowsOptions"), "hostProcess");
  const hostNetwork = getKey(spec, "hostNetwork") === true;
  let containers = 0;
  let hostProcessContainers = 0;
  for (const [at, ctr] of visitContainers(spec, path)) {
    containers++;
    const own = optionalBool(objectAt(objectAt(ctr, "securityContext"), "windowsOptions"), "hostProcess");
    if (podHostProcess !== undefined && own !== undefined && own !== podHostProcess)
      out.push(
        invalid(
          child(at, "securityContext", "windowsOptions", "hostProcess"),
          own,
          `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
          asError,
        ),
      );
    if (own ?? podHostProcess) hostProcessContainers++;
  }
  if (hostProcessContainers > 0) {
    if (hostProcessContainers !== containers)
      out.push(
        invalid(
          path,
          "",
          "If pod contains any hostProcess containers then all containers must be HostProcess containers",
          asError,
        ),
      );
    if (!hostNetwork)
      out.push(
        invalid(
          child(path, "hostNetwork"),
          false,
          "hostNetwork must be true if pod contains any hostProcess containers",
          asError,
        ),
      );
  }
  return out;
}
