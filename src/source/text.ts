/**
 * Bytes → text. Kubernetes reads UTF-8 alone: go-yaml refuses any other byte
 * sequence, so kubectl refuses the file, and decoding it with replacement
 * characters would change it without a word. Bytes that are not UTF-8 are a
 * parse error at the first of them, in go-yaml's words (readerc.go).
 */
import { type Finding, parseError } from "../findings/index.js";

// A byte order mark stays in the text, as the file has it: parseSource reads past it, normalize prints it back.
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

export interface DecodedText {
  text: string;
  /**
   * Set when the bytes are not UTF-8: the file is then not read, and `text`
   * (its bad bytes as U+FFFD) is for nothing but display.
   */
  notUtf8?: Finding;
}

export function decodeText(bytes: Uint8Array, file: string): DecodedText {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    const text = lenient.decode(bytes);
    // NUL bytes: a binary file, which parseSource refuses as a whole.
    if (bytes.includes(0)) return { text };
    // The strict decoder refused the bytes, so some sequence is not UTF-8.
    const { at, problem } = firstInvalid(bytes) as Invalid;
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    // Columns count UTF-16 code units, as every other position does; the bytes before `at` are UTF-8.
    const column = lenient.decode(bytes.subarray(lineStart, at)).length + 1;
    const byte = `0x${(bytes[at] as number).toString(16).padStart(2, "0")}`;
    return { text, notUtf8: { ...parseError(`input is not UTF-8 text: ${problem} ${byte}`), file, line, column } };
  }
}

interface Invalid {
  at: number;
  problem: string;
}

/** The first sequence that is not UTF-8, as go-yaml's reader checks them, in its order and words. */
function firstInvalid(bytes: Uint8Array): Invalid | undefined {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const width = (lead & 0xe0) === 0xc0 ? 2 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf8) === 0xf0 ? 4 : 0;
    if (width === 0) return { at: i, problem: "invalid leading UTF-8 octet" };
    if (i + width > bytes.length) return { at: i, problem: "incomplete UTF-8 octet sequence" };
    let value = lead & (0x7f >> width);
    for (let k = 1; k < width; k++) {
      const trailing = bytes[i + k] as number;
      if ((trailing & 0xc0) !== 0x80) return { at: i + k, problem: "invalid trailing UTF-8 octet" };
      value = (value << 6) | (trailing & 0x3f);
    }
    if (value < (width === 2 ? 0x80 : width === 3 ? 0x800 : 0x10000))
      return { at: i, problem: "invalid length of a UTF-8 sequence" };
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff)
      return { at: i, problem: "invalid Unicode character" };
    i += width;
  }
  return undefined;
}
