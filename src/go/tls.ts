/**
 * What Go's `tls.X509KeyPair(certPEM, keyPEM)` (crypto/tls/tls.go) decides,
 * for the warning the API server gives on a `kubernetes.io/tls` Secret
 * (pkg/registry/core/secret/strategy.go, warningsForSecret, 1.27+): Go's
 * error text, or undefined when the pair loads. Read against Go 1.22–1.25
 * (and master) sources; where they differ, see "unsure" below.
 *
 * Ported, in Go's order:
 * - the PEM scan of both inputs (./pem.ts) and its six errors: no PEM data,
 *   switched inputs, skipped block types printed as Go's `%v` of a []string;
 * - x509.ParseCertificate of the first CERTIFICATE block, with
 *   cryptobyte's strict DER: outer and TBS SEQUENCEs, version, serial (a
 *   negative one refused, as from Go 1.23), the inner and outer signature
 *   algorithms, issuer and subject names (every attribute value checked as
 *   parser.go's readASN1Any does), validity times (UTCTime and
 *   GeneralizedTime exactly as cryptobyte's parse-and-reformat accepts them),
 *   the SubjectPublicKeyInfo and its key (RSA, ECDSA on P-224/256/384/521 with
 *   the point on the curve, Ed25519, X25519, DSA), the unique IDs, the
 *   extensions' framing (each OID, critical flag, value, no duplicate OID),
 *   the signature BIT STRING and trailing data;
 * - parsePrivateKey: PKCS #1, then PKCS #8 (RSA, EC, Ed25519; an X25519 key
 *   gives "found unknown private key type"), then SEC 1, each with
 *   encoding/asn1's rules (extra elements at the end of a SEQUENCE allowed);
 * - the match: RSA moduli; ECDSA points, the private one computed from the
 *   scalar (Jacobian double-and-add); Ed25519 public keys, computed from the
 *   seed (SHA-512 and Edwards arithmetic); anything else "unknown public key
 *   algorithm".
 *
 * Knowingly not ported: the contents of the extensions (processExtensions:
 * SANs, key usage, basic and name constraints, policies, ...). A certificate
 * whose extension body Go refuses gets Go's x509 error there; here it goes on
 * to the key checks, so it gets no warning or a later one.
 *
 * Unsure, hence undefined (no warning rather than a wrong one): what differs
 * between the Go releases Kubernetes builds with, or what would need more
 * than is ported. An ECDSA point not on its curve (1.25 changed the error),
 * ML-DSA and ML-KEM keys, OID components of 5+ bytes or non-minimal ones,
 * a PrintableString with "&" and BMPString non-characters, zone offsets above
 * 24 hours, high-tag-number elements in private keys, odd explicit tags in
 * SEC 1 keys, multi-prime RSA keys, an EC scalar of zero, and RSA keys whose
 * CRT values, exponents or factors fail the checks rsa.PrivateKey.Validate
 * makes (these changed in 1.24) unless p·q ≢ 0 mod n or e is out of range,
 * which every release refuses. Go parses RSA keys of any size (the 1024-bit
 * floor of 1.24 applies to operations, not parsing), as this does.
 *
 * Imports only the PEM port; no platform crypto (it is asynchronous).
 */
import { decodePEM } from "./pem.js";

/** Thrown where Go's outcome is not decided by what is ported; X509KeyPair's port then gives undefined. */
class Unsure {}
const unsure = (): never => {
  throw new Unsure();
};

/** A Go error surfaced as is. */
class Fail {
  constructor(readonly message: string) {}
}
const fail = (message: string): never => {
  throw new Fail(message);
};

// ---------------------------------------------------------------- bytes

const hexOf = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const unsigned = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${hexOf(b)}`));
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => Number.parseInt(x, 16));

/** Two's complement big-endian, as Go's big.Int reads an ASN.1 INTEGER. */
function signed(b: Uint8Array): bigint {
  const v = unsigned(b);
  return b.length > 0 && (b[0] as number) & 0x80 ? v - (1n << BigInt(8 * b.length)) : v;
}

/** cryptobyte's checkASN1Integer: at least one byte, minimally encoded. */
function minimalInteger(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  if (b.length === 1) return true;
  const [x, y] = b as unknown as [number, number];
  return !((x === 0 && (y & 0x80) === 0) || (x === 0xff && (y & 0x80) === 0x80));
}

// ---------------------------------------------------------------- cryptobyte (strict DER)

const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const OCTET_STRING = 0x04;
const NULL = 0x05;
const OID = 0x06;
const BOOLEAN = 0x01;
const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;

/** A cryptobyte.String: a view that reads move forward. Every read reports failure as undefined. */
class Der {
  constructor(public s: Uint8Array) {}
  get empty(): boolean {
    return this.s.length === 0;
  }
  peek(tag: number): boolean {
    return this.s.length > 0 && this.s[0] === tag;
  }
  /** readASN1: low-tag-number form, definite minimal lengths up to four length bytes. */
  private element(): { tag: number; header: number; total: number } | undefined {
    const s = this.s;
    if (s.length < 2) return undefined;
    const tag = s[0] as number;
    const lenByte = s[1] as number;
    if ((tag & 0x1f) === 0x1f) return undefined;
    if ((lenByte & 0x80) === 0) {
      const total = lenByte + 2;
      return total <= s.length ? { tag, header: 2, total } : undefined;
    }
    const lenLen = lenByte & 0x7f;
    if (lenLen === 0 || lenLen > 4 || s.length < 2 + lenLen) return undefined;
    let len = 0;
    for (let i = 0; i < lenLen; i++) len = len * 256 + (s[2 + i] as number);
    if (len < 128) return undefined;
    if (s[2] === 0) return undefined;
    const total = 2 + lenLen + len;
    return total <= s.length ? { tag, header: 2 + lenLen, total } : undefined;
  }
  /** ReadAnyASN1Element: the whole element and its tag. */
  readAnyElement(): { tag: number; full: Uint8Array; body: Uint8Array } | undefined {
    const e = this.element();
    if (!e) return undefined;
    const full = this.s.subarray(0, e.total);
    this.s = this.s.subarray(e.total);
    return { tag: e.tag, full, body: full.subarray(e.header) };
  }
  /** ReadASN1: the contents of an element with this tag. */
  read(tag: number): Uint8Array | undefined {
    const e = this.element();
    if (!e || e.tag !== tag) return undefined;
    const body = this.s.subarray(e.header, e.total);
    this.s = this.s.subarray(e.total);
    return body;
  }
  /** ReadASN1Element: the whole element with this tag. */
  readElement(tag: number): Uint8Array | undefined {
    const e = this.element();
    if (!e || e.tag !== tag) return undefined;
    const full = this.s.subarray(0, e.total);
    this.s = this.s.subarray(e.total);
    return full;
  }
  readBigInt(): bigint | undefined {
    const b = this.read(INTEGER);
    return b && minimalInteger(b) ? signed(b) : undefined;
  }
  /** ReadASN1Integer into a Go int (int64). */
  readInt64(): bigint | undefined {
    const b = this.read(INTEGER);
    return b && minimalInteger(b) && b.length <= 8 ? signed(b) : undefined;
  }
  readOID(): Uint8Array | undefined {
    const b = this.read(OID);
    return b && validOID(b) ? b : undefined;
  }
  /** ReadASN1BitString: the bytes and bit length. */
  readBitString(): { bytes: Uint8Array; bitLength: number } | undefined {
    const b = this.read(BIT_STRING);
    if (!b || b.length === 0) return undefined;
    const padding = b[0] as number;
    const bytes = b.subarray(1);
    if (padding > 7) return undefined;
    if (bytes.length === 0 && padding !== 0) return undefined;
    if (bytes.length > 0 && ((bytes[bytes.length - 1] as number) & ((1 << padding) - 1)) !== 0) return undefined;
    return { bytes, bitLength: bytes.length * 8 - padding };
  }
  readBoolean(): boolean | undefined {
    const b = this.read(BOOLEAN) ?? new Uint8Array(0);
    if (b.length !== 1) return undefined;
    return b[0] === 0xff ? true : b[0] === 0 ? false : undefined;
  }
  skipOptional(tag: number): boolean {
    return !this.peek(tag) || this.read(tag) !== undefined;
  }
}

/**
 * cryptobyte's OID check: a non-empty run of base-128 components. Releases
 * differ on components of five or more bytes and on a leading 0x80 (newer
 * ones refuse it as non-minimal): both are unsure.
 */
function validOID(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    const x = b[i] as number;
    if (n === 0 && x === 0x80) unsure();
    n++;
    if (n > 4) unsure();
    if ((x & 0x80) === 0) n = 0;
  }
  return n === 0;
}

/** asn1.BitString.RightAlign. */
function rightAlign(bs: { bytes: Uint8Array; bitLength: number }): Uint8Array {
  const shift = 8 - (bs.bitLength % 8);
  if (shift === 8 || bs.bytes.length === 0) return bs.bytes;
  const a = new Uint8Array(bs.bytes.length);
  a[0] = (bs.bytes[0] as number) >> shift;
  for (let i = 1; i < bs.bytes.length; i++) {
    a[i] = (((bs.bytes[i - 1] as number) << (8 - shift)) & 0xff) | ((bs.bytes[i] as number) >> shift);
  }
  return a;
}

// ---------------------------------------------------------------- OIDs (DER contents)

const OID_RSA = fromHex("2a864886f70d010101");
const OID_DSA = fromHex("2a8648ce380401");
const OID_EC = fromHex("2a8648ce3d0201");
const OID_ED25519 = fromHex("2b6570");
const OID_X25519 = fromHex("2b656e");
/** 2.16.840.1.101.3.4.3 and .4: where ML-DSA and ML-KEM live, known to some releases only. */
const NIST_SIG = fromHex("6086480165030403");
const NIST_KEM = fromHex("6086480165030404");
const startsWithBytes = (b: Uint8Array, p: Uint8Array) => b.length > p.length && equalBytes(b.subarray(0, p.length), p);
const isPostQuantum = (oid: Uint8Array) => startsWithBytes(oid, NIST_SIG) || startsWithBytes(oid, NIST_KEM);

// ---------------------------------------------------------------- curves

interface Curve {
  name: string;
  oid: Uint8Array;
  p: bigint;
  b: bigint;
  n: bigint;
  gx: bigint;
  gy: bigint;
  /** Bytes of a coordinate. */
  size: number;
}

const curve = (name: string, oid: string, p: bigint, b: string, n: string, gx: string, gy: string, size: number) => ({
  name,
  oid: fromHex(oid),
  p,
  b: BigInt(`0x${b}`),
  n: BigInt(`0x${n}`),
  gx: BigInt(`0x${gx}`),
  gy: BigInt(`0x${gy}`),
  size,
});

/** The NIST curves of crypto/elliptic (y² = x³ − 3x + b), by the OIDs of x509's namedCurveFromOID. */
const CURVES: Curve[] = [
  curve(
    "P-224",
    "2b81040021",
    (1n << 224n) - (1n << 96n) + 1n,
    "b4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4",
    "ffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
    "b70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21",
    "bd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34",
    28,
  ),
  curve(
    "P-256",
    "2a8648ce3d030107",
    (1n << 256n) - (1n << 224n) + (1n << 192n) + (1n << 96n) - 1n,
    "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
    "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
    32,
  ),
  curve(
    "P-384",
    "2b81040022",
    (1n << 384n) - (1n << 128n) - (1n << 96n) + (1n << 32n) - 1n,
    "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
    "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
    "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
    48,
  ),
  curve(
    "P-521",
    "2b81040023",
    (1n << 521n) - 1n,
    "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
    `01${"ff".repeat(32)}fa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409`,
    "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
    "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650",
    66,
  ),
];

const curveByOID = (oid: Uint8Array) => CURVES.find((c) => equalBytes(c.oid, oid));

const mod = (a: bigint, m: bigint) => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

function modPow(base: bigint, exp: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

const onCurve = (c: Curve, x: bigint, y: bigint) => mod(y * y - (x * x * x - 3n * x + c.b), c.p) === 0n;

type Jacobian = [bigint, bigint, bigint];

function double(c: Curve, [x, y, z]: Jacobian): Jacobian {
  const p = c.p;
  if (y === 0n || z === 0n) return [0n, 1n, 0n];
  const delta = (z * z) % p;
  const gamma = (y * y) % p;
  const beta = (x * gamma) % p;
  const alpha = mod(3n * (x - delta) * (x + delta), p);
  const x3 = mod(alpha * alpha - 8n * beta, p);
  const z3 = mod((y + z) * (y + z) - gamma - delta, p);
  const y3 = mod(alpha * (4n * beta - x3) - 8n * gamma * gamma, p);
  return [x3, y3, z3];
}

function add(c: Curve, a: Jacobian, b: Jacobian): Jacobian {
  const p = c.p;
  if (a[2] === 0n) return b;
  if (b[2] === 0n) return a;
  const z1z1 = (a[2] * a[2]) % p;
  const z2z2 = (b[2] * b[2]) % p;
  const u1 = (a[0] * z2z2) % p;
  const u2 = (b[0] * z1z1) % p;
  const s1 = (a[1] * b[2] * z2z2) % p;
  const s2 = (b[1] * a[2] * z1z1) % p;
  if (u1 === u2) return s1 === s2 ? double(c, a) : [0n, 1n, 0n];
  const h = mod(u2 - u1, p);
  const r = mod(s2 - s1, p);
  const hh = (h * h) % p;
  const hhh = (h * hh) % p;
  const x3 = mod(r * r - hhh - 2n * u1 * hh, p);
  const y3 = mod(r * (u1 * hh - x3) - s1 * hhh, p);
  const z3 = (h * a[2] * b[2]) % p;
  return [x3, y3, z3];
}

/** k·G in affine coordinates; undefined for the point at infinity. */
function scalarBaseMult(c: Curve, k: bigint): [bigint, bigint] | undefined {
  let q: Jacobian = [0n, 1n, 0n];
  const g: Jacobian = [c.gx, c.gy, 1n];
  for (let i = BigInt(k.toString(2).length - 1); i >= 0n; i--) {
    q = double(c, q);
    if ((k >> i) & 1n) q = add(c, q, g);
  }
  if (q[2] === 0n) return undefined;
  const zi = modPow(q[2], c.p - 2n, c.p);
  const zi2 = (zi * zi) % c.p;
  return [(q[0] * zi2) % c.p, (q[1] * zi2 * zi) % c.p];
}

// ---------------------------------------------------------------- SHA-512 and Ed25519

const MASK64 = (1n << 64n) - 1n;

function integerRoot(n: bigint, k: bigint): bigint {
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / Number(k)) + 1);
  for (;;) {
    const y = ((k - 1n) * x + n / x ** (k - 1n)) / k;
    if (y >= x) break;
    x = y;
  }
  while (x ** k > n) x--;
  while ((x + 1n) ** k <= n) x++;
  return x;
}

let sha512Constants: { k: bigint[]; h: bigint[] } | undefined;

/** FIPS 180-4's constants: the first 64 fraction bits of the square roots (H) and cube roots (K) of the first primes. */
function constants(): { k: bigint[]; h: bigint[] } {
  if (sha512Constants) return sha512Constants;
  const primes: bigint[] = [];
  for (let n = 2n; primes.length < 80; n++) if (primes.every((q) => n % q !== 0n)) primes.push(n);
  sha512Constants = {
    h: primes.slice(0, 8).map((q) => integerRoot(q << 128n, 2n) & MASK64),
    k: primes.map((q) => integerRoot(q << 192n, 3n) & MASK64),
  };
  return sha512Constants;
}

const rotr = (x: bigint, n: bigint) => ((x >> n) | (x << (64n - n))) & MASK64;

export function sha512(message: Uint8Array): Uint8Array {
  const { k, h: init } = constants();
  const h = [...init];
  const padded = new Uint8Array(Math.ceil((message.length + 17) / 128) * 128);
  padded.set(message);
  padded[message.length] = 0x80;
  const bits = BigInt(message.length) * 8n;
  for (let i = 0; i < 16; i++) padded[padded.length - 1 - i] = Number((bits >> BigInt(8 * i)) & 0xffn);
  const w: bigint[] = new Array(80).fill(0n);
  for (let off = 0; off < padded.length; off += 128) {
    for (let t = 0; t < 16; t++) w[t] = unsigned(padded.subarray(off + 8 * t, off + 8 * t + 8));
    for (let t = 16; t < 80; t++) {
      const w15 = w[t - 15] as bigint;
      const w2 = w[t - 2] as bigint;
      const s0 = rotr(w15, 1n) ^ rotr(w15, 8n) ^ (w15 >> 7n);
      const s1 = rotr(w2, 19n) ^ rotr(w2, 61n) ^ (w2 >> 6n);
      w[t] = ((w[t - 16] as bigint) + s0 + (w[t - 7] as bigint) + s1) & MASK64;
    }
    let [a, b, c, d, e, f, g, hh] = h as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];
    for (let t = 0; t < 80; t++) {
      const t1 =
        (hh +
          (rotr(e, 14n) ^ rotr(e, 18n) ^ rotr(e, 41n)) +
          ((e & f) ^ (~e & MASK64 & g)) +
          (k[t] as bigint) +
          (w[t] as bigint)) &
        MASK64;
      const t2 = ((rotr(a, 28n) ^ rotr(a, 34n) ^ rotr(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & MASK64;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) & MASK64;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) & MASK64;
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => {
      h[i] = ((h[i] as bigint) + v) & MASK64;
    });
  }
  return fromHex(h.map((v) => v.toString(16).padStart(16, "0")).join(""));
}

const ED_P = (1n << 255n) - 19n;
const edInv = (x: bigint) => modPow(x, ED_P - 2n, ED_P);
const ED_D = mod(-121665n * edInv(121666n), ED_P);

/** The Ed25519 public key of a 32-byte seed (RFC 8032, 5.1.5), as ed25519.NewKeyFromSeed gives it. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  const h = sha512(seed);
  const a = h.slice(0, 32);
  a[0] = (a[0] as number) & 248;
  a[31] = ((a[31] as number) & 127) | 64;
  const scalar = unsigned(a.reverse());
  // Base point: y = 4/5, x even.
  const by = mod(4n * edInv(5n), ED_P);
  const u = mod(by * by - 1n, ED_P);
  const v = mod(ED_D * by * by + 1n, ED_P);
  const uv = mod(u * edInv(v), ED_P);
  let bx = modPow(uv, (ED_P + 3n) / 8n, ED_P);
  if (mod(bx * bx - uv, ED_P) !== 0n) bx = mod(bx * modPow(2n, (ED_P - 1n) / 4n, ED_P), ED_P);
  if (bx % 2n) bx = ED_P - bx;
  type Ext = [bigint, bigint, bigint, bigint];
  const d2 = mod(2n * ED_D, ED_P);
  const edAdd = (p: Ext, q: Ext): Ext => {
    const A = mod((p[1] - p[0]) * (q[1] - q[0]), ED_P);
    const B = mod((p[1] + p[0]) * (q[1] + q[0]), ED_P);
    const C = mod(p[3] * d2 * q[3], ED_P);
    const D = mod(p[2] * 2n * q[2], ED_P);
    const E = B - A;
    const F = D - C;
    const G = D + C;
    const H = B + A;
    return [mod(E * F, ED_P), mod(G * H, ED_P), mod(F * G, ED_P), mod(E * H, ED_P)];
  };
  let q: Ext = [0n, 1n, 1n, 0n];
  const base: Ext = [bx, by, 1n, mod(bx * by, ED_P)];
  for (let i = 255n; i >= 0n; i--) {
    q = edAdd(q, q);
    if ((scalar >> i) & 1n) q = edAdd(q, base);
  }
  const zi = edInv(q[2]);
  const x = mod(q[0] * zi, ED_P);
  const y = mod(q[1] * zi, ED_P);
  const out = fromHex(y.toString(16).padStart(64, "0")).reverse();
  out[31] = (out[31] as number) | (Number(x & 1n) << 7);
  return out;
}

// ---------------------------------------------------------------- x509.ParseCertificate

type PublicKey =
  | { kind: "rsa"; n: bigint }
  | { kind: "ecdsa"; x: bigint; y: bigint }
  | { kind: "ed25519"; key: Uint8Array }
  | { kind: "other" };

const utf8Strict = new TextDecoder("utf-8", { fatal: true });

function isPrintable(b: number): boolean {
  if (b === 0x26) unsure(); // "&": accepted by recent releases only
  return (
    (b >= 0x61 && b <= 0x7a) ||
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x30 && b <= 0x39) ||
    (b >= 0x27 && b <= 0x29) ||
    (b >= 0x2b && b <= 0x2f) ||
    b === 0x20 ||
    b === 0x3a ||
    b === 0x3d ||
    b === 0x3f ||
    b === 0x2a
  );
}

/** parser.go's readASN1Any: the error text, or undefined when the value reads. */
function attributeValueError(der: Der): string | undefined {
  const el = der.readAnyElement();
  if (!el) return "invalid ASN.1 element";
  const v = el.body;
  switch (el.tag) {
    case 0x14: // T61String
      return undefined;
    case 0x13:
      return v.every(isPrintable) ? undefined : "invalid PrintableString";
    case 0x0c:
      try {
        utf8Strict.decode(v);
        return undefined;
      } catch {
        return "invalid UTF-8 string";
      }
    case 0x1e: {
      if (v.length % 2 !== 0) return "invalid BMPString";
      let end = v.length;
      if (end >= 2 && v[end - 1] === 0 && v[end - 2] === 0) end -= 2;
      for (let i = 0; i < end; i += 2) {
        const point = ((v[i] as number) << 8) | (v[i + 1] as number);
        if (point === 0xfffe || point === 0xffff || (point >= 0xfdd0 && point <= 0xfdef)) unsure();
        if (point >= 0xd800 && point <= 0xdfff) unsure();
      }
      return undefined;
    }
    case 0x16:
      return v.every((b) => b < 0x80) ? undefined : "invalid IA5String";
    case 0x12:
      return v.every((b) => (b >= 0x30 && b <= 0x39) || b === 0x20) ? undefined : "invalid NumericString";
    case INTEGER:
      return minimalInteger(v) && v.length <= 8 ? undefined : "invalid ASN.1 integer";
    case BIT_STRING:
      return new Der(el.full).readBitString() ? undefined : "invalid ASN.1 BIT STRING";
    case OID:
      return new Der(el.full).readOID() ? undefined : "invalid ASN.1 OBJECT IDENTIFIER";
    case UTC_TIME:
    case GENERALIZED_TIME:
      return timeError(new Der(el.full));
    case BOOLEAN:
      return new Der(el.full).readBoolean() === undefined ? "invalid ASN.1 BOOLEAN" : undefined;
    default:
      return undefined;
  }
}

/** parser.go's parseName. */
function nameError(seq: Uint8Array): string | undefined {
  const raw = new Der(seq);
  const body = raw.read(SEQUENCE);
  if (!body) return "x509: invalid RDNSequence";
  const rdns = new Der(body);
  while (!rdns.empty) {
    const set = rdns.read(SET);
    if (!set) return "x509: invalid RDNSequence";
    const atavs = new Der(set);
    while (!atavs.empty) {
      const atav = atavs.read(SEQUENCE);
      if (!atav) return "x509: invalid RDNSequence: invalid attribute";
      const d = new Der(atav);
      if (!d.readOID()) return "x509: invalid RDNSequence: invalid attribute type";
      const err = attributeValueError(d);
      if (err) return `x509: invalid RDNSequence: invalid attribute value: ${err}`;
    }
  }
  return undefined;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/**
 * Whether time.Parse with the layout accepts the text and Format gives it
 * back (cryptobyte's test): digits in range, a real day, "Z" or a non-zero
 * ±hhmm offset.
 */
function timeRoundTrips(t: string, yearDigits: 2 | 4, seconds: boolean): boolean {
  const m = new RegExp(
    `^(\\d{${yearDigits}})(\\d\\d)(\\d\\d)(\\d\\d)(\\d\\d)${seconds ? "(\\d\\d)" : "()"}(Z|[+-]\\d{4})$`,
  ).exec(t);
  if (!m) return false;
  const [, ys, mo, d, h, mi, s, zone] = m as unknown as string[];
  let year = Number(ys);
  if (yearDigits === 2) year += year >= 69 ? 1900 : 2000;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return false;
  const dim = month === 2 && isLeap(year) ? 29 : (DAYS[month - 1] as number);
  if (day < 1 || day > dim) return false;
  if (Number(h) > 23 || Number(mi) > 59 || (seconds && Number(s) > 59)) return false;
  if (zone !== "Z") {
    const zh = Number(zone?.slice(1, 3));
    const zm = Number(zone?.slice(3, 5));
    if (zm > 59 || (zh === 0 && zm === 0)) return false;
    if (zh > 24) unsure();
  }
  return true;
}

/** parser.go's readASN1Time: the error, or undefined when the time reads. */
function timeError(der: Der): string | undefined {
  if (der.peek(UTC_TIME)) {
    const b = der.read(UTC_TIME);
    const t = b && String.fromCharCode(...b);
    return t !== undefined && (timeRoundTrips(t, 2, true) || timeRoundTrips(t, 2, false))
      ? undefined
      : "x509: malformed UTCTime";
  }
  if (der.peek(GENERALIZED_TIME)) {
    const b = der.read(GENERALIZED_TIME);
    const t = b && String.fromCharCode(...b);
    return t !== undefined && timeRoundTrips(t, 4, true) ? undefined : "x509: malformed GeneralizedTime";
  }
  return "x509: unsupported time format";
}

/** parser.go's parseAI. */
function parseAI(seq: Uint8Array): { oid: Uint8Array; params: Uint8Array } {
  const d = new Der(seq);
  const oid = d.readOID() ?? fail("x509: malformed OID");
  if (d.empty) return { oid, params: new Uint8Array(0) };
  const el = d.readAnyElement() ?? fail("x509: malformed parameters");
  return { oid, params: el.full };
}

/** parser.go's parsePublicKey, for the algorithms getPublicKeyAlgorithmFromOID knows. */
function parsePublicKey(oid: Uint8Array, params: Uint8Array, key: { bytes: Uint8Array; bitLength: number }): PublicKey {
  const data = rightAlign(key);
  if (equalBytes(oid, OID_RSA)) {
    if (!equalBytes(params, Uint8Array.of(NULL, 0))) fail("x509: RSA key missing NULL parameters");
    const outer = new Der(data);
    const body = outer.read(SEQUENCE) ?? fail("x509: invalid RSA public key");
    const d = new Der(body);
    const n = d.readBigInt() ?? fail("x509: invalid RSA modulus");
    const e = d.readInt64() ?? fail("x509: invalid RSA public exponent");
    if (n <= 0n) fail("x509: RSA modulus is not a positive number");
    if (e <= 0n) fail("x509: RSA public exponent is not a positive number");
    return { kind: "rsa", n };
  }
  if (equalBytes(oid, OID_EC)) {
    const named = new Der(params).readOID() ?? fail("x509: invalid ECDSA parameters");
    const c = curveByOID(named) ?? fail("x509: unsupported elliptic curve");
    // elliptic.Unmarshal (to 1.24) and ecdsa.ParseUncompressedPublicKey (1.25) refuse the same points with different errors.
    if (data.length !== 1 + 2 * c.size || data[0] !== 4) return unsure();
    const x = unsigned(data.subarray(1, 1 + c.size));
    const y = unsigned(data.subarray(1 + c.size));
    if (x >= c.p || y >= c.p || !onCurve(c, x, y)) return unsure();
    return { kind: "ecdsa", x, y };
  }
  if (equalBytes(oid, OID_ED25519)) {
    if (params.length !== 0) fail("x509: Ed25519 key encoded with illegal parameters");
    if (data.length !== 32) fail("x509: wrong Ed25519 public key size");
    return { kind: "ed25519", key: data };
  }
  if (equalBytes(oid, OID_X25519)) {
    if (params.length !== 0) fail("x509: X25519 key encoded with illegal parameters");
    if (data.length !== 32) fail("crypto/ecdh: invalid public key");
    return { kind: "other" };
  }
  if (equalBytes(oid, OID_DSA)) {
    const y = new Der(data).readBigInt() ?? fail("x509: invalid DSA public key");
    const p = new Der(params);
    const body = p.read(SEQUENCE);
    const d = body && new Der(body);
    const P = d?.readBigInt();
    const Q = P === undefined ? undefined : d?.readBigInt();
    const G = Q === undefined ? undefined : d?.readBigInt();
    if (G === undefined || P === undefined || Q === undefined) return fail("x509: invalid DSA parameters");
    if (y <= 0n || P <= 0n || Q <= 0n || G <= 0n) fail("x509: zero or negative DSA parameter");
    return { kind: "other" };
  }
  if (isPostQuantum(oid)) unsure();
  // An algorithm x509 does not know: the certificate parses without a key.
  return { kind: "other" };
}

/** x509.ParseCertificate, to the extent described above: the subject's public key, or a Fail. */
function parseCertificate(der: Uint8Array): PublicKey {
  const input = new Der(der);
  const raw = input.readElement(SEQUENCE) ?? fail("x509: malformed certificate");
  const cert = new Der(new Der(raw).read(SEQUENCE) ?? fail("x509: malformed certificate"));
  const tbsRaw = cert.readElement(SEQUENCE) ?? fail("x509: malformed tbs certificate");
  const tbs = new Der(new Der(tbsRaw).read(SEQUENCE) ?? fail("x509: malformed tbs certificate"));

  let version = 0n;
  if (tbs.peek(0xa0)) {
    const wrapped = new Der(tbs.read(0xa0) ?? fail("x509: malformed version"));
    version = wrapped.readInt64() ?? fail("x509: malformed version");
    if (!wrapped.empty) fail("x509: malformed version");
  }
  if (version < 0n || version > 3n) fail("x509: malformed version");
  version++;
  if (version > 3n) fail("x509: invalid version");

  const serial = tbs.readBigInt() ?? fail("x509: malformed serial number");
  if (serial < 0n) fail("x509: negative serial number");

  const sigAI = new Der(tbs.readElement(SEQUENCE) ?? fail("x509: malformed signature algorithm identifier")).read(
    SEQUENCE,
  );
  if (!sigAI) fail("x509: malformed signature algorithm identifier");
  const outerSigAI = cert.read(SEQUENCE) ?? fail("x509: malformed algorithm identifier");
  if (!equalBytes(outerSigAI, sigAI as Uint8Array))
    fail("x509: inner and outer signature algorithm identifiers don't match");
  parseAI(sigAI as Uint8Array);

  const issuer = tbs.readElement(SEQUENCE) ?? fail("x509: malformed issuer");
  const issuerErr = nameError(issuer);
  if (issuerErr) fail(issuerErr);

  const validity = new Der(tbs.read(SEQUENCE) ?? fail("x509: malformed validity"));
  const notBefore = timeError(validity);
  if (notBefore) fail(notBefore);
  const notAfter = timeError(validity);
  if (notAfter) fail(notAfter);

  const subject = tbs.readElement(SEQUENCE) ?? fail("x509: malformed issuer");
  const subjectErr = nameError(subject);
  if (subjectErr) fail(subjectErr);

  const spkiRaw = tbs.readElement(SEQUENCE) ?? fail("x509: malformed spki");
  const spki = new Der(new Der(spkiRaw).read(SEQUENCE) ?? fail("x509: malformed spki"));
  const pkAI = parseAI(spki.read(SEQUENCE) ?? fail("x509: malformed public key algorithm identifier"));
  const spk = spki.readBitString() ?? fail("x509: malformed subjectPublicKey");
  const publicKey = parsePublicKey(pkAI.oid, pkAI.params, spk);

  if (version > 1n) {
    if (!tbs.skipOptional(0x81)) fail("x509: malformed issuerUniqueID");
    if (!tbs.skipOptional(0x82)) fail("x509: malformed subjectUniqueID");
    if (version === 3n && tbs.peek(0xa3)) {
      const wrapped = tbs.read(0xa3) ?? fail("x509: malformed extensions");
      const exts = new Der(new Der(wrapped).read(SEQUENCE) ?? fail("x509: malformed extensions"));
      const seen = new Set<string>();
      while (!exts.empty) {
        const ext = new Der(exts.read(SEQUENCE) ?? fail("x509: malformed extension"));
        const id = ext.readOID() ?? fail("x509: malformed extension OID field");
        if (ext.peek(BOOLEAN) && ext.readBoolean() === undefined) fail("x509: malformed extension critical field");
        if (!ext.read(OCTET_STRING)) fail("x509: malformed extension value field");
        const dotted = oidString(id);
        if (seen.has(dotted)) fail(`x509: certificate contains duplicate extension with OID "${dotted}"`);
        seen.add(dotted);
      }
      // processExtensions: not ported (see the module comment).
    }
  }

  if (!cert.readBitString()) fail("x509: malformed signature");
  if (raw.length !== der.length) fail("x509: trailing data");
  return publicKey;
}

/** An OID's dotted form, as asn1.ObjectIdentifier.String prints it (components validated by validOID). */
function oidString(b: Uint8Array): string {
  const parts: number[] = [];
  let v = 0;
  for (const x of b) {
    v = v * 128 + (x & 0x7f);
    if ((x & 0x80) === 0) {
      parts.push(v);
      v = 0;
    }
  }
  const first = parts.shift() as number;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join(".");
}

// ---------------------------------------------------------------- encoding/asn1 (private keys)

interface Element {
  cls: number;
  compound: boolean;
  tag: number;
  /** Offsets in the buffer: start of the element, of its contents, and its end. */
  start: number;
  body: number;
  end: number;
}

/** encoding/asn1's parseTagAndLength and length check: undefined for Go's errors. */
function asn1Element(b: Uint8Array, off: number): Element | undefined {
  if (off >= b.length) return undefined;
  const first = b[off] as number;
  if ((first & 0x1f) === 0x1f) unsure();
  let i = off + 1;
  if (i >= b.length) return undefined;
  const lb = b[i++] as number;
  let length = 0;
  if ((lb & 0x80) === 0) length = lb;
  else {
    const count = lb & 0x7f;
    if (count === 0) return undefined; // indefinite length
    for (let k = 0; k < count; k++) {
      if (i >= b.length) return undefined;
      if (length >= 1 << 23) return undefined;
      length = length * 256 + (b[i++] as number);
      if (length === 0) return undefined; // superfluous leading zeros
    }
    if (length < 0x80) return undefined; // non-minimal
  }
  if (i + length > b.length) return undefined;
  return { cls: first >> 6, compound: (first & 0x20) !== 0, tag: first & 0x1f, start: off, body: i, end: i + length };
}

const isUniversal = (e: Element, tag: number, compound: boolean) =>
  e.cls === 0 && e.tag === tag && e.compound === compound;

/** Reads the fields of a SEQUENCE body in order, as asn1.Unmarshal fills a struct (extra elements at the end allowed). */
class Fields {
  off: number;
  constructor(
    readonly b: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.off = start;
  }
  private view(): Uint8Array {
    return this.b.subarray(0, this.end);
  }
  /** The next element if it has this universal tag; undefined when absent or of another tag; throws Fail on a broken one. */
  private next(tag: number, compound: boolean, optional: boolean): Element | undefined {
    if (this.off === this.end) return optional ? undefined : fail("");
    const e = asn1Element(this.view(), this.off) ?? fail("");
    if (!isUniversal(e, tag, compound)) return optional ? undefined : fail("");
    this.off = e.end;
    return e;
  }
  bigInt(optional = false): bigint | undefined {
    const e = this.next(INTEGER, false, optional);
    if (!e) return undefined;
    const v = this.b.subarray(e.body, e.end);
    return minimalInteger(v) ? signed(v) : fail("");
  }
  int64(): bigint {
    const e = this.next(INTEGER, false, false) as Element;
    const v = this.b.subarray(e.body, e.end);
    return minimalInteger(v) && v.length <= 8 ? signed(v) : fail("");
  }
  octets(): Uint8Array {
    const e = this.next(OCTET_STRING, false, false) as Element;
    return this.b.subarray(e.body, e.end);
  }
  sequence(optional = false): Fields | undefined {
    const e = this.next(0x10, true, optional);
    return e && new Fields(this.b, e.body, e.end);
  }
  oid(): Uint8Array {
    const e = this.next(OID, false, false) as Element;
    const v = this.b.subarray(e.body, e.end);
    return asn1OID(v) ? v : fail("");
  }
  /** An optional asn1.RawValue: any element's full bytes, or empty. */
  raw(): Uint8Array {
    if (this.off === this.end) return new Uint8Array(0);
    const e = asn1Element(this.view(), this.off) ?? fail("");
    this.off = e.end;
    return this.b.subarray(e.start, e.end);
  }
  /** An optional EXPLICIT context-specific field: the inner element's Fields-style reader, or undefined when absent. */
  explicit(n: number): Element | undefined {
    if (this.off === this.end) return undefined;
    const e = asn1Element(this.view(), this.off) ?? fail("");
    if (e.cls !== 2 || e.tag !== n) return undefined;
    if (!e.compound || e.body === e.end) unsure();
    const inner = asn1Element(this.view(), e.body) ?? fail("");
    if (inner.end !== e.end) unsure();
    this.off = e.end;
    return inner;
  }
}

/** encoding/asn1's parseObjectIdentifier: non-empty, minimal base-128 components within 31 bits. */
function asn1OID(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  let shifted = 0;
  let value = 0;
  for (const x of b) {
    if (shifted === 0 && x === 0x80) return false;
    shifted++;
    if (shifted === 5) return false;
    value = value * 128 + (x & 0x7f);
    if ((x & 0x80) === 0) {
      if (value > 0x7fffffff) return false;
      shifted = 0;
      value = 0;
    }
  }
  return shifted === 0;
}

/** The top-level SEQUENCE of asn1.Unmarshal and the bytes after it. */
function topSequence(der: Uint8Array): { fields: Fields; rest: number } {
  const e = asn1Element(der, 0) ?? fail("");
  if (!isUniversal(e, 0x10, true)) fail("");
  return { fields: new Fields(der, e.body, e.end), rest: der.length - e.end };
}

type PrivateKey =
  | { kind: "rsa"; n: bigint }
  | { kind: "ecdsa"; x: bigint; y: bigint }
  | { kind: "ed25519"; seed: Uint8Array };

/** Runs a parser; a Fail (Go's error, whatever its text) becomes undefined. Unsure passes through. */
function attempt<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (e) {
    if (e instanceof Fail) return undefined;
    throw e;
  }
}

/** x509.ParsePKCS1PrivateKey, with the checks of rsa.PrivateKey.Validate every release makes. */
function parsePKCS1(der: Uint8Array): PrivateKey {
  const { fields: f, rest } = topSequence(der);
  const version = f.int64();
  const n = f.bigInt() as bigint;
  const e = f.int64();
  const d = f.bigInt() as bigint;
  const p = f.bigInt() as bigint;
  const q = f.bigInt() as bigint;
  const dp = f.bigInt(true);
  const dq = dp === undefined ? undefined : f.bigInt(true);
  const qinv = dq === undefined ? undefined : f.bigInt(true);
  if (f.sequence(true)) unsure(); // additional primes: a multi-prime key
  if (rest > 0) fail("trailing data");
  if (version > 1n) fail("x509: unsupported private key version");
  if (n <= 0n || d <= 0n || p <= 0n || q <= 0n) fail("x509: private key contains zero or negative value");
  // Refused by every release's Validate.
  if (e < 2n || e > 0x7fffffffn) fail("crypto/rsa: public exponent");
  if ((p * q) % n !== 0n || p >= n || q >= n) fail("crypto/rsa: modulus");
  // The rest of Validate changed in 1.24 (CRT values, parity, |p−q|, size of d): a key failing any is unsure.
  if (p * q !== n || p === q || d >= n || n % 2n === 0n || e % 2n === 0n || p % 2n === 0n || q % 2n === 0n) unsure();
  for (const prime of [p, q]) if ((d * e) % (prime - 1n) !== 1n) unsure();
  if (dp !== undefined && dq !== undefined && qinv !== undefined) {
    if (dp <= 0n || dq <= 0n || qinv <= 0n || dp >= p - 1n || dq >= q - 1n || qinv >= p) unsure();
    if ((dp * e) % (p - 1n) !== 1n || (dq * e) % (q - 1n) !== 1n || (qinv * q) % p !== 1n) unsure();
  } else if (dp !== undefined || dq !== undefined) unsure();
  const diff = p > q ? p - q : q - p;
  const half = Math.floor(n.toString(2).length / 2);
  if (diff.toString(2).length <= half - 100 || d.toString(2).length <= half) unsure();
  return { kind: "rsa", n };
}

/** x509's parseECPrivateKey (SEC 1), the curve OID of a PKCS #8 wrapper taking precedence. */
function parseSEC1(der: Uint8Array, outerCurve: Uint8Array | undefined): PrivateKey {
  const { fields: f } = topSequence(der);
  const version = f.int64();
  let key = f.octets();
  const named = f.explicit(0);
  let innerCurve: Uint8Array | undefined;
  if (named) {
    if (!isUniversal(named, OID, false)) unsure();
    innerCurve = f.b.subarray(named.body, named.end);
    if (!asn1OID(innerCurve)) fail("");
  }
  const pub = f.explicit(1);
  if (pub) {
    if (!isUniversal(pub, BIT_STRING, false)) unsure();
    const bits = f.b.subarray(pub.body, pub.end);
    const pad = bits[0] ?? 0;
    if (bits.length === 0 || pad > 7 || (bits.length === 1 && pad > 0)) fail("");
    if (bits.length > 1 && ((bits[bits.length - 1] as number) & ((1 << pad) - 1)) !== 0) fail("");
  }
  if (version !== 1n) fail("x509: unknown EC private key version");
  const oid = outerCurve ?? innerCurve;
  const c = (oid && curveByOID(oid)) ?? fail("x509: unknown elliptic curve");
  const k = unsigned(key);
  if (k >= c.n) fail("x509: invalid elliptic curve private key value");
  const size = Math.ceil(c.n.toString(2).length / 8);
  while (key.length > size) {
    if (key[0] !== 0) fail("x509: invalid private key length");
    key = key.subarray(1);
  }
  if (k === 0n) unsure(); // 1.25's ecdsa.ParseRawPrivateKey refuses it; earlier releases give the point at infinity
  const point = scalarBaseMult(c, k) ?? unsure();
  return { kind: "ecdsa", x: point[0], y: point[1] };
}

const UNKNOWN_PKCS8 = "tls: found unknown private key type in PKCS#8 wrapping";

/** x509.ParsePKCS8PrivateKey; an X25519 key is returned as tls's error for it. */
function parsePKCS8(der: Uint8Array): PrivateKey | Fail {
  const { fields: f } = topSequence(der);
  f.int64();
  const algo = f.sequence() as Fields;
  const oid = algo.oid();
  const params = algo.raw();
  const key = f.octets();
  if (equalBytes(oid, OID_RSA)) return parsePKCS1(key);
  if (equalBytes(oid, OID_EC)) {
    let named: Uint8Array | undefined;
    const e = params.length > 0 ? asn1Element(params, 0) : undefined;
    if (e && isUniversal(e, OID, false) && asn1OID(params.subarray(e.body, e.end)))
      named = params.subarray(e.body, e.end);
    return parseSEC1(key, named);
  }
  if (equalBytes(oid, OID_ED25519) || equalBytes(oid, OID_X25519)) {
    if (params.length !== 0) fail("x509: invalid private key parameters");
    const e = asn1Element(key, 0) ?? fail("");
    if (!isUniversal(e, OCTET_STRING, false)) fail("");
    const seed = key.subarray(e.body, e.end);
    if (seed.length !== 32) fail("x509: invalid private key length");
    return equalBytes(oid, OID_ED25519) ? { kind: "ed25519", seed } : new Fail(UNKNOWN_PKCS8);
  }
  if (isPostQuantum(oid)) unsure();
  return fail("x509: PKCS#8 wrapping contained private key with unknown algorithm");
}

/** crypto/tls's parsePrivateKey. */
function parsePrivateKey(der: Uint8Array): PrivateKey {
  const pkcs1 = attempt(() => parsePKCS1(der));
  if (pkcs1) return pkcs1;
  const pkcs8 = attempt(() => parsePKCS8(der));
  if (pkcs8 instanceof Fail) throw pkcs8;
  if (pkcs8) return pkcs8;
  const sec1 = attempt(() => parseSEC1(der, undefined));
  if (sec1) return sec1;
  return fail("tls: failed to parse private key");
}

// ---------------------------------------------------------------- X509KeyPair

/** Go's `%v` of a []string. */
const listV = (items: string[]) => `[${items.join(" ")}]`;

function keyPair(certPEM: Uint8Array, keyPEM: Uint8Array): string | undefined {
  const certs: Uint8Array[] = [];
  let skipped: string[] = [];
  for (let rest = certPEM; ; ) {
    const { block, rest: next } = decodePEM(rest);
    if (!block) break;
    rest = next;
    if (block.type === "CERTIFICATE") certs.push(block.bytes);
    else skipped.push(block.type);
  }
  if (certs.length === 0) {
    if (skipped.length === 0) return "tls: failed to find any PEM data in certificate input";
    if (skipped.length === 1 && (skipped[0] as string).endsWith("PRIVATE KEY")) {
      return "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched";
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${listV(skipped)}`;
  }

  skipped = [];
  let keyDER: Uint8Array | undefined;
  for (let rest = keyPEM; ; ) {
    const { block, rest: next } = decodePEM(rest);
    if (!block) {
      if (skipped.length === 0) return "tls: failed to find any PEM data in key input";
      if (skipped.length === 1 && skipped[0] === "CERTIFICATE") {
        return "tls: found a certificate rather than a key in the PEM for the private key";
      }
      return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${listV(skipped)}`;
    }
    rest = next;
    if (block.type === "PRIVATE KEY" || block.type.endsWith(" PRIVATE KEY")) {
      keyDER = block.bytes;
      break;
    }
    skipped.push(block.type);
  }

  const pub = parseCertificate(certs[0] as Uint8Array);
  const priv = parsePrivateKey(keyDER);

  const typeMismatch = "tls: private key type does not match public key type";
  const mismatch = "tls: private key does not match public key";
  switch (pub.kind) {
    case "rsa":
      if (priv.kind !== "rsa") return typeMismatch;
      return pub.n === priv.n ? undefined : mismatch;
    case "ecdsa":
      if (priv.kind !== "ecdsa") return typeMismatch;
      return pub.x === priv.x && pub.y === priv.y ? undefined : mismatch;
    case "ed25519":
      if (priv.kind !== "ed25519") return typeMismatch;
      return equalBytes(ed25519PublicKey(priv.seed), pub.key) ? undefined : mismatch;
    default:
      return "tls: unknown public key algorithm";
  }
}

/**
 * The error of Go's `tls.X509KeyPair(certPEM, keyPEM)`, or undefined when
 * it succeeds, or when Go's outcome is not decided by what is ported (see the
 * module comment).
 */
export function x509KeyPairError(certPEM: Uint8Array, keyPEM: Uint8Array): string | undefined {
  try {
    return keyPair(certPEM, keyPEM);
  } catch (e) {
    if (e instanceof Fail) return e.message;
    if (e instanceof Unsure) return undefined;
    throw e;
  }
}
