import { RE2JS } from "@bufbuild/re2";
import { GoError, parseRequestURI } from "../go/index.js";

/**
 * Network formats as kube-openapi's strfmt checks them with Go's parsers:
 * ipv4/cidr with k8s.io/utils/net's ParseIPSloppy/ParseCIDRSloppy (leading
 * zeros allowed, as before Go 1.17), ipv6 with net.ParseIP, mac with
 * net.ParseMAC, uri with net/url.ParseRequestURI, email with
 * net/mail.ParseAddress (approximated), hostname with strfmt's pattern.
 */

const big = 0xffffff;

/** Go's dtoi: decimal digits → [value, consumed], or undefined. */
function dtoi(s: string, from: number): [number, number] | undefined {
  let n = 0;
  let i = from;
  for (; i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= big) return undefined;
  }
  return i === from ? undefined : [n, i - from];
}

function xtoi(s: string, from: number): [number, number] | undefined {
  let n = 0;
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else if (c >= 65 && c <= 70) d = c - 55;
    else break;
    n = n * 16 + d;
    if (n >= big) return undefined;
  }
  return i === from ? undefined : [n, i - from];
}

/** Go's (pre-1.17) parseIPv4: four decimal octets ≤ 255. */
function parseIPv4(s: string): boolean {
  let pos = 0;
  for (let i = 0; i < 4; i++) {
    if (pos >= s.length) return false;
    if (i > 0) {
      if (s[pos] !== ".") return false;
      pos++;
    }
    const r = dtoi(s, pos);
    if (!r || r[0] > 0xff) return false;
    pos += r[1];
  }
  return pos === s.length;
}

/** Go's parseIPv6, with an embedded IPv4 tail allowed. */
function parseIPv6(s: string): boolean {
  let ellipsis = -1;
  let rest = s;
  if (rest.startsWith("::")) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest === "") return true;
  }
  let i = 0;
  while (i < 16) {
    const r = xtoi(rest, 0);
    if (!r || r[0] > 0xffff) return false;
    if (r[1] < rest.length && rest[r[1]] === ".") {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!parseIPv4(rest)) return false;
      rest = "";
      i += 4;
      break;
    }
    i += 2;
    rest = rest.slice(r[1]);
    if (rest === "") break;
    if (rest[0] !== ":" || rest.length === 1) return false;
    rest = rest.slice(1);
    if (rest[0] === ":") {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      rest = rest.slice(1);
      if (rest === "") break;
    }
  }
  if (rest !== "") return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** net.ParseIP: the first '.' or ':' decides the family. */
function parseIP(s: string): boolean {
  for (const ch of s) {
    if (ch === ".") return parseIPv4(s);
    if (ch === ":") return parseIPv6(s);
  }
  return false;
}

export const isIPv4 = (s: string) => parseIP(s) && s.includes(".");
export const isIPv6 = (s: string) => parseIP(s) && s.includes(":");

/** ParseCIDRSloppy: address, '/', a prefix length within the family's bits. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let bits = 32;
  if (!parseIPv4(addr)) {
    if (!parseIPv6(addr)) return false;
    bits = 128;
  }
  const r = dtoi(mask, 0);
  return r !== undefined && r[1] === mask.length && r[0] <= bits;
}

/** net.ParseMAC: 6, 8 or 20 octets as `xx:xx…`, `xx-xx…` or `xxxx.xxxx…`. */
export function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  const hex2 = (from: number) => /^[0-9a-fA-F]{2}$/.test(s.slice(from, from + 2));
  if (s[2] === ":" || s[2] === "-") {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0, x = 0; i < n; i++, x += 3) {
      if (!hex2(x) || (x + 2 < s.length && s[x + 2] !== s[2])) return false;
    }
    return true;
  }
  if (s[4] === ".") {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0, x = 0; i < n; i += 2, x += 5) {
      if (!hex2(x) || !hex2(x + 2) || (x + 4 < s.length && s[x + 4] !== ".")) return false;
    }
    return true;
  }
  return false;
}

/** net/url.ParseRequestURI (src/go): an absolute URI or an absolute path. */
export const isRequestURI = (s: string) => !(parseRequestURI(s) instanceof GoError);

const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\uffff]";
const dotAtom = `${atext}+(?:\\.${atext}+)*`;
const quoted = '"(?:[^"\\\\\\r\\n]|\\\\.)*"';
const addrSpec = `(?:${dotAtom}|${quoted})@(?:${dotAtom}|\\[[^[\\]\\\\]*\\])`;
const email = new RegExp(`^(?:\\s*${addrSpec}|[^<>@]*<${addrSpec}>)\\s*$`);

/** net/mail.ParseAddress, approximated: `addr@domain` or `Name <addr@domain>`. */
export const isEmail = (s: string) => s.length <= 4096 && email.test(s);

/** kube-openapi strfmt.HostnamePattern, run by RE2 as in Go (it has nested repetition). */
const hostnamePattern =
  "^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z0-9\\p{S}\\p{L}])(-?[a-zA-Z0-9\\p{S}\\p{L}]){1,62})$";
let hostnameRe: RE2JS | undefined;

export function isHostname(s: string): boolean {
  // Checked in this order by strfmt.IsHostname; the length test first spares the regexp.
  if (new TextEncoder().encode(s).length > 255) return false;
  hostnameRe ??= RE2JS.compile(hostnamePattern);
  if (!hostnameRe.test(s)) return false;
  return s.split(".").every((p) => new TextEncoder().encode(p).length <= 63);
}
