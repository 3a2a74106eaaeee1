/**
 * Runtime cost accounting. @bufbuild/cel has none, so every function is
 * wrapped to charge, before it runs, the cost the API server charges for it
 * (apiserver pkg/cel/library/cost.go `CallCost`, and cel-go's
 * interpreter/runtimecost.go for the standard library); comprehensions charge
 * per iteration (instrument.ts). When the limit is reached the meter throws,
 * which unwinds the whole evaluation at once: a runaway rule stops after
 * about `limit` steps, and a call too costly for what is left never starts.
 * The evaluation environment calls a name's overloads through one dispatch
 * (meteredOverloads), which picks the overload once per combination of
 * runtime types and runs its implementation directly; it also makes each
 * call site of the compiled evaluator (language/evaluate.ts) a dispatch of
 * its own, which remembers the last types it saw and takes no argument
 * array, and says which overload values of given types reach (`sole`).
 *
 * The same charges, plus the size of what a call builds (a replaced or joined
 * string, a concatenation), which the API server's runtime cost leaves out
 * because its estimated cost refuses such rules when the CRD is written, are
 * drawn from a work budget: kunion's own bound on one document, counted in
 * the same units so that it is the same on every machine.
 */
import {
  type CelFunc,
  CelScalar,
  type CelValue,
  celError,
  celFunc,
  celMethod,
  celType,
  isCelList,
  isCelMap,
  isCelUint,
  listType,
  mapType,
} from "@bufbuild/cel";
import { ArrayValue, isCelValue, ListValue, LiteralMap, MapView, OpaqueValue } from "../language/values.js";
import { CIDRValue } from "../libraries/ip.js";
import { countOf, replacedLength } from "../libraries/strings.js";
import { currentMeter, type Meter } from "./meter.js";

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
    // by index: a list's iterator is a generator, several times slower
    for (let i = 0, size = v.size; i < size; i++) n += traversalCost(v.get(i));
    return n;
  }
  if (isCelMap(v)) {
    let n = 0;
    for (const [k, x] of v.entries()) n += traversalCost(k as CelValue) + traversalCost(x);
    return n;
  }
  return 1;
}

/** A charge for a call, from cel-go's arguments: the target first, then the arguments (four at most are read). */
export type Charge = (a0?: CelValue, a1?: CelValue, a2?: CelValue, a3?: CelValue) => number;

const ONE: Charge = () => 1;
const NONE: Charge = () => 0;

/** Each of `names` charging `charge`. */
const each = (names: readonly string[], charge: Charge): Array<[string, Charge]> => names.map((n) => [n, charge]);

/**
 * What one call costs, as the API server charges it, by function name:
 * cost.go `CallCost` for the Kubernetes libraries and the strings extension,
 * runtimecost.go `costCall` for the standard functions; 1 for any other.
 * `args` are cel-go's: the target first, then the arguments.
 */
const COSTS = new Map<string, Charge>([
  // cost.go
  // semver and isSemver traverse their string; the Semver accessors, comparisons and equality cost 1 (the default)
  ...each(["semver", "isSemver"], (a0) => traverse(sizeOf(a0))),
  ...each(["isSorted", "sum", "max", "min", "indexOf", "lastIndexOf"], (a0) => traversalCost(a0)),
  ...each(
    ["url", "lowerAscii", "upperAscii", "substring", "trim", "cidr", "isIP", "isCIDR", "quantity", "isQuantity"],
    (a0) => traverse(sizeOf(a0)),
  ),
  ...each(["replace", "split", "ip.isCanonical"], (a0) => Math.ceil(sizeOf(a0) * 2 * 0.1)),
  ["join", (a0, a1) => Math.ceil(joinedLength(a0, a1) * 2 * 0.1)],
  // runtimecost.go MatchesString: the same product
  ...each(["find", "findAll", "matches"], (a0, a1) => traverse(1 + sizeOf(a0)) * Math.ceil(sizeOf(a1) * 0.25)),
  ["ip", (a0) => (a0 instanceof CIDRValue ? 1 : traverse(sizeOf(a0)))],
  ["containsIP", (a0, a1) => Math.ceil(sizeOf(a0) * 2 * 0.1) + (typeof a1 === "string" ? traverse(a1.length) : 0)],
  [
    "containsCIDR",
    (a0, a1) =>
      Math.ceil(sizeOf(a0) * 2 * 0.1) + traverse(sizeOf(a0)) + 1 + (typeof a1 === "string" ? traverse(a1.length) : 0),
  ],
  // runtimecost.go
  // cel-go ext/lists.go (version 3) trackers, which come before cost.go: 1 (the call) + 10 (ListCreateBaseCost)
  // + a size times a factor, truncated. slice: the result's size (an error's is 1).
  [
    "slice",
    (a0, a1, a2) =>
      11 +
      (isCelList(a0) && typeof a1 === "bigint" && typeof a2 === "bigint" && a1 >= 0n && a1 <= a2 && a2 <= a0.size
        ? Number(a2 - a1)
        : 1),
  ],
  // the list's size times the depth (1 without one; a negative one fails, cel-go's charge then varies by platform)
  ["flatten", (a0, a1) => 11 + Math.max(0, Math.trunc(sizeOf(a0) * (typeof a1 === "bigint" ? Number(a1) : 1)))],
  ["lists.range", (a0) => 11 + (typeof a0 === "bigint" && a0 > 0n ? Number(a0) : 0)],
  // a string's reverse (strings extension) is 1
  ["reverse", (a0) => (isCelList(a0) ? 11 + a0.size : 1)],
  // n² × 2 over the keys (@sortByAssociatedKeys' argument, else the list), × 2.1 when the first is a string or bytes
  ...each(["distinct", "sort", "@sortByAssociatedKeys"], (a0, a1) => {
    const keys = a1 ?? a0;
    const n = sizeOf(keys);
    const first = isCelList(keys) ? keys.get(0) : undefined;
    return 11 + Math.trunc(n * n * (typeof first === "string" || first instanceof Uint8Array ? 2 + 0.1 : 2));
  }),
  ...each(["startsWith", "endsWith", "bytes"], (a0) => traverse(sizeOf(a0))),
  ["string", (a0) => (a0 instanceof Uint8Array ? traverse(a0.length) : 1)],
  ["@in", (_a0, a1) => (isCelList(a1) ? a1.size : 1)],
  ...each(["_==_", "_!=_"], (a0, a1) => traverse(Math.min(sizeOf(a0), sizeOf(a1)))),
  ...each(["_<_", "_<=_", "_>_", "_>=_"], (a0, a1) =>
    typeof a0 === "string" || a0 instanceof Uint8Array ? traverse(Math.min(sizeOf(a0), sizeOf(a1))) : 1,
  ),
  ["_+_", (a0, a1) => (typeof a0 === "string" || a0 instanceof Uint8Array ? traverse(sizeOf(a0) + sizeOf(a1)) : 1)],
  ["contains", (a0, a1) => traverse(sizeOf(a0)) * traverse(sizeOf(a1))],
  // cel-go ext/sets.go trackSetsCost: 1 + m × n (twice for equivalence)
  ...each(["sets.contains", "sets.intersects"], (a0, a1) => 1 + sizeOf(a0) * sizeOf(a1)),
  ["sets.equivalent", (a0, a1) => 1 + 2 * sizeOf(a0) * sizeOf(a1)],
]);

/** The cost of a call of `name` (COSTS), looked up once per function rather than per call. */
const costOf = (name: string): Charge => COSTS.get(name) ?? ONE;

/** The length of `list.join(sep)`, without building it. */
function joinedLength(list?: CelValue, sep?: CelValue): number {
  if (!isCelList(list)) return 0;
  let n = typeof sep === "string" ? sep.length * Math.max(0, list.size - 1) : 0;
  for (let i = 0, size = list.size; i < size; i++) n += sizeOf(list.get(i));
  return n;
}

/**
 * What a call builds, beyond its cost, for the work budget, by function
 * name: the length of the string or list it returns, when that can outgrow
 * its inputs; 0 for any other. Known before the call, so a call that would
 * build too much never starts.
 */
const BUILT = new Map<string, Charge>([
  [
    "replace",
    (a0, a1, a2, a3) =>
      typeof a0 === "string" && typeof a1 === "string" && typeof a2 === "string"
        ? replacedLength(a0, a1, a2, typeof a3 === "bigint" ? countOf(a3) : -1)
        : 0,
  ],
  ["join", joinedLength],
  ...each(["split", "lowerAscii", "upperAscii", "reverse", "strings.quote", "format"], (a0) => sizeOf(a0)),
  // lists: ArrayValue.concat counts the items it moves
  ["_+_", (a0, a1) => (typeof a0 === "string" || a0 instanceof Uint8Array ? sizeOf(a0) + sizeOf(a1) : 0)],
]);

const builtOf = (name: string): Charge => BUILT.get(name) ?? NONE;

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

/** Charges `meter` what a call costs and builds (cel-go's arguments: the target first, then the arguments). */
function chargeCall(meter: Meter, cost: Charge, built: Charge, target: CelValue | undefined, args: CelValue[]): void {
  const [x, y, z] = args;
  if (target === undefined) meter.charge(cost(x, y, z, args[3]), built(x, y, z, args[3]));
  else meter.charge(cost(target, x, y, z), built(target, x, y, z));
}

/** `f` charging the meter before every call it takes. */
export function metered(f: CelFunc): CelFunc {
  const inner = f as unknown as FuncLike;
  const name = inner.name;
  const cost = costOf(name);
  const built = builtOf(name);
  return handMadeFunc({
    id: inner.id,
    name,
    target: inner.target,
    arguments: inner.arguments,
    result: inner.result,
    call(id, target, args) {
      const meter = currentMeter();
      if (meter !== undefined && takes(inner, target, args)) {
        chargeCall(meter, cost, built, target, args);
      }
      return inner.call(id, target, args);
    },
  });
}

const { NULL, BYTES, UINT, BOOL, INT, DOUBLE, STRING, DYN } = CelScalar;
/** The runtime types of plain values (plainType), by their index. */
const PLAIN_TYPES: readonly TypeLike[] = [
  STRING,
  INT,
  BOOL,
  DOUBLE,
  NULL,
  BYTES,
  listType(DYN),
  mapType(DYN, DYN),
  UINT,
];

/**
 * The index in PLAIN_TYPES of a plain value's runtime type (a scalar, null,
 * bytes, a list, a map, a uint), as `celType` gives it; -1 for anything else
 * (a message, a type), left to @bufbuild/cel.
 */
export function plainType(v: unknown): number {
  switch (typeof v) {
    case "string":
      return 0;
    case "bigint":
      return 1;
    case "boolean":
      return 2;
    case "number":
      return 3;
    case "object":
      if (v === null) return 4;
      // kunion's own lists and maps first: a prototype walk is cheaper than the brand lookups below
      if (v instanceof ArrayValue || v instanceof ListValue) return 6;
      if (v instanceof MapView || v instanceof LiteralMap) return 7;
      if (v instanceof Uint8Array) return 5;
      if (isCelList(v)) return 6;
      if (isCelMap(v)) return 7;
      if (isCelUint(v)) return 8;
      return -1;
    default:
      return -1;
  }
}

const fitsType = (got: TypeLike, want: TypeLike) =>
  want.name === DYN_NAME || (got.kind === want.kind && got.name === want.name);

/** The `call` of every `celFunc` and `celMethod`: it answers undefined, doing nothing, for values it does not take. */
const DECLINING_CALLS = new Set<unknown>([
  (celFunc("f", [], DYN, () => null) as unknown as FuncLike).call,
  (celMethod("m", DYN, [], DYN, () => null) as unknown as FuncLike).call,
]);

/** @bufbuild/cel's function taking anything and answering it as a CEL value (toCel), or an error value. */
const AS_CEL = celFunc("", [DYN], DYN, (v) => v as never) as unknown as FuncLike;

/**
 * What the `call` of a `celFunc` or `celMethod` does once it knows it takes
 * the values (its types checked again, each with `celType`): the
 * implementation (`_impl`, see canary.test.ts) with the target as `this`,
 * its result made a CEL value, what it throws an error value. Undefined when
 * `f` is not one, or declares a type named dyn that @bufbuild/cel would not
 * take as dyn.
 */
function directCall(f: FuncLike): Overloads["call"] | undefined {
  const impl = (f as unknown as { _impl?: unknown })._impl;
  if (!DECLINING_CALLS.has(f.call) || typeof impl !== "function") return undefined;
  const types = [f.target, ...f.arguments] as Array<TypeLike | undefined>;
  if (types.some((t) => t !== undefined && t !== DYN && t.name === DYN_NAME)) return undefined;
  return (id, target, args) => {
    let out: unknown;
    try {
      out = impl.apply(target, args);
    } catch (e) {
      return celError(e, id);
    }
    return asResult(id, out);
  };
}

/** What a `celFunc` answers for what its implementation returned: a CEL value as it is, anything else converted. */
function asResult(id: number, out: unknown): unknown {
  return isCelValue(out) ? out : AS_CEL.call(id, undefined, [out as CelValue]);
}

/** What @bufbuild/cel calls for a function name: each overload in turn until one answers. */
export interface Overloads {
  call(id: number, target: CelValue | undefined, args: CelValue[]): unknown;
}

/**
 * The one overload a metered dispatch calls for plain values of some types:
 * its implementation (the target as `this`) and what a call is charged
 * before it runs (chargeCall's arguments).
 */
export interface SoleOverload {
  readonly impl: (...args: unknown[]) => unknown;
  readonly cost: Charge;
  readonly built: Charge;
}

/** meteredOverloads' dispatch, which can also say which overload values of given types reach. */
export interface MeteredOverloads extends Overloads {
  /**
   * For values of the runtime types of `target` and `args`: the overload
   * called, when it is the only one asked, takes them and is a `celFunc` or
   * `celMethod` (so that calling `impl` directly, what it throws an error
   * value, is what `call` does); undefined otherwise.
   */
  sole(target: CelValue | undefined, args: readonly CelValue[]): SoleOverload | undefined;
  /**
   * A dispatch for one call site with a target or not and `arity` (at most
   * 2) arguments, `x` and `y`: it answers, calls and charges as `call`, but
   * keeps the overload of the last types it saw, and calls it without an
   * array when it is the sole one (as `sole` says).
   */
  site(hasTarget: boolean, arity: 0 | 1 | 2): SiteCall;
}

/** A call site's dispatch (MeteredOverloads.site): the arguments past its arity are undefined. */
export type SiteCall = (id: number, target: CelValue | undefined, x?: CelValue, y?: CelValue) => unknown;

/** An overload to call for values of given types: how, and whether it takes them (then it is charged). */
interface Candidate {
  readonly call: Overloads["call"];
  readonly takes: boolean;
  /** The implementation `call` runs directly (directCall), if any. */
  readonly impl?: (...args: unknown[]) => unknown;
}

/**
 * One function name's overloads (in @bufbuild/cel's order), metered: the
 * same calls and charges as @bufbuild/cel's dispatch over the `metered`
 * overloads, which `general` is, but with the overloads to call resolved
 * once per combination of runtime types (an overload that cannot take them
 * is skipped rather than asked) and the cost found once per name. Values
 * other than plain ones (plainType) go to `general`.
 */
export function meteredOverloads(name: string, overloads: readonly CelFunc[], general: Overloads): MeteredOverloads {
  const cost = costOf(name);
  const built = builtOf(name);
  const inners = overloads.map((f) => {
    const inner = f as unknown as FuncLike;
    const direct = directCall(inner);
    const impl = direct === undefined ? undefined : (f as unknown as { _impl: (...args: unknown[]) => unknown })._impl;
    return { inner, direct, impl };
  });
  const resolved = new Map<number, readonly Candidate[]>();
  let lastKey = 0;
  let last: readonly Candidate[] = [];
  const resolve = (target: number, args: readonly number[]): Candidate[] => {
    const out: Candidate[] = [];
    for (const { inner: f, direct, impl } of inners) {
      let takes = (f.target === undefined) === target < 0 && args.length === f.arguments.length;
      if (takes && target >= 0) takes = fitsType(PLAIN_TYPES[target] as TypeLike, f.target as TypeLike);
      for (let i = 0; takes && i < args.length; i++)
        takes = fitsType(PLAIN_TYPES[args[i] as number] as TypeLike, f.arguments[i] as TypeLike);
      if (takes) out.push({ call: direct ?? ((id, target, args) => f.call(id, target, args)), takes, impl });
      else if (!DECLINING_CALLS.has(f.call)) out.push({ call: (id, target, args) => f.call(id, target, args), takes });
    }
    return out;
  };
  /** The sole overload for these plain types (see MeteredOverloads.sole). */
  const soleFor = (target: number, args: readonly number[]): SoleOverload | undefined => {
    const [only, ...rest] = resolve(target, args);
    if (only === undefined || rest.length > 0 || !only.takes || only.impl === undefined) return undefined;
    return { impl: only.impl, cost, built };
  };
  /** Each site's types (the key site() makes, which tells arities apart) to their sole overload, or null. */
  const soles = new Map<number, SoleOverload | null>();
  const dispatch: MeteredOverloads = {
    sole(target, args) {
      const targetType = target === undefined ? -1 : plainType(target);
      const types = args.map(plainType);
      if ((target !== undefined && targetType < 0) || types.some((t) => t < 0)) return undefined;
      return soleFor(targetType, types);
    },
    site(hasTarget, arity) {
      // The last types seen, as one number (a hex digit per value, each plainType + 1), and their sole overload.
      let lastKey = -1;
      let last: SoleOverload | undefined;
      const argsOf = (x?: CelValue, y?: CelValue): CelValue[] =>
        arity === 0 ? [] : arity === 1 ? [x as CelValue] : [x as CelValue, y as CelValue];
      return (id, target, x, y) => {
        const t = hasTarget ? plainType(target) : -1;
        const tx = arity > 0 ? plainType(x) : 0;
        const ty = arity > 1 ? plainType(y) : 0;
        if ((hasTarget && t < 0) || tx < 0 || ty < 0) return dispatch.call(id, target, argsOf(x, y));
        const key = ((t + 1) << 8) | ((tx + 1) << 4) | (ty + 1);
        if (key !== lastKey) {
          let found = soles.get(key);
          if (found === undefined) {
            found = soleFor(t, arity === 0 ? [] : arity === 1 ? [tx] : [tx, ty]) ?? null;
            soles.set(key, found);
          }
          last = found ?? undefined;
          lastKey = key;
        }
        const only = last;
        if (only === undefined) return dispatch.call(id, target, argsOf(x, y));
        const meter = currentMeter();
        if (meter !== undefined) {
          // chargeCall's arguments: the target first, then the arguments
          if (hasTarget) meter.charge(cost(target, x, y), built(target, x, y));
          else meter.charge(cost(x, y), built(x, y));
        }
        let out: unknown;
        try {
          out =
            arity === 0
              ? only.impl.call(target)
              : arity === 1
                ? only.impl.call(target, x)
                : only.impl.call(target, x, y);
        } catch (e) {
          return celError(e, id);
        }
        return asResult(id, out);
      };
    },
    call(id, target, args) {
      // The types as one number: a digit per value (0 for no target), after a leading 1.
      let key = 1;
      let targetType = -1;
      if (target !== undefined) {
        targetType = plainType(target);
        if (targetType < 0) return general.call(id, target, args);
      }
      key = key * 10 + targetType + 1;
      for (let i = 0; i < args.length; i++) {
        const t = plainType(args[i]);
        if (t < 0) return general.call(id, target, args);
        key = key * 10 + t + 1;
      }
      // Most call sites of a name see the same types as the call before.
      if (key !== lastKey) {
        let found = resolved.get(key);
        if (found === undefined) {
          found = resolve(targetType, args.map(plainType));
          resolved.set(key, found);
        }
        lastKey = key;
        last = found;
      }
      const candidates = last;
      const meter = currentMeter();
      for (let i = 0; i < candidates.length; i++) {
        const c = candidates[i] as Candidate;
        if (c.takes && meter !== undefined) chargeCall(meter, cost, built, target, args);
        const out = c.call(id, target, args);
        if (out !== undefined) return out;
      }
      return undefined;
    },
  };
  return dispatch;
}
