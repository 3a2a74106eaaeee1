/**
 * resource.k8s.io/v1 (Dynamic Resource Allocation) DeviceClasses, ResourceClaims and ResourceClaimTemplates
 * as the API server validates them on create (kubernetes/kubernetes pkg/apis/resource/validation
 * ValidateDeviceClass, ValidateResourceClaim, ValidateResourceClaimTemplate), after resource/v1
 * SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest (an empty allocationMode is ExactCount, and
 * ExactCount without a count asks for 1) and the generated default of a toleration's operator (Equal).
 *
 * - validateDeviceClaim: at most 32 requests, constraints and configs (validateSet / validateSlice: too many
 *   is reported at the list, and its items are then not looked at).
 * - validateDeviceRequest: the name a DNS label; which of `exactly` and `firstAvailable` is set is the union's
 *   (unions/wording-resource.ts), and a member is validated only when it is the only one set.
 * - validateExactDeviceRequest and validateDeviceSubRequest: the class a DNS subdomain (Required when set
 *   empty), at most 32 selectors, each with `cel` (dra-cel.ts), validateDeviceAllocationMode; a subrequest's
 *   name a DNS label, at most 8 subrequests.
 * - validateDeviceConstraint: its requests name requests of the claim (validateRequestNameRef);
 *   `matchAttribute` a fully qualified attribute name (validateFullyQualifiedName).
 * - validateDeviceClaimConfiguration / validateDeviceConfiguration: requests as for constraints, `opaque`
 *   required, its driver a CSI driver name, its parameters a JSON object of at most 10 KiB
 *   (validateRawExtension).
 * - ValidateDeviceClass: selectors and config as above.
 *
 * Release differences: fields whose feature gate is alpha (off) are dropped on create and not validated.
 * DRAConsumableCapacity (beta from 1.36) brings `distinctAttribute`; DRADeviceTaints (beta from 1.36) the
 * tolerations (validateDeviceToleration); DRAExtendedResource (beta from 1.36) a class's
 * `extendedResourceName`. Duplicate request names and references are reported from 1.36 only: before,
 * kunion does not know the path the server reports them at.
 *
 * A claim template's `spec.metadata` is core's ValidateTemplateObjectMeta (volumes.ts). Not ported: the
 * admin-access namespace check (the strategy reads the namespace), the CEL cost limit.
 */
import { type Finding, tooLong, tooMany } from "../../findings/index.js";
import {
  byteLength,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  regexError,
} from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  duplicate,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  optionalIntAt,
  required,
  setStringAt,
  stringAt,
} from "./common.js";
import { consumableCapacity, validateSelectorExpression } from "./dra-cel.js";
import { isNativeResource } from "./resources.js";
import { validateCSIDriverName, validateTemplateObjectMeta } from "./volumes.js";

/** resource.DeviceRequestsMaxSize, DeviceConstraintsMaxSize, DeviceConfigMaxSize, DeviceSelectorsMaxSize. */
const maxItems = 32;
/** resource.FirstAvailableDeviceRequestMaxSize. */
const firstAvailableMaxSize = 8;
/** resource.OpaqueParametersMaxLength. */
const opaqueParametersMaxLength = 10 * 1024;
/** resource.DeviceMaxIDLength. */
const deviceMaxIDLength = 32;

/** DRADeviceTaints, beta and on from 1.36: before, tolerations are dropped on create. */
const deviceTaints = (minor: number): boolean => minor >= 36;
/** DRAExtendedResource, beta and on from 1.36: before, a class's extendedResourceName is dropped on create. */
const extendedResource = (minor: number): boolean => minor >= 36;
/** From 1.36 a duplicate is reported at the item (validateSet's key without a field name). */
const duplicatesKnown = (minor: number): boolean => minor >= 36;

const requestRefError =
  "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/** The request names of a claim, each with its subrequests' names (undefined without firstAvailable): gatherRequestNames. */
type RequestNames = Map<string, Set<string> | undefined>;

function gatherRequestNames(devices: JsonObject): RequestNames {
  const names: RequestNames = new Map();
  for (const request of listAt(devices, "requests")) {
    if (!isObject(request)) continue;
    const name = stringAt(request, "name") ?? "";
    const subrequests = listAt(request, "firstAvailable");
    names.set(
      name,
      subrequests.length === 0
        ? undefined
        : new Set(subrequests.map((s) => (isObject(s) ? (stringAt(s, "name") ?? "") : ""))),
    );
  }
  return names;
}

/** requestNames.Has: `request` or `request/subrequest`. */
function hasRequest(names: RequestNames, ref: string): boolean {
  const segments = ref.split("/");
  if (segments.length > 2 || !names.has(segments[0] as string)) return false;
  return segments.length === 1 || names.get(segments[0] as string)?.has(segments[1] as string) === true;
}

/**
 * validateSlice / validateSet: more than `max` items is Too many at the list, and then nothing else; else
 * each object item validated and, for a set, a repeated key a Duplicate at the item.
 */
function validateList(
  list: JsonValue[],
  max: number,
  at: FieldPath,
  item: (value: JsonValue, at: FieldPath) => Finding[],
  key?: (value: JsonValue) => string | undefined,
): Finding[] {
  if (list.length > max) return [tooMany(at, list.length, max, asError)];
  const out = list.flatMap((value, i) => item(value, child(at, i)));
  if (key === undefined) return out;
  const seen = new Set<string>();
  list.forEach((value, i) => {
    const k = key(value);
    if (k === undefined) return;
    if (seen.has(k)) out.push(duplicate(child(at, i), k, asError));
    else seen.add(k);
  });
  return out;
}

/** validateRequestName (ValidateDNS1123Label): an absent name is Go's "", refused alike. */
function validateRequestName(o: JsonObject, at: FieldPath): Finding[] {
  const name = stringAt(o, "name");
  return name === undefined ? [] : invalidEach(child(at, "name"), name, isDNS1123Label(name));
}

/** validateDeviceClass: Required when set empty, else a DNS subdomain. */
function validateDeviceClassName(o: JsonObject, at: FieldPath): Finding[] {
  const name = setStringAt(o, "deviceClassName");
  const path = child(at, "deviceClassName");
  if (name === undefined) return [];
  if (name === "") return [required(path, "", asError)];
  return invalidEach(path, name, isDNS1123Subdomain(name));
}

/** validateSelector: `cel` required, its expression compiled. */
function validateSelectors(o: JsonObject, at: FieldPath, minor: number): Finding[] {
  return validateList(listAt(o, "selectors"), maxItems, child(at, "selectors"), (selector, path) => {
    if (!isObject(selector)) return [];
    if (!isSet(selector, "cel")) return [required(child(path, "cel"), "", asError)];
    const expression = setStringAt(objectAt(selector, "cel"), "expression");
    return expression === undefined
      ? []
      : validateSelectorExpression(expression, child(path, "cel", "expression"), minor);
  });
}

/** validateDeviceAllocationMode, after the defaults. */
function validateAllocationMode(o: JsonObject, at: FieldPath): Finding[] {
  const mode = stringAt(o, "allocationMode");
  // a count that is no integer never decodes: the schema says so
  if (mode === undefined || (isSet(o, "count") && optionalIntAt(o, "count") === undefined)) return [];
  let count = optionalIntAt(o, "count") ?? 0;
  const defaulted = mode === "" ? "ExactCount" : mode;
  if (defaulted === "ExactCount" && count === 0) count = 1;
  switch (defaulted) {
    case "All":
      return count === 0
        ? []
        : [invalid(child(at, "count"), count, "must not be specified when allocationMode is 'All'", asError)];
    case "ExactCount":
      return count > 0 ? [] : [invalid(child(at, "count"), count, "must be greater than zero", asError)];
    default:
      return [notSupported(child(at, "allocationMode"), defaulted, ["All", "ExactCount"], asError)];
  }
}

/** validDeviceTaintEffects, as sets.List sorts them. */
const taintEffects = ["NoExecute", "NoSchedule", "None"];

/** validateDeviceToleration, the operator defaulted to Equal. */
function validateToleration(toleration: JsonValue, at: FieldPath): Finding[] {
  if (!isObject(toleration)) return [];
  const out: Finding[] = [];
  const key = stringAt(toleration, "key");
  if (key !== undefined && key !== "") out.push(...invalidEach(child(at, "key"), key, isQualifiedName(key)));
  const operator = stringAt(toleration, "operator");
  const value = stringAt(toleration, "value");
  switch (operator === "" ? "Equal" : operator) {
    case "Exists":
      if (value !== undefined && value !== "")
        out.push(invalid(child(at, "value"), value, "must be empty for operator `Exists`", asError));
      break;
    case "Equal":
      if (value !== undefined) out.push(...invalidEach(child(at, "value"), value, isValidLabelValue(value)));
      break;
    case undefined:
      break;
    default:
      out.push(notSupported(child(at, "operator"), operator, ["Equal", "Exists"], asError));
  }
  const effect = stringAt(toleration, "effect");
  if (effect !== undefined && effect !== "" && !taintEffects.includes(effect))
    out.push(notSupported(child(at, "effect"), effect, taintEffects, asError));
  return out;
}

/** What validateExactDeviceRequest and validateDeviceSubRequest share, after the name. */
function validateDeviceSelection(o: JsonObject, at: FieldPath, minor: number): Finding[] {
  const out = validateDeviceClassName(o, at);
  out.push(...validateSelectors(o, at, minor));
  out.push(...validateAllocationMode(o, at));
  if (deviceTaints(minor))
    listAt(o, "tolerations").forEach((t, i) => {
      out.push(...validateToleration(t, child(at, "tolerations", i)));
    });
  return out;
}

const nameKey = (minor: number) =>
  duplicatesKnown(minor) ? (v: JsonValue) => (isObject(v) ? (stringAt(v, "name") ?? "") : undefined) : undefined;

/** validateDeviceRequest, but for the union of `exactly` and `firstAvailable` (unions/wording-resource.ts). */
function validateDeviceRequest(request: JsonValue, at: FieldPath, minor: number): Finding[] {
  if (!isObject(request)) return [];
  const out = validateRequestName(request, at);
  const exactly = isSet(request, "exactly");
  const firstAvailable = listAt(request, "firstAvailable");
  if (exactly && firstAvailable.length === 0) {
    const member = objectAt(request, "exactly");
    if (member !== undefined) out.push(...validateDeviceSelection(member, child(at, "exactly"), minor));
  } else if (!exactly && firstAvailable.length > 0) {
    const sub = (s: JsonValue, path: FieldPath) =>
      isObject(s) ? [...validateRequestName(s, path), ...validateDeviceSelection(s, path, minor)] : [];
    out.push(...validateList(firstAvailable, firstAvailableMaxSize, child(at, "firstAvailable"), sub, nameKey(minor)));
  }
  return out;
}

/** validateRequestNameRef. */
function validateRequestRef(ref: JsonValue, at: FieldPath, names: RequestNames): Finding[] {
  if (typeof ref !== "string") return [];
  const segments = ref.split("/");
  if (segments.length > 2) return [invalid(at, ref, requestRefError, asError)];
  const out = segments.flatMap((s) => invalidEach(at, s, isDNS1123Label(s)));
  if (!hasRequest(names, ref)) out.push(invalid(at, ref, requestRefError, asError));
  return out;
}

function validateRequestRefs(o: JsonObject, at: FieldPath, names: RequestNames, minor: number): Finding[] {
  const key = duplicatesKnown(minor) ? (v: JsonValue) => (typeof v === "string" ? v : undefined) : undefined;
  return validateList(
    listAt(o, "requests"),
    maxItems,
    child(at, "requests"),
    (r, p) => validateRequestRef(r, p, names),
    key,
  );
}

/** ValidateCSIDriverName of a fully qualified name's domain, reported at the name. */
function driverNameErrors(domain: string, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (byteLength(domain) > 63) out.push(tooLongAt(at, 63));
  out.push(...invalidEach(at, domain, isDNS1123Subdomain(domain.toLowerCase())));
  return out;
}

/** field.TooLong, whose value is never printed. */
const tooLongAt = (at: FieldPath, max: number): Finding => tooLong(at, "", max, asError);

/** content.IsCIdentifier. */
const cIdentifierErrors = (id: string): string[] =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(id)
    ? []
    : [
        regexError(
          "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
          "[A-Za-z_][A-Za-z0-9_]*",
          "my_name",
          "MY_NAME",
          "MyName",
        ),
      ];

/** validateCIdentifier: at most 32 bytes, a C identifier. */
function validateCIdentifier(id: string, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (byteLength(id) > deviceMaxIDLength) out.push(tooLongAt(at, deviceMaxIDLength));
  out.push(...invalidEach(at, id, cIdentifierErrors(id)));
  return out;
}

/**
 * validateFullyQualifiedName: validateQualifiedName (a C identifier, or a domain and a C identifier; with more
 * slashes nothing is checked), then a domain is required.
 */
function validateFullyQualifiedName(name: string, at: FieldPath): Finding[] {
  const parts = name.split("/");
  const out: Finding[] = [];
  if (parts.length === 1) out.push(...validateCIdentifier(name, at));
  else if (parts.length === 2) {
    const [domain, id] = parts as [string, string];
    if (domain === "") out.push(invalid(at, "", "the domain must not be empty", asError));
    else out.push(...driverNameErrors(domain, at));
    if (id === "") out.push(invalid(at, "", "the name must not be empty", asError));
    else out.push(...validateCIdentifier(id, at));
  }
  if (!name.includes("/"))
    out.push(invalid(at, name, "a fully qualified name must be a domain and a name separated by a slash", asError));
  return out;
}

/** validateDeviceConstraint. */
function validateConstraint(constraint: JsonValue, at: FieldPath, names: RequestNames, minor: number): Finding[] {
  if (!isObject(constraint)) return [];
  const out = validateRequestRefs(constraint, at, names, minor);
  const match = setStringAt(constraint, "matchAttribute");
  const distinct = consumableCapacity(minor) ? setStringAt(constraint, "distinctAttribute") : undefined;
  if (match !== undefined) out.push(...validateFullyQualifiedName(match, child(at, "matchAttribute")));
  else if (distinct !== undefined) out.push(...validateFullyQualifiedName(distinct, child(at, "distinctAttribute")));
  else if (consumableCapacity(minor))
    // sic: the server says "multiple" when none is set
    out.push(
      required(
        at,
        'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set',
        asError,
      ),
    );
  else out.push(required(child(at, "matchAttribute"), "", asError));
  return out;
}

/** Go's json.Marshal length of a value: compact, with <, >, & and U+2028/2029 escaped. */
function marshalledLength(value: JsonValue): number {
  const text = JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return byteLength(text);
}

/** validateRawExtension on create: a JSON object of at most `max` bytes; null is no value. */
function validateRawExtension(o: JsonObject, key: string, at: FieldPath, max: number): Finding[] {
  const value = getKey(o, key);
  if (value === undefined) return [];
  if (value === null) return [required(at, "", asError)];
  if (marshalledLength(value) > max) return [tooLongAt(at, max)];
  return isObject(value) ? [] : [invalid(at, "<value omitted>", "must be a valid JSON object", asError)];
}

/** validateDeviceConfiguration: `opaque` required; its driver a CSI driver name, its parameters an object. */
function validateDeviceConfiguration(config: JsonObject, at: FieldPath): Finding[] {
  if (!isSet(config, "opaque")) return [required(child(at, "opaque"), "", asError)];
  const opaque = objectAt(config, "opaque");
  if (opaque === undefined) return [];
  const path = child(at, "opaque");
  const out = isSet(opaque, "driver") ? validateCSIDriverName(opaque, path) : [];
  out.push(...validateRawExtension(opaque, "parameters", child(path, "parameters"), opaqueParametersMaxLength));
  return out;
}

/** validateDeviceClaim. */
function validateDeviceClaim(devices: JsonObject | undefined, at: FieldPath, minor: number): Finding[] {
  if (devices === undefined) return [];
  const names = gatherRequestNames(devices);
  const out = validateList(
    listAt(devices, "requests"),
    maxItems,
    child(at, "requests"),
    (r, p) => validateDeviceRequest(r, p, minor),
    nameKey(minor),
  );
  out.push(
    ...validateList(listAt(devices, "constraints"), maxItems, child(at, "constraints"), (c, p) =>
      validateConstraint(c, p, names, minor),
    ),
  );
  out.push(
    ...validateList(listAt(devices, "config"), maxItems, child(at, "config"), (c, p) =>
      isObject(c) ? [...validateRequestRefs(c, p, names, minor), ...validateDeviceConfiguration(c, p)] : [],
    ),
  );
  return out;
}

/** ValidateResourceClaim (the spec; metadata is the generic check's). */
export function validateResourceClaim(object: JsonObject, minor: number): Finding[] {
  return validateDeviceClaim(objectAt(objectAt(object, "spec"), "devices"), ["spec", "devices"], minor);
}

/** ValidateResourceClaimTemplate: the claim spec under spec.spec. */
export function validateResourceClaimTemplate(object: JsonObject, minor: number): Finding[] {
  const template = objectAt(object, "spec");
  const metadata = objectAt(template, "metadata");
  const out = metadata === undefined ? [] : validateTemplateObjectMeta(metadata, ["spec", "metadata"]);
  const spec = objectAt(template, "spec");
  return [...out, ...validateDeviceClaim(objectAt(spec, "devices"), ["spec", "spec", "devices"], minor)];
}

/** core helper IsExtendedResourceName. */
const isExtendedResourceName = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith("requests.") && isQualifiedName(`requests.${name}`).length === 0;

/** ValidateDeviceClass (validateDeviceClassSpec). */
export function validateDeviceClass(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  if (spec === undefined) return [];
  const at: FieldPath = ["spec"];
  const out = validateSelectors(spec, at, minor);
  out.push(
    ...validateList(listAt(spec, "config"), maxItems, child(at, "config"), (c, p) =>
      isObject(c) ? validateDeviceConfiguration(c, p) : [],
    ),
  );
  const name = setStringAt(spec, "extendedResourceName");
  if (extendedResource(minor) && name !== undefined && !isExtendedResourceName(name))
    out.push(invalid(child(at, "extendedResourceName"), name, "must be a valid extended resource name", asError));
  return out;
}
