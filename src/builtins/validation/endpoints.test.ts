/**
 * Endpoints and EndpointSlices on create, word for word: pkg/apis/core/validation/validation.go
 * ValidateEndpointsCreate (ValidateEndpoints, validateEndpointSubsets, validateEndpointAddress,
 * validateEndpointPort, ValidateEndpointIP, apimachinery IsValidIPForLegacyField) and
 * pkg/apis/discovery/validation/validation.go ValidateEndpointSliceCreate (ValidateEndpointSlice,
 * validateAddressType, validateEndpoints, validateHints, validatePorts; apimachinery
 * IsFullyQualifiedDomainName), for 1.36 unless a case names its release.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../value/index.js";
import {
  dns1123LabelError as label,
  labelValueError as labelValue,
  qualifiedNamePartError as qualifiedNamePart,
  said,
  dns1123SubdomainError as subdomain,
} from "./test-helpers.js";

/** What the API server's hand-written rules say of the object for release 1.`minor`. */
const says = (object: JsonObject, minor: number): string[] =>
  said(object.apiVersion as string, object.kind as string, object, minor);

const notAnIP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const loopback = "may not be in the loopback range (127.0.0.0/8, ::1/128)";
const linkLocal = "may not be in the link-local range (169.254.0.0/16, fe80::/10)";
const linkLocalMulticast = "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)";
const protocols = 'supported values: "SCTP", "TCP", "UDP"';
/** warnOnDeprecatedAddressType: kunion shows the server's warnings beside its errors. */
const fqdnDeprecated = "warning spec.addressType: FQDN endpoints are deprecated";

type Case = [string, JsonObject, string[]] | [string, JsonObject, string[], number];
const run = (build: (fields: JsonObject) => JsonObject, cases: Case[]) =>
  it.each(cases)("%s", (_, fields, expected, minor = 36) => {
    expect(says(build(fields), minor)).toEqual([...expected].sort());
  });

describe("Endpoints (ValidateEndpointsCreate)", () => {
  // The Endpoints of a Service without a selector, kept by hand: a database outside the cluster.
  const address = (fields: JsonObject = {}): JsonObject => ({ ip: "192.0.2.42", ...fields });
  const subset = (fields: JsonObject = {}): JsonObject => ({
    addresses: [address()],
    ports: [{ port: 5432 }],
    ...fields,
  });
  const endpoints = (fields: JsonObject): JsonObject => ({
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "external-db" },
    subsets: [subset(fields)],
  });
  const withIP = (ip: JsonValue): JsonObject => ({ addresses: [address({ ip })] });
  run(endpoints, [
    ["a manual Endpoints for a selector-less Service", {}, []],
    [
      "every field set and valid",
      {
        addresses: [address({ hostname: "db-0", nodeName: "node-1.example.com" })],
        notReadyAddresses: [{ ip: "2001:db8::5" }],
        ports: [
          { name: "postgres", port: 5432, protocol: "TCP", appProtocol: "postgresql" },
          { name: "metrics", port: 9187, protocol: "UDP", appProtocol: "example.com/metrics" },
        ],
      },
      [],
    ],
    ["only not-ready addresses", { addresses: [], notReadyAddresses: [address()] }, []],
    ["no ports (a headless Service's endpoints)", { ports: [] }, []],
    ["no subsets at all", { addresses: [address()] }, []],
    [
      "a subset without addresses",
      { addresses: [] },
      ["subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`"],
    ],
    [
      "an address that is no IP, said twice (IsValidIPForLegacyField, ValidateEndpointIP)",
      withIP("10.0.0.300"),
      [
        `subsets[0].addresses[0].ip: Invalid value: "10.0.0.300": ${notAnIP}`,
        'subsets[0].addresses[0].ip: Invalid value: "10.0.0.300": must be a valid IP address',
      ],
    ],
    [
      "an empty address",
      withIP(""),
      [
        `subsets[0].addresses[0].ip: Invalid value: "": ${notAnIP}`,
        'subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address',
      ],
    ],
    [
      "no ip: the empty one (IsValidIPForLegacyField, then ValidateNonSpecialIP)",
      { addresses: [{ hostname: "db-0" }] },
      [
        'subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address',
        'subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
    [
      "a loopback address, not ready",
      { notReadyAddresses: [address({ ip: "127.0.0.1" })] },
      [`subsets[0].notReadyAddresses[0].ip: Invalid value: "127.0.0.1": ${loopback}`],
    ],
    ["the IPv6 loopback", withIP("::1"), [`subsets[0].addresses[0].ip: Invalid value: "::1": ${loopback}`]],
    [
      "the unspecified address",
      withIP("0.0.0.0"),
      ['subsets[0].addresses[0].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)'],
    ],
    [
      "the IPv6 unspecified address",
      withIP("::"),
      ['subsets[0].addresses[0].ip: Invalid value: "::": may not be unspecified (::)'],
    ],
    [
      "a link-local address (the metadata service)",
      withIP("169.254.169.254"),
      [`subsets[0].addresses[0].ip: Invalid value: "169.254.169.254": ${linkLocal}`],
    ],
    [
      "an IPv6 link-local address",
      withIP("fe80::1"),
      [`subsets[0].addresses[0].ip: Invalid value: "fe80::1": ${linkLocal}`],
    ],
    [
      "a link-local multicast address",
      withIP("224.0.0.251"),
      [`subsets[0].addresses[0].ip: Invalid value: "224.0.0.251": ${linkLocalMulticast}`],
    ],
    [
      "an IPv6 link-local multicast address",
      withIP("ff02::1"),
      [`subsets[0].addresses[0].ip: Invalid value: "ff02::1": ${linkLocalMulticast}`],
    ],
    ["a global multicast address (allowed)", withIP("239.1.2.3"), []],
    [
      "leading zeros, refused from 1.36 (StrictIPCIDRValidation)",
      withIP("010.0.0.1"),
      ['subsets[0].addresses[0].ip: Invalid value: "010.0.0.1": must not have leading 0s'],
    ],
    [
      "leading zeros before 1.36: accepted, with apimachinery's warning (network-warnings.ts)",
      withIP("010.0.0.1"),
      [
        'warning subsets[0].addresses[0].ip: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
      ],
      35,
    ],
    [
      "an IPv4-mapped IPv6 address, refused from 1.36",
      withIP("::ffff:10.0.0.1"),
      ['subsets[0].addresses[0].ip: Invalid value: "::ffff:10.0.0.1": must not be an IPv4-mapped IPv6 address'],
    ],
    [
      "an IPv4-mapped IPv6 address before 1.36: accepted, with the warning",
      withIP("::ffff:10.0.0.1"),
      [
        'warning subsets[0].addresses[0].ip: non-standard IP address "::ffff:10.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
      ],
      33,
    ],
    [
      "a hostname that is no DNS label",
      { addresses: [address({ hostname: "DB_0" })] },
      [`subsets[0].addresses[0].hostname: Invalid value: "DB_0": ${label}`],
    ],
    ["an empty hostname (unset)", { addresses: [address({ hostname: "" })] }, []],
    [
      "a node name that is no DNS subdomain",
      { addresses: [address({ nodeName: "Node_1" })] },
      [`subsets[0].addresses[0].nodeName: Invalid value: "Node_1": ${subdomain}`],
    ],
    [
      "a node name set empty",
      { addresses: [address({ nodeName: "" })] },
      [`subsets[0].addresses[0].nodeName: Invalid value: "": ${subdomain}`],
    ],
    ["one unnamed port", { ports: [{ port: 80 }] }, []],
    [
      "two ports, one unnamed",
      { ports: [{ name: "http", port: 80 }, { port: 443 }] },
      ["subsets[0].ports[1].name: Required value"],
    ],
    [
      "two ports of the same name (not checked)",
      {
        ports: [
          { name: "http", port: 80 },
          { name: "http", port: 81 },
        ],
      },
      [],
    ],
    [
      "a port name that is no DNS label",
      { ports: [{ name: "HTTP", port: 80 }] },
      [`subsets[0].ports[0].name: Invalid value: "HTTP": ${label}`],
    ],
    [
      "port 0",
      { ports: [{ port: 0 }] },
      ["subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"],
    ],
    [
      "a port past 65535",
      { ports: [{ port: 70000 }] },
      ["subsets[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive"],
    ],
    [
      "an unsupported protocol",
      { ports: [{ port: 80, protocol: "HTTP" }] },
      [`subsets[0].ports[0].protocol: Unsupported value: "HTTP": ${protocols}`],
    ],
    ["an empty protocol, defaulted to TCP", { ports: [{ port: 80, protocol: "" }] }, []],
    [
      "an appProtocol that is no qualified name",
      { ports: [{ port: 80, appProtocol: "--" }] },
      [`subsets[0].ports[0].appProtocol: Invalid value: "--": ${qualifiedNamePart}`],
    ],
    [
      "an empty appProtocol",
      { ports: [{ port: 80, appProtocol: "" }] },
      [
        'subsets[0].ports[0].appProtocol: Invalid value: "": name part must be non-empty',
        `subsets[0].ports[0].appProtocol: Invalid value: "": ${qualifiedNamePart}`,
      ],
    ],
    [
      "errors in not-ready addresses and in ports",
      { notReadyAddresses: [address({ ip: "127.0.0.2", hostname: "a.b" })], ports: [{ port: 80 }, { port: 81 }] },
      [
        `subsets[0].notReadyAddresses[0].ip: Invalid value: "127.0.0.2": ${loopback}`,
        'subsets[0].notReadyAddresses[0].hostname: Invalid value: "a.b": must not contain dots',
        "subsets[0].ports[0].name: Required value",
        "subsets[0].ports[1].name: Required value",
      ],
    ],
  ]);
});

describe("EndpointSlices (ValidateEndpointSliceCreate)", () => {
  const endpoint = (fields: JsonObject = {}): JsonObject => ({
    addresses: ["10.1.2.3"],
    conditions: { ready: true },
    ...fields,
  });
  const slice = (fields: JsonObject): JsonObject => ({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name: "web-abc12", labels: { "kubernetes.io/service-name": "web" } },
    addressType: "IPv4",
    endpoints: [endpoint()],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    ...fields,
  });
  const addresses = (addressType: string, list: string[]): JsonObject => ({
    addressType,
    endpoints: [endpoint({ addresses: list })],
  });
  const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
  run(slice, [
    ["an IPv4 EndpointSlice", {}, []],
    [
      "every field set and valid",
      {
        endpoints: [
          endpoint({
            hostname: "web-0",
            nodeName: "node-1.example.com",
            zone: "us-east-1a",
            targetRef: { kind: "Pod", name: "web-0", namespace: "default" },
            hints: { forZones: [{ name: "us-east-1a" }] },
          }),
        ],
        ports: [
          { name: "http", port: 8080, protocol: "TCP", appProtocol: "http" },
          { name: "dns", port: 53, protocol: "UDP", appProtocol: "kubernetes.io/h2c" },
          { port: 9000 },
        ],
      },
      [],
    ],
    ["an IPv6 EndpointSlice", addresses("IPv6", ["2001:db8::1", "2001:db8::2"]), []],
    [
      "an FQDN EndpointSlice: accepted, with the strategy's deprecation warning",
      addresses("FQDN", ["example.com", "db.example.com.", "a-b.example.com"]),
      [fqdnDeprecated],
    ],
    ["no endpoints, no ports", { endpoints: [], ports: [] }, []],
    ["an empty addressType", { addressType: "" }, ["addressType: Required value"]],
    [
      "the deprecated addressType IP (refused on create)",
      { addressType: "IP" },
      ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
    ],
    [
      "an unknown addressType: its addresses are not checked",
      addresses("ipv4", ["not-an-address"]),
      ['addressType: Unsupported value: "ipv4": supported values: "FQDN", "IPv4", "IPv6"'],
    ],
    [
      "an endpoint without addresses",
      addresses("IPv4", []),
      ["endpoints[0].addresses: Required value: must contain at least 1 address"],
    ],
    [
      "an endpoint of 101 addresses",
      addresses(
        "IPv4",
        many(101, (i) => `10.1.${i >> 8}.${i & 0xff}`),
      ),
      ["endpoints[0].addresses: Too many: 101: must have at most 100 items"],
    ],
    [
      "an endpoint of 100 addresses",
      addresses(
        "IPv4",
        many(100, (i) => `10.1.2.${i + 1}`),
      ),
      [],
    ],
    [
      "1001 endpoints, and nothing said of each",
      { endpoints: [endpoint({ addresses: ["127.0.0.1"] }), ...many(1000, () => endpoint())] },
      ["endpoints: Too many: 1001: must have at most 1000 items"],
    ],
    [
      "addresses that do not parse, or are of the other family: not told, their words unsettled across releases",
      addresses("IPv4", ["10.1.2.300", "2001:db8::1", "::1", "010.1.2.3"]),
      [],
    ],
    [
      "a loopback and a link-local address",
      addresses("IPv4", ["127.0.0.1", "169.254.1.1"]),
      [
        `endpoints[0].addresses[0]: Invalid value: "127.0.0.1": ${loopback}`,
        `endpoints[0].addresses[1]: Invalid value: "169.254.1.1": ${linkLocal}`,
      ],
    ],
    [
      "special IPv6 addresses",
      addresses("IPv6", ["::", "fe80::1", "ff02::2"]),
      [
        'endpoints[0].addresses[0]: Invalid value: "::": may not be unspecified (::)',
        `endpoints[0].addresses[1]: Invalid value: "fe80::1": ${linkLocal}`,
        `endpoints[0].addresses[2]: Invalid value: "ff02::2": ${linkLocalMulticast}`,
      ],
    ],
    [
      "FQDNs that are no domain names",
      addresses("FQDN", [
        "FOO.example.com",
        "under_score.example.com.",
        "localhost",
        "",
        `${"a".repeat(64)}.example.com`,
      ]),
      [
        `endpoints[0].addresses[0]: Invalid value: "FOO.example.com": ${subdomain}`,
        `endpoints[0].addresses[1]: Invalid value: "under_score.example.com": ${subdomain}`,
        'endpoints[0].addresses[2]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
        "endpoints[0].addresses[3]: Required value",
        `endpoints[0].addresses[4]: Invalid value: "${"a".repeat(64)}": must be no more than 63 characters`,
        fqdnDeprecated,
      ],
    ],
    [
      "an FQDN too long, its messages joined",
      addresses("FQDN", [`${"a".repeat(250)}.b_c`]),
      [
        `endpoints[0].addresses[0]: Invalid value: "${"a".repeat(250)}.b_c": must be no more than 253 characters,${subdomain}`,
        fqdnDeprecated,
      ],
    ],
    [
      "a hostname that is no DNS label",
      { endpoints: [endpoint({ hostname: "Web_0" })] },
      [`endpoints[0].hostname: Invalid value: "Web_0": ${label}`],
    ],
    [
      "a hostname set empty",
      { endpoints: [endpoint({ hostname: "" })] },
      [`endpoints[0].hostname: Invalid value: "": ${label}`],
    ],
    [
      "a node name that is no DNS subdomain",
      { endpoints: [endpoint({ nodeName: "Node_1" })] },
      [`endpoints[0].nodeName: Invalid value: "Node_1": ${subdomain}`],
    ],
    ["a zone (not checked)", { endpoints: [endpoint({ zone: "Not A Zone!" })] }, []],
    [
      "deprecatedTopology, dropped when written through v1",
      { endpoints: [endpoint({ deprecatedTopology: { "topology.kubernetes.io/zone": "a", "--bad": "x" } })] },
      [],
    ],
    [
      "zone hints: one twice, one no label value",
      { endpoints: [endpoint({ hints: { forZones: [{ name: "zone-a" }, { name: "inv@lid" }, { name: "zone-a" }] } })] },
      [
        `endpoints[0].hints.forZones[1].name: Invalid value: "inv@lid": ${labelValue}`,
        'endpoints[0].hints.forZones[2].name: Duplicate value: "zone-a"',
      ],
    ],
    [
      "nine zone hints",
      {
        endpoints: [endpoint({ hints: { forZones: many(9, (i) => ({ name: `zone-${i}` })) } })],
      },
      ["endpoints[0].hints.forZones: Too many: 9: must have at most 8 items"],
    ],
    ["two unnamed ports", { ports: [{ port: 80 }, { port: 81, name: "" }] }, ['ports[1].name: Duplicate value: ""']],
    [
      "two ports of the same name",
      {
        ports: [
          { name: "http", port: 80 },
          { name: "http", port: 81, protocol: "UDP" },
        ],
      },
      ['ports[1].name: Duplicate value: "http"'],
    ],
    [
      "a port name that is no DNS label",
      { ports: [{ name: "HTTP" }] },
      [`ports[0].name: Invalid value: "HTTP": ${label}`],
    ],
    [
      "an unsupported protocol",
      { ports: [{ name: "http", protocol: "HTTP" }] },
      [`ports[0].protocol: Unsupported value: "HTTP": ${protocols}`],
    ],
    [
      "an empty protocol (set, so not defaulted)",
      { ports: [{ name: "http", protocol: "" }] },
      [`ports[0].protocol: Unsupported value: "": ${protocols}`],
    ],
    ["a null protocol, defaulted to TCP", { ports: [{ name: "http", protocol: null }] }, []],
    [
      "port numbers (not checked)",
      {
        ports: [
          { name: "a", port: 0 },
          { name: "b", port: 70000 },
        ],
      },
      [],
    ],
    [
      "an appProtocol that is no qualified name",
      { ports: [{ name: "http", appProtocol: "--" }] },
      [`ports[0].appProtocol: Invalid value: "--": ${qualifiedNamePart}`],
    ],
    [
      "20001 ports, and nothing said of each",
      { ports: many(20001, () => ({ name: "Same" })) },
      ["ports: Too many: 20001: must have at most 20000 items"],
    ],
  ]);
});
