/**
 * The warnings the API server sends back when it creates a NetworkPolicy, an Endpoints, an EndpointSlice
 * or a Node (each kind's strategy, WarningsOnCreate), by release:
 *
 * - NetworkPolicy (pkg/registry/networking/networkpolicy/strategy.go networkPolicyWarnings), Endpoints
 *   (pkg/registry/core/endpoint/strategy.go endpointsWarnings), an EndpointSlice's addresses
 *   (pkg/registry/discovery/endpointslice/strategy.go warnOnBadIPs) and a Node's pod CIDRs
 *   (pkg/registry/core/node/strategy.go nodeWarnings): apimachinery's GetWarningsForIP and
 *   GetWarningsForCIDR, from 1.33 (kubernetes#128786, KEP-4858). Release 1.32 says nothing of them.
 * - An EndpointSlice of addressType FQDN (warnOnDeprecatedAddressType, kubernetes#114677, 1.27) and a
 *   Node's spec.externalID (kubernetes#115944, 1.27): in every release kunion checks.
 *
 * From 1.36 StrictIPCIDRValidation (beta, on) refuses on create what the form warnings name, save an IPv6
 * value's canonical form: as for the Service (warnings.ts), a value the strict check refuses gets no
 * warning here, its error being told by the validation. Go walks every list in order, so the warnings
 * come in the order the object is written.
 */
import type { Finding } from "../../findings/index.js";
import {
  cidrWarnings,
  ipWarnings,
  isValidCIDRForLegacyField,
  isValidIPForLegacyField,
  legacyIPWarnings,
} from "../../go/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { apimachineryIPWarnings, strictIPValidation } from "../releases.js";
import { listAt, objectAt, objectItems, stringAt, warningAt } from "./common.js";
import { wholeWarning } from "./node-labels.js";

/**
 * The warning of one value's form, at `at`, as release 1.`minor` gives it: GetWarningsForIP (`prefix` false)
 * or GetWarningsForCIDR from 1.33, a Service's own words before; none when the value is no string, or when
 * the field is `validated` as an address and the strict validation of 1.36 refuses it instead.
 */
export function formWarningsAt(
  at: FieldPath,
  value: JsonValue | undefined,
  prefix: boolean,
  minor: number,
  validated = true,
): Finding[] {
  if (typeof value !== "string") return [];
  const refused = (prefix ? isValidCIDRForLegacyField : isValidIPForLegacyField)(value, true).length > 0;
  if (validated && strictIPValidation(minor) && refused) return [];
  const texts = apimachineryIPWarnings(minor)
    ? (prefix ? cidrWarnings : ipWarnings)(value)
    : legacyIPWarnings(value, prefix);
  return texts.map((text) => warningAt(at, text));
}

/** The label a controller's objects carry, checked against the value it writes: `labels[key] === value`. */
function labelledBy(object: JsonObject, key: string, values: readonly string[]): boolean {
  const labels = objectAt(objectAt(object, "metadata"), "labels");
  const value = labels === undefined ? undefined : getKey(labels, key);
  return typeof value === "string" && values.includes(value);
}

/**
 * networkPolicyWarnings (1.33+): each ingress rule's `from` peers, then each egress rule's `to` peers;
 * of a peer's ipBlock, its cidr then its except entries, each through GetWarningsForCIDR.
 */
export function networkPolicyWarnings(object: JsonObject, minor: number): Finding[] {
  if (!apimachineryIPWarnings(minor)) return [];
  const spec = objectAt(object, "spec");
  const out: Finding[] = [];
  for (const [direction, peers] of [
    ["ingress", "from"],
    ["egress", "to"],
  ] as const) {
    for (const [i, rule] of objectItems(spec, direction))
      for (const [j, peer] of objectItems(rule, peers)) {
        const block = objectAt(peer, "ipBlock");
        if (block === undefined) continue;
        const at = ["spec", direction, i, peers, j, "ipBlock"];
        out.push(...formWarningsAt(child(at, "cidr"), getKey(block, "cidr"), true, minor));
        listAt(block, "except").forEach((except, k) => {
          out.push(...formWarningsAt(child(at, "except", k), except, true, minor));
        });
      }
  }
  return out;
}

/** endpointscontroller.LabelManagedBy and ControllerName: the Endpoints controller's own objects. */
const endpointsManagedBy = "endpoints.kubernetes.io/managed-by";
const endpointsController = "endpoint-controller";

/**
 * endpointsWarnings (1.33+): per subset, each address's ip, then each not-ready address's ip, through
 * GetWarningsForIP. Nothing for the Endpoints controller's objects (labelled managed-by
 * endpoint-controller), whose addresses it has already put in canonical form.
 */
export function endpointsWarnings(object: JsonObject, minor: number): Finding[] {
  if (!apimachineryIPWarnings(minor) || labelledBy(object, endpointsManagedBy, [endpointsController])) return [];
  const out: Finding[] = [];
  for (const [i, subset] of objectItems(object, "subsets"))
    for (const list of ["addresses", "notReadyAddresses"])
      for (const [j, address] of objectItems(subset, list))
        out.push(...formWarningsAt(["subsets", i, list, j, "ip"], getKey(address, "ip"), false, minor));
  return out;
}

/** discoveryv1.LabelManagedBy, and the ControllerName of the EndpointSlice and mirroring controllers. */
const sliceManagedBy = "endpointslice.kubernetes.io/managed-by";
const sliceControllers = ["endpointslice-controller.k8s.io", "endpointslicemirroring-controller.k8s.io"];

/**
 * The EndpointSlice strategy's WarningsOnCreate: warnOnDeprecatedAddressType (its path says `spec.`,
 * though addressType is top-level), then warnOnBadIPs (1.33+), each endpoint's addresses through
 * GetWarningsForIP whatever the addressType (a name that is no IP address gives none), skipped for the
 * two controllers' slices. Only an IPv4 or IPv6 slice's addresses are validated as IP addresses, so
 * only theirs are refused, not warned about, from 1.36.
 */
export function endpointSliceWarnings(object: JsonObject, minor: number): Finding[] {
  const out: Finding[] = [];
  const addressType = stringAt(object, "addressType");
  if (addressType === "FQDN")
    out.push(wholeWarning(["addressType"], "spec.addressType: FQDN endpoints are deprecated"));
  if (!apimachineryIPWarnings(minor) || labelledBy(object, sliceManagedBy, sliceControllers)) return out;
  const validated = addressType === "IPv4" || addressType === "IPv6";
  for (const [i, endpoint] of objectItems(object, "endpoints"))
    listAt(endpoint, "addresses").forEach((address, j) => {
      out.push(...formWarningsAt(["endpoints", i, "addresses", j], address, false, minor, validated));
    });
  return out;
}

/**
 * The Node strategy's WarningsOnCreate (fieldIsDeprecatedWarnings, nodeWarnings from 1.33): a set
 * spec.externalID, then (1.33+) each of spec.podCIDRs through GetWarningsForCIDR. Its spec.configSource
 * warning cannot come on create: PrepareForCreate (dropDisabledFields) clears the field first.
 */
export function nodeWarnings(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  const out: Finding[] = [];
  if (stringAt(spec, "externalID"))
    out.push(warningAt(["spec", "externalID"], "this field is deprecated, and is unused by Kubernetes"));
  if (!apimachineryIPWarnings(minor)) return out;
  listAt(spec, "podCIDRs").forEach((cidr, i) => {
    out.push(...formWarningsAt(["spec", "podCIDRs", i], cidr, true, minor));
  });
  return out;
}
