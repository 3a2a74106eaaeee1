/**
 * networking.k8s.io ServiceCIDRs and IPAddresses (v1 from 1.33, v1beta1 before and beside it), as the API
 * server validates them on create (kubernetes/kubernetes pkg/apis/networking/validation/validation.go):
 *
 * - ServiceCIDR: ValidateServiceCIDR and validateServiceCIDRSpec. Its name rule is ValidateServiceCIDRName,
 *   NameIsDNSSubdomain, which the generic metadata check already applies. `spec.cidrs` holds one or two
 *   values (none is Required, more than two Invalid with the spec as the bad value, and nothing else is
 *   said then), each apimachinery's IsValidCIDR (strict and canonical, whatever StrictIPCIDRValidation
 *   says: it is the rule for new fields), and two of them one of each IP family.
 * - IPAddress: ValidateIPAddress and validateIPAddressParentReference. Its name is the address itself:
 *   ValidateIPAddressName is IsValidIP's details (`ipAddressNameRule`, for the name rules of names.ts), even
 *   for a generateName, whose prefix flag it ignores.
 *
 * Both are cluster-scoped and have no defaults (networking/v1 and v1beta1 default neither).
 *
 * Releases: these are 1.33's rules and later ones' (KEP-4858 made IsValidIP and IsValidCIDR strict, and
 * kubernetes#131263, a 1.33 release blocker, split out validateServiceCIDRSpec: each CIDR validated, then
 * the family check). Release 1.32 serves only v1beta1, off by default, and words the same checks through
 * net/netip's own errors (`netip.ParsePrefix(...)`, "CIDR not in RFC 5952 canonical format"), which are
 * not ported: `minor` below 33 gets no finding from here.
 */
import type { Finding } from "../../findings/index.js";
import { isIPv6, isValidCIDR, isValidIP, parseCIDRSloppy } from "../../go/index.js";
import { isDNS1123Subdomain, isValidPathSegmentName, type NameRule } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  invalid,
  invalidEach,
  isSet,
  listAt,
  objectAt,
  required,
  requiredIfEmpty,
  stringAt,
} from "./common.js";

/** The first release whose words these are. */
const firstPortedMinor = 33;

/** ValidateIPAddressName: an IPAddress's `metadata.name` (and generateName: the prefix flag is ignored). */
export const ipAddressNameRule: NameRule = (name) => isValidIP(name);

/** utils/net IPFamilyOfCIDRString: the family of the address before the slash; undefined when unknown. */
function familyOf(value: unknown): 4 | 6 | undefined {
  const cidr = typeof value === "string" ? parseCIDRSloppy(value) : undefined;
  if (cidr === undefined) return undefined;
  return isIPv6(cidr.ip) ? 6 : 4;
}

/** ValidateServiceCIDR (validateServiceCIDRSpec at `spec.cidrs`). */
export function validateServiceCIDR(object: JsonObject, minor: number): Finding[] {
  if (minor < firstPortedMinor) return [];
  const spec = objectAt(object, "spec");
  const at: FieldPath = ["spec", "cidrs"];
  const cidrs = listAt(spec, "cidrs");
  if (cidrs.length === 0) return [required(at, "at least one CIDR required", asError)];
  // Go prints the ServiceCIDRSpec struct; kunion the spec as JSON.
  if (cidrs.length > 2) return [invalid(at, spec ?? null, "may only hold up to 2 values", asError)];
  const out: Finding[] = [];
  cidrs.forEach((cidr, i) => {
    if (typeof cidr === "string") out.push(...invalidEach(child(at, i), cidr, isValidCIDR(cidr)));
  });
  const first = familyOf(cidrs[0]);
  if (cidrs.length === 2 && first !== undefined && first === familyOf(cidrs[1]))
    out.push(
      invalid(
        at,
        cidrs,
        "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
        asError,
      ),
    );
  return out;
}

/**
 * ValidateIPAddress's spec: validateIPAddressParentReference. The name is the name rule's. A parentRef
 * absent from a spec that is there, and its resource and name absent, are the schema's `required`.
 */
export function validateIPAddress(object: JsonObject, minor: number): Finding[] {
  if (minor < firstPortedMinor) return [];
  const spec = objectAt(object, "spec");
  const at: FieldPath = ["spec", "parentRef"];
  if (!isSet(object, "spec")) return [required(at, "", asError)];
  const ref = objectAt(spec, "parentRef");
  if (ref === undefined) return [];
  // The core group of a Service is "", so an empty group is allowed.
  const out: Finding[] = [];
  const group = stringAt(ref, "group");
  if (group) out.push(...invalidEach(child(at, "group"), group, isDNS1123Subdomain(group)));
  for (const key of ["resource", "name"]) {
    const value = stringAt(ref, key);
    if (value === "") out.push(...requiredIfEmpty(ref, key, at));
    else if (value !== undefined) out.push(...invalidEach(child(at, key), value, isValidPathSegmentName(value, false)));
  }
  const namespace = getKey(ref, "namespace");
  if (typeof namespace === "string" && namespace !== "")
    out.push(...invalidEach(child(at, "namespace"), namespace, isValidPathSegmentName(namespace, false)));
  return out;
}
