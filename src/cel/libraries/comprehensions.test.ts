import { describe, expect, test } from "vitest";
import type { JsonObject, JsonValue } from "../../value/index.js";
import { compileRules, evaluateRules } from "../index.js";
import { besidesEstimatedCost } from "./testing.js";

const MAP: JsonObject = { type: "object", additionalProperties: { type: "string" } };
const INTS: JsonObject = { type: "array", items: { type: "integer" } };

/** The rule's compile error, else true/false for a rule that held/failed, else the runtime error's detail. */
function run(rule: string, schema: JsonObject, self: JsonValue, libraries?: number): boolean | string {
  const { rules, findings } = compileRules({ ...schema, "x-kubernetes-validations": [{ rule }] }, ["s"], { libraries });
  const errors = besidesEstimatedCost(findings);
  if (errors.length > 0 || rules === undefined) return errors.map((f) => f.detail).join("\n");
  const out = evaluateRules(rules, self, undefined, ["spec"], { remaining: 10_000_000 });
  if (out.length === 0) return true;
  const detail = out[0]?.detail ?? "";
  return detail === `failed rule: ${rule}` ? false : detail;
}

// cel-go ext/comprehensions.go (TwoVarComprehensions): the macros and what they expand to; its doc comment's
// examples are among these
describe("two-variable comprehensions", () => {
  test("all, exists, existsOne over a map: key and value", () => {
    const labels = { app: "web", tier: "" };
    expect(run("self.all(k, v, v != '')", MAP, labels)).toBe(false);
    expect(run("self.all(k, v, k.size() > 2)", MAP, labels)).toBe(true);
    expect(run("self.exists(k, v, k == 'tier' && v == '')", MAP, labels)).toBe(true);
    expect(run("self.exists(k, v, k == v)", MAP, labels)).toBe(false);
    expect(run("self.existsOne(k, v, v == 'web')", MAP, labels)).toBe(true);
    expect(run("self.exists_one(k, v, v.size() >= 0)", MAP, labels)).toBe(false);
  });
  test("over a list: index and item", () => {
    expect(run("self.all(i, v, i < v)", INTS, [1, 2, 3])).toBe(true);
    expect(run("self.exists(i, v, v == 1024 && i == 10)", INTS, [1, 2, 4, 8, 16])).toBe(false);
    expect(run("self.existsOne(i, v, i == 1 || v == 1)", INTS, [1, 2, 1, 3, 1, 4])).toBe(false);
    expect(run("self.existsOne(i, v, i == 2 && v == 2)", INTS, [1, 1, 2, 2, 3, 3])).toBe(true);
  });
  test("transformList, transformMap, transformMapEntry, with and without a filter", () => {
    expect(run("self.transformList(i, v, (i * v) + v) == [1, 4, 9]", INTS, [1, 2, 3])).toBe(true);
    expect(run("self.transformList(i, v, i % 2 == 0, (i * v) + v) == [1, 9]", INTS, [1, 2, 3])).toBe(true);
    expect(run("self.transformMap(i, v, (i * v) + v) == {0: 1, 1: 4, 2: 9}", INTS, [1, 2, 3])).toBe(true);
    expect(run("self.transformMap(i, v, i % 2 == 0, (i * v) + v) == {0: 1, 2: 9}", INTS, [1, 2, 3])).toBe(true);
    expect(run("self.transformMap(k, v, v + '!') == {'greeting': 'hello!'}", MAP, { greeting: "hello" })).toBe(true);
    expect(run("self.transformList(k, _, k) == ['greeting']", MAP, { greeting: "hello" })).toBe(true);
    expect(run("self.transformMapEntry(k, v, {v: k}) == {'hello': 'greeting'}", MAP, { greeting: "hello" })).toBe(true);
    expect(run("self.transformMapEntry(i, v, v > 1, {v: i}) == {2: 1, 3: 2}", INTS, [1, 2, 3])).toBe(true);
  });
  test("nested, bound and shadowing as the one-variable macros are", () => {
    const groups = { h: ["hello", "hi"], j: ["joke", "jog"] };
    const LISTS: JsonObject = { type: "object", additionalProperties: { type: "array", items: { type: "string" } } };
    // ext/comprehensions.go's own example
    expect(run("self.all(k, vals, vals.all(v, v.startsWith(k)))", LISTS, groups)).toBe(true);
    expect(run("self.exists(k, vals, vals.exists(i, v, i == 1 && v == 'jog'))", LISTS, groups)).toBe(true);
    expect(run("cel.bind(n, 2, self.all(i, v, v.size() == n))", LISTS, { a: ["x", "y"] })).toBe(true);
    // the inner variables hide the outer ones of the same names
    expect(run("self.all(k, v, [1].all(k, v, k == 0 && v == 1))", MAP, { a: "b" })).toBe(true);
  });
  test("errors as CEL's && and || absorb them: a false all, a true exists decides", () => {
    // the predicate fails on the item 0 (division by zero) and decides on another
    expect(run("self.all(i, v, 10 / v > 1)", INTS, [0, 20])).toBe(false);
    expect(run("self.exists(i, v, 10 / v == 5)", INTS, [0, 2])).toBe(true);
    expect(run("self.all(i, v, 10 / v > 0)", INTS, [0, 2])).toBe(
      "division by zero evaluating rule: self.all(i, v, 10 / v > 0)",
    );
  });
  test("a duplicate key fails as mutableMap.Insert fails (common/types/map.go)", () => {
    expect(run("self.transformMapEntry(k, v, {v: k}).size() == 2", MAP, { greeting: "aloha", farewell: "aloha" })).toBe(
      "insert failed: key aloha already exists evaluating rule: self.transformMapEntry(k, v, {v: k}).size() == 2",
    );
  });
  test("typed as their variables are: a list's index is an int, a map's value its values' type", () => {
    expect(run("self.all(i, v, v == 'x')", INTS, [])).toContain(
      "found no matching overload for '_==_' applied to '(int, string)'",
    );
    expect(run("self.all(k, v, v > 1)", MAP, {})).toContain(
      "found no matching overload for '_>_' applied to '(string, int)'",
    );
    expect(run("self.transformList(i, v, i) == ['a']", INTS, [])).toContain(
      "found no matching overload for '_==_' applied to '(list(int), list(string))'",
    );
  });
  test("a variable that is no name is refused where it stands, in the macros' words (parser/macro.go)", () => {
    expect(run("self.all(k.x, v, true)", MAP, {})).toBe(
      "compilation failed: ERROR: <input>:1:11: argument must be a simple name\n | self.all(k.x, v, true)\n | ..........^",
    );
    expect(run("self.transformList(k, 1, k)", MAP, {})).toBe(
      "compilation failed: ERROR: <input>:1:23: argument must be a simple name\n | self.transformList(k, 1, k)\n | ......................^",
    );
    // the one-variable macros too, which @bufbuild/cel leaves a call
    expect(run("self.exists(1, true)", INTS, [])).toBe(
      "compilation failed: ERROR: <input>:1:13: argument must be a simple name\n | self.exists(1, true)\n | ............^",
    );
    // at the argument's node: an operator's is its token
    expect(run("self.map(x + 1, x) == []", INTS, [])).toBe(
      "compilation failed: ERROR: <input>:1:12: argument is not an identifier\n | self.map(x + 1, x) == []\n | ...........^",
    );
  });
});

// environment/base.go: TwoVarComprehensions is IntroducedVersion 1.32; below it the macros are not there and a
// three-argument `all` is a call of a function no library declares
describe("only where the libraries are 1.32's or later", () => {
  test("1.31's libraries: undeclared, as cel-go's checker says it", () => {
    const out = run("self.all(k, v, v != '')", MAP, {}, 31);
    expect(out).toContain("ERROR: <input>:1:9: undeclared reference to 'all' (in container '')");
    expect(out).toContain("ERROR: <input>:1:10: undeclared reference to 'k' (in container '')");
    expect(run("self.transformMap(k, v, v) == {}", MAP, {}, 31)).toContain(
      "undeclared reference to 'transformMap' (in container '')",
    );
  });
  test("1.32's and every later one's", () => {
    expect(run("self.all(k, v, v != '')", MAP, { a: "b" }, 32)).toBe(true);
    expect(run("self.all(k, v, v != '')", MAP, { a: "b" }, 35)).toBe(true);
  });
});
