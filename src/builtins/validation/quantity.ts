/**
 * What hand-written validation does with a parsed quantity (src/go's
 * ParseQuantity): compare two, take the sign, and print one as
 * `Quantity.String()` does (apimachinery resource/quantity.go
 * CanonicalizeBytes), since the API server's messages print quantities in
 * their canonical form: `0.5` as `500m`, `1024Mi` as `1Gi`.
 */
import { GoError, parseQuantity, type Quantity } from "../../go/index.js";
import type { JsonValue } from "../../value/index.js";

/** A quantity field as the API server decodes it (a string or a JSON number); undefined when it does not parse. */
export function quantityOf(v: JsonValue | undefined): Quantity | undefined {
  if (typeof v !== "string" && typeof v !== "number") return undefined;
  const q = parseQuantity(typeof v === "number" ? String(v) : v.trim());
  return q instanceof GoError ? undefined : q;
}

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
export const signOf = (q: Quantity): -1 | 0 | 1 => (q.mantissa < 0n ? -1 : q.mantissa > 0n ? 1 : 0);

/** Quantity.MilliValue: rounded up (away from zero's floor, as Go's ceiling) to thousandths. */
export function milliValue(q: Quantity): bigint {
  const e = q.exp + 3;
  if (e >= 0) return q.mantissa * 10n ** BigInt(e);
  const d = 10n ** BigInt(-e);
  const quotient = q.mantissa / d;
  return q.mantissa > 0n && quotient * d !== q.mantissa ? quotient + 1n : quotient;
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
