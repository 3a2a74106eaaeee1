/**
 * apiregistration.k8s.io/v1 APIServices on create (kube-aggregator
 * pkg/apis/apiregistration/validation/validation.go ValidateAPIService, which
 * the registry's strategy Validate calls; status is cleared before, so
 * ValidateAPIServiceStatus plays no part).
 *
 * The server's v1 default comes first (v1/defaults.go
 * SetDefaults_ServiceReference): a service's unset port is 443.
 *
 * - The name must be `<version>.<group>`: the name rule handed to
 *   ValidateObjectMeta refuses a path segment name first (the metadata's
 *   check, not repeated here), then any other name, generateName included.
 *   A name generated from generateName never matches either, but its random
 *   suffix cannot be known here.
 * - The group is a DNS subdomain; only version v1 may leave it empty (the
 *   legacy core group). The version is a DNS-1035 label.
 * - groupPriorityMinimum in 1..20000, versionPriority in 1..1000: both are
 *   required by the schema, so reported here only when set (a null is Go's
 *   0) or when the whole spec is absent.
 * - A local APIService (no service) may have neither a caBundle nor
 *   insecureSkipTLSVerify; a service needs a namespace and a name (no DNS
 *   rule on them), a port in 1..65535, and insecureSkipTLSVerify may not
 *   be true beside a caBundle.
 */
import type { Finding } from "../../findings/index.js";
import { decodeBase64, GoError, quote } from "../../go/index.js";
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from "../../names/index.js";
import type { FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject } from "../../value/index.js";
import {
  asError,
  intAt,
  invalid,
  invalidEach,
  isSet,
  isValidPortNum,
  objectAt,
  optionalIntAt,
  required,
  stringAt,
} from "./common.js";

const spec: FieldPath = ["spec"];
const service: FieldPath = ["spec", "service"];

/** The name rule's second half: a name that is a path segment must still be `<version>.<group>`. */
function validateName(object: JsonObject, requiredName: string): Finding[] {
  const metadata = objectAt(object, "metadata");
  const detail = `must be \`spec.version+"."+spec.group\`: ${quote(requiredName)}`;
  const out: Finding[] = [];
  for (const key of ["generateName", "name"]) {
    const value = stringAt(metadata, key);
    if (value === undefined || value === "" || value === requiredName) continue;
    if (isValidPathSegmentName(value, false).length > 0) continue;
    out.push(invalid(["metadata", key], value, detail, asError));
  }
  return out;
}

/** A priority out of (0, max]; absent, it is 0. */
function validatePriority(specObject: JsonObject, key: string, max: number, detail: string): Finding[] {
  const value = intAt(specObject, key);
  if (value === undefined || (value > 0 && value <= max)) return [];
  return [invalid([...spec, key], value, detail, asError)];
}

/** len(spec.caBundle): the bytes its base64 decodes to, undefined when malformed (the schema's finding). */
function caBundleLength(specObject: JsonObject): number | undefined {
  const text = stringAt(specObject, "caBundle");
  if (text === undefined) return undefined;
  const bytes = decodeBase64(text);
  return bytes instanceof GoError ? undefined : bytes.length;
}

export function validateAPIService(object: JsonObject): Finding[] {
  const specValue = getKey(object, "spec");
  if (specValue !== undefined && specValue !== null && !isObject(specValue)) return [];
  const specObject: JsonObject = isObject(specValue) ? specValue : {};
  const group = stringAt(specObject, "group");
  const version = stringAt(specObject, "version");
  const out: Finding[] = [];

  if (group !== undefined && version !== undefined) out.push(...validateName(object, `${version}.${group}`));
  if (group === "" && version !== undefined && version !== "v1")
    out.push(required([...spec, "group"], "only v1 may have an empty group and it better be legacy kube", asError));
  if (group !== undefined && group !== "")
    out.push(...invalidEach([...spec, "group"], group, isDNS1123Subdomain(group)));
  if (version !== undefined) out.push(...invalidEach([...spec, "version"], version, isDNS1035Label(version)));
  out.push(
    ...validatePriority(specObject, "groupPriorityMinimum", 20000, "must be positive and less than 20000"),
    ...validatePriority(specObject, "versionPriority", 1000, "must be positive and less than 1000"),
  );

  const caBundle = caBundleLength(specObject);
  const insecure = getKey(specObject, "insecureSkipTLSVerify") === true;
  const serviceValue = getKey(specObject, "service");
  if (serviceValue === undefined || serviceValue === null) {
    // A local APIService: served by the kube-apiserver itself.
    if (caBundle !== undefined && caBundle !== 0)
      out.push(
        invalid([...spec, "caBundle"], `${caBundle} bytes`, "local APIServices may not have a caBundle", asError),
      );
    if (insecure)
      out.push(
        invalid(
          [...spec, "insecureSkipTLSVerify"],
          true,
          "local APIServices may not have insecureSkipTLSVerify",
          asError,
        ),
      );
    return out;
  }
  if (!isObject(serviceValue)) return out;

  for (const key of ["namespace", "name"])
    if (stringAt(serviceValue, key) === "") out.push(required([...service, key], "", asError));
  const port = isSet(serviceValue, "port") ? optionalIntAt(serviceValue, "port") : 443;
  if (port !== undefined) {
    const errs = isValidPortNum(port);
    if (errs.length > 0)
      out.push(invalid([...service, "port"], port, `port is not valid: ${errs.join(", ")}`, asError));
  }
  if (insecure && caBundle !== undefined && caBundle > 0)
    out.push(invalid([...spec, "insecureSkipTLSVerify"], true, "may not be true if caBundle is present", asError));
  return out;
}
