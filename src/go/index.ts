/**
 * Go's parsing rules, each ported once: durations (time.ParseDuration and
 * kube-openapi strfmt's duration), RFC 3339 dates and date-times (time.Parse
 * and strfmt's date-time), URLs (net/url Parse and ParseRequestURI) and
 * quantities (apimachinery resource.ParseQuantity, and the Quantity methods
 * Cmp, Sign, MilliValue and String), base64 (encoding/base64's
 * StdEncoding, what a `[]byte` field decodes with). The CEL libraries, the
 * OpenAPI formats and the built-in kinds' formats all call these. Failures
 * are GoError values carrying Go's message. Imports nothing.
 */
export { decodeBase64 } from "./base64.js";
export { parseDuration, parseOpenAPIDuration } from "./duration.js";
export { GoError, quote } from "./error.js";
export {
  compareQuantities,
  ERR_FORMAT,
  ERR_NUMERIC,
  ERR_SUFFIX,
  milliValue,
  parseQuantity,
  type Quantity,
  type QuantityFormat,
  quantitySign,
  quantityString,
} from "./quantity.js";
export {
  type Instant,
  isDate,
  isDateTime,
  parseDateTime,
  parseFullDate,
  parseRFC3339,
  parseRFC3339Micro,
} from "./time.js";
export { escapedPath, hostname, parse, parseRequestURI, port, query, type URL, type Userinfo } from "./url.js";
