/**
 * certificates.k8s.io/v1 CertificateSigningRequests as the API server
 * validates them on create (kubernetes/kubernetes
 * pkg/apis/certificates/validation ValidateCertificateSigningRequestCreate,
 * validateCertificateSigningRequest and validateCSR; core's ValidateSignerName
 * in pkg/apis/core/validation), the same rules in 1.32 to 1.36.
 *
 * What the server does first: certificates/v1 has no defaulting function;
 * the strategy's PrepareForCreate replaces username, uid, groups and extra
 * with the caller's and empties the status, so the status rules (conditions,
 * certificate) never fire on create. The name is free (ValidateCertificateRequestName
 * accepts anything); metadata otherwise follows core's ValidateObjectMeta.
 *
 * - spec.request (validateCSR): certificates.ParseCSR, then
 *   x509.ParseCertificateRequest, then CheckSignature; the error is printed
 *   with the bytes as Go's `%#v` of a []byte (`[]byte{0x2d, …}`) through
 *   1.33, and as JSON (the base64, quoted) from 1.34, where field.Error
 *   prints composite values as JSON (kubernetes#132314). Only what ../../go/csr.ts ports
 *   is said (a missing or mistyped PEM block, a badly framed DER): a request
 *   that passes it is not checked further. An absent or null request is a nil
 *   []byte; one that is not base64 is the decoder's.
 * - spec.usages: at least one; each one of the known key usages, listed
 *   sorted; none twice.
 * - spec.signerName: not the legacy "kubernetes.io/legacy-unknown", then
 *   ValidateSignerName: `<domain>/<path>`, the domain DNS-1123 labels of at
 *   least two segments within 253 bytes, the path DNS-1123 subdomains, the
 *   whole within 571 bytes. An absent spec is the zero spec.
 * - spec.expirationSeconds: at least 600 when set.
 */
import { type Finding, tooLong } from "../../findings/index.js";
import { CSR_PEM_TYPE_ERROR, certificateRequestError, decodeBase64, GoError, quote } from "../../go/index.js";
import { byteLength, isDNS1123Label, isDNS1123Subdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  invalid,
  invalidShown,
  listAt,
  notSupported,
  objectAt,
  optionalIntAt,
  required,
  stringAt,
} from "./common.js";

/** allValidUsages.List(): the certificates.KeyUsage constants, sorted. */
export const validUsages = [
  "signing",
  "digital signature",
  "content commitment",
  "key encipherment",
  "key agreement",
  "data encipherment",
  "cert sign",
  "crl sign",
  "encipher only",
  "decipher only",
  "any",
  "server auth",
  "client auth",
  "code signing",
  "email protection",
  "s/mime",
  "ipsec end system",
  "ipsec tunnel",
  "ipsec user",
  "timestamping",
  "ocsp signing",
  "microsoft sgc",
  "netscape sgc",
].sort();

const legacyUnknownSignerName = "kubernetes.io/legacy-unknown";

const dns1123SubdomainMaxLength = 253;
const dns1123LabelMaxLength = 63;

/** Go's `%#v` of a []byte: `[]byte{0x2d, 0x2d}`, `[]byte(nil)` for nil. */
export const goBytes = (bytes: Uint8Array | null): string =>
  bytes === null ? "[]byte(nil)" : `[]byte{${Array.from(bytes, (b) => `0x${b.toString(16)}`).join(", ")}}`;

/**
 * A []byte bad value as field.Error prints it: Go's `%#v` through 1.33, JSON from 1.34 (kubernetes#132314),
 * which is the bytes in standard base64, quoted, and `null` for nil.
 */
export function shownBytes(bytes: Uint8Array | null, minor: number): string {
  if (minor < 34) return goBytes(bytes);
  if (bytes === null) return "null";
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return JSON.stringify(btoa(binary));
}

/** validateCSR, as far as ported: spec.request's finding, if any. */
function validateRequest(spec: JsonObject, path: FieldPath, minor: number): Finding[] {
  const encoded = getKey(spec, "request");
  const at = child(path, "request");
  // Absent or null decodes to a nil []byte, in which ParseCSR finds no block.
  if (encoded === undefined || encoded === null) return [invalidShown(at, shownBytes(null, minor), CSR_PEM_TYPE_ERROR)];
  // Not a string: the schema's type; not base64: the decoder's.
  if (typeof encoded !== "string") return [];
  const bytes = decodeBase64(encoded);
  if (bytes instanceof GoError) return [];
  const error = certificateRequestError(bytes);
  return error === undefined ? [] : [invalidShown(at, shownBytes(bytes, minor), error)];
}

/** The usages rules: Required when none, NotSupported for an unknown one, Duplicate for a repeated one. */
function validateUsages(spec: JsonObject, path: FieldPath): Finding[] {
  const at = child(path, "usages");
  const usages = listAt(spec, "usages");
  if (usages.length === 0) return [required(at, "", asError)];
  const out: Finding[] = [];
  // A null item decodes to ""; items of other types are the schema's.
  const values = usages.map((u) => (u === null ? "" : typeof u === "string" ? u : undefined));
  values.forEach((usage, i) => {
    if (usage !== undefined && !validUsages.includes(usage))
      out.push(notSupported(child(at, i), usage, validUsages, asError));
  });
  const seen = new Set<string>();
  values.forEach((usage, i) => {
    if (usage === undefined) return;
    if (seen.has(usage)) out.push(duplicate(child(at, i), usage, asError));
    seen.add(usage);
  });
  return out;
}

/** core's ValidateSignerName. */
export function validateSignerName(path: FieldPath, signerName: string): Finding[] {
  if (signerName === "") return [required(path, "", asError)];
  const segments = signerName.split("/");
  if (segments.length !== 2)
    return [
      invalid(
        path,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        asError,
      ),
    ];
  const [domain, signerPath] = segments as [string, string];
  const out: Finding[] = [];
  if (byteLength(domain) > dns1123SubdomainMaxLength) out.push(tooLong(path, "", dns1123SubdomainMaxLength, asError));
  // Only the first bad label is told, with all its errors.
  const domainLabels = domain.split(".");
  for (const label of domainLabels) {
    const errs = isDNS1123Label(label);
    if (errs.length === 0) continue;
    for (const err of errs) out.push(invalid(path, domain, `validating label ${quote(label)}: ${err}`, asError));
    break;
  }
  if (domainLabels.length < 2)
    out.push(invalid(path, domain, "should be a domain with at least two segments separated by dots", asError));
  for (const label of signerPath.split(".")) {
    const errs = isDNS1123Subdomain(label);
    if (errs.length === 0) continue;
    for (const err of errs) out.push(invalid(path, signerPath, `validating label ${quote(label)}: ${err}`, asError));
    break;
  }
  const maxSignerNameLength = dns1123SubdomainMaxLength + (dns1123SubdomainMaxLength + dns1123LabelMaxLength + 1) + 1;
  if (byteLength(signerName) > maxSignerNameLength) out.push(tooLong(path, "", maxSignerNameLength, asError));
  return out;
}

function validateSigner(spec: JsonObject, path: FieldPath): Finding[] {
  const at = child(path, "signerName");
  const signerName = stringAt(spec, "signerName");
  if (signerName === undefined) return [];
  // absent, null or empty alike
  if (signerName === "") return [required(at, "", asError)];
  if (signerName === legacyUnknownSignerName)
    return [invalid(at, signerName, "the legacy signerName is not allowed via this API version", asError)];
  return validateSignerName(at, signerName);
}

export function validateCertificateSigningRequest(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  if (spec === undefined) return [];
  const path: FieldPath = ["spec"];
  const out = [...validateRequest(spec, path, minor), ...validateUsages(spec, path), ...validateSigner(spec, path)];
  const expiration = optionalIntAt(spec, "expirationSeconds");
  if (expiration !== undefined && expiration < 600)
    out.push(
      invalid(
        child(path, "expirationSeconds"),
        expiration,
        "may not specify a duration less than 600 seconds (10 minutes)",
        asError,
      ),
    );
  return out;
}
