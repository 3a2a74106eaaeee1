/**
 * Kubernetes format library (apiserver/pkg/cel/library/format.go):
 * `format.named(name)` (an optional format), `format.dns1123Label()` and the
 * other named formats, and `<format>.validate(str)`, which returns
 * `optional.none()` when valid and `optional.of([errors…])` otherwise, with
 * apimachinery's validation messages.
 */
import { CelScalar, type CelValue, celFunc, celMethod } from "@bufbuild/cel";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
} from "../names/index.js";
import { decls } from "./decls.js";
import { NONE, optionalOf } from "./lib-optional.js";
import { parseURL } from "./lib-url.js";
import { ArrayValue, asCel, CelRuntimeError, OpaqueValue } from "./values.js";
import { parseDateTime } from "./wkt.js";

const { STRING, DYN } = CelScalar;

const reUUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const reDate = /^\d{4}-\d{2}-\d{2}$/;

/** `generateName` prefixes: a trailing dash is allowed. */
const prefixed = (f: (v: string) => string[]) => (v: string) => f(maskTrailingDash(v));

const FORMATS: Record<string, (v: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: prefixed(isDNS1123Label),
  dns1123SubdomainPrefix: prefixed(isDNS1123Subdomain),
  dns1035LabelPrefix: prefixed(isDNS1035Label),
  labelValue: isValidLabelValue,
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
