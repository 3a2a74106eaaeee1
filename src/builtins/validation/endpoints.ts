/**
 * The API server's create validation of core/v1 Endpoints
 * (pkg/apis/core/validation/validation.go ValidateEndpointsCreate: ValidateEndpoints,
 * validateEndpointSubsets, validateEndpointAddress, validateEndpointPort, ValidateEndpointIP) and of
 * discovery.k8s.io/v1 EndpointSlices (pkg/apis/discovery/validation/validation.go
 * ValidateEndpointSliceCreate: ValidateEndpointSlice, validateAddressType, validateEndpoints,
 * validateHints, validatePorts). Object metadata is validated elsewhere, as for every kind.
 *
 * An Endpoints address is IsValidIPForLegacyField, strict where StrictIPCIDRValidation is on (1.36), then
 * ValidateEndpointIP, which says again, in its own words, that an unparsable address is no IP address.
 *
 * Not told, their words unsettled across 1.30-1.36 (IsValidIPv4Address went from "must be a valid IPv4
 * address" to the strict parser's words and a family check): whether an EndpointSlice's IPv4 or IPv6
 * address parses and is of the slice's family. An address that is, in a special range, is refused in the
 * same words in every release. Nor `hints.forNodes` (1.33, PreferSameTrafficDistribution), whose rules
 * were not found in a release's source.
 *
 * What the server drops or defaults first: a port's protocol ("" on Endpoints, unset on
 * EndpointSlices) is TCP; an EndpointSlice port's unset name is ""; `deprecatedTopology` written
 * through v1 is dropped (dropTopologyOnV1), so it is never validated here. An EndpointSlice port's
 * number and an endpoint's zone are not validated by the server.
 */
import { type Finding, tooMany } from "../../findings/index.js";
import { isIPv6, isValidIPForLegacyField, parseIPSloppy } from "../../go/index.js";
import { isDNS1123Label, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import { strictIPValidation } from "../releases.js";
import {
  asError,
  duplicate,
  intAt,
  invalidEach,
  isFullyQualifiedDomainName,
  isSet,
  isValidPortNum,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  oneOf,
  required,
  requiredIfEmpty,
  stringAt,
} from "./common.js";
import { validateEndpointIP } from "./core.js";
import { portProtocols } from "./pod.js";

// ---------------------------------------------------------------------------
// core/v1 Endpoints

export function validateEndpoints(object: JsonObject, minor: number): Finding[] {
  const strict = strictIPValidation(minor);
  const out: Finding[] = [];
  for (const [i, subset] of objectItems(object, "subsets")) {
    const at = child(["subsets"], i);
    if (listAt(subset, "addresses").length === 0 && listAt(subset, "notReadyAddresses").length === 0)
      out.push(required(at, "must specify `addresses` or `notReadyAddresses`", asError));
    for (const key of ["addresses", "notReadyAddresses"])
      for (const [j, address] of objectItems(subset, key))
        out.push(...validateEndpointAddress(address, child(at, key, j), strict));
    // A subset without ports is a headless Service's.
    const requireName = listAt(subset, "ports").length > 1;
    for (const [j, port] of objectItems(subset, "ports"))
      out.push(...validateEndpointPort(port, requireName, child(at, "ports", j)));
  }
  return out;
}

/** validateEndpointAddress: the IP, then the hostname (when given) and the node's name (when set). */
function validateEndpointAddress(address: JsonObject, at: FieldPath, strict: boolean): Finding[] {
  const out: Finding[] = [];
  const ipAt = child(at, "ip");
  // an unset ip is "", no IP
  const ip = stringAt(address, "ip");
  if (ip !== undefined) out.push(...invalidEach(ipAt, ip, isValidIPForLegacyField(ip, strict)));
  const hostname = stringAt(address, "hostname");
  if (hostname) out.push(...invalidEach(child(at, "hostname"), hostname, isDNS1123Label(hostname)));
  out.push(...nodeNameErrors(address, at));
  if (ip !== undefined) out.push(...validateEndpointIP(ip, ipAt));
  return out;
}

/** validateEndpointPort: a name when the subset has several ports, the number, the (defaulted) protocol. */
function validateEndpointPort(port: JsonObject, requireName: boolean, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(port, "name");
  if (requireName && name === "") out.push(required(child(at, "name"), "", asError));
  else if (name) out.push(...invalidEach(child(at, "name"), name, isDNS1123Label(name)));
  // an unset port is 0
  const number = intAt(port, "port");
  if (number !== undefined) out.push(...invalidEach(child(at, "port"), number, isValidPortNum(number)));
  // SetDefaults_Endpoints: an empty protocol is TCP.
  out.push(...oneOf(port, "protocol", at, portProtocols));
  out.push(...appProtocolErrors(port, at));
  return out;
}

// ---------------------------------------------------------------------------
// discovery.k8s.io/v1 EndpointSlices

/** supportedAddressTypes, as sets.List prints them. */
const addressTypes = ["FQDN", "IPv4", "IPv6"];
const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;
const maxZoneHints = 8;

export function validateEndpointSlice(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  // An absent addressType is the schema's required field; an empty one is the server's.
  out.push(...requiredIfEmpty(object, "addressType", []));
  const addressType = stringAt(object, "addressType");
  if (addressType && !addressTypes.includes(addressType))
    out.push(notSupported(["addressType"], addressType, addressTypes, asError));
  const endpoints = listAt(object, "endpoints");
  if (endpoints.length > maxEndpoints) out.push(tooMany(["endpoints"], endpoints.length, maxEndpoints, asError));
  else
    for (const [i, endpoint] of objectItems(object, "endpoints"))
      out.push(...validateEndpoint(endpoint, addressType, child(["endpoints"], i)));
  out.push(...validateSlicePorts(object));
  return out;
}

/** validateEndpoints, for one endpoint. */
function validateEndpoint(endpoint: JsonObject, addressType: string | undefined, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const addressesAt = child(at, "addresses");
  const addresses = getKey(endpoint, "addresses") ?? [];
  // absent or null, Go's nil slice: no address either
  if (Array.isArray(addresses)) {
    if (addresses.length === 0) out.push(required(addressesAt, "must contain at least 1 address", asError));
    else if (addresses.length > maxAddresses) out.push(tooMany(addressesAt, addresses.length, maxAddresses, asError));
    addresses.forEach((address, j) => {
      if (typeof address === "string") out.push(...addressErrors(address, addressType, child(addressesAt, j)));
    });
  }
  out.push(...nodeNameErrors(endpoint, at));
  // A hostname set to "" is no DNS label.
  const hostname = isSet(endpoint, "hostname") ? stringAt(endpoint, "hostname") : undefined;
  if (hostname !== undefined) out.push(...invalidEach(child(at, "hostname"), hostname, isDNS1123Label(hostname)));
  const hints = objectAt(endpoint, "hints");
  if (hints !== undefined) out.push(...validateZoneHints(hints, child(at, "hints")));
  return out;
}

/** An address checked as its slice's addressType says; an address of an unknown type is not checked. */
function addressErrors(address: string, addressType: string | undefined, at: FieldPath): Finding[] {
  switch (addressType) {
    case "IPv4":
    case "IPv6": {
      // only an address of the slice's family: whether it parses, and its family, are not told (see above)
      const ip = parseIPSloppy(address);
      return ip === undefined || isIPv6(ip) !== (addressType === "IPv6") ? [] : validateEndpointIP(address, at);
    }
    case "FQDN":
      return isFullyQualifiedDomainName(address, at);
    default:
      return [];
  }
}

/** validateHints: at most 8 zones, each a label value, none twice. */
function validateZoneHints(hints: JsonObject, at: FieldPath): Finding[] {
  const zonesAt = child(at, "forZones");
  const count = listAt(hints, "forZones").length;
  if (count > maxZoneHints) return [tooMany(zonesAt, count, maxZoneHints, asError)];
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const [i, hint] of objectItems(hints, "forZones")) {
    const name = stringAt(hint, "name");
    if (name === undefined) continue;
    const nameAt = child(zonesAt, i, "name");
    if (seen.has(name)) out.push(duplicate(nameAt, name, asError));
    else seen.add(name);
    out.push(...invalidEach(nameAt, name, isValidLabelValue(name)));
  }
  return out;
}

/** validatePorts: at most 20000, names DNS labels and unique ("" too), protocols supported. */
function validateSlicePorts(object: JsonObject): Finding[] {
  const ports = listAt(object, "ports");
  if (ports.length > maxPorts) return [tooMany(["ports"], ports.length, maxPorts, asError)];
  const out: Finding[] = [];
  const names = new Set<string>();
  for (const [i, port] of objectItems(object, "ports")) {
    const at = child(["ports"], i);
    // SetDefaults_EndpointPort: an unset name is "".
    const name = stringAt(port, "name");
    if (name !== undefined) {
      if (name !== "") out.push(...invalidEach(child(at, "name"), name, isDNS1123Label(name)));
      if (names.has(name)) out.push(duplicate(child(at, "name"), name, asError));
      else names.add(name);
    }
    // An unset protocol is defaulted to TCP; one set, "" included, must be supported.
    const protocol = getKey(port, "protocol");
    if (typeof protocol === "string" && !portProtocols.includes(protocol))
      out.push(notSupported(child(at, "protocol"), protocol, portProtocols, asError));
    out.push(...appProtocolErrors(port, at));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Shared by both kinds

/** A node's name, when set ("" included): ValidateNodeName, a DNS subdomain. */
function nodeNameErrors(o: JsonObject, at: FieldPath): Finding[] {
  const nodeName = isSet(o, "nodeName") ? stringAt(o, "nodeName") : undefined;
  return nodeName === undefined
    ? []
    : invalidEach(child(at, "nodeName"), nodeName, nameIsDNSSubdomain(nodeName, false));
}

/** An appProtocol, when set ("" included): ValidateQualifiedName. */
function appProtocolErrors(port: JsonObject, at: FieldPath): Finding[] {
  const appProtocol = isSet(port, "appProtocol") ? stringAt(port, "appProtocol") : undefined;
  return appProtocol === undefined
    ? []
    : invalidEach(child(at, "appProtocol"), appProtocol, isQualifiedName(appProtocol));
}
