/**
 * The annotations that still mean something to the API server on a pod, as
 * pkg/apis/core/validation/validation.go checks them (the same in 1.32 to
 * 1.36 as far as read):
 *
 * - ValidatePodSpecificAnnotations, on a Pod's `metadata.annotations` and on
 *   every pod template's `<template>.annotations` (ValidatePodTemplateSpec):
 *   the mirror pod annotation needs spec.nodeName, the tolerations annotation
 *   must decode (encoding/json) and pass ValidateTolerations, the
 *   pod-deletion-cost annotation must be a 32-bit integer
 *   (AllowInvalidPodDeletionCost is off on create: PodDeletionCost is on by
 *   default since 1.22), the seccomp annotations must name a profile
 *   (ValidateSeccompPodAnnotations), and each container AppArmor annotation
 *   must name a container of the pod and a profile
 *   (ValidateAppArmorPodAnnotations).
 * - validateSeccompAnnotationsAndFields and
 *   validateAppArmorAnnotationsAndFieldsMatchOnCreate, run by ValidatePodCreate
 *   and ValidatePodTemplateSpec: where an annotation and the field it was
 *   replaced by are both set, they must agree.
 *
 * A Pod, unlike a template, has its AppArmor annotations copied into empty
 * container fields before it is validated (pkg/registry/core/pod/strategy.go
 * applyAppArmorVersionSkew, in PrepareForCreate): a valid annotation on a
 * container without a field of its own then agrees with itself.
 *
 * Go walks the annotations map in no set order; kunion walks it as written.
 * Paths are Go's: `Key` (brackets) for the mirror, deletion-cost and AppArmor
 * annotations, `Child` (a dot) for the seccomp and tolerations ones.
 */
import type { Finding } from "../../findings/index.js";
import { blanksFrom, JsonScanner, quote, trimSpace, unmarshalIntoMapError } from "../../go/index.js";
import { byteLength } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { asError, forbidden, invalid, objectAt, objectItems, setStringAt, stringAt } from "./common.js";
import { validateTolerations } from "./scheduling.js";
import { validatePathNoBacksteps } from "./volumes.js";

/** v1.SeccompPodAnnotationKey. */
export const seccompPodAnnotation = "seccomp.security.alpha.kubernetes.io/pod";
/** v1.SeccompContainerAnnotationKeyPrefix: the container's name follows. */
export const seccompContainerAnnotation = "container.seccomp.security.alpha.kubernetes.io/";
/** v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix: the container's name follows. */
export const appArmorContainerAnnotation = "container.apparmor.security.beta.kubernetes.io/";
/** core.MirrorPodAnnotationKey. */
export const mirrorPodAnnotation = "kubernetes.io/config.mirror";
/** core.TolerationsAnnotationKey. */
export const tolerationsAnnotation = "scheduler.alpha.kubernetes.io/tolerations";
/** core.PodDeletionCost. */
export const podDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";

/** The string-valued annotations, as written (others never decode into Go's map[string]string). */
const entries = (annotations: JsonObject | undefined): [string, string][] =>
  annotations === undefined
    ? []
    : Object.entries(annotations).filter((e): e is [string, string] => typeof e[1] === "string");

/**
 * ValidatePodSpecificAnnotations: `annotations` of a Pod (at `metadata.annotations`) or of a pod template (at
 * `<template>.annotations`), `spec` its pod spec (undefined when the template has none).
 */
export function validatePodSpecificAnnotations(
  annotations: JsonObject | undefined,
  spec: JsonObject | undefined,
  path: FieldPath,
): Finding[] {
  const out: Finding[] = [];
  const mirror = setStringAt(annotations, mirrorPodAnnotation);
  if (mirror !== undefined && !stringAt(spec, "nodeName"))
    out.push(
      invalid(
        child(path, { key: mirrorPodAnnotation }),
        mirror,
        "must set spec.nodeName if mirror pod annotation is set",
        asError,
      ),
    );

  const tolerations = setStringAt(annotations, tolerationsAnnotation);
  if (tolerations) {
    // ValidateTolerationsInPodAnnotations: helper.GetTolerationsFromPodAnnotations, then ValidateTolerations.
    const decoded = decodeTolerations(tolerations);
    if (typeof decoded === "string") out.push(invalid(path, tolerationsAnnotation, decoded, asError));
    else out.push(...validateTolerations({ tolerations: decoded }, child(path, tolerationsAnnotation)));
  }

  const cost = setStringAt(annotations, podDeletionCostAnnotation);
  if (cost !== undefined && !isDeletionCost(cost))
    out.push(invalid(child(path, { key: podDeletionCostAnnotation }), cost, "must be a 32bit integer", asError));

  // ValidateSeccompPodAnnotations: the pod's annotation, then each container's.
  const seccompPod = setStringAt(annotations, seccompPodAnnotation);
  if (seccompPod !== undefined) out.push(...validateSeccompProfile(seccompPod, child(path, seccompPodAnnotation)));
  for (const [key, value] of entries(annotations))
    if (key.startsWith(seccompContainerAnnotation)) out.push(...validateSeccompProfile(value, child(path, key)));

  // ValidateAppArmorPodAnnotations.
  const names = new Set(containersOf(spec).map(([ctr]) => stringAt(ctr, "name") ?? ""));
  for (const [key, value] of entries(annotations)) {
    if (!key.startsWith(appArmorContainerAnnotation)) continue;
    const at = child(path, { key });
    const name = key.slice(appArmorContainerAnnotation.length);
    if (!names.has(name)) out.push(invalid(at, name, "container not found", asError));
    if (!isAppArmorProfileFormat(value))
      out.push(invalid(at, value, `invalid AppArmor profile name: ${quote(value)}`, asError));
  }
  return out;
}

/**
 * helper.GetDeletionCostFromPodAnnotations succeeding: validFirstDigit (no `+`, no leading zero but "0" itself),
 * then strconv.ParseInt(value, 10, 32).
 */
function isDeletionCost(value: string): boolean {
  if (!/^(-|0$|[1-9])/.test(value) || !/^[+-]?[0-9]+$/.test(value)) return false;
  const n = BigInt(value);
  return n >= -2147483648n && n <= 2147483647n;
}

/** ValidateSeccompProfile: an annotation's profile name. */
function validateSeccompProfile(profile: string, path: FieldPath): Finding[] {
  if (profile === "runtime/default" || profile === "docker/default" || profile === "unconfined") return [];
  if (!profile.startsWith("localhost/")) return [invalid(path, profile, "must be a valid seccomp profile", asError)];
  // validateLocalDescendingPath of the name after the prefix
  const name = profile.slice("localhost/".length);
  return [
    ...(name.startsWith("/") ? [invalid(path, name, "must be a relative path", asError)] : []),
    ...validatePathNoBacksteps(name, path),
  ];
}

/** ValidateAppArmorProfileFormat: empty, runtime/default, unconfined, or localhost/ and anything. */
const isAppArmorProfileFormat = (profile: string): boolean =>
  profile === "" || profile === "runtime/default" || profile === "unconfined" || profile.startsWith("localhost/");

/** podshelper.VisitContainersWithPath: init containers, containers, ephemeral containers, with their paths. */
function containersOf(spec: JsonObject | undefined, specPath: FieldPath = []): [JsonObject, FieldPath][] {
  return ["initContainers", "containers", "ephemeralContainers"].flatMap((list) =>
    objectItems(spec, list).map(([i, ctr]): [JsonObject, FieldPath] => [ctr, child(specPath, list, i)]),
  );
}

export interface MatchOptions {
  /**
   * The spec is a Pod's, being created: its strategy has copied each valid container AppArmor annotation into
   * the container's empty field first (applyAppArmorVersionSkew). False for a template.
   */
  pod: boolean;
}

/**
 * validateSeccompAnnotationsAndFields, then validateAppArmorAnnotationsAndFieldsMatchOnCreate, of the pod spec at
 * `specPath` (`spec`, `spec.template.spec`, …) and its `annotations`.
 */
export function validateAnnotationsMatchFields(
  annotations: JsonObject | undefined,
  spec: JsonObject | undefined,
  specPath: FieldPath,
  options: MatchOptions,
): Finding[] {
  // most pods carry none of these annotations: nothing to walk their containers for
  const profileAnnotation = (key: string) =>
    key === seccompPodAnnotation ||
    key.startsWith(seccompContainerAnnotation) ||
    key.startsWith(appArmorContainerAnnotation);
  if (spec === undefined || annotations === undefined || !Object.keys(annotations).some(profileAnnotation)) return [];
  const out: Finding[] = [];
  const podSecurity = objectAt(spec, "securityContext");

  // seccomp: the pod's field against the pod's annotation, each container's against its own (no inheritance).
  const podSeccomp = objectAt(podSecurity, "seccompProfile");
  const podSeccompAnnotation = setStringAt(annotations, seccompPodAnnotation);
  if (podSeccomp !== undefined && podSeccompAnnotation !== undefined)
    out.push(...seccompMatch(podSeccompAnnotation, podSeccomp, child(specPath, "securityContext", "seccompProfile")));
  const containers = containersOf(spec, specPath);
  for (const [ctr, at] of containers) {
    const field = objectAt(objectAt(ctr, "securityContext"), "seccompProfile");
    const annotation = setStringAt(annotations, seccompContainerAnnotation + (stringAt(ctr, "name") ?? ""));
    if (field !== undefined && annotation !== undefined)
      out.push(...seccompMatch(annotation, field, child(at, "securityContext", "seccompProfile")));
  }

  // AppArmor: a container's field, else the pod's, against the container's annotation; Windows pods skipped.
  if (stringAt(objectAt(spec, "os"), "name") === "windows") return out;
  const podAppArmor = objectAt(podSecurity, "appArmorProfile");
  for (const [ctr, at] of containers) {
    const own = objectAt(objectAt(ctr, "securityContext"), "appArmorProfile");
    const annotation = setStringAt(annotations, appArmorContainerAnnotation + (stringAt(ctr, "name") ?? ""));
    if (annotation === undefined) continue;
    // On a Pod, a valid annotation has become the field of a container without one.
    if (options.pod && own === undefined && appArmorProfileOf(annotation) !== undefined) continue;
    const profile = own ?? podAppArmor;
    if (profile !== undefined)
      out.push(...appArmorMatch(annotation, profile, child(at, "securityContext", "appArmorProfile")));
  }
  return out;
}

/** validateSeccompAnnotationsAndFieldsMatch: an unknown type matches anything. */
function seccompMatch(annotation: string, field: JsonObject, path: FieldPath): Finding[] {
  const typeMismatch = [forbidden(child(path, "type"), "seccomp type in annotation and field must match", asError)];
  switch (stringAt(field, "type")) {
    case "Unconfined":
      return annotation === "unconfined" ? [] : typeMismatch;
    case "RuntimeDefault":
      return annotation === "runtime/default" || annotation === "docker/default" ? [] : typeMismatch;
    case "Localhost":
      if (!annotation.startsWith("localhost/")) return typeMismatch;
      return setStringAt(field, "localhostProfile") === annotation.slice("localhost/".length)
        ? []
        : [forbidden(child(path, "localhostProfile"), "seccomp profile in annotation and field must match", asError)];
    default:
      return [];
  }
}

/** The same rules for AppArmor, in validateAppArmorAnnotationsAndFieldsMatchOnCreate's words. */
function appArmorMatch(annotation: string, field: JsonObject, path: FieldPath): Finding[] {
  const typeMismatch = [forbidden(child(path, "type"), "apparmor type in annotation and field must match", asError)];
  switch (stringAt(field, "type")) {
    case "Unconfined":
      return annotation === "unconfined" ? [] : typeMismatch;
    case "RuntimeDefault":
      return annotation === "runtime/default" ? [] : typeMismatch;
    case "Localhost":
      if (!annotation.startsWith("localhost/")) return typeMismatch;
      return setStringAt(field, "localhostProfile") === annotation.slice("localhost/".length)
        ? []
        : [forbidden(child(path, "localhostProfile"), "apparmor profile in annotation and field must match", asError)];
    default:
      return [];
  }
}

/**
 * podutil.ApparmorFieldForAnnotation, then ValidateAppArmorProfileField: the profile an annotation names,
 * undefined when it names none the field could hold (a localhost profile padded with spaces or longer
 * than 4095 bytes).
 */
export function appArmorProfileOf(annotation: string): { type: string; localhostProfile?: string } | undefined {
  if (annotation === "unconfined") return { type: "Unconfined" };
  if (annotation === "runtime/default") return { type: "RuntimeDefault" };
  if (!annotation.startsWith("localhost/")) return undefined;
  const name = annotation.slice("localhost/".length);
  if (name === "" || trimSpace(name) !== name || byteLength(name) > 4095) return undefined;
  return { type: "Localhost", localhostProfile: name };
}

// ---------------------------------------------------------------------------
// json.Unmarshal into a []core.Toleration (encoding/json decode.go)

/** Go's name of each core.Toleration field (its json tag) and of its type, in UnmarshalTypeError's words. */
const tolerationFields: ReadonlyMap<string, string> = new Map([
  ["key", "string"],
  ["operator", "core.TolerationOperator"],
  ["value", "string"],
  ["effect", "core.TaintEffect"],
  ["tolerationSeconds", "int64"],
]);

/**
 * encoding/json's match of an object key to a field: the exact name first, else one equal under case folding
 * (bytes.EqualFold: `K`, the Kelvin sign, folds to `k` and `ſ` to `s` as well).
 */
function tolerationField(key: string): string | undefined {
  if (tolerationFields.has(key)) return key;
  const folded = key.toLowerCase().replaceAll("ſ", "s");
  for (const name of tolerationFields.keys()) if (name.toLowerCase() === folded) return name;
  return undefined;
}

/** The kind of JSON value starting with `c`, as UnmarshalTypeError names it. */
const kindOf = (c: string): string =>
  c === "{" ? "object" : c === "[" ? "array" : c === '"' ? "string" : c === "t" || c === "f" ? "bool" : "number";

/**
 * json.Unmarshal of the tolerations annotation into a []core.Toleration: the tolerations (Go's zero values for
 * what is absent or null), or Go's error: a syntax error, else the first value of the wrong type.
 */
export function decodeTolerations(text: string): JsonObject[] | string {
  const syntax = unmarshalIntoMapError(text);
  // Valid JSON is refused by a map only for its kind, which a slice judges by itself below.
  if (syntax !== undefined && !syntax.startsWith("json: cannot unmarshal ")) return syntax;
  const scanner = new JsonScanner(text);
  let i = blanksFrom(text, 0);
  const first = text.charAt(i);
  if (first === "n") return [];
  if (first !== "[") return `json: cannot unmarshal ${kindOf(first)} into Go value of type []core.Toleration`;
  let error: string | undefined;
  const out: JsonObject[] = [];
  i = blanksFrom(text, i + 1);
  if (text.charAt(i) === "]") return out;
  for (;;) {
    const c = text.charAt(i);
    const end = scanner.value(i);
    if (c === "{") {
      const decoded = decodeToleration(text, i, scanner);
      error ??= decoded.error;
      out.push(decoded.toleration);
    } else if (c === "n") out.push(zeroToleration());
    else error ??= `json: cannot unmarshal ${kindOf(c)} into Go value of type core.Toleration`;
    i = blanksFrom(text, end);
    if (text.charAt(i) === "]") break;
    i = blanksFrom(text, i + 1); // past the comma
  }
  return error ?? out;
}

const zeroToleration = (): JsonObject => ({ key: "", operator: "", value: "", effect: "" });

/** One toleration object starting at `at` (a `{`), with the first type error met in it. */
function decodeToleration(
  text: string,
  at: number,
  scanner: JsonScanner,
): { toleration: JsonObject; error: string | undefined } {
  const toleration = zeroToleration();
  let error: string | undefined;
  let i = blanksFrom(text, at + 1);
  if (text.charAt(i) === "}") return { toleration, error };
  for (;;) {
    const keyEnd = scanner.value(i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueAt = blanksFrom(text, blanksFrom(text, keyEnd) + 1); // past the colon
    const valueEnd = scanner.value(valueAt);
    const raw = text.slice(valueAt, valueEnd).trimEnd();
    const name = tolerationField(key);
    const type = name === undefined ? undefined : tolerationFields.get(name);
    if (name !== undefined && type !== undefined) {
      const c = raw.charAt(0);
      const mismatch = (value: string) =>
        `json: cannot unmarshal ${value} into Go struct field Toleration.${name} of type ${type}`;
      if (type === "int64") {
        // a *int64: null clears it; a number must be an integer literal within int64
        if (c === "n") delete toleration[name];
        else if (c === "-" || (c >= "0" && c <= "9")) {
          if (isInt64Literal(raw)) toleration[name] = Number(raw);
          else error ??= mismatch(`number ${raw}`);
        } else error ??= mismatch(kindOf(c));
      } else if (c === '"') toleration[name] = JSON.parse(raw) as string;
      else if (c !== "n") error ??= mismatch(kindOf(c)); // null leaves a string as it was
    }
    i = blanksFrom(text, valueEnd);
    if (text.charAt(i) === "}") break;
    i = blanksFrom(text, i + 1); // past the comma
  }
  return { toleration, error };
}

/** strconv.ParseInt(s, 10, 64) succeeding on a JSON number literal. */
function isInt64Literal(raw: string): boolean {
  if (!/^-?[0-9]+$/.test(raw)) return false;
  const n = BigInt(raw);
  return n >= -9223372036854775808n && n <= 9223372036854775807n;
}
