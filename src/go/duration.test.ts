import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { GoError, parseDuration, parseOpenAPIDuration } from "./index.js";

interface Cases {
  parseDuration: { in: string; want: string }[];
  parseDurationErrors: { in: string; contains: string }[];
  openAPIDuration: { in: string; want: string }[];
  openAPIDurationInvalid: string[];
}
const cases: Cases = parse(readFileSync(new URL("./duration.cases.yaml", import.meta.url), "utf8"));

describe("time.ParseDuration (golang/go src/time/time_test.go)", () => {
  it.each(cases.parseDuration)("$in is $want ns", (c) => {
    expect(parseDuration(c.in)).toBe(BigInt(c.want));
  });

  it.each(cases.parseDurationErrors)("$in is refused with Go's message", (c) => {
    const got = parseDuration(c.in);
    expect(got).toBeInstanceOf(GoError);
    expect((got as GoError).message).toContain(c.contains);
  });

  it("names the unknown or missing unit as Go does", () => {
    expect((parseDuration("1d") as GoError).message).toBe('time: unknown unit "d" in duration "1d"');
    expect((parseDuration("3") as GoError).message).toBe('time: missing unit in duration "3"');
    expect((parseDuration("") as GoError).message).toBe('time: invalid duration ""');
  });

  it("reads back every int64 nanosecond count written in ns, and its negation", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 63n) + 1n, max: (1n << 63n) - 1n }), (n) => {
        expect(parseDuration(`${n}ns`)).toBe(n);
      }),
    );
  });
});

describe("strfmt.ParseDuration, the OpenAPI duration format (kube-openapi strfmt/duration_test.go)", () => {
  it.each(cases.openAPIDuration)("$in is $want ns", (c) => {
    expect(parseOpenAPIDuration(c.in)).toBe(BigInt(c.want));
  });

  it.each(cases.openAPIDurationInvalid)("%s is refused", (s) => {
    expect(parseOpenAPIDuration(s)).toBeInstanceOf(GoError);
  });

  it("accepts everything Go's own ParseDuration accepts, with the same value", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[+-]?([0-9]{0,4}(\.[0-9]{0,3})?(ns|us|ms|s|m|h)){1,3}$/), (s) => {
        const go = parseDuration(s);
        if (!(go instanceof GoError)) expect(parseOpenAPIDuration(s)).toBe(go);
      }),
    );
  });
});
