import { RE2JS } from "@bufbuild/re2";
import { GoError, parseCIDRSloppy, parseIPSloppy, parseRequestURI } from "../go/index.js";

/**
 * Network formats as kube-openapi's strfmt checks them with Go's parsers:
 * ipv4/cidr with k8s.io/utils/net's ParseIPSloppy/ParseCIDRSloppy (leading
 * zeros allowed, as before Go 1.17), ipv6 with net.ParseIP, mac with
 * net.ParseMAC, uri with net/url.ParseRequestURI, email with
 * net/mail.ParseAddress (approximated), hostname with strfmt's pattern.
 */

/** ParseIPSloppy (src/go): the first '.' or ':' decides the family; the format asks for the one it names. */
export const isIPv4 = (s: string) => parseIPSloppy(s) !== undefined && s.includes(".");
export const isIPv6 = (s: string) => parseIPSloppy(s) !== undefined && s.includes(":");

/** ParseCIDRSloppy (src/go): address, '/', a prefix length within the family's bits. */
export const isCIDR = (s: string) => parseCIDRSloppy(s) !== undefined;

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
