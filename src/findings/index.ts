/**
 * Findings are data: what is wrong, where, in the API server's words.
 * Constructors mirror apimachinery's `field.Required`, `field.Invalid`, …,
 * and `message` is what `field.Error.Error()` prints, so users read what
 * `kubectl apply` would say. Imports only `path`.
 */
import { type FieldPath, formatPath } from "../path/index.js";

/** `field.ErrorType` reasons, plus kunion's own kinds for input that never reached validation. */
export type FindingType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueForbidden"
  | "FieldValueNotSupported"
  | "FieldValueDuplicate"
  | "FieldValueNotFound"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueTypeInvalid"
  | "UnknownField"
  | "ParseError"
  | "SchemaError"
  | "SchemaMissing"
  /** A change between two revisions of a CRD that breaks stored objects or clients (evolution.md). */
  | "CrdChange";

export type Severity = "error" | "warning" | "notice";

export interface Finding {
  type: FindingType;
  /** Rule id for reports and configuration, e.g. `union`, `yaml`, `union-declaration`. */
  rule: string;
  severity: Severity;
  /** Kubernetes field path as printed (`spec.strategy.rollingUpdate`); empty for the whole document. */
  field: string;
  path: FieldPath;
  /**
   * Where the field is written in the document, when the API server names it otherwise (`path`): a CRD's
   * schema common to all its versions is the internal type's `spec.validation.openAPIV3Schema`, written in
   * `spec.versions[0].schema.openAPIV3Schema`.
   */
  at?: FieldPath;
  badValue?: unknown;
  detail: string;
  /** The full line as the API server prints it: `<field>: <reason>[: <value>][: <detail>]`. */
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** Index of the document within its file (0-based) when the input had several. */
  document?: number;
}

const reasonText: Record<FindingType, string> = {
  FieldValueRequired: "Required value",
  FieldValueInvalid: "Invalid value",
  FieldValueForbidden: "Forbidden",
  FieldValueNotSupported: "Unsupported value",
  FieldValueDuplicate: "Duplicate value",
  FieldValueNotFound: "Not found",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  FieldValueTypeInvalid: "Invalid value",
  UnknownField: "unknown field",
  ParseError: "Invalid document",
  SchemaError: "Invalid schema",
  SchemaMissing: "No schema known",
  CrdChange: "Incompatible change",
};

/** Types whose message never prints the bad value (as in `field.Error.ErrorBody`). */
const valueless = new Set<FindingType>(["FieldValueRequired", "FieldValueForbidden", "FieldValueTooLong"]);

/** Go's `%q`/`%v` rendering of a bad value, JSON for composite values. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

interface Init {
  type: FindingType;
  path: FieldPath;
  detail?: string;
  badValue?: unknown;
  rule?: string;
  severity?: Severity;
}

export function finding({ type, path, detail = "", badValue, rule = "schema", severity = "error" }: Init): Finding {
  const field = formatPath(path);
  let body = reasonText[type];
  if (!valueless.has(type) && badValue !== undefined) body += `: ${formatValue(badValue)}`;
  if (detail !== "") body += `: ${detail}`;
  const out: Finding = {
    type,
    rule,
    severity,
    field,
    path,
    detail,
    message: field === "" ? body : `${field}: ${body}`,
  };
  // A bad value goes to JSON reports as it is: an int64 (a quantity's Value) as a number, or its digits past 2^53.
  if (typeof badValue === "bigint")
    out.badValue = Number.isSafeInteger(Number(badValue)) ? Number(badValue) : `${badValue}`;
  else if (badValue !== undefined) out.badValue = badValue;
  return out;
}

type Extra = Pick<Init, "rule" | "severity">;

/** A notice that files or findings were left out (rule `skipped`): about the run, not a document, so in its own words. */
export function skippedNotice(detail: string, file?: string): Finding {
  const out = {
    ...finding({ type: "ParseError", path: [], detail, rule: "skipped", severity: "notice" }),
    message: detail,
  };
  return file === undefined ? out : { ...out, file };
}

export const required = (path: FieldPath, detail = "", extra: Extra = {}) =>
  finding({ type: "FieldValueRequired", path, detail, ...extra });

export const invalid = (path: FieldPath, badValue: unknown, detail = "", extra: Extra = {}) =>
  finding({ type: "FieldValueInvalid", path, badValue, detail, ...extra });

export const forbidden = (path: FieldPath, detail = "", extra: Extra = {}) =>
  finding({ type: "FieldValueForbidden", path, detail, ...extra });

/** `field.NotSupported`: the detail lists the supported values, quoted, in the order given. */
export const notSupported = (path: FieldPath, badValue: unknown, supported: readonly string[], extra: Extra = {}) =>
  finding({
    type: "FieldValueNotSupported",
    path,
    badValue,
    detail: supported.length > 0 ? `supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}` : "",
    ...extra,
  });

/** `field.Duplicate`. */
export const duplicate = (path: FieldPath, badValue: unknown, extra: Extra = {}) =>
  finding({ type: "FieldValueDuplicate", path, badValue, ...extra });

/** `field.NotFound`: `Not found: "<value>"`. */
export const notFound = (path: FieldPath, badValue: unknown, extra: Extra = {}) =>
  finding({ type: "FieldValueNotFound", path, badValue, ...extra });

/** `field.TooLong`: the limit in bytes (the message never prints the value). */
export const tooLong = (path: FieldPath, badValue: unknown, max: number, extra: Extra = {}) =>
  finding({
    type: "FieldValueTooLong",
    path,
    badValue,
    detail: `may not be more than ${max} ${max === 1 ? "byte" : "bytes"}`,
    ...extra,
  });

/** `field.TooMany`: the count as the value, the limit in items. */
export const tooMany = (path: FieldPath, actual: number, max: number, extra: Extra = {}) =>
  finding({
    type: "FieldValueTooMany",
    path,
    badValue: actual,
    detail: `must have at most ${max} ${max === 1 ? "item" : "items"}`,
    ...extra,
  });

/** An input that could not be read as objects at all (YAML syntax, limits). */
export const parseError = (detail: string, extra: Extra = {}) =>
  finding({ type: "ParseError", path: [], detail, rule: "parse", ...extra });

/** A union or schema declaration that contradicts itself. */
export const schemaError = (path: FieldPath, detail: string, extra: Extra = {}) =>
  finding({ type: "SchemaError", path, detail, rule: "union-declaration", ...extra });

const severityRank: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };

/** Stable order for reports: file, position, then severity. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (a.file ?? "").localeCompare(b.file ?? "") ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    severityRank[a.severity] - severityRank[b.severity] ||
    a.message.localeCompare(b.message)
  );
}

/** The same finding under a parent path (a schema's findings placed in its CRD), message included. */
export function reroot(f: Finding, prefix: FieldPath): Finding {
  const path = [...prefix, ...f.path];
  const field = formatPath(path);
  const message =
    f.field !== "" && f.message.startsWith(f.field)
      ? field + f.message.slice(f.field.length)
      : `${field}: ${f.message}`;
  return f.at === undefined ? { ...f, path, field, message } : { ...f, path, field, message, at: [...prefix, ...f.at] };
}

/** kubectl's strict decoding wording: `unknown field "spec.foo"`. */
export function unknownField(path: FieldPath, extra: Extra = {}): Finding {
  const f = finding({ type: "UnknownField", path, ...extra });
  return { ...f, message: `unknown field "${f.field}"` };
}
