/**
 * Runtime cost accounting. @bufbuild/cel has none, so every function is
 * wrapped to charge, before it runs, the cost the API server charges for it
 * (apiserver pkg/cel/library/cost.go `CallCost`, and cel-go's
 * interpreter/runtimecost.go for the standard library); comprehensions charge
 * per iteration (instrument.ts). When the limit is reached the meter throws,
 * which unwinds the whole evaluation at once: a runaway rule stops after
 * about `limit` steps, and a call too costly for what is left never starts.
 *
 * The same charges, plus the size of what a call builds (a replaced or joined
 * string, a concatenation), which the API server's runtime cost leaves out
 * because its estimated cost refuses such rules when the CRD is written, are
 * drawn from a work budget: kunion's own bound on one document, counted in
 * the same units so that it is the same on every machine.
 */
import { type CelFunc, type CelValue, celType, isCelList, isCelMap } from "@bufbuild/cel";
import { OpaqueValue } from "../language/values.js";
import { CIDRValue } from "../libraries/ip.js";
import { countOf, replacedLength } from "../libraries/strings.js";
import { currentMeter } from "./meter.js";

const FUNC_MARK = Symbol.for("@bufbuild/cel/func");

/** cel-go's `actualSize`: the size of a string, bytes, list or map; 1 for anything else. */
function sizeOf(v: CelValue | undefined): number {
  if (typeof v === "string") return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof OpaqueValue) return 1;
  if (isCelList(v)) return v.size;
  if (isCelMap(v)) return v.size;
  return 1;
}

/** `StringTraversalCostFactor` (0.1), rounded up as every `math.Ceil` of the sources. */
const traverse = (n: number) => Math.ceil(n * 0.1);

/** cost.go's `traversalCost`: strings by length (rounded down), lists and maps by their items. */
function traversalCost(v: CelValue | undefined): number {
  if (typeof v === "string" || v instanceof Uint8Array) return Math.floor(v.length * 0.1);
  if (v instanceof OpaqueValue) return 1;
  if (isCelList(v)) {
    let n = 0;
    for (const x of v) n += traversalCost(x);
    return n;
  }
  if (isCelMap(v)) {
    let n = 0;
    for (const [k, x] of v.entries()) n += traversalCost(k as CelValue) + traversalCost(x);
    return n;
  }
  return 1;
}

/**
 * What one call costs, as the API server charges it: cost.go `CallCost` for
 * the Kubernetes libraries and the strings extension, runtimecost.go
 * `costCall` for the standard functions, 1 for anything else. `args` are
 * cel-go's: the target first, then the arguments.
 */
export function callCost(name: string, args: readonly CelValue[]): number {
  const [a0, a1] = args;
  switch (name) {
    // cost.go
    case "isSorted":
    case "sum":
    case "max":
    case "min":
    case "indexOf":
    case "lastIndexOf":
      return traversalCost(a0);
    case "url":
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim":
    case "cidr":
    case "isIP":
    case "isCIDR":
    case "quantity":
    case "isQuantity":
      return traverse(sizeOf(a0));
    case "replace":
    case "split":
    case "ip.isCanonical":
      return Math.ceil(sizeOf(a0) * 2 * 0.1);
    case "join":
      return Math.ceil(joinedLength(args) * 2 * 0.1);
    case "find":
    case "findAll":
    case "matches": // runtimecost.go MatchesString: the same product
      return traverse(1 + sizeOf(a0)) * Math.ceil(sizeOf(a1) * 0.25);
    case "ip":
      return a0 instanceof CIDRValue ? 1 : traverse(sizeOf(a0));
    case "containsIP":
    case "containsCIDR": {
      let cost = Math.ceil(sizeOf(a0) * 2 * 0.1);
      if (name === "containsCIDR") cost += traverse(sizeOf(a0)) + 1;
      if (typeof a1 === "string") cost += traverse(a1.length);
      return cost;
    }
    // runtimecost.go
    case "startsWith":
    case "endsWith":
    case "bytes":
      return traverse(sizeOf(a0));
    case "string":
      return a0 instanceof Uint8Array ? traverse(a0.length) : 1;
    case "@in":
      return isCelList(a1) ? a1.size : 1;
    case "_==_":
    case "_!=_":
      return traverse(Math.min(sizeOf(a0), sizeOf(a1)));
    case "_<_":
    case "_<=_":
    case "_>_":
    case "_>=_":
      return typeof a0 === "string" || a0 instanceof Uint8Array ? traverse(Math.min(sizeOf(a0), sizeOf(a1))) : 1;
    case "_+_":
      return typeof a0 === "string" || a0 instanceof Uint8Array ? traverse(sizeOf(a0) + sizeOf(a1)) : 1;
    case "contains":
      return traverse(sizeOf(a0)) * traverse(sizeOf(a1));
    // cel-go ext/sets.go trackSetsCost: 1 + m × n (twice for equivalence)
    case "sets.contains":
    case "sets.intersects":
      return 1 + sizeOf(a0) * sizeOf(a1);
    case "sets.equivalent":
      return 1 + 2 * sizeOf(a0) * sizeOf(a1);
    default:
      return 1;
  }
}

/** The length of `list.join(sep)`, without building it. */
function joinedLength(args: readonly CelValue[]): number {
  const [list, sep] = args;
  if (!isCelList(list)) return 0;
  let n = typeof sep === "string" ? sep.length * Math.max(0, list.size - 1) : 0;
  for (const x of list) n += sizeOf(x);
  return n;
}

/**
 * What a call builds, beyond its cost, for the work budget: the length of
 * the string or list it returns, when that can outgrow its inputs. Known
 * before the call, so a call that would build too much never starts.
 */
function builtSize(name: string, args: readonly CelValue[]): number {
  const [a0, a1, a2, a3] = args;
  switch (name) {
    case "replace":
      return typeof a0 === "string" && typeof a1 === "string" && typeof a2 === "string"
        ? replacedLength(a0, a1, a2, typeof a3 === "bigint" ? countOf(a3) : -1)
        : 0;
    case "join":
      return joinedLength(args);
    case "split":
    case "lowerAscii":
    case "upperAscii":
    case "reverse":
    case "strings.quote":
    case "format":
      return sizeOf(a0);
    case "_+_": // lists: ArrayValue.concat counts the items it moves
      return typeof a0 === "string" || a0 instanceof Uint8Array ? sizeOf(a0) + sizeOf(a1) : 0;
    default:
      return 0;
  }
}

interface FuncLike {
  readonly id: string;
  readonly name: string;
  readonly target: unknown;
  readonly arguments: readonly unknown[];
  readonly result: unknown;
  call(id: number, target: CelValue | undefined, args: CelValue[]): unknown;
}

/**
 * A function @bufbuild/cel calls as its own, built here rather than with
 * `celFunc`: what `call` throws (the meter's CostExceeded) then unwinds the
 * whole evaluation instead of becoming an error value.
 */
export function handMadeFunc(f: FuncLike): CelFunc {
  return { [FUNC_MARK]: {}, ...f } as unknown as CelFunc;
}

type TypeLike = { kind: string; name: string };
const DYN_NAME = "dyn";

function fits(v: CelValue, t: unknown): boolean {
  const want = t as TypeLike;
  if (want.name === DYN_NAME) return true;
  try {
    const got = celType(v) as TypeLike;
    return got.kind === want.kind && got.name === want.name;
  } catch {
    return false;
  }
}

/** Whether `f` takes these values (as @bufbuild/cel decides before calling it): charged only then. */
function takes(f: FuncLike, target: CelValue | undefined, args: readonly CelValue[]): boolean {
  if ((f.target === undefined) !== (target === undefined) || args.length !== f.arguments.length) return false;
  if (target !== undefined && !fits(target, f.target)) return false;
  for (let i = 0; i < args.length; i++) if (!fits(args[i] as CelValue, f.arguments[i])) return false;
  return true;
}

/** `f` charging the meter before every call it takes. */
export function metered(f: CelFunc): CelFunc {
  const inner = f as unknown as FuncLike;
  const name = inner.name;
  return handMadeFunc({
    id: inner.id,
    name,
    target: inner.target,
    arguments: inner.arguments,
    result: inner.result,
    call(id, target, args) {
      const meter = currentMeter();
      if (meter !== undefined && takes(inner, target, args)) {
        const all = target === undefined ? args : [target, ...args];
        meter.charge(callCost(name, all), builtSize(name, all));
      }
      return inner.call(id, target, args);
    },
  });
}
