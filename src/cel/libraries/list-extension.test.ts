/**
 * cel-go's lists extension at ListsVersion(3) (ext/lists.go as cel-go v0.26,
 * which Kubernetes 1.34 vendors, has it), and `first`/`last` of cel-go's
 * optional library (cel/library.go, version 2), through the public CEL entry.
 */
import type { CelList, CelValue } from "@bufbuild/cel";
import { describe, expect, test } from "vitest";
import type { JsonObject, JsonValue } from "../../value/index.js";
import { compileRules, evaluateRules } from "../index.js";
import { ArrayValue, CelRuntimeError } from "../language/values.js";
import { FUNCTIONS } from "./index.js";
import { sortByAssociatedKeys } from "./list-extension.js";
import { besidesEstimatedCost } from "./testing.js";

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    i: { type: "integer" },
    s: { type: "string" },
    l: { type: "array", items: { type: "integer" } },
    nl: { type: "array", items: { type: "number" } },
    words: { type: "array", items: { type: "string" } },
    ll: { type: "array", items: { type: "array", items: { type: "integer" } } },
    mixed: { type: "array", items: { "x-kubernetes-int-or-string": true } },
    objs: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string" }, rank: { type: "integer" } } },
    },
  },
};

/** The rule's compile errors (none when it compiles), for Kubernetes minor `minor`'s libraries (all by default). */
function compileErrors(rule: string, minor?: number): string[] {
  const { findings } = compileRules({ ...SCHEMA, "x-kubernetes-validations": [{ rule }] }, ["spec"], {
    libraries: minor,
  });
  return besidesEstimatedCost(findings).map((f) => f.message);
}

/** true/false for a rule that held/failed, the runtime error detail otherwise; and what it cost. */
function run(rule: string, self: JsonValue = {}): { result: boolean | string; cost: number } {
  const { rules, findings: all } = compileRules({ ...SCHEMA, "x-kubernetes-validations": [{ rule }] }, ["spec"]);
  const findings = besidesEstimatedCost(all);
  if (findings.length > 0 || rules === undefined) throw new Error(findings.map((f) => f.message).join("\n"));
  const budget = { remaining: 10_000_000 };
  const out = evaluateRules(rules, self, undefined, ["spec"], budget);
  const cost = 10_000_000 - budget.remaining;
  if (out.length === 0) return { result: true, cost };
  const detail = out[0]?.detail ?? "";
  return { result: detail === `failed rule: ${rule}` ? false : detail, cost };
}

const holds = (rule: string, self: JsonValue = {}) => expect(run(rule, self).result, rule).toBe(true);
const errors = (rule: string, self: JsonValue, text: string) => expect(run(rule, self).result, rule).toContain(text);
/** What `rule` costs beyond `baseline`, the same rule without the call. */
const costOf = (rule: string, baseline: string, self: JsonValue) => run(rule, self).cost - run(baseline, self).cost;

const five = { l: [5, 3, 1, 3, 2] };

describe("version 0: slice", () => {
  test("a sub-list from start to end (ext/lists.go examples)", () => {
    holds("[1, 2, 3, 4].slice(1, 3) == [2, 3] && [1, 2, 3, 4].slice(2, 4) == [3, 4]");
    holds("self.l.slice(0, 5) == self.l && self.l.slice(2, 2) == [] && self.l.slice(5, 5) == []", five);
    // the result is a list like any other
    holds("self.l.slice(0, 2) + [9] == [5, 3, 9] && self.l.slice(1, 4).map(x, x * 2) == [6, 2, 6]", five);
  });
  test("runtime errors in cel-go's words (ext/lists.go slice)", () => {
    errors("self.l.slice(-1, 2) == []", five, "cannot slice(-1, 2), negative indexes not supported");
    errors("self.l.slice(1, -2) == []", five, "cannot slice(1, -2), negative indexes not supported");
    errors("self.l.slice(3, 2) == []", five, "cannot slice(3, 2), start index must be less than or equal to end index");
    errors("self.l.slice(0, 6) == []", five, "cannot slice(0, 6), list is length 5");
  });
});

describe("version 1: flatten", () => {
  test("one level, or to a depth (ext/lists.go examples)", () => {
    holds("[[1, 2], [3]].flatten() == [1, 2, 3] && [[1], [], [], [2, 3]].flatten() == [1, 2, 3]");
    holds("self.ll.flatten() == [1, 2, 3] && self.ll.flatten(0) == self.ll", { ll: [[1], [], [2, 3]] });
    const nested = "[dyn(1), dyn([dyn(2), dyn([dyn(3), dyn([4])])])]";
    holds(`${nested}.flatten() == [dyn(1), dyn(2), dyn([dyn(3), dyn([4])])]`);
    holds(`${nested}.flatten(2) == [dyn(1), dyn(2), dyn(3), dyn([4])]`);
    holds(`${nested}.flatten(10) == [dyn(1), dyn(2), dyn(3), dyn(4)]`);
  });
  test("type guards off: a list whose items are not lists flattens to itself (ext/lists.go DisableTypeGuards)", () => {
    holds("dyn([1, 2]).flatten() == [1, 2] && dyn(['a']).flatten(3) == ['a']");
  });
  test("a negative depth is an error (ext/lists.go flatten)", () => {
    errors("self.ll.flatten(-1) == []", { ll: [[1]] }, "level must be non-negative");
    errors("[].flatten(-1) == []", {}, "level must be non-negative");
  });
  test("types: list(list(T)) to list(T); flatten(int) is list(dyn) to list(dyn)", () => {
    expect(compileErrors("[[1], [2]].flatten() == ['a']")).toEqual([
      expect.stringContaining("found no matching overload for '_==_' applied to '(list(int), list(string))'"),
    ]);
    // list_flatten takes list(list(T)): a list of ints is refused by the checker
    expect(compileErrors("[1, 2].flatten() == []")).toEqual([
      expect.stringContaining("found no matching overload for 'flatten' applied to 'list(int).()'"),
    ]);
    expect(compileErrors("[1, 2].flatten(1) == [1, 2] && self.ll.flatten(2) == [1]")).toEqual([]);
  });
});

describe("version 2", () => {
  test("lists.range: 0 to n - 1, of type list(int)", () => {
    holds("lists.range(5) == [0, 1, 2, 3, 4] && lists.range(0) == [] && lists.range(self.i).size() == 3", { i: 3 });
    // cel-go v0.26 genRange: a negative size loops no time (the error for one came later, cel-go#1310)
    holds("lists.range(-3) == []");
    expect(compileErrors("lists.range(3) == ['a']")).toEqual([
      expect.stringContaining("found no matching overload for '_==_' applied to '(list(int), list(string))'"),
    ]);
  });
  test("reverse: of a list, and of a string (strings extension)", () => {
    holds("[5, 3, 1, 2].reverse() == [2, 1, 3, 5] && [].reverse() == [] && self.l.reverse() == [2, 3, 1, 3, 5]", five);
    holds("'abc'.reverse() == 'cba' && self.s.reverse() == 'ba' && dyn(self.l).reverse()[0] == 2", {
      ...five,
      s: "ab",
    });
    expect(compileErrors("self.words.reverse() == [1]")).toEqual([
      expect.stringContaining("applied to '(list(string), list(int))'"),
    ]);
  });
  test("distinct: the first of equal items, in CEL equality (ext/lists.go examples)", () => {
    holds("[1, 2, 2, 3, 3, 3].distinct() == [1, 2, 3] && ['b', 'b', 'c', 'a', 'c'].distinct() == ['b', 'c', 'a']");
    holds("[dyn(1), dyn('b'), dyn(2), dyn('b')].distinct() == [dyn(1), dyn('b'), dyn(2)] && [].distinct() == []");
    // heterogeneous numeric equality: 1, 1u and 1.0 are one value
    holds("[dyn(1), dyn(1u), dyn(1.0), dyn(2)].distinct() == [dyn(1), dyn(2)]");
    holds("self.objs.distinct().map(o, o.name) == ['a', 'b']", {
      objs: [{ name: "a" }, { name: "b" }, { name: "a" }],
    });
  });
  test("sort: the comparable types", () => {
    holds("[3, 2, 1].sort() == [1, 2, 3] && ['b', 'c', 'a'].sort() == ['a', 'b', 'c'] && [].sort() == []");
    holds("[3u, 1u].sort() == [1u, 3u] && [2.5, -1.0].sort() == [-1.0, 2.5] && [true, false].sort() == [false, true]");
    holds("[b'b', b'a', b'ab'].sort() == [b'a', b'ab', b'b']");
    holds("[duration('2s'), duration('1s')].sort() == [duration('1s'), duration('2s')]");
    holds(
      "[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].sort()[0] == timestamp('2024-01-01T00:00:00Z')",
    );
    holds("self.l.sort() == [1, 2, 3, 3, 5] && self.l == [5, 3, 1, 3, 2]", five);
    holds("self.nl.sort() == [0.5, 1.0, 2.0]", { nl: [2, 0.5, 1] });
  });
  test("sort: mixed or unorderable items are runtime errors in cel-go's words (ext/lists.go examples)", () => {
    errors("self.mixed.sort().size() == 2", { mixed: [1, "b"] }, "list elements must have the same type");
    errors("[dyn(1), dyn(2.0)].sort().size() == 2", {}, "list elements must have the same type");
    errors("[dyn([1, 2, 3])].sort().size() == 1", {}, "list elements must be comparable");
    errors("[dyn(null), dyn(1)].sort().size() == 2", {}, "list elements must be comparable");
    holds("self.mixed.sort() == [1, 3]", { mixed: [3, 1] });
  });
  test("sort: a list of another type is refused by the checker", () => {
    expect(compileErrors("self.objs.sort().size() == 0")).toEqual([
      expect.stringContaining("found no matching overload for 'sort'"),
    ]);
    expect(compileErrors("self.words.sort() == [1]")).toEqual([
      expect.stringContaining("applied to '(list(string), list(int))'"),
    ]);
  });
});

describe("@sortByAssociatedKeys, which sortBy expands to", () => {
  const list = (...xs: unknown[]) => new ArrayValue(xs as CelValue[]) as unknown as CelList;
  const items = (v: unknown) => [...(v as Iterable<unknown>)];

  test("declared as cel-go's member overloads, list(T).@sortByAssociatedKeys(list(U)) -> list(T)", () => {
    const overloads = FUNCTIONS.byName.get("@sortByAssociatedKeys") ?? [];
    const shown = overloads.map(
      (o) =>
        `${o.target === undefined ? "" : `${JSON.stringify(o.target)}.`}(${o.params.map((p) => JSON.stringify(p)).join(", ")}) -> ${JSON.stringify(o.result)}`,
    );
    const T = '{"k":"list","elem":{"k":"var","name":"A"}}';
    const keys = ["int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes"].map(
      (u) => `{"k":"list","elem":{"k":"${u}"}}`,
    );
    expect(shown).toEqual(keys.map((u) => `${T}.(${u}) -> ${T}`));
  });
  test("orders the list by the keys (ext/lists.go example)", () => {
    expect(items(sortByAssociatedKeys(list("foo", "bar", "baz"), list(3n, 1n, 2n)))).toEqual(["bar", "baz", "foo"]);
    const empty = list();
    expect(sortByAssociatedKeys(empty, list())).toBe(empty);
  });
  test("its errors (ext/lists.go sortListByAssociatedKeys)", () => {
    const call = (l: unknown, keys: unknown) => () => sortByAssociatedKeys(l as never, keys as never);
    expect(call(list(1n, 2n), list(1n))).toThrow(
      new CelRuntimeError(
        "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got 2 and 1 elements respectively",
      ),
    );
    expect(call(list(1n, 2n), list(1n, "a"))).toThrow("list elements must have the same type");
    expect(call(list(1n), list(list()))).toThrow("list elements must be comparable");
  });
  test("through the sortBy macro", () => {
    const objs = [
      { name: "foo", rank: 0 },
      { name: "bar", rank: -10 },
      { name: "baz", rank: 1000 },
    ];
    holds("self.objs.sortBy(o, o.rank).map(o, o.name) == ['bar', 'foo', 'baz']", { objs });
    holds("self.objs.sortBy(o, o.name).map(o, o.rank) == [-10, 1000, 0]", { objs });
    holds("[3, 1, 2].sortBy(x, -x) == [3, 2, 1] && [].sortBy(x, x) == []");
    errors("self.mixed.sortBy(x, x).size() == 2", { mixed: [1, "b"] }, "list elements must have the same type");
    errors("self.objs.sortBy(o, dyn([o.rank])).size() == 3", { objs }, "list elements must be comparable");
    // ext/lists.go sortByMacro: a literal other than a list, or a map, is refused at the parse, where it stands;
    // a key variable that is no name as parser.MakeMap refuses it (a select stands at its dot)
    expect(compileErrors("{'a': 1}.sortBy(k, k) == []")).toEqual([
      "spec.x-kubernetes-validations[0].rule: Invalid schema: compilation failed: ERROR: <input>:1:1: sortBy can only be applied to a list, identifier, comprehension, call or select expression\n | {'a': 1}.sortBy(k, k) == []\n | ^",
    ]);
    expect(compileErrors("self.objs.sortBy(o.x, 1) == []")).toEqual([
      "spec.x-kubernetes-validations[0].rule: Invalid schema: compilation failed: ERROR: <input>:1:19: argument is not an identifier\n | self.objs.sortBy(o.x, 1) == []\n | ..................^",
    ]);
  });
});

describe("the libraries of a release", () => {
  test("the extension is there from Kubernetes 1.34 (apiserver environment/base.go)", () => {
    for (const rule of ["lists.range(3).size() == 3", "[1].slice(0, 1) == [1]", "[[1]].flatten() == [1]"]) {
      expect(compileErrors(rule, 34), rule).toEqual([]);
      expect(compileErrors(rule, 33), rule).not.toEqual([]);
    }
  });
});

/**
 * What each call costs as the API server charges it: the trackers of cel-go
 * ext/lists.go version 3, which cel-go's CostTracker consults before the
 * API server's CostEstimator (interpreter/runtimecost.go costCall): 1 for the
 * call and 10 (ListCreateBaseCost) for the list it makes, plus a size times a
 * factor, truncated to an integer.
 */
describe("costs (ext/lists.go trackers)", () => {
  test("slice: the result's size", () => {
    expect(costOf("self.l.slice(1, 3).size() == 2", "self.l.size() == 2", five)).toBe(2 + 11);
    expect(costOf("self.l.slice(0, 0).size() == 0", "self.l.size() == 0", five)).toBe(11);
  });
  test("flatten: the list's size times the depth", () => {
    const ll = { ll: [[1, 2, 3], [4], [5, 6]] };
    expect(costOf("self.ll.flatten().size() == 6", "self.ll.size() == 6", ll)).toBe(3 + 11);
    expect(costOf("self.ll.flatten(2).size() == 6", "self.ll.size() == 6", ll)).toBe(3 * 2 + 11);
    expect(costOf("self.ll.flatten(0).size() == 3", "self.ll.size() == 3", ll)).toBe(11);
  });
  test("lists.range: the size made", () => {
    // against another call of a namespaced function and another call after it
    const baseline = "optional.of(self.i).hasValue()";
    expect(costOf("lists.range(self.i).size() == 7", baseline, { i: 7 })).toBe(7 + 11);
    expect(costOf("lists.range(self.i).size() == 0", baseline, { i: -7 })).toBe(11);
  });
  test("reverse: the size of a list; 1 for a string", () => {
    expect(costOf("self.l.reverse().size() == 5", "self.l.size() == 5", five)).toBe(5 + 11);
    expect(costOf("self.s.reverse().size() == 3", "self.s.size() == 3", { s: "abc" })).toBe(1);
  });
  test("distinct and sort: n² × 2, × 2.1 for strings and bytes", () => {
    expect(costOf("self.l.distinct().size() == 4", "self.l.size() == 4", five)).toBe(25 * 2 + 11);
    expect(costOf("self.l.sort().size() == 5", "self.l.size() == 5", five)).toBe(25 * 2 + 11);
    const words = { words: ["c", "a", "b"] };
    // 9 × 2.1 is 18.9 in floating point: 18
    expect(costOf("self.words.sort().size() == 3", "self.words.size() == 3", words)).toBe(18 + 11);
    expect(costOf("self.words.distinct().size() == 3", "self.words.size() == 3", words)).toBe(18 + 11);
    expect(costOf("self.l.sort().size() == 0", "self.l.size() == 0", { l: [] })).toBe(11);
  });
  test("sortBy: n² × 2 over the keys, whatever the items", () => {
    // Keys of strings (w + '', one call each) against keys of ints (w.size(), one call each), for the same items:
    // (n² × 2.1 + 11) - (n² × 2 + 11), truncated.
    const byKeys = (n: number) => {
      const words = { words: Array.from({ length: n }, (_, i) => `w${i}`) };
      return costOf(
        `self.words.sortBy(w, w + '').size() == ${n}`,
        `self.words.sortBy(w, w.size()).size() == ${n}`,
        words,
      );
    };
    expect(byKeys(10)).toBe(210 - 200);
    expect(byKeys(4)).toBe(33 - 32);
  });
  test("the optional library's first and last: 1, as every function without a charge of its own", () => {
    expect(costOf("self.l.first().hasValue()", "self.l.size() > 0", five)).toBe(0);
    expect(costOf("self.l.last().hasValue()", "self.l.size() > 0", five)).toBe(0);
  });
  test("a call is refused at the per-call limit, before it runs", () => {
    const limit = (rule: string, self: JsonValue) => expect(run(rule, self).result, rule);
    const l = (n: number) => ({ l: Array.from({ length: n }, (_, i) => n - i) });
    // 2 × 707² + 11 = 999,709 is within 1,000,000; 2 × 708² + 11 is not
    limit("self.l.sort().size() > 0", l(707)).toBe(true);
    limit("self.l.sort().size() > 0", l(708)).toContain("operation cancelled: actual cost limit exceeded");
    limit("self.l.distinct().size() > 0", l(708)).toContain("operation cancelled: actual cost limit exceeded");
    // two million items are never made
    const start = performance.now();
    limit("lists.range(self.i).size() > 0", { i: 2_000_000 }).toContain("actual cost limit exceeded");
    limit("lists.range(self.i).size() > 0", { i: 999_000 }).toBe(true);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
