/**
 * k8s.io/apimachinery/pkg/api/resource `ParseQuantity` (quantity.go): a
 * signed decimal, then a decimal-SI (`m`, `k`, `M`…), binary-SI (`Ki`, `Mi`…)
 * or exponent (`e3`, `E-6`) suffix. The value is kept as Go keeps it: an int64
 * amount × 10^exp when the fast path fits, else an exact decimal (Go's
 * inf.Dec) rounded up to nano units, binary values capped at 2^63-1.
 */
import { GoError } from "./error.js";

export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

export interface Quantity {
  /** value = mantissa × 10^exp */
  mantissa: bigint;
  exp: number;
  /** Held as an inf.Dec rather than an int64 amount (AsInt64 fails on it). */
  dec: boolean;
  format: QuantityFormat;
}

export const ERR_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ERR_SUFFIX = "unable to parse quantity's suffix";
export const ERR_NUMERIC = "unable to parse numeric part of quantity";

const INT64_MAX = 9223372036854775807n;
const INT32_MAX = 2147483647;
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_CHARS = "eEinumkKMGTP";
const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** quantitySuffixer.interpret: base, exponent and format of a suffix. */
function interpret(suffix: string): { base: 2 | 10; exp: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DECIMAL, suffix)) return { base: 10, exp: DECIMAL[suffix] as number, format: "DecimalSI" };
  if (Object.hasOwn(BINARY, suffix)) return { base: 2, exp: BINARY[suffix] as number, format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E") && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    // Parsed at 64 bits, kept in an int32 scale that is negated later: ±MaxInt32 at most.
    const n = Number(suffix.slice(1));
    return Math.abs(n) > INT32_MAX ? undefined : { base: 10, exp: n, format: "DecimalExponent" };
  }
  return undefined;
}

const ZERO: Quantity = { mantissa: 0n, exp: 0, dec: false, format: "DecimalSI" };

/** `resource.ParseQuantity`: the quantity, or apimachinery's error. */
export function parseQuantity(str: string): Quantity | GoError {
  if (str === "") return new GoError(ERR_FORMAT);
  if (str === "0") return ZERO;
  // parseQuantityString
  let pos = 0;
  let positive = true;
  if (str[0] === "-" || str[0] === "+") {
    positive = str[0] === "+";
    pos++;
  }
  while (pos < str.length && str[pos] === "0") pos++;
  if (pos >= str.length) return ZERO;
  let i = pos;
  while (isDigit(str, i)) i++;
  const num = str.slice(pos, i) || "0";
  pos = i;
  let denom = "";
  if (str[pos] === ".") {
    i = ++pos;
    while (isDigit(str, i)) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const numeric = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < str.length && SUFFIX_CHARS.includes(str[pos] as string)) pos++;
  if (str[pos] === "-" || str[pos] === "+") pos++;
  while (isDigit(str, pos)) pos++;
  if (pos < str.length) return new GoError(ERR_FORMAT);
  const suffix = interpret(str.slice(suffixStart));
  if (suffix === undefined) return new GoError(ERR_SUFFIX);
  let format = suffix.format;

  // The fast path: an int64 amount.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (suffix.base === 10) {
    scale = suffix.exp;
    precision = 18 - (num.length + denom.length);
  } else if (suffix.exp >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(suffix.exp);
    // 1Mi (2^20) has about six decimal digits: exponent*3/10 - 1 digits of precision are used.
    precision = 15 - num.length - Math.trunc((suffix.exp * 3) / 10) - 1;
  } else precision = -1;
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const result = BigInt(num + denom) * mantissa;
      if (result <= INT64_MAX) return { mantissa: positive ? result : -result, exp: scale, dec: false, format };
    }
  }

  // The slow path: an exact decimal (inf.Dec), which needs a digit somewhere.
  if (!/[0-9]/.test(numeric)) return new GoError(ERR_NUMERIC);
  let amount = BigInt(num + denom);
  let exp = -denom.length;
  if (suffix.base === 10) exp += suffix.exp;
  else amount <<= BigInt(suffix.exp);
  // Round up to nano units: asking for some resource gives some.
  if (amount !== 0n && exp < -9) {
    const shift = -9 - exp;
    // An amount with no more digits than the shift rounds up to one nano; the power is never built.
    if (amount.toString().length <= shift) amount = 1n;
    else {
      const d = 10n ** BigInt(shift);
      amount = (amount + d - 1n) / d;
    }
    exp = -9;
  }
  if (format === "BinarySI") {
    const tooBig = exp >= 0 ? amount * 10n ** BigInt(exp) > INT64_MAX : amount > INT64_MAX * 10n ** BigInt(-exp);
    if (tooBig) [amount, exp] = [INT64_MAX, 0];
    // Below one, a binary value reads better in decimal units.
    else if (amount !== 0n && (exp >= 0 ? false : amount < 10n ** BigInt(-exp))) format = "DecimalSI";
  }
  return { mantissa: positive ? amount : -amount, exp, dec: true, format };
}

// ---------------------------------------------------------------------------
// Quantity's methods that hand-written validation calls (quantity.go).

function aligned(a: Quantity, b: Quantity): [bigint, bigint] {
  const e = Math.min(a.exp, b.exp);
  return [a.mantissa * 10n ** BigInt(a.exp - e), b.mantissa * 10n ** BigInt(b.exp - e)];
}

/** Quantity.Cmp. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Quantity.Sign. */
export const quantitySign = (q: Quantity): -1 | 0 | 1 => (q.mantissa < 0n ? -1 : q.mantissa > 0n ? 1 : 0);

/** Quantity.ScaledValue: the value in units of 10^-`places`, rounded up (Go's ceiling). */
function scaledValue(q: Quantity, places: number): bigint {
  const e = q.exp + places;
  if (e >= 0) return q.mantissa * 10n ** BigInt(e);
  const d = 10n ** BigInt(-e);
  const quotient = q.mantissa / d;
  return q.mantissa > 0n && quotient * d !== q.mantissa ? quotient + 1n : quotient;
}

/** Quantity.MilliValue: rounded up to thousandths. */
export const milliValue = (q: Quantity): bigint => scaledValue(q, 3);

/** Quantity.Value: rounded up to a whole number. */
export const quantityValue = (q: Quantity): bigint => scaledValue(q, 0);

/** Quantity.Add: the sum, in the format of the first. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const exp = Math.min(a.exp, b.exp);
  const mantissa = a.mantissa * 10n ** BigInt(a.exp - exp) + b.mantissa * 10n ** BigInt(b.exp - exp);
  return { mantissa, exp, dec: a.dec || b.dec, format: a.format };
}

const decimalSuffixes: Record<number, string> = {
  [-9]: "n",
  [-6]: "u",
  [-3]: "m",
  0: "",
  3: "k",
  6: "M",
  9: "G",
  12: "T",
  15: "P",
  18: "E",
};
const binarySuffixes = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/** The value as an integer when it has no fractional part (Quantity.AsScale(0) exact). */
function exactInteger(q: Quantity): bigint | undefined {
  if (q.exp >= 0) return q.mantissa * 10n ** BigInt(q.exp);
  const d = 10n ** BigInt(-q.exp);
  return q.mantissa % d === 0n ? q.mantissa / d : undefined;
}

/** Quantity.String(): the canonical form. */
export function quantityString(q: Quantity): string {
  if (q.mantissa === 0n) return "0";
  if (q.format === "BinarySI") {
    const small =
      compareQuantities(q, { ...q, mantissa: 1024n, exp: 0 }) < 0 &&
      compareQuantities(q, { ...q, mantissa: -1024n, exp: 0 }) > 0;
    const integer = small ? undefined : exactInteger(q);
    if (integer !== undefined) {
      let amount = integer;
      let power = 0;
      while (power < binarySuffixes.length - 1 && amount % 1024n === 0n) {
        amount /= 1024n;
        power++;
      }
      return `${amount}${binarySuffixes[power]}`;
    }
  }
  // Factors of ten move into the exponent, which then drops to a multiple of three.
  let amount = q.mantissa;
  let exp = q.exp;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exp++;
  }
  const down = ((exp % 3) + 3) % 3;
  amount *= 10n ** BigInt(down);
  exp -= down;
  if (q.format === "DecimalExponent") return exp === 0 ? `${amount}` : `${amount}e${exp}`;
  return `${amount}${decimalSuffixes[exp] ?? `e${exp}`}`;
}
