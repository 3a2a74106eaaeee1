/**
 * Go's `base64.StdEncoding.DecodeString` (encoding/base64), what a `[]byte`
 * field decodes its JSON string with (a Secret's data, a CSR's request):
 * the standard alphabet, padded quanta, `\r` and `\n` skipped anywhere, the
 * empty string valid. Not strict: a quantum's unused low bits are dropped.
 * Errors are Go's CorruptInputError, at the offset Go reports.
 */
import { GoError } from "./error.js";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const values = new Int8Array(128).fill(-1);
for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;

const corrupt = (offset: number) => new GoError(`illegal base64 data at input byte ${offset}`);
const isNewline = (c: number) => c === 10 || c === 13;

/**
 * The decoded bytes, or Go's error. Offsets count bytes; every character
 * before the first error is ASCII, so they are string indexes too.
 */
export function decodeBase64(s: string): Uint8Array | GoError {
  const out: number[] = [];
  let si = 0;
  const quantum = [0, 0, 0, 0];
  while (si < s.length) {
    // Go's decodeQuantum: up to four symbols, newlines skipped.
    let filled = 4;
    quantum.fill(0);
    for (let j = 0; j < 4; j++) {
      if (si === s.length) {
        if (j === 0) return Uint8Array.from(out);
        // Padding is required: an unfinished quantum is corrupt (at Go's offset, newlines not counted back).
        return corrupt(si - j);
      }
      const c = s.charCodeAt(si);
      si++;
      const v = c < 128 ? (values[c] as number) : -1;
      if (v >= 0) {
        quantum[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== 61 /* = */ || j < 2) return corrupt(si - 1);
      if (j === 2) {
        // "==": the second "=" may follow newlines.
        while (si < s.length && isNewline(s.charCodeAt(si))) si++;
        if (si === s.length) return corrupt(s.length);
        if (s.charCodeAt(si) !== 61) return corrupt(si - 1);
        si++;
      }
      while (si < s.length && isNewline(s.charCodeAt(si))) si++;
      if (si < s.length) return corrupt(si);
      filled = j;
      break;
    }
    const [a, b, c, d] = quantum as [number, number, number, number];
    const bits = (a << 18) | (b << 12) | (c << 6) | d;
    out.push((bits >> 16) & 0xff);
    if (filled > 2) out.push((bits >> 8) & 0xff);
    if (filled > 3) out.push(bits & 0xff);
  }
  return Uint8Array.from(out);
}
