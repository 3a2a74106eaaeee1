/**
 * cel-go's strings extension (`ext.Strings`, the version the API server
 * enables), run by @bufbuild/cel's except for three functions. `replace` and
 * `split` are cel-go's (Go's strings.Replace and strings.SplitN): @bufbuild/cel's
 * replace rebuilds the whole string at each occurrence (quadratic: 40,000
 * characters took seconds), stops after as many replacements as the string
 * has characters and does nothing for a negative count; its split follows
 * JavaScript's limit, which drops the rest instead of keeping it in the last
 * item. Both are linear here, and split answers kunion's own list
 * (ArrayValue), whose items are read as they are, where @bufbuild/cel's list
 * converts each on every read. `reverse` (version 3) @bufbuild/cel lacks.
 */
import { ArrayValue, asCel } from "../language/values.js";
import { builtin, type Declaration, declare } from "./declaration.js";

/** Go's strings.Replace: the first `n` occurrences (all when n < 0); "" matches before each code point and at the end. */
export function replaceN(s: string, old: string, repl: string, n: number): string {
  if (n === 0 || old === repl) return s;
  const parts: string[] = [];
  let count = 0;
  if (old === "") {
    for (const c of s) {
      if (n >= 0 && count >= n) {
        parts.push(c);
        continue;
      }
      parts.push(repl, c);
      count++;
    }
    if (n < 0 || count < n) parts.push(repl);
    return parts.join("");
  }
  let last = 0;
  for (let i = s.indexOf(old); i !== -1 && (n < 0 || count < n); i = s.indexOf(old, last)) {
    parts.push(s.slice(last, i), repl);
    last = i + old.length;
    count++;
  }
  parts.push(s.slice(last));
  return parts.join("");
}

/** The length of `replaceN(s, old, repl, n)`, without building it. */
export function replacedLength(s: string, old: string, repl: string, n: number): number {
  if (n === 0 || old === repl) return s.length;
  let count = 0;
  if (old === "") count = Array.from(s).length + 1;
  else for (let i = s.indexOf(old); i !== -1 && (n < 0 || count < n); i = s.indexOf(old, i + old.length)) count++;
  if (n >= 0) count = Math.min(count, n);
  return s.length + count * (repl.length - old.length);
}

/** Go's strings.SplitN: at most `n` items, the last holding the rest (all when n < 0, none when n = 0); "" splits code points. */
export function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === "") {
    const chars = Array.from(s);
    if (n < 0 || n >= chars.length) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join("")];
  }
  // indexOf and slice rather than String.prototype.split, which took twice as long on short strings
  const out: string[] = [];
  let start = 0;
  while (n < 0 || out.length < n - 1) {
    const i = s.indexOf(sep, start);
    if (i === -1) break;
    out.push(s.slice(start, i));
    start = i + sep.length;
  }
  out.push(s.slice(start));
  return out;
}

/** A CEL int as Go's count: any negative one means all; one past the safe range is as good as all too. */
export const countOf = (n: bigint) =>
  n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : n < 0n ? -1 : Number(n);

export const STRINGS: readonly Declaration[] = [
  builtin(`
string.charAt(int) -> string
string.indexOf(string) -> int
string.indexOf(string, int) -> int
string.lastIndexOf(string) -> int
string.lastIndexOf(string, int) -> int
string.lowerAscii() -> string
string.upperAscii() -> string
string.substring(int) -> string
string.substring(int, int) -> string
string.trim() -> string
list<string>.join() -> string
list<string>.join(string) -> string
string.format(list<dyn>) -> string
strings.quote(string) -> string
`),
  declare("string.replace(string, string) -> string", function (this: string, old: string, repl: string) {
    return replaceN(this, old, repl, -1);
  }),
  declare(
    "string.replace(string, string, int) -> string",
    function (this: string, old: string, repl: string, n: bigint) {
      return replaceN(this, old, repl, countOf(n));
    },
  ),
  declare("string.split(string) -> list<string>", function (this: string, sep: string) {
    return asCel(new ArrayValue(splitN(this, sep, -1)));
  }),
  declare("string.split(string, int) -> list<string>", function (this: string, sep: string, n: bigint) {
    return asCel(new ArrayValue(splitN(this, sep, countOf(n))));
  }),
  declare("string.reverse() -> string", function (this: string) {
    return [...this].reverse().join("");
  }),
];
