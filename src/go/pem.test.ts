/**
 * decodePEM against Go's encoding/pem Decode (pem.go, as rewritten in the Go 1.24/1.25 security
 * releases and fixed for golang/go#75950) and the kinds of input pem_test.go exercises: TestDecode's
 * headers and empty blocks, TestBadDecode's near misses, CRLF and trailing blanks, leading garbage.
 */
import { describe, expect, it } from "vitest";
import { decodePEM } from "./pem.js";

const text = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array) => new TextDecoder().decode(b);

function decode(s: string) {
  const { block, rest } = decodePEM(text(s));
  return {
    block: block && { type: block.type, headers: Object.fromEntries(block.headers), bytes: str(block.bytes) },
    rest: str(rest),
  };
}

describe("blocks Decode returns", () => {
  it("a block and what follows its END line", () => {
    expect(decode("-----BEGIN FOO-----\ndGVzdA==\n-----END FOO-----\nrest")).toEqual({
      block: { type: "FOO", headers: {}, bytes: "test" },
      rest: "rest",
    });
  });

  it("headers, then a blank line, then the body (TestDecode's Proc-Type and DEK-Info)", () => {
    const input =
      "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: DES-EDE3-CBC,80C7C7A09690757A\n\ndGVzdA==\n-----END RSA PRIVATE KEY-----\n";
    expect(decode(input).block).toEqual({
      type: "RSA PRIVATE KEY",
      headers: { "Proc-Type": "4,ENCRYPTED", "DEK-Info": "DES-EDE3-CBC,80C7C7A09690757A" },
      bytes: "test",
    });
  });

  it("an empty body: the END line may follow the BEGIN line directly", () => {
    expect(decode("-----BEGIN EMPTY-----\n-----END EMPTY-----\nx")).toEqual({
      block: { type: "EMPTY", headers: {}, bytes: "" },
      rest: "x",
    });
  });

  it("CRLF line ends, trailing blanks, spaces and tabs inside the base64", () => {
    const input = "-----BEGIN FOO-----  \r\ndGVz\tdA ==\r\n-----END FOO----- \t\r\nnext";
    expect(decode(input)).toEqual({ block: { type: "FOO", headers: {}, bytes: "test" }, rest: "next" });
  });

  it("text before the BEGIN line (golang/go#75950)", () => {
    expect(decode("garbage\nmore garbage\n-----BEGIN FOO-----\ndGVzdA==\n-----END FOO-----").block?.bytes).toBe("test");
  });

  it("a candidate that fails is passed over and the search goes on", () => {
    const badBase64 = "-----BEGIN A-----\n!!!!\n-----END A-----\n";
    const good = "-----BEGIN B-----\ndGVzdA==\n-----END B-----\n";
    expect(decode(badBase64 + good).block?.type).toBe("B");
    const mismatchedEnd = "-----BEGIN A-----\ndGVzdA==\n-----END C-----\n";
    expect(decode(mismatchedEnd + good).block?.type).toBe("B");
  });

  it("of BEGIN lines before the first END, the last one starts the block", () => {
    expect(decode("-----BEGIN A-----\n-----BEGIN B-----\ndGVzdA==\n-----END B-----\n").block?.type).toBe("B");
  });

  it("successive blocks, each call returning the next", () => {
    const first = decodePEM(
      text("-----BEGIN A-----\nYQ==\n-----END A-----\n-----BEGIN B-----\nYg==\n-----END B-----\n"),
    );
    expect(first.block?.type).toBe("A");
    const second = decodePEM(first.rest);
    expect(second.block?.type).toBe("B");
    expect(second.rest.length).toBe(0);
    expect(decodePEM(second.rest).block).toBeUndefined();
  });
});

describe("no block: the whole input comes back (TestBadDecode and kin)", () => {
  it.each([
    ["empty input", ""],
    ["no PEM at all", "just text"],
    ["BEGIN without END", "-----BEGIN FOO-----\ndGVzdA==\n"],
    ["END type differs", "-----BEGIN FOO-----\ndGVzdA==\n-----END BAR-----\n"],
    ["too few dashes after END", "-----BEGIN FOO-----\ndGVzdA==\n-----END FOO----\n"],
    ["text after the END dashes", "-----BEGIN FOO-----\ndGVzdA==\n-----END FOO----- trailing\n"],
    ["type line not ending in dashes", "-----BEGIN FOO\ndGVzdA==\n-----END FOO-----\n"],
    ["BEGIN not at the start of a line", "x-----BEGIN FOO-----\ndGVzdA==\n-----END FOO-----\n"],
    ["invalid base64", "-----BEGIN FOO-----\ndGVzdA=\n-----END FOO-----\n"],
    [
      "a header line right before END: headers need a line break before it",
      "-----BEGIN FOO-----\nk: v\n-----END FOO-----\n",
    ],
  ])("%s", (_, input) => {
    const { block, rest } = decode(input);
    expect(block).toBeUndefined();
    expect(rest).toBe(input);
  });
});
