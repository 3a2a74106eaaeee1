/**
 * certificateRequestError against Kubernetes' certificates.ParseCSR (pkg/apis/certificates/helpers.go) and
 * the outer element of Go's x509.ParseCertificateRequest, read through encoding/asn1's parseField and
 * parseTagAndLength. Fixtures: CSRs made once with OpenSSL 3.0 (`openssl req -new -newkey rsa:2048|ec|ed25519
 * -nodes -subj … -keyout /dev/null`), in testdata/csr; broken variants are derived from them below.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CSR_PEM_TYPE_ERROR, certificateRequestError } from "./csr.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "testdata", "csr", name), "utf8");
const text = (s: string) => new TextEncoder().encode(s);
const errorOf = (s: string) => certificateRequestError(text(s));

/** A PEM block of this type around these DER bytes. */
const pem = (type: string, der: Uint8Array) => {
  const body = btoa(String.fromCharCode(...der)).replace(/(.{64})/g, "$1\n");
  return `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`;
};
const der = (...bytes: number[]) => Uint8Array.from(bytes);

const RSA = fixture("rsa.csr");
const P256 = fixture("p256.csr");
const ED25519 = fixture("ed25519.csr");

/** The DER of a fixture. */
const derOf = (s: string) =>
  Uint8Array.from(atob(s.replace(/-----[^-]+-----/g, "").replace(/\s/g, "")), (c) => c.charCodeAt(0));

/** `%+v` of the zero fieldParameters Go prints in "tags don't match". */
const params =
  "{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}";

describe("requests that parse (as far as ported)", () => {
  it.each([
    ["RSA", RSA],
    ["ECDSA P-256", P256],
    ["Ed25519", ED25519],
  ])("an OpenSSL %s CSR", (_, csr) => {
    expect(errorOf(csr)).toBeUndefined();
  });

  it("text around the block, and blocks after it, are ignored (only the first block is read)", () => {
    expect(errorOf(`# made with openssl\n${RSA}${pem("PRIVATE KEY", der(1))}`)).toBeUndefined();
  });
});

describe("certificates.ParseCSR: the first PEM block must be a CERTIFICATE REQUEST", () => {
  it.each([
    ["no PEM at all", "hello"],
    ["the empty request", ""],
    ["the DER's base64 without PEM armour", RSA.replace(/-----[^-]+-----/g, "")],
    ["a certificate", pem("CERTIFICATE", derOf(RSA))],
    ["the old NEW CERTIFICATE REQUEST label", RSA.replaceAll("CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST")],
    ["a private key before the request", `${pem("PRIVATE KEY", der(0x30, 0))}${RSA}`],
    ["a body that is not base64", RSA.replace("MII", "!!!")],
    ["END with another type", RSA.replace("END CERTIFICATE REQUEST", "END CERTIFICATE")],
  ])("%s", (_, request) => {
    expect(errorOf(request)).toBe(CSR_PEM_TYPE_ERROR);
    expect(CSR_PEM_TYPE_ERROR).toBe("PEM block type must be CERTIFICATE REQUEST");
  });
});

describe("x509.ParseCertificateRequest: asn1.Unmarshal's outer element", () => {
  const request = (...bytes: number[]) => certificateRequestError(text(pem("CERTIFICATE REQUEST", der(...bytes))));

  it("an empty body: sequence truncated", () => {
    expect(request()).toBe("asn1: syntax error: sequence truncated");
    expect(errorOf("-----BEGIN CERTIFICATE REQUEST-----\n-----END CERTIFICATE REQUEST-----\n")).toBe(
      "asn1: syntax error: sequence truncated",
    );
  });

  it("text that is not DER: tags don't match, with Go's %+v of the tag and of the field parameters", () => {
    // "hello": 0x68 is an application-class constructed tag 8, 0x65 a length of 101.
    expect(errorOf(pem("CERTIFICATE REQUEST", text("hello")))).toBe(
      `asn1: structure error: tags don't match (16 vs {class:1 tag:8 length:101 isCompound:true}) ${params} certificateRequest @2`,
    );
  });

  it("an INTEGER, a primitive SEQUENCE and a SET are not the SEQUENCE expected", () => {
    expect(request(0x02, 0x01, 0x00)).toBe(
      `asn1: structure error: tags don't match (16 vs {class:0 tag:2 length:1 isCompound:false}) ${params} certificateRequest @2`,
    );
    expect(request(0x10, 0x00)).toBe(
      `asn1: structure error: tags don't match (16 vs {class:0 tag:16 length:0 isCompound:false}) ${params} certificateRequest @2`,
    );
    expect(request(0x31, 0x81, 0x80, ...new Array(0x80).fill(0))).toBe(
      `asn1: structure error: tags don't match (16 vs {class:0 tag:17 length:128 isCompound:true}) ${params} certificateRequest @3`,
    );
  });

  it("the tag is checked before the length", () => {
    expect(request(0x04, 0x7f)).toBe(
      `asn1: structure error: tags don't match (16 vs {class:0 tag:4 length:127 isCompound:false}) ${params} certificateRequest @2`,
    );
  });

  it("a request cut short (lines lost in a copy): data truncated", () => {
    const full = derOf(RSA);
    expect(certificateRequestError(text(pem("CERTIFICATE REQUEST", full.subarray(0, full.length - 48))))).toBe(
      "asn1: syntax error: data truncated",
    );
    expect(request(0x30, 0x01)).toBe("asn1: syntax error: data truncated");
  });

  it("broken lengths: parseTagAndLength's errors", () => {
    expect(request(0x30)).toBe("asn1: syntax error: truncated tag or length");
    expect(request(0x30, 0x82, 0x01)).toBe("asn1: syntax error: truncated tag or length");
    expect(request(0x30, 0x80)).toBe("asn1: syntax error: indefinite length found (not DER)");
    expect(request(0x30, 0x82, 0x00, 0x90)).toBe("asn1: structure error: superfluous leading zeros in length");
    expect(request(0x30, 0x81, 0x05)).toBe("asn1: structure error: non-minimal length");
    expect(request(0x30, 0x84, 0x80, 0x00, 0x00, 0x00)).toBe("asn1: structure error: length too large");
  });

  it("leaves what it does not port undefined", () => {
    // A high tag number.
    expect(request(0x1f, 0x81, 0x00, 0x00)).toBeUndefined();
    // A well-framed SEQUENCE whose contents are not a request: parsed inside by Go, not here.
    expect(request(0x30, 0x03, 0x02, 0x01, 0x00)).toBeUndefined();
    // Trailing data after a well-framed SEQUENCE: Go says so only after the inner parse succeeds.
    expect(certificateRequestError(text(pem("CERTIFICATE REQUEST", der(...derOf(P256), 0))))).toBeUndefined();
  });
});

describe("any bytes", () => {
  it("get an answer, never an exception: raw, and as the DER of a CERTIFICATE REQUEST block", () => {
    const answered = (v: unknown) => v === undefined || typeof v === "string";
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(answered(certificateRequestError(bytes))).toBe(true);
        expect(answered(certificateRequestError(text(pem("CERTIFICATE REQUEST", bytes))))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
