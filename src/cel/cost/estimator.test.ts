import { describe, expect, test } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { compileRules } from "../index.js";

/**
 * The estimated cost (CompilationResult.MaxCost) of one rule on a schema's root, as the API server computes it:
 * the cases of apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go TestCostEstimation, each
 * schema built as its generator builds it, once without bounds ("calc") and once with maxItems, maxProperties
 * and maxLength set to `set` ("set"). A cost of undefined is one the Go test does not pin.
 */
type Bound = number | undefined;
type Case = [name: string, schema: (max: Bound) => JsonObject, calc: number | "over", set: number, expectedSet: number];

const withRule = (schema: JsonObject, rule: string): JsonObject => ({
  ...schema,
  "x-kubernetes-validations": [{ rule }],
});
const bounded = (key: string, max: Bound): JsonObject => (max === undefined ? {} : { [key]: max });

/** parseRuleType: a format is a string's, int-or-string has no type. */
function leaf(type: string): JsonObject {
  if (type === "duration" || type === "date" || type === "date-time") return { type: "string", format: type };
  if (type === "int-or-string") return { "x-kubernetes-int-or-string": true };
  return { type };
}
const array = (type: string, rule: string) => (max: Bound) =>
  withRule({ type: "array", items: leaf(type), ...bounded("maxItems", max) }, rule);
const arrayOfArrays = (type: string, rule: string) => (max: Bound) =>
  withRule({ type: "array", items: { type: "array", items: { type } }, ...bounded("maxItems", max) }, rule);
const requiredAndOptional: JsonObject = {
  type: "object",
  properties: { required: { type: "string" }, optional: { type: "string" } },
  required: ["required"],
};
const objectArray = (rule: string) => (max: Bound) =>
  withRule({ type: "array", items: requiredAndOptional, ...bounded("maxItems", max) }, rule);
const mapArray = (type: string, rule: string) => (max: Bound) =>
  withRule(
    { type: "array", items: { type: "object", additionalProperties: { type } }, ...bounded("maxItems", max) },
    rule,
  );
const map = (type: string, rule: string) => (max: Bound) =>
  withRule({ type: "object", additionalProperties: leaf(type), ...bounded("maxProperties", max) }, rule);
const mapOf = (item: JsonObject, rule: string) => (max: Bound) =>
  withRule({ type: "object", additionalProperties: item, ...bounded("maxProperties", max) }, rule);
const string =
  (rule: string, extra: JsonObject = {}) =>
  (max: Bound) =>
    withRule({ type: "string", ...extra, ...bounded("maxLength", max) }, rule);
const nestedSpec = (rule: string) => (max: Bound) =>
  withRule(
    {
      type: "object",
      additionalProperties: { type: "string", ...bounded("maxLength", max) },
      ...bounded("maxProperties", max),
    },
    rule,
  );
const allMaxNested = (rule: string) => (max: Bound) =>
  withRule(
    {
      type: "array",
      items: {
        type: "object",
        additionalProperties: { ...requiredAndOptional, ...bounded("maxProperties", max) },
        ...bounded("maxProperties", max),
      },
      ...bounded("maxItems", max),
    },
    rule,
  );
const oneMaxNested = (rule: string) => (max: Bound) =>
  withRule(
    {
      type: "array",
      items: { type: "object", additionalProperties: requiredAndOptional, ...bounded("maxProperties", max) },
    },
    rule,
  );
const stringArray = (rule: string) => (max: Bound) =>
  withRule(
    {
      type: "array",
      items: { type: "string", ...bounded("maxLength", max) },
      "x-kubernetes-list-type": "atomic",
      ...bounded("maxItems", max),
    },
    rule,
  );
const object = (properties: Record<string, JsonObject>, rule: string) => withRule({ type: "object", properties }, rule);

const cases: Case[] = [
  ["number array with all", array("number", "self.all(x, true)"), 4718591, 10, 32],
  ["string array with all", array("string", "self.all(x, true)"), 3145727, 20, 62],
  ["boolean array with all", array("boolean", "self.all(x, true)"), 1887437, 5, 17],
  ["array of number arrays with all", arrayOfArrays("number", "self.all(x, true)"), 3145727, 100, 302],
  ["array of objects with all", objectArray("self.all(x, true)"), 555128, 50, 152],
  ["map of numbers with all", map("number", "self.all(x, true)"), 1348169, 10, 32],
  ["map of strings with all", map("string", "self.all(x, true)"), 1179647, 3, 11],
  ["map of booleans with all", map("boolean", "self.all(x, true)"), 943718, 100, 302],
  ["string with contains", string("self.contains('test')"), 314574, 10, 5],
  ["string with startsWith", string("self.startsWith('test')"), 2, 15, 2],
  ["string with endsWith", string("self.endsWith('test')"), 2, 30, 2],
  ["concat string", string(`size(self + "hello") > size("hello")`), 314578, 4, 7],
  ["index of array with numbers", array("number", "self[1] == 0.0"), 2, 5000, 2],
  ["index of array with strings", array("string", "self[1] == self[1]"), 314577, 8, 314577],
  ["O(n^2) loop with numbers", array("number", "self.all(x, self.all(y, true))"), "over", 10, 352],
  ["O(n^3) loop with numbers", array("number", "self.all(x, self.all(y, self.all(z, true)))"), "over", 10, 3552],
  ["regex matches simple", string(`self.matches("x")`), 314574, 50, 22],
  ["regex matches empty string", string(`"".matches("(((((((((())))))))))[0-9]")`), 7, 10, 7],
  ["regex matches empty regex", string(`self.matches("")`), 1, 100, 1],
  ["map of strings with value length", nestedSpec("self.all(x, x.contains(self[x]))"), 2752507, 10, 72],
  ["set array maxLength to zero", array("number", "self[3] == 0.0"), 2, 0, 2],
  ["set map maxLength to zero", map("number", `self["x"] == 0.0`), 2, 0, 2],
  ["set string maxLength to zero", string(`self == "x"`), 2, 0, 1],
  ["set bytes maxLength to zero", string(`self == b"x"`, { format: "byte" }), 2, 0, 1],
  [
    "set maxLength greater than estimated maxLength",
    array("number", "self.all(x, x == 0.0)"),
    6291454,
    3 * 1024 * 2048,
    25165826,
  ],
  [
    "nested types with root rule with all supporting maxLength",
    allMaxNested(`self.all(x, x["y"].required == "z")`),
    7340027,
    10,
    72,
  ],
  [
    "nested types with root rule with one supporting maxLength",
    oneMaxNested(`self.all(x, x["y"].required == "z")`),
    7340027,
    10,
    7340027,
  ],
  ["int-or-string array with all", array("int-or-string", "self.all(x, true)"), 4718591, 10, 32],
  ["index of array with int-or-strings", array("int-or-string", "self[0] == 5"), 3, 10, 3],
  ["index of array with booleans", array("boolean", "self[0] == false"), 2, 25, 2],
  ["index of array of objects", objectArray("self[0] == null"), 2, 422, 2],
  ["index of array of array of numnbers", arrayOfArrays("number", "self[0][0] == -1.0"), 3, 51, 3],
  ["array of number maps with all", mapArray("number", `self.all(x, x.y == 25.2)`), 6291452, 12, 74],
  ["index of array of number maps", mapArray("number", `self[0].x > 2.0`), 4, 3000, 4],
  ["duration array with all", array("duration", "self.all(x, true)"), 2359295, 5, 17],
  ["index of duration array", array("duration", "self[0].getHours() == 2"), 4, 525, 4],
  ["date array with all", array("date", "self.all(x, true)"), 725936, 15, 47],
  ["index of date array", array("date", "self[2].getDayOfMonth() == 13"), 4, 42, 4],
  ["date-time array with all", array("date-time", "self.all(x, true)"), 428963, 25, 77],
  ["index of date-time array", array("date-time", "self[2].getMinutes() == 45"), 4, 99, 4],
  ["map of int-or-strings with all", map("int-or-string", "self.all(x, true)"), 1348169, 15, 47],
  ["map of objects with all", mapOf(requiredAndOptional, "self.all(x, true)"), 428963, 20, 62],
  [
    "map of number maps with all",
    mapOf({ type: "object", additionalProperties: { type: "number" } }, "self.all(x, true)"),
    1179647,
    10,
    32,
  ],
  [
    "map of number arrays with all",
    mapOf({ type: "array", items: { type: "number" } }, "self.all(x, true)"),
    1179647,
    25,
    77,
  ],
  ["map of durations with all", map("duration", "self.all(x, true)"), 1048577, 5, 17],
  ["map of dates with all", map("date", "self.all(x, true)"), 524288, 10, 32],
  ["map of date-times with all", map("date-time", "self.all(x, true)"), 349526, 25, 77],
  ["extended library regex find", string("self.find('[0-9]+') == ''"), 629147, 10, 11],
  ["extended library join", stringArray("self.join(' ') == 'aa bb'"), 329853068905, 10, 43],
  ["extended library isSorted", stringArray("self.isSorted() == true"), 329854432052, 10, 52],
  [
    "extended library replace",
    (max) =>
      object(
        {
          str: { type: "string", ...bounded("maxLength", max) },
          before: { type: "string", maxLength: 2 },
          after: { type: "string", maxLength: 4 },
        },
        "self.str.replace(self.before, self.after) == 'does not matter'",
      ),
    629154,
    4,
    12,
  ],
  [
    "extended library split",
    (max) =>
      object(
        {
          str: { type: "string", ...bounded("maxLength", max) },
          separator: { type: "string", ...bounded("maxLength", max) },
        },
        "self.str.split(self.separator) == []",
      ),
    629160,
    10,
    22,
  ],
  ["extended library lowerAscii", string("self.lowerAscii() == 'lower!'"), 314575, 10, 6],
  ["check cost of size call", map("integer", "oldSelf.size() == self.size()"), 5, 10, 5],
  ["check cost of timestamp comparison", map("date-time", `self["a"] == self["b"]`), 8, 7, 8],
  ["check cost of duration comparison", map("duration", `self["c"] == self["d"]`), 8, 42, 8],
  [
    "enums with maxLength equals to the longest possible value",
    string("self.contains('A')", { enum: ["A", "B", "C", "LongValue"] }),
    2,
    1000,
    401,
  ],
];

/** The rule's estimated cost on the schema's root (a cardinality of 1), or its compile errors. */
function costOf(schema: JsonObject): number | string {
  const { findings, costs } = compileRules(schema, ["schema"]);
  const errors = findings.filter((f) => f.type !== "FieldValueForbidden" && f.severity === "error");
  if (errors.length > 0) return errors.map((f) => f.message).join("\n");
  return costs[0]?.cost ?? Number.NaN;
}

describe("the estimated cost of a rule (compilation_test.go TestCostEstimation)", () => {
  test.each(cases)("%s", (_, schema, calc, set, expectedSet) => {
    if (calc === "over") expect(costOf(schema(undefined))).toBeGreaterThanOrEqual(100_000_000);
    else expect(costOf(schema(undefined))).toBe(calc);
    expect(costOf(schema(set))).toBe(expectedSet);
  });
});

describe("nodes without a path", () => {
  // apiserver library/cost.go listElementNode: the items of a list with no path (a literal) are sized by their
  // type alone, unknown for strings; a map literal's lookup is one call
  test("a literal list's indexOf prices its items as unknown strings, whatever self's maxLength", () => {
    const ranking = (extra: JsonObject) => string("['small', 'medium', 'large'].indexOf(self) >= 0", extra)(undefined);
    expect(costOf(ranking({}))).toBeGreaterThan(1e18);
    expect(costOf(ranking({ maxLength: 10 }))).toBeGreaterThan(1e18);
    expect(costOf(string("{'small': 0, 'medium': 1, 'large': 2}[self] >= 0")(undefined))).toBe(33);
  });
});
