import { describe, expect, test } from "vitest";
import { TICK } from "../cost/instrument.js";
import { ENV } from "../environment.js";
import { compileExpression, evaluateExpression } from "../index.js";
import { OPT_INDEX, OPT_SELECT } from "../language/checker.js";
import type { Overload } from "../language/signatures.js";
import type { CelT } from "../language/types.js";
import { DECLARATIONS, FUNCTIONS } from "./index.js";
import { callOf } from "./testing.js";

/** A call of overload `o` on sample arguments, written as a rule would write it. */
function callOfEvery(o: Overload): string {
  const text = callOf(o);
  if (text === undefined) throw new Error(`no sample call of ${o.name}`);
  return text;
}

const signature = (o: Overload) =>
  `${o.target === undefined ? "" : `${JSON.stringify(o.target)}.`}${o.name}(${o.params.map((p) => JSON.stringify(p)).join(", ")})`;
const dispatchFailed = /no such overload|no matching overload|unbound function/;

describe("each declared function is both checked and run", () => {
  const overloads = DECLARATIONS.flatMap((d) => d.overloads);
  // the functions only a macro calls (`cel.@mapInsert`, `@sortByAssociatedKeys`): their macros' tests call them
  const writable = overloads.filter((o) => !o.name.includes("@"));

  test("the declarations cover the libraries", () => {
    // a floor, so that losing a library's declarations fails here rather than passing vacuously below
    expect(overloads.length).toBeGreaterThan(250);
  });

  test.each(writable.map((o) => [signature(o), o] as const))(
    "%s: the checker accepts a call, the runtime runs it",
    (_, o) => {
      // The call inside a list literal: its result, of whatever type, need not be JSON; its error still surfaces.
      const text = `[${callOfEvery(o)}].size() == 1`;
      const compiled = compileExpression(text);
      expect(compiled.error, text).toBeUndefined();
      const out = evaluateExpression(compiled.program!, null);
      if (out.error !== undefined) expect(out.error, text).not.toMatch(dispatchFailed);
      else expect(out.value, text).toBe(true);
    },
  );

  // The runtime's type names for the declared types; others (type parameters, kunion's types) are taken as dyn.
  const runtimeName = (t: CelT): string | undefined =>
    t.k === "timestamp"
      ? "google.protobuf.Timestamp"
      : t.k === "duration"
        ? "google.protobuf.Duration"
        : ["int", "uint", "double", "bool", "string", "bytes", "list", "map"].includes(t.k)
          ? t.k
          : undefined;
  const accepts = (declared: CelT, runtime: { name: string }) => {
    const name = runtimeName(declared);
    return runtime.name === "dyn" || name === undefined || name === runtime.name;
  };

  /**
   * @bufbuild/cel's standard library runs `duration(int)`; kunion's checker does not declare it, as
   * cel-go no longer does. cel-go declared it (IntToDuration) with no conversion behind it: `Int`'s
   * ConvertToType (common/types/int.go) has no duration case, so every call failed at evaluation with
   * "type conversion error from 'int' to 'google.protobuf.Duration'" (cel-expr/cel-go#1299), and
   * cel-go#1300 removed the declaration, so its checker refuses the call, as kunion's does below.
   */
  const undeclaredOnPurpose = ["duration(int)"];

  test("duration(int) is refused with cel-go's words (cel-expr/cel-go#1300)", () => {
    expect(compileExpression("duration(5) > duration('1s')").error).toContain(
      "found no matching overload for 'duration' applied to '(int)'",
    );
    expect(compileExpression("duration('5s') > duration('1s')").error).toBeUndefined();
  });

  test("every runtime function implements a declared overload (or is internal)", () => {
    // called only by the AST rewrites, and typed (or skipped) by the checker itself
    const internal = new Set([OPT_SELECT, OPT_INDEX, TICK]);
    const undeclared: string[] = [];
    for (const f of ENV.funcs as Iterable<{
      id: string;
      name: string;
      target: { name: string } | undefined;
      arguments: readonly { name: string }[];
    }>) {
      if (internal.has(f.name)) continue;
      const declared = (FUNCTIONS.byName.get(f.name) ?? []).some(
        (o) =>
          (o.target === undefined) === (f.target === undefined) &&
          (o.target === undefined || accepts(o.target, f.target as { name: string })) &&
          o.params.length === f.arguments.length &&
          o.params.every((p, i) => accepts(p, f.arguments[i] as { name: string })),
      );
      if (!declared) undeclared.push(f.id);
    }
    expect(undeclared).toEqual(undeclaredOnPurpose);
  });
});
