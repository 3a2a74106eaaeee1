/**
 * Kubernetes format library (apiserver/pkg/cel/library/format.go):
 * `format.named(name)` (an optional format), `format.dns1123Label()` and the
 * other named formats, and `<format>.validate(str)`, which returns
 * `optional.none()` when valid and `optional.of([errors…])` otherwise, with
 * apimachinery's validation messages.
 */
import { CelScalar, type CelValue, celFunc, celMethod } from "@bufbuild/cel";
import { decls } from "./decls.js";
import { NONE, optionalOf } from "./lib-optional.js";
import { parseURL } from "./lib-url.js";
import { ArrayValue, asCel, CelRuntimeError, OpaqueValue } from "./values.js";
import { parseDateTime } from "./wkt.js";

const { STRING, DYN } = CelScalar;

const DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";
const QNAME_CHAR = "[A-Za-z0-9]";
const QNAME_EXT = "[-A-Za-z0-9_.]";
const QUALIFIED_NAME = `(${QNAME_CHAR}${QNAME_EXT}*)?${QNAME_CHAR}`;
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const reDns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const reDns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const reDns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const reQualifiedName = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const reLabelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const reUUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const reDate = /^\d{4}-\d{2}-\d{2}$/;

const maxLen = (n: number) => `must be no more than ${n} characters`;
const utf8Len = (s: string) => new TextEncoder().encode(s).length;

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  let s = `${msg} (`;
  if (examples.length > 0) {
    s += "e.g. ";
    s += examples.map((e) => `'${e}'`).join(",  or ");
    s += ", ";
  }
  return `${s}regex used for validation is '${fmt}')`;
}

function dns1123Label(v: string): string[] {
  const errs: string[] = [];
  if (utf8Len(v) > 63) errs.push(maxLen(63));
  if (!reDns1123Label.test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL,
        "my-name",
        "123-abc",
      ),
    );
  return errs;
}

function dns1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (utf8Len(v) > 253) errs.push(maxLen(253));
  if (!reDns1123Subdomain.test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        "example.com",
      ),
    );
  return errs;
}

function dns1035Label(v: string): string[] {
  const errs: string[] = [];
  if (utf8Len(v) > 63) errs.push(maxLen(63));
  if (!reDns1035Label.test(v))
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        "my-name",
        "abc-123",
      ),
    );
  return errs;
}

function qualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split("/");
  let name: string;
  if (parts.length === 1) name = parts[0] as string;
  else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else for (const e of dns1123Subdomain(prefix)) errs.push(`prefix part ${e}`);
  } else {
    return [
      `a qualified name ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_NAME, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (!reQualifiedName.test(name))
    errs.push(
      `name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_NAME, "MyName", "my.name", "123-abc")}`,
    );
  return errs;
}

function labelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!reLabelValue.test(v))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        "MyValue",
        "my_value",
        "12345",
      ),
    );
  return errs;
}

/** `generateName` prefixes: a trailing dash is allowed (apimachinery `maskTrailingDash`). */
const prefixed = (f: (v: string) => string[]) => (v: string) =>
  f(v.length > 1 && v.endsWith("-") ? `${v.slice(0, -2)}a` : v);

const FORMATS: Record<string, (v: string) => string[]> = {
  dns1123Label,
  dns1123Subdomain,
  dns1035Label,
  qualifiedName,
  dns1123LabelPrefix: prefixed(dns1123Label),
  dns1123SubdomainPrefix: prefixed(dns1123Subdomain),
  dns1035LabelPrefix: prefixed(dns1035Label),
  labelValue,
  uri: (v) => {
    try {
      parseURL(v);
      return [];
    } catch (e) {
      return [`invalid URI: ${(e as Error).message}`];
    }
  },
  uuid: (v) => (reUUID.test(v) ? [] : ["does not match the UUID format"]),
  byte: (v) => {
    try {
      atob(v);
      return [];
    } catch {
      return ["invalid base64"];
    }
  },
  date: (v) => (reDate.test(v) && parseDateTime(v) !== undefined ? [] : ["invalid date"]),
  datetime: (v) => (v.length > 10 && parseDateTime(v) !== undefined ? [] : ["invalid datetime"]),
};

export class FormatValue extends OpaqueValue {
  readonly celTypeName = "kubernetes.NamedFormat";
  constructor(readonly name: string) {
    super();
  }
  equals(other: unknown): boolean {
    return other instanceof FormatValue && other.name === this.name;
  }
}

export const FORMAT_NAMES = Object.keys(FORMATS);

export const FORMAT_DECLS = decls(
  [
    "format.named(string) -> optional<Format>",
    ...FORMAT_NAMES.map((n) => `format.${n}() -> Format`),
    "Format.validate(string) -> optional<list<string>>",
  ].join("\n"),
);

export const FORMAT_FUNCS = [
  celFunc("format.named", [STRING], DYN, (name: string) =>
    Object.hasOwn(FORMATS, name) ? optionalOf(asCel(new FormatValue(name))) : asCel(NONE),
  ),
  ...FORMAT_NAMES.map((n) => celFunc(`format.${n}`, [], DYN, () => asCel(new FormatValue(n)))),
  celMethod("validate", DYN, [STRING], DYN, function (s: string): CelValue {
    const self = this as unknown;
    if (!(self instanceof FormatValue)) throw new CelRuntimeError("no such overload");
    const errs = (FORMATS[self.name] as (v: string) => string[])(s);
    return errs.length === 0 ? asCel(NONE) : optionalOf(asCel(new ArrayValue(errs)));
  }),
];
