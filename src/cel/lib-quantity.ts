/**
 * Kubernetes quantity library (apiserver/pkg/cel/library/quantity.go) over
 * apimachinery `resource.ParseQuantity` (src/go): `quantity`,
 * `isQuantity`, `isInteger`, `asInteger`, `asApproximateFloat`, `sign`, `add`,
 * `sub`, `isLessThan`, `isGreaterThan`, `compareTo`. A quantity is kept as
 * Go keeps it: a small int64 amount (value × 10^exp) when it fits, else an
 * arbitrary-precision decimal rounded up to nano units.
 */
import { CelScalar, celFunc, celMethod } from "@bufbuild/cel";
import { GoError, parseQuantity as goParseQuantity } from "../go/index.js";
import { decls } from "./decls.js";
import { asCel, CelRuntimeError, OpaqueValue } from "./values.js";

const { STRING, BOOL, INT, DOUBLE, DYN } = CelScalar;

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

export class QuantityValue extends OpaqueValue {
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

function asQ(v: unknown): QuantityValue {
  if (v instanceof QuantityValue) return v;
  throw new CelRuntimeError("no such overload");
}
function operand(v: unknown): QuantityValue {
  if (typeof v === "bigint") return new QuantityValue(v, 0, false);
  return asQ(v);
}

export const QUANTITY_DECLS = decls(`
quantity(string) -> Quantity
isQuantity(string) -> bool
Quantity.isInteger() -> bool
Quantity.asInteger() -> int
Quantity.asApproximateFloat() -> double
Quantity.sign() -> int
Quantity.add(Quantity) -> Quantity
Quantity.add(int) -> Quantity
Quantity.sub(Quantity) -> Quantity
Quantity.sub(int) -> Quantity
Quantity.isLessThan(Quantity) -> bool
Quantity.isGreaterThan(Quantity) -> bool
Quantity.compareTo(Quantity) -> int
`);

export const QUANTITY_FUNCS = [
  celFunc("quantity", [STRING], DYN, (s: string) => {
    try {
      return asCel(parseQuantity(s));
    } catch (e) {
      throw new CelRuntimeError((e as Error).message);
    }
  }),
  celFunc("isQuantity", [STRING], BOOL, (s: string) => {
    try {
      parseQuantity(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod("isInteger", DYN, [], BOOL, function () {
    return asInt64(asQ(this)) !== undefined;
  }),
  celMethod("asInteger", DYN, [], INT, function () {
    const v = asInt64(asQ(this));
    if (v === undefined) throw new CelRuntimeError("cannot convert value to integer");
    return v;
  }),
  celMethod("asApproximateFloat", DYN, [], DOUBLE, function () {
    return approxFloat(asQ(this));
  }),
  celMethod("sign", DYN, [], INT, function () {
    const m = asQ(this).mantissa;
    return m > 0n ? 1n : m < 0n ? -1n : 0n;
  }),
  celMethod("add", DYN, [DYN], DYN, function (o: unknown) {
    return asCel(addQ(asQ(this), operand(o), 1n));
  }),
  celMethod("sub", DYN, [DYN], DYN, function (o: unknown) {
    return asCel(addQ(asQ(this), operand(o), -1n));
  }),
  celMethod("isLessThan", DYN, [DYN], BOOL, function (o: unknown) {
    return compareQ(asQ(this), asQ(o)) < 0;
  }),
  celMethod("isGreaterThan", DYN, [DYN], BOOL, function (o: unknown) {
    return compareQ(asQ(this), asQ(o)) > 0;
  }),
  celMethod("compareTo", DYN, [DYN], INT, function (o: unknown) {
    return BigInt(compareQ(asQ(this), asQ(o)));
  }),
];
