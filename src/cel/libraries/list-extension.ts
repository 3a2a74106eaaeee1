/**
 * cel-go's lists extension at the version the API server's base environment
 * enables from Kubernetes 1.34, `ext.Lists(ext.ListsVersion(3))`
 * (apiserver pkg/cel/environment/base.go), as cel-go v0.26's ext/lists.go
 * defines it: `slice` (version 0), `flatten` (1), `lists.range`, `reverse`,
 * `distinct`, `sort` and `@sortByAssociatedKeys`, which the `sortBy` macro
 * (language/syntax.ts) calls (2); version 3 adds no function, only the cost
 * of each call (cost/cost.ts).
 *
 * Errors are cel-go's words. Two behaviours are this cel-go's, not a later
 * one's: `lists.range` of a negative size is the empty list (the bound and
 * the error came with cel-go#1310), and `sort` orders keys with
 * `compareValues`, a stable sort where cel-go's `sort.Slice` may reorder
 * equal keys of more than twelve items.
 */
import { type CelList, type CelValue, isCelList } from "@bufbuild/cel";
import { chargeWork } from "../cost/meter.js";
import { ArrayValue, asCel, CelRuntimeError, celEquals, runtimeTypeName } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";
import { compareValues } from "./lists.js";

/** The element types `sort` and `@sortByAssociatedKeys` order (ext/lists.go comparableTypes). */
const COMPARABLE = ["int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes"];

/** The runtime type names (as runtimeTypeName gives them) of the values cel-go orders (traits.Comparer). */
const ORDERED = new Set([
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
]);

function items(l: CelList): CelValue[] {
  const out: CelValue[] = new Array(l.size);
  for (let i = 0; i < out.length; i++) out[i] = l.get(i) as CelValue;
  return out;
}

const list = (xs: CelValue[]): CelValue => asCel(new ArrayValue(xs));

function slice(l: CelList, start: bigint, end: bigint): CelValue {
  if (start < 0n || end < 0n)
    throw new CelRuntimeError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end)
    throw new CelRuntimeError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (BigInt(l.size) < end) throw new CelRuntimeError(`cannot slice(${start}, ${end}), list is length ${l.size}`);
  const out: CelValue[] = [];
  for (let i = Number(start); i < Number(end); i++) out.push(l.get(i) as CelValue);
  return list(out);
}

/** The items of `l`, those that are lists replaced by their own items down to `depth` levels. */
function flatten(l: CelList, depth: bigint): CelValue {
  if (depth < 0n) throw new CelRuntimeError("level must be non-negative");
  const out: CelValue[] = [];
  const into = (from: CelList, level: number) => {
    for (const v of from) {
      if (level > 0 && isCelList(v)) into(v, level - 1);
      else out.push(v);
    }
  };
  // deeper than any list nests is as deep as it nests
  into(l, depth > 1_000_000n ? 1_000_000 : Number(depth));
  // the items moved can be many more than the outer list's size, which is all the cost counts
  chargeWork(out.length);
  return list(out);
}

function range(n: bigint): CelValue {
  const out: CelValue[] = [];
  for (let i = 0n; i < n; i++) out.push(i);
  return list(out);
}

function reverse(l: CelList): CelValue {
  const out: CelValue[] = new Array(l.size);
  for (let i = 0; i < out.length; i++) out[i] = l.get(out.length - 1 - i) as CelValue;
  return list(out);
}

/** The first of each run of equal items (CEL equality: `1`, `1u` and `1.0` are one); an empty list as it is. */
function distinct(l: CelList): CelValue {
  if (l.size === 0) return asCel(l);
  const out: CelValue[] = [];
  for (const v of items(l)) if (!out.some((seen) => celEquals(v, seen))) out.push(v);
  return list(out);
}

/** cel-go's `Compare(...) == -1` as an order: a NaN is neither before nor after anything. */
function order(a: CelValue, b: CelValue): number {
  if ((typeof a === "number" && Number.isNaN(a)) || (typeof b === "number" && Number.isNaN(b))) return 0;
  return compareValues(a, b);
}

/**
 * The items of `l` in the order of their keys (`keys[i]` is the key of
 * `l[i]`): ext/lists.go sortListByAssociatedKeys, which `sort` calls with
 * the list as its own keys. The keys must be as many as the items, and of
 * one type that is ordered.
 */
export function sortByAssociatedKeys(l: CelList, keys: CelList): CelValue {
  if (l.size !== keys.size)
    throw new CelRuntimeError(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${l.size} and ${keys.size} elements respectively`,
    );
  if (l.size === 0) return asCel(l);
  const ks = items(keys);
  const type = runtimeTypeName(ks[0]);
  if (!ORDERED.has(type)) throw new CelRuntimeError("list elements must be comparable");
  if (ks.some((k) => runtimeTypeName(k) !== type)) throw new CelRuntimeError("list elements must have the same type");
  const indices = ks.map((_, i) => i).sort((i, j) => order(ks[i] as CelValue, ks[j] as CelValue));
  return list(indices.map((i) => l.get(i) as CelValue));
}

export const LIST_EXTENSION: readonly Declaration[] = [
  // version 0
  declare("list<A>.slice(int, int) -> list<A>", function (this: CelList, start: bigint, end: bigint) {
    return slice(this, start, end);
  }),
  // version 1: cel-go disables the type guards of flatten, which takes any list (its items not lists stay)
  declare("list<list<A>>.flatten() -> list<A>", function (this: CelList) {
    return flatten(this, 1n);
  }),
  declare("list<dyn>.flatten(int) -> list<dyn>", function (this: CelList, depth: bigint) {
    return flatten(this, depth);
  }),
  // version 2
  declare("lists.range(int) -> list<int>", (n: bigint) => range(n)),
  declare("list<A>.reverse() -> list<A>", function (this: CelList) {
    return reverse(this);
  }),
  declare("list<A>.distinct() -> list<A>", function (this: CelList) {
    return distinct(this);
  }),
  declare(
    COMPARABLE.map((t) => `list<${t}>.sort() -> list<${t}>`),
    function (this: CelList) {
      return sortByAssociatedKeys(this, this);
    },
  ),
  declare(
    COMPARABLE.map((t) => `list<A>.@sortByAssociatedKeys(list<${t}>) -> list<A>`),
    function (this: CelList, keys: CelList) {
      return sortByAssociatedKeys(this, keys);
    },
  ),
];
