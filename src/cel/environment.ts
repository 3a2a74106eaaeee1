/**
 * The two environments of a rule, both from the library declarations: the
 * checker's overload table, and the evaluation environment, in which every
 * function is metered for cost (cost/) and comprehensions tick; and
 * `planned`, which compiles an expression in it (language/evaluate.ts), or
 * plans it with @bufbuild/cel where that compiler leaves it, knowing which
 * functions make protobuf messages (MESSAGE_MAKERS).
 */
import { type CelEnv, type CelFunc, celEnv, plan } from "@bufbuild/cel";
import { metered, meteredOverloads, type Overloads } from "./cost/cost.js";
import { TICK, tickFunc } from "./cost/instrument.js";
import { type Expr, type FunctionTable, isTypeIdent } from "./language/checker.js";
import { compile, Unsupported } from "./language/evaluate.js";
import { type Macros, selectFromVariables, VAR, walk } from "./language/syntax.js";
import { functionsOf, INTRODUCED, RUNTIME_FUNCS } from "./libraries/index.js";

export { FUNCTIONS } from "./libraries/index.js";

/** The functions and macros a new expression may use: the checker's side of an environment. */
export interface CelLibraries {
  /** The Kubernetes minor whose base environment this is (environment/base.go); Infinity: the newest. */
  readonly minor: number;
  readonly functions: FunctionTable;
  readonly macros: Macros;
}

const librarySets = new Map<number, CelLibraries>();

/**
 * The libraries of Kubernetes minor `minor`'s base CEL environment (every one by default): what an API server
 * compiles a new expression with is its compatibility version's, one minor below its own
 * (DefaultCompatibilityVersion); an expression it already stores runs with all it has, so the runtime has every
 * function whatever the libraries.
 */
export function celLibraries(minor = Number.POSITIVE_INFINITY): CelLibraries {
  let libraries = librarySets.get(minor);
  if (libraries === undefined) {
    libraries = {
      minor,
      functions: functionsOf(minor),
      macros: {
        twoVariable: minor >= INTRODUCED.twoVariableComprehensions,
        sortBy: minor >= INTRODUCED.listExtension,
      },
    };
    librarySets.set(minor, libraries);
  }
  return libraries;
}

function buildEnv(): CelEnv {
  // @bufbuild/cel's standard library and the declared functions, as one resolver, each then metered.
  const base = celEnv({ funcs: [...RUNTIME_FUNCS] });
  const general = celEnv({ funcs: [...[...base.funcs].map(metered), tickFunc()] });
  // The planner finds each name's overloads in `funcs`: there, one dispatch per name over the same overloads
  // (cost.ts meteredOverloads), which @bufbuild/cel's own (`general`) takes values other than plain ones.
  const byName = new Map<string, CelFunc[]>();
  for (const f of base.funcs) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const calls = new Map<string, Overloads>();
  for (const [name, overloads] of byName) {
    const group = general.funcs.find(name);
    if (group !== undefined) calls.set(name, meteredOverloads(name, overloads, group as unknown as Overloads));
  }
  calls.set(TICK, tickFunc() as unknown as Overloads);
  calls.set(VAR, { call: (_id, _target, args) => args[0] });
  const funcs = { find: (name: string) => calls.get(name), [Symbol.iterator]: () => general.funcs[Symbol.iterator]() };
  return Object.create(general, { funcs: { value: funcs } }) as CelEnv;
}

/** The evaluation environment (metered). */
export const ENV: CelEnv = buildEnv();

/**
 * The functions that can answer a protobuf message (a timestamp, a
 * duration) for arguments that are none; every other function answers one
 * only when given one (environment.test.ts derives this from the
 * declarations).
 */
export const MESSAGE_MAKERS: ReadonlySet<string> = new Set(["timestamp", "duration"]);

/** Whether `expr` calls one of MESSAGE_MAKERS. */
export function callsMessageMaker(expr: Expr): boolean {
  let found = false;
  walk(expr, (e) => {
    if (e.exprKind.case === "callExpr" && MESSAGE_MAKERS.has(e.exprKind.value.function)) found = true;
  });
  return found;
}

/**
 * An instrumented expression (cost/instrument.ts) compiled in ENV, variables
 * selected from directly. `messageBindings` false: the bindings never hold a
 * protobuf message (JSON wrapped by dynValue), so an expression calling none
 * of MESSAGE_MAKERS meets none, and runs without what only messages need.
 */
export function planned(expr: Expr, messageBindings = true): (bindings: Record<string, unknown>) => unknown {
  const selected = selectFromVariables(expr, isTypeIdent);
  try {
    return compile(selected, ENV, TICK, !messageBindings && !callsMessageMaker(selected));
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
  }
  const p = plan(ENV, selected);
  return (bindings) => p(bindings as never);
}
