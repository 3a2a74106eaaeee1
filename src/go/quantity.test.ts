import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ERR_FORMAT, ERR_SUFFIX, GoError, parseQuantity, type Quantity } from "./index.js";

interface Cases {
  parse: { in: string; i: string; exp: number; format: string }[];
  invalid: string[];
  exponentSuffix: { suffix: string; ok: boolean }[];
  compare: { x: string; y: string; want: number }[];
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
const cmp = (a: Quantity, b: Quantity) => {
  const e = Math.min(a.exp, b.exp);
  const x = a.mantissa * 10n ** BigInt(a.exp - e);
  const y = b.mantissa * 10n ** BigInt(b.exp - e);
  return x < y ? -1 : x > y ? 1 : 0;
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
    expect(cmp(got(c.x), got(c.y))).toBe(c.want);
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
