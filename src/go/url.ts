/**
 * Go's net/url (src/net/url/url.go): `parse` (url.Parse), `parseRequestURI`
 * (url.ParseRequestURI: an absolute URI or an absolute path, what the OpenAPI
 * `uri` format and CEL's `url()`/`isURL()` accept), and the URL methods the
 * Kubernetes CEL URL library calls: EscapedPath, Hostname, Port, Query.
 * Go works on UTF-8 bytes; here a string's bytes are its UTF-8 encoding and
 * decoded bytes that are not UTF-8 become U+FFFD.
 */
import { GoError, quote } from "./error.js";

export interface Userinfo {
  username: string;
  password: string | undefined;
}

export interface URL {
  scheme: string;
  opaque: string;
  user: Userinfo | undefined;
  host: string;
  path: string;
  rawPath: string;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

type Mode = "path" | "pathSegment" | "host" | "zone" | "userPassword" | "queryComponent" | "fragment";

const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const unhex = (c: number) => (c <= 57 ? c - 48 : c <= 70 ? c - 55 : c - 87);
const HOST_EXTRA = new Set("!$&'()*+,;=:[]<>\"");
const RESERVED = new Set("$&+,/:;=?@");

/** Go's shouldEscape for one byte. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === "host" || mode === "zone") && HOST_EXTRA.has(ch)) return false;
  if (ch === "-" || ch === "_" || ch === "." || ch === "~") return false;
  if (RESERVED.has(ch)) {
    switch (mode) {
      case "path":
        return ch === "?";
      case "pathSegment":
        return ch === "/" || ch === ";" || ch === "," || ch === "?";
      case "userPassword":
        return ch === "@" || ch === "/" || ch === "?" || ch === ":";
      case "queryComponent":
        return true;
      case "fragment":
        return false;
    }
  }
  if (mode === "fragment" && (ch === "!" || ch === "(" || ch === ")" || ch === "*")) return false;
  return true;
}

class Fail {
  constructor(readonly message: string) {}
}
const escapeError = (s: string) => new Fail(`invalid URL escape ${quote(s)}`);

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/** Go's unescape; a Fail carries its error. */
function unescapeIn(s: string, mode: Mode): string | Fail {
  let n = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 37 /* % */) {
      n++;
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2)))
        return escapeError(s.slice(i, i + 3));
      // In a host, %-encoding is only for non-ASCII bytes, and %25 (RFC 6874).
      if (mode === "host" && unhex(s.charCodeAt(i + 1)) < 8 && s.slice(i, i + 3) !== "%25")
        return escapeError(s.slice(i, i + 3));
      if (mode === "zone") {
        const v = (unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2));
        if (s.slice(i, i + 3) !== "%25" && v !== 32 && shouldEscape(v, "host")) return escapeError(s.slice(i, i + 3));
      }
      i += 3;
    } else {
      if (c === 43 /* + */) hasPlus = mode === "queryComponent";
      else if ((mode === "host" || mode === "zone") && c < 0x80 && shouldEscape(c, mode))
        return new Fail(`invalid character ${quote(s[i] as string)} in host name`);
      i++;
    }
  }
  if (n === 0 && !hasPlus) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      bytes.push((unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2)));
      i += 3;
    } else if (c < 0x80) {
      bytes.push(c === 43 && mode === "queryComponent" ? 32 : c);
      i++;
    } else {
      const cp = s.codePointAt(i) as number;
      for (const b of utf8.encode(String.fromCodePoint(cp))) bytes.push(b);
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return decoder.decode(new Uint8Array(bytes));
}

const UPPER_HEX = "0123456789ABCDEF";

/** Go's escape over the UTF-8 bytes of s. */
function escapeIn(s: string, mode: Mode): string {
  let out = "";
  for (const b of utf8.encode(s)) {
    if (b === 32 && mode === "queryComponent") out += "+";
    else if (shouldEscape(b, mode)) out += `%${UPPER_HEX[b >> 4]}${UPPER_HEX[b & 15]}`;
    else out += String.fromCharCode(b);
  }
  return out;
}

function getScheme(raw: string): [string, string] | Fail {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) continue;
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
      if (i === 0) return ["", raw];
      continue;
    }
    if (c === 58 /* : */) return i === 0 ? new Fail("missing protocol scheme") : [raw.slice(0, i), raw.slice(i + 1)];
    return ["", raw];
  }
  return ["", raw];
}

/** Empty, or `:` followed by digits. */
function validOptionalPort(port: string): boolean {
  return port === "" || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string | Fail {
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) return new Fail("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) return new Fail(`invalid port ${quote(colonPort)} after host`);
    // RFC 6874: %25 opens a zone identifier, which may %-encode more than a host may.
    const zone = host.slice(0, i).indexOf("%25");
    if (zone >= 0) {
      const parts = [unescapeIn(host.slice(0, zone), "host"), unescapeIn(host.slice(zone, i), "zone")];
      parts.push(unescapeIn(host.slice(i), "host"));
      for (const p of parts) if (p instanceof Fail) return p;
      return parts.join("");
    }
  } else {
    const i = host.lastIndexOf(":");
    if (i !== -1 && !validOptionalPort(host.slice(i)))
      return new Fail(`invalid port ${quote(host.slice(i))} after host`);
  }
  return unescapeIn(host, "host");
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parseAuthority(authority: string): { user: Userinfo | undefined; host: string } | Fail {
  const i = authority.lastIndexOf("@");
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (host instanceof Fail) return host;
  if (i < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, i);
  if (!USERINFO.test(userinfo)) return new Fail("net/url: invalid userinfo");
  const colon = userinfo.indexOf(":");
  const username = unescapeIn(colon < 0 ? userinfo : userinfo.slice(0, colon), "userPassword");
  if (username instanceof Fail) return username;
  if (colon < 0) return { user: { username, password: undefined }, host };
  const password = unescapeIn(userinfo.slice(colon + 1), "userPassword");
  if (password instanceof Fail) return password;
  return { user: { username, password }, host };
}

/** Go's setPath: Path decoded, RawPath only when the default encoding differs. */
function setPath(u: URL, p: string): Fail | undefined {
  const path = unescapeIn(p, "path");
  if (path instanceof Fail) return path;
  u.path = path;
  u.rawPath = escapeIn(path, "path") === p ? "" : p;
  return undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: Go refuses ASCII control bytes in a URL.
const CTL = /[\x00-\x1f\x7f]/;

function parseURL(raw: string, viaRequest: boolean): URL | Fail {
  if (CTL.test(raw)) return new Fail("net/url: invalid control character in URL");
  if (raw === "" && viaRequest) return new Fail("empty url");
  const u: URL = {
    scheme: "",
    opaque: "",
    user: undefined,
    host: "",
    path: "",
    rawPath: "",
    forceQuery: false,
    rawQuery: "",
    fragment: "",
    rawFragment: "",
  };
  if (raw === "*") {
    u.path = "*";
    return u;
  }
  const sr = getScheme(raw);
  if (sr instanceof Fail) return sr;
  let rest = sr[1];
  u.scheme = sr[0].toLowerCase();
  if (rest.endsWith("?") && rest.indexOf("?") === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf("?");
    if (q >= 0) [rest, u.rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  }
  if (!rest.startsWith("/")) {
    if (u.scheme !== "") {
      // A rootless path after a scheme is opaque (RFC 3986).
      u.opaque = rest;
      return u;
    }
    if (viaRequest) return new Fail("invalid URI for request");
    const slash = rest.indexOf("/");
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(":"))
      return new Fail("first path segment in URL cannot contain colon");
  }
  if ((u.scheme !== "" || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
    let authority = rest.slice(2);
    rest = "";
    const slash = authority.indexOf("/");
    if (slash >= 0) [authority, rest] = [authority.slice(0, slash), authority.slice(slash)];
    const a = parseAuthority(authority);
    if (a instanceof Fail) return a;
    u.user = a.user;
    u.host = a.host;
  }
  return setPath(u, rest) ?? u;
}

const urlError = (raw: string, f: Fail) => new GoError(`parse ${quote(raw)}: ${f.message}`);

/** `url.ParseRequestURI`: the message is Go's `*url.Error` text. */
export function parseRequestURI(raw: string): URL | GoError {
  const u = parseURL(raw, true);
  return u instanceof Fail ? urlError(raw, u) : u;
}

/** `url.Parse`: a URI reference, the fragment cut at the first `#`. */
export function parse(raw: string): URL | GoError {
  const hash = raw.indexOf("#");
  const head = hash < 0 ? raw : raw.slice(0, hash);
  const u = parseURL(head, false);
  if (u instanceof Fail) return urlError(head, u);
  const frag = hash < 0 ? "" : raw.slice(hash + 1);
  if (frag === "") return u;
  const fragment = unescapeIn(frag, "fragment");
  if (fragment instanceof Fail) return urlError(raw, fragment);
  u.fragment = fragment;
  u.rawFragment = escapeIn(fragment, "fragment") === frag ? "" : frag;
  return u;
}

const SUB_DELIMS = new Set("!$&'()*+,;=:@[]%");

/** Go's validEncoded for a path: nothing that would need escaping. */
function validEncodedPath(s: string): boolean {
  for (const b of utf8.encode(s)) if (!SUB_DELIMS.has(String.fromCharCode(b)) && shouldEscape(b, "path")) return false;
  return true;
}

/** `(*URL).EscapedPath`. */
export function escapedPath(u: URL): string {
  if (u.rawPath !== "" && validEncodedPath(u.rawPath) && unescapeIn(u.rawPath, "path") === u.path) return u.rawPath;
  if (u.path === "*") return "*";
  return escapeIn(u.path, "path");
}

/** Go's splitHostPort: a valid `:port` is cut off, then IPv6 brackets. */
function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = "";
  const colon = host.lastIndexOf(":");
  if (colon !== -1 && validOptionalPort(host.slice(colon)))
    [host, port] = [host.slice(0, colon), host.slice(colon + 1)];
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return [host, port];
}

/** `(*URL).Hostname`. */
export const hostname = (u: URL): string => splitHostPort(u.host)[0];
/** `(*URL).Port`. */
export const port = (u: URL): string => splitHostPort(u.host)[1];

/** `(*URL).Query`: url.ParseQuery, malformed pairs and pairs holding `;` skipped. */
export function query(u: URL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split("&")) {
    if (pair === "" || pair.includes(";")) continue;
    const eq = pair.indexOf("=");
    const key = unescapeIn(eq < 0 ? pair : pair.slice(0, eq), "queryComponent");
    const value = unescapeIn(eq < 0 ? "" : pair.slice(eq + 1), "queryComponent");
    if (key instanceof Fail || value instanceof Fail) continue;
    const list = out.get(key);
    if (list === undefined) out.set(key, [value]);
    else list.push(value);
  }
  return out;
}
