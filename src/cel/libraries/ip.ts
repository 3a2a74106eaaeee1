/**
 * Kubernetes IP and CIDR libraries (apiserver/pkg/cel/library/ip.go, cidr.go):
 * `ip`, `isIP`, `ip.isCanonical`, `family`, `isUnspecified`, `isLoopback`,
 * `isLinkLocalMulticast`, `isLinkLocalUnicast`, `isGlobalUnicast`, `cidr`,
 * `isCIDR`, `containsIP`, `containsCIDR`, `prefixLength`, `masked`, `ip()`,
 * `string(ip)`, `string(cidr)`. Parsing follows Go's `net/netip` (no leading
 * zeros in IPv4, no zones, no IPv4-mapped IPv6 addresses).
 */
import { asCel, CelRuntimeError, OpaqueValue, opaqueOf, parses } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";

export interface Addr {
  v4: boolean;
  /** The address as a 32- or 128-bit integer. */
  n: bigint;
  zone: string;
}

function parseIPv4(s: string): bigint {
  const parts = s.split(".");
  if (parts.length < 4) throw new Error("IPv4 address too short");
  if (parts.length > 4) throw new Error("IPv4 address too long");
  let n = 0n;
  for (const p of parts) {
    if (p === "") throw new Error("IPv4 field must have at least one digit");
    if (!/^[0-9]+$/.test(p)) throw new Error("unexpected character");
    if (p.length > 1 && p.charAt(0) === "0") throw new Error("IPv4 field has octet with leading zero");
    const v = Number(p);
    if (v > 255) throw new Error("IPv4 field has value >255");
    n = (n << 8n) | BigInt(v);
  }
  return n;
}

function parseIPv6(s0: string): { n: bigint; zone: string } {
  let s = s0;
  let zone = "";
  const pct = s.indexOf("%");
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === "") throw new Error("zone must be a non-empty string");
  }
  const groups: number[] = [];
  let ellipsis = -1;
  if (s.startsWith("::")) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === "") return { n: 0n, zone };
  }
  while (s !== "") {
    let i = 0;
    while (i < s.length && i < 5 && /[0-9a-fA-F]/.test(s.charAt(i))) i++;
    if (i === 0) throw new Error("each colon-separated field must have at least one digit");
    if (i > 4) throw new Error("each group must have 4 or less digits");
    if (s.charAt(i) === ".") {
      if (ellipsis < 0 && groups.length !== 6)
        throw new Error("embedded IPv4 address must replace the final 2 fields of the address");
      if (groups.length + 2 > 8)
        throw new Error("too many hex fields to fit an embedded IPv4 at the end of the address");
      const v4 = parseIPv4(s);
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      s = "";
      break;
    }
    groups.push(Number.parseInt(s.slice(0, i), 16));
    s = s.slice(i);
    if (s === "") break;
    if (s.charAt(0) !== ":") throw new Error("unexpected character, want colon");
    if (s.length === 1) throw new Error("colon must be followed by more characters");
    s = s.slice(1);
    if (s.charAt(0) === ":") {
      if (ellipsis >= 0) throw new Error("multiple :: in address");
      ellipsis = groups.length;
      s = s.slice(1);
      if (s === "") break;
    }
    if (groups.length === 8) throw new Error("trailing garbage after address");
  }
  if (ellipsis < 0 && groups.length !== 8) throw new Error("address string too short");
  if (ellipsis >= 0) {
    const missing = 8 - groups.length;
    if (missing < 1) throw new Error("the :: must expand to at least one field of zeros");
    groups.splice(ellipsis, 0, ...new Array<number>(missing).fill(0));
  }
  let n = 0n;
  for (const g of groups) n = (n << 16n) | BigInt(g);
  return { n, zone };
}

/** Go `netip.ParseAddr`. */
export function parseAddr(s: string): Addr {
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c === ".") return { v4: true, n: parseIPv4(s), zone: "" };
    if (c === ":") {
      const r = parseIPv6(s);
      return { v4: false, n: r.n, zone: r.zone };
    }
    if (c === "%") throw new Error("missing IPv6 address");
  }
  throw new Error("unable to parse IP");
}

const is4In6 = (a: Addr) => !a.v4 && a.n >> 32n === 0xffffn;

/** `parseIPAddr` of the Kubernetes library. */
export function parseIP(raw: string): Addr {
  let a: Addr;
  try {
    a = parseAddr(raw);
  } catch (e) {
    throw new CelRuntimeError(
      `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): ${(e as Error).message}`,
    );
  }
  if (a.zone !== "") throw new CelRuntimeError(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  if (is4In6(a)) throw new CelRuntimeError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return a;
}

/** `netip.Addr.String()`. */
export function addrString(a: Addr): string {
  if (a.v4) return [24n, 16n, 8n, 0n].map((s) => String((a.n >> s) & 0xffn)).join(".");
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((a.n >> BigInt(i * 16)) & 0xffffn));
  if (is4In6(a)) return `::ffff:${addrString({ v4: true, n: a.n & 0xffffffffn, zone: "" })}`;
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  let out: string;
  if (bestStart < 0) out = hex.join(":");
  else out = `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
  return a.zone === "" ? out : `${out}%${a.zone}`;
}

const bitsOf = (a: Addr) => (a.v4 ? 32 : 128);
function maskOf(a: Addr, bits: number): bigint {
  const total = BigInt(bitsOf(a));
  const all = (1n << total) - 1n;
  return all ^ ((1n << (total - BigInt(bits))) - 1n);
}

export class IPValue extends OpaqueValue {
  readonly celTypeName = "net.IP";
  constructor(readonly addr: Addr) {
    super();
  }
  equals(other: unknown): boolean {
    return other instanceof IPValue && other.addr.v4 === this.addr.v4 && other.addr.n === this.addr.n;
  }
}

export class CIDRValue extends OpaqueValue {
  readonly celTypeName = "net.CIDR";
  constructor(
    readonly addr: Addr,
    readonly bits: number,
  ) {
    super();
  }
  equals(other: unknown): boolean {
    return (
      other instanceof CIDRValue &&
      other.bits === this.bits &&
      other.addr.v4 === this.addr.v4 &&
      other.addr.n === this.addr.n
    );
  }
  masked(): Addr {
    return { v4: this.addr.v4, n: this.addr.n & maskOf(this.addr, this.bits), zone: "" };
  }
  contains(a: Addr): boolean {
    if (a.v4 !== this.addr.v4) return false;
    const m = maskOf(a, this.bits);
    return (a.n & m) === (this.addr.n & m);
  }
}

/** Go `netip.ParsePrefix` plus the library's IPv4-mapped check. */
export function parseCIDR(raw: string): CIDRValue {
  const fail = (msg: string): never => {
    throw new CelRuntimeError(
      `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(raw)}): ${msg}`,
    );
  };
  const i = raw.lastIndexOf("/");
  if (i < 0) return fail("no '/'");
  let addr: Addr;
  try {
    addr = parseAddr(raw.slice(0, i));
  } catch (e) {
    return fail((e as Error).message);
  }
  if (addr.zone !== "") return fail("IPv6 zones cannot be present in a prefix");
  const bitsStr = raw.slice(i + 1);
  if (bitsStr === "" || !/^[0-9]+$/.test(bitsStr) || (bitsStr.length > 1 && bitsStr.charAt(0) === "0"))
    return fail(`bad bits after slash: ${JSON.stringify(bitsStr)}`);
  const bits = Number(bitsStr);
  if (bits > bitsOf(addr)) return fail(`prefix length out of range`);
  if (is4In6(addr)) throw new CelRuntimeError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return new CIDRValue(addr, bits);
}

const asIP = (v: unknown): Addr => opaqueOf(IPValue, v).addr;
const asCIDR = (v: unknown) => opaqueOf(CIDRValue, v);

const inRange = (a: Addr, v4: boolean, prefix: bigint, bits: number) =>
  a.v4 === v4 && (a.n & maskOf(a, bits)) === prefix;

export function isLoopback(a: Addr) {
  return a.v4 ? inRange(a, true, 0x7f000000n, 8) : a.n === 1n;
}
export function isMulticast(a: Addr) {
  return a.v4 ? inRange(a, true, 0xe0000000n, 4) : a.n >> 120n === 0xffn;
}
export function isLinkLocalMulticast(a: Addr) {
  return a.v4 ? inRange(a, true, 0xe0000000n, 24) : ((a.n >> 112n) & 0xff0fn) === 0xff02n;
}
export function isLinkLocalUnicast(a: Addr) {
  return a.v4 ? inRange(a, true, 0xa9fe0000n, 16) : ((a.n >> 112n) & 0xffc0n) === 0xfe80n;
}
export function isGlobalUnicast(a: Addr) {
  if (a.v4 && (a.n === 0n || a.n === 0xffffffffn)) return false;
  if (!a.v4 && a.n === 0n) return false;
  return !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

export const IPS: readonly Declaration[] = [
  declare("ip(string) -> IP", (s: string) => asCel(new IPValue(parseIP(s)))),
  declare("isIP(string) -> bool", (s: string) => parses(() => parseIP(s))),
  declare("ip.isCanonical(string) -> bool", (s: string) => addrString(parseIP(s)) === s),
  declare("IP.family() -> int", function (this: unknown) {
    return asIP(this).v4 ? 4n : 6n;
  }),
  declare("IP.isUnspecified() -> bool", function (this: unknown) {
    return asIP(this).n === 0n;
  }),
  declare("IP.isLoopback() -> bool", function (this: unknown) {
    return isLoopback(asIP(this));
  }),
  declare("IP.isLinkLocalMulticast() -> bool", function (this: unknown) {
    return isLinkLocalMulticast(asIP(this));
  }),
  declare("IP.isLinkLocalUnicast() -> bool", function (this: unknown) {
    return isLinkLocalUnicast(asIP(this));
  }),
  declare("IP.isGlobalUnicast() -> bool", function (this: unknown) {
    return isGlobalUnicast(asIP(this));
  }),
  declare("cidr(string) -> CIDR", (s: string) => asCel(parseCIDR(s))),
  declare("isCIDR(string) -> bool", (s: string) => parses(() => parseCIDR(s))),
  declare(["CIDR.containsIP(IP) -> bool", "CIDR.containsIP(string) -> bool"], function (this: unknown, other: unknown) {
    return asCIDR(this).contains(typeof other === "string" ? parseIP(other) : asIP(other));
  }),
  declare(
    ["CIDR.containsCIDR(CIDR) -> bool", "CIDR.containsCIDR(string) -> bool"],
    function (this: unknown, other: unknown) {
      const c = asCIDR(this);
      const o = typeof other === "string" ? parseCIDR(other) : asCIDR(other);
      return o.addr.v4 === c.addr.v4 && c.bits <= o.bits && c.contains(o.addr);
    },
  ),
  declare("CIDR.ip() -> IP", function (this: unknown) {
    return asCel(new IPValue(asCIDR(this).addr));
  }),
  declare("CIDR.masked() -> CIDR", function (this: unknown) {
    const c = asCIDR(this);
    return asCel(new CIDRValue(c.masked(), c.bits));
  }),
  declare("CIDR.prefixLength() -> int", function (this: unknown) {
    return BigInt(asCIDR(this).bits);
  }),
  declare(["string(IP) -> string", "string(CIDR) -> string"], (v: unknown) => {
    if (v instanceof IPValue) return addrString(v.addr);
    if (v instanceof CIDRValue) return `${addrString(v.addr)}/${v.bits}`;
    throw new CelRuntimeError("no such overload");
  }),
];
