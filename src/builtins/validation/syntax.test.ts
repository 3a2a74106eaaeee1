/**
 * The two syntaxes hand-written validation leans on: robfig/cron v3's
 * standard parser (parser.go: Parse, normalizeFields, getRange,
 * mustParseInt, parseDescriptor), which batch validation calls, and
 * apimachinery's Quantity.String (resource/quantity.go CanonicalizeBytes),
 * which core validation prints quantities with.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GoError, parseQuantity, type Quantity } from "../../go/index.js";
import { cronParseError } from "./cron.js";
import { compareQuantities, quantityString } from "./quantity.js";

describe("cron schedules (robfig/cron ParseStandard)", () => {
  it.each([
    "* * * * *",
    "*/15 * * * *",
    "0 0 1 1 *",
    "0 9-17 * * mon-fri",
    "0 0 * JAN,jul SUN",
    "5,10,15 1-23/2 ? * 0",
    "30 2 */3 * *",
    "0 0 31 12 6",
    "@yearly",
    "@every 1h30m",
    "  1   2 3 4 5  ",
  ])("accepts %j", (schedule) => {
    expect(cronParseError(schedule)).toBeUndefined();
  });

  it.each([
    ["", "empty spec string"],
    ["* * * *", "expected exactly 5 fields, found 4: [* * * *]"],
    ["60 * * * *", "end of range (60) above maximum (59): 60"],
    ["* 24 * * *", "end of range (24) above maximum (23): 24"],
    ["* * 0 * *", "beginning of range (0) below minimum (1): 0"],
    ["* * * 13 *", "end of range (13) above maximum (12): 13"],
    ["5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"],
    ["*/0 * * * *", "step of range should be a positive number: */0"],
    ["1-2-3 * * * *", "too many hyphens: 1-2-3"],
    ["1/2/3 * * * *", "too many slashes: 1/2/3"],
    ["* * * * funday", 'failed to parse int from funday: strconv.Atoi: parsing "funday": invalid syntax'],
    ["@every forever", 'failed to parse duration @every forever: time: invalid duration "forever"'],
    ["@reboot", "unrecognized descriptor: @reboot"],
  ])("refuses %j: %s", (schedule, error) => {
    expect(cronParseError(schedule)).toBe(error);
  });

  it("accepts every in-range value of every field, and refuses one past the maximum", () => {
    const bounds = [
      [0, 59],
      [0, 23],
      [1, 31],
      [1, 12],
      [0, 6],
    ] as const;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 1, noNaN: true }), (field, t) => {
        const [lo, hi] = bounds[field] as readonly [number, number];
        const value = lo + Math.floor(t * (hi - lo));
        const parts = ["*", "*", "*", "*", "*"];
        parts[field] = String(value);
        expect(cronParseError(parts.join(" "))).toBeUndefined();
        parts[field] = String(hi + 1);
        expect(cronParseError(parts.join(" "))).toBe(`end of range (${hi + 1}) above maximum (${hi}): ${hi + 1}`);
      }),
    );
  });
});

const parsed = (text: string): Quantity => {
  const q = parseQuantity(text);
  if (q instanceof GoError) throw new Error(q.message);
  return q;
};

describe("quantities in canonical form (Quantity.String)", () => {
  it.each([
    ["0.5", "500m"],
    ["1000m", "1"],
    ["1.5", "1500m"],
    ["2", "2"],
    ["100m", "100m"],
    ["1024Mi", "1Gi"],
    ["1.5Gi", "1536Mi"],
    ["1000Mi", "1000Mi"],
    ["512", "512"],
    ["0.5Gi", "512Mi"],
    ["1e3", "1e3"],
    ["1k", "1k"],
    ["1000", "1k"],
    ["-1Mi", "-1Mi"],
    ["0", "0"],
    ["100Ki", "100Ki"],
    ["12345678n", "12345678n"],
  ])("%s prints as %s", (text, canonical) => {
    expect(quantityString(parsed(text))).toBe(canonical);
  });

  it("prints a quantity that parses back to the same value", () => {
    const suffixes = ["", "m", "k", "M", "G", "Ki", "Mi", "Gi", "e3", "n"];
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(...suffixes), (n, suffix) => {
        const q = parsed(`${n}${suffix}`);
        expect(compareQuantities(parsed(quantityString(q)), q)).toBe(0);
      }),
    );
  });
});
