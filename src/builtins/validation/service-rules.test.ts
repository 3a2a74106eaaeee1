/**
 * The rules of service-rules.ts, each against the Go function it follows (named in each describe) and the
 * defaults the server applies first (pkg/apis/core/v1/defaults.go SetDefaults_Service). Messages are the API server's, whole.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  supportedTrafficDistributions,
  validateLoadBalancerClassField,
  validateServiceExternalTrafficPolicy,
  validateServiceSessionAffinity,
  validateServiceTopologyAnnotations,
  validateServiceTrafficDistribution,
} from "./service-rules.js";

const messages = (findings: Finding[]) => findings.map((f) => f.message);

describe("ValidateService: the topology annotations (pkg/apis/core/validation/validation.go)", () => {
  const service = (annotations: JsonObject): JsonObject => ({ metadata: { name: "s", annotations }, spec: {} });

  it("refuses a topology-mode that differs from topology-aware-hints, at the mode's key", () => {
    const found = validateServiceTopologyAnnotations(
      service({ "service.kubernetes.io/topology-mode": "Auto", "service.kubernetes.io/topology-aware-hints": "auto" }),
    );
    expect(messages(found)).toEqual([
      'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
    ]);
    expect(found[0]?.severity).toBe("error");
  });

  it.each([
    [
      "both the same",
      { "service.kubernetes.io/topology-mode": "Auto", "service.kubernetes.io/topology-aware-hints": "Auto" },
    ],
    ["the mode alone", { "service.kubernetes.io/topology-mode": "Auto" }],
    ["the hints alone", { "service.kubernetes.io/topology-aware-hints": "Disabled" }],
  ])("accepts %s", (_, annotations) => {
    expect(validateServiceTopologyAnnotations(service(annotations))).toEqual([]);
  });
});

describe("ValidateService: sessionAffinity, validateClientIPAffinityConfig and validateAffinityTimeout", () => {
  const timeoutAt = "spec.sessionAffinityConfig.clientIP.timeoutSeconds";
  const withTimeout = (timeoutSeconds: number): JsonObject => ({
    sessionAffinity: "ClientIP",
    sessionAffinityConfig: { clientIP: { timeoutSeconds } },
  });

  it.each([0, -1, 86401])("refuses a ClientIP timeout of %s (TestValidateServiceCreate's timeout cases)", (t) => {
    expect(messages(validateServiceSessionAffinity(withTimeout(t)))).toEqual([
      `${timeoutAt}: Invalid value: ${t}: must be greater than 0 and less than 86400`,
    ]);
  });

  it.each([1, 10800, 86400])("accepts a timeout of %s (the bound 86400 included)", (t) => {
    expect(validateServiceSessionAffinity(withTimeout(t))).toEqual([]);
  });

  it("lists the supported affinities sorted when the affinity is unknown", () => {
    expect(messages(validateServiceSessionAffinity({ sessionAffinity: "Sticky" }))).toEqual([
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
    ]);
  });

  it.each<[string, JsonObject]>([
    ["ClientIP without a config (defaulted to 10800 seconds)", { sessionAffinity: "ClientIP" }],
    ["ClientIP with an empty config (defaulted)", { sessionAffinity: "ClientIP", sessionAffinityConfig: {} }],
    [
      "ClientIP with a clientIP but no timeout (defaulted)",
      { sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: {} } },
    ],
    [
      "None with a bad config (SetDefaults_Service drops it)",
      { sessionAffinity: "None", sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } },
    ],
    [
      "no affinity with a bad config (defaulted to None)",
      { sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } },
    ],
  ])("accepts %s", (_, s) => {
    expect(validateServiceSessionAffinity(s)).toEqual([]);
  });
});

describe("validateLoadBalancerClassField on create", () => {
  it.each(["ClusterIP", "NodePort", "ExternalName", ""])(
    'forbids a class on a %j Service ("" is ClusterIP)',
    (type) => {
      expect(messages(validateLoadBalancerClassField({ type, loadBalancerClass: "example.com/lb" }))).toEqual([
        "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ]);
    },
  );

  it("refuses a class that is not a qualified name on a LoadBalancer", () => {
    expect(messages(validateLoadBalancerClassField({ type: "LoadBalancer", loadBalancerClass: "-bad/lb" }))).toEqual([
      `spec.loadBalancerClass: Invalid value: "-bad/lb": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });

  it("accepts a qualified class on a LoadBalancer, and no class anywhere", () => {
    expect(validateLoadBalancerClassField({ type: "LoadBalancer", loadBalancerClass: "example.com/lb" })).toEqual([]);
    expect(validateLoadBalancerClassField({ type: "ClusterIP" })).toEqual([]);
  });
});

describe("validateServiceExternalTrafficPolicy", () => {
  const onlyLocal = "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'";

  it.each<[string, JsonObject]>([
    ["a NodePort Service", { type: "NodePort", externalTrafficPolicy: "Local" }],
    ["a LoadBalancer whose policy defaults to Cluster", { type: "LoadBalancer" }],
    ["a LoadBalancer whose policy is Cluster", { type: "LoadBalancer", externalTrafficPolicy: "Cluster" }],
    ["a ClusterIP Service", { type: "ClusterIP" }],
  ])("refuses a healthCheckNodePort on %s", (_, s) => {
    expect(messages(validateServiceExternalTrafficPolicy({ ...s, healthCheckNodePort: 30001 }))).toEqual([
      `spec.healthCheckNodePort: Invalid value: 30001: ${onlyLocal}`,
    ]);
  });

  it("accepts one on a LoadBalancer whose policy is Local (the registry allocates or checks it)", () => {
    const s = { type: "LoadBalancer", externalTrafficPolicy: "Local", healthCheckNodePort: 30001 };
    expect(validateServiceExternalTrafficPolicy(s)).toEqual([]);
  });

  it("refuses a policy on a Service not externally accessible, then a health check port", () => {
    const s = { type: "ClusterIP", externalTrafficPolicy: "Local", healthCheckNodePort: 30001 };
    expect(messages(validateServiceExternalTrafficPolicy(s))).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      `spec.healthCheckNodePort: Invalid value: 30001: ${onlyLocal}`,
    ]);
  });

  it("takes a ClusterIP Service with external IPs as externally accessible", () => {
    const s = { type: "ClusterIP", externalIPs: ["1.2.3.4"], externalTrafficPolicy: "Local" };
    expect(validateServiceExternalTrafficPolicy(s)).toEqual([]);
    expect(messages(validateServiceExternalTrafficPolicy({ ...s, externalTrafficPolicy: "Global" }))).toEqual([
      'spec.externalTrafficPolicy: Unsupported value: "Global": supported values: "Cluster", "Local"',
    ]);
  });
});

describe("validateServiceTrafficDistribution by release (PreferSameTrafficDistribution in kube_features.go)", () => {
  const sameZone = 'spec.trafficDistribution: Unsupported value: "PreferSameZone": supported values: "PreferClose"';

  it.each([32, 33])("1.%s accepts PreferClose alone (the gate is off or absent)", (minor) => {
    expect(validateServiceTrafficDistribution({ trafficDistribution: "PreferClose" }, minor)).toEqual([]);
    expect(messages(validateServiceTrafficDistribution({ trafficDistribution: "PreferSameZone" }, minor))).toEqual([
      sameZone,
    ]);
  });

  it.each([34, 35, 36])("1.%s accepts PreferClose, PreferSameZone and PreferSameNode (beta, then GA)", (minor) => {
    for (const value of ["PreferClose", "PreferSameZone", "PreferSameNode"])
      expect(validateServiceTrafficDistribution({ trafficDistribution: value }, minor)).toEqual([]);
    expect(messages(validateServiceTrafficDistribution({ trafficDistribution: "Nearby" }, minor))).toEqual([
      'spec.trafficDistribution: Unsupported value: "Nearby": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"',
    ]);
  });

  it("refuses a value set to the empty string, and leaves an unset one alone", () => {
    expect(messages(validateServiceTrafficDistribution({ trafficDistribution: "" }, 36))).toEqual([
      'spec.trafficDistribution: Unsupported value: "": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"',
    ]);
    expect(validateServiceTrafficDistribution({}, 32)).toEqual([]);
    expect(supportedTrafficDistributions(33)).toEqual(["PreferClose"]);
  });
});
