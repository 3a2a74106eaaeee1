import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  GoError,
  type Instant,
  isDate,
  isDateTime,
  parseDateTime,
  parseFullDate,
  parseRFC3339,
  parseRFC3339Micro,
} from "./index.js";

interface Parsed {
  in: string;
  seconds: string;
  nanos: number;
}
interface Refused {
  in: string;
  contains: string;
}
interface Cases {
  rfc3339: Parsed[];
  rfc3339Errors: Refused[];
  dayOutOfRange: { in: string; ok: boolean }[];
  builtinDateTime: Refused[];
  builtinDateTimeValid: Parsed[];
  isDateTimeInvalid: string[];
  isDateTimeValid: string[];
  parseDateTime: Parsed[];
  parseDateTimeInvalid: string[];
  fullDate: { in: string; ok: boolean }[];
}
const cases: Cases = parse(readFileSync(new URL("./time.cases.yaml", import.meta.url), "utf8"));
const instant = (c: Parsed): Instant => ({ seconds: BigInt(c.seconds), nanos: c.nanos });
const message = (v: unknown) =>
  v instanceof GoError ? v.message : `parsed: ${JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}` : x))}`;

describe("time.Parse(time.RFC3339) (golang/go src/time/format_test.go)", () => {
  it.each(cases.rfc3339)("$in", (c) => {
    expect(parseRFC3339(c.in)).toEqual(instant(c));
  });
  it.each(cases.rfc3339Errors)("$in is refused", (c) => {
    expect(message(parseRFC3339(c.in))).toContain(c.contains);
  });
  it.each(cases.dayOutOfRange)("$in: ok=$ok", (c) => {
    const got = parseRFC3339(c.in);
    if (c.ok) expect(got).not.toBeInstanceOf(GoError);
    else expect(message(got)).toContain("day out of range");
  });
});

describe("the date-time of built-in kinds: metav1.Time (apimachinery pkg/apis/meta/v1/time.go)", () => {
  it.each(cases.builtinDateTime)("$in is refused: $contains", (c) => {
    expect(message(parseRFC3339(c.in))).toContain(c.contains);
  });
  it.each(cases.builtinDateTimeValid)("$in", (c) => {
    expect(parseRFC3339(c.in)).toEqual(instant(c));
  });

  it("reads back every second of years 1 to 9999 written in RFC 3339", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -62135596800, max: 253402300799 }),
        fc.integer({ min: 0, max: 999999999 }),
        (s, ns) => {
          const text = `${new Date(s * 1000).toISOString().slice(0, 19)}.${String(ns).padStart(9, "0")}Z`;
          expect(parseRFC3339(text)).toEqual({ seconds: BigInt(s), nanos: ns });
        },
      ),
    );
  });
});

describe("strfmt date-time and date (kube-openapi pkg/validation/strfmt)", () => {
  it.each(cases.isDateTimeInvalid)("IsDateTime(%s) is false", (s) => {
    expect(isDateTime(s)).toBe(false);
  });
  it.each(cases.isDateTimeValid)("IsDateTime(%s) is true", (s) => {
    expect(isDateTime(s)).toBe(true);
  });
  it.each(cases.parseDateTime)("ParseDateTime($in)", (c) => {
    expect(parseDateTime(c.in)).toEqual(instant(c));
  });
  it.each(cases.parseDateTimeInvalid)("ParseDateTime(%s) fails", (s) => {
    expect(parseDateTime(s)).toBeInstanceOf(GoError);
  });
  it.each(cases.fullDate)("date $in: ok=$ok", (c) => {
    expect(isDate(c.in)).toBe(c.ok);
    expect(parseFullDate(c.in) instanceof GoError).toBe(!c.ok);
  });

  it("every RFC 3339 text metav1.Time accepts with a two-digit hour is also a strfmt date-time", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(
          /^[0-9]{4}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\.[0-9]{1,4})?(Z|[+-][0-2][0-9]:[0-5][0-9])$/,
        ),
        (s) => {
          if (!(parseRFC3339(s) instanceof GoError)) expect(isDateTime(s)).toBe(true);
        },
      ),
    );
  });
});

// apimachinery staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/micro_time.go: MicroTime.UnmarshalJSON
// parses with time.Parse(RFC3339Micro), whose `.000000` takes exactly six digits.
describe("time.Parse(metav1.RFC3339Micro)", () => {
  it.each([
    ["2024-01-02T03:04:05.123456Z", { seconds: 1704164645n, nanos: 123456000 }],
    ["2024-01-02T03:04:05.000000+01:00", { seconds: 1704161045n, nanos: 0 }],
  ])("%s", (value, want) => {
    expect(parseRFC3339Micro(value)).toEqual(want);
  });
  it.each([
    ["2024-01-02T03:04:05Z", 'cannot parse "Z" as ".000000"'],
    ["2024-01-02T03:04:05.123Z", 'cannot parse ".123Z" as ".000000"'],
    ["2024-01-02T03:04:05.123456789Z", 'cannot parse "789Z" as "Z07:00"'],
    ["2024-02-30T03:04:05.000000Z", "day out of range"],
  ])("%s is refused: %s", (value, contains) => {
    expect(message(parseRFC3339Micro(value))).toContain(contains);
  });
});
