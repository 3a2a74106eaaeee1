/**
 * Go's encoding/json scanner (scanner.go), as far as finding where a value
 * ends and where a text stops being JSON, and why, in its words; and what
 * json.Unmarshal into a map answers for a text. Offsets count UTF-16 code
 * units: Go counts bytes, which differ only past ASCII, where the words
 * are the same.
 */
import { quote } from "./error.js";

const isBlank = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function blanksFrom(text: string, from: number): number {
  let i = from;
  while (isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** Go's quoteChar (encoding/json scanner.go): the character in single quotes, escaped as strconv.Quote escapes it. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  return `'${quote(c).slice(1, -1)}'`;
}

export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * Go's encoding/json scanner, as far as finding where a value ends and where
 * a text stops being JSON, and why, in its words. Each method answers the
 * offset past what it read, or -1 with `failure` set. Iterative: nesting is
 * bounded by the text alone (reading the document refuses what nests too deeply).
 */
export class JsonScanner {
  failure?: { at: number; message: string };
  private start = 0;
  constructor(private readonly text: string) {}

  /** Past the value at `from` (after blanks). */
  value(from: number): number {
    const text = this.text;
    this.start = from;
    const open: number[] = []; // the `{` and `[` still open, innermost last
    let i = from;
    for (;;) {
      // A value begins at i, after blanks.
      i = blanksFrom(text, i);
      const c = text.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        i = blanksFrom(text, i + 1);
        if (text.charCodeAt(i) !== c + 2) {
          open.push(c);
          if (c === 0x7b) i = this.key(i);
          if (i < 0) return -1;
          continue;
        }
        i++; // `{}` or `[]`
      } else if (c === 0x22) i = this.string(i);
      else if (c === 0x2d || isDigit(c)) i = this.number(i);
      else i = this.literal(i);
      if (i < 0) return -1;
      // A value ended at i: close what it ends, then go on to the next entry.
      for (;;) {
        const inside = open[open.length - 1];
        if (inside === undefined) return i;
        i = blanksFrom(text, i);
        const next = text.charCodeAt(i);
        if (next === inside + 2) {
          open.pop();
          i++;
          continue;
        }
        if (next !== 0x2c) return this.fail(i, inside === 0x7b ? "after object key:value pair" : "after array element");
        i = inside === 0x7b ? this.key(blanksFrom(text, i + 1)) : i + 1;
        if (i < 0) return -1;
        break;
      }
    }
  }

  /** Go's words for the character at `at`, or io.ErrUnexpectedEOF's at the value's start when the text ends first. */
  private fail(at: number, context: string): number {
    this.failure =
      at >= this.text.length
        ? { at: this.start, message: "unexpected EOF" }
        : { at, message: `invalid character ${quoteChar(this.text.charAt(at))} ${context}` };
    return -1;
  }

  /** Past an object's key and its colon, from the key's quote at `at`. */
  private key(at: number): number {
    if (this.text.charCodeAt(at) !== 0x22) return this.fail(at, "looking for beginning of object key string");
    const end = this.string(at);
    if (end < 0) return -1;
    const colon = blanksFrom(this.text, end);
    return this.text.charCodeAt(colon) === 0x3a ? colon + 1 : this.fail(colon, "after object key");
  }

  /** Past the string whose quote is at `at`. */
  private string(at: number): number {
    const text = this.text;
    for (let i = at + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1;
      if (c < 0x20) return this.fail(i, "in string literal");
      if (c !== 0x5c) continue;
      i++;
      const escaped = text.charAt(i);
      if (escaped === "u") {
        for (let k = 1; k <= 4; k++)
          if (!isHex(text.charCodeAt(i + k))) return this.fail(i + k, "in \\u hexadecimal character escape");
        i += 4;
      } else if (escaped === "" || !'"\\/bfnrt'.includes(escaped)) return this.fail(i, "in string escape code");
    }
    return this.fail(text.length, "");
  }

  /** Past the number at `at`: a number ends at the first character that cannot continue it. */
  private number(at: number): number {
    const text = this.text;
    let i = at;
    if (text.charCodeAt(i) === 0x2d && !isDigit(text.charCodeAt(++i))) return this.fail(i, "in numeric literal");
    if (text.charCodeAt(i) === 0x30) i++;
    else while (isDigit(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === 0x2e) {
      if (!isDigit(text.charCodeAt(++i))) return this.fail(i, "after decimal point in numeric literal");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
      const sign = text.charCodeAt(++i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) return this.fail(i, "in exponent of numeric literal");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return i;
  }

  /** Past `true`, `false` or `null` at `at`; anything else begins no value. */
  private literal(at: number): number {
    const c = this.text.charAt(at);
    const word = c === "t" ? "true" : c === "f" ? "false" : c === "n" ? "null" : undefined;
    if (word === undefined) return this.fail(at, "looking for beginning of value");
    for (let k = 1; k < word.length; k++)
      if (this.text.charAt(at + k) !== word.charAt(k))
        return this.fail(at + k, `in literal ${word} (expecting '${word.charAt(k)}')`);
    return at + word.length;
  }
}

/**
 * What json.Unmarshal into a map[string]interface{} answers for `text`: a syntax error, or the top-level
 * value not an object (null unmarshals into a nil map), in Go's words; undefined when it succeeds.
 */
export function unmarshalIntoMapError(text: string): string | undefined {
  const from = blanksFrom(text, 0);
  if (from === text.length) return "unexpected end of JSON input";
  const scanner = new JsonScanner(text);
  const end = scanner.value(from);
  if (scanner.failure)
    return scanner.failure.message === "unexpected EOF" ? "unexpected end of JSON input" : scanner.failure.message;
  const after = blanksFrom(text, end);
  if (after < text.length) return `invalid character ${quoteChar(text.charAt(after))} after top-level value`;
  // an object fills the map, null leaves it nil; any other value is of the wrong kind
  const first = text.charAt(from);
  if (first === "{" || first === "n") return undefined;
  const kind = first === "[" ? "array" : first === '"' ? "string" : first === "t" || first === "f" ? "bool" : "number";
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}
