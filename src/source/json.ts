/**
 * JSON streams: a text of several JSON values one after another (`{…}{…}`,
 * or one per line as NDJSON), which kubectl reads value by value. Its decoder
 * (apimachinery util/yaml NewYAMLOrJSONDecoder) takes a text whose first
 * non-blank character is `{` to Go's encoding/json Decoder; once that has
 * read two values the text is a JSON stream to its end, and the first thing
 * that is not a JSON value is refused in the Decoder's words. After one value
 * or none the decoder reads on as YAML; kunion reads such a text as YAML from
 * its start (index.ts): the same documents, unless what follows the first
 * value is neither blanks nor a `---` line. Only where values begin and end
 * is found here: each value is then read as any document is.
 */
import { quote } from "../go/index.js";

/** Where the values of a JSON stream begin, and where and why the text stops being one. */
export interface JsonStream {
  /** The offset of each value, two or more. */
  starts: number[];
  /** After the values: what is no JSON value, from `start`, refused at `at` in Go's words (`message`). */
  broken?: { start: number; at: number; message: string };
}

/** The JSON stream a text is, as kubectl reads it; undefined for one value or none (the text is YAML then). */
export function jsonStream(text: string): JsonStream | undefined {
  let from = blanksFrom(text, text.charCodeAt(0) === 0xfeff ? 1 : 0); // kubectl drops a byte order mark
  if (text.charCodeAt(from) !== 0x7b || !valueAfterObject(text)) return undefined;
  const starts: number[] = [];
  const scanner = new Scanner(text);
  while (from < text.length) {
    const end = scanner.value(from);
    if (scanner.failure) return starts.length < 2 ? undefined : { starts, broken: { start: from, ...scanner.failure } };
    starts.push(from);
    from = blanksFrom(text, end);
  }
  return starts.length < 2 ? undefined : { starts };
}

/** Whether the text is one JSON value, blanks around it allowed. */
export function isJsonValue(text: string): boolean {
  const scanner = new Scanner(text);
  const end = scanner.value(blanksFrom(text, 0));
  return !scanner.failure && blanksFrom(text, end) === text.length;
}

const isBlank = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Whether a `}` is followed, past blanks, by what may begin a value: a stream
 * of values has one where its first value ends, one JSON value has none
 * outside its strings. Tells most single objects apart at the cost of an
 * indexOf (a regular expression costs five times as much).
 */
function valueAfterObject(text: string): boolean {
  for (let i = text.indexOf("}"); i >= 0; i = text.indexOf("}", i + 1)) {
    const c = text.charCodeAt(blanksFrom(text, i + 1));
    if (c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || isDigit(c) || c === 0x74 || c === 0x66 || c === 0x6e)
      return true;
  }
  return false;
}

function blanksFrom(text: string, from: number): number {
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

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * Go's encoding/json scanner, as far as finding where a value ends and where
 * a text stops being JSON, and why, in its words. Each method answers the
 * offset past what it read, or -1 with `failure` set. Iterative: nesting is
 * bounded by the text alone (reading the document refuses what nests too deeply).
 */
class Scanner {
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
