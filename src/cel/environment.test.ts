import {
  type CelValue,
  celEnv,
  celType,
  celUint,
  isCelError,
  isCelList,
  isCelMap,
  isCelUint,
  plan,
} from "@bufbuild/cel";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { JsonValue } from "../value/index.js";
import { metered } from "./cost/cost.js";
import { Meter, WorkBudget, withMeter } from "./cost/meter.js";
import { callsMessageMaker, ENV, MESSAGE_MAKERS, planned } from "./environment.js";
import type { Expr } from "./language/checker.js";
import { isTypeIdent } from "./language/checker.js";
import { callNode, node, parseRule, selectFromVariables, VAR, walk } from "./language/syntax.js";
import type { CelT } from "./language/types.js";
import { dynValue, OpaqueValue } from "./language/values.js";
import { makeDuration, makeTimestamp } from "./language/wkt.js";
import { DECLARATIONS, RUNTIME_FUNCS } from "./libraries/index.js";

// What ENV's dispatch must match: @bufbuild/cel's own, over every function metered one by one.
const base = celEnv({ funcs: [...RUNTIME_FUNCS] });
const reference = celEnv({ funcs: [...base.funcs].map(metered) });

/** Each overload: its name, and the names of its receiver's type (if any) and its parameters' types. */
const overloads = [...base.funcs].map((f) => ({
  name: f.name,
  target: f.target?.name,
  params: f.arguments.map((t) => t.name),
}));

const ident = (id: number, name: string): Expr =>
  node(id, { case: "identExpr", value: { $typeName: "cel.expr.Expr.Ident", name } } as Expr["exprKind"]);

const json: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 12 }),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 12 })), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 3 }), { maxKeys: 3 }),
);
/** Values of each runtime type, plain (scalars, bytes, lists, maps, uints) or not (timestamps, durations). */
const byType: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(
    fc.constantFrom("", "a b", "1Mi", "10.0.0.1", "10.0.0.0/8", "https://x.y/z", "a.*", "%s"),
    fc.string({ maxLength: 5 }),
  ),
  int: fc.bigInt(-3n, 12n),
  double: fc.double({ min: -4, max: 4, noNaN: true }),
  uint: fc.bigInt(0n, 12n).map((n) => celUint(n)),
  bool: fc.boolean(),
  bytes: fc.uint8Array({ maxLength: 3 }),
  null_type: fc.constant(null),
  list: fc
    .array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 12 })), { maxLength: 4 })
    .map(dynValue),
  map: json.map(dynValue),
  "google.protobuf.Timestamp": fc.constant(makeTimestamp(1_700_000_000n, 0)),
  "google.protobuf.Duration": fc.constant(makeDuration(3_600_000_000_000n)),
};
const value = fc.oneof(...Object.values(byType));
/** Mostly a value of the declared type, else any. */
const valueFor = (type: string | undefined) =>
  fc.oneof({ arbitrary: byType[type ?? ""] ?? value, weight: 4 }, { arbitrary: value, weight: 1 });

/** A result in comparable form. */
function shown(v: unknown): unknown {
  if (isCelError(v)) return `error at ${v.exprId}: ${v.message}`;
  if (typeof v === "bigint") return `${v}n`;
  if (isCelUint(v)) return `${v.value}u`;
  if (v instanceof Uint8Array) return [...v];
  if (v instanceof OpaqueValue) return `${v.celTypeName}: ${String(v)}`;
  if (isCelList(v)) return [...(v as Iterable<unknown>)].map(shown);
  if (isCelMap(v)) return [...(v as unknown as Map<unknown, unknown>).entries()].map(([k, x]) => [shown(k), shown(x)]);
  if (typeof v !== "object" || v === null) return v;
  try {
    return `${celType(v as CelValue)}: ${String(v)}`;
  } catch {
    return "not a CEL value";
  }
}

function evaluate(env: typeof ENV, expr: Expr, bindings: Record<string, unknown>) {
  const meter = new Meter(1e12, new WorkBudget(1e15));
  const out = withMeter(meter, () => plan(env, expr)(bindings as never));
  return { out: shown(out), cost: meter.cost, work: meter.work.spent };
}

describe("ENV's dispatch (cost.ts meteredOverloads)", () => {
  test("calls, answers and charges as @bufbuild/cel's own dispatch over the metered functions", () => {
    const call = fc.constantFrom(...overloads).chain((o) =>
      fc.record({
        name: fc.constant(o.name),
        // Mostly the shape of the overload; sometimes another, which no overload may take.
        target: fc.oneof(
          { arbitrary: fc.constant(o.target !== undefined), weight: 9 },
          fc.constant(o.target === undefined),
        ),
        arity: fc.oneof({ arbitrary: fc.constant(o.params.length), weight: 9 }, fc.integer({ min: 0, max: 3 })),
        targetValue: valueFor(o.target),
        args: fc.tuple(valueFor(o.params[0]), valueFor(o.params[1]), valueFor(o.params[2]), valueFor(o.params[3])),
      }),
    );
    fc.assert(
      fc.property(call, ({ name, target, arity, targetValue, args }) => {
        const params = Array.from({ length: arity }, (_, i) => ident(i + 2, `a${i}`));
        const expr = callNode(1, name, params, target ? ident(10, "t") : undefined);
        const bindings: Record<string, unknown> = { t: targetValue };
        for (let i = 0; i < arity; i++) bindings[`a${i}`] = args[i];
        expect(evaluate(ENV, expr, bindings)).toEqual(evaluate(reference, expr, bindings));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("planned (variables selected from directly)", () => {
  // Each expression as plan() runs it from the parser's AST, bare identifiers and all.
  const exprs = [
    "self.a",
    "self.a.b",
    "self.a.b.c",
    "has(self.a)",
    "has(self.a.b)",
    "self['a']",
    "self['a'].b",
    "self.?a.b.orValue(0)",
    "self.a.all(x, x.b == 1)",
    "[{'b': 1}].exists(x, x.b == 1)",
    "cel.bind(v, self.a, v.b)",
    "type(self) == map",
    "self.a[0]",
  ];
  const programs = exprs.map((text) => {
    const parsed = parseRule(text).expr;
    return { text, expr: parsed, run: planned(parsed) };
  });
  const leaf = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.string({ maxLength: 1 }));
  const tree = fc.letrec<{ node: JsonValue }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("node"), { maxLength: 2 }),
      fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 3 }),
    ),
  })).node;

  test("answers as plan() does, errors included", () => {
    fc.assert(
      fc.property(tree, (self) => {
        for (const p of programs) {
          const bindings = { self: dynValue(self) };
          // The same answer and error message; an error may name another node of the chain (kunion shows no ids).
          const unnamed = (v: unknown) => JSON.stringify(shown(v)).replace(/error at \d+/g, "error");
          expect(unnamed(p.run(bindings)), p.text).toEqual(unnamed(plan(ENV, p.expr)(bindings as never)));
        }
      }),
      { numRuns: 300 },
    );
  });

  test("selects from a call, not from a bare identifier, except a type's name", () => {
    const calls: string[] = [];
    walk(selectFromVariables(parseRule("self.a.b + m['k'] + int.x + has(self.c)").expr, isTypeIdent), (e) => {
      const arg =
        e.exprKind.case === "callExpr" && e.exprKind.value.function === VAR ? e.exprKind.value.args[0] : undefined;
      if (arg?.exprKind.case === "identExpr") calls.push(arg.exprKind.value.name);
    });
    expect(calls.sort()).toEqual(["m", "self"]);
  });
});

describe("MESSAGE_MAKERS (what an expression over JSON must call to meet a protobuf message)", () => {
  /** Whether a declared type holds a timestamp or a duration, the only messages a declaration names. */
  const holdsMessage = (t: CelT | undefined): boolean => {
    if (t === undefined) return false;
    switch (t.k) {
      case "timestamp":
      case "duration":
        return true;
      case "list":
        return holdsMessage(t.elem);
      case "map":
        return holdsMessage(t.key) || holdsMessage(t.val);
      case "opaque":
        return t.params.some(holdsMessage);
      case "type":
        return holdsMessage(t.of);
      default:
        return false;
    }
  };
  const all = DECLARATIONS.flatMap((d) => d.overloads);

  test("are the functions with an overload answering one for arguments that hold none", () => {
    const makers = all.filter((o) => holdsMessage(o.result) && ![o.target, ...o.params].some(holdsMessage));
    expect(new Set(makers.map((o) => o.name))).toEqual(MESSAGE_MAKERS);
  });

  test("every other overload answers a type that holds no message, or one made of its own arguments' types", () => {
    // dyn answers its argument (evaluate.test.ts checks its implementation); type() is left to plan
    const untyped = all.filter((o) => o.result.k === "dyn").map((o) => o.name);
    expect(new Set(untyped)).toEqual(new Set(["dyn"]));
    // a type variable is bound by the arguments: a message only when one of them holds one
    const mentionsVar = (t: CelT | undefined, name: string): boolean =>
      t !== undefined && JSON.stringify(t).includes(`"k":"var","name":${JSON.stringify(name)}`);
    for (const o of all)
      if (o.result.k === "var")
        expect(
          [o.target, ...o.params].some((t) => mentionsVar(t, (o.result as { name: string }).name)),
          o.name,
        ).toBe(true);
  });

  test("callsMessageMaker finds a call of one anywhere in an expression", () => {
    const parse = (text: string) => parseRule(text).expr;
    expect(callsMessageMaker(selectFromVariables(parse("self.a.map(x, dyn(x))"), isTypeIdent))).toBe(false);
    expect(callsMessageMaker(selectFromVariables(parse("[1].map(x, timestamp(x))"), isTypeIdent))).toBe(true);
    expect(callsMessageMaker(parse("self.a + duration('1s')"))).toBe(true);
  });
});
