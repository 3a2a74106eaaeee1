import { describe, expect, it } from "vitest";
import { parseSource } from "./index.js";
import { decodeText } from "./text.js";

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

describe("decodeText", () => {
  it("decodes UTF-8, a byte order mark and U+FFFD written as such included", () => {
    const text = "\uFEFFa: \u00e9\u2603\u{1F600} \uFFFD\n";
    expect(decodeText(Buffer.from(text), "f.yaml")).toEqual({ text });
  });

  it("refuses bytes that are not UTF-8 at the first of them, in go-yaml's words", () => {
    const cases: Array<[Buffer, number, number, string]> = [
      [bytes('data:\n  x: "a', [0xff, 0xfe], 'b"\n'), 2, 8, "invalid leading UTF-8 octet 0xff"],
      // At the trailing byte, as go-yaml: the lead before it counts as one character.
      [bytes("\u00e9\u2603 k: ", [0xe2, 0x41, 0x42]), 1, 8, "invalid trailing UTF-8 octet 0x41"],
      [bytes("a: ", [0xc0, 0xaf]), 1, 4, "invalid length of a UTF-8 sequence 0xc0"],
      [bytes("a: ", [0xed, 0xa0, 0x80]), 1, 4, "invalid Unicode character 0xed"],
      [bytes("a: ", [0xf4, 0x90, 0x80, 0x80]), 1, 4, "invalid Unicode character 0xf4"],
      [bytes("a\nb\r\nc: ", [0xe2, 0x82]), 3, 4, "incomplete UTF-8 octet sequence 0xe2"],
      [bytes([0x80]), 1, 1, "invalid leading UTF-8 octet 0x80"],
    ];
    for (const [input, line, column, problem] of cases) {
      const { text, notUtf8 } = decodeText(input, "f.yaml");
      expect(text).toContain("\uFFFD");
      expect(notUtf8).toMatchObject({
        file: "f.yaml",
        line,
        column,
        severity: "error",
        rule: "parse",
        message: `Invalid document: input is not UTF-8 text: ${problem}`,
      });
    }
  });

  it("leaves binary input (NUL bytes) to parseSource, which refuses it whole", () => {
    const { text, notUtf8 } = decodeText(bytes([0x89], "PNG\r\n", [0x1a, 0x0a, 0x00, 0xff]), "p.yaml");
    expect(notUtf8).toBeUndefined();
    expect(parseSource(text, "p.yaml").findings.map((f) => f.message)).toEqual([
      "Invalid document: input is binary, not YAML or JSON",
    ]);
  });
});
