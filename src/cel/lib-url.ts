/**
 * Kubernetes URL library (apiserver/pkg/cel/library/urls.go): `url`, `isURL`,
 * `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`,
 * `getQuery`, over Go's net/url rules in src/go.
 */
import { CelScalar, type CelValue, celFunc, celMethod } from "@bufbuild/cel";
import { escapedPath, GoError, hostname, parse, parseRequestURI, port, query, type URL } from "../go/index.js";
import { decls } from "./decls.js";
import { ArrayValue, asCel, CelRuntimeError, OpaqueValue } from "./values.js";

const { STRING, BOOL, DYN } = CelScalar;

/** Go `url.ParseRequestURI` to accept, then `url.Parse` for the parts, as `url()` does. */
export function parseURL(raw: string): URL {
  const checked = parseRequestURI(raw);
  // Parse again: ParseRequestURI leaves a fragment in the path or query.
  const u = checked instanceof GoError ? checked : parse(raw);
  if (u instanceof GoError) throw new CelRuntimeError(`URL parse error during conversion from string: ${u.message}`);
  return u;
}

export class URLValue extends OpaqueValue {
  readonly celTypeName = "kubernetes.URL";
  constructor(
    readonly raw: string,
    readonly url: URL,
  ) {
    super();
  }
  equals(other: unknown): boolean {
    return other instanceof URLValue && other.raw === this.raw;
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
    return hostname(asURL(this).url);
  }),
  celMethod("getPort", DYN, [], STRING, function () {
    return port(asURL(this).url);
  }),
  celMethod("getEscapedPath", DYN, [], STRING, function () {
    return escapedPath(asURL(this).url);
  }),
  celMethod("getQuery", DYN, [], DYN, function () {
    return asCel(new QueryValue(query(asURL(this).url)));
  }),
];
