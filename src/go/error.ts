/** A parse failure, carrying the message Go's own function returns. Not an Error: no stack is captured on the hot path. */
export class GoError {
  constructor(readonly message: string) {}
}

const utf8 = new TextEncoder();
const hex = (b: number) => `\\x${b.toString(16).padStart(2, "0")}`;

/**
 * The `quote` of Go's time package (time/format.go): ASCII kept, `"` and `\`
 * escaped, every byte of a control or non-ASCII character written as `\xNN`.
 */
export function quoteTime(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80 || c < 0x20) for (const b of utf8.encode(ch)) out += hex(b);
    else out += c === 0x22 || c === 0x5c ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

const named: Record<string, string> = {
  "\u0007": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  '"': '\\"',
  "\\": "\\\\",
};

/** Go's `strconv.Quote` (what `%q` prints) for valid text: printable characters kept, controls escaped. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    const esc = named[ch];
    if (esc !== undefined) out += esc;
    else if (c < 0x20 || c === 0x7f) out += hex(c);
    else if ((c >= 0x80 && c < 0xa0) || (c >= 0xd800 && c < 0xe000))
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
