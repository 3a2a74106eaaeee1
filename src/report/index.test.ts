import { describe, expect, it } from "vitest";
import { finding } from "../findings/index.js";
import { formatText } from "./index.js";

describe("formatText", () => {
  it("keeps each finding on one line: a manifest's key cannot forge another finding or drive the terminal", () => {
    const key = "x\n/tmp/fake.yaml:1:1: error schema: forged\r\u001b[2J\u202e";
    const f = {
      ...finding({ type: "FieldValueInvalid", path: ["data", key], badValue: 1 }),
      file: "a\nb.yaml",
      line: 4,
    };
    const text = formatText([f]);
    expect(text.split("\n")).toHaveLength(1);
    expect(text).toBe(
      "a\\nb.yaml:4:1: error schema: data.x\\n/tmp/fake.yaml:1:1: error schema: forged\\r\\u001b[2J\\u202e: Invalid value: 1",
    );
  });

  it("leaves printable text as it is, accents and other scripts included", () => {
    const f = { ...finding({ type: "FieldValueRequired", path: ["spec", "größe"] }), file: "wächter/名前.yaml" };
    expect(formatText([f])).toBe("wächter/名前.yaml:1:1: error schema: spec.größe: Required value");
  });
});
