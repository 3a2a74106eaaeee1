/**
 * The two environments of a rule, both from the library declarations: the
 * checker's overload table, and the evaluation environment, in which every
 * function is metered for cost (cost/) and comprehensions tick.
 */
import { type CelEnv, celEnv } from "@bufbuild/cel";
import { metered } from "./cost/cost.js";
import { tickFunc } from "./cost/instrument.js";
import { RUNTIME_FUNCS } from "./libraries/index.js";

export { FUNCTIONS } from "./libraries/index.js";

function buildEnv(): CelEnv {
  // @bufbuild/cel's standard library and the declared functions, as one resolver, each then metered.
  const base = celEnv({ funcs: [...RUNTIME_FUNCS] });
  return celEnv({ funcs: [...[...base.funcs].map(metered), tickFunc()] });
}

/** The evaluation environment (metered). */
export const ENV: CelEnv = buildEnv();
