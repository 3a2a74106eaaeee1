/**
 * Go's `pem.Decode` (encoding/pem), as of the rewrite shipped in the Go
 * 1.24 and 1.25 security releases (linear time; read at Go 1.25.5, with the
 * bounds check that followed it): find the first line starting
 * "\n-----END ", then the last "-----BEGIN " before it that starts a line
 * (or the input). The BEGIN line must end in "-----" (trailing spaces and
 * tabs dropped); the type is what lies between. `Key: value` lines follow
 * as headers. The END line must carry the same type, then "-----", then
 * only spaces or tabs. The body, spaces and tabs removed, must be standard
 * padded base64 (newlines skipped). A candidate that fails any of this is
 * passed over and the search goes on after its END; when none is left the
 * result has no block and the whole input as the rest.
 *
 * Types and header text are the bytes read as UTF-8 (Go keeps raw bytes;
 * they differ only for invalid UTF-8). Imports only the base64 port.
 */
import { decodeBase64 } from "./base64.js";
import { trimSpace } from "./strings.js";

export interface PemBlock {
  /** The text after "-----BEGIN " and before the closing "-----", e.g. "RSA PRIVATE KEY". */
  type: string;
  /** The `Key: value` lines between the BEGIN line and the body, keys and values trimmed. */
  headers: Map<string, string>;
  /** The decoded body: usually DER. */
  bytes: Uint8Array;
}

export interface PemDecoded {
  /** The first well-formed block, or undefined when there is none. */
  block: PemBlock | undefined;
  /** What follows the block's END line (its line break consumed), or the whole input when no block was found. */
  rest: Uint8Array;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const BEGIN = ascii("-----BEGIN ");
const END = ascii("\n-----END ");
const DASHES = ascii("-----");
const utf8 = new TextDecoder();

function startsWith(data: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at < 0 || at + prefix.length > data.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[at + i] !== prefix[i]) return false;
  return true;
}

function indexOf(data: Uint8Array, needle: Uint8Array, from = 0): number {
  for (let i = from; i + needle.length <= data.length; i++) if (startsWith(data, i, needle)) return i;
  return -1;
}

/** The last index of `needle` that ends at or before `end`. */
function lastIndexOf(data: Uint8Array, needle: Uint8Array, end: number): number {
  for (let i = end - needle.length; i >= 0; i--) if (startsWith(data, i, needle)) return i;
  return -1;
}

const isBlank = (b: number | undefined) => b === 0x20 || b === 0x09;

/**
 * The first line (up to "\n" or "\r\n", trailing spaces and tabs dropped), what follows the
 * line break, and how many bytes the line and its break took.
 */
function getLine(data: Uint8Array): { line: Uint8Array; rest: Uint8Array; consumed: number } {
  let i = data.indexOf(0x0a);
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === 0x0d) i--;
  }
  while (i > 0 && isBlank(data[i - 1])) i--;
  return { line: data.subarray(0, i), rest: data.subarray(j), consumed: j };
}

function removeSpacesAndTabs(data: Uint8Array): Uint8Array {
  return data.some(isBlank) ? data.filter((b) => !isBlank(b)) : data;
}

/** Decode the first PEM block of `data`, as Go's pem.Decode does. */
export function decodePEM(data: Uint8Array): PemDecoded {
  const none: PemDecoded = { block: undefined, rest: data };
  let rest = data;
  let endTrailerIndex = 0;
  for (;;) {
    // Past the END line of the candidate that failed (none on the first round).
    if (endTrailerIndex < 0 || endTrailerIndex > rest.length) return none;
    rest = rest.subarray(endTrailerIndex);

    let endIndex = indexOf(rest, END);
    if (endIndex < 0) return none;
    endTrailerIndex = endIndex + END.length;
    const beginIndex = lastIndexOf(rest, BEGIN, endIndex);
    if (beginIndex < 0 || (beginIndex > 0 && rest[beginIndex - 1] !== 0x0a)) continue;
    // From here the two indexes count from the start of `rest` as it shrinks.
    const skip = beginIndex + BEGIN.length;
    rest = rest.subarray(skip);
    endIndex -= skip;
    endTrailerIndex -= skip;

    const first = getLine(rest);
    rest = first.rest;
    endIndex -= first.consumed;
    endTrailerIndex -= first.consumed;
    let typeLine = first.line;
    if (!startsWith(typeLine, typeLine.length - DASHES.length, DASHES)) continue;
    typeLine = typeLine.subarray(0, typeLine.length - DASHES.length);

    const headers = new Map<string, string>();
    let headerLines = 0;
    for (;;) {
      if (rest.length === 0) return none;
      const { line, rest: next, consumed } = getLine(rest);
      const colon = line.indexOf(0x3a);
      if (colon < 0) break;
      headers.set(trimSpace(utf8.decode(line.subarray(0, colon))), trimSpace(utf8.decode(line.subarray(colon + 1))));
      headerLines++;
      rest = next;
      endIndex -= consumed;
      endTrailerIndex -= consumed;
    }
    // With headers there must be a line break before the END line.
    if (headerLines > 0 && endIndex < 0) continue;

    const trailerLen = typeLine.length + DASHES.length;
    const endTrailer = rest.subarray(endTrailerIndex);
    if (endTrailer.length < trailerLen) continue;
    if (!startsWith(endTrailer, 0, typeLine) || !startsWith(endTrailer, typeLine.length, DASHES)) continue;
    // Only spaces and tabs may follow on the END line.
    if (getLine(endTrailer.subarray(trailerLen)).line.length !== 0) continue;

    let bytes: Uint8Array = new Uint8Array(0);
    if (endIndex > 0) {
      const body = removeSpacesAndTabs(rest.subarray(0, endIndex));
      let text = "";
      for (const b of body) text += String.fromCharCode(b);
      const decoded = decodeBase64(text);
      if (!(decoded instanceof Uint8Array)) continue;
      bytes = decoded;
    }
    // The END line may have matched without its leading newline when the body was empty.
    const after = getLine(rest.subarray(endIndex + END.length - 1)).rest;
    return { block: { type: utf8.decode(typeLine), headers, bytes }, rest: after };
  }
}
