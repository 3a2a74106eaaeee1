/**
 * ServiceCIDRs and IPAddresses as pkg/apis/networking/validation/validation.go refuses them on create
 * (ValidateServiceCIDR with validateServiceCIDRSpec, ValidateIPAddress with ValidateIPAddressName and
 * validateIPAddressParentReference), through apimachinery's IsValidCIDR and IsValidIP, word for word.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { ipAddressNameRule, validateIPAddress, validateServiceCIDR } from "./ip-allocation.js";
import { dns1123SubdomainError } from "./test-helpers.js";

const messages = (findings: Finding[]) => findings.map((f) => f.message);

const serviceCIDR = (cidrs: unknown[] | undefined): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "ServiceCIDR",
  metadata: { name: "secondary" },
  ...(cidrs === undefined ? {} : { spec: { cidrs: cidrs as string[] } }),
});

const familyError = "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64";
const cidrSyntax = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

describe("ValidateServiceCIDR (validateServiceCIDRSpec)", () => {
  const cases: [string, unknown[] | undefined, string[]][] = [
    ["one IPv4 range", ["10.96.0.0/16"], []],
    ["one IPv6 range", ["2001:db8::/112"], []],
    ["a dual-stack pair, either order", ["2001:db8::/112", "10.96.0.0/16"], []],
    ["no spec at all", undefined, ["spec.cidrs: Required value: at least one CIDR required"]],
    ["an empty list", [], ["spec.cidrs: Required value: at least one CIDR required"]],
    [
      "three ranges, the spec the bad value and nothing else said",
      ["10.0.0.0/24", "10.1.0.0/24", "bad"],
      ['spec.cidrs: Invalid value: {"cidrs":["10.0.0.0/24","10.1.0.0/24","bad"]}: may only hold up to 2 values'],
    ],
    ["a prefix too long", ["10.0.0.0/33"], [`spec.cidrs[0]: Invalid value: "10.0.0.0/33": ${cidrSyntax}`]],
    ["an address, no prefix", ["10.0.0.1"], [`spec.cidrs[0]: Invalid value: "10.0.0.1": ${cidrSyntax}`]],
    [
      "bits past the prefix",
      ["10.96.0.1/16"],
      ['spec.cidrs[0]: Invalid value: "10.96.0.1/16": must not have bits set beyond the prefix length'],
    ],
    [
      "leading zeros",
      ["10.096.0.0/16"],
      ['spec.cidrs[0]: Invalid value: "10.096.0.0/16": must not have leading 0s in IP or prefix length'],
    ],
    [
      "an IPv4-mapped IPv6 range",
      ["::ffff:10.0.0.0/104"],
      ['spec.cidrs[0]: Invalid value: "::ffff:10.0.0.0/104": must not have an IPv4-mapped IPv6 address'],
    ],
    [
      "an IPv6 range in upper case",
      ["2001:DB8::/64"],
      ['spec.cidrs[0]: Invalid value: "2001:DB8::/64": must be in canonical form ("2001:db8::/64")'],
    ],
    [
      "an IPv6 range with its zeros written out",
      ["10.96.0.0/16", "2001:db8:0:0:0:0:0:0/64"],
      ['spec.cidrs[1]: Invalid value: "2001:db8:0:0:0:0:0:0/64": must be in canonical form ("2001:db8::/64")'],
    ],
    [
      "two IPv4 ranges",
      ["10.0.0.0/24", "10.1.0.0/24"],
      [`spec.cidrs: Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: ${familyError}`],
    ],
    [
      "two IPv6 ranges, one not canonical: each range first, then the families",
      ["2001:db8::/64", "2001:DB8:1::/64"],
      [
        'spec.cidrs[1]: Invalid value: "2001:DB8:1::/64": must be in canonical form ("2001:db8:1::/64")',
        `spec.cidrs: Invalid value: ["2001:db8::/64","2001:DB8:1::/64"]: ${familyError}`,
      ],
    ],
    [
      "an IPv4-mapped range beside an IPv4 one: both IPv4 to IPFamilyOfCIDRString",
      ["10.0.0.0/24", "::ffff:10.1.0.0/120"],
      [
        'spec.cidrs[1]: Invalid value: "::ffff:10.1.0.0/120": must not have an IPv4-mapped IPv6 address',
        `spec.cidrs: Invalid value: ["10.0.0.0/24","::ffff:10.1.0.0/120"]: ${familyError}`,
      ],
    ],
    [
      "two unparseable values: an unknown family is no family",
      ["bad", "worse"],
      [`spec.cidrs[0]: Invalid value: "bad": ${cidrSyntax}`, `spec.cidrs[1]: Invalid value: "worse": ${cidrSyntax}`],
    ],
  ];
  it.each(cases)("%s", (_, cidrs, expected) => {
    expect(messages(validateServiceCIDR(serviceCIDR(cidrs), 36))).toEqual(expected);
  });

  it("is 1.33's rule: 1.32 (v1beta1, off by default, netip's words) gets nothing from here", () => {
    expect(validateServiceCIDR(serviceCIDR(["10.96.0.1/16"]), 32)).toEqual([]);
    expect(messages(validateServiceCIDR(serviceCIDR(["10.96.0.1/16"]), 33))).toHaveLength(1);
  });

  it("reports as errors", () => {
    expect(validateServiceCIDR(serviceCIDR([]), 36)[0]?.severity).toBe("error");
  });
});

describe("ValidateIPAddressName: an IPAddress is named by its address", () => {
  it("is IsValidIP's details, for a name and a generateName alike (the prefix flag is ignored)", () => {
    expect(ipAddressNameRule("10.96.0.10", false)).toEqual([]);
    expect(ipAddressNameRule("2001:db8::a", false)).toEqual([]);
    expect(ipAddressNameRule("2001:db8::A", false)).toEqual(['must be in canonical form ("2001:db8::a")']);
    expect(ipAddressNameRule("10.96.0.", true)).toEqual([
      "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
    ]);
  });
});

describe("ValidateIPAddress (validateIPAddressParentReference)", () => {
  const ipAddress = (parentRef?: JsonObject): JsonObject => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "IPAddress",
    metadata: { name: "10.96.0.10" },
    ...(parentRef === undefined ? {} : { spec: { parentRef } }),
  });
  const kubeDNS = { group: "", resource: "services", name: "kube-dns", namespace: "kube-system" };

  const cases: [string, JsonObject | undefined, string[]][] = [
    ["a Service's address", kubeDNS, []],
    ["no group and no namespace", { resource: "services", name: "kube-dns" }, []],
    ["a group of another API", { ...kubeDNS, group: "gateway.networking.k8s.io", resource: "gateways" }, []],
    ["no spec: no parentRef", undefined, ["spec.parentRef: Required value"]],
    [
      "a group that is no DNS subdomain",
      { ...kubeDNS, group: "Core" },
      [`spec.parentRef.group: Invalid value: "Core": ${dns1123SubdomainError}`],
    ],
    ["an empty resource", { ...kubeDNS, resource: "" }, ["spec.parentRef.resource: Required value"]],
    ["an empty name", { ...kubeDNS, name: "" }, ["spec.parentRef.name: Required value"]],
    [
      "a resource with a slash and a percent sign",
      { ...kubeDNS, resource: "services/%2f" },
      [
        `spec.parentRef.resource: Invalid value: "services/%2f": may not contain '/'`,
        `spec.parentRef.resource: Invalid value: "services/%2f": may not contain '%'`,
      ],
    ],
    ["a name of '.'", { ...kubeDNS, name: "." }, [`spec.parentRef.name: Invalid value: ".": may not be '.'`]],
    [
      "a namespace of '..'",
      { ...kubeDNS, namespace: ".." },
      [`spec.parentRef.namespace: Invalid value: "..": may not be '..'`],
    ],
  ];
  it.each(cases)("%s", (_, parentRef, expected) => {
    expect(messages(validateIPAddress(ipAddress(parentRef), 36))).toEqual(expected);
  });

  it("leaves a parentRef absent from a spec to the schema's required", () => {
    expect(validateIPAddress({ ...ipAddress(), spec: {} }, 36)).toEqual([]);
  });

  it("is 1.33's rule, like the ServiceCIDR's", () => {
    expect(validateIPAddress(ipAddress(), 32)).toEqual([]);
  });
});
