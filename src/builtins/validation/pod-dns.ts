/**
 * A PodSpec's name resolution, as pkg/apis/core/validation/validation.go
 * ValidatePodSpec checks it on create, in two places of its order:
 *
 * - validatePodDNSConfig, called right after validateAffinity: `dnsPolicy: None`
 *   needs a `dnsConfig` with a nameserver (and nothing else of it is checked
 *   when either is missing); at most MaxDNSNameservers (3) nameservers, each an
 *   IP; at most MaxDNSSearchPaths (32) search domains of at most
 *   MaxDNSSearchListChars (2048) bytes joined by spaces; each domain a DNS
 *   subdomain once one trailing dot is dropped; each option named.
 * - ValidateHostAliases, called right after ValidateTolerations: each alias's
 *   ip an IP, each of its hostnames a DNS subdomain (no dot dropped).
 *
 * Releases differ in two gates. RelaxedDNSSearchValidation (alpha and off in
 * 1.32, beta and on in 1.33, GA from 1.34; on create the gate alone decides,
 * pkg/api/pod/util.go useRelaxedDNSSearchValidation) lets a search domain be
 * "." and have underscores (ValidateDNS1123SubdomainWithUnderScore).
 * StrictIPCIDRValidation (on in 1.36) makes IsValidIPForLegacyField refuse
 * leading zeros and IPv4-mapped IPv6 addresses, as for Endpoints.
 *
 * Go prints the bad value of the two list-wide errors, a []string, with %#v:
 * `[]string{"a", "b"}`, spelled here the same way.
 */
import type { Finding } from "../../findings/index.js";
import { isValidIPForLegacyField, quote } from "../../go/index.js";
import { byteLength, isDNS1123Subdomain, isDNS1123SubdomainWithUnderscore } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { strictIPValidation } from "../releases.js";
import { asError, invalidEach, invalidShown, listAt, objectAt, objectItems, required, stringAt } from "./common.js";

const maxNameservers = 3;
const maxSearchPaths = 32;
const maxSearchListChars = 2048;

/** RelaxedDNSSearchValidation: on by default from 1.33 (beta), locked on from 1.34. */
const relaxedSearches = (minor: number) => minor >= 33;

/** The strings of a list; an item of another type never decodes, and the schema says so. */
const strings = (items: readonly JsonValue[]): [number, string][] =>
  items.flatMap((v, i): [number, string][] => (typeof v === "string" ? [[i, v]] : []));

/** Go's %#v of a []string. */
const goStrings = (items: readonly JsonValue[]): string =>
  `[]string{${items.map((v) => quote(typeof v === "string" ? v : "")).join(", ")}}`;

/** One search domain: the messages for it and the value Go reports (one trailing dot dropped). */
function searchErrors(search: string, relaxed: boolean): { value: string; errs: string[] } {
  if (relaxed && search === ".") return { value: search, errs: [] };
  const value = search.endsWith(".") ? search.slice(0, -1) : search;
  return { value, errs: relaxed ? isDNS1123SubdomainWithUnderscore(value) : isDNS1123Subdomain(value) };
}

/** validatePodDNSConfig for the PodSpec `spec` at `path` (`spec`, `spec.template.spec`, …). */
export function validatePodDNSConfig(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  const at = child(path, "dnsConfig");
  const raw = getKey(spec, "dnsConfig");
  // A dnsConfig of another type never decodes: the schema's.
  if (raw !== undefined && raw !== null && !isObject(raw)) return [];
  const config = objectAt(spec, "dnsConfig");
  const nameservers = listAt(config, "nameservers");

  // An empty dnsPolicy is defaulted to ClusterFirst (SetDefaults_PodSpec); only None asks for more.
  if (stringAt(spec, "dnsPolicy") === "None") {
    if (config === undefined) return [required(at, "must provide `dnsConfig` when `dnsPolicy` is None", asError)];
    if (nameservers.length === 0)
      return [
        required(
          child(at, "nameservers"),
          "must provide at least one DNS nameserver when `dnsPolicy` is None",
          asError,
        ),
      ];
  }
  if (config === undefined) return [];

  const out: Finding[] = [];
  const strict = strictIPValidation(minor);
  const nameserversAt = child(at, "nameservers");
  if (nameservers.length > maxNameservers)
    out.push(
      invalidShown(nameserversAt, goStrings(nameservers), `must not have more than ${maxNameservers} nameservers`),
    );
  for (const [i, ns] of strings(nameservers))
    out.push(...invalidEach(child(nameserversAt, i), ns, isValidIPForLegacyField(ns, strict)));

  const searches = listAt(config, "searches");
  const searchesAt = child(at, "searches");
  if (searches.length > maxSearchPaths)
    out.push(invalidShown(searchesAt, goStrings(searches), `must not have more than ${maxSearchPaths} search paths`));
  // strings.Join(searches, " "): the bytes of every domain and a space between each two.
  const listBytes = searches.reduce<number>((n, s) => n + byteLength(typeof s === "string" ? s : ""), 0);
  if (listBytes + Math.max(searches.length - 1, 0) > maxSearchListChars)
    out.push(
      invalidShown(
        searchesAt,
        goStrings(searches),
        `must not have more than ${maxSearchListChars} characters (including spaces) in the search list`,
      ),
    );
  const relaxed = relaxedSearches(minor);
  for (const [i, search] of strings(searches)) {
    const { value, errs } = searchErrors(search, relaxed);
    out.push(...invalidEach(child(searchesAt, i), value, errs));
  }

  // An option without a name (absent, null or "") is refused at the option, not at its name.
  for (const [i, option] of objectItems(config, "options"))
    if (stringAt(option, "name") === "") out.push(required(child(at, "options", i), "must not be empty", asError));
  return out;
}

/** ValidateHostAliases for the PodSpec `spec` at `path`. */
export function validateHostAliases(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  const strict = strictIPValidation(minor);
  const out: Finding[] = [];
  for (const [i, alias] of objectItems(spec, "hostAliases")) {
    const at = child(path, "hostAliases", i);
    // an unset ip is "", no IP
    const ip = stringAt(alias, "ip");
    if (ip !== undefined) out.push(...invalidEach(child(at, "ip"), ip, isValidIPForLegacyField(ip, strict)));
    for (const [j, hostname] of strings(listAt(alias, "hostnames")))
      out.push(...invalidEach(child(at, "hostnames", j), hostname, isDNS1123Subdomain(hostname)));
  }
  return out;
}
