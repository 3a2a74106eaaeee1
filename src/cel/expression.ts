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
import { CostExceeded, Meter, PER_CALL_LIMIT, WorkExceeded, withMeter, workBudget } from "./cost/meter.js";
import { FUNCTIONS, planned } from "./environment.js";
import type { CelBudget } from "./index.js";
import { Checker, formatIssues } from "./language/checker.js";
import { type CelT, DYN } from "./language/types.js";
import { dynValue } from "./language/values.js";
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
  const inst = instrument(parsed.expr);
  const program: Compiled = { text, run: planned(inst.expr), baseCost: inst.baseCost };
  return { program };
}

/** Evaluates against `self`; the result as JSON, or an error (runtime error, cost exceeded, non-JSON result). */
export function evaluateExpression(
  expr: CelExpression,
  self: JsonValue,
  budget?: CelBudget,
): { value?: JsonValue; error?: string } {
  const p = expr as Compiled;
  const limit = Math.max(0, Math.min(PER_CALL_LIMIT, budget?.remaining ?? PER_CALL_LIMIT));
  const meter = new Meter(limit, workBudget(budget));
  let value: unknown;
  try {
    meter.charge(p.baseCost);
    value = withMeter(meter, () => p.run({ self: dynValue(self) }));
  } catch (e) {
    if (!(e instanceof CostExceeded || e instanceof WorkExceeded)) {
      if (budget !== undefined) budget.remaining -= meter.cost;
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }
  if (budget !== undefined) budget.remaining -= meter.cost;
  // @bufbuild/cel turns some exceptions into error values: the meter and the budget know what happened.
  if (meter.work.exhausted)
    return { error: `kunion stopped: the document exceeds its work budget of ${meter.work.limit} cost units` };
  if (meter.exceeded) return { error: "operation cancelled: actual cost limit exceeded" };
  if (isCelError(value)) return { error: value instanceof Error ? value.message : String(value) };
  return toJson(value);
}

/** A CEL result as JSON: ints as numbers when safe, maps with string keys, lists; anything else is an error. */
function toJson(v: unknown, depth = 0): { value?: JsonValue; error?: string } {
  if (depth > 100) return { error: "result is nested too deeply" };
  if (v === null || typeof v === "string" || typeof v === "boolean") return { value: v };
  if (typeof v === "number") return Number.isFinite(v) ? { value: v } : { error: `result ${v} is not a JSON number` };
  if (typeof v === "bigint" || isCelUint(v)) {
    const n = typeof v === "bigint" ? v : v.value;
    if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER))
      return { error: `result ${n} is not a safe integer` };
    return { value: Number(n) };
  }
  if (isCelList(v)) {
    const out: JsonValue[] = [];
    for (const item of v as Iterable<unknown>) {
      const r = toJson(item, depth + 1);
      if (r.error !== undefined) return r;
      out.push(r.value as JsonValue);
    }
    return { value: out };
  }
  if (isCelMap(v)) {
    const out: JsonObject = {};
    for (const [k, item] of (v as { entries(): Iterable<[unknown, unknown]> }).entries()) {
      if (typeof k !== "string") return { error: `result map has a non-string key ${String(k)}` };
      const r = toJson(item, depth + 1);
      if (r.error !== undefined) return r;
      setKey(out, k, r.value as JsonValue);
    }
    return { value: out };
  }
  if (isObject(v)) return { error: "result is not a JSON value" };
  return { error: `result of type ${typeof v} is not a JSON value` };
}
