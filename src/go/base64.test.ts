import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64, GoError } from "./index.js";

const offsetOf = (s: string) => {
  const r = decodeBase64(s);
  return r instanceof GoError ? r.message : -1;
};

// golang/go src/encoding/base64/base64_test.go, TestDecodeCorrupt: input and CorruptInputError offset (-1: valid).
describe("base64.StdEncoding.Decode (golang/go encoding/base64 TestDecodeCorrupt)", () => {
  it.each([
    ["", -1],
    ["\n", -1],
    ["AAA=\n", -1],
    ["AAAA\n", -1],
    ["!!!!", 0],
    ["====", 0],
    ["x===", 1],
    ["=AAA", 0],
    ["A=AA", 1],
    ["AA=A", 2],
    ["AA==A", 4],
    ["AAA=AAAA", 4],
    ["AAAAA", 4],
    ["AAAAAA", 4],
    ["A=", 1],
    ["A==", 1],
    ["AA=", 3],
    ["AA==", -1],
    ["AAA=", -1],
    ["AAAA", -1],
    ["AAAAAA=", 7],
    ["YWJjZA=====", 8],
    ["A!\n", 1],
    ["A=\n", 1],
  ])("%j: %i", (input, offset) => {
    expect(offsetOf(input)).toBe(offset === -1 ? -1 : `illegal base64 data at input byte ${offset}`);
  });

  it("reports a non-ASCII character at its byte offset, which is its index: everything before it is ASCII", () => {
    expect(offsetOf("QUJD\u00e9")).toBe("illegal base64 data at input byte 4");
  });

  it("decodes what the standard encoding writes, with newlines anywhere", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
        let text = btoa(String.fromCharCode(...bytes));
        for (const cut of cuts) {
          const at = cut % (text.length + 1);
          text = `${text.slice(0, at)}\r\n${text.slice(at)}`;
        }
        expect(decodeBase64(text)).toEqual(bytes);
      }),
    );
  });

  it("drops a final quantum's unused bits, as the non-strict encoding does", () => {
    expect(decodeBase64("Zm9=")).toEqual(Uint8Array.from([0x66, 0x6f]));
  });
});
