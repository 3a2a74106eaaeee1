import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { compileRules, DOCUMENT_WORK_LIMIT, evaluateRules, WorkBudget, withWorkBudget } from "../index.js";
import { replacedLength, replaceN, splitN } from "../libraries/strings.js";
import { besidesEstimatedCost } from "../libraries/testing.js";

const schema = (rule: string): JsonObject => ({
  type: "object",
  properties: {
    s: { type: "string" },
    words: { type: "array", items: { type: "string" } },
    nums: { type: "array", items: { type: "integer" } },
    l: { type: "array", items: { type: "integer" } },
  },
  "x-kubernetes-validations": [{ rule }],
});

function evaluate(rule: string, self: JsonObject, budget = { remaining: 10_000_000 }): string[] {
  const { rules, findings } = compileRules(schema(rule), ["spec"]);
  expect(besidesEstimatedCost(findings).map((f) => f.message)).toEqual([]);
  if (rules === undefined) throw new Error("no rules");
  return evaluateRules(rules, self, undefined, ["spec"], budget).map((f) => f.message);
}

const long = {
  s: "a".repeat(100_000),
  words: Array.from({ length: 1000 }, (_, i) => `w${String(i).padStart(99, "0")}`),
  nums: Array.from({ length: 10_000 }, (_, i) => i),
};
const short = { s: "a".repeat(10), words: ["a", "b", "c"], nums: [1, 2, 3] };

/**
 * Each function's cost on `long`, as the API server charges it at run time:
 * k8s.io/apiserver/pkg/cel/library/cost.go (CallCost) for the Kubernetes
 * libraries and the strings extension, cel-go interpreter/runtimecost.go for
 * the standard functions. 0.1 is StringTraversalCostFactor, 0.25
 * RegexStringLengthCostFactor.
 */
const metered: Array<[string, string, number]> = [
  ["replace", "self.s.replace('a', 'b') != ''", 20_000], // len × 2 × 0.1
  ["split", "self.s.split('a').size() > 0", 20_000], // len × 2 × 0.1
  ["join", "self.words.join(',') != ''", 20_200], // result (100,999) × 2 × 0.1
  ["lowerAscii", "self.s.lowerAscii() != ''", 10_000], // len × 0.1
  ["upperAscii", "self.s.upperAscii() != ''", 10_000],
  ["substring", "self.s.substring(1) != ''", 10_000],
  ["trim", "self.s.trim() != ''", 10_000],
  ["indexOf (string)", "self.s.indexOf('b') < 0", 10_000], // traversalCost: len × 0.1
  ["lastIndexOf (string)", "self.s.lastIndexOf('b') < 0", 10_000],
  ["matches", "!self.s.matches('b')", 10_001], // (1 + len) × 0.1 × ⌈pattern × 0.25⌉
  ["find", "self.s.find('b') == ''", 10_001],
  ["findAll", "self.s.findAll('b').size() == 0", 10_001],
  ["contains", "!self.s.contains('b')", 10_000], // len × 0.1 × ⌈sub × 0.1⌉
  ["startsWith", "!self.s.startsWith('b')", 10_000], // len × 0.1
  ["endsWith", "!self.s.endsWith('b')", 10_000],
  ["==", "self.s == self.s", 10_000], // min(len) × 0.1
  ["+ (strings)", "(self.s + self.s).size() > 0", 20_000], // (len + len) × 0.1
  ["isSorted", "self.words.isSorted()", 10_000], // traversalCost: 1,000 × ⌊100 × 0.1⌋
  ["sum", "self.nums.sum() >= 0", 10_000], // traversalCost: 10,000 items
  ["min", "self.nums.min() >= 0", 10_000],
  ["max", "self.nums.max() >= 0", 10_000],
  ["indexOf (list)", "self.nums.indexOf(-1) < 0", 10_000],
  ["lastIndexOf (list)", "self.nums.lastIndexOf(-1) < 0", 10_000],
  ["in", "!(-1 in self.nums)", 10_000], // the list's size
  ["sets.contains", "!sets.contains(self.nums, [-1])", 10_001], // ext/sets.go: 1 + m × n
  ["sets.intersects", "!sets.intersects(self.nums, [-1])", 10_001],
  ["sets.equivalent", "!sets.equivalent(self.nums, [-1])", 20_001], // 1 + 2 × m × n
  ["isQuantity", "!isQuantity(self.s)", 10_000], // len × 0.1
  ["isIP", "!isIP(self.s)", 10_000],
  ["isCIDR", "!isCIDR(self.s)", 10_000],
];

describe("every metered function stops a rule at the per-call limit (cost.go)", () => {
  for (const [name, expr, perCall] of metered) {
    test(name, () => {
      // Enough calls to pass the 1,000,000 limit on long data, and well under it on short data.
      const l = Array.from({ length: Math.floor(1_000_000 / perCall) + 1 }, (_, i) => i);
      const rule = `self.l.all(i, ${expr})`;
      expect(evaluate(rule, { ...short, l })).toEqual([]);
      const start = performance.now();
      expect(evaluate(rule, { ...long, l })).toEqual([
        `spec: Invalid value: 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
      ]);
      expect(performance.now() - start).toBeLessThan(15_000);
      // One call fewer than needed on its own stays within the limit: the charge is the API server's, not more.
      const fewer = Array.from({ length: Math.floor(1_000_000 / perCall) - 10 }, (_, i) => i);
      const budget = { remaining: 10_000_000 };
      expect(evaluate(`self.l.all(i, ${expr})`, { ...long, l: fewer }, budget)).toEqual([]);
      expect(10_000_000 - budget.remaining).toBeGreaterThanOrEqual(fewer.length * perCall);
    });
  }
});

describe("replace and split as Go's strings.Replace and strings.SplitN (cel-go ext/strings.go)", () => {
  test("replace: a count, a negative count, the empty string", () => {
    expect(replaceN("oink oink oink", "k", "ky", 2)).toBe("oinky oinky oink");
    expect(replaceN("oink oink oink", "oink", "moo", -1)).toBe("moo moo moo");
    expect(replaceN("banana", "a", "o", 0)).toBe("banana");
    expect(replaceN("abc", "", "-", -1)).toBe("-a-b-c-");
    expect(replaceN("abc", "", "-", 2)).toBe("-a-bc");
    expect(replaceN("a😀", "", "-", -1)).toBe("-a-😀-");
    expect(evaluate("self.s.replace('a', 'b', -1) == 'bbb'", { s: "aaa" })).toEqual([]);
  });
  test("split: at most n items, the last holding the rest", () => {
    expect(splitN("a,b,c,d", ",", 2)).toEqual(["a", "b,c,d"]);
    expect(splitN("a,b,c,d", ",", -1)).toEqual(["a", "b", "c", "d"]);
    expect(splitN("a,b", ",", 0)).toEqual([]);
    expect(splitN("abc", "", 2)).toEqual(["a", "bc"]);
    expect(splitN("", ",", -1)).toEqual([""]);
    expect(evaluate("self.s.split(',', 2) == ['a', 'b,c']", { s: "a,b,c" })).toEqual([]);
  });
  test("property: replace equals split and join, and its length is known before it is built", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "ab", "😀"), maxLength: 30 });
    fc.assert(
      fc.property(text, text, text, fc.integer({ min: -2, max: 40 }), (s, old, repl, n) => {
        const all = replaceN(s, old, repl, -1);
        if (old !== "") expect(all).toBe(s.split(old).join(repl));
        // without a count, Go's Split is JavaScript's for a separator that is not empty
        if (old !== "") expect(splitN(s, old, -1)).toEqual(s.split(old));
        expect(replacedLength(s, old, repl, n)).toBe(replaceN(s, old, repl, n).length);
        expect(splitN(s, old === "" ? "," : old, n < 0 ? -1 : n + 1).join(old === "" ? "," : old)).toBe(s);
      }),
    );
  });
  test("replace is linear: 400,000 characters built from 40,000 at once", () => {
    const start = performance.now();
    expect(replaceN("a".repeat(40_000), "a", "aaaaaaaaaa", -1).length).toBe(400_000);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe("the document work budget", () => {
  const doubling = "self.s.replace('a', 'aa').replace('a', 'aa').replace('a', 'aa').replace('a', 'aa').size() > 0";
  test("what a call builds is counted: growth the API server's estimated cost would refuse stops early", () => {
    // 8 × 10^6 characters once built: cheap by runtime cost (input only), not by work.
    const start = performance.now();
    const out = withWorkBudget(new WorkBudget(5_000_000), () => evaluate(doubling, { s: "a".repeat(500_000) }));
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(out).toEqual([
      "spec: Invalid value: kunion stopped evaluating validation rules here: the document exceeds its work budget of 5000000 cost units (kunion's bound on one document, not the API server's); the remaining rules of the document are not checked",
    ]);
  });
  test("one budget for every object of a document: said once, then nothing more runs", () => {
    const work = new WorkBudget(3_000_000);
    const rule = "self.l.all(i, self.s.lowerAscii() != '')";
    // Each object: 99 × (1,000 of cost + 10,000 characters built), about 1,100,000 of work.
    const item = { s: "a".repeat(10_000), l: Array.from({ length: 99 }, (_, i) => i) };
    const said = withWorkBudget(work, () => Array.from({ length: 40 }, () => evaluate(rule, item)));
    expect(said.findIndex((f) => f.length > 0)).toBe(2);
    expect(said.flat()).toHaveLength(1);
    expect(said.flat()[0]).toContain("exceeds its work budget of 3000000 cost units");
    expect(work.reported).toBe(true);
  });
  test("a findAll that rescans the string for each match is stopped by its work, not by its cost", () => {
    // Cost (cost.go): ⌈20,001 × 0.1⌉ × ⌈5 × 0.25⌉ = 4,002. Work: each of the 20,000 searches runs to the end.
    const start = performance.now();
    const out = evaluate("self.s.findAll('a*b|a').size() > 0", { s: "a".repeat(20_000) });
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain("the document exceeds its work budget of 20000000 cost units");
    expect(evaluate("self.s.findAll('a*b|a').size() == 200", { s: "a".repeat(200) })).toEqual([]);
  });
  test("equality of set lists compares each item with each: work, though `==` costs the outer size", () => {
    const sets: JsonObject = {
      type: "object",
      properties: {
        a: { type: "array", items: { type: "integer" }, "x-kubernetes-list-type": "set" },
        b: { type: "array", items: { type: "integer" }, "x-kubernetes-list-type": "set" },
      },
      "x-kubernetes-validations": [{ rule: "self.a == self.b" }],
    };
    const { rules } = compileRules(sets, ["spec"]);
    const a = Array.from({ length: 10_000 }, (_, i) => i);
    const out = evaluateRules(rules as NonNullable<typeof rules>, { a, b: [...a].reverse() }, undefined, ["spec"], {
      remaining: 10_000_000,
    });
    expect(out.map((f) => f.message)).toEqual([
      "spec: Invalid value: kunion stopped evaluating validation rules here: the document exceeds its work budget of 20000000 cost units (kunion's bound on one document, not the API server's); the remaining rules of the document are not checked",
    ]);
    const small = Array.from({ length: 100 }, (_, i) => i);
    const fine = evaluateRules(
      rules as NonNullable<typeof rules>,
      { a: small, b: [...small].reverse() },
      undefined,
      ["spec"],
      {
        remaining: 10_000_000,
      },
    );
    expect(fine).toEqual([]);
  });
  test("map and filter build their lists in linear work, and lists sharing an array stay apart", () => {
    const spent = (n: number) => {
      const work = new WorkBudget();
      const nums = Array.from({ length: n }, (_, i) => i);
      const rule = `self.nums.map(x, x + 1).size() == ${n} && self.nums.filter(x, x >= 0).size() == ${n}`;
      expect(withWorkBudget(work, () => evaluate(rule, { nums }))).toEqual([]);
      return work.spent;
    };
    const small = spent(5_000);
    expect(spent(20_000)).toBeLessThan(4 * small + 100); // quadratic would be 16 times
    // `+` appends in place only at the end of the shared array: m + [2] must not show in m + [3].
    const shared = "[[0]].map(l, l + [1]).map(m, [m + [2], m + [3], m]) == [[[0, 1, 2], [0, 1, 3], [0, 1]]]";
    expect(evaluate(shared, {})).toEqual([]);
  });
  test("outside a document, each evaluation has a budget of its own", () => {
    expect(DOCUMENT_WORK_LIMIT).toBeGreaterThanOrEqual(10_000_000);
    expect(evaluate("self.l.all(i, self.s.lowerAscii() != '')", { s: "a", l: [1, 2] })).toEqual([]);
  });
});
