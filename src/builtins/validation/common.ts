/**
 * Reading values the way the API server's Go structs see them, and the small
 * validators of apimachinery (pkg/util/validation, apis/meta/v1/validation)
 * and core (ValidateNonnegativeField, ValidatePortNumOrName) that every
 * group's hand-written validation calls.
 *
 * Go sees an absent field and a null as its zero value (`""`, `0`, nil); a
 * value of the wrong JSON type never decodes, and the schema reports it, so
 * the readers here return undefined for it and the rules skip it.
 */
import {
  duplicate,
  type Finding,
  finding,
  forbidden,
  invalid,
  notFound,
  notSupported,
  required,
  tooLong,
} from "../../findings/index.js";
import {
  annotationErrors,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  labelErrors,
  regexError,
  totalAnnotationSizeLimit,
} from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";

/** Hand-written validation is the API server refusing the object: the `schema` rule, as its OpenAPI checks. */
const RULE = "schema";
export const asError = { rule: RULE } as const;
export const asWarning = { rule: RULE, severity: "warning" } as const;

export const objectAt = (o: JsonObject | undefined, key: string): JsonObject | undefined => {
  const v = o === undefined ? undefined : getKey(o, key);
  return isObject(v) ? v : undefined;
};

export const listAt = (o: JsonObject | undefined, key: string): JsonValue[] => {
  const v = o === undefined ? undefined : getKey(o, key);
  return Array.isArray(v) ? v : [];
};

/** Whether the field is present and not null (a Go pointer or slice that is set). */
export const isSet = (o: JsonObject | undefined, key: string): boolean => {
  const v = o === undefined ? undefined : getKey(o, key);
  return v !== undefined && v !== null;
};

/**
 * The first of `fields` that is set, in the validator's order, with its
 * object: the member a validator checks when it checks only one. Undefined
 * when none is set or the first set one is not an object.
 */
export function firstSetObject(
  o: JsonObject,
  fields: readonly string[],
): { field: string; value: JsonObject } | undefined {
  const field = fields.find((f) => isSet(o, f));
  const value = field === undefined ? undefined : objectAt(o, field);
  return field === undefined || value === undefined ? undefined : { field, value };
}

/** A struct field as Go decodes it: the zero struct ({}) when absent or null, undefined when not an object. */
export const zeroIfAbsent = (o: JsonObject | undefined, key: string): JsonObject | undefined =>
  isSet(o, key) ? objectAt(o, key) : {};

/** A string field as Go decodes it: "" when absent or null, undefined when not a string. */
export function stringAt(o: JsonObject | undefined, key: string): string | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : undefined;
}

/** A string field that is set, "" included (a Go *string that is not nil, a map entry present); else undefined. */
export function setStringAt(o: JsonObject | undefined, key: string): string | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  return typeof v === "string" ? v : undefined;
}

/** An integer field: 0 when absent or null, undefined when not an integer. */
export function intAt(o: JsonObject | undefined, key: string): number | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  if (v === undefined || v === null) return 0;
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
}

/** An optional integer (a Go *int32): undefined when unset or not an integer. */
export function optionalIntAt(o: JsonObject | undefined, key: string): number | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
}

/** A map of strings (labels, a selector's matchLabels); entries of other types are left to the schema. */
export function stringMapAt(o: JsonObject | undefined, key: string): [string, string][] {
  const m = objectAt(o, key);
  if (m === undefined) return [];
  return Object.entries(m).filter((e): e is [string, string] => typeof e[1] === "string");
}

/** A list's items that are objects, with their indexes. */
export function objectItems(o: JsonObject | undefined, key: string): [number, JsonObject][] {
  const out: [number, JsonObject][] = [];
  listAt(o, key).forEach((item, i) => {
    if (isObject(item)) out.push([i, item]);
  });
  return out;
}

// ---------------------------------------------------------------------------
// apimachinery pkg/util/validation

export const isNegativeErrorMsg = "must be greater than or equal to 0";

/** validation.InclusiveRangeError. */
export const inclusiveRangeError = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

/** validation.IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** validation.IsValidPortName (IANA_SVC_NAME). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith("-") || port.endsWith("-"))) errs.push("must not begin or end with a hyphen");
  return errs;
}

/** validation.IsValidPercent. */
export function isValidPercent(percent: string): string[] {
  if (/^[0-9]+%$/.test(percent)) return [];
  return [
    regexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%"),
  ];
}

// ---------------------------------------------------------------------------
// core validation helpers (pkg/apis/core/validation/validation.go)

/** ValidateNonnegativeField. */
export function nonNegative(value: number | undefined, path: FieldPath): Finding[] {
  return value !== undefined && value < 0 ? [invalid(path, value, isNegativeErrorMsg, asError)] : [];
}

/** The same for an optional field: checked only when set. */
export function nonNegativeAt(o: JsonObject | undefined, key: string, path: FieldPath): Finding[] {
  return nonNegative(optionalIntAt(o, key), child(path, key));
}

/** ValidatePortNumOrName on an int-or-string; an unset value (Go's zero int) is out of range too. */
export function portNumOrName(value: JsonValue | undefined, path: FieldPath): Finding[] {
  if (typeof value === "string") return isValidPortName(value).map((m) => invalid(path, value, m, asError));
  const n = value === undefined || value === null ? 0 : value;
  if (typeof n !== "number" || !Number.isInteger(n)) return [];
  return isValidPortNum(n).map((m) => invalid(path, n, m, asError));
}

/**
 * An enum the API server checks by hand: NotSupported listing `supported` in
 * the order the source gives them (sorted where it uses sets.List). An empty
 * or absent value is left alone: the server defaults it first, or the schema
 * requires it.
 */
export function oneOf(
  o: JsonObject | undefined,
  key: string,
  path: FieldPath,
  supported: readonly string[],
): Finding[] {
  const value = stringAt(o, key);
  if (value === undefined || value === "" || supported.includes(value)) return [];
  return [notSupported(child(path, key), value, supported, asError)];
}

/** Each of `errs` as Invalid at `path` with `value` (the `for _, msg := range …` idiom). */
export const invalidEach = (path: FieldPath, value: unknown, errs: readonly string[]): Finding[] =>
  errs.map((m) => invalid(path, value, m, asError));

/** Required when the key is present but empty; absent is the schema's `required` when it says so. */
export const requiredIfEmpty = (o: JsonObject, key: string, path: FieldPath, detail = ""): Finding[] =>
  Object.hasOwn(o, key) && stringAt(o, key) === "" ? [required(child(path, key), detail, asError)] : [];

/**
 * ErrorList.ToAggregate, through which the API server prints its errors: a message the list already holds
 * is not printed again.
 */
export function once(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    if (seen.has(f.message)) return false;
    seen.add(f.message);
    return true;
  });
}

/**
 * field.Invalid whose bad value Go prints as it is, not quoted: a Quantity (its String), a slice or struct
 * (`%#v`, spelled by the caller).
 */
export function invalidShown(path: FieldPath, shown: string, detail: string): Finding {
  const f = finding({ type: "FieldValueInvalid", path, badValue: shown, detail, ...asError });
  return { ...f, message: `${f.field}: Invalid value: ${shown}: ${detail}` };
}

/**
 * A message that is not a field error, printed as the API server prints its
 * warnings (pkg/api/pod/warnings.go): `<field>: <text>`.
 */
export function warningAt(path: FieldPath, text: string, type: Finding["type"] = "FieldValueInvalid"): Finding {
  const f = finding({ type, path, detail: text, ...asWarning });
  return { ...f, message: `${f.field}: ${text}` };
}

export { duplicate, forbidden, invalid, notFound, notSupported, required };

// ---------------------------------------------------------------------------
// apimachinery apis/meta/v1/validation: labels and label selectors

/** ValidateLabels: errors are reported at the map, not at the key. */
export const validateLabels = (labels: readonly [string, string][], path: FieldPath): Finding[] =>
  labelErrors(labels).flatMap((e) => invalidEach(path, e.value, e.messages));

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
export function isFullyQualifiedName(name: string, at: FieldPath): Finding[] {
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(at, name, errs.join(","), asError)];
  if (name.split(".").length < 3)
    return [invalid(at, name, "should be a domain with at least three segments separated by dots", asError)];
  return [];
}

/**
 * validation.IsFullyQualifiedDomainName: a trailing dot allowed, then a DNS subdomain of at least two
 * labels, each a DNS label; the first failure is told, its messages joined with commas.
 */
export function isFullyQualifiedDomainName(address: string, at: FieldPath): Finding[] {
  if (address === "") return [required(at, "", asError)];
  const name = address.endsWith(".") ? address.slice(0, -1) : address;
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(at, name, errs.join(","), asError)];
  const labels = name.split(".");
  if (labels.length < 2)
    return [invalid(at, name, "should be a domain with at least two segments separated by dots", asError)];
  for (const label of labels) {
    const labelErrs = isDNS1123Label(label);
    if (labelErrs.length > 0) return [invalid(at, label, labelErrs.join(","), asError)];
  }
  return [];
}

/** pkg/apis/core/helper IsStandardFinalizerName: the finalizers Kubernetes itself names without a domain. */
const standardFinalizers = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/** core's validateKubeFinalizerName: a finalizer without a domain (no "/") must be a standard one. */
export const kubeFinalizerErrors = (name: string): string[] =>
  name.includes("/") || standardFinalizers.has(name)
    ? []
    : ["name is neither a standard finalizer name nor is it fully qualified"];

/**
 * The finalizer rule core's ValidateObjectMeta adds to apimachinery's (which the schema's metadata check
 * applies to every object): each of `metadata.finalizers`, at its index.
 */
export function validateKubeFinalizers(object: JsonObject): Finding[] {
  return listAt(objectAt(object, "metadata"), "finalizers").flatMap((name, i) =>
    typeof name === "string" ? invalidEach(["metadata", "finalizers", i], name, kubeFinalizerErrors(name)) : [],
  );
}

/**
 * ValidateAnnotations: keys are qualified names without regard to case, reported at the map as labels are, and
 * keys and values together take at most 256 KiB.
 */
export function validateAnnotations(annotations: JsonObject | undefined, path: FieldPath): Finding[] {
  if (annotations === undefined) return [];
  const { keys, bytes } = annotationErrors(Object.entries(annotations));
  const out = keys.flatMap((e) => invalidEach(path, e.value, e.messages));
  if (bytes > totalAnnotationSizeLimit) out.push(tooLong(path, "", totalAnnotationSizeLimit, asError));
  return out;
}

/** ValidateLabelSelector (values strictly checked, as on create). */
export function validateLabelSelector(selector: JsonObject | undefined, path: FieldPath): Finding[] {
  if (selector === undefined) return [];
  const out = validateLabels(stringMapAt(selector, "matchLabels"), child(path, "matchLabels"));
  for (const [i, req] of objectItems(selector, "matchExpressions")) {
    const at = child(path, "matchExpressions", i);
    const values = listAt(req, "values");
    const operator = stringAt(req, "operator");
    switch (operator) {
      case "In":
      case "NotIn":
        if (values.length === 0)
          out.push(required(child(at, "values"), "must be specified when `operator` is 'In' or 'NotIn'", asError));
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0)
          out.push(
            forbidden(
              child(at, "values"),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
              asError,
            ),
          );
        break;
      case undefined:
        break;
      default:
        out.push(invalid(child(at, "operator"), operator, "not a valid selector operator", asError));
    }
    const key = stringAt(req, "key");
    if (key !== undefined) out.push(...invalidEach(child(at, "key"), key, isQualifiedName(key)));
    values.forEach((v, j) => {
      if (typeof v === "string") out.push(...invalidEach(child(at, "values", j), v, isValidLabelValue(v)));
    });
  }
  return out;
}

/**
 * metav1.LabelSelectorAsSelector, as a predicate over a label set: undefined
 * when the conversion fails (an invalid key, value or operator), `"everything"`
 * for an empty selector, `"nothing"` for none.
 */
export type Selector = "nothing" | "everything" | ((labels: ReadonlyMap<string, string>) => boolean);

export function labelSelectorAsSelector(selector: JsonObject | undefined): Selector | undefined {
  if (selector === undefined) return "nothing";
  const matchLabels = stringMapAt(selector, "matchLabels");
  const expressions = objectItems(selector, "matchExpressions").map(([, r]) => r);
  if (matchLabels.length === 0 && expressions.length === 0) return "everything";
  const tests: ((labels: ReadonlyMap<string, string>) => boolean)[] = [];
  for (const [k, v] of matchLabels) {
    if (isQualifiedName(k).length > 0 || isValidLabelValue(v).length > 0) return undefined;
    tests.push((labels) => labels.get(k) === v);
  }
  for (const req of expressions) {
    const key = stringAt(req, "key") ?? "";
    const values = listAt(req, "values").filter((v): v is string => typeof v === "string");
    if (isQualifiedName(key).length > 0 || values.some((v) => isValidLabelValue(v).length > 0)) return undefined;
    switch (stringAt(req, "operator")) {
      case "In":
        if (values.length === 0) return undefined;
        tests.push((labels) => values.includes(labels.get(key) as string));
        break;
      case "NotIn":
        if (values.length === 0) return undefined;
        tests.push((labels) => !labels.has(key) || !values.includes(labels.get(key) as string));
        break;
      case "Exists":
        if (values.length > 0) return undefined;
        tests.push((labels) => labels.has(key));
        break;
      case "DoesNotExist":
        if (values.length > 0) return undefined;
        tests.push((labels) => !labels.has(key));
        break;
      default:
        return undefined;
    }
  }
  return (labels) => tests.every((t) => t(labels));
}

export function selectorMatches(selector: Selector, labels: readonly [string, string][]): boolean {
  if (selector === "nothing") return false;
  if (selector === "everything") return true;
  return selector(new Map(labels));
}

/** The labels of a pod template (`<template>.metadata.labels`) as a JSON object, for the bad value. */
export function templateLabels(template: JsonObject | undefined): JsonValue {
  const labels = objectAt(objectAt(template, "metadata"), "labels");
  return labels ?? null;
}
