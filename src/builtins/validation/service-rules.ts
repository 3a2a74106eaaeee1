/**
 * The Service rules of pkg/apis/core/validation/validation.go ValidateService that concern one field or two
 * (core.ts validates the ports and IPs): the topology annotations, session affinity and its ClientIP timeout
 * (validateClientIPAffinityConfig), validateLoadBalancerClassField, validateServiceExternalTrafficPolicy (with
 * healthCheckNodePort) and validateServiceTrafficDistribution. Each reads the object as written and applies
 * first what v1 SetDefaults_Service would, so a rule only a defaulted field could break is not checked.
 */
import type { Finding } from "../../findings/index.js";
import { isQualifiedName } from "../../names/index.js";
import { child } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  asError,
  forbidden,
  intAt,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  optionalIntAt,
  setStringAt,
  stringAt,
} from "./common.js";

const spec = ["spec"];

/** A Service's type, defaulted to ClusterIP. */
const serviceType = (s: JsonObject): string => stringAt(s, "type") || "ClusterIP";

const topologyModeAnnotation = "service.kubernetes.io/topology-mode";
const topologyHintsAnnotation = "service.kubernetes.io/topology-aware-hints";

/**
 * ValidateService's first rule after the metadata's: when a Service has both the topology-mode annotation and the
 * deprecated topology-aware-hints one, they must say the same.
 */
export function validateServiceTopologyAnnotations(object: JsonObject): Finding[] {
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  const mode = setStringAt(annotations, topologyModeAnnotation);
  const hints = setStringAt(annotations, topologyHintsAnnotation);
  if (mode === undefined || hints === undefined || mode === hints) return [];
  return [
    invalid(
      ["metadata", "annotations", { key: topologyModeAnnotation }],
      mode,
      `must match annotations[${topologyHintsAnnotation}] when both are specified`,
      asError,
    ),
  ];
}

/** core.MaxClientIPServiceAffinitySeconds: one day. */
const maxClientIPServiceAffinitySeconds = 86400;

/**
 * ValidateService's session affinity, with validateClientIPAffinityConfig and validateAffinityTimeout. The server
 * defaults an unset affinity to None, drops the config of a None affinity, and gives a ClientIP affinity without
 * a timeout the default config (three hours): what is left to refuse is an unknown affinity and a timeout out of
 * (0, 86400].
 */
export function validateServiceSessionAffinity(s: JsonObject): Finding[] {
  const affinity = stringAt(s, "sessionAffinity");
  if (affinity === undefined || affinity === "" || affinity === "None") return [];
  if (affinity !== "ClientIP")
    return [notSupported(child(spec, "sessionAffinity"), affinity, ["ClientIP", "None"], asError)];
  const clientIP = objectAt(objectAt(s, "sessionAffinityConfig"), "clientIP");
  const timeout = optionalIntAt(clientIP, "timeoutSeconds");
  if (timeout === undefined || (timeout > 0 && timeout <= maxClientIPServiceAffinitySeconds)) return [];
  return [
    invalid(
      child(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds"),
      timeout,
      `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`,
      asError,
    ),
  ];
}

/** validateLoadBalancerClassField on create: a qualified name, and only on a load balancer. */
export function validateLoadBalancerClassField(s: JsonObject): Finding[] {
  if (!isSet(s, "loadBalancerClass")) return [];
  const at = child(spec, "loadBalancerClass");
  if (serviceType(s) !== "LoadBalancer")
    return [forbidden(at, "may only be used when `type` is 'LoadBalancer'", asError)];
  const value = setStringAt(s, "loadBalancerClass");
  return value === undefined ? [] : invalidEach(at, value, isQualifiedName(value));
}

/**
 * validateServiceExternalTrafficPolicy, after SetDefaults_Service has set an externally-accessible Service's unset
 * policy to Cluster: the policy only on such a Service and one of Cluster or Local, and `healthCheckNodePort` only
 * where apiservice.NeedsHealthCheck (a LoadBalancer whose policy is Local). Where it is needed, the registry
 * allocates it before validation (or refuses a port outside the cluster's range), so that branch is not judged.
 */
export function validateServiceExternalTrafficPolicy(s: JsonObject): Finding[] {
  const out: Finding[] = [];
  const type = serviceType(s);
  const externallyAccessible =
    type === "LoadBalancer" || type === "NodePort" || (type === "ClusterIP" && listAt(s, "externalIPs").length > 0);
  const written = stringAt(s, "externalTrafficPolicy");
  if (written === undefined) return out;
  const policy = written || (externallyAccessible ? "Cluster" : "");
  const policyAt = child(spec, "externalTrafficPolicy");
  if (!externallyAccessible) {
    if (policy !== "")
      out.push(invalid(policyAt, policy, "may only be set for externally-accessible services", asError));
  } else if (policy !== "Cluster" && policy !== "Local") {
    out.push(notSupported(policyAt, policy, ["Cluster", "Local"], asError));
  }
  const needsHealthCheck = type === "LoadBalancer" && policy === "Local";
  const healthCheckNodePort = intAt(s, "healthCheckNodePort");
  if (!needsHealthCheck && healthCheckNodePort)
    out.push(
      invalid(
        child(spec, "healthCheckNodePort"),
        healthCheckNodePort,
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        asError,
      ),
    );
  return out;
}

/**
 * The values validateServiceTrafficDistribution accepts in release 1.`minor`: PreferClose alone until
 * PreferSameTrafficDistribution (alpha, off, in 1.33; beta, on, in 1.34; GA in 1.35) adds PreferSameZone and
 * PreferSameNode.
 */
export const supportedTrafficDistributions = (minor: number): readonly string[] =>
  minor >= 34 ? ["PreferClose", "PreferSameZone", "PreferSameNode"] : ["PreferClose"];

/** validateServiceTrafficDistribution: when set (even to ""), one of the release's values, listed in its order. */
export function validateServiceTrafficDistribution(s: JsonObject, minor: number): Finding[] {
  const value = setStringAt(s, "trafficDistribution");
  const supported = supportedTrafficDistributions(minor);
  if (value === undefined || supported.includes(value)) return [];
  return [notSupported(child(spec, "trafficDistribution"), value, supported, asError)];
}
