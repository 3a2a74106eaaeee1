/**
 * IP and CIDR parsing against the tests of the code it ports: k8s.io/utils
 * internal/third_party/forked/golang/net/ip_test.go (parseIPTests, parseCIDRTests: Go 1.16's
 * net.ParseIP and net.ParseCIDR, leading zeros allowed), Go's net/ip_test.go (ipNetContainsTests,
 * ipAddrScopeTests) and apimachinery pkg/util/validation/ip_test.go (TestIsValidIP and
 * TestIsValidCIDR, their IsValidIPForLegacyField and IsValidCIDRForLegacyField cases with strict
 * validation, as StrictIPCIDRValidation is on in 1.36, and without), and the warnings of
 * GetWarningsForIP and GetWarningsForCIDR (1.33+) and of 1.32's pkg/api/service/warnings.go.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cidrWarnings,
  contains,
  type IP,
  ipString,
  ipWarnings,
  isIPv6,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  isValidCIDR,
  isValidCIDRForLegacyField,
  isValidIP,
  isValidIPForLegacyField,
  legacyIPWarnings,
  networkNumber,
  parseCIDRSloppy,
  parseIPSloppy,
} from "./index.js";

/** Go's net.IPv4(a, b, c, d): the 16-byte form. */
const ipv4 = (...octets: number[]) => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...octets];
const bytes = (s: string) => {
  const ip = parseIPSloppy(s);
  return ip === undefined ? undefined : Array.from(ip.bytes);
};

describe("netutils.ParseIPSloppy (forked parseIPTests)", () => {
  const v6 = [0x20, 0x01, 0x48, 0x60, 0, 0, 0x20, 0x01, 0, 0, 0, 0, 0, 0, 0x00, 0x68];
  it.each([
    ["127.0.1.2", ipv4(127, 0, 1, 2)],
    ["127.0.0.1", ipv4(127, 0, 0, 1)],
    ["127.001.002.003", ipv4(127, 1, 2, 3)],
    ["127.007.008.009", ipv4(127, 7, 8, 9)],
    ["127.010.020.030", ipv4(127, 10, 20, 30)],
    ["::ffff:127.1.2.3", ipv4(127, 1, 2, 3)],
    ["::ffff:127.001.002.003", ipv4(127, 1, 2, 3)],
    ["::ffff:127.007.008.009", ipv4(127, 7, 8, 9)],
    ["::ffff:127.010.020.030", ipv4(127, 10, 20, 30)],
    ["::ffff:7f01:0203", ipv4(127, 1, 2, 3)],
    ["0:0:0:0:0000:ffff:127.1.2.3", ipv4(127, 1, 2, 3)],
    ["0:0:0:0:000000:ffff:127.1.2.3", ipv4(127, 1, 2, 3)],
    ["0:0:0:0::ffff:127.1.2.3", ipv4(127, 1, 2, 3)],
    ["2001:4860:0:2001::68", v6],
    ["2001:4860:0000:2001:0000:0000:0000:0068", v6],
    ["::", new Array(16).fill(0)],
    ["1::", [0, 1, ...new Array(14).fill(0)]],
    ["-0.0.0.0", undefined],
    ["0.-1.0.0", undefined],
    ["0.0.-2.0", undefined],
    ["0.0.0.-3", undefined],
    ["127.0.0.256", undefined],
    ["abc", undefined],
    ["123:", undefined],
    ["fe80::1%lo0", undefined],
    ["fe80::1%911", undefined],
    ["", undefined],
    ["a1:a2:a3:a4::b1:b2:b3:b4", undefined],
    ["1.2..4", undefined],
    ["1.2.3", undefined],
    ["1.2.3.4.5", undefined],
    ["1:2:3:4:5:6:7:8:9", undefined],
    ["1::2::3", undefined],
    ["1:2:3:4:5:6:1.2.3.4:5", undefined],
    ["1:2:3:1.2.3.4", undefined],
  ])("%s", (input, want) => {
    expect(bytes(input)).toEqual(want);
  });
});

describe("netutils.ParseCIDRSloppy (forked parseCIDRTests)", () => {
  it.each([
    ["135.104.0.0/32", "135.104.0.0", 32],
    ["0.0.0.0/24", "0.0.0.0", 24],
    ["135.104.0.1/24", "135.104.0.0", 24],
    ["127.000.000.001/32", "127.0.0.1", 32],
    ["127.010.020.030/32", "127.10.20.30", 32],
    ["::1/128", "::1", 128],
    ["abcd:2345::/127", "abcd:2345::", 127],
    ["abcd:2345::/65", "abcd:2345::", 65],
    ["abcd:2345::/33", "abcd:2345::", 33],
    ["abcd:2344::/31", "abcd:2344::", 31],
    ["abcd:2345::/24", "abcd:2300::", 24],
    ["2001:DB8::1/48", "2001:db8::", 48],
    ["192.168.0.0/016", "192.168.0.0", 16],
  ])("%s", (input, network, bits) => {
    const cidr = parseCIDRSloppy(input);
    const want = parseIPSloppy(network)?.bytes as Uint8Array;
    expect(cidr?.bits).toBe(bits);
    expect(cidr && Array.from(networkNumber(cidr))).toEqual(Array.from(cidr?.size === 4 ? want.subarray(12) : want));
  });
  it.each([
    "192.168.1.1/255.255.255.0",
    "192.168.1.1/35",
    "2001:db8::1/-1",
    "2001:db8::1/-0",
    "2001:db8::1/129",
    "-0.0.0.0/32",
    "0.-1.0.0/32",
    "0.0.0.0/-0",
    "0.0.0.0/+8",
    "0.0.0.0/",
    "0.0.0.0",
    "",
  ])("%s is no CIDR value", (input) => {
    expect(parseCIDRSloppy(input)).toBeUndefined();
  });
  it("sizes the mask after the address as written: ::ffff:a.b.c.d takes an IPv6 prefix length", () => {
    expect(parseCIDRSloppy("::ffff:10.0.0.0/104")?.size).toBe(16);
    expect(parseCIDRSloppy("10.0.0.0/104")).toBeUndefined();
  });
});

describe("net.IPNet.Contains (ipNetContainsTests)", () => {
  it.each([
    ["172.16.0.0/12", "172.16.1.1", true],
    ["172.16.0.0/13", "172.24.0.1", false],
    ["2001:db8:1::/47", "2001:db8:1:2::1", true],
    ["2001:db8:2::/47", "2001:db8:1:2::1", false],
    ["10.0.0.0/8", "::ffff:10.1.2.3", true],
    ["10.0.0.0/8", "2001:db8::1", false],
    ["::/0", "10.0.0.1", false],
    ["::ffff:10.0.0.0/104", "10.1.2.3", true],
  ])("%s holds %s: %s", (network, address, want) => {
    const cidr = parseCIDRSloppy(network);
    const ip = parseIPSloppy(address);
    expect(cidr && ip && contains(cidr, ip.bytes)).toBe(want);
  });
});

describe("the special ranges (ipAddrScopeTests) and netutils.IsIPv6", () => {
  const is = (test: (ip: NonNullable<ReturnType<typeof parseIPSloppy>>) => boolean, s: string) =>
    test(parseIPSloppy(s) as NonNullable<ReturnType<typeof parseIPSloppy>>);
  it.each([
    [isUnspecified, "0.0.0.0", true],
    [isUnspecified, "127.0.0.1", false],
    [isUnspecified, "::", true],
    [isUnspecified, "ff01::1", false],
    [isLoopback, "127.0.0.1", true],
    [isLoopback, "127.255.255.254", true],
    [isLoopback, "128.1.2.3", false],
    [isLoopback, "::1", true],
    [isLoopback, "ff02::2", false],
    [isLinkLocalMulticast, "224.0.0.0", true],
    [isLinkLocalMulticast, "239.0.0.0", false],
    [isLinkLocalMulticast, "255.2.0.0", false],
    [isLinkLocalMulticast, "ff02::2", true],
    [isLinkLocalMulticast, "ff05::a:1", false],
    [isLinkLocalUnicast, "169.254.0.0", true],
    [isLinkLocalUnicast, "169.255.0.0", false],
    [isLinkLocalUnicast, "254.128.0.0", false],
    [isLinkLocalUnicast, "fe80::", true],
    [isLinkLocalUnicast, "fec0::", false],
    [isIPv6, "2001:db8::1", true],
    [isIPv6, "10.0.0.1", false],
    [isIPv6, "::ffff:10.0.0.1", false],
  ])("%o %s: %s", (test, address, want) => {
    expect(is(test, address)).toBe(want);
  });
});

describe("IsValidIPForLegacyField, strict (TestIsValidIP)", () => {
  const invalid = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
  it.each([
    ["1.2.3.4", []],
    ["0.0.0.0", []],
    ["255.255.255.255", []],
    ["1234::abcd", []],
    ["::", []],
    ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
    ["0:0:0:0:0:0:0:0", []],
    ["0001:002:03:4::", []],
    ["1234::ABCD", []],
    ["1.1.1.01", ["must not have leading 0s"]],
    ["::ffff:1.1.01.1", ["must not have leading 0s"]],
    ["00001::", ["must not have leading 0s"]],
    ["::ffff:1.1.1.1", ["must not be an IPv4-mapped IPv6 address"]],
    ["::ffff:101:101", ["must not be an IPv4-mapped IPv6 address"]],
    ["", [invalid]],
    ["aaaaaaa", [invalid]],
    ["myhost.mydomain", [invalid]],
    ["1.2.3.0/24", [invalid]],
    ["1.2.3.400", [invalid]],
    ["-1.0.0.0", [invalid]],
    ["2001:db8::10005", [invalid]],
    ["1.2.3.4:80", [invalid]],
    ["[2001:db8::1]", [invalid]],
    ["[2001:db8::1]:80", [invalid]],
    ["example.com:80", [invalid]],
    ["1234::abcd%eth0", [invalid]],
    ["169.254.0.0%eth0", [invalid]],
  ])("%s", (input, want) => {
    expect(isValidIPForLegacyField(input, true)).toEqual(want);
  });
});

describe("IsValidCIDRForLegacyField, strict (TestIsValidCIDR)", () => {
  const invalid = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
  const leading = "must not have leading 0s in IP or prefix length";
  const mapped = "must not have an IPv4-mapped IPv6 address";
  const bits = "must not have bits set beyond the prefix length";
  it.each([
    ["1.0.0.0/8", []],
    ["0.0.0.0/0", []],
    ["1.1.1.1/32", []],
    ["2001:4860:4860::/48", []],
    ["::/0", []],
    ["::1/128", []],
    ["2a00:79e0:2:0::/64", []],
    ["2001:DB8::/64", []],
    ["1.1.01.0/24", [leading]],
    ["192.168.0.0/016", [leading]],
    ["::ffff:1.1.1.0/24", [mapped]],
    ["::ffff:1.1.1.0/120", [mapped]],
    ["1.2.3.4/24", [bits]],
    ["2001:db8::1/64", [bits]],
    ["", [invalid]],
    ["aaaaaaa", [invalid]],
    ["1.2.3.4", [invalid]],
    ["192.168.0.1/healthz", [invalid]],
    ["192.168.0.1/0/99", [invalid]],
    ["192.168.0.0/-16", [invalid]],
    ["192.168.0.0/+16", [invalid]],
    ["10.0.0.0/33", [invalid]],
  ])("%s", (input, want) => {
    expect(isValidCIDRForLegacyField(input, true)).toEqual(want);
  });
});

describe("IsValidIPForLegacyField and IsValidCIDRForLegacyField without StrictIPCIDRValidation (before 1.36)", () => {
  it.each(["010.002.003.004", "::ffff:1.2.3.4", "2001:db8::1"])("accept the IP %s", (ip) => {
    expect(isValidIPForLegacyField(ip, false)).toEqual([]);
  });
  it.each(["1.2.3.4/24", "010.0.0.0/8", "10.0.0.0/08", "::ffff:1.1.1.0/120"])("accept the CIDR %s", (cidr) => {
    expect(isValidCIDRForLegacyField(cidr, false)).toEqual([]);
  });
  it("still refuse what is no address", () => {
    expect(isValidIPForLegacyField("1.2.3", false)).toEqual([
      "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
    ]);
    expect(isValidCIDRForLegacyField("10.0.0.0/33", false)).toEqual([
      "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
    ]);
  });
});

describe("net.IP.String", () => {
  it("prints IPv4 and IPv4-mapped addresses dotted", () => {
    expect(ipString(Uint8Array.of(192, 0, 2, 1))).toBe("192.0.2.1");
    expect(ipString((parseIPSloppy("::ffff:c000:201") as IP).bytes)).toBe("192.0.2.1");
  });

  it("prints IPv6 as RFC 5952 does, as the WHATWG URL serializer does (the first longest run of zeros)", () => {
    const group = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const bytes = new Uint8Array(groups.flatMap((g) => [g >> 8, g & 0xff]));
        const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
        fc.pre(!mapped);
        const text = groups.map((g) => g.toString(16)).join(":");
        expect(ipString(bytes)).toBe(new URL(`http://[${text}]/`).hostname.slice(1, -1));
      }),
    );
  });
});

describe("GetWarningsForIP and GetWarningsForCIDR (apimachinery util/validation/ip.go, 1.33+)", () => {
  it.each([
    ["192.0.2.1", []],
    ["2001:db8::1", []],
    [
      "010.000.002.001",
      [
        'non-standard IP address "010.000.002.001" will be considered invalid in a future Kubernetes release: use "10.0.2.1"',
      ],
    ],
    [
      "::ffff:192.0.2.1",
      [
        'non-standard IP address "::ffff:192.0.2.1" will be considered invalid in a future Kubernetes release: use "192.0.2.1"',
      ],
    ],
    ["2001:DB8::1", ['IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")']],
    ["2001:db8:0:0::1", ['IPv6 address "2001:db8:0:0::1" should be in RFC 5952 canonical format ("2001:db8::1")']],
  ])("IP %s", (value, want) => {
    expect(ipWarnings(value)).toEqual(want);
  });

  it.each([
    ["192.0.2.0/24", []],
    [
      "192.0.2.8/24",
      ['CIDR value "192.0.2.8/24" is ambiguous in this context (should be "192.0.2.0/24" or "192.0.2.8/32"?)'],
    ],
    [
      "192.000.2.0/24",
      [
        'non-standard CIDR value "192.000.2.0/24" will be considered invalid in a future Kubernetes release: use "192.0.2.0/24"',
      ],
    ],
    [
      "10.0.0.0/08",
      [
        'non-standard CIDR value "10.0.0.0/08" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
      ],
    ],
    [
      "::ffff:192.0.2.0/120",
      [
        'non-standard CIDR value "::ffff:192.0.2.0/120" will be considered invalid in a future Kubernetes release: use "192.0.2.0/120"',
      ],
    ],
    ["2001:DB8::/64", ['IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")']],
    [
      "2001:db8::1/64",
      ['CIDR value "2001:db8::1/64" is ambiguous in this context (should be "2001:db8::/64" or "2001:db8::1/128"?)'],
    ],
  ])("CIDR %s", (value, want) => {
    expect(cidrWarnings(value)).toEqual(want);
  });
});

describe("1.32's Service warnings (pkg/api/service/warnings.go getWarningsForIP, getWarningsForCIDR)", () => {
  const later = "was accepted, but will be invalid in a future Kubernetes release";
  it.each([
    ["010.0.0.1", false, [`IP address ${later}: ParseAddr("010.0.0.1"): IPv4 field has octet with leading zero`]],
    [
      "2001:DB8::1",
      false,
      [
        'IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops',
      ],
    ],
    ["::ffff:1.2.3.4", false, []],
    ["10.0.0.0/08", true, [`IP prefix ${later}: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"`]],
    [
      "010.0.0.0/8",
      true,
      [
        `IP prefix ${later}: netip.ParsePrefix("010.0.0.0/8"): ParseAddr("010.0.0.0"): IPv4 field has octet with leading zero`,
      ],
    ],
    [
      "2001:DB8::/64",
      true,
      [
        'IPv6 prefix "2001:DB8::/64" is not in RFC 5952 canonical format ("2001:db8::/64"), which may cause controller apply-loops',
      ],
    ],
    ["10.1.2.3/8", true, []],
  ])("%s", (value, prefix, want) => {
    expect(legacyIPWarnings(value, prefix)).toEqual(want);
  });
});

describe("apimachinery IsValidIP and IsValidCIDR", () => {
  it.each([
    ["192.168.1.5", []],
    ["0.0.0.0", []],
    ["2001:db8::1", []],
    ["::1", []],
    ["2001:DB8::1", ['must be in canonical form ("2001:db8::1")']],
    ["2001:db8:0:0:0:0:0:1", ['must be in canonical form ("2001:db8::1")']],
    ["192.168.001.5", ["must not have leading 0s"]],
    ["::ffff:192.168.1.5", ["must not be an IPv4-mapped IPv6 address"]],
    ["my-ip", ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]],
    ["", ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]],
  ])("IsValidIP(%j)", (value, expected) => {
    expect(isValidIP(value)).toEqual(expected);
  });

  it.each([
    ["10.0.0.0/8", []],
    ["0.0.0.0/0", []],
    ["::/0", []],
    ["10.0.0.0/08", ["must not have leading 0s in IP or prefix length"]],
    ["fd00:0::/8", ['must be in canonical form ("fd00::/8")']],
  ])("IsValidCIDR(%j)", (value, expected) => {
    expect(isValidCIDR(value)).toEqual(expected);
  });
});
