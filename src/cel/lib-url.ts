/**
 * Kubernetes URL library (apiserver/pkg/cel/library/urls.go): `url`, `isURL`,
 * `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`,
 * `getQuery`. Parsing follows Go's `net/url` (`ParseRequestURI` to accept,
 * `Parse` for the parts).
 */
import { CelScalar, type CelValue, celFunc, celMethod } from "@bufbuild/cel";
import { decls } from "./decls.js";
import { ArrayValue, asCel, CelRuntimeError, OpaqueValue } from "./values.js";

const { STRING, BOOL, DYN } = CelScalar;

export interface ParsedURL {
  scheme: string;
  opaque: string;
  user: string | undefined;
  host: string;
  path: string;
  rawPath: string;
  rawQuery: string;
  fragment: string;
}

class URLError extends Error {}

function isHex(c: string) {
  return /^[0-9a-fA-F]$/.test(c);
}

function urlUnescape(s: string, mode: "path" | "host" | "query" | "fragment"): string {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    if (s.charAt(i) === "%") {
      n++;
      if (i + 2 >= s.length || !isHex(s.charAt(i + 1)) || !isHex(s.charAt(i + 2)))
        throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      i += 3;
    } else {
      if (mode === "host" && s.charCodeAt(i) < 0x80 && !shouldNotEscapeHost(s.charAt(i)))
        throw new URLError(`invalid character "${s.charAt(i)}" in host name`);
      i++;
    }
  }
  if (n === 0 && mode !== "query") return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s.charAt(i);
    if (c === "%") {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else if (c === "+" && mode === "query") {
      bytes.push(32);
      i++;
    } else {
      const cp = s.codePointAt(i) as number;
      for (const b of enc.encode(String.fromCodePoint(cp))) bytes.push(b);
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function shouldNotEscapeHost(c: string): boolean {
  return /[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/.test(c);
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charAt(i);
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ["", raw];
      continue;
    }
    if (c === ":") {
      if (i === 0) throw new URLError("missing protocol scheme");
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ["", raw];
  }
  return ["", raw];
}

function validOptionalPort(port: string): boolean {
  if (port === "") return true;
  if (port.charAt(0) !== ":") return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function parseHost(host: string): string {
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port "${colonPort}" after host`);
    return urlUnescape(host, "host");
  }
  const i = host.lastIndexOf(":");
  if (i !== -1) {
    const colonPort = host.slice(i);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port "${colonPort}" after host`);
  }
  return urlUnescape(host, "host");
}

function parseAuthority(authority: string): { user: string | undefined; host: string } {
  const i = authority.lastIndexOf("@");
  if (i < 0) return { user: undefined, host: parseHost(authority) };
  const userinfo = authority.slice(0, i);
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:%@]*$/.test(userinfo)) throw new URLError("net/url: invalid userinfo");
  return { user: urlUnescape(userinfo, "path"), host: parseHost(authority.slice(i + 1)) };
}

/** Go `url.parse(rawURL, viaRequest)` without the fragment. */
function parse(rawURL: string, viaRequest: boolean): ParsedURL {
  for (let i = 0; i < rawURL.length; i++) {
    const c = rawURL.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) throw new URLError("net/url: invalid control character in URL");
  }
  if (rawURL === "" && viaRequest) throw new URLError("empty url");
  const u: ParsedURL = {
    scheme: "",
    opaque: "",
    user: undefined,
    host: "",
    path: "",
    rawPath: "",
    rawQuery: "",
    fragment: "",
  };
  if (rawURL === "*") {
    u.path = "*";
    return u;
  }
  let [scheme, rest] = getScheme(rawURL);
  u.scheme = scheme.toLowerCase();
  if (rest.endsWith("?") && rest.split("?").length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf("?");
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith("/")) {
    if (u.scheme !== "") {
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new URLError("invalid URI for request");
    const colon = rest.indexOf(":");
    const slash = rest.indexOf("/");
    if (colon >= 0 && (slash < 0 || colon < slash))
      throw new URLError("first path segment in URL cannot contain colon");
  }
  if ((u.scheme !== "" || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
    let authority = rest.slice(2);
    let after = "";
    const slash = authority.indexOf("/");
    if (slash >= 0) {
      after = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const a = parseAuthority(authority);
    u.user = a.user;
    u.host = a.host;
    rest = after;
  } else if (u.scheme !== "" && rest.startsWith("/")) {
    // no authority
  }
  u.path = urlUnescape(rest, "path");
  u.rawPath = rest;
  return u;
}

/** Go `url.ParseRequestURI` then `url.Parse`, as `url()` does. */
export function parseURL(raw: string): ParsedURL {
  try {
    parse(raw, true);
    let rest = raw;
    let fragment = "";
    const hash = raw.indexOf("#");
    if (hash >= 0) {
      fragment = raw.slice(hash + 1);
      rest = raw.slice(0, hash);
    }
    const u = parse(rest, false);
    u.fragment = urlUnescape(fragment, "fragment");
    return u;
  } catch (e) {
    throw new CelRuntimeError(
      `URL parse error during conversion from string: parse ${JSON.stringify(raw)}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = "";
  const colon = host.lastIndexOf(":");
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return [host, port];
}

function escapePath(p: string): string {
  const enc = new TextEncoder();
  let out = "";
  for (const ch of p) {
    if (/[A-Za-z0-9\-._~$&+,/:;=@!'()*]/.test(ch)) out += ch;
    else for (const b of enc.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export class URLValue extends OpaqueValue {
  readonly celTypeName = "kubernetes.URL";
  constructor(
    readonly raw: string,
    readonly url: ParsedURL,
  ) {
    super();
  }
  equals(other: unknown): boolean {
    return other instanceof URLValue && other.raw === this.raw;
  }
  escapedPath(): string {
    const { rawPath, path } = this.url;
    try {
      if (rawPath !== "" && urlUnescape(rawPath, "path") === path) return rawPath;
    } catch {
      // fall through
    }
    if (path === "*") return "*";
    return escapePath(path);
  }
  query(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const part of this.url.rawQuery.split("&")) {
      if (part === "" || part.includes(";")) continue;
      const eq = part.indexOf("=");
      const k = eq < 0 ? part : part.slice(0, eq);
      const v = eq < 0 ? "" : part.slice(eq + 1);
      try {
        const key = urlUnescape(k, "query");
        const val = urlUnescape(v, "query");
        const list = out.get(key);
        if (list === undefined) out.set(key, [val]);
        else list.push(val);
      } catch {
        // invalid escapes are skipped, as url.ParseQuery does
      }
    }
    return out;
  }
}

function asURL(v: unknown): URLValue {
  if (!(v instanceof URLValue)) throw new CelRuntimeError("no such overload");
  return v;
}

/** A CEL map value over `Map<string, string[]>`. */
const MAP_MARK = Symbol.for("@bufbuild/cel/map");
class QueryValue {
  readonly [MAP_MARK] = {};
  constructor(private readonly m: Map<string, string[]>) {}
  get size() {
    return this.m.size;
  }
  get(k: unknown): CelValue | undefined {
    const v = typeof k === "string" ? this.m.get(k) : undefined;
    return v === undefined ? undefined : asCel(new ArrayValue(v));
  }
  has(k: unknown): boolean {
    return typeof k === "string" && this.m.has(k);
  }
  keys() {
    return this.m.keys();
  }
  *values() {
    for (const k of this.m.keys()) yield this.get(k);
  }
  *entries() {
    for (const k of this.m.keys()) yield [k, this.get(k)];
  }
  forEach(cb: (v: unknown, k: string, m: unknown) => void) {
    for (const k of this.m.keys()) cb(this.get(k), k, this);
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}

export const URL_DECLS = decls(`
url(string) -> URL
isURL(string) -> bool
URL.getScheme() -> string
URL.getHost() -> string
URL.getHostname() -> string
URL.getPort() -> string
URL.getEscapedPath() -> string
URL.getQuery() -> map<string, list<string>>
`);

export const URL_FUNCS = [
  celFunc("url", [STRING], DYN, (s: string) => asCel(new URLValue(s, parseURL(s)))),
  celFunc("isURL", [STRING], BOOL, (s: string) => {
    try {
      parseURL(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod("getScheme", DYN, [], STRING, function () {
    return asURL(this).url.scheme;
  }),
  celMethod("getHost", DYN, [], STRING, function () {
    return asURL(this).url.host;
  }),
  celMethod("getHostname", DYN, [], STRING, function () {
    return splitHostPort(asURL(this).url.host)[0];
  }),
  celMethod("getPort", DYN, [], STRING, function () {
    return splitHostPort(asURL(this).url.host)[1];
  }),
  celMethod("getEscapedPath", DYN, [], STRING, function () {
    return asURL(this).escapedPath();
  }),
  celMethod("getQuery", DYN, [], DYN, function () {
    return asCel(new QueryValue(asURL(this).query()));
  }),
];
