import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPath, fromJsonPointer, type PathSegment, toJsonPointer } from "./index.js";

describe("JSON Pointer", () => {
  it("decodes RFC 6901 escapes in order: ~01 is ~1, not /", () => {
    expect(fromJsonPointer("/metadata/annotations/a~1b~0c~01")).toEqual(["metadata", "annotations", "a/b~c~1"]);
  });

  it("reads tokens of digits as indexes, not numbers with leading zeros", () => {
    expect(fromJsonPointer("/items/0/containers/12/01")).toEqual(["items", 0, "containers", 12, "01"]);
  });

  it("names the root with the empty pointer", () => {
    expect(fromJsonPointer("")).toEqual([]);
    expect(formatPath(fromJsonPointer(""))).toBe("");
  });

  it("reads back every path it writes", () => {
    const segment = fc.oneof(
      fc.string().filter((s) => !/^(0|[1-9][0-9]*)$/.test(s)),
      fc.nat({ max: 10_000 }),
    ) as fc.Arbitrary<PathSegment>;
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (path) => {
        expect(fromJsonPointer(toJsonPointer(path))).toEqual(path);
      }),
    );
  });
});
