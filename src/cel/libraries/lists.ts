/**
 * Kubernetes lists library (apiserver/pkg/cel/library/lists.go): `isSorted`,
 * `sum`, `min`, `max`, `indexOf`, `lastIndexOf`; and cel-go's sets extension
 * (`sets.contains`, `sets.equivalent`, `sets.intersects`), which the API server
 * also enables.
 */
import { type CelList, type CelUint, type CelValue, celUint, isCelUint } from "@bufbuild/cel";
import { CelRuntimeError, celEquals, numeric, runtimeTypeName } from "../language/values.js";
import { isDuration, isTimestamp, makeDuration, secondsNanos } from "../language/wkt.js";
import { type Declaration, declare } from "./declaration.js";

const comparable = ["int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes"];
const summable = ["int", "uint", "double", "duration"];

/** Ordering of comparable CEL values (`_<_`), numbers compared across int/uint/double. */
export function compareValues(a: CelValue, b: CelValue): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === "number" && Number.isNaN(na)) throw new CelRuntimeError("NaN values cannot be ordered");
    if (typeof nb === "number" && Number.isNaN(nb)) throw new CelRuntimeError("NaN values cannot be ordered");
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1;
    return a.length - b.length;
  }
  if ((isTimestamp(a) && isTimestamp(b)) || (isDuration(a) && isDuration(b))) {
    const x = secondsNanos(a);
    const y = secondsNanos(b);
    return x.seconds !== y.seconds ? (x.seconds < y.seconds ? -1 : 1) : x.nanos - y.nanos;
  }
  throw new CelRuntimeError(`no such overload: ${runtimeTypeName(a)}.compare(${runtimeTypeName(b)})`);
}

function items(l: CelList): CelValue[] {
  return [...l];
}

function sum(l: CelList): CelValue {
  const xs = items(l);
  if (xs.length === 0) return 0n;
  const first = xs[0];
  if (typeof first === "bigint") {
    let s = 0n;
    for (const x of xs) s += x as bigint;
    if (s > 9223372036854775807n || s < -9223372036854775808n) throw new CelRuntimeError("integer overflow");
    return s;
  }
  if (typeof first === "number") return xs.reduce<number>((s, x) => s + (x as number), 0);
  if (isCelUint(first)) {
    let s = 0n;
    for (const x of xs) s += (x as CelUint).value;
    if (s > 18446744073709551615n) throw new CelRuntimeError("unsigned integer overflow");
    return celUint(s);
  }
  if (isDuration(first)) {
    let n = 0n;
    for (const x of xs) {
      const sn = secondsNanos(x);
      n += sn.seconds * 1_000_000_000n + BigInt(sn.nanos);
    }
    const d = makeDuration(n);
    if (d instanceof Error) throw new CelRuntimeError(d.message);
    return d;
  }
  throw new CelRuntimeError(`no such overload: list(${runtimeTypeName(first)}).sum()`);
}

function extreme(l: CelList, name: "min" | "max"): CelValue {
  const xs = items(l);
  if (xs.length === 0) throw new CelRuntimeError(`${name} called on empty list`);
  let best = xs[0] as CelValue;
  for (const x of xs) {
    const c = compareValues(x, best);
    if (name === "min" ? c < 0 : c > 0) best = x;
  }
  return best;
}

function contains(a: CelList, b: CelList): boolean {
  const xs = items(a);
  for (const y of b) if (!xs.some((x) => celEquals(x, y))) return false;
  return true;
}

export const LISTS: readonly Declaration[] = [
  declare(
    comparable.map((t) => `list<${t}>.isSorted() -> bool`),
    function (this: CelList) {
      const xs = items(this);
      for (let i = 1; i < xs.length; i++) if (compareValues(xs[i - 1] as CelValue, xs[i] as CelValue) > 0) return false;
      return true;
    },
  ),
  declare(
    summable.map((t) => `list<${t}>.sum() -> ${t}`),
    function (this: CelList) {
      return sum(this);
    },
  ),
  declare(
    comparable.map((t) => `list<${t}>.min() -> ${t}`),
    function (this: CelList) {
      return extreme(this, "min");
    },
  ),
  declare(
    comparable.map((t) => `list<${t}>.max() -> ${t}`),
    function (this: CelList) {
      return extreme(this, "max");
    },
  ),
  declare("list<A>.indexOf(A) -> int", function (this: CelList, v: CelValue) {
    const xs = items(this);
    return BigInt(xs.findIndex((x) => celEquals(x, v)));
  }),
  declare("list<A>.lastIndexOf(A) -> int", function (this: CelList, v: CelValue) {
    const xs = items(this);
    for (let i = xs.length - 1; i >= 0; i--) if (celEquals(xs[i], v)) return BigInt(i);
    return -1n;
  }),
  declare("sets.contains(list<A>, list<A>) -> bool", (a: CelList, b: CelList) => contains(a, b)),
  declare("sets.equivalent(list<A>, list<A>) -> bool", (a: CelList, b: CelList) => contains(a, b) && contains(b, a)),
  declare("sets.intersects(list<A>, list<A>) -> bool", (a: CelList, b: CelList) => {
    const xs = items(a);
    for (const y of b) if (xs.some((x) => celEquals(x, y))) return true;
    return false;
  }),
];
