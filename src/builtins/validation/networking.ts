/**
 * networking.k8s.io/v1 (pkg/apis/networking/validation/validation.go):
 * Ingress rules, paths, backends and TLS hosts (ValidateIngressCreate,
 * ValidateIngressSpec, validateIngressRules, validateHTTPIngressPath,
 * validateIngressBackend, validateIngressTLS) and NetworkPolicy ports, peers,
 * IP blocks and policy types (ValidateNetworkPolicySpec,
 * ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer, ValidateIPBlock).
 * Which of a backend's `service` or `resource` is set is the union registry's.
 */
import type { Finding } from "../../findings/index.js";
import { contains, isValidCIDRForLegacyField, networkNumber, parseCIDRSloppy, parseIPSloppy } from "../../go/index.js";
import {
  byteLength,
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  maxLenError,
  regexError,
} from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import { strictIPValidation } from "../releases.js";
import {
  asError,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  isValidPortName,
  isValidPortNum,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  oneOf,
  optionalIntAt,
  required,
  requiredIfEmpty,
  stringAt,
  validateLabelSelector,
} from "./common.js";

const invalidPathSequences = ["//", "/./", "/../", "%2f", "%2F"];
const invalidPathSuffixes = ["/..", "/."];

/** validation.IsWildcardDNS1123Subdomain: `*.` then a subdomain. */
function isWildcardDNS1123Subdomain(host: string): string[] {
  const errs: string[] = [];
  if (byteLength(host) > 253) errs.push(maxLenError(253));
  const rest = host.startsWith("*.") ? host.slice(2) : undefined;
  if (rest === undefined || isDNS1123Subdomain(rest).some((m) => !m.startsWith("must be no more than"))) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
        "*.example.com",
      ),
    );
  }
  return errs;
}

/** validateIngressTLS's host check, also validateIngressRules': a wildcard subdomain when it has a `*`. */
const hostErrors = (host: string) => (host.includes("*") ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host));

const ingressClassAnnotation = "kubernetes.io/ingress.class";

export function validateIngress(object: JsonObject): Finding[] {
  const s = objectAt(object, "spec");
  const spec = ["spec"];
  const out: Finding[] = [];
  if (s === undefined) return out;
  const rules = objectItems(s, "rules");
  if (listAt(s, "rules").length === 0 && !isSet(s, "defaultBackend"))
    out.push(
      invalid(spec, getKey(s, "rules") ?? null, "either `defaultBackend` or `rules` must be specified", asError),
    );
  const defaultBackend = objectAt(s, "defaultBackend");
  if (defaultBackend !== undefined) out.push(...validateBackend(defaultBackend, child(spec, "defaultBackend")));
  for (const [i, rule] of rules) {
    const at = child(spec, "rules", i);
    const host = stringAt(rule, "host");
    if (host) {
      if (parseIPSloppy(host) !== undefined)
        out.push(invalid(child(at, "host"), host, "must be a DNS name, not an IP address", asError));
      out.push(...invalidEach(child(at, "host"), host, hostErrors(host)));
    }
    const http = objectAt(rule, "http");
    if (http === undefined) continue;
    const httpAt = child(at, "http");
    if (Object.hasOwn(http, "paths") && listAt(http, "paths").length === 0)
      out.push(required(child(httpAt, "paths"), "", asError));
    for (const [j, path] of objectItems(http, "paths"))
      out.push(...validateHTTPIngressPath(path, child(httpAt, "paths", j)));
  }
  for (const [i, tls] of objectItems(s, "tls")) {
    const at = child(spec, "tls", i);
    listAt(tls, "hosts").forEach((host, j) => {
      if (typeof host === "string") out.push(...invalidEach(child(at, "hosts", j), host, hostErrors(host)));
    });
    // validateTLSSecretName: an empty name is no name.
    const secretName = stringAt(tls, "secretName");
    if (secretName) out.push(...invalidEach(child(at, "secretName"), secretName, isDNS1123Subdomain(secretName)));
  }
  // ValidateIngressClassName is NameIsDNSSubdomain: checked whenever set, even to "".
  const className = getKey(s, "ingressClassName");
  if (typeof className === "string") {
    out.push(...invalidEach(child(spec, "ingressClassName"), className, isDNS1123Subdomain(className)));
    // ValidateIngressCreate, which names the annotation's path without its metadata.
    const annotations = objectAt(objectAt(object, "metadata"), "annotations");
    const annotation = annotations === undefined ? undefined : getKey(annotations, ingressClassAnnotation);
    if (typeof annotation === "string" && annotation !== className)
      out.push(
        invalid(
          ["annotations", ingressClassAnnotation],
          annotation,
          "must match `ingressClassName` when both are specified",
          asError,
        ),
      );
  }
  return out;
}

/**
 * validateHTTPIngressPath: without a pathType nothing else of the path is judged, its backend included; under an
 * unknown one the path is not.
 */
function validateHTTPIngressPath(p: JsonObject, at: FieldPath): Finding[] {
  if (!isSet(p, "pathType")) return [required(child(at, "pathType"), "pathType must be specified", asError)];
  const out = oneOf(p, "pathType", at, ["Exact", "ImplementationSpecific", "Prefix"]);
  const pathType = stringAt(p, "pathType");
  const path = stringAt(p, "path");
  if (path !== undefined) {
    const pathAt = child(at, "path");
    if (pathType === "Exact" || pathType === "Prefix") {
      if (!path.startsWith("/")) out.push(invalid(pathAt, path, "must be an absolute path", asError));
      if (path.length > 0) {
        for (const seq of invalidPathSequences)
          if (path.includes(seq)) out.push(invalid(pathAt, path, `must not contain '${seq}'`, asError));
        for (const suffix of invalidPathSuffixes)
          if (path.endsWith(suffix)) out.push(invalid(pathAt, path, `cannot end with '${suffix}'`, asError));
      }
    } else if (pathType === "ImplementationSpecific" && path.length > 0 && !path.startsWith("/")) {
      out.push(invalid(pathAt, path, "must be an absolute path", asError));
    }
  }
  // an absent backend is the zero one, with neither member (which the union's wording says when it is written)
  if (!isSet(p, "backend"))
    out.push(invalid(child(at, "backend"), "", "resource or service backend is required", asError));
  const backend = objectAt(p, "backend");
  if (backend !== undefined) out.push(...validateBackend(backend, child(at, "backend")));
  return out;
}

/**
 * validateIngressBackend: a resource reference, or a Service name and exactly one of port name or
 * number. The name is a DNS-1123 label: RelaxedServiceNameValidation, on by default from 1.36 (it was
 * a DNS-1035 label before), lets Service names start with a digit.
 */
function validateBackend(backend: JsonObject, at: FieldPath): Finding[] {
  if (isSet(backend, "service") && isSet(backend, "resource")) return [];
  const resource = objectAt(backend, "resource");
  if (resource !== undefined) return validateIngressTypedLocalObjectReference(resource, child(at, "resource"));
  const service = objectAt(backend, "service");
  if (service === undefined) return [];
  const out: Finding[] = [];
  const serviceAt = child(at, "service");
  const name = stringAt(service, "name");
  if (name === "") out.push(...requiredIfEmpty(service, "name", serviceAt));
  else if (name !== undefined) out.push(...invalidEach(child(serviceAt, "name"), name, isDNS1123Label(name)));
  const port = objectAt(service, "port");
  const portName = stringAt(port, "name") ?? "";
  const portNumber = optionalIntAt(port, "number") ?? 0;
  if (portName !== "" && portNumber !== 0)
    out.push(invalid(at, "", "cannot set both port name & port number", asError));
  else if (portName !== "")
    out.push(...invalidEach(child(serviceAt, "port", "name"), portName, isValidPortName(portName)));
  else if (portNumber !== 0)
    out.push(...invalidEach(child(serviceAt, "port", "number"), portNumber, isValidPortNum(portNumber)));
  else out.push(required(at, "port name or number is required", asError));
  return out;
}

/**
 * validateIngressTypedLocalObjectReference (an Ingress backend's resource, an IngressClass's parameters): an
 * API group, and a kind and name fit for a URL path, required in its own words when empty or absent.
 */
export function validateIngressTypedLocalObjectReference(ref: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const group = getKey(ref, "apiGroup");
  if (typeof group === "string") out.push(...invalidEach(child(at, "apiGroup"), group, isDNS1123Subdomain(group)));
  for (const key of ["kind", "name"]) {
    const value = stringAt(ref, key);
    if (value === "") out.push(required(child(at, key), `${key} is required`, asError));
    else if (value !== undefined) out.push(...invalidEach(child(at, key), value, isValidPathSegmentName(value, false)));
  }
  return out;
}

export function validateNetworkPolicy(object: JsonObject, minor: number): Finding[] {
  const s = objectAt(object, "spec");
  const strict = strictIPValidation(minor);
  const spec = ["spec"];
  if (s === undefined) return [];
  const out = validateLabelSelector(objectAt(s, "podSelector"), child(spec, "podSelector"));
  for (const [direction, peers] of [
    ["ingress", "from"],
    ["egress", "to"],
  ] as const) {
    for (const [i, rule] of objectItems(s, direction)) {
      const at = child(spec, direction, i);
      for (const [j, port] of objectItems(rule, "ports")) out.push(...validatePort(port, child(at, "ports", j)));
      for (const [j, peer] of objectItems(rule, peers)) out.push(...validatePeer(peer, child(at, peers, j), strict));
    }
  }
  const policyTypes = listAt(s, "policyTypes");
  if (policyTypes.length > 2)
    out.push(invalid(child(spec, "policyTypes"), policyTypes, "may not specify more than two policyTypes", asError));
  else
    policyTypes.forEach((type, i) => {
      if (typeof type === "string" && type !== "Ingress" && type !== "Egress")
        out.push(notSupported(child(spec, "policyTypes", i), type, ["Ingress", "Egress"], asError));
    });
  return out;
}

/** ValidateNetworkPolicyPort: a port number or name, and an end port only after a number. */
function validatePort(port: JsonObject, at: FieldPath): Finding[] {
  const out = oneOf(port, "protocol", at, ["TCP", "UDP", "SCTP"]);
  const value = getKey(port, "port");
  const endPort = optionalIntAt(port, "endPort");
  if (typeof value === "number" && Number.isInteger(value)) {
    out.push(...invalidEach(child(at, "port"), value, isValidPortNum(value)));
    if (endPort !== undefined) {
      if (endPort < value)
        out.push(invalid(child(at, "endPort"), value, "must be greater than or equal to `port`", asError));
      out.push(...invalidEach(child(at, "endPort"), endPort, isValidPortNum(endPort)));
    }
  } else if (typeof value === "string") {
    if (endPort !== undefined)
      out.push(invalid(child(at, "endPort"), endPort, "may not be specified when `port` is non-numeric", asError));
    out.push(...invalidEach(child(at, "port"), value, isValidPortName(value)));
  } else if ((value === undefined || value === null) && endPort !== undefined) {
    out.push(invalid(child(at, "endPort"), endPort, "may not be specified when `port` is not specified", asError));
  }
  return out;
}

/** ValidateNetworkPolicyPeer: at least one selector or an IP block, and an IP block alone. */
function validatePeer(peer: JsonObject, at: FieldPath, strict: boolean): Finding[] {
  const out: Finding[] = [];
  let peers = 0;
  for (const key of ["podSelector", "namespaceSelector"]) {
    if (!isSet(peer, key)) continue;
    peers++;
    out.push(...validateLabelSelector(objectAt(peer, key), child(at, key)));
  }
  const ipBlock = objectAt(peer, "ipBlock");
  if (isSet(peer, "ipBlock")) {
    peers++;
    if (ipBlock !== undefined) out.push(...validateIPBlock(ipBlock, child(at, "ipBlock"), strict));
  }
  if (peers === 0) out.push(required(at, "must specify a peer", asError));
  else if (peers > 1 && isSet(peer, "ipBlock"))
    out.push(forbidden(at, "may not specify both ipBlock and another peer", asError));
  return out;
}

/**
 * ValidateIPBlock on create (an update lets CIDRs the old policy had stay): a CIDR, validated
 * strictly where StrictIPCIDRValidation is on (`strict`: 1.36), and exceptions strictly inside it.
 * An absent `cidr` is the schema's `required`.
 */
function validateIPBlock(block: JsonObject, at: FieldPath, strict: boolean): Finding[] {
  const cidr = stringAt(block, "cidr");
  if (cidr === "") return requiredIfEmpty(block, "cidr", at);
  if (cidr === undefined) return [];
  const out = invalidEach(child(at, "cidr"), cidr, isValidCIDRForLegacyField(cidr, strict));
  const network = parseCIDRSloppy(cidr);
  if (network === undefined) return out;
  listAt(block, "except").forEach((except, i) => {
    if (typeof except !== "string") return;
    const exceptAt = child(at, "except", i);
    out.push(...invalidEach(exceptAt, except, isValidCIDRForLegacyField(except, strict)));
    const inner = parseCIDRSloppy(except);
    if (inner !== undefined && (!contains(network, networkNumber(inner)) || network.bits >= inner.bits))
      out.push(invalid(exceptAt, except, "must be a strict subset of `cidr`", asError));
  });
  return out;
}
