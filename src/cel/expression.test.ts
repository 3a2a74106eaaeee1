import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { compileExpression, evaluateExpression, PER_CALL_LIMIT, WorkBudget, withWorkBudget } from "./index.js";

const run = (text: string, self: unknown) => {
  const c = compileExpression(text);
  if (c.program === undefined) throw new Error(c.error);
  return evaluateExpression(c.program, self as never);
};

describe("compileExpression / evaluateExpression", () => {
  it("evaluates over a dynamic self and returns JSON", () => {
    const text =
      "cel.bind(p, self.spec.schedule.split(' ').filter(x, x != ''), {'minute': p[0], 'rest': [p[1], p[2]].join('|')})";
    expect(run(text, { spec: { schedule: "*/1  * * * *" } })).toEqual({ value: { minute: "*/1", rest: "*|*" } });
    expect(run("size(self.items) + 1", { items: [1, 2] })).toEqual({ value: 3 });
    expect(run("[dyn(1), dyn(2.5), dyn(true), dyn(null), dyn('a')]", {})).toEqual({ value: [1, 2.5, true, null, "a"] });
    expect(run("self.a", JSON.parse('{"a":{"__proto__":1,"b":[1]}}'))).toEqual({
      value: JSON.parse('{"__proto__":1,"b":[1]}'),
    });
  });
  it("turns maps of every kind into objects, keys in order, and refuses a key that is not a string", () => {
    const self = { z: 1, a: { b: [2, { c: "d" }] } };
    expect(JSON.stringify(run("self", self).value)).toBe(JSON.stringify(self));
    expect(JSON.stringify(run("{'y': self.a, 'x': {'w': self.z}}", self).value)).toBe(
      '{"y":{"b":[2,{"c":"d"}]},"x":{"w":1}}',
    );
    expect(run("{1: 'a'}", {}).error).toBe("result map has a non-string key 1");
    expect(run("{'a': {true: 1}}", {}).error).toBe("result map has a non-string key true");
  });
  it("caches by text", () => {
    expect(compileExpression("self.x").program).toBe(compileExpression("self.x").program);
  });
  it("reports compile and runtime errors", () => {
    expect(compileExpression("self.").error).toMatch(/compilation failed/);
    expect(compileExpression("1 + 'a'").error).toMatch(/compilation failed/);
    expect(run("self.a[3]", { a: [] }).error).toMatch(/index/);
    expect(run("self.missing", {}).error).toBeDefined();
    expect(run("9223372036854775807", {}).error).toMatch(/safe integer/);
  });
  it("charges the budget", () => {
    const budget = { remaining: 50 };
    const r = evaluateExpression(
      compileExpression("[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, x * y > 0))").program!,
      null,
      budget,
    );
    expect(r.error).toMatch(/cost/);
  });
  it("starts each evaluation without a budget from nothing charged, whatever the one before spent", () => {
    const text = "self.all(x, self.all(y, y >= 0))";
    const program = compileExpression(text).program!;
    const self = Array.from({ length: 400 }, (_, i) => i);
    const budget = { remaining: 1e7 };
    expect(evaluateExpression(program, self, budget)).toEqual({ value: true });
    // more than half the per-call limit: a second evaluation charged on top of the first would exceed it
    expect(1e7 - budget.remaining).toBeGreaterThan(PER_CALL_LIMIT / 2);
    expect(1e7 - budget.remaining).toBeLessThan(PER_CALL_LIMIT);
    expect(run(text, self)).toEqual({ value: true });
    expect(run(text, self)).toEqual({ value: true });
    // one that exceeds it, then one that does not
    expect(run(text, [...self, ...self])).toEqual({ error: "operation cancelled: actual cost limit exceeded" });
    expect(run(text, self)).toEqual({ value: true });
    // a document's work budget, when one is open, is drawn on by every evaluation
    const work = new WorkBudget(PER_CALL_LIMIT);
    const inDocument = withWorkBudget(work, () => [run(text, self), run(text, self)]);
    expect(inDocument[0]).toEqual({ value: true });
    expect(inDocument[1]?.error).toMatch(/work budget of 1000000/);
    expect(run(text, self)).toEqual({ value: true });
  });
  it("leaves null map entries out at every depth when asked, as a copy without them would (lists keep theirs)", () => {
    // the copy the set rule made before the conversion could do it itself
    const withoutNulls = (v: JsonValue): JsonValue => {
      if (Array.isArray(v)) return v.map(withoutNulls);
      if (!isObject(v)) return v;
      const out: JsonObject = {};
      for (const k of Object.keys(v)) if (v[k] !== null) setKey(out, k, withoutNulls(v[k] as JsonValue));
      return out;
    };
    const program = (text: string) => compileExpression(text).program!;
    const check = (text: string, self: JsonValue) => {
      const dropped = evaluateExpression(program(text), self, undefined, { dropNullEntries: true });
      const kept = evaluateExpression(program(text), self);
      expect(dropped).toEqual(kept.value === undefined ? kept : { value: withoutNulls(kept.value) });
      // the same keys in the same order, a __proto__ key an entry of its own
      expect(JSON.stringify(dropped.value)).toBe(
        JSON.stringify(kept.value === undefined ? undefined : withoutNulls(kept.value)),
      );
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        check("self", v as JsonValue);
        check("{'a': self, 'b': null, 'c': [null, {'d': null, 'e': self}]}", v as JsonValue);
      }),
    );
    check("self", JSON.parse('{"__proto__": {"a": null}, "b": null}'));
    expect(evaluateExpression(program("null"), {}, undefined, { dropNullEntries: true })).toEqual({ value: null });
    // too deep is too deep, the innermost entry being null or not
    let deep: JsonValue = { x: null };
    for (let i = 0; i < 100; i++) deep = { x: deep };
    expect(evaluateExpression(program("self"), deep, undefined, { dropNullEntries: true })).toEqual({
      error: "result is nested too deeply",
    });
    check("self", deep);
    check("{'a': null, 'b': {1: null}}", {});
    // past a few entries a literal is @bufbuild/cel's map, converted the same way
    check("{'1': dyn(null), '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': self}", {
      a: null,
      b: [null],
    });
    expect(run("{'1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, dyn(9): 9}", {}).error).toBe(
      "result map has a non-string key 9",
    );
    // not asked, every null stays
    expect(run("{'a': dyn(null), 'b': [dyn(null), dyn({'c': null})]}", {})).toEqual({
      value: { a: null, b: [null, { c: null }] },
    });
  });
});
