/**
 * IP addresses and CIDR values as the API server reads them. k8s.io/utils/net's ParseIPSloppy and
 * ParseCIDRSloppy are Go 1.16's net.ParseIP and net.ParseCIDR, forked (third_party/forked/golang/net)
 * to keep accepting IPv4 octets with leading zeros; apimachinery's IsValidIPForLegacyField and
 * IsValidCIDRForLegacyField (util/validation/ip.go) parse with them and then, under
 * StrictIPCIDRValidation, ask for net/netip's stricter syntax. That gate was alpha and off in 1.33–1.35
 * and is beta and on in 1.36: the callers say which. What the strict syntax would refuse, the server
 * warns about (GetWarningsForIP, GetWarningsForCIDR).
 */
import { quote } from "./error.js";

/** An address as the sloppy parser returns it. */
export interface IP {
  /** Go's net.IP: 16 bytes, an IPv4 address held as ::ffff:a.b.c.d. */
  bytes: Uint8Array;
  /** Written with colons: what netip calls IPv6, so `::ffff:1.2.3.4` is IPv4-mapped IPv6, not IPv4. */
  colons: boolean;
  /** What netip refuses and the fork lets through: an IPv4 octet with a leading zero, an IPv6 field of over 4 digits. */
  leadingZeros: boolean;
}

/** A CIDR value as ParseCIDRSloppy reads it. */
export interface CIDR {
  /** The address as written, before masking. */
  ip: IP;
  bits: number;
  /** The mask's size in bytes: 4 when the address parses as IPv4 (ParseCIDR tries that first), else 16. */
  size: 4 | 16;
  /** The prefix length has a leading zero (netip.ParsePrefix refuses it). */
  leadingZeroBits: boolean;
}

/** Go's `big` of net/parse.go: dtoi and xtoi give up past it. */
const big = 0xffffff;

/** Go's dtoi: the decimal number at s[i:], and how many digits it took; undefined for none or too big. */
function dtoi(s: string, i: number): { n: number; c: number } | undefined {
  let n = 0;
  let c = 0;
  for (; i + c < s.length; c++) {
    const d = s.charCodeAt(i + c) - 48;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
    if (n >= big) return undefined;
  }
  return c === 0 ? undefined : { n, c };
}

/** Go's xtoi: the same in hexadecimal. */
function xtoi(s: string, i: number): { n: number; c: number } | undefined {
  let n = 0;
  let c = 0;
  for (; i + c < s.length; c++) {
    const d = Number.parseInt(s[i + c] as string, 16);
    if (Number.isNaN(d)) break;
    n = n * 16 + d;
    if (n >= big) return undefined;
  }
  return c === 0 ? undefined : { n, c };
}

/**
 * The fork's parseIPv4: four decimal octets from s[i:] to its end, written to out[at:at+4]. Whether
 * an octet had a leading zero, or undefined when it is no address.
 */
function parseIPv4(s: string, i: number, out: Uint8Array, at: number): boolean | undefined {
  let leadingZeros = false;
  for (let k = 0; k < 4; k++) {
    if (k > 0) {
      if (s[i] !== ".") return undefined;
      i++;
    }
    const d = dtoi(s, i);
    if (d === undefined || d.n > 0xff) return undefined;
    if (d.c > 1 && s[i] === "0") leadingZeros = true;
    out[at + k] = d.n;
    i += d.c;
  }
  return i === s.length ? leadingZeros : undefined;
}

function ipv4(s: string): IP | undefined {
  const bytes = new Uint8Array(16);
  bytes[10] = bytes[11] = 0xff;
  const leadingZeros = parseIPv4(s, 0, bytes, 12);
  return leadingZeros === undefined ? undefined : { bytes, colons: false, leadingZeros };
}

/** The fork's parseIPv6 (RFC 4291 and 5952): hex fields, one `::`, an IPv4 address in the last 4 bytes. */
function ipv6(s: string): IP | undefined {
  const bytes = new Uint8Array(16);
  let leadingZeros = false;
  let ellipsis = -1;
  let p = 0;
  if (s.startsWith("::")) {
    ellipsis = 0;
    p = 2;
    if (p === s.length) return { bytes, colons: true, leadingZeros };
  }
  let i = 0;
  while (i < 16) {
    const h = xtoi(s, p);
    if (h === undefined || h.n > 0xffff) return undefined;
    if (s[p + h.c] === ".") {
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return undefined;
      const v4 = parseIPv4(s, p, bytes, i);
      if (v4 === undefined) return undefined;
      leadingZeros ||= v4;
      p = s.length;
      i += 4;
      break;
    }
    if (h.c > 4) leadingZeros = true;
    bytes[i] = h.n >> 8;
    bytes[i + 1] = h.n & 0xff;
    i += 2;
    p += h.c;
    if (p === s.length) break;
    if (s[p] !== ":" || p + 1 === s.length) return undefined;
    p++;
    if (s[p] === ":") {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      p++;
      if (p === s.length) break;
    }
  }
  if (p !== s.length) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    bytes.copyWithin(ellipsis + 16 - i, ellipsis, i);
    bytes.fill(0, ellipsis, ellipsis + 16 - i);
  } else if (ellipsis >= 0) return undefined;
  return { bytes, colons: true, leadingZeros };
}

/** netutils.ParseIPSloppy: undefined when Go returns nil. Which parser runs is decided by the first `.` or `:`. */
export function parseIPSloppy(s: string): IP | undefined {
  for (const ch of s) {
    if (ch === ".") return ipv4(s);
    if (ch === ":") return ipv6(s);
  }
  return undefined;
}

/** netutils.ParseCIDRSloppy: an address, `/`, and a decimal prefix length no longer than the address. */
export function parseCIDRSloppy(s: string): CIDR | undefined {
  const slash = s.indexOf("/");
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let size: 4 | 16 = 4;
  let ip = ipv4(addr);
  if (ip === undefined) {
    size = 16;
    ip = ipv6(addr);
  }
  const bits = dtoi(mask, 0);
  if (ip === undefined || bits === undefined || bits.c !== mask.length || bits.n > 8 * size) return undefined;
  return { ip, bits: bits.n, size, leadingZeroBits: bits.c > 1 && mask[0] === "0" };
}

/** net.IP.To4: the 4 bytes of an IPv4 (or IPv4-mapped) address, undefined for any other. */
function to4(ip: Uint8Array): Uint8Array | undefined {
  if (ip.length === 4) return ip;
  const mapped = ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
  return mapped ? ip.subarray(12) : undefined;
}

/** netutils.IsIPv6: not an IPv4 address in any form. */
export const isIPv6 = (ip: IP): boolean => to4(ip.bytes) === undefined;

const isIPv4Mapped = (ip: IP): boolean => ip.colons && !isIPv6(ip);

/** net.CIDRMask(bits, 8*size). */
function cidrMask(bits: number, size: number): Uint8Array {
  const m = new Uint8Array(size);
  for (let i = 0; i < size; i++) m[i] = (0xff00 >> Math.min(8, Math.max(0, bits - 8 * i))) & 0xff;
  return m;
}

/** The IP of the net.IPNet ParseCIDR returns: the address masked, 4 bytes for an IPv4 mask, else 16. */
export function networkNumber(cidr: CIDR): Uint8Array {
  const ip = cidr.size === 4 ? cidr.ip.bytes.subarray(12) : cidr.ip.bytes;
  const mask = cidrMask(cidr.bits, cidr.size);
  return ip.map((b, i) => b & (mask[i] as number));
}

/** net.IPNet.Contains: an IPv4 network holds only IPv4 addresses, an IPv6 one only IPv6 ones. */
export function contains(cidr: CIDR, ip: Uint8Array): boolean {
  const network = networkNumber(cidr);
  const nn = to4(network) ?? network;
  let mask = cidrMask(cidr.bits, cidr.size);
  if (mask.length === 16 && nn.length === 4) mask = mask.subarray(12);
  const x = to4(ip) ?? ip;
  return (
    x.length === nn.length && nn.every((b, i) => (b & (mask[i] as number)) === ((x[i] as number) & (mask[i] as number)))
  );
}

/** net.IP.IsUnspecified: 0.0.0.0 or ::. */
export const isUnspecified = (ip: IP): boolean => (to4(ip.bytes) ?? ip.bytes).every((b) => b === 0);

/** net.IP.IsLoopback: 127.0.0.0/8 or ::1. */
export function isLoopback(ip: IP): boolean {
  const v4 = to4(ip.bytes);
  return v4 !== undefined ? v4[0] === 127 : ip.bytes.subarray(0, 15).every((b) => b === 0) && ip.bytes[15] === 1;
}

/** net.IP.IsLinkLocalUnicast: 169.254.0.0/16 or fe80::/10. */
export function isLinkLocalUnicast(ip: IP): boolean {
  const v4 = to4(ip.bytes);
  if (v4 !== undefined) return v4[0] === 169 && v4[1] === 254;
  return ip.bytes[0] === 0xfe && ((ip.bytes[1] as number) & 0xc0) === 0x80;
}

/** net.IP.IsLinkLocalMulticast: 224.0.0.0/24, or an IPv6 multicast address of link-local scope (ffx2::/16). */
export function isLinkLocalMulticast(ip: IP): boolean {
  const v4 = to4(ip.bytes);
  if (v4 !== undefined) return v4[0] === 224 && v4[1] === 0 && v4[2] === 0;
  return ip.bytes[0] === 0xff && ((ip.bytes[1] as number) & 0x0f) === 0x02;
}

/**
 * validation.IsValidIPForLegacyField of a new value: its messages. `strict` is the StrictIPCIDRValidation
 * gate (on from 1.36); without it, leading zeros and IPv4-mapped addresses pass (ipWarnings warns).
 */
export function isValidIPForLegacyField(value: string, strict: boolean): string[] {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"];
  if (!strict) return [];
  if (ip.leadingZeros) return ["must not have leading 0s"];
  if (isIPv4Mapped(ip)) return ["must not be an IPv4-mapped IPv6 address"];
  return [];
}

/** validation.IsValidCIDRForLegacyField of a new value; strictly, a subnet, not an address within one. */
export function isValidCIDRForLegacyField(value: string, strict: boolean): string[] {
  const cidr = parseCIDRSloppy(value);
  if (cidr === undefined) return ["must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"];
  if (!strict) return [];
  if (cidr.ip.leadingZeros || cidr.leadingZeroBits) return ["must not have leading 0s in IP or prefix length"];
  if (isIPv4Mapped(cidr.ip)) return ["must not have an IPv4-mapped IPv6 address"];
  if (!hostBitsClear(cidr)) return ["must not have bits set beyond the prefix length"];
  return [];
}

/**
 * apimachinery validation.IsValidIP: an address netip accepts (no leading zeros, not IPv4-mapped), then
 * written as Go writes it back. The details, without the field.
 */
export function isValidIP(value: string): string[] {
  const errs = isValidIPForLegacyField(value, true);
  if (errs.length > 0) return errs;
  const canonical = ipString((parseIPSloppy(value) as IP).bytes);
  return value === canonical ? [] : [`must be in canonical form (${quote(canonical)})`];
}

/**
 * apimachinery validation.IsValidCIDR: a subnet netip accepts (no leading zeros, no IPv4-mapped address,
 * no bits past the prefix), then written as net.IPNet writes it back.
 */
export function isValidCIDR(value: string): string[] {
  const errs = isValidCIDRForLegacyField(value, true);
  if (errs.length > 0) return errs;
  const cidr = parseCIDRSloppy(value) as CIDR;
  const canonical = `${ipString(networkNumber(cidr))}/${cidr.bits}`;
  return value === canonical ? [] : [`must be in canonical form (${quote(canonical)})`];
}

function hostBitsClear(cidr: CIDR): boolean {
  const address = cidr.size === 4 ? cidr.ip.bytes.subarray(12) : cidr.ip.bytes;
  return networkNumber(cidr).every((b, i) => b === address[i]);
}

/** net.IP.String(): an IPv4 (or IPv4-mapped) address dotted, any other in RFC 5952's form. */
export function ipString(bytes: Uint8Array): string {
  const v4 = to4(bytes);
  if (v4 !== undefined) return v4.join(".");
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] as number) << 8) | (bytes[i + 1] as number));
  // the longest run of two or more zero groups, the first of equal ones, becomes `::`
  let runStart = -1;
  let runLength = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > runLength && j - i >= 2) {
      runStart = i;
      runLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(":");
  return runStart < 0 ? hex(0, 8) : `${hex(0, runStart)}::${hex(runStart + runLength, 8)}`;
}

/** netip.Addr.String() of an address written with colons: IPv4-mapped as `::ffff:a.b.c.d`. */
function addrString(ip: IP): string {
  return isIPv4Mapped(ip) ? `::ffff:${ipString(ip.bytes)}` : ipString(ip.bytes);
}

/** net.IPNet.String() of a parsed CIDR: its network number and prefix length. */
const networkString = (cidr: CIDR) => `${ipString(networkNumber(cidr))}/${cidr.bits}`;

/**
 * validation.GetWarningsForIP (1.33+) of a value IsValidIPForLegacyField accepted, each without the field
 * before it: a form a future strict release refuses, or an IPv6 address not in canonical form.
 */
export function ipWarnings(value: string): string[] {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return [];
  if (ip.leadingZeros || isIPv4Mapped(ip))
    return [
      `non-standard IP address ${quote(value)} will be considered invalid in a future Kubernetes release: use ${quote(ipString(ip.bytes))}`,
    ];
  if (ip.colons && addrString(ip) !== value)
    return [`IPv6 address ${quote(value)} should be in RFC 5952 canonical format (${quote(addrString(ip))})`];
  return [];
}

/** validation.GetWarningsForCIDR (1.33+), as ipWarnings: host bits set, a non-standard form, a non-canonical one. */
export function cidrWarnings(value: string): string[] {
  const cidr = parseCIDRSloppy(value);
  if (cidr === undefined) return [];
  const out: string[] = [];
  if (!hostBitsClear(cidr))
    out.push(
      `CIDR value ${quote(value)} is ambiguous in this context (should be ${quote(networkString(cidr))} or ${quote(`${ipString(cidr.ip.bytes)}/${cidr.size * 8}`)}?)`,
    );
  if (cidr.ip.leadingZeros || cidr.leadingZeroBits || isIPv4Mapped(cidr.ip))
    out.push(
      `non-standard CIDR value ${quote(value)} will be considered invalid in a future Kubernetes release: use ${quote(networkString(cidr))}`,
    );
  const prefix = `${addrString(cidr.ip)}/${cidr.bits}`;
  if (out.length === 0 && cidr.ip.colons && prefix !== value)
    out.push(`IPv6 CIDR value ${quote(value)} should be in RFC 5952 canonical format (${quote(prefix)})`);
  return out;
}

/**
 * What 1.32's Service warnings (pkg/api/service/warnings.go, before they moved to apimachinery) say of an
 * IP address or (`prefix`) a CIDR value: net/netip's refusal, or the canonical form of an IPv6 one. Told
 * for the refusals whose netip words are certain: an IPv4 address with a leading zero, a prefix length
 * with one.
 */
export function legacyIPWarnings(value: string, prefix: boolean): string[] {
  const cidr = prefix ? parseCIDRSloppy(value) : undefined;
  const ip = prefix ? cidr?.ip : parseIPSloppy(value);
  if (ip === undefined) return [];
  const address = prefix ? value.slice(0, value.lastIndexOf("/")) : value;
  const refused = (why: string) =>
    prefix
      ? `IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix(${quote(value)}): ${why}`
      : `IP address was accepted, but will be invalid in a future Kubernetes release: ${why}`;
  if (ip.leadingZeros) {
    if (ip.colons) return [];
    return [refused(`ParseAddr(${quote(address)}): IPv4 field has octet with leading zero`)];
  }
  if (cidr?.leadingZeroBits)
    return [refused(`bad bits after slash: ${quote(value.slice(value.lastIndexOf("/") + 1))}`)];
  const canonical = prefix && cidr !== undefined ? `${addrString(ip)}/${cidr.bits}` : addrString(ip);
  if (ip.colons && canonical !== value)
    return [
      `IPv6 ${prefix ? "prefix" : "address"} ${quote(value)} is not in RFC 5952 canonical format (${quote(canonical)}), which may cause controller apply-loops`,
    ];
  return [];
}
