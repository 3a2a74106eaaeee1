import { RE2JS } from "@bufbuild/re2";
import { invalid, tooLong } from "../../findings/index.js";
import { getKey } from "../../value/index.js";
import { type Check, count, type Keyword, nameOf, openAPIPath } from "../types.js";

/**
 * `maxLength`, `minLength` (Unicode code points, as Go's utf8.RuneCount) and
 * `pattern` (Go RE2 syntax, partial match like regexp.MatchString), checked
 * in that order; kube-openapi's stringValidator stops at the first failure.
 *
 *   spec.x: Too long: may not be more than 10 bytes        (apimachinery's field.TooLong wording, although the count is in characters)
 *   spec.x: Invalid value: "ab": spec.x in body should be at least 3 chars long
 *   spec.x: Invalid value: "abc": spec.x in body should match '^[0-9]+$'
 */
const messages = {
  tooShort: (name: string, min: number) => `${name} in body should be at least ${min} chars long`,
  pattern: (name: string, pattern: string) => `${name} in body should match '${pattern}'`,
};

type Compiled = { re: RE2JS; memo: Map<string, boolean> } | { error: string };

/** Patterns compiled once per process: CRDs repeat the same patterns hundreds of times. */
const patterns = new Map<string, Compiled>();
const maxPatterns = 10_000;

export function compilePattern(pattern: string): Compiled {
  let c = patterns.get(pattern);
  if (c) return c;
  try {
    // RE2 is linear in the input: no backtracking blow-up, whatever the pattern.
    c = { re: RE2JS.compile(pattern), memo: new Map() };
  } catch (e) {
    c = { error: e instanceof Error ? e.message : String(e) };
  }
  if (patterns.size >= maxPatterns) patterns.clear();
  patterns.set(pattern, c);
  return c;
}

/**
 * RE2 in JavaScript costs microseconds per match, and manifests repeat the
 * same short strings (groups, kinds, names): recent results are remembered.
 */
function matches(c: { re: RE2JS; memo: Map<string, boolean> }, s: string): boolean {
  if (s.length > 256) return c.re.test(s);
  let r = c.memo.get(s);
  if (r === undefined) {
    r = c.re.test(s);
    if (c.memo.size >= 1024) c.memo.clear();
    c.memo.set(s, r);
  }
  return r;
}

/** Code points in `s`, counting no further than `limit + 1`. */
function codePoints(s: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < s.length && n <= limit; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

export const stringKeyword: Keyword = {
  name: "string",
  keywords: ["maxLength", "minLength", "pattern"],
  phase: "value",
  compile(schema, ctx): Check | undefined {
    const max = count(getKey(schema, "maxLength"));
    const min = count(getKey(schema, "minLength"));
    const rawPattern = getKey(schema, "pattern");
    let re: { re: RE2JS; memo: Map<string, boolean> } | undefined;
    let pattern = "";
    if (typeof rawPattern === "string" && rawPattern !== "") {
      const c = compilePattern(rawPattern);
      if ("re" in c) {
        re = c;
        pattern = rawPattern;
      } else {
        // apiextensions validation.go compiles every pattern with Go's regexp when the CRD is written.
        const detail = `must be a valid regular expression, but isn't: ${c.error}`;
        ctx.findings.push(invalid([...ctx.path, "pattern"], rawPattern, detail));
      }
    }
    if (max === undefined && (min === undefined || min === 0) && !re) return undefined;
    return (value, loc, run) => {
      if (typeof value !== "string") return undefined;
      // UTF-16 length bounds the code point count from above, so short strings skip counting.
      if (max !== undefined && value.length > max && codePoints(value, max) > max) {
        run.sink.push(tooLong(openAPIPath(loc), value, max));
      } else if (min !== undefined && min > 0 && codePoints(value, min) < min) {
        run.sink.push(invalid(openAPIPath(loc), value, messages.tooShort(nameOf(loc), min)));
      } else if (re && !matches(re, value)) {
        run.sink.push(invalid(openAPIPath(loc), value, messages.pattern(nameOf(loc), pattern)));
      }
      return undefined;
    };
  },
};
