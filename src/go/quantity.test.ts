import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  compareQuantities,
  ERR_FORMAT,
  ERR_SUFFIX,
  GoError,
  parseQuantity,
  type QuantityFormat,
  quantityString,
} from "./index.js";

interface Cases {
  parse: { in: string; i: string; exp: number; format: string }[];
  invalid: string[];
  exponentSuffix: { suffix: string; ok: boolean }[];
  compare: { x: string; y: string; want: number }[];
  string: { i: string; exp: number; format: QuantityFormat; expect: string; alternate?: string }[];
}
const cases: Cases = parse(readFileSync(new URL("./quantity.cases.yaml", import.meta.url), "utf8"));

/** mantissa × 10^exp with trailing zeros moved into the exponent, so equal values print alike at any scale. */
function value(mantissa: bigint, exp: number): string {
  if (mantissa === 0n) return "0";
  let m = mantissa;
  let e = exp;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  return `${m}e${e}`;
}
const got = (s: string) => {
  const q = parseQuantity(s);
  if (q instanceof GoError) throw new Error(`${s}: ${q.message}`);
  return q;
};

describe("resource.ParseQuantity (apimachinery pkg/api/resource/quantity_test.go)", () => {
  it.each(cases.parse)("$in is $i e$exp ($format), and so with a sign", (c) => {
    const want = value(BigInt(c.i), c.exp);
    const q = got(c.in);
    expect(value(q.mantissa, q.exp)).toBe(want);
    expect(q.format).toBe(c.format);
    const plus = got(`+${c.in}`);
    expect([value(plus.mantissa, plus.exp), plus.format]).toEqual([want, c.format]);
    const minus = got(`-${c.in}`);
    expect([value(-minus.mantissa, minus.exp), minus.format]).toEqual([want, c.format]);
  });

  it.each(cases.invalid)("%j is refused", (s) => {
    expect(parseQuantity(s)).toBeInstanceOf(GoError);
  });

  it("gives apimachinery's messages", () => {
    expect((parseQuantity("aoeu") as GoError).message).toBe(ERR_FORMAT);
    expect((parseQuantity("1i") as GoError).message).toBe(ERR_SUFFIX);
    expect((parseQuantity("") as GoError).message).toBe(ERR_FORMAT);
  });

  it.each(cases.exponentSuffix)("the suffix $suffix: ok=$ok", (c) => {
    const q = parseQuantity(`1${c.suffix}`);
    if (c.ok) expect(q).not.toBeInstanceOf(GoError);
    else expect((q as GoError).message).toBe(ERR_SUFFIX);
  });

  it.each(cases.compare)("$x compared with $y is $want", (c) => {
    expect(compareQuantities(got(c.x), got(c.y))).toBe(c.want);
  });

  it("an integer written plainly is itself, held as an int64 amount while it fits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }), (n) => {
        const q = got(`${n}`);
        expect(value(q.mantissa, q.exp)).toBe(value(n, 0));
        expect(q.dec).toBe(false);
      }),
    );
  });

  it("answers at once for an exponent at the int32 bound, in either direction", () => {
    expect(value(got("1E-2147483647").mantissa, got("1E-2147483647").exp)).toBe("1e-9");
    expect(got("1E2147483647").exp).toBe(2147483647);
  });
});

describe("Quantity.String, the canonical form (apimachinery quantity_test.go TestQuantityString)", () => {
  it.each(cases.string)("$i e$exp ($format) prints as $expect", (c) => {
    expect(quantityString({ mantissa: BigInt(c.i), exp: c.exp, dec: false, format: c.format })).toBe(c.expect);
    if (c.alternate !== undefined) expect(quantityString(got(c.alternate))).toBe(c.expect);
  });

  it("prints a quantity that parses back to the same value", () => {
    const suffixes = ["", "m", "k", "M", "G", "Ki", "Mi", "Gi", "e3", "n"];
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(...suffixes), (n, suffix) => {
        const q = got(`${n}${suffix}`);
        expect(compareQuantities(got(quantityString(q)), q)).toBe(0);
      }),
    );
  });
});
