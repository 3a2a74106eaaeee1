import { GoError, isDate, isDateTime, parseOpenAPIDuration } from "../go/index.js";
import { isCIDR, isEmail, isHostname, isIPv4, isIPv6, isMAC, isRequestURI } from "./formats-net.js";

/**
 * The string formats the API server validates: apiextensions'
 * supportedFormats (pkg/apiserver/validation/formats.go) checked with
 * kube-openapi's strfmt registry. Names are normalised as go-openapi does
 * (dashes removed: `date-time` = `datetime`). Everything else — int32,
 * int64, float, double, unknown names — is stripped by the server and
 * ignored here.
 */
export type FormatCheck = (s: string) => boolean;

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const creditCard =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const byte255 = "(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])";
const rgb = new RegExp(`^rgb\\(\\s*${byte255}\\s*,\\s*${byte255}\\s*,\\s*${byte255}\\s*\\)$`);

const registry = new Map<string, FormatCheck>([
  ["bsonobjectid", (s) => /^[0-9a-fA-F]{24}$/.test(s)],
  ["uri", isRequestURI],
  ["email", isEmail],
  ["hostname", isHostname],
  ["ipv4", isIPv4],
  ["ipv6", isIPv6],
  ["cidr", isCIDR],
  ["mac", isMAC],
  ["uuid", (s) => uuid.test(s)],
  ["uuid3", (s) => uuid3.test(s)],
  ["uuid4", (s) => uuid4.test(s)],
  ["uuid5", (s) => uuid5.test(s)],
  ["isbn", (s) => isISBN10(s) || isISBN13(s)],
  ["isbn10", isISBN10],
  ["isbn13", isISBN13],
  ["creditcard", isCreditCard],
  ["ssn", (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s)],
  ["hexcolor", (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s)],
  ["rgbcolor", (s) => rgb.test(s)],
  ["byte", isBase64],
  ["password", () => true],
  ["date", isDate],
  ["duration", isDuration],
  ["datetime", isDateTime],
]);

const normalize = (name: string) => name.replaceAll("-", "");

export function supportedFormat(name: string): boolean {
  return registry.has(normalize(name));
}

export function formatChecker(name: string): FormatCheck | undefined {
  return registry.get(normalize(name));
}

/** govalidator.IsBase64: standard alphabet, padded, at least one quantum. */
export function isBase64(s: string): boolean {
  if (s.length === 0 || s.length % 4 !== 0) return false;
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  for (let i = 0; i < s.length - pad; i++) {
    const c = s.charCodeAt(i);
    const ok =
      (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 /* + */ || c === 47; /* / */
    if (!ok) return false;
  }
  return true;
}

/** kube-openapi strfmt.IsDuration. */
function isDuration(s: string): boolean {
  return !(parseOpenAPIDuration(s) instanceof GoError);
}

/** govalidator.IsISBN10: digits after removing spaces and dashes, weighted checksum mod 11. */
export function isISBN10(s: string): boolean {
  const d = s.replace(/[\s-]+/g, "");
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
  sum += d[9] === "X" ? 100 : 10 * Number(d[9]);
  return sum % 11 === 0;
}

export function isISBN13(s: string): boolean {
  const d = s.replace(/[\s-]+/g, "");
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(d[i]);
  return Number(d[12]) - ((10 - (sum % 10)) % 10) === 0;
}

/** govalidator.IsCreditCard: a known issuer pattern and the Luhn checksum. */
export function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, "");
  if (!creditCard.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = Number(d[i]);
    if (double) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}
