/**
 * The cron syntax batch validation leans on: robfig/cron v3's standard
 * parser (parser.go: Parse, normalizeFields, getRange, mustParseInt,
 * parseDescriptor). Quantities are Go's rules, tested in src/go.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cronParseError } from "./cron.js";

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
