/**
 * x509KeyPairError against what Go's tls.X509KeyPair returns, case by case from the Go sources
 * each names: crypto/tls/tls.go (X509KeyPair and parsePrivateKey), crypto/tls/tls_test.go
 * (TestX509KeyPair, TestX509KeyPairErrors, TestX509MixedKeyPair), crypto/x509/parser.go
 * (parseCertificate, parseName, parsePublicKey), crypto/x509/pkcs1.go, pkcs8.go, sec1.go, and
 * crypto/rsa's Validate. Fixtures: self-signed certificates and keys made once with OpenSSL 3.0
 * (`openssl req -x509 -newkey …`, `openssl genpkey`, `openssl rsa -traditional`, `openssl ec`),
 * CN only and OpenSSL's default v3 extensions, in testdata/tls; broken variants are derived from them below.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodePEM } from "./pem.js";
import { ed25519PublicKey, sha512, x509KeyPairError } from "./tls.js";

/** A PEM file of testdata/tls (shared with the Secret warnings' tests). */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "testdata", "tls", name), "utf8");

const RSA_CERT = fixture("rsa-cert.pem");

const RSA_KEY_PKCS8 = fixture("rsa-key-pkcs8.pem");

const RSA_KEY_PKCS1 = fixture("rsa-key-pkcs1.pem");

const RSA_OTHER_KEY = fixture("rsa-other-key.pem");

const P256_CERT = fixture("p256-cert.pem");

const P256_KEY_PKCS8 = fixture("p256-key-pkcs8.pem");

const P256_KEY_SEC1 = fixture("p256-key-sec1.pem");

const P256_OTHER_KEY = fixture("p256-other-key.pem");

const P384_CERT = fixture("p384-cert.pem");

const P384_KEY = fixture("p384-key.pem");

const P521_CERT = fixture("p521-cert.pem");

const P521_KEY = fixture("p521-key.pem");

const P224_CERT = fixture("p224-cert.pem");

const P224_KEY = fixture("p224-key.pem");

const ED25519_CERT = fixture("ed25519-cert.pem");

const ED25519_KEY = fixture("ed25519-key.pem");

const ED25519_OTHER_KEY = fixture("ed25519-other-key.pem");

const X25519_KEY = fixture("x25519-key.pem");

const text = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => Number.parseInt(x, 16));
const pair = (cert: string, key: string) => x509KeyPairError(text(cert), text(key));

/** The DER of a PEM fixture's first block. */
function der(pem: string): Uint8Array {
  const block = decodePEM(text(pem)).block;
  if (!block) throw new Error("fixture without a PEM block");
  return block.bytes;
}

function pem(type: string, bytes: Uint8Array): string {
  const b64 = btoa(String.fromCharCode(...bytes));
  return `-----BEGIN ${type}-----\n${b64.replace(/.{1,64}/g, "$&\n")}-----END ${type}-----\n`;
}

/** A copy of the bytes with `at` replaced (negative counts from the end). */
function patch(bytes: Uint8Array, at: number, ...values: number[]): Uint8Array {
  const copy = bytes.slice();
  copy.set(values, at < 0 ? copy.length + at : at);
  return copy;
}

function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from = 0): number {
  for (let i = from; i + needle.length <= bytes.length; i++) {
    if (needle.every((x, j) => bytes[i + j] === x)) return i;
  }
  return -1;
}

describe("matching pairs load (tls_test.go TestX509KeyPair, TestX509MixedKeyPair)", () => {
  it.each([
    ["RSA, PKCS #8 key", RSA_CERT, RSA_KEY_PKCS8],
    ["RSA, PKCS #1 key", RSA_CERT, RSA_KEY_PKCS1],
    ["P-256, PKCS #8 key", P256_CERT, P256_KEY_PKCS8],
    ["P-256, SEC 1 key", P256_CERT, P256_KEY_SEC1],
    ["P-384", P384_CERT, P384_KEY],
    ["P-521", P521_CERT, P521_KEY],
    ["P-224", P224_CERT, P224_KEY],
    ["Ed25519", ED25519_CERT, ED25519_KEY],
  ])("%s", (_, cert, key) => {
    expect(pair(cert, key)).toBeUndefined();
  });

  it("only the first CERTIFICATE block is checked against the key (tls.go: cert.Certificate[0])", () => {
    expect(pair(RSA_CERT + P256_CERT, RSA_KEY_PKCS8)).toBeUndefined();
    expect(pair(P256_CERT + RSA_CERT, RSA_KEY_PKCS8)).toBe("tls: private key type does not match public key type");
  });

  it("text around the blocks and other block types among them are passed over (tls.go: skippedBlockTypes)", () => {
    const cert = `# server certificate\n${P256_CERT}\n-----BEGIN EXTRA-----\n-----END EXTRA-----\n`;
    const key = `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${P256_KEY_SEC1}trailer`;
    expect(pair(cert, key)).toBeUndefined();
  });
});

describe("the key does not belong to the certificate (tls.go X509KeyPair's final switch)", () => {
  it.each([
    ["another RSA key", RSA_CERT, RSA_OTHER_KEY],
    ["another P-256 key", P256_CERT, P256_OTHER_KEY],
    ["a key on another curve: Go compares X and Y only", P256_CERT, P384_KEY],
    ["another Ed25519 key", ED25519_CERT, ED25519_OTHER_KEY],
  ])("%s", (_, cert, key) => {
    expect(pair(cert, key)).toBe("tls: private key does not match public key");
  });

  it.each([
    ["RSA certificate, EC key", RSA_CERT, P256_KEY_PKCS8],
    ["EC certificate, RSA key", P256_CERT, RSA_KEY_PKCS1],
    ["EC certificate, Ed25519 key", P256_CERT, ED25519_KEY],
    ["Ed25519 certificate, EC key", ED25519_CERT, P256_KEY_SEC1],
  ])("%s", (_, cert, key) => {
    expect(pair(cert, key)).toBe("tls: private key type does not match public key type");
  });

  it("an X25519 key in PKCS #8 parses to a type tls does not take (tls.go parsePrivateKey)", () => {
    expect(pair(RSA_CERT, X25519_KEY)).toBe("tls: found unknown private key type in PKCS#8 wrapping");
  });
});

describe("PEM errors (tls.go X509KeyPair; tls_test.go TestX509KeyPairErrors)", () => {
  it("empty inputs", () => {
    expect(pair("", "")).toBe("tls: failed to find any PEM data in certificate input");
    expect(pair(RSA_CERT, "")).toBe("tls: failed to find any PEM data in key input");
  });

  it("placeholder text", () => {
    expect(pair("<certificate>", "<key>")).toBe("tls: failed to find any PEM data in certificate input");
    expect(pair(RSA_CERT, "REPLACE_ME")).toBe("tls: failed to find any PEM data in key input");
  });

  it("switched inputs", () => {
    expect(pair(RSA_KEY_PKCS8, RSA_CERT)).toBe(
      "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched",
    );
    expect(pair(P256_KEY_SEC1, P256_CERT)).toBe(
      "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched",
    );
  });

  it("the certificate given as the key", () => {
    expect(pair(RSA_CERT, RSA_CERT)).toBe("tls: found a certificate rather than a key in the PEM for the private key");
  });

  it("skipped block types are listed as Go's %v of a []string", () => {
    const blocks =
      "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n-----BEGIN X509 CRL-----\n-----END X509 CRL-----\n";
    expect(pair(blocks, "")).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [PUBLIC KEY X509 CRL]',
    );
    // One private key among others is not taken for switched inputs.
    expect(pair(blocks + RSA_KEY_PKCS8, "")).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [PUBLIC KEY X509 CRL PRIVATE KEY]',
    );
    expect(pair(RSA_CERT, RSA_CERT + blocks)).toBe(
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE PUBLIC KEY X509 CRL]',
    );
  });

  it('a key block type must be "PRIVATE KEY" or end in " PRIVATE KEY"', () => {
    const key = RSA_KEY_PKCS8.replaceAll("PRIVATE KEY", "XPRIVATE KEY");
    expect(pair(RSA_CERT, key)).toBe(
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [XPRIVATE KEY]',
    );
  });

  it("a block with invalid base64 is no block at all (pem.go Decode)", () => {
    const cert = RSA_CERT.replace("\nMII", "\n!II");
    expect(pair(cert, RSA_KEY_PKCS8)).toBe("tls: failed to find any PEM data in certificate input");
  });
});

describe("certificate errors, x509.ParseCertificate's (parser.go parseCertificate)", () => {
  const rsa = der(RSA_CERT);

  it("truncated DER", () => {
    expect(pair(pem("CERTIFICATE", rsa.subarray(0, 300)), RSA_KEY_PKCS8)).toBe("x509: malformed certificate");
    expect(pair(pem("CERTIFICATE", new Uint8Array(0)), RSA_KEY_PKCS8)).toBe("x509: malformed certificate");
    expect(pair(pem("CERTIFICATE", text("not DER")), RSA_KEY_PKCS8)).toBe("x509: malformed certificate");
  });

  it("bytes after the certificate: ParseCertificate's trailing data check", () => {
    const longer = new Uint8Array([...rsa, 0]);
    expect(pair(pem("CERTIFICATE", longer), RSA_KEY_PKCS8)).toBe("x509: trailing data");
  });

  it("a TBS that is no SEQUENCE", () => {
    expect(pair(pem("CERTIFICATE", patch(rsa, 4, 0x31)), RSA_KEY_PKCS8)).toBe("x509: malformed tbs certificate");
  });

  it("versions: v4 is invalid, larger ones malformed", () => {
    // a0 03 02 01 02 at offset 8: the explicitly tagged version.
    expect(hex(rsa.subarray(8, 13))).toBe("a003020102");
    expect(pair(pem("CERTIFICATE", patch(rsa, 12, 3)), RSA_KEY_PKCS8)).toBe("x509: invalid version");
    expect(pair(pem("CERTIFICATE", patch(rsa, 12, 5)), RSA_KEY_PKCS8)).toBe("x509: malformed version");
  });

  it("a negative serial number (refused since Go 1.23, x509negativeserial)", () => {
    // 02 14 <20 bytes> at offset 13.
    expect(rsa[13]).toBe(0x02);
    expect(pair(pem("CERTIFICATE", patch(rsa, 15, 0x80)), RSA_KEY_PKCS8)).toBe("x509: negative serial number");
  });

  it("the outer signature algorithm must repeat the inner one", () => {
    const ai = fromHex("300d06092a864886f70d01010b0500"); // sha256WithRSAEncryption; the outer one becomes sha384
    const outer = indexOfBytes(rsa, ai, indexOfBytes(rsa, ai) + 1);
    expect(outer).toBeGreaterThan(0);
    expect(pair(pem("CERTIFICATE", patch(rsa, outer + 12, 0x0c)), RSA_KEY_PKCS8)).toBe(
      "x509: inner and outer signature algorithm identifiers don't match",
    );
  });

  it("an issuer attribute value its string type refuses (parseName, readASN1Any)", () => {
    // 0c 03 "rsa" at offset 61: make it a PrintableString holding "_".
    expect(hex(rsa.subarray(61, 66))).toBe("0c03727361");
    expect(pair(pem("CERTIFICATE", patch(rsa, 61, 0x13, 3, 0x5f)), RSA_KEY_PKCS8)).toBe(
      "x509: invalid RDNSequence: invalid attribute value: invalid PrintableString",
    );
    expect(pair(pem("CERTIFICATE", patch(rsa, 61, 0x0c, 3, 0xff)), RSA_KEY_PKCS8)).toBe(
      "x509: invalid RDNSequence: invalid attribute value: invalid UTF-8 string",
    );
    expect(pair(pem("CERTIFICATE", patch(rsa, 61, 0x16, 3, 0x80)), RSA_KEY_PKCS8)).toBe(
      "x509: invalid RDNSequence: invalid attribute value: invalid IA5String",
    );
  });

  it("validity times cryptobyte does not read back unchanged", () => {
    // 17 0d "261128094413Z" at offset 68: the notBefore UTCTime.
    expect(rsa[68]).toBe(0x17);
    const notBefore = (s: string) => pem("CERTIFICATE", patch(rsa, 70, ...text(s)));
    expect(pair(notBefore("2611280944x3Z"), RSA_KEY_PKCS8)).toBe("x509: malformed UTCTime");
    expect(pair(notBefore("261131094413Z"), RSA_KEY_PKCS8)).toBe("x509: malformed UTCTime"); // 31 November
    expect(pair(notBefore("261128244413Z"), RSA_KEY_PKCS8)).toBe("x509: malformed UTCTime"); // hour 24
    expect(pair(notBefore("280229094413Z"), RSA_KEY_PKCS8)).toBeUndefined(); // 2028 is a leap year
    expect(pair(notBefore("270229094413Z"), RSA_KEY_PKCS8)).toBe("x509: malformed UTCTime");
    expect(pair(notBefore("261128094413z"), RSA_KEY_PKCS8)).toBe("x509: malformed UTCTime"); // only "Z" is UTC
    expect(pair(pem("CERTIFICATE", patch(rsa, 68, 0x04)), RSA_KEY_PKCS8)).toBe("x509: unsupported time format");
  });

  it("an EC point off its curve: the error changed in Go 1.25, so no warning rather than a wrong one", () => {
    const p256 = der(P256_CERT);
    // The 65-byte point ends the BIT STRING at 136 (03 42 00 04 X Y).
    expect(hex(p256.subarray(136, 140))).toBe("03420004");
    const y = 140 + 64;
    expect(pair(pem("CERTIFICATE", patch(p256, y, (p256[y] as number) ^ 1)), P256_KEY_PKCS8)).toBeUndefined();
  });

  it("certificate errors come before key errors (tls.go: ParseCertificate, then parsePrivateKey)", () => {
    expect(
      pair(pem("CERTIFICATE", rsa.subarray(0, 300)), "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n"),
    ).toBe("x509: malformed certificate");
  });
});

describe("private key errors: every parse failure is tls's own (tls.go parsePrivateKey)", () => {
  const failed = "tls: failed to parse private key";

  it("an empty or garbage key block", () => {
    expect(pair(RSA_CERT, "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n")).toBe(failed);
    expect(pair(RSA_CERT, pem("RSA PRIVATE KEY", text("garbage")))).toBe(failed);
  });

  it("a truncated key", () => {
    const key = der(RSA_KEY_PKCS1);
    expect(pair(RSA_CERT, pem("RSA PRIVATE KEY", key.subarray(0, key.length - 10)))).toBe(failed);
  });

  it("a PKCS #1 key with bytes after it (pkcs1.go: trailing data)", () => {
    expect(pair(RSA_CERT, pem("RSA PRIVATE KEY", new Uint8Array([...der(RSA_KEY_PKCS1), 5, 0])))).toBe(failed);
  });

  it("a PKCS #1 key whose modulus is not p·q: every release's Validate refuses it, before any match", () => {
    // 30 82 02 5c 02 01 00 02 81 81 00 N: change a byte in the middle of N.
    const key = der(RSA_KEY_PKCS1);
    expect(hex(key.subarray(4, 11))).toBe("02010002818100");
    expect(pair(RSA_CERT, pem("RSA PRIVATE KEY", patch(key, 60, (key[60] as number) ^ 0x10)))).toBe(failed);
  });

  it("a PKCS #1 version above 1 (pkcs1.go)", () => {
    expect(pair(RSA_CERT, pem("RSA PRIVATE KEY", patch(der(RSA_KEY_PKCS1), 6, 2)))).toBe(failed);
  });

  it("a SEC 1 key of another version (sec1.go: ecPrivKeyVersion)", () => {
    const key = der(P256_KEY_SEC1);
    expect(hex(key.subarray(2, 5))).toBe("020101");
    expect(pair(P256_CERT, pem("EC PRIVATE KEY", patch(key, 4, 2)))).toBe(failed);
  });

  it("a SEC 1 scalar not below the curve order (sec1.go)", () => {
    const key = der(P256_KEY_SEC1);
    // 04 20 <32 bytes> at offset 5: make the scalar all ones.
    expect(hex(key.subarray(5, 7))).toBe("0420");
    expect(pair(P256_CERT, pem("EC PRIVATE KEY", patch(key, 7, ...new Array(32).fill(0xff))))).toBe(failed);
  });

  it("a SEC 1 scalar of another value: parsed, then no match", () => {
    const key = der(P256_KEY_SEC1);
    expect(pair(P256_CERT, pem("EC PRIVATE KEY", patch(key, 7, 1)))).toBe("tls: private key does not match public key");
  });
});

describe("the hash and curve arithmetic behind the Ed25519 match", () => {
  it("SHA-512 (FIPS 180-4 examples)", () => {
    expect(hex(sha512(text("abc")))).toBe(
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    );
    expect(hex(sha512(text("")))).toBe(
      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
    );
    // Two blocks: 112 bytes of input need a second one for the length.
    expect(sha512(new Uint8Array(112)).length).toBe(64);
  });

  it("RFC 8032 section 7.1, test 1: the public key of a seed", () => {
    expect(hex(ed25519PublicKey(fromHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")))).toBe(
      "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    );
  });
});
