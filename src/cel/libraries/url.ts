/**
 * Kubernetes URL library (apiserver/pkg/cel/library/urls.go): `url`, `isURL`,
 * `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`,
 * `getQuery`, over Go's net/url rules in src/go.
 */
import type { CelValue } from "@bufbuild/cel";
import { escapedPath, GoError, hostname, parse, parseRequestURI, port, query, type URL } from "../../go/index.js";
import { ArrayValue, asCel, CelRuntimeError, MapView, OpaqueValue, opaqueOf, parses } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";

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

const asURL = (v: unknown) => opaqueOf(URLValue, v);

/** `getQuery()`'s map: each key's values as a list. */
class QueryValue extends MapView {
  constructor(private readonly m: Map<string, string[]>) {
    super();
  }
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
}

export const URLS: readonly Declaration[] = [
  declare("url(string) -> URL", (s: string) => asCel(new URLValue(s, parseURL(s)))),
  declare("isURL(string) -> bool", (s: string) => parses(() => parseURL(s))),
  declare("URL.getScheme() -> string", function (this: unknown) {
    return asURL(this).url.scheme;
  }),
  declare("URL.getHost() -> string", function (this: unknown) {
    return asURL(this).url.host;
  }),
  declare("URL.getHostname() -> string", function (this: unknown) {
    return hostname(asURL(this).url);
  }),
  declare("URL.getPort() -> string", function (this: unknown) {
    return port(asURL(this).url);
  }),
  declare("URL.getEscapedPath() -> string", function (this: unknown) {
    return escapedPath(asURL(this).url);
  }),
  declare("URL.getQuery() -> map<string, list<string>>", function (this: unknown) {
    return asCel(new QueryValue(query(asURL(this).url)));
  }),
];
