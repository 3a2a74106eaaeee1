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
import { blanksFrom, isDigit, JsonScanner } from "../go/index.js";

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
  const scanner = new JsonScanner(text);
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
  const scanner = new JsonScanner(text);
  const end = scanner.value(blanksFrom(text, 0));
  return !scanner.failure && blanksFrom(text, end) === text.length;
}

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
