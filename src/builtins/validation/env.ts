/**
 * A container's environment, as pkg/apis/core/validation checks it in
 * validateContainerCommon: ValidateEnv (names, and the source each
 * `valueFrom` names: validateObjectFieldSelector,
 * validateContainerResourceFieldSelector, validateConfigMapKeySelector,
 * validateSecretKeySelector) and ValidateEnvFrom (prefixes, and the
 * ConfigMap or Secret named). Names follow IsRelaxedEnvVarName, the rule
 * since RelaxedEnvironmentVariableValidation (on by default from 1.32). How
 * many sources a `valueFrom` or an `envFrom` item sets is the unions' rule
 * (unions/wording.ts), not repeated here.
 */
import type { Finding } from "../../findings/index.js";
import { quantitySign, quantityString } from "../../go/index.js";
import { isConfigMapKey, isDNS1123Subdomain, isQualifiedName, isRelaxedEnvVarName } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  invalid,
  invalidEach,
  notSupported,
  objectAt,
  objectItems,
  required,
  requiredIfEmpty,
  stringAt,
} from "./common.js";
import { quantityOf } from "./quantity.js";

/** ValidateEnv and ValidateEnvFrom over a container at `path`. */
export function validateContainerEnv(ctr: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  for (const [i, env] of objectItems(ctr, "env")) {
    const at = child(path, "env", i);
    const name = stringAt(env, "name");
    if (name === "") out.push(...requiredIfEmpty(env, "name", at));
    else if (name !== undefined) out.push(...invalidEach(child(at, "name"), name, isRelaxedEnvVarName(name)));
    const from = objectAt(env, "valueFrom");
    if (from !== undefined) out.push(...validateEnvVarValueFrom(from, child(at, "valueFrom")));
  }
  for (const [i, source] of objectItems(ctr, "envFrom")) {
    const at = child(path, "envFrom", i);
    const prefix = stringAt(source, "prefix");
    if (prefix) out.push(...invalidEach(child(at, "prefix"), prefix, isRelaxedEnvVarName(prefix)));
    for (const key of ["configMapRef", "secretRef"]) {
      const ref = objectAt(source, key);
      if (ref === undefined) continue;
      // validateConfigMapEnvSource, validateSecretEnvSource: ValidateConfigMapName and ValidateSecretName.
      const name = stringAt(ref, "name");
      if (name === "") out.push(required(child(at, key, "name"), "", asError));
      else if (name !== undefined) out.push(...invalidEach(child(at, key, "name"), name, isDNS1123Subdomain(name)));
    }
  }
  return out;
}

/** The downward API fields an environment variable may read (validEnvDownwardAPIFieldPathExpressions, sorted). */
const envFieldPaths = [
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.serviceAccountName",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
];

/** The fields ConvertDownwardAPIFieldLabel knows for a v1 pod (pkg/apis/core/pods/helpers.go). */
const convertibleFieldPaths = new Set([
  ...envFieldPaths,
  "metadata.annotations",
  "metadata.labels",
  "spec.restartPolicy",
  "spec.schedulerName",
  "status.phase",
  "spec.terminationGracePeriodSeconds",
]);

function validateEnvVarValueFrom(from: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const fieldRef = objectAt(from, "fieldRef");
  if (fieldRef !== undefined)
    out.push(...validateObjectFieldSelector(fieldRef, envFieldPaths, child(path, "fieldRef")));
  const resourceRef = objectAt(from, "resourceFieldRef");
  if (resourceRef !== undefined)
    out.push(...validateContainerResourceFieldSelector(resourceRef, child(path, "resourceFieldRef"), false));
  for (const key of ["configMapKeyRef", "secretKeyRef"]) {
    const ref = objectAt(from, key);
    if (ref === undefined) continue;
    // validateConfigMapKeySelector, validateSecretKeySelector: the name is checked even when empty.
    const at = child(path, key);
    const name = stringAt(ref, "name");
    if (name !== undefined) out.push(...invalidEach(child(at, "name"), name, isDNS1123Subdomain(name)));
    const k = stringAt(ref, "key");
    if (k === "") out.push(required(child(at, "key"), "", asError));
    else if (k !== undefined) out.push(...invalidEach(child(at, "key"), k, isConfigMapKey(k)));
  }
  return out;
}

/**
 * fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` → the path and the key; undefined when the text
 * has no subscript.
 */
function splitSubscript(fieldPath: string): { path: string; key: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const open = fieldPath.indexOf("['");
  if (open <= 0 || open > fieldPath.length - 4) return undefined;
  return { path: fieldPath.slice(0, open), key: fieldPath.slice(open + 2, -2) };
}

/**
 * validateObjectFieldSelector, with ConvertDownwardAPIFieldLabel's errors: which field of the pod a downward API
 * reference reads, among `supported` (sorted, as sets.List prints them).
 */
export function validateObjectFieldSelector(
  selector: JsonObject,
  supported: readonly string[],
  path: FieldPath,
): Finding[] {
  // An empty apiVersion is defaulted to v1 (SetDefaults_ObjectFieldSelector), so it is never Required.
  const apiVersion = stringAt(selector, "apiVersion") || "v1";
  const fieldPath = stringAt(selector, "fieldPath");
  if (fieldPath === undefined) return [];
  if (fieldPath === "") return [required(child(path, "fieldPath"), "", asError)];
  const converting = (error: string) => [
    invalid(child(path, "fieldPath"), fieldPath, `error converting fieldPath: ${error}`, asError),
  ];
  if (apiVersion !== "v1") return converting(`unsupported pod version: ${apiVersion}`);
  const subscripted = splitSubscript(fieldPath);
  if (subscripted !== undefined) {
    switch (subscripted.path) {
      // Annotation keys are compared without case; label keys are not.
      case "metadata.annotations":
        return invalidEach(path, subscripted.key.toLowerCase(), isQualifiedName(subscripted.key.toLowerCase()));
      case "metadata.labels":
        return invalidEach(path, subscripted.key, isQualifiedName(subscripted.key));
      default:
        return converting(`field label does not support subscript: ${fieldPath}`);
    }
  }
  // spec.host is an old v1 client's name for spec.nodeName.
  const internal = fieldPath === "spec.host" ? "spec.nodeName" : fieldPath;
  if (!convertibleFieldPaths.has(internal)) return converting(`field label not supported: ${fieldPath}`);
  return supported.includes(internal) ? [] : [notSupported(child(path, "fieldPath"), internal, supported, asError)];
}

/** validContainerResourceFieldPathExpressions, as sets.List prints them. */
const containerResourceFields = [
  "limits.cpu",
  "limits.ephemeral-storage",
  "limits.memory",
  "requests.cpu",
  "requests.ephemeral-storage",
  "requests.memory",
];
const hugePagesPrefixes = ["limits.hugepages-", "requests.hugepages-"];

/**
 * validateContainerResourceFieldSelector, with validateContainerResourceDivisor: which resource of a container a
 * downward API reference reads. A volume's must name the container (`volume`); an environment variable's is its own.
 */
export function validateContainerResourceFieldSelector(
  selector: JsonObject,
  path: FieldPath,
  volume: boolean,
): Finding[] {
  const containerName = stringAt(selector, "containerName");
  const resource = stringAt(selector, "resource");
  if (containerName === undefined || resource === undefined) return [];
  const out: Finding[] = [];
  if (volume && containerName === "") out.push(required(child(path, "containerName"), "", asError));
  else if (resource === "") out.push(...requiredIfEmpty(selector, "resource", path));
  else if (!containerResourceFields.includes(resource) && !hugePagesPrefixes.some((p) => resource.startsWith(p)))
    out.push(notSupported(child(path, "resource"), resource, containerResourceFields, asError));
  out.push(...validateContainerResourceDivisor(resource, getKey(selector, "divisor"), child(path, "divisor")));
  return out;
}

const byteDivisors = ["1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"];
const byteDivisorsError = (what: string) =>
  `only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the ${what} resource`;

/** validateContainerResourceDivisor: a divisor set (not zero), in canonical form; the bad value is the resource. */
function validateContainerResourceDivisor(resource: string, raw: JsonValue | undefined, path: FieldPath): Finding[] {
  const divisor = quantityOf(raw);
  if (divisor === undefined || quantitySign(divisor) === 0) return [];
  const canonical = quantityString(divisor);
  const errs: string[] = [];
  switch (resource) {
    case "limits.cpu":
    case "requests.cpu":
      if (!["1m", "1"].includes(canonical))
        errs.push("only divisor's values 1m and 1 are supported with the cpu resource");
      break;
    case "limits.memory":
    case "requests.memory":
      if (!byteDivisors.includes(canonical)) errs.push(byteDivisorsError("memory"));
      break;
    case "limits.ephemeral-storage":
    case "requests.ephemeral-storage":
      if (!byteDivisors.includes(canonical)) errs.push(byteDivisorsError("local ephemeral storage"));
      break;
  }
  if (hugePagesPrefixes.some((p) => resource.startsWith(p)) && !byteDivisors.includes(canonical))
    errs.push(byteDivisorsError("hugepages"));
  return invalidEach(path, resource, errs);
}
