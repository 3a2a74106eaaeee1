/**
 * Canaries: one test per internal of @bufbuild/cel or @bufbuild/re2 that
 * kunion relies on (a private field, a brand symbol, the shape of a value or
 * of the AST, the wording of a message). An upgrade that changes one fails
 * the test named after it, rather than some rule far away.
 */
import {
  CelScalar,
  celEnv,
  celFunc,
  celList,
  celMethod,
  isCelError,
  isCelList,
  isCelMap,
  parse,
  plan,
} from "@bufbuild/cel";
import { RE2JS } from "@bufbuild/re2";
import { describe, expect, test } from "vitest";
import { handMadeFunc } from "./cost/cost.js";
import { ENV } from "./environment.js";
import { type Expr, qualifiedName } from "./language/checker.js";
import { callNode, constNode, parseRule, walk } from "./language/syntax.js";
import { DYN } from "./language/types.js";
import { ListValue, MapValue, OpaqueValue } from "./language/values.js";
import { isDuration, isTimestamp, secondsNanos } from "./language/wkt.js";
import { DECLARATIONS, RUNTIME_FUNCS } from "./libraries/index.js";
import { compileRegex, EMPTY, findAt, type Inst, OP, type Prog } from "./libraries/regex.js";
import { errorText, parseOrExplain } from "./rules.js";

const run = (text: string, bindings: Record<string, unknown> = {}, env = ENV) =>
  plan(env, parse(text))(bindings as never);

describe("@bufbuild/re2 internals (libraries/regex.ts runs its compiled program for match positions)", () => {
  test("RE2JS#re2().prog is the compiled program: inst[] and start", () => {
    const prog = (RE2JS.compile("a+b").re2() as unknown as { prog: Prog }).prog;
    expect(Array.isArray(prog.inst)).toBe(true);
    expect(prog.inst.length).toBeGreaterThan(2);
    expect(Number.isInteger(prog.start)).toBe(true);
    for (const inst of prog.inst) {
      expect(typeof inst.op).toBe("number");
      expect(typeof inst.out).toBe("number");
      expect(typeof inst.arg).toBe("number");
      expect(typeof inst.matchRune).toBe("function");
    }
  });

  test("instruction opcodes are the ones the VM tells apart", () => {
    const inst = compileRegex("a").prog.inst[0] as unknown as { constructor: Record<string, unknown> };
    const statics = inst.constructor;
    for (const [name, value] of Object.entries(OP)) expect(statics[name], name).toBe(value);
  });

  test("EMPTY_WIDTH instructions carry Go's EmptyOp flags in arg", () => {
    const flagOf = (pattern: string) =>
      compileRegex(pattern)
        .prog.inst.filter((i) => i.op === OP.EMPTY_WIDTH)
        .map((i) => i.arg);
    expect(flagOf("^")).toEqual([EMPTY.BEGIN_TEXT]);
    expect(flagOf("$")).toEqual([EMPTY.END_TEXT]);
    expect(flagOf("(?m)^")).toEqual([EMPTY.BEGIN_LINE]);
    expect(flagOf("(?m)$")).toEqual([EMPTY.END_LINE]);
    expect(flagOf("\\b")).toEqual([EMPTY.WORD_BOUNDARY]);
    expect(flagOf("\\B")).toEqual([EMPTY.NO_WORD_BOUNDARY]);
    // and the VM reads them as RE2 does: positions agree with what the flags mean
    expect(findAt(compileRegex("\\bx\\b"), "ax x", 0)).toEqual([3, 4]);
    expect(findAt(compileRegex("(?m)^b$"), "a\nb\nc", 0)).toEqual([2, 3]);
  });

  test("rune instructions match code points, not UTF-16 units", () => {
    const insts: Inst[] = compileRegex("😀").prog.inst;
    expect(insts.some((i) => i.matchRune(0x1f600))).toBe(true);
    expect(findAt(compileRegex("😀b"), "a😀b", 0)).toEqual([1, 4]);
  });
});

describe("@bufbuild/cel internals", () => {
  test("an object branded Symbol.for('@bufbuild/cel/map') is a CEL map (language/values.ts, libraries/url.ts)", () => {
    const m = new MapValue({ a: 1 }, DYN);
    expect(isCelMap(m)).toBe(true);
    expect(run("self.a == 1 && 'a' in self && !('b' in self) && size(self) == 1", { self: m })).toBe(true);
  });

  test("an object branded Symbol.for('@bufbuild/cel/list') is a CEL list (language/values.ts)", () => {
    const l = new ListValue([1, 2], DYN);
    expect(isCelList(l)).toBe(true);
    expect(run("self[1] == 2 && 1 in self && size(self) == 2 && self.all(x, x > 0)", { self: l })).toBe(true);
  });

  test("a branded value a function returns reaches the next function as the same object (OpaqueValue)", () => {
    class Marker extends OpaqueValue {
      readonly celTypeName = "test.Marker";
      equals(other: unknown) {
        return other === this;
      }
    }
    const made = new Marker();
    const env = celEnv({
      funcs: [
        celFunc("make", [], CelScalar.DYN, () => made as never),
        celFunc("same", [CelScalar.DYN], CelScalar.BOOL, (v) => (v as unknown) === made),
      ],
    });
    expect(run("same(make())", {}, env)).toBe(true);
  });

  test("a hand-built function (Symbol.for('@bufbuild/cel/func')) is called, and what it throws unwinds the evaluation (cost/)", () => {
    class Stop extends Error {}
    const f = handMadeFunc({
      id: "boom()",
      name: "boom",
      target: undefined,
      arguments: [],
      result: undefined,
      call() {
        throw new Stop();
      },
    });
    // The throw unwinds the whole evaluation, which plan() ends in an error value: `||` does not absorb it,
    // as it absorbs the error value a celFunc makes of a throw. The meter's CostExceeded relies on this.
    expect(isCelError(run("boom() || true", {}, celEnv({ funcs: [f] })))).toBe(true);
    const thrown = celFunc("boom", [], CelScalar.BOOL, () => {
      throw new Stop();
    });
    expect(run("boom() || true", {}, celEnv({ funcs: [thrown] }))).toBe(true);
    // and a function whose call answers undefined does not take the arguments: the next overload is tried
    const declines = handMadeFunc({
      id: "n()",
      name: "n",
      target: undefined,
      arguments: [],
      result: undefined,
      call: () => undefined,
    });
    const out = run("n()", {}, celEnv({ funcs: [declines] }));
    expect(isCelError(out) && (out as Error).message).toMatch(/found no matching overload for 'n'/);
  });

  test("CelEnv.funcs iterates every function, the standard library's included (environment.ts meters them all)", () => {
    const names = new Set([...celEnv().funcs].map((f) => f.name));
    for (const name of ["size", "_+_", "_==_", "timestamp", "contains", "matches"]) expect(names, name).toContain(name);
  });

  test("a celFunc or celMethod keeps its implementation in _impl, which its call runs with the receiver as this (cost/cost.ts runs it directly)", () => {
    const impl = function (this: string, n: bigint) {
      return [this.repeat(Number(n))];
    };
    const m = celMethod("m", CelScalar.STRING, [CelScalar.INT], CelScalar.DYN, impl as never);
    expect((m as unknown as { _impl: unknown })._impl).toBe(impl);
    const out = (m as unknown as { call(id: number, t: unknown, a: unknown[]): unknown }).call(1, "ab", [2n]);
    expect(isCelList(out) && [...(out as Iterable<unknown>)]).toEqual(["abab"]);
    // Every function of the environment has one; any other would be called through its `call` (slower).
    for (const f of celEnv({ funcs: [...RUNTIME_FUNCS] }).funcs)
      expect(typeof (f as unknown as { _impl: unknown })._impl, f.id).toBe("function");
  });

  test("the standard `in` of a string on a map, overload @in(string,map), is map.has(value) (language/evaluate.ts calls has itself)", () => {
    const inMap = [...celEnv().funcs].find((f) => f.id === "@in(string,map)") as unknown as {
      _impl: (value: unknown, map: unknown) => unknown;
    };
    const asked: unknown[] = [];
    const map = {
      has: (k: unknown) => {
        asked.push(k);
        return k === "a";
      },
    };
    expect(inMap._impl("a", map)).toBe(true);
    expect(inMap._impl("b", map)).toBe(false);
    expect(asked).toEqual(["a", "b"]);
  });

  test("a declared implementation replaces @bufbuild/cel's of the same signature (function ids)", () => {
    // `matches`, `_==_`, list `+`, the strings extension's `replace` and `split`: had @bufbuild/cel's ids
    // changed, its own would stay beside ours and be tried first.
    const sig = (f: { name: string; target?: { name: string }; arguments: readonly { name: string }[] }) =>
      `${f.target?.name ?? ""}.${f.name}(${f.arguments.map((a) => a.name).join(",")})`;
    const all = [...celEnv({ funcs: [...RUNTIME_FUNCS] }).funcs];
    const ours = DECLARATIONS.flatMap((d) => d.runtime ?? []);
    for (const f of ours) {
      const same = all.filter((g) => sig(g) === sig(f));
      expect(same, sig(f)).toEqual([f]);
    }
  });

  test("timestamps and durations are messages: desc.typeName and message.seconds/nanos (language/wkt.ts)", () => {
    const ts = run("timestamp('2024-01-01T00:00:01.5Z')");
    expect(isTimestamp(ts)).toBe(true);
    expect(secondsNanos(ts)).toEqual({ seconds: 1704067201n, nanos: 500_000_000 });
    const d = run("duration('-1.25s')");
    expect(isDuration(d)).toBe(true);
    expect(secondsNanos(d)).toEqual({ seconds: -1n, nanos: -250_000_000 });
  });

  test("plan() runs AST nodes built by hand as plain $typeName objects (language/syntax.ts, cost/instrument.ts)", () => {
    const sum = callNode(1, "_+_", [constNode(2, "int64Value", 40n), constNode(3, "int64Value", 2n)]);
    expect(plan(ENV, sum)({} as never)).toBe(42n);
    // cel.bind is rewritten into a comprehension with an identifier and an empty list built here
    expect(plan(ENV, parseRule("cel.bind(x, 6, x * 7)").expr)({} as never)).toBe(42n);
    expect(plan(ENV, parseRule("{'a': 1}.?a.value() == 1 && [1][?3].hasValue() == false").expr)({} as never)).toBe(
      true,
    );
  });

  test("`[]` and `{}` evaluate to one list and one map, each time (language/evaluate.ts answers the same objects)", () => {
    expect(run("[]")).toBe(run("[]"));
    expect(run("{}")).toBe(run("{}"));
    expect(run("[1]")).not.toBe(run("[1]"));
  });

  test("every error value is an Error (language/evaluate.ts asks instanceof Error before the brand)", () => {
    for (const text of ["[1][3]", "1 / 0", "x", "dyn('a') - 1", "{'a': 1, 'a': 2}"]) {
      const v = run(text);
      expect(isCelError(v) && v instanceof Error, text).toBe(true);
    }
  });

  test("celList(array).get converts an item as a binding is converted (language/evaluate.ts binds values so)", () => {
    const item = celList([{ a: 1n } as never]).get(0);
    expect(isCelMap(item)).toBe(true);
    expect(run("self.a == 1", { self: { a: 1n } })).toBe(true);
    expect(() => celList([(() => 1) as never]).get(0)).toThrow(/unsupported input function/);
  });

  test("functions return durations only inside plan(), which sets the registry they are made CEL values with (language/evaluate.ts runs in one)", () => {
    const d = ENV.funcs.find("duration") as unknown as { call(id: number, t: unknown, a: unknown[]): unknown };
    const outside = d.call(1, undefined, ["1s"]);
    expect(isCelError(outside) && (outside as Error).message).toMatch(/getEvalContext/);
    expect(isDuration(run("duration('1s')"))).toBe(true);
  });

  test("parse() gives sourceInfo.positions: offsets by expression id", () => {
    const parsed = parse("a + bb");
    const positions = parsed.sourceInfo?.positions ?? {};
    const offsets = new Map<string, number>();
    walk(parsed.expr, (e) => {
      const name = qualifiedName(e);
      if (name !== undefined) offsets.set(name, positions[String(e.id)] as number);
    });
    expect(offsets).toEqual(
      new Map([
        ["a", 0],
        ["bb", 4],
      ]),
    );
  });

  test("all/exists macros call @not_strictly_false in the loop condition (language/checker.ts)", () => {
    const fns: string[] = [];
    walk(parse("[1].all(x, x > 0)").expr, (e: Expr) => {
      if (e.exprKind.case === "callExpr") fns.push(e.exprKind.value.function);
    });
    expect(fns.some((f) => f === "@not_strictly_false" || f === "__not_strictly_false__")).toBe(true);
  });

  test("comprehensions carry iterVar2 (language/checker.ts, the cel.bind rewrite)", () => {
    const e = parse("[1].all(x, true)").expr;
    expect(e.exprKind.case).toBe("comprehensionExpr");
    expect(e.exprKind.case === "comprehensionExpr" && e.exprKind.value.iterVar2).toBe("");
  });

  test("runtime error wording rules.ts turns into cel-go's", () => {
    const error = (text: string) => {
      const v = run(text);
      expect(isCelError(v), text).toBe(true);
      expect(v instanceof Error, text).toBe(true);
      return errorText(v);
    };
    expect(error("{'a': 1}.b")).toBe("no such key: b");
    expect(error("[1][3]")).toBe("index out of bounds: 3");
    expect(error("9223372036854775807 + 1")).toBe("integer overflow");
    expect(error("18446744073709551615u + 1u")).toBe("unsigned integer overflow");
    expect(error("1 / 0")).toBe("division by zero");
    expect(error("1 % 0")).toBe("modulus by zero");
    expect(error("x")).toBe("no such attribute");
    expect(error("dyn('a') - 1")).toBe("no such overload");
  });

  test("a thrown Error becomes an error value with its message (library errors reach the finding verbatim)", () => {
    const env = celEnv({
      funcs: [
        celFunc("fail", [], CelScalar.BOOL, () => {
          throw new Error("the words of the library");
        }),
      ],
    });
    const v = run("fail()", {}, env);
    expect(isCelError(v) && (v as Error).message).toBe("the words of the library");
  });

  test("syntax errors read `<input>:line:column: message` (rules.ts maps the position back)", () => {
    expect(() => parse("1 +")).toThrow(/^<input>:1:\d+: /);
    expect(parseOrExplain("1 +")).toEqual({
      error: expect.stringMatching(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: .+\n \| 1 \+\n \| \.+\^$/),
    });
  });
});
