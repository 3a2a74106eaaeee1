/**
 * Go's parsing rules, each ported once: durations (time.ParseDuration and
 * kube-openapi strfmt's duration), RFC 3339 dates and date-times (time.Parse
 * and strfmt's date-time), URLs (net/url Parse and ParseRequestURI) and
 * quantities (apimachinery resource.ParseQuantity, and the Quantity methods
 * Cmp, Sign, MilliValue and String), base64 (encoding/base64's
 * StdEncoding, what a `[]byte` field decodes with), IP addresses and CIDR
 * values (k8s.io/utils/net's ParseIPSloppy and ParseCIDRSloppy, and the
 * checks apimachinery's IsValidIPForLegacyField and IsValidCIDRForLegacyField
 * make with them, and the warnings of GetWarningsForIP and GetWarningsForCIDR),
 * JSON (encoding/json's scanner, and json.Unmarshal into a map), strconv.Quote
 * (`%q`), strings.TrimSpace, and the first steps of a CSR's parsing
 * (Kubernetes' certificates.ParseCSR and the outer element of
 * x509.ParseCertificateRequest). The CEL libraries, the OpenAPI formats and
 * the built-in kinds' formats all call these. Failures are GoError values carrying Go's
 * message (the IP checks return apimachinery's messages). Imports nothing.
 */
export { decodeBase64 } from "./base64.js";
export { CSR_PEM_TYPE_ERROR, certificateRequestError } from "./csr.js";
export { parseDuration, parseOpenAPIDuration } from "./duration.js";
export { GoError, quote } from "./error.js";
export {
  type CIDR,
  cidrWarnings,
  contains,
  type IP,
  ipString,
  ipWarnings,
  isIPv6,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  isValidCIDR,
  isValidCIDRForLegacyField,
  isValidIP,
  isValidIPForLegacyField,
  legacyIPWarnings,
  networkNumber,
  parseCIDRSloppy,
  parseIPSloppy,
} from "./ip.js";
export { blanksFrom, isDigit, JsonScanner, unmarshalIntoMapError } from "./json.js";
export {
  addQuantities,
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
  quantityValue,
} from "./quantity.js";
export { trimSpace } from "./strings.js";
export {
  type Instant,
  isDate,
  isDateTime,
  parseDateTime,
  parseFullDate,
  parseRFC3339,
  parseRFC3339Micro,
} from "./time.js";
export { x509KeyPairError } from "./tls.js";
export { escapedPath, hostname, parse, parseRequestURI, port, query, type URL, type Userinfo } from "./url.js";
