/**
 * Cost per comprehension iteration: `instrument` wraps each loop condition in
 * `@kunion_tick(cond, weight)`, the weight being the identifier and select
 * nodes one iteration evaluates, and `tickFunc` is the runtime function that
 * charges that weight to the running meter and returns the condition.
 */
import type { CelFunc } from "@bufbuild/cel";
import type { Expr } from "../language/checker.js";
import { callNode, constNode, maxId, node, transform } from "../language/syntax.js";
import { handMadeFunc } from "./cost.js";
import { currentMeter } from "./meter.js";

export const TICK = "@kunion_tick";

/** Number of identifier/select nodes evaluated unconditionally in `e` (nested comprehension bodies excluded). */
function staticWeight(e: Expr): number {
  const k = e.exprKind;
  switch (k.case) {
    case "identExpr":
      return 1;
    case "selectExpr":
      return 1 + (k.value.operand ? staticWeight(k.value.operand) : 0);
    case "constExpr":
      return 0;
    case "callExpr": {
      const fn = k.value.function;
      if (fn === "_&&_" || fn === "_||_" || fn === "_?_:_") return k.value.args[0] ? staticWeight(k.value.args[0]) : 0;
      let w = k.value.target ? staticWeight(k.value.target) : 0;
      for (const a of k.value.args) w += staticWeight(a);
      return w;
    }
    case "listExpr":
      return k.value.elements.reduce((s, x) => s + staticWeight(x), 0);
    case "structExpr":
      return k.value.entries.reduce(
        (s, en) =>
          s +
          (en.value ? staticWeight(en.value) : 0) +
          (en.keyKind.case === "mapKey" ? staticWeight(en.keyKind.value) : 0),
        0,
      );
    case "comprehensionExpr":
      return (
        (k.value.iterRange ? staticWeight(k.value.iterRange) : 0) +
        (k.value.accuInit ? staticWeight(k.value.accuInit) : 0)
      );
    default:
      return 0;
  }
}

/** Wraps every comprehension's loop condition in `@kunion_tick(cond, weight)` (per-iteration cost). */
export function instrument(expr: Expr): { expr: Expr; baseCost: number } {
  let next = maxId(expr) + 1;
  const out = transform(expr, (e) => {
    const k = e.exprKind;
    if (k.case !== "comprehensionExpr" || !k.value.loopCondition || !k.value.loopStep) return e;
    const weight = 1 + staticWeight(k.value.loopCondition) + staticWeight(k.value.loopStep);
    const cond = callNode(next++, TICK, [k.value.loopCondition, constNode(next++, "int64Value", BigInt(weight))]);
    return node(Number(e.id), { case: "comprehensionExpr", value: { ...k.value, loopCondition: cond } });
  });
  return { expr: out, baseCost: staticWeight(expr) };
}

/** `@kunion_tick(value, weight)`: charges `weight` and returns `value`. */
export function tickFunc(): CelFunc {
  return handMadeFunc({
    id: `${TICK}(dyn,int)`,
    name: TICK,
    target: undefined,
    arguments: [],
    result: undefined,
    call(_id, target, args) {
      if (target !== undefined || args.length !== 2) return undefined;
      currentMeter()?.charge(Number(args[1]));
      return args[0];
    },
  });
}
