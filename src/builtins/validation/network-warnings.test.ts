/**
 * The create warnings of NetworkPolicies, Endpoints, EndpointSlices and Nodes, in the API server's words,
 * by release. The values are those of apimachinery's TestGetWarningsForIP and TestGetWarningsForCIDR
 * (staging/src/k8s.io/apimachinery/pkg/util/validation/ip_test.go), placed in these kinds' fields; the
 * walks, skips and paths are the strategies' (each describe names its function).
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { endpointSliceWarnings, endpointsWarnings, networkPolicyWarnings, nodeWarnings } from "./network-warnings.js";

const messages = (findings: Finding[]) => findings.map((f) => f.message);
const later = "will be considered invalid in a future Kubernetes release";

describe("NetworkPolicy ipBlocks (pkg/registry/networking/networkpolicy/strategy.go networkPolicyWarnings)", () => {
  // egress written first: Go still walks every ingress rule before any egress rule
  const policy: JsonObject = {
    metadata: { name: "p" },
    spec: {
      podSelector: {},
      egress: [{ to: [{ ipBlock: { cidr: "2001:db8:0:0::/64" } }] }],
      ingress: [
        { from: [{ podSelector: {} }, { ipBlock: { cidr: "192.12.2.8/24", except: ["192.12.2.0/025"] } }] },
        { from: [{ ipBlock: { cidr: "192.012.2.8/24" } }] },
      ],
    },
  };
  const ingress = [
    'spec.ingress[0].from[1].ipBlock.cidr: CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)',
    `spec.ingress[0].from[1].ipBlock.except[0]: non-standard CIDR value "192.12.2.0/025" ${later}: use "192.12.2.0/25"`,
    // "multiple problems": both, ambiguity first
    'spec.ingress[1].from[0].ipBlock.cidr: CIDR value "192.012.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)',
    `spec.ingress[1].from[0].ipBlock.cidr: non-standard CIDR value "192.012.2.8/24" ${later}: use "192.12.2.0/24"`,
  ];
  const egress =
    'spec.egress[0].to[0].ipBlock.cidr: IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")';

  it.each([33, 34, 35])("1.%s: cidr then except, ingress rules before egress rules, in order", (minor) => {
    expect(messages(networkPolicyWarnings(policy, minor))).toEqual([...ingress, egress]);
  });

  it("are warnings at the field they name", () => {
    const [first] = networkPolicyWarnings(policy, 35);
    expect(first?.severity).toBe("warning");
    expect(first?.field).toBe("spec.ingress[0].from[1].ipBlock.cidr");
  });

  it("1.36 refuses all but the IPv6 form (StrictIPCIDRValidation), so warns of that alone", () => {
    expect(messages(networkPolicyWarnings(policy, 36))).toEqual([egress]);
  });

  it("1.32 has no such warnings (they came with kubernetes#128786 in 1.33)", () => {
    expect(networkPolicyWarnings(policy, 32)).toEqual([]);
  });

  it("a policy in canonical forms, or without IP blocks, gives none", () => {
    const clean: JsonObject = {
      spec: {
        podSelector: {},
        ingress: [{ from: [{ ipBlock: { cidr: "192.12.2.0/24", except: ["192.12.2.0/25"] } }, { podSelector: {} }] }],
        egress: [{ to: [{ ipBlock: { cidr: "2001:db8::/64" } }] }, {}],
      },
    };
    expect(networkPolicyWarnings(clean, 35)).toEqual([]);
    expect(networkPolicyWarnings({ spec: { podSelector: {} } }, 35)).toEqual([]);
  });
});

describe("Endpoints addresses (pkg/registry/core/endpoint/strategy.go endpointsWarnings)", () => {
  const endpoints = (labels: JsonObject = {}): JsonObject => ({
    metadata: { name: "e", labels },
    subsets: [
      {
        notReadyAddresses: [{ ip: "::ffff:192.12.2.2" }],
        addresses: [{ ip: "192.12.2.2" }, { ip: "192.012.2.2" }],
        ports: [{ port: 80 }],
      },
      { addresses: [{ ip: "2001:db8:0:0::2" }], ports: [{ port: 80 }] },
    ],
  });
  const leading = `subsets[0].addresses[1].ip: non-standard IP address "192.012.2.2" ${later}: use "192.12.2.2"`;
  const mapped = `subsets[0].notReadyAddresses[0].ip: non-standard IP address "::ffff:192.12.2.2" ${later}: use "192.12.2.2"`;
  const ipv6 =
    'subsets[1].addresses[0].ip: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")';

  it.each([33, 35])("1.%s: per subset, addresses then not-ready addresses", (minor) => {
    expect(messages(endpointsWarnings(endpoints(), minor))).toEqual([leading, mapped, ipv6]);
  });

  it("1.36 warns of the non-canonical IPv6 address alone", () => {
    expect(messages(endpointsWarnings(endpoints(), 36))).toEqual([ipv6]);
  });

  it("1.32 has none", () => {
    expect(endpointsWarnings(endpoints(), 32)).toEqual([]);
  });

  it("the Endpoints controller's own objects are not checked", () => {
    expect(endpointsWarnings(endpoints({ "endpoints.kubernetes.io/managed-by": "endpoint-controller" }), 35)).toEqual(
      [],
    );
  });

  it("another manager's objects are", () => {
    const other = endpoints({ "endpoints.kubernetes.io/managed-by": "someone-else" });
    expect(messages(endpointsWarnings(other, 35))).toEqual([leading, mapped, ipv6]);
  });

  it("canonical addresses give none", () => {
    const clean: JsonObject = {
      subsets: [{ addresses: [{ ip: "10.0.0.1" }], notReadyAddresses: [{ ip: "2001:db8::2" }] }],
    };
    expect(endpointsWarnings(clean, 35)).toEqual([]);
  });
});

describe("EndpointSlices (pkg/registry/discovery/endpointslice/strategy.go warnOnDeprecatedAddressType, warnOnBadIPs)", () => {
  const slice = (addressType: string, addresses: string[], labels: JsonObject = {}): JsonObject => ({
    metadata: { name: "s", labels },
    addressType,
    endpoints: [{ addresses: ["192.12.2.2"] }, { addresses }],
  });
  const fqdn = "spec.addressType: FQDN endpoints are deprecated";

  it("an FQDN slice is deprecated, in every release, at a path that says spec.", () => {
    for (const minor of [32, 33, 36]) {
      const found = endpointSliceWarnings(slice("FQDN", ["db.example.com"]), minor);
      expect(messages(found)).toEqual([fqdn]);
      expect(found[0]?.severity).toBe("warning");
    }
  });

  it.each([33, 35])("1.%s: each endpoint's addresses, in order", (minor) => {
    expect(messages(endpointSliceWarnings(slice("IPv4", ["192.012.2.2", "::ffff:192.12.2.2"]), minor))).toEqual([
      `endpoints[1].addresses[0]: non-standard IP address "192.012.2.2" ${later}: use "192.12.2.2"`,
      `endpoints[1].addresses[1]: non-standard IP address "::ffff:192.12.2.2" ${later}: use "192.12.2.2"`,
    ]);
  });

  it("the deprecation comes before the address warnings, which ignore the addressType", () => {
    expect(messages(endpointSliceWarnings(slice("FQDN", ["192.012.2.2"]), 35))).toEqual([
      fqdn,
      `endpoints[1].addresses[0]: non-standard IP address "192.012.2.2" ${later}: use "192.12.2.2"`,
    ]);
  });

  it("1.36 refuses an IP slice's non-standard addresses and warns of a non-canonical IPv6 one", () => {
    expect(messages(endpointSliceWarnings(slice("IPv4", ["192.012.2.2"]), 36))).toEqual([]);
    expect(messages(endpointSliceWarnings(slice("IPv6", ["2001:db8:0:0::2"]), 36))).toEqual([
      'endpoints[1].addresses[0]: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")',
    ]);
  });

  it("1.36 does not validate an FQDN slice's addresses as IP addresses, so still warns", () => {
    expect(messages(endpointSliceWarnings(slice("FQDN", ["192.012.2.2"]), 36))).toEqual([
      fqdn,
      `endpoints[1].addresses[0]: non-standard IP address "192.012.2.2" ${later}: use "192.12.2.2"`,
    ]);
  });

  it("1.32 has no address warnings", () => {
    expect(endpointSliceWarnings(slice("IPv4", ["192.012.2.2"]), 32)).toEqual([]);
  });

  it.each(["endpointslice-controller.k8s.io", "endpointslicemirroring-controller.k8s.io"])(
    "slices managed by %s are not checked, the FQDN deprecation still is",
    (manager) => {
      const labels = { "endpointslice.kubernetes.io/managed-by": manager };
      expect(endpointSliceWarnings(slice("IPv4", ["192.012.2.2"], labels), 35)).toEqual([]);
      expect(messages(endpointSliceWarnings(slice("FQDN", ["192.012.2.2"], labels), 35))).toEqual([fqdn]);
    },
  );

  it("another manager's slices are checked", () => {
    const labels = { "endpointslice.kubernetes.io/managed-by": "my-controller" };
    expect(messages(endpointSliceWarnings(slice("IPv4", ["192.012.2.2"], labels), 35))).toHaveLength(1);
  });

  it("canonical addresses, and names that are no IP address, give none", () => {
    expect(endpointSliceWarnings(slice("IPv4", ["10.0.0.1"]), 35)).toEqual([]);
    expect(endpointSliceWarnings(slice("IPv6", ["2001:db8::2"]), 35)).toEqual([]);
  });
});

describe("Nodes (pkg/registry/core/node/strategy.go fieldIsDeprecatedWarnings, nodeWarnings)", () => {
  const node = (spec: JsonObject): JsonObject => ({ metadata: { name: "n" }, spec });
  const externalID = "spec.externalID: this field is deprecated, and is unused by Kubernetes";
  const podCIDRs = ["192.12.2.8/24", "2001:db8:0:0::/64"];
  const ambiguous =
    'spec.podCIDRs[0]: CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)';
  const ipv6 =
    'spec.podCIDRs[1]: IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")';

  it("a set externalID is deprecated in every release", () => {
    for (const minor of [32, 36])
      expect(messages(nodeWarnings(node({ externalID: "i-123" }), minor))).toEqual([externalID]);
    expect(nodeWarnings(node({ externalID: "" }), 36)).toEqual([]);
  });

  it("1.33 to 1.35: externalID, then each pod CIDR (as kwok met on 1.33, kubernetes-sigs/kwok#1356)", () => {
    for (const minor of [33, 35])
      expect(messages(nodeWarnings(node({ podCIDRs, externalID: "i-123" }), minor))).toEqual([
        externalID,
        ambiguous,
        ipv6,
      ]);
  });

  it("1.36 warns of the non-canonical IPv6 CIDR alone", () => {
    expect(messages(nodeWarnings(node({ podCIDRs }), 36))).toEqual([ipv6]);
  });

  it("1.32 has no pod CIDR warnings", () => {
    expect(nodeWarnings(node({ podCIDRs }), 32)).toEqual([]);
  });

  it("configSource is cleared on create, so never warned about", () => {
    expect(nodeWarnings(node({ configSource: { configMap: { name: "c" } } }), 36)).toEqual([]);
  });

  it("a node in canonical forms gives none", () => {
    expect(nodeWarnings(node({ podCIDRs: ["10.0.1.0/24", "2001:db8::/64"] }), 35)).toEqual([]);
    expect(nodeWarnings({ metadata: { name: "n" } }, 35)).toEqual([]);
  });
});
