/**
 * CertificateSigningRequests as pkg/apis/certificates/validation/validation.go
 * ValidateCertificateSigningRequestCreate (validateCertificateSigningRequest, validateCSR) and core's
 * ValidateSignerName refuse them on create, word for word; the request's parsing is ../../go/csr.ts's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { goBytes, shownBytes, validateCertificateSigningRequest } from "./certificates.js";
import { dns1123LabelError, dns1123SubdomainError } from "./test-helpers.js";

/** An RSA CSR made with OpenSSL (src/go/testdata/csr), base64 as the JSON field carries it. */
const REQUEST = btoa(readFileSync(join(import.meta.dirname, "..", "..", "go", "testdata", "csr", "rsa.csr"), "utf8"));

/** A CSR as the Kubernetes documentation's example writes it. */
const csr = (spec: JsonObject): JsonObject => ({
  apiVersion: "certificates.k8s.io/v1",
  kind: "CertificateSigningRequest",
  metadata: { name: "myuser" },
  spec: {
    request: REQUEST,
    signerName: "kubernetes.io/kube-apiserver-client",
    expirationSeconds: 86400,
    usages: ["client auth"],
    ...spec,
  },
});

const said = (spec: JsonObject, minor = 36): string[] =>
  validateCertificateSigningRequest(csr(spec), minor)
    .map((f) => f.message)
    .sort();

const supported =
  'supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", ' +
  '"data encipherment", "decipher only", "digital signature", "email protection", "encipher only", ' +
  '"ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", ' +
  '"netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"';

const notFQDN = "must be a fully qualified domain and path of the form 'example.com/signer-name'";

const cases: [string, JsonObject, string[]][] = [
  ["a valid CSR", {}, []],
  ["a custom signer", { signerName: "example.com/my-signer.v1" }, []],
  ["all usages known", { usages: ["digital signature", "key encipherment", "server auth"] }, []],
  ["expirationSeconds of exactly 600", { expirationSeconds: 600 }, []],
  ["expirationSeconds left out", { expirationSeconds: null }, []],
  // validateCSR
  [
    "a request that is base64 of text, not PEM (the bytes as JSON: base64)",
    { request: btoa("hello") },
    ['spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST'],
  ],
  [
    "an empty request",
    { request: "" },
    ['spec.request: Invalid value: "": PEM block type must be CERTIFICATE REQUEST'],
  ],
  ["a request that is not base64: the decoder's", { request: "-----BEGIN" }, []],
  [
    "a null request: a nil []byte",
    { request: null },
    ["spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST"],
  ],
  // usages
  ["no usages", { usages: [] }, ["spec.usages: Required value"]],
  ["usages left out", { usages: null }, ["spec.usages: Required value"]],
  [
    "an unknown usage, at its index, the known ones listed sorted",
    { usages: ["client auth", "clientAuth"] },
    [`spec.usages[1]: Unsupported value: "clientAuth": ${supported}`],
  ],
  [
    "a usage said twice",
    { usages: ["digital signature", "client auth", "digital signature"] },
    ['spec.usages[2]: Duplicate value: "digital signature"'],
  ],
  [
    "an unknown usage said twice: both unsupported, the second a duplicate",
    { usages: ["tls", "tls"] },
    [
      `spec.usages[0]: Unsupported value: "tls": ${supported}`,
      `spec.usages[1]: Unsupported value: "tls": ${supported}`,
      'spec.usages[1]: Duplicate value: "tls"',
    ],
  ],
  // signerName
  ["an empty signerName", { signerName: "" }, ["spec.signerName: Required value"]],
  [
    "the legacy signerName",
    { signerName: "kubernetes.io/legacy-unknown" },
    [
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    ],
  ],
  [
    "a signerName without a path",
    { signerName: "example.com" },
    [`spec.signerName: Invalid value: "example.com": ${notFQDN}`],
  ],
  [
    "a signerName with two slashes",
    { signerName: "example.com/a/b" },
    [`spec.signerName: Invalid value: "example.com/a/b": ${notFQDN}`],
  ],
  [
    "a domain of one segment",
    { signerName: "example/signer" },
    ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'],
  ],
  [
    "an upper-case domain label: the first bad label only",
    { signerName: "Example.COM/signer" },
    [`spec.signerName: Invalid value: "Example.COM": validating label "Example": ${dns1123LabelError}`],
  ],
  [
    "a bad path label",
    { signerName: "example.com/my..signer" },
    [`spec.signerName: Invalid value: "my..signer": validating label "": ${dns1123SubdomainError}`],
  ],
  [
    "an empty path and an empty domain",
    { signerName: "/" },
    [
      `spec.signerName: Invalid value: "": validating label "": ${dns1123LabelError}`,
      'spec.signerName: Invalid value: "": should be a domain with at least two segments separated by dots',
      `spec.signerName: Invalid value: "": validating label "": ${dns1123SubdomainError}`,
    ],
  ],
  [
    "a domain over 253 bytes and a name over 571",
    { signerName: `${Array(4).fill("a".repeat(63)).join(".")}/${"b".repeat(253)}.${"c".repeat(253)}` },
    [
      "spec.signerName: Too long: may not be more than 253 bytes",
      "spec.signerName: Too long: may not be more than 571 bytes",
    ],
  ],
  // expirationSeconds
  [
    "expirationSeconds under 10 minutes",
    { expirationSeconds: 599 },
    ["spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)"],
  ],
  ["values of the wrong type: the schema's", { signerName: 3, expirationSeconds: "600", usages: [1], request: 5 }, []],
];

describe("CertificateSigningRequests (ValidateCertificateSigningRequestCreate)", () => {
  it.each(cases)("%s", (_, spec, expected) => {
    expect(said(spec)).toEqual([...expected].sort());
  });

  it("ignores the status and the user fields, which PrepareForCreate replaces", () => {
    const object = csr({ username: "x", groups: [1] });
    object.status = { conditions: [{ type: "Approved", status: "False" }], certificate: "bm90IGEgY2VydA==" };
    expect(validateCertificateSigningRequest(object, 36)).toEqual([]);
  });

  it("takes an absent signerName or request as Go's zero value, as a null one", () => {
    const object = csr({});
    delete (object.spec as JsonObject).signerName;
    delete (object.spec as JsonObject).request;
    const messages = (o: JsonObject, minor = 36) => validateCertificateSigningRequest(o, minor).map((f) => f.message);
    expect(messages(object)).toEqual([
      "spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST",
      "spec.signerName: Required value",
    ]);
    expect(messages(object, 33)[0]).toBe(
      "spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST",
    );
    expect(said({ signerName: null })).toEqual(["spec.signerName: Required value"]);
  });

  it("prints the request's bytes as Go's %#v of a []byte through 1.33, as JSON from 1.34", () => {
    expect(goBytes(Uint8Array.of(0, 9, 0x2d, 0xff))).toBe("[]byte{0x0, 0x9, 0x2d, 0xff}");
    expect(goBytes(new Uint8Array(0))).toBe("[]byte{}");
    expect(goBytes(null)).toBe("[]byte(nil)");
    expect(shownBytes(Uint8Array.of(0, 9, 0x2d, 0xff), 34)).toBe('"AAkt/w=="');
    expect(shownBytes(null, 34)).toBe("null");
    const hello = { request: btoa("hello") };
    const pemTypeError = "PEM block type must be CERTIFICATE REQUEST";
    expect(said(hello, 33)).toEqual([
      `spec.request: Invalid value: []byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}: ${pemTypeError}`,
    ]);
    expect(said(hello, 34)).toEqual([`spec.request: Invalid value: "aGVsbG8=": ${pemTypeError}`]);
    expect(said({ request: "" }, 32)).toEqual([`spec.request: Invalid value: []byte{}: ${pemTypeError}`]);
    expect(said({ request: null }, 32)).toEqual([`spec.request: Invalid value: []byte(nil): ${pemTypeError}`]);
  });

  it("prints the bytes Go decoded, re-encoded in standard base64 (line breaks in the field dropped)", () => {
    expect(said({ request: "aGVs\nbG8=" })).toEqual([
      'spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST',
    ]);
  });

  it("reports a truncated request with the asn1 error", () => {
    const pem = atob(REQUEST);
    const lines = pem.trimEnd().split("\n");
    // Drop three whole base64 lines (48 bytes each): still valid base64, the DER now short.
    const cut = [...lines.slice(0, 5), ...lines.slice(8)].join("\n");
    const [finding] = validateCertificateSigningRequest(csr({ request: btoa(cut) }), 36);
    expect(finding?.message).toBe(`spec.request: Invalid value: "${btoa(cut)}": asn1: syntax error: data truncated`);
    const [old] = validateCertificateSigningRequest(csr({ request: btoa(cut) }), 33);
    expect(old?.message).toMatch(
      /^spec\.request: Invalid value: \[\]byte\{0x2d, 0x2d, .*\}: asn1: syntax error: data truncated$/,
    );
  });
});
