import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { escapedPath, GoError, hostname, parse, parseRequestURI, port, query, type URL } from "./index.js";

type Fields = Partial<Omit<URL, "user">> & { username?: string; password?: string };
interface Cases {
  empty: Omit<URL, "user">;
  parse: (Fields & { in: string })[];
  parseRequestURI: { in: string; ok: boolean }[];
  parseErrors: { in: string; wantErr: boolean }[];
  hostnameAndPort: { host: string; hostname: string; port: string }[];
  escapedPath: { path: string; rawPath?: string; want: string }[];
  query: { rawQuery: string; values: Record<string, string[]> }[];
}
const cases: Cases = parseYaml(readFileSync(new URL("./url.cases.yaml", import.meta.url), "utf8"));

/** A URL with the given fields, every other one as Go's zero URL has it. */
function urlWith({ in: _, username, password, ...rest }: Fields & { in?: string }): URL {
  return { ...cases.empty, ...rest, user: username === undefined ? undefined : { username, password } };
}

describe("url.Parse (golang/go src/net/url/url_test.go urltests)", () => {
  it.each(cases.parse)("$in", (c) => {
    expect(parse(c.in)).toEqual(urlWith(c));
  });
  it.each(cases.parseErrors)("$in: error=$wantErr", (c) => {
    expect(parse(c.in) instanceof GoError).toBe(c.wantErr);
  });
});

describe("url.ParseRequestURI (parseRequestURLTests)", () => {
  it.each(cases.parseRequestURI)("$in: ok=$ok", (c) => {
    expect(parseRequestURI(c.in) instanceof GoError).toBe(!c.ok);
  });
  it("keeps a path that looks scheme-relative as a path", () => {
    expect((parseRequestURI("//not.a.user@not.a.host/just/a/path") as URL).path).toBe(
      "//not.a.user@not.a.host/just/a/path",
    );
  });
  it("gives Go's *url.Error text", () => {
    expect((parseRequestURI("foo.html") as GoError).message).toBe('parse "foo.html": invalid URI for request');
    expect((parseRequestURI("http://192.168.0.%31/") as GoError).message).toBe(
      'parse "http://192.168.0.%31/": invalid URL escape "%31"',
    );
    expect((parseRequestURI("http://a b/") as GoError).message).toBe(
      'parse "http://a b/": invalid character " " in host name',
    );
  });
  it("accepts only what url.Parse also accepts", () => {
    // Without a scheme, a request URI's leading `//` starts a path (Go parses an authority only for
    // Parse), so `// ` is a valid request path and an invalid host: those inputs are left out.
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z:/?#%@[\]0-9. ]{0,16}$/), (s) => {
        if (!(parseRequestURI(s) instanceof GoError) && !s.includes("#") && !s.startsWith("//"))
          expect(parse(s)).not.toBeInstanceOf(GoError);
      }),
    );
    expect(parseRequestURI("// ")).toMatchObject({ host: "", path: "// " });
    expect((parse("// ") as GoError).message).toBe('parse "// ": invalid character " " in host name');
  });
});

describe("URL methods (url_test.go TestURLHostnameAndPort, requritests, parseTests)", () => {
  it.each(cases.hostnameAndPort)("$host", (c) => {
    const u = urlWith({ host: c.host });
    expect([hostname(u), port(u)]).toEqual([c.hostname, c.port]);
  });
  it.each(cases.escapedPath)("$path ($rawPath) escapes as $want", (c) => {
    expect(escapedPath(urlWith({ path: c.path, rawPath: c.rawPath ?? "" }))).toBe(c.want);
  });
  it.each(cases.query)("$rawQuery", (c) => {
    expect(Object.fromEntries(query(urlWith({ rawQuery: c.rawQuery })))).toEqual(c.values);
  });
});
