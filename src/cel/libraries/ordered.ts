/**
 * `isLessThan`, `isGreaterThan` and `compareTo` of the library types with an
 * order (the quantity's and the semver's): each type declares its own
 * overloads for the checker, and one runtime function a name runs them all,
 * as the runtime has one function a signature and every library type runs as
 * dyn. The value compares itself (language/values.ts OrderedValue).
 */
import { parseSignatures } from "../language/signatures.js";
import { CelRuntimeError, OrderedValue } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";

function compared(a: unknown, b: unknown): number {
  if (!(a instanceof OrderedValue)) throw new CelRuntimeError("no such overload");
  return a.compare(b);
}

const RUNTIME = {
  isLessThan: declare("dyn.isLessThan(dyn) -> bool", function (this: unknown, o: unknown) {
    return compared(this, o) < 0;
  }).runtime,
  isGreaterThan: declare("dyn.isGreaterThan(dyn) -> bool", function (this: unknown, o: unknown) {
    return compared(this, o) > 0;
  }).runtime,
  compareTo: declare("dyn.compareTo(dyn) -> int", function (this: unknown, o: unknown) {
    return BigInt(compared(this, o));
  }).runtime,
};

/** The comparisons of the library type `type` (`Quantity`, `Semver`), as its library declares them. */
export function comparisonsOf(type: string): Declaration[] {
  return [
    { overloads: parseSignatures(`${type}.isLessThan(${type}) -> bool`), runtime: RUNTIME.isLessThan },
    { overloads: parseSignatures(`${type}.isGreaterThan(${type}) -> bool`), runtime: RUNTIME.isGreaterThan },
    { overloads: parseSignatures(`${type}.compareTo(${type}) -> int`), runtime: RUNTIME.compareTo },
  ];
}
