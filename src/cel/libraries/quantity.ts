/**
 * Kubernetes quantity library (apiserver/pkg/cel/library/quantity.go) over
 * apimachinery `resource.ParseQuantity` (src/go): `quantity`,
 * `isQuantity`, `isInteger`, `asInteger`, `asApproximateFloat`, `sign`, `add`,
 * `sub`, `isLessThan`, `isGreaterThan`, `compareTo`. A quantity is kept as
 * Go keeps it: a small int64 amount (value × 10^exp) when it fits, else an
 * arbitrary-precision decimal rounded up to nano units.
 */
import { GoError, parseQuantity as goParseQuantity } from "../../go/index.js";
import { asCel, CelRuntimeError, OrderedValue, opaqueOf, parses } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";
import { comparisonsOf } from "./ordered.js";

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

export class QuantityValue extends OrderedValue {
  readonly celTypeName = "kubernetes.Quantity";
  /** value = mantissa × 10^exp; `dec` marks Go's inf.Dec representation (AsInt64 fails on it). */
  constructor(
    readonly mantissa: bigint,
    readonly exp: number,
    readonly dec: boolean,
  ) {
    super();
  }
  equals(other: unknown): boolean {
    return other instanceof QuantityValue && compareQ(this, other) === 0;
  }
  compare(other: unknown): number {
    return compareQ(this, opaqueOf(QuantityValue, other));
  }
}

const pow10 = (n: number) => 10n ** BigInt(n);

function align(a: QuantityValue, b: QuantityValue): [bigint, bigint, number] {
  const e = Math.min(a.exp, b.exp);
  return [a.mantissa * pow10(a.exp - e), b.mantissa * pow10(b.exp - e), e];
}

/** Decimal digits before the point (an order of magnitude), to compare far-apart values without aligning them. */
const magnitude = (q: QuantityValue) => (q.mantissa < 0n ? -q.mantissa : q.mantissa).toString().length + q.exp;

export function compareQ(a: QuantityValue, b: QuantityValue): number {
  const sa = a.mantissa > 0n ? 1 : a.mantissa < 0n ? -1 : 0;
  const sb = b.mantissa > 0n ? 1 : b.mantissa < 0n ? -1 : 0;
  if (sa !== sb || sa === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  const ma = magnitude(a);
  const mb = magnitude(b);
  if (ma !== mb) return (ma < mb ? -1 : 1) * sa;
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `resource.ParseQuantity` (src/go); throws an Error with apimachinery's message. */
export function parseQuantity(str: string): QuantityValue {
  const q = goParseQuantity(str);
  if (q instanceof GoError) throw new Error(q.message);
  return new QuantityValue(q.mantissa, q.exp, q.dec);
}

function asInt64(q: QuantityValue): bigint | undefined {
  if (q.dec) return undefined;
  if (q.exp === 0) return q.mantissa;
  if (q.exp < 0 || magnitude(q) > 19) return undefined;
  const v = q.mantissa * pow10(q.exp);
  return v > INT64_MAX || v < INT64_MIN ? undefined : v;
}

function approxFloat(q: QuantityValue): number {
  return Number(q.mantissa) * 10 ** q.exp;
}

function addQ(a: QuantityValue, b: QuantityValue, sign: 1n | -1n): QuantityValue {
  const [x, y, e] = align(a, b);
  const r = x + sign * y;
  const dec = a.dec || b.dec || r > INT64_MAX || r < INT64_MIN;
  return new QuantityValue(r, e, dec);
}

const asQ = (v: unknown) => opaqueOf(QuantityValue, v);
function operand(v: unknown): QuantityValue {
  if (typeof v === "bigint") return new QuantityValue(v, 0, false);
  return asQ(v);
}

export const QUANTITIES: readonly Declaration[] = [
  declare("quantity(string) -> Quantity", (s: string) => {
    try {
      return asCel(parseQuantity(s));
    } catch (e) {
      throw new CelRuntimeError((e as Error).message);
    }
  }),
  declare("isQuantity(string) -> bool", (s: string) => parses(() => parseQuantity(s))),
  declare("Quantity.isInteger() -> bool", function (this: unknown) {
    return asInt64(asQ(this)) !== undefined;
  }),
  declare("Quantity.asInteger() -> int", function (this: unknown) {
    const v = asInt64(asQ(this));
    if (v === undefined) throw new CelRuntimeError("cannot convert value to integer");
    return v;
  }),
  declare("Quantity.asApproximateFloat() -> double", function (this: unknown) {
    return approxFloat(asQ(this));
  }),
  declare("Quantity.sign() -> int", function (this: unknown) {
    const m = asQ(this).mantissa;
    return m > 0n ? 1n : m < 0n ? -1n : 0n;
  }),
  declare(
    ["Quantity.add(Quantity) -> Quantity", "Quantity.add(int) -> Quantity"],
    function (this: unknown, o: unknown) {
      return asCel(addQ(asQ(this), operand(o), 1n));
    },
  ),
  declare(
    ["Quantity.sub(Quantity) -> Quantity", "Quantity.sub(int) -> Quantity"],
    function (this: unknown, o: unknown) {
      return asCel(addQ(asQ(this), operand(o), -1n));
    },
  ),
  ...comparisonsOf("Quantity"),
];
