/**
 * Free-standing CEL expressions over a dynamic JSON `self` (no schema typing),
 * for conversion declarations: compiled with the same syntax, checker and
 * environment as `x-kubernetes-validations` (strings extension, Kubernetes
 * libraries, `cel.bind`, optional syntax), metered for cost, and their results
 * turned back into JSON.
 */
import { isCelError, isCelList, isCelMap, isCelUint } from "@bufbuild/cel";
import { isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { instrument } from "./cost/instrument.js";
import { CostExceeded, inDocument, Meter, PER_CALL_LIMIT, swapMeter, WorkExceeded, workBudget } from "./cost/meter.js";
import { FUNCTIONS, planned } from "./environment.js";
import type { CelBudget } from "./index.js";
import { Checker, formatIssues } from "./language/checker.js";
import { withOptionalSelects } from "./language/syntax.js";
import { type CelT, DYN } from "./language/types.js";
import { dynValue, LiteralMap } from "./language/values.js";
import { parseOrExplain } from "./rules.js";

/** A compiled expression (opaque). */
export interface CelExpression {
  readonly text: string;
  readonly __celExpression?: never;
}

interface Compiled extends CelExpression {
  run: (bindings: Record<string, unknown>) => unknown;
  baseCost: number;
}

const cache = new Map<string, { program?: CelExpression; error?: string }>();
const CACHE_LIMIT = 10_000;

/** Compiles `text` with `self` of type dyn; cached by text. Never throws. */
export function compileExpression(text: string): { program?: CelExpression; error?: string } {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  let out: { program?: CelExpression; error?: string };
  try {
    out = compileUncached(text);
  } catch (e) {
    out = { error: `compilation failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, out);
  return out;
}

function compileUncached(text: string): { program?: CelExpression; error?: string } {
  if (text.trim() === "") return { error: "expression is empty" };
  const read = parseOrExplain(text);
  if ("error" in read) return { error: read.error };
  const { parsed } = read;
  const checker = new Checker(FUNCTIONS, parsed.positions);
  checker.check(parsed.expr, new Map<string, CelT>([["self", DYN]]));
  if (checker.issues.length > 0) return { error: `compilation failed: ${formatIssues(text, checker.issues)}` };
  const inst = instrument(withOptionalSelects(parsed.expr, checker.optionalSelects));
  // self is JSON wrapped by dynValue: never a message
  const program: Compiled = { text, run: planned(inst.expr, false), baseCost: inst.baseCost };
  return { program };
}

/**
 * The meter of an evaluation without a budget outside a document, which has a work budget of its own: one
 * kept between evaluations and reset for each (evaluations do not nest, but one that did would make its own).
 */
let spare: Meter | undefined = new Meter(PER_CALL_LIMIT);

/** How evaluateExpression answers its result. */
export interface ResultOptions {
  /**
   * Map entries whose value is null left out of the result, at every depth
   * (Kubernetes takes null as absent); lists keep their nulls, and a null
   * result stays null.
   */
  dropNullEntries?: boolean;
}

/** Evaluates against `self`; the result as JSON, or an error (runtime error, cost exceeded, non-JSON result). */
export function evaluateExpression(
  expr: CelExpression,
  self: JsonValue,
  budget?: CelBudget,
  options?: ResultOptions,
): { value?: JsonValue; error?: string } {
  const p = expr as Compiled;
  let meter: Meter;
  const reuse = budget === undefined && spare !== undefined && !inDocument();
  if (reuse) {
    meter = spare as Meter;
    spare = undefined;
    meter.reset();
  } else {
    const limit = Math.max(0, Math.min(PER_CALL_LIMIT, budget?.remaining ?? PER_CALL_LIMIT));
    meter = new Meter(limit, workBudget(budget));
  }
  let value: unknown;
  let failure: string | undefined;
  try {
    meter.charge(p.baseCost);
    const saved = swapMeter(meter);
    try {
      value = p.run({ self: dynValue(self) });
    } finally {
      swapMeter(saved);
    }
  } catch (e) {
    if (!(e instanceof CostExceeded || e instanceof WorkExceeded)) failure = e instanceof Error ? e.message : String(e);
  }
  if (budget !== undefined) budget.remaining -= meter.cost;
  const { exceeded, work } = meter;
  const exhausted = work.exhausted;
  if (reuse) spare = meter;
  if (failure !== undefined) return { error: failure };
  // @bufbuild/cel turns some exceptions into error values: the meter and the budget know what happened.
  if (exhausted) return { error: `kunion stopped: the document exceeds its work budget of ${work.limit} cost units` };
  if (exceeded) return { error: "operation cancelled: actual cost limit exceeded" };
  if (isCelError(value)) return { error: value instanceof Error ? value.message : String(value) };
  return toJson(value, options?.dropNullEntries === true);
}

/** Why a result is not JSON: its words are the evaluation's error. */
class NotJson {
  constructor(readonly message: string) {}
}

/** A CEL result as JSON (without null map entries: `dropNulls`), or its reason not to be one. */
function toJson(v: unknown, dropNulls: boolean): { value?: JsonValue; error?: string } {
  try {
    return { value: jsonOf(v, 0, dropNulls) };
  } catch (e) {
    if (e instanceof NotJson) return { error: e.message };
    throw e;
  }
}

/** A CEL result as JSON: ints as numbers when safe, maps with string keys, lists; anything else throws NotJson. */
function jsonOf(v: unknown, depth: number, dropNulls: boolean): JsonValue {
  if (depth > 100) throw new NotJson("result is nested too deeply");
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (Number.isFinite(v)) return v;
    throw new NotJson(`result ${v} is not a JSON number`);
  }
  if (typeof v === "bigint" || isCelUint(v)) {
    const n = typeof v === "bigint" ? v : v.value;
    if (n > MAX_SAFE || n < MIN_SAFE) throw new NotJson(`result ${n} is not a safe integer`);
    return Number(n);
  }
  if (isCelList(v)) {
    const list = v as unknown as { size: number; get(i: number): unknown };
    const out: JsonValue[] = [];
    for (let i = 0, n = list.size; i < n; i++) out.push(jsonOf(list.get(i), depth + 1, dropNulls));
    return out;
  }
  if (v instanceof LiteralMap) {
    // a map literal's own arrays: no callback per entry, as forEach would make
    const out: JsonObject = {};
    const { keyList, valueList } = v;
    for (let i = 0; i < keyList.length; i++) putEntry(out, keyList[i], valueList[i], depth, dropNulls);
    return out;
  }
  if (isCelMap(v)) {
    const out: JsonObject = {};
    // forEach rather than entries(): the same pairs, without a generator and an array for each
    (v as { forEach(cb: (item: unknown, k: unknown) => void): void }).forEach((item, k) => {
      putEntry(out, k, item, depth, dropNulls);
    });
    return out;
  }
  if (isObject(v)) throw new NotJson("result is not a JSON value");
  throw new NotJson(`result of type ${typeof v} is not a JSON value`);
}

/** A result map's entry `k: item` set in `out` (left out when null and `dropNulls`); a key not a string throws NotJson. */
function putEntry(out: JsonObject, k: unknown, item: unknown, depth: number, dropNulls: boolean): void {
  if (typeof k !== "string") throw new NotJson(`result map has a non-string key ${String(k)}`);
  // a null entry is converted all the same: too deep is too deep, whatever is left out
  const json = jsonOf(item, depth + 1, dropNulls);
  if (json !== null || !dropNulls) setKey(out, k, json);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
