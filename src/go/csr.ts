/**
 * What the API server says of a CertificateSigningRequest's `spec.request`
 * before it looks at the signature: Kubernetes' `certificates.ParseCSR`
 * (pkg/apis/certificates/helpers.go) and the first steps of Go's
 * `x509.ParseCertificateRequest` (crypto/x509/x509.go), which hands the DER
 * to `asn1.Unmarshal` (encoding/asn1/asn1.go: parseField and
 * parseTagAndLength) for a `certificateRequest` struct, a SEQUENCE.
 *
 * Ported, with Go's words:
 * - ParseCSR: the first PEM block (./pem.ts) must exist and be of type
 *   "CERTIFICATE REQUEST";
 * - the outer element of its DER, as parseField reads a struct at offset 0:
 *   no bytes at all ("sequence truncated"); a broken tag or length
 *   (parseTagAndLength's errors); a tag other than a constructed universal
 *   SEQUENCE ("tags don't match", with the `%+v` of Go's tagAndLength and
 *   of the empty fieldParameters, both unchanged since Go 1.10); a length
 *   past the end of the data ("data truncated").
 *
 * Not ported, hence undefined (nothing said rather than a guess): a
 * high-tag-number outer tag, everything inside a well-framed outer SEQUENCE
 * (the TBS request, its subject, key and attributes, the signature
 * algorithm, the key's own parsing, "trailing data", which only follows a
 * successful inner parse) and CheckSignature, whose algorithms would need
 * hashing and RSA/ECDSA/Ed25519 verification. Imports only the PEM port.
 */
import { decodePEM } from "./pem.js";

/** ParseCSR's error when the first PEM block is missing or of another type. */
export const CSR_PEM_TYPE_ERROR = "PEM block type must be CERTIFICATE REQUEST";

const CLASS_UNIVERSAL = 0;
const TAG_SEQUENCE = 16;

/** `%+v` of a zero asn1.fieldParameters: what Unmarshal passes for the top-level value. */
const EMPTY_PARAMS =
  "{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}";

const syntaxError = (msg: string) => `asn1: syntax error: ${msg}`;
const structuralError = (msg: string) => `asn1: structure error: ${msg}`;

interface TagAndLength {
  cls: number;
  tag: number;
  length: number;
  compound: boolean;
  /** The offset just past the tag and length bytes. */
  offset: number;
}

/** parseTagAndLength at offset 0 of a non-empty input: the header, Go's error, or undefined when unsure. */
function parseTagAndLength(der: Uint8Array): TagAndLength | string | undefined {
  const first = der[0] as number;
  // A tag number above 30 is base-128 encoded after the first byte: not ported.
  if ((first & 0x1f) === 0x1f) return undefined;
  let offset = 1;
  if (offset >= der.length) return syntaxError("truncated tag or length");
  const b = der[offset++] as number;
  let length = 0;
  if ((b & 0x80) === 0) length = b & 0x7f;
  else {
    const numBytes = b & 0x7f;
    if (numBytes === 0) return syntaxError("indefinite length found (not DER)");
    for (let i = 0; i < numBytes; i++) {
      if (offset >= der.length) return syntaxError("truncated tag or length");
      const next = der[offset++] as number;
      if (length >= 1 << 23) return structuralError("length too large");
      length = length * 256 + next;
      if (length === 0) return structuralError("superfluous leading zeros in length");
    }
    if (length < 0x80) return structuralError("non-minimal length");
  }
  return { cls: first >> 6, tag: first & 0x1f, length, compound: (first & 0x20) !== 0, offset };
}

/** asn1.Unmarshal's error for the outer element of a certificateRequest, or undefined when it is framed well (or unsure). */
function outerElementError(der: Uint8Array): string | undefined {
  if (der.length === 0) return syntaxError("sequence truncated");
  const t = parseTagAndLength(der);
  if (t === undefined || typeof t === "string") return t;
  if (t.cls !== CLASS_UNIVERSAL || t.tag !== TAG_SEQUENCE || !t.compound) {
    const shown = `{class:${t.cls} tag:${t.tag} length:${t.length} isCompound:${t.compound}}`;
    return structuralError(
      `tags don't match (${TAG_SEQUENCE} vs ${shown}) ${EMPTY_PARAMS} certificateRequest @${t.offset}`,
    );
  }
  if (t.offset + t.length > der.length) return syntaxError("data truncated");
  return undefined;
}

/**
 * The error the API server prints for a CSR's request bytes (the PEM text, base64-decoded from JSON), as far
 * as ported: undefined when the request passes what is ported, or when Go's outcome lies beyond it.
 */
export function certificateRequestError(request: Uint8Array): string | undefined {
  const { block } = decodePEM(request);
  if (block === undefined || block.type !== "CERTIFICATE REQUEST") return CSR_PEM_TYPE_ERROR;
  return outerElementError(block.bytes);
}
