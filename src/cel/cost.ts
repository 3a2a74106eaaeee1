/**
 * Runtime cost accounting. @bufbuild/cel has none, so every function is
 * wrapped to charge a cost close to cel-go's `ActualCost` (1 per call, string
 * and list operations by size, regexes by input × pattern length), and every
 * comprehension charges per iteration through an injected `@kunion_tick` call.
 * When the limit is reached the meter throws, which unwinds the whole
 * evaluation at once: a runaway rule stops after about `limit` steps.
 */
import { type CelFunc, type CelValue, isCelList, isCelMap } from "@bufbuild/cel";

/** Per-expression limit (apiserver `PerCallLimit`). */
export const PER_CALL_LIMIT = 1_000_000;
/** Per-object budget (apiserver `RuntimeCELCostBudget`). */
export const RUNTIME_BUDGET = 10_000_000;

export class CostExceeded extends Error {
  constructor() {
    super("operation cancelled: actual cost limit exceeded");
  }
}

export class Meter {
  cost = 0;
  exceeded = false;
  constructor(readonly limit: number) {}
  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) {
      this.exceeded = true;
      throw new CostExceeded();
    }
  }
}

let current: Meter | undefined;

/** Runs `fn` with `meter` charged by every instrumented call. */
export function withMeter<T>(meter: Meter, fn: () => T): T {
  const saved = current;
  current = meter;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

export const TICK = "@kunion_tick";

const FUNC_MARK = Symbol.for("@bufbuild/cel/func");

function sizeOf(v: CelValue | undefined): number {
  if (typeof v === "string") return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (isCelList(v)) return v.size;
  if (isCelMap(v)) return v.size;
  return 1;
}
const traverse = (n: number) => Math.ceil(n * 0.1);

/** cel-go's actual cost of one call (interpreter/runtimecost.go, k8s library cost.go), approximately. */
export function callCost(name: string, target: CelValue | undefined, args: readonly CelValue[]): number {
  const a0 = target ?? args[0];
  const a1 = target === undefined ? args[1] : args[0];
  switch (name) {
    case "matches":
    case "find":
    case "findAll":
      return Math.max(1, traverse(1 + sizeOf(a0)) * Math.ceil(sizeOf(a1) * 0.25));
    case "contains":
    case "startsWith":
    case "endsWith":
      return 1 + traverse(sizeOf(a0)) * Math.max(1, traverse(sizeOf(a1)));
    case "_==_":
    case "_!=_":
    case "_<_":
    case "_<=_":
    case "_>_":
    case "_>=_": {
      const n = Math.min(sizeOf(a0), sizeOf(a1));
      return (
        1 + (typeof a0 === "string" || a0 instanceof Uint8Array ? traverse(n) : isCelList(a0) || isCelMap(a0) ? n : 0)
      );
    }
    case "_+_":
      if (typeof a0 === "string" || a0 instanceof Uint8Array) return 1 + traverse(sizeOf(a0) + sizeOf(a1));
      if (isCelList(a0)) return 1 + sizeOf(a0) + sizeOf(a1);
      return 1;
    case "@in":
      return 1 + (isCelList(a1) ? sizeOf(a1) : 0);
    case "isSorted":
    case "sum":
    case "min":
    case "max":
    case "indexOf":
    case "lastIndexOf":
    case "join":
    case "sets.contains":
    case "sets.equivalent":
    case "sets.intersects":
      return (
        1 +
        (isCelList(a0) ? sizeOf(a0) * (name.startsWith("sets.") ? Math.max(1, sizeOf(a1)) : 1) : traverse(sizeOf(a0)))
      );
    case "split":
    case "replace":
    case "lowerAscii":
    case "upperAscii":
    case "trim":
    case "reverse":
    case "substring":
    case "charAt":
    case "format":
    case "strings.quote":
    case "url":
    case "isURL":
    case "quantity":
    case "isQuantity":
    case "ip":
    case "isIP":
    case "cidr":
    case "isCIDR":
    case "ip.isCanonical":
    case "validate":
    case "string":
    case "timestamp":
    case "duration":
      return 1 + traverse(sizeOf(a0) + (name === "validate" ? sizeOf(a1) : 0));
    default:
      return 1;
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

/** `f` charging the meter on every successful call. */
export function metered(f: CelFunc): CelFunc {
  const inner = f as unknown as FuncLike;
  const name = inner.name;
  const wrapper: FuncLike & { [FUNC_MARK]: object } = {
    [FUNC_MARK]: {},
    id: inner.id,
    name,
    target: inner.target,
    arguments: inner.arguments,
    result: inner.result,
    call(id, target, args) {
      const r = inner.call(id, target, args);
      if (r !== undefined && current !== undefined) current.charge(callCost(name, target, args));
      return r;
    },
  };
  return wrapper as unknown as CelFunc;
}

/** `@kunion_tick(value, weight)`: charges `weight` and returns `value` (loop conditions are wrapped in it). */
export function tickFunc(): CelFunc {
  const f: FuncLike & { [FUNC_MARK]: object } = {
    [FUNC_MARK]: {},
    id: `${TICK}(dyn,int)`,
    name: TICK,
    target: undefined,
    arguments: [],
    result: undefined,
    call(_id, target, args) {
      if (target !== undefined || args.length !== 2) return undefined;
      if (current !== undefined) current.charge(Number(args[1]));
      return args[0];
    },
  };
  return f as unknown as CelFunc;
}
