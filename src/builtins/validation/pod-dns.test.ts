/**
 * A PodSpec's dnsConfig and hostAliases on create, word for word:
 * pkg/apis/core/validation/validation.go validatePodDNSConfig (MaxDNSNameservers 3, MaxDNSSearchPaths 32,
 * MaxDNSSearchListChars 2048, ValidateDNS1123Subdomain / ValidateDNS1123SubdomainWithUnderScore of each
 * search domain less one trailing dot, "." let through when relaxed) and ValidateHostAliases, with
 * apimachinery's IsValidIP (1.32) / IsValidIPForLegacyField (strict under StrictIPCIDRValidation, 1.36),
 * IsDNS1123Subdomain and IsDNS1123SubdomainWithUnderscore; the RelaxedDNSSearchValidation gate (off in
 * 1.32, on from 1.33) as pkg/api/pod/util.go useRelaxedDNSSearchValidation applies it on create. The
 * cases follow TestValidatePodDNSConfig and TestValidateHostAliases in validation_test.go, for 1.36
 * unless a case names its release.
 */
import { describe, expect, it } from "vitest";
import type { FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { validateHostAliases, validatePodDNSConfig } from "./pod-dns.js";
import { dns1123SubdomainError as subdomain } from "./test-helpers.js";

const messages = (findings: { message: string }[]) => findings.map((f) => f.message);
const dns = (spec: JsonObject, minor = 36, path: FieldPath = ["spec"]) =>
  messages(validatePodDNSConfig(spec, path, minor)).sort();
const aliases = (spec: JsonObject, minor = 36) => messages(validateHostAliases(spec, ["spec"], minor)).sort();

const notAnIP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const underscoreSubdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";
const releases = [32, 33, 34, 35, 36];

/** A valid DNS subdomain of `n` ASCII characters: labels of 49 `a`s between dots. */
const domain = (n: number) =>
  Array.from({ length: n }, (_, i) => ((i + 1) % 50 === 0 && i !== n - 1 ? "." : "a")).join("");
/** Go's %#v of a []string, the bad value of the list-wide errors. */
const goStrings = (items: string[]) => `[]string{${items.map((s) => `"${s}"`).join(", ")}}`;

describe("validatePodDNSConfig", () => {
  const none = (dnsConfig: JsonObject): JsonObject => ({ dnsPolicy: "None", dnsConfig });
  const config = (dnsConfig: JsonObject): JsonObject => ({ dnsPolicy: "ClusterFirst", dnsConfig });

  describe("clean pods say nothing", () => {
    const valid: JsonObject = {
      nameservers: ["10.96.0.10", "2001:db8::53"],
      searches: ["default.svc.cluster.local", "svc.cluster.local", "example.com."],
      options: [{ name: "ndots", value: "2" }, { name: "edns0" }],
    };
    it.each(releases)("1.%i", (minor) => {
      expect(dns({}, minor)).toEqual([]);
      expect(dns({ dnsPolicy: "ClusterFirst" }, minor)).toEqual([]);
      expect(dns({ dnsPolicy: "Default", dnsConfig: {} }, minor)).toEqual([]);
      expect(dns(none(valid), minor)).toEqual([]);
      expect(dns(config(valid), minor)).toEqual([]);
    });
  });

  describe("dnsPolicy None", () => {
    it("needs a dnsConfig", () => {
      const want = ["spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"];
      expect(dns({ dnsPolicy: "None" })).toEqual(want);
      expect(dns({ dnsPolicy: "None", dnsConfig: null })).toEqual(want);
    });
    it("needs a nameserver, and then checks nothing else", () => {
      const want = [
        "spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None",
      ];
      expect(dns(none({}))).toEqual(want);
      expect(dns(none({ nameservers: [], searches: ["Bad_Domain"], options: [{}] }))).toEqual(want);
    });
    it("is asked only of None: other policies may leave both out", () => {
      expect(dns(config({ searches: ["example.com"] }))).toEqual([]);
    });
    it("keeps the template's path", () => {
      expect(dns({ dnsPolicy: "None" }, 36, ["spec", "template", "spec"])).toEqual([
        "spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None",
      ]);
    });
  });

  describe("nameservers", () => {
    it("at most 3, the list shown as Go's %#v, and each an IP", () => {
      const nameservers = ["not-an-ip", "1.2.3.4", "1.1.1.1", "8.8.8.8"];
      const want = [
        `spec.dnsConfig.nameservers: Invalid value: ${goStrings(nameservers)}: must not have more than 3 nameservers`,
        `spec.dnsConfig.nameservers[0]: Invalid value: "not-an-ip": ${notAnIP}`,
      ];
      for (const minor of releases) expect(dns(none({ nameservers }), minor)).toEqual(want.sort());
    });
    it("three are enough", () => {
      expect(dns(none({ nameservers: ["1.2.3.4", "1.1.1.1", "8.8.8.8"] }))).toEqual([]);
    });
    it("checked under any policy", () => {
      expect(dns(config({ nameservers: ["", "10.0.0.300"] }))).toEqual([
        `spec.dnsConfig.nameservers[0]: Invalid value: "": ${notAnIP}`,
        `spec.dnsConfig.nameservers[1]: Invalid value: "10.0.0.300": ${notAnIP}`,
      ]);
    });
    it("leading zeros and IPv4-mapped addresses are refused from 1.36 (StrictIPCIDRValidation)", () => {
      const spec = none({ nameservers: ["10.0.0.010", "::ffff:10.0.0.1"] });
      expect(dns(spec, 36)).toEqual([
        'spec.dnsConfig.nameservers[0]: Invalid value: "10.0.0.010": must not have leading 0s',
        'spec.dnsConfig.nameservers[1]: Invalid value: "::ffff:10.0.0.1": must not be an IPv4-mapped IPv6 address',
      ]);
      for (const minor of [32, 33, 34, 35]) expect(dns(spec, minor)).toEqual([]);
    });
  });

  describe("searches", () => {
    const search = (...searches: string[]) => none({ nameservers: ["10.96.0.10"], searches });
    it("an underscore and an uppercase letter: relaxed words from 1.33, strict ones in 1.32", () => {
      expect(dns(search("Bad_Domain"), 36)).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "Bad_Domain": ${underscoreSubdomain}`,
      ]);
      expect(dns(search("Bad_Domain"), 33)).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "Bad_Domain": ${underscoreSubdomain}`,
      ]);
      expect(dns(search("Bad_Domain"), 32)).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "Bad_Domain": ${subdomain}`,
      ]);
    });
    it("underscores are allowed from 1.33 (RelaxedDNSSearchValidation)", () => {
      const spec = search("_sip._tcp.example.com", "my_svc.example.com");
      for (const minor of [33, 34, 35, 36]) expect(dns(spec, minor)).toEqual([]);
      expect(dns(spec, 32)).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "_sip._tcp.example.com": ${subdomain}`,
        `spec.dnsConfig.searches[1]: Invalid value: "my_svc.example.com": ${subdomain}`,
      ]);
    });
    it('a single "." is allowed from 1.33; 1.32 checks what is left once the dot is dropped', () => {
      for (const minor of [33, 34, 35, 36]) expect(dns(search("."), minor)).toEqual([]);
      expect(dns(search("."), 32)).toEqual([`spec.dnsConfig.searches[0]: Invalid value: "": ${subdomain}`]);
    });
    it("one trailing dot is dropped, and the value is reported without it", () => {
      for (const minor of releases) expect(dns(search("example.com."), minor)).toEqual([]);
      expect(dns(search("example.com.."), 36)).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "example.com.": ${underscoreSubdomain}`,
      ]);
      expect(dns(search("example.com.."), 32)).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "example.com.": ${subdomain}`,
      ]);
    });
    it("a domain past 253 bytes", () => {
      const long = domain(254);
      expect(dns(search(long))).toEqual([
        `spec.dnsConfig.searches[0]: Invalid value: "${long}": must be no more than 253 characters`,
      ]);
      expect(dns(search(`${domain(253)}.`))).toEqual([]);
    });
    it("at most 32 search paths", () => {
      const paths = Array.from({ length: 33 }, (_, i) => `d${i}.example.com`);
      expect(dns(search(...paths))).toEqual([
        `spec.dnsConfig.searches: Invalid value: ${goStrings(paths)}: must not have more than 32 search paths`,
      ]);
      expect(dns(search(...paths.slice(1)))).toEqual([]);
    });
    it("at most 2048 characters joined by spaces", () => {
      const eight = Array.from({ length: 8 }, () => domain(227));
      // 8 × 227 + 224, and 8 spaces: 2048.
      expect(dns(search(...eight, domain(224)))).toEqual([]);
      const over = [...eight, domain(225)];
      expect(dns(search(...over))).toEqual([
        `spec.dnsConfig.searches: Invalid value: ${goStrings(over)}: must not have more than 2048 characters (including spaces) in the search list`,
      ]);
    });
    it("the characters are counted in bytes, as Go's len", () => {
      const eight = Array.from({ length: 8 }, () => domain(227));
      // 113 two-byte letters: 2050 bytes, though 1937 UTF-16 units.
      const wide = "ü".repeat(113);
      const list = [...eight, wide];
      expect(dns(search(...list))).toEqual([
        `spec.dnsConfig.searches: Invalid value: ${goStrings(list)}: must not have more than 2048 characters (including spaces) in the search list`,
        `spec.dnsConfig.searches[8]: Invalid value: "${wide}": ${underscoreSubdomain}`,
      ]);
    });
  });

  describe("options", () => {
    it("each needs a name, reported at the option", () => {
      const spec = none({
        nameservers: ["10.96.0.10"],
        options: [{ name: "ndots", value: "5" }, { value: "1" }, { name: "" }],
      });
      expect(dns(spec)).toEqual([
        "spec.dnsConfig.options[1]: Required value: must not be empty",
        "spec.dnsConfig.options[2]: Required value: must not be empty",
      ]);
    });
  });

  it("says its errors in Go's order: nameservers, searches, options", () => {
    const spec = none({
      nameservers: ["a", "b", "c", "d"],
      searches: ["B"],
      options: [{}],
    });
    expect(messages(validatePodDNSConfig(spec, ["spec"], 36))).toEqual([
      `spec.dnsConfig.nameservers: Invalid value: ${goStrings(["a", "b", "c", "d"])}: must not have more than 3 nameservers`,
      `spec.dnsConfig.nameservers[0]: Invalid value: "a": ${notAnIP}`,
      `spec.dnsConfig.nameservers[1]: Invalid value: "b": ${notAnIP}`,
      `spec.dnsConfig.nameservers[2]: Invalid value: "c": ${notAnIP}`,
      `spec.dnsConfig.nameservers[3]: Invalid value: "d": ${notAnIP}`,
      `spec.dnsConfig.searches[0]: Invalid value: "B": ${underscoreSubdomain}`,
      "spec.dnsConfig.options[0]: Required value: must not be empty",
    ]);
  });
});

describe("validateHostAliases", () => {
  const alias = (ip: string | undefined, ...hostnames: string[]): JsonObject =>
    ip === undefined ? { hostnames } : { ip, hostnames };

  it.each(releases)("clean aliases say nothing (1.%i)", (minor) => {
    expect(aliases({}, minor)).toEqual([]);
    expect(
      aliases({ hostAliases: [alias("127.0.0.1", "foo.local", "bar.local"), alias("2001:db8::1", "v6.local")] }, minor),
    ).toEqual([]);
  });

  it.each(releases)("an ip that is none and a hostname that is no subdomain (1.%i)", (minor) => {
    expect(aliases({ hostAliases: [alias("nope", "Bad_Host")] }, minor)).toEqual([
      `spec.hostAliases[0].hostnames[0]: Invalid value: "Bad_Host": ${subdomain}`,
      `spec.hostAliases[0].ip: Invalid value: "nope": ${notAnIP}`,
    ]);
  });

  it("hostnames keep their trailing dot and may not have underscores, in every release", () => {
    for (const minor of releases)
      expect(aliases({ hostAliases: [alias("10.0.0.1", "ok.local", "example.com.", "my_host")] }, minor)).toEqual([
        `spec.hostAliases[0].hostnames[1]: Invalid value: "example.com.": ${subdomain}`,
        `spec.hostAliases[0].hostnames[2]: Invalid value: "my_host": ${subdomain}`,
      ]);
  });

  it("each alias at its index", () => {
    expect(aliases({ hostAliases: [alias("10.0.0.1", "a.local"), alias("10.0.0.256", "")] })).toEqual([
      `spec.hostAliases[1].hostnames[0]: Invalid value: "": ${subdomain}`,
      `spec.hostAliases[1].ip: Invalid value: "10.0.0.256": ${notAnIP}`,
    ]);
  });

  it("an ip set to empty is none, and so is an unset one", () => {
    expect(aliases({ hostAliases: [alias("", "a.local")] })).toEqual([
      `spec.hostAliases[0].ip: Invalid value: "": ${notAnIP}`,
    ]);
    expect(aliases({ hostAliases: [alias(undefined, "A")] })).toEqual([
      `spec.hostAliases[0].hostnames[0]: Invalid value: "A": ${subdomain}`,
      `spec.hostAliases[0].ip: Invalid value: "": ${notAnIP}`,
    ]);
  });

  it("leading zeros and IPv4-mapped addresses are refused from 1.36 (StrictIPCIDRValidation)", () => {
    const spec = { hostAliases: [alias("192.168.001.1", "a.local"), alias("::ffff:192.168.1.1", "b.local")] };
    expect(aliases(spec, 36)).toEqual([
      'spec.hostAliases[0].ip: Invalid value: "192.168.001.1": must not have leading 0s',
      'spec.hostAliases[1].ip: Invalid value: "::ffff:192.168.1.1": must not be an IPv4-mapped IPv6 address',
    ]);
    for (const minor of [32, 33, 34, 35]) expect(aliases(spec, minor)).toEqual([]);
  });
});

describe("the pod kubectl apply refuses", () => {
  // dnsPolicy None, four nameservers one of which is no IP, a search domain with an uppercase letter,
  // and a host alias whose ip and hostname are both wrong.
  const spec: JsonObject = {
    dnsPolicy: "None",
    dnsConfig: { nameservers: ["not-an-ip", "1.2.3.4", "1.1.1.1", "8.8.8.8"], searches: ["Bad_Domain"] },
    hostAliases: [{ ip: "nope", hostnames: ["Bad_Host"] }],
  };
  it.each([
    [36, underscoreSubdomain],
    [32, subdomain],
  ])("1.%i", (minor, searchError) => {
    expect([...dns(spec, minor), ...aliases(spec, minor)]).toEqual([
      `spec.dnsConfig.nameservers: Invalid value: []string{"not-an-ip", "1.2.3.4", "1.1.1.1", "8.8.8.8"}: must not have more than 3 nameservers`,
      `spec.dnsConfig.nameservers[0]: Invalid value: "not-an-ip": ${notAnIP}`,
      `spec.dnsConfig.searches[0]: Invalid value: "Bad_Domain": ${searchError}`,
      `spec.hostAliases[0].hostnames[0]: Invalid value: "Bad_Host": ${subdomain}`,
      `spec.hostAliases[0].ip: Invalid value: "nope": ${notAnIP}`,
    ]);
  });
});
