/**
 * Kubernetes format library (apiserver/pkg/cel/library/format.go):
 * `format.named(name)` (an optional format), `format.dns1123Label()` and the
 * other named formats, and `<format>.validate(str)`, which returns
 * `optional.none()` when valid and `optional.of([errors…])` otherwise, with
 * apimachinery's validation messages.
 */
import type { CelValue } from "@bufbuild/cel";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
} from "../../names/index.js";
import { ArrayValue, asCel, OpaqueValue, opaqueOf } from "../language/values.js";
import { parseDateTime } from "../language/wkt.js";
import { type Declaration, declare } from "./declaration.js";
import { NONE, optionalOf } from "./optional.js";
import { parseURL } from "./url.js";

const reUUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const reDate = /^\d{4}-\d{2}-\d{2}$/;

/** `generateName` prefixes: a trailing dash is allowed. */
const prefixed = (f: (v: string) => string[]) => (v: string) => f(maskTrailingDash(v));

const VALIDATORS: Record<string, (v: string) => string[]> = {
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

const FORMAT_NAMES = Object.keys(VALIDATORS);

export const FORMATS: readonly Declaration[] = [
  declare("format.named(string) -> optional<Format>", (name: string) =>
    Object.hasOwn(VALIDATORS, name) ? optionalOf(asCel(new FormatValue(name))) : asCel(NONE),
  ),
  ...FORMAT_NAMES.map((n) => declare(`format.${n}() -> Format`, () => asCel(new FormatValue(n)))),
  declare("Format.validate(string) -> optional<list<string>>", function (this: unknown, s: string): CelValue {
    const errs = (VALIDATORS[opaqueOf(FormatValue, this).name] as (v: string) => string[])(s);
    return errs.length === 0 ? asCel(NONE) : optionalOf(asCel(new ArrayValue(errs)));
  }),
];
