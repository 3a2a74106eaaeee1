/**
 * Kubernetes quantity library (apiserver/pkg/cel/library/quantity.go) over an
 * exact port of apimachinery `resource.ParseQuantity`: `quantity`,
 * `isQuantity`, `isInteger`, `asInteger`, `asApproximateFloat`, `sign`, `add`,
 * `sub`, `isLessThan`, `isGreaterThan`, `compareTo`. A quantity is kept as
 * Go keeps it: a small int64 amount (value × 10^exp) when it fits, else an
 * arbitrary-precision decimal rounded up to nano units.
 */
import { CelScalar, celFunc, celMethod } from "@bufbuild/cel";
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

export const ERR_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const ERR_SUFFIX = "unable to parse quantity's suffix";
const ERR_NUMERIC = "unable to parse numeric part of quantity";

const pow10 = (n: number) => 10n ** BigInt(n);

function align(a: QuantityValue, b: QuantityValue): [bigint, bigint, number] {
  const e = Math.min(a.exp, b.exp);
  return [a.mantissa * pow10(a.exp - e), b.mantissa * pow10(b.exp - e), e];
}

export function compareQ(a: QuantityValue, b: QuantityValue): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function suffix(s: string): { base: 2 | 10; exp: number; binary: boolean } | undefined {
  const dec: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const bin: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
  if (Object.hasOwn(dec, s)) return { base: 10, exp: dec[s] as number, binary: false };
  if (Object.hasOwn(bin, s)) return { base: 2, exp: bin[s] as number, binary: true };
  if (s.length > 1 && (s.charAt(0) === "e" || s.charAt(0) === "E") && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const n = Number(s.slice(1));
    if (Math.abs(n) > 2147483647) return undefined;
    return { base: 10, exp: n, binary: false };
  }
  return undefined;
}

/** `resource.ParseQuantity`. Throws an Error with apimachinery's message. */
export function parseQuantity(str: string): QuantityValue {
  if (str === "") throw new Error(ERR_FORMAT);
  if (str === "0") return new QuantityValue(0n, 0, false);
  let pos = 0;
  let positive = true;
  const c0 = str.charAt(0);
  if (c0 === "-" || c0 === "+") {
    positive = c0 !== "-";
    pos++;
  }
  while (pos < str.length && str.charAt(pos) === "0") pos++;
  if (pos >= str.length) return new QuantityValue(0n, 0, false);
  const isDigit = (c: string) => c >= "0" && c <= "9";
  let i = pos;
  while (i < str.length && isDigit(str.charAt(i))) i++;
  let num = str.slice(pos, i);
  pos = i;
  let denom = "";
  if (num === "") num = "0";
  if (pos < str.length && str.charAt(pos) === ".") {
    pos++;
    i = pos;
    while (i < str.length && isDigit(str.charAt(i))) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const sufStart = pos;
  while (pos < str.length && "eEinumkKMGTP".includes(str.charAt(pos))) pos++;
  if (pos < str.length && (str.charAt(pos) === "-" || str.charAt(pos) === "+")) pos++;
  while (pos < str.length && isDigit(str.charAt(pos))) pos++;
  if (pos < str.length) throw new Error(ERR_FORMAT);
  const suf = suffix(str.slice(sufStart));
  if (suf === undefined) throw new Error(ERR_SUFFIX);
  if (!/^[0-9]*$/.test(num + denom)) throw new Error(ERR_NUMERIC);

  // fast path (int64Amount)
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (!suf.binary) {
    scale = suf.exp;
    precision = 18 - (num.length + denom.length);
  } else if (suf.exp >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(suf.exp);
    precision = 15 - num.length - Math.trunc((suf.exp * 3) / 10) - 1;
  } else precision = -1;
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const v = BigInt(num + denom);
      if (v <= INT64_MAX) {
        const r = v * mantissa;
        if (r <= INT64_MAX) return new QuantityValue(positive ? r : -r, scale, false);
      }
    }
  }

  // inf.Dec path: exact, rounded up to nano, capped for binary quantities
  let u = BigInt(num + denom);
  let e = -denom.length;
  if (suf.base === 10) e += suf.exp;
  else u *= 1n << BigInt(suf.exp);
  if (u !== 0n && e < -9) {
    const d = pow10(-9 - e);
    u = (u + d - 1n) / d;
    e = -9;
  }
  if (suf.binary && e >= 0 && u * pow10(e) > INT64_MAX) {
    u = INT64_MAX;
    e = 0;
  }
  return new QuantityValue(positive ? u : -u, e, true);
}

function asInt64(q: QuantityValue): bigint | undefined {
  if (q.dec) return undefined;
  if (q.exp === 0) return q.mantissa;
  if (q.exp < 0) return undefined;
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
