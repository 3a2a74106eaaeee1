/**
 * core/v1 kinds other than the pod spec itself (pkg/apis/core/validation/validation.go):
 * ValidateService and validateServicePort, ValidateConfigMap, ValidateSecret,
 * and the pod-holding kinds (Pod, PodTemplate, ReplicationController), whose
 * pod spec is pod.ts's.
 */
import { type Finding, tooLong } from "../../findings/index.js";
import {
  decodeBase64,
  GoError,
  type IP,
  isIPv6,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  isValidCIDRForLegacyField,
  isValidIPForLegacyField,
  parseIPSloppy,
  trimSpace,
  unmarshalIntoMapError,
} from "../../go/index.js";
import { byteLength, isConfigMapKey, isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { strictIPValidation } from "../releases.js";
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
  kubeFinalizerErrors,
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
  zeroIfAbsent,
} from "./common.js";
import {
  portProtocols,
  templateAfterPodSpec,
  validatePodCreate,
  validatePodSpec,
  validateTemplateMetadata,
} from "./pod.js";
import { validateAnnotationsMatchFields, validatePodSpecificAnnotations } from "./pod-annotations.js";
import {
  validateLoadBalancerClassField,
  validateServiceExternalTrafficPolicy,
  validateServiceSessionAffinity,
  validateServiceTopologyAnnotations,
  validateServiceTrafficDistribution,
} from "./service-rules.js";

export function validatePod(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec");
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const annotationsAt = ["metadata", "annotations"];
  if (s === undefined) return validatePodSpecificAnnotations(annotations, s, annotationsAt);
  return [
    ...validatePodSpecificAnnotations(annotations, s, annotationsAt),
    ...validatePodSpec(s, ["spec"], { minor, pod: true }),
    ...validatePodCreate(s, ["spec"]),
    ...validateAnnotationsMatchFields(annotations, s, ["spec"], { pod: true }),
  ];
}

export function validatePodTemplate(object: JsonObject, minor: number): Finding[] {
  const template = objectAt(object, "template");
  const s = zeroIfAbsent(template, "spec");
  const out = validateTemplateMetadata(template, ["template"]);
  if (s !== undefined) out.push(...validatePodSpec(s, ["template", "spec"], { minor }));
  out.push(...templateAfterPodSpec(template, ["template"]));
  return out;
}

/**
 * ValidateReplicationControllerSpec. An empty selector is defaulted to the
 * template's labels (v1 SetDefaults_ReplicationController), so it always matches.
 */
export function validateReplicationController(object: JsonObject, minor: number): Finding[] {
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
  // ValidatePodTemplateSpecForRC: the template is a pointer, and required; without one, no labels default an
  // empty selector (ValidateNonEmptySelector)
  if (!isSet(s, "template")) {
    if (selector.length === 0) out.push(required(child(spec, "selector"), "", asError));
    return [...out, required(templateAt, "", asError)];
  }
  if (template === undefined) return out; // not an object: the schema's
  out.push(...validateTemplateMetadata(template, templateAt));
  out.push(...controllerPodSpec(template, templateAt, minor));
  out.push(...restartAlways(template, templateAt));
  return out;
}

// ---------------------------------------------------------------------------
// Services

/**
 * The cluster IPs validation sees: on create the registry first copies a lone `clusterIP` into
 * `clusterIPs` (normalizeClusterIPs), never the other way.
 */
function clusterIPsOf(s: JsonObject): JsonValue[] {
  const ips = listAt(s, "clusterIPs");
  const ip = stringAt(s, "clusterIP");
  return ips.length === 0 && ip ? [ip] : ips;
}

/** isHeadlessService. */
const isHeadless = (ips: readonly JsonValue[]) => ips.length === 1 && ips[0] === "None";

const sourceRangesAnnotation = "service.beta.kubernetes.io/load-balancer-source-ranges";

/**
 * ValidateService on create. From 1.36, where StrictIPCIDRValidation is on by default, the IP and CIDR
 * fields are validated strictly (no leading zeros, no IPv4-mapped IPv6, no bits past the prefix length);
 * before, those pass and the server warns (warnings.ts). `loadBalancerIP` is not validated (the server
 * only warns about a non-standard one).
 */
export function validateService(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec") ?? {};
  const strict = strictIPValidation(minor);
  const spec = ["spec"];
  const out: Finding[] = validateServiceTopologyAnnotations(object);
  const type = stringAt(s, "type") || "ClusterIP";
  const ports = objectItems(s, "ports");
  const ips = clusterIPsOf(s);
  // Unset, it is defaulted to ClusterIP.
  out.push(...oneOf(s, "type", spec, ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]));
  if (listAt(s, "ports").length === 0 && !isHeadless(ips) && type !== "ExternalName")
    out.push(required(child(spec, "ports"), "", asError));
  switch (type) {
    case "LoadBalancer":
    case "NodePort":
      if (isHeadless(ips))
        out.push(
          invalid(child(spec, "clusterIPs", 0), "None", `may not be set to 'None' for ${type} services`, asError),
        );
      break;
    case "ExternalName": {
      if (ips.length > 0)
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
  out.push(...validateServiceSessionAffinity(s));
  if (type !== "ExternalName") out.push(...validateServiceClusterIPsRelatedFields(s, ips, spec, strict));
  listAt(s, "externalIPs").forEach((value, i) => {
    if (typeof value !== "string") return;
    const at = child(spec, "externalIPs", i);
    const errs = isValidIPForLegacyField(value, strict);
    // For historical reasons the server then applies ValidateEndpointIP.
    out.push(...(errs.length > 0 ? invalidEach(at, value, errs) : validateEndpointIP(value, at)));
  });
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
  out.push(...validateSourceRanges(object, s, type, spec, strict));
  if (isSet(s, "allocateLoadBalancerNodePorts") && type !== "LoadBalancer")
    out.push(
      forbidden(
        child(spec, "allocateLoadBalancerNodePorts"),
        "may only be used when `type` is 'LoadBalancer'",
        asError,
      ),
    );
  out.push(
    ...validateLoadBalancerClassField(s),
    ...validateServiceExternalTrafficPolicy(s),
    ...oneOf(s, "internalTrafficPolicy", spec, ["Cluster", "Local"]),
    ...validateServiceTrafficDistribution(s, minor),
  );
  return out;
}

/**
 * ValidateServiceClusterIPsRelatedFields on create: `clusterIP` and `clusterIPs` agree, the IP
 * families and policy are known, and the cluster IPs are valid, at most one of each family and of
 * the families given.
 */
function validateServiceClusterIPsRelatedFields(
  s: JsonObject,
  ips: JsonValue[],
  spec: FieldPath,
  strict: boolean,
): Finding[] {
  const out: Finding[] = [];
  const at = child(spec, "clusterIPs");
  const clusterIP = stringAt(s, "clusterIP");
  // A clusterIP is never without clusterIPs here (clusterIPsOf).
  if (clusterIP && ips[0] !== clusterIP) out.push(invalid(at, ips, "first value must match `clusterIP`", asError));
  else if (clusterIP === "" && ips.length > 0)
    out.push(invalid(at, ips, "must be empty when `clusterIP` is not specified", asError));
  const families = listAt(s, "ipFamilies");
  const seen = new Set<JsonValue>();
  families.forEach((family, i) => {
    if (typeof family !== "string") return;
    if (family !== "IPv4" && family !== "IPv6")
      out.push(notSupported(child(spec, "ipFamilies", i), family, ["IPv4", "IPv6"], asError));
    if (seen.has(family)) out.push(duplicate(child(spec, "ipFamilies", i), family));
    seen.add(family);
  });
  out.push(...oneOf(s, "ipFamilyPolicy", spec, ["PreferDualStack", "RequireDualStack", "SingleStack"]));
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === "None") {
      if (ips.length > 1) {
        invalidIPs = true;
        out.push(invalid(at, ips, "'None' must be the first and only value", asError));
      }
      return;
    }
    if (typeof ip !== "string") {
      invalidIPs = true; // the schema's: the server never gets this far
      return;
    }
    const errs = isValidIPForLegacyField(ip, strict);
    if (errs.length > 0) invalidIPs = true;
    out.push(...invalidEach(child(at, i), ip, errs));
  });
  if (ips.length > 2) out.push(invalid(at, ips, "may only hold up to 2 values", asError));
  // Past a bad IP the family checks would only say it again.
  if (invalidIPs) return out;
  const isV6 = (ip: JsonValue | undefined) => isIPv6(parseIPSloppy(ip as string) as IP);
  if (ips.length > 1) {
    const v6 = ips.filter(isV6).length;
    if (v6 === 0 || v6 === ips.length)
      out.push(invalid(at, ips, "may specify no more than one IP for each IP family", asError));
  }
  if (!isHeadless(ips))
    families.slice(0, ips.length).forEach((family, i) => {
      const ip = ips[i];
      if ((family === "IPv4" && isV6(ip)) || (family === "IPv6" && !isV6(ip)))
        out.push(
          invalid(child(at, i), ip, `expected an ${family} value as indicated by \`ipFamilies[${i}]\``, asError),
        );
    });
  return out;
}

/**
 * ValidateEndpointIP (ValidateNonSpecialIP before 1.33) of a Service's external IP, an Endpoints address or
 * an EndpointSlice's: an address (said again of one that does not parse) in none of the special ranges.
 */
export function validateEndpointIP(value: string, at: FieldPath): Finding[] {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return [invalid(at, value, "must be a valid IP address", asError)];
  const errs: string[] = [];
  if (isUnspecified(ip)) errs.push(`may not be unspecified (${value})`);
  if (isLoopback(ip)) errs.push("may not be in the loopback range (127.0.0.0/8, ::1/128)");
  if (isLinkLocalUnicast(ip)) errs.push("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
  if (isLinkLocalMulticast(ip)) errs.push("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
  return invalidEach(at, value, errs);
}

/**
 * ValidateService's source ranges: the field, or else the annotation it replaced, only on a load
 * balancer, each a CIDR value. Both may be padded with spaces, a leftover of the annotation.
 */
function validateSourceRanges(
  object: JsonObject,
  s: JsonObject,
  type: string,
  spec: FieldPath,
  strict: boolean,
): Finding[] {
  const loadBalancerOnly = (at: FieldPath) =>
    type === "LoadBalancer" ? [] : [forbidden(at, "may only be used when `type` is 'LoadBalancer'", asError)];
  const cidrErrors = (at: FieldPath, value: JsonValue) => {
    if (typeof value !== "string") return [];
    const cidr = trimSpace(value);
    return invalidEach(at, cidr, isValidCIDRForLegacyField(cidr, strict));
  };
  const ranges = listAt(s, "loadBalancerSourceRanges");
  if (ranges.length > 0) {
    const at = child(spec, "LoadBalancerSourceRanges");
    return [...loadBalancerOnly(at), ...ranges.flatMap((value, i) => cidrErrors(child(at, i), value))];
  }
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const annotation = annotations === undefined ? undefined : getKey(annotations, sourceRangesAnnotation);
  if (typeof annotation !== "string") return [];
  // A comma-separated list, every error at the annotation.
  const at = ["metadata", "annotations", { key: sourceRangesAnnotation }];
  const values = trimSpace(annotation) === "" ? [] : annotation.split(",");
  return [...loadBalancerOnly(at), ...values.flatMap((value) => cidrErrors(at, value))];
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
  // An absent port is Go's 0: refused as a port number, here and as the targetPort defaulted to it.
  const number = intAt(port, "port");
  if (number !== undefined) out.push(...invalidEach(child(path, "port"), number, isValidPortNum(number)));
  // An unset targetPort (0 or "") is defaulted to the port (SetDefaults_Service).
  const target = getKey(port, "targetPort");
  const unset = target === undefined || target === null || target === 0 || target === "";
  if (!unset) out.push(...portNumOrName(target, child(path, "targetPort")));
  else if (number !== undefined) out.push(...invalidEach(child(path, "targetPort"), number, isValidPortNum(number)));
  // An unset protocol is defaulted to TCP.
  out.push(...oneOf(port, "protocol", path, portProtocols));
  const appProtocol = stringAt(port, "appProtocol");
  if (appProtocol !== undefined && isSet(port, "appProtocol"))
    out.push(...invalidEach(child(path, "appProtocol"), appProtocol, isQualifiedName(appProtocol)));
  return out;
}

// ---------------------------------------------------------------------------
// ConfigMaps and Secrets

/** core.MaxSecretSize: the data of a ConfigMap or a Secret, 1 MiB in all. */
const maxSize = 1024 * 1024;

/** The length of what a base64 text decodes to (the `byte` format; a malformed one is the schema's). */
function decodedLength(text: string): number {
  const clean = text.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

/**
 * ValidateNamespace: the namespace's own finalizers (`spec.finalizers`, each at the list's unindexed path, as
 * the server gives it) are qualified names, and one without a domain is a standard one (validateFinalizerName).
 */
export function validateNamespace(object: JsonObject): Finding[] {
  return listAt(objectAt(object, "spec"), "finalizers").flatMap((name) =>
    typeof name === "string"
      ? invalidEach(["spec", "finalizers"], name, [...isQualifiedName(name), ...kubeFinalizerErrors(name)])
      : [],
  );
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
    case "kubernetes.io/dockerconfigjson": {
      const key = stringAt(object, "type") === "kubernetes.io/dockercfg" ? ".dockercfg" : ".dockerconfigjson";
      if (!sizes.has(key)) {
        out.push(requiredKey(key));
        break;
      }
      // well-formed JSON of an object, as json.Unmarshal into a map reads it
      const text = secretText(object, key);
      const error = text === undefined ? undefined : unmarshalIntoMapError(text);
      if (error !== undefined) out.push(invalid(["data", { key }], "<secret contents redacted>", error, asError));
      break;
    }
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

/**
 * A secret key's bytes as the server holds them once conversion has merged `stringData` into `data`:
 * stringData's, else data's decoded; undefined when neither has the key or data's does not decode.
 */
export function secretBytes(object: JsonObject, key: string): Uint8Array | undefined {
  const plain = getKey(objectAt(object, "stringData") ?? {}, key);
  if (typeof plain === "string") return new TextEncoder().encode(plain);
  const encoded = getKey(objectAt(object, "data") ?? {}, key);
  const bytes = typeof encoded === "string" ? decodeBase64(encoded) : undefined;
  return bytes instanceof GoError ? undefined : bytes;
}

/** A secret key's text (secretBytes as UTF-8). */
function secretText(object: JsonObject, key: string): string | undefined {
  const bytes = secretBytes(object, key);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}
