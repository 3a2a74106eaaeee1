/**
 * One declaration per library function, from which both the checker's
 * overloads and the runtime's function are derived: `declare` takes the
 * function's one-line signatures (language/signatures.ts) and its
 * implementation, and builds the @bufbuild/cel function from the signatures:
 * the same name, receiver and arity, each type erased to what @bufbuild/cel
 * tells apart at run time (scalars and lists; kunion's own types, maps and
 * type parameters travel as dyn), dyn where the signatures sharing the
 * implementation differ. `builtin` declares overloads @bufbuild/cel
 * implements itself; `internal` a runtime function only the AST rewrites
 * call, which the checker types itself.
 */
import { type CelFunc, CelScalar, type CelType, celFunc, celMethod, listType } from "@bufbuild/cel";
import { type Overload, parseSignatures } from "../language/signatures.js";
import type { CelT } from "../language/types.js";

export interface Declaration {
  /** The overloads the checker resolves calls against (none for an internal function). */
  readonly overloads: readonly Overload[];
  /** The function the runtime calls; undefined when @bufbuild/cel implements the overloads. */
  readonly runtime: CelFunc | undefined;
}

/**
 * An implementation: `this` is the receiver of a method. Its parameters are
 * the erased types' values (a string, a bigint, a CelList, or any CelValue for dyn).
 */
// biome-ignore lint/suspicious/noExplicitAny: implementations name their own parameter types, checked by the tests that call them
type Impl = (this: any, ...args: any[]) => unknown;

const { INT, UINT, DOUBLE, BOOL, STRING, BYTES, DYN } = CelScalar;
const LIST = listType(DYN);

/** The runtime types @bufbuild/cel dispatches on, by the checker's kinds; any other kind runs as dyn. */
const RUNTIME_TYPES: Partial<Record<CelT["k"], CelType>> = {
  int: INT,
  uint: UINT,
  double: DOUBLE,
  bool: BOOL,
  string: STRING,
  bytes: BYTES,
  list: LIST,
};
const erase = (t: CelT): CelType => RUNTIME_TYPES[t.k] ?? DYN;

/** The runtime type of one position over all signatures: their common erasure, else dyn. */
function joined(types: readonly CelT[]): CelType {
  const [first, ...rest] = types.map(erase);
  return first !== undefined && rest.every((t) => t === first) ? first : DYN;
}

/**
 * A function implemented here: `signatures` (one a line, or an array) all of
 * one name, receiver or not, and arity, sharing `impl`.
 */
export function declare(signatures: string | readonly string[], impl: Impl): Declaration {
  const overloads = parseSignatures(typeof signatures === "string" ? signatures : signatures.join("\n"));
  const [first] = overloads;
  if (first === undefined) throw new Error("declare: no signature");
  for (const o of overloads)
    if (o.name !== first.name || (o.target === undefined) !== (first.target === undefined))
      throw new Error(`declare: ${o.name} and ${first.name} in one declaration`);
    else if (o.params.length !== first.params.length) throw new Error(`declare: ${o.name} with different arities`);
  const params = first.params.map((_, i) => joined(overloads.map((o) => o.params[i] as CelT)));
  const result = joined(overloads.map((o) => o.result));
  const runtime =
    first.target === undefined
      ? celFunc(first.name, params, result, impl as never)
      : celMethod(first.name, joined(overloads.map((o) => o.target as CelT)), params, result, impl as never);
  return { overloads, runtime };
}

/** Overloads @bufbuild/cel's standard library or strings extension implements (one a line). */
export function builtin(signatures: string): Declaration {
  return { overloads: parseSignatures(signatures), runtime: undefined };
}

/** A runtime function only the AST rewrites call (language/syntax.ts); language/checker.ts types it. */
export function internal(
  name: string,
  arity: number,
  impl: (this: undefined, ...args: never[]) => unknown,
): Declaration {
  return { overloads: [], runtime: celFunc(name, new Array<CelType>(arity).fill(DYN), DYN, impl as never) };
}
