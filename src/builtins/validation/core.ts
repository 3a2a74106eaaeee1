/**
 * core/v1 kinds other than the pod spec itself (pkg/apis/core/validation/validation.go):
 * ValidateService and validateServicePort, the persistent volume and claim
 * specs, ValidateConfigMap, ValidateSecret,
 * and the pod-holding kinds (Pod, PodTemplate, ReplicationController), whose
 * pod spec is pod.ts's.
 */
import { type Finding, tooLong } from "../../findings/index.js";
import { byteLength, isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import { controllerPodSpec, restartAlways } from "./apps.js";
import {
  asError,
  duplicate,
  forbidden,
  intAt,
  invalid,
  invalidEach,
  isSet,
  isValidPortNum,
  listAt,
  nonNegativeAt,
  notSupported,
  objectAt,
  objectItems,
  oneOf,
  portNumOrName,
  required,
  stringAt,
  stringMapAt,
  templateLabels,
  validateLabels,
} from "./common.js";
import { portProtocols, validatePodSpec } from "./pod.js";

export function validatePod(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  return s === undefined ? [] : validatePodSpec(s, ["spec"]);
}

export function validatePodTemplate(object: JsonObject): Finding[] {
  const s = objectAt(objectAt(object, "template"), "spec");
  return s === undefined ? [] : validatePodSpec(s, ["template", "spec"]);
}

/**
 * ValidateReplicationControllerSpec. An empty selector is defaulted to the
 * template's labels (v1 SetDefaults_ReplicationController), so it always matches.
 */
export function validateReplicationController(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const spec = ["spec"];
  const out = [...nonNegativeAt(s, "replicas", spec), ...nonNegativeAt(s, "minReadySeconds", spec)];
  const template = objectAt(s, "template");
  const templateAt = child(spec, "template");
  const selector = stringMapAt(s, "selector");
  const labels = new Map(stringMapAt(objectAt(template, "metadata"), "labels"));
  if (template !== undefined && selector.some(([k, v]) => labels.get(k) !== v))
    out.push(
      invalid(
        child(templateAt, "metadata", "labels"),
        templateLabels(template),
        "`selector` does not match template `labels`",
        asError,
      ),
    );
  const podSpec = objectAt(template, "spec");
  if (podSpec !== undefined) out.push(...controllerPodSpec(podSpec, child(templateAt, "spec")));
  out.push(...restartAlways(template, templateAt));
  return out;
}

// ---------------------------------------------------------------------------
// Services

const isHeadless = (s: JsonObject) => stringAt(s, "clusterIP") === "None" || listAt(s, "clusterIPs")[0] === "None";

export function validateService(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec") ?? {};
  const spec = ["spec"];
  const out: Finding[] = [];
  const type = stringAt(s, "type") || "ClusterIP";
  const ports = objectItems(s, "ports");
  // Unset, both are defaulted (ClusterIP, None).
  out.push(...oneOf(s, "type", spec, ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]));
  out.push(...oneOf(s, "sessionAffinity", spec, ["ClientIP", "None"]));
  if (type !== "ExternalName") {
    out.push(...oneOf(s, "ipFamilyPolicy", spec, ["PreferDualStack", "RequireDualStack", "SingleStack"]));
    listAt(s, "ipFamilies").forEach((family, i) => {
      if (typeof family === "string" && family !== "IPv4" && family !== "IPv6")
        out.push(notSupported(child(spec, "ipFamilies", i), family, ["IPv4", "IPv6"], asError));
    });
  }
  out.push(...oneOf(s, "internalTrafficPolicy", spec, ["Cluster", "Local"]));
  if (listAt(s, "ports").length === 0 && !isHeadless(s) && type !== "ExternalName")
    out.push(required(child(spec, "ports"), "", asError));
  switch (type) {
    case "LoadBalancer":
    case "NodePort":
      if (isHeadless(s))
        out.push(
          invalid(child(spec, "clusterIPs", 0), "None", `may not be set to 'None' for ${type} services`, asError),
        );
      break;
    case "ExternalName": {
      // The strategy copies clusterIP into clusterIPs before validation.
      if (stringAt(s, "clusterIP") || listAt(s, "clusterIPs").length > 0)
        out.push(forbidden(child(spec, "clusterIPs"), "may not be set for ExternalName services", asError));
      if (listAt(s, "ipFamilies").length > 0)
        out.push(forbidden(child(spec, "ipFamilies"), "may not be set for ExternalName services", asError));
      if (isSet(s, "ipFamilyPolicy"))
        out.push(forbidden(child(spec, "ipFamilyPolicy"), "may not be set for ExternalName services", asError));
      const externalName = stringAt(s, "externalName");
      if (externalName !== undefined) {
        // A trailing dot marks a fully qualified name.
        const cname = externalName.endsWith(".") ? externalName.slice(0, -1) : externalName;
        if (cname === "") out.push(required(child(spec, "externalName"), "", asError));
        else out.push(...invalidEach(child(spec, "externalName"), cname, isDNS1123Subdomain(cname)));
      }
      break;
    }
  }
  const names = new Set<string>();
  for (const [i, port] of ports)
    out.push(...validateServicePort(port, ports.length > 1, names, child(spec, "ports", i)));
  out.push(...validateLabels(stringMapAt(s, "selector"), child(spec, "selector")));
  if (type === "ClusterIP") {
    for (const [i, port] of ports)
      if (intAt(port, "nodePort"))
        out.push(forbidden(child(spec, "ports", i, "nodePort"), "may not be used when `type` is 'ClusterIP'", asError));
  }
  const nodePorts = new Set<string>();
  const portKeys = new Set<string>();
  for (const [i, port] of ports) {
    const protocol = stringAt(port, "protocol") || "TCP";
    const nodePort = intAt(port, "nodePort");
    if (nodePort) {
      const key = `${protocol}/${nodePort}`;
      if (nodePorts.has(key)) out.push(duplicate(child(spec, "ports", i, "nodePort"), nodePort));
      nodePorts.add(key);
    }
    const number = intAt(port, "port");
    const key = `${protocol}/${number}`;
    // The server prints the key as a Go struct; kunion as the two fields that make it.
    if (portKeys.has(key)) out.push(duplicate(child(spec, "ports", i), { protocol, port: number ?? 0 }));
    portKeys.add(key);
  }
  if (listAt(s, "loadBalancerSourceRanges").length > 0 && type !== "LoadBalancer")
    out.push(
      forbidden(child(spec, "LoadBalancerSourceRanges"), "may only be used when `type` is 'LoadBalancer'", asError),
    );
  if (isSet(s, "allocateLoadBalancerNodePorts") && type !== "LoadBalancer")
    out.push(
      forbidden(
        child(spec, "allocateLoadBalancerNodePorts"),
        "may only be used when `type` is 'LoadBalancer'",
        asError,
      ),
    );
  const externallyAccessible =
    type === "LoadBalancer" || type === "NodePort" || (type === "ClusterIP" && listAt(s, "externalIPs").length > 0);
  const trafficPolicy = stringAt(s, "externalTrafficPolicy");
  if (!externallyAccessible && trafficPolicy)
    out.push(
      invalid(
        child(spec, "externalTrafficPolicy"),
        trafficPolicy,
        "may only be set for externally-accessible services",
        asError,
      ),
    );
  else if (externallyAccessible) out.push(...oneOf(s, "externalTrafficPolicy", spec, ["Cluster", "Local"]));
  return out;
}

function validateServicePort(port: JsonObject, requireName: boolean, names: Set<string>, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(port, "name");
  if (requireName && name === "") out.push(required(child(path, "name"), "", asError));
  else if (name) {
    out.push(...invalidEach(child(path, "name"), name, isDNS1123Label(name)));
    if (names.has(name)) out.push(duplicate(child(path, "name"), name));
    else names.add(name);
  }
  const number = intAt(port, "port");
  if (number !== undefined && Object.hasOwn(port, "port"))
    out.push(...invalidEach(child(path, "port"), number, isValidPortNum(number)));
  // An unset targetPort (0 or "") is defaulted to the port (SetDefaults_Service).
  const target = getKey(port, "targetPort");
  const unset = target === undefined || target === null || target === 0 || target === "";
  if (!unset) out.push(...portNumOrName(target, child(path, "targetPort")));
  else if (number !== undefined && Object.hasOwn(port, "port"))
    out.push(...invalidEach(child(path, "targetPort"), number, isValidPortNum(number)));
  // An unset protocol is defaulted to TCP.
  out.push(...oneOf(port, "protocol", path, portProtocols));
  const appProtocol = stringAt(port, "appProtocol");
  if (appProtocol !== undefined && isSet(port, "appProtocol"))
    out.push(...invalidEach(child(path, "appProtocol"), appProtocol, isQualifiedName(appProtocol)));
  return out;
}

// ---------------------------------------------------------------------------
// Persistent volumes and claims

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

/** ValidatePersistentVolumeClaimSpec's required fields and enums. */
export function validatePersistentVolumeClaim(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  if (s === undefined) return [];
  const spec = ["spec"];
  const out = validateAccessModes(s, spec, "at least 1 access mode is required");
  if (!isSet(objectAt(objectAt(s, "resources"), "requests"), "storage"))
    out.push(required(child(spec, "resources", { key: "storage" }), "", asError));
  out.push(...oneOf(s, "volumeMode", spec, volumeModes));
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
  ];
}

// ---------------------------------------------------------------------------
// ConfigMaps and Secrets

/** core.MaxSecretSize: the data of a ConfigMap or a Secret, 1 MiB in all. */
const maxSize = 1024 * 1024;

/** validation.IsConfigMapKey. */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (byteLength(key) > 253) errs.push("must be no more than 253 characters");
  if (!/^[-._a-zA-Z0-9]+$/.test(key))
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  if (key === ".") errs.push("must not be '.'");
  else if (key === "..") errs.push("must not be '..'");
  else if (key.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}

/** The length of what a base64 text decodes to (the `byte` format; a malformed one is the schema's). */
function decodedLength(text: string): number {
  const clean = text.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

export function validateConfigMap(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const data = objectAt(object, "data") ?? {};
  const binaryData = objectAt(object, "binaryData") ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    const at = ["data", { key }];
    out.push(...invalidEach(at, key, isConfigMapKey(key)));
    if (Object.hasOwn(binaryData, key)) out.push(invalid(at, key, "duplicate of key present in binaryData", asError));
    if (typeof value === "string") total += byteLength(value);
  }
  for (const [key, value] of Object.entries(binaryData)) {
    out.push(...invalidEach(["binaryData", { key }], key, isConfigMapKey(key)));
    if (typeof value === "string") total += decodedLength(value);
  }
  if (total > maxSize) out.push(tooLong([], undefined, maxSize));
  return out;
}

/**
 * ValidateSecret, after conversion has merged `stringData` into `data`
 * (a stringData key wins), so both are reported under `data`.
 */
export function validateSecret(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const sizes = new Map<string, number>();
  for (const [key, value] of Object.entries(objectAt(object, "data") ?? {}))
    if (typeof value === "string") sizes.set(key, decodedLength(value));
  for (const [key, value] of Object.entries(objectAt(object, "stringData") ?? {}))
    if (typeof value === "string") sizes.set(key, byteLength(value));
  let total = 0;
  for (const [key, size] of sizes) {
    out.push(...invalidEach(["data", { key }], key, isConfigMapKey(key)));
    total += size;
  }
  if (total > maxSize) out.push(tooLong(["data"], undefined, maxSize));
  const requiredKey = (key: string) => required(["data", { key }], "", asError);
  switch (stringAt(object, "type")) {
    case "kubernetes.io/service-account-token": {
      const annotations = objectAt(objectAt(object, "metadata"), "annotations");
      const name = annotations === undefined ? undefined : getKey(annotations, "kubernetes.io/service-account.name");
      if (typeof name !== "string" || name === "")
        out.push(required(["metadata", "annotations", { key: "kubernetes.io/service-account.name" }], "", asError));
      break;
    }
    case "kubernetes.io/dockercfg":
      if (!sizes.has(".dockercfg")) out.push(requiredKey(".dockercfg"));
      break;
    case "kubernetes.io/dockerconfigjson":
      if (!sizes.has(".dockerconfigjson")) out.push(requiredKey(".dockerconfigjson"));
      break;
    case "kubernetes.io/basic-auth":
      if (!sizes.has("username") && !sizes.has("password")) out.push(requiredKey("username"), requiredKey("password"));
      break;
    case "kubernetes.io/ssh-auth":
      if (!sizes.get("ssh-privatekey")) out.push(requiredKey("ssh-privatekey"));
      break;
    case "kubernetes.io/tls":
      if (!sizes.has("tls.crt")) out.push(requiredKey("tls.crt"));
      if (!sizes.has("tls.key")) out.push(requiredKey("tls.key"));
      break;
  }
  return out;
}
