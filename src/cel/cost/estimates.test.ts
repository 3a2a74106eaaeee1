/**
 * The static estimate of each library call, worked out from the Go sources
 * each test names. Where a case comes from a test of Kubernetes'
 * (apiserver pkg/cel/library/cost_test.go) or cel-go's (ext/lists_test.go
 * TestListsCosts), its expected cost is the whole expression's less what
 * cel-go adds around the call (10 a list literal, 1 an identifier, 0 a
 * constant, the `==` of the result), so that what is left is the call's own.
 */
import { describe, expect, test } from "vitest";
import { BOOL, BYTES, type CelT, DYN, INT, listOf, opaque, STRING, UINT } from "../language/types.js";
import { type AstNodeInfo, MAX, type Range } from "./estimate-types.js";
import {
  addRanges,
  fixedRange,
  libraryCallEstimate,
  multiplyByFactor,
  multiplyRangeByFactor,
  multiplyRanges,
  saturatingAdd,
  saturatingMultiply,
  UNKNOWN_SIZE,
  unionRanges,
} from "./estimates.js";

const IP = opaque("net.IP");
const CIDR = opaque("net.CIDR");
const URL = opaque("kubernetes.URL");
const QUANTITY = opaque("kubernetes.Quantity");
const SEMVER = opaque("kubernetes.Semver");
const FORMAT = opaque("kubernetes.NamedFormat");
const AUTHORIZER = opaque("kubernetes.authorization.Authorizer");
const RESOURCE_CHECK = opaque("kubernetes.authorization.ResourceCheck");

/** A node with a computed size (a literal, a call's result) and no path. */
const sized = (type: CelT, size?: Range): AstNodeInfo => ({ path: undefined, type, computedSize: size });
/** A string literal of `n` characters. */
const str = (n: number) => sized(STRING, fixedRange(n));
/** A list literal of `n` items of `elem`. */
const list = (n: number, elem: CelT = INT) => sized(listOf(elem), fixedRange(n));
/** A variable (no computed size), sized by the estimator by its path. */
const variable = (type: CelT, ...path: string[]): AstNodeInfo => ({ path, type, computedSize: undefined });
/** An int argument that is not a literal. */
const intVar = variable(INT, "n");

/**
 * cel-go's `sizeOrUnknown` over the size estimator of Kubernetes' cost tests
 * (cost_test.go `testCostEstimator`: strings and bytes 0 to 12), and sizes by
 * path for variables.
 */
function sizeOfWith(byPath: Record<string, Range> = {}) {
  return (node: AstNodeInfo): Range => {
    if (node.computedSize !== undefined) return node.computedSize;
    const known = node.path === undefined ? undefined : byPath[node.path.join(".")];
    if (known !== undefined) return known;
    if (node.type.k === "string" || node.type.k === "bytes") return { min: 0, max: 12 };
    return UNKNOWN_SIZE;
  };
}
const sizeOf = sizeOfWith();

/** The estimate of a call, int literals given by node. */
function estimate(
  fn: string,
  target: AstNodeInfo | undefined,
  args: AstNodeInfo[],
  literals: Map<AstNodeInfo, bigint> = new Map(),
  sizes = sizeOf,
) {
  return libraryCallEstimate(fn, target, args, sizes, (n) => literals.get(n));
}

/** An int literal and the map that says it is one. */
function intLiteral(value: bigint): [AstNodeInfo, Map<AstNodeInfo, bigint>] {
  const node = sized(INT, fixedRange(1));
  return [node, new Map([[node, value]])];
}

const cost = (min: number, max = min) => ({ cost: { min, max } });

describe("cel-go cost arithmetic (common/cost SafeAdd, SafeMultiply, SafeMultiplyByFactor)", () => {
  test("factors round up", () => {
    expect(multiplyByFactor(15, 0.2)).toBe(3);
    expect(multiplyByFactor(11, 0.2)).toBe(3);
    expect(multiplyByFactor(4, 0.1)).toBe(1);
    expect(multiplyByFactor(0, 0.1)).toBe(0);
    // TestExtCostHelpers estimate_list_alloc: 10 × 0.5 + ListCreateBaseCost
    expect(addRanges(multiplyRangeByFactor(fixedRange(10), 0.5), fixedRange(10))).toEqual(fixedRange(15));
  });
  test("everything saturates at MAX", () => {
    expect(saturatingAdd(MAX, 1)).toBe(MAX);
    expect(saturatingMultiply(MAX, 2)).toBe(MAX);
    expect(saturatingMultiply(0, MAX)).toBe(0);
    expect(multiplyByFactor(MAX, 2.1)).toBe(MAX);
    expect(multiplyByFactor(MAX, MAX)).toBe(MAX);
    expect(multiplyByFactor(MAX, 0.1)).toBe(Math.ceil(MAX * 0.1));
    expect(multiplyRanges({ min: 3, max: MAX }, { min: 2, max: 2 })).toEqual({ min: 6, max: MAX });
  });
  test("a union covers both", () => {
    expect(unionRanges({ min: 3, max: 5 }, { min: 1, max: 4 })).toEqual({ min: 1, max: 5 });
  });
});

describe("Kubernetes lists library (cost.go EstimateCallCost: isSorted, sum, max, min, indexOf, lastIndexOf)", () => {
  test.each(["isSorted", "sum", "max", "min"])("%s: one comparison an item (TestListsCost, 15 - 10)", (fn) => {
    expect(estimate(fn, list(5), [])).toEqual(cost(5));
  });
  test("strings and bytes add a traversal of each item (TestListsCost: 15..25, bytes 25..35 less 5 bytes())", () => {
    expect(estimate("max", list(5, STRING), [])).toEqual(cost(5, 15));
    expect(estimate("isSorted", list(5, BYTES), [])).toEqual(cost(5, 15));
    expect(estimate("indexOf", list(5, STRING), [str(1)])).toEqual(cost(5, 15));
  });
  test("a string's indexOf and lastIndexOf traverse it (TestIndexOfCost: 5)", () => {
    expect(estimate("indexOf", str(50), [str(3)])).toEqual(cost(5));
    expect(estimate("lastIndexOf", str(50), [str(3)])).toEqual(cost(5));
  });
  test("the items are sized under the list's path plus @items (listElementNode)", () => {
    const sizes = sizeOfWith({ "self.names": { min: 0, max: 3 }, "self.names.@items": { min: 0, max: 20 } });
    expect(estimate("isSorted", variable(listOf(STRING), "self", "names"), [], new Map(), sizes)).toEqual(cost(0, 9));
  });
  test("a list of unknown size saturates", () => {
    expect(estimate("sum", variable(listOf(INT), "l"), [])).toEqual(cost(0, MAX));
  });
});

describe("strings extension as Kubernetes prices it (cost.go EstimateCallCost)", () => {
  test.each(["lowerAscii", "upperAscii"])("%s: one traversal, the string's size (TestStringLibrary: 3)", (fn) => {
    expect(estimate(fn, str(21), [])).toEqual({ cost: fixedRange(3), resultSize: fixedRange(21) });
  });
  test("substring and trim (TestStringLibrary: 2)", () => {
    expect(estimate("substring", str(15), [sized(INT, fixedRange(1))])).toEqual({
      cost: fixedRange(2),
      resultSize: fixedRange(15),
    });
    expect(estimate("trim", str(19), [])).toEqual({ cost: fixedRange(2), resultSize: fixedRange(19) });
  });
  test("replace: twice the traversal (TestStringLibrary: 3)", () => {
    expect(estimate("replace", str(15), [str(3), str(3)])).toEqual({
      cost: fixedRange(3),
      resultSize: fixedRange(15),
    });
    // "" is replaced 16 times, around each of the 15 characters
    expect(estimate("replace", str(15), [str(0), str(1)])).toEqual({
      cost: fixedRange(3),
      resultSize: fixedRange(31),
    });
    expect(estimate("replace", str(15), [str(3), str(0)])?.resultSize).toEqual({ min: 0, max: 15 });
    const [count, literals] = intLiteral(1n);
    expect(estimate("replace", str(15), [str(3), str(3), count], literals)?.cost).toEqual(fixedRange(3));
  });
  // TestSize: the result's size from the sizes of the string, the match and the replacement
  test.each<[string, Range, Range, Range, Range]>([
    ["replace empty with char", fixedRange(3), fixedRange(0), fixedRange(1), fixedRange(7)],
    ["maybe replace char with empty", fixedRange(3), fixedRange(1), fixedRange(0), { min: 0, max: 3 }],
    ["maybe replace repeated", fixedRange(4), fixedRange(2), fixedRange(4), { min: 4, max: 8 }],
    ["maybe replace empty", fixedRange(4), { min: 0, max: 1 }, { min: 0, max: 2 }, { min: 0, max: 14 }],
    ["non-empty size range, maybe larger", fixedRange(4), fixedRange(1), { min: 1, max: 2 }, { min: 4, max: 8 }],
    ["non-empty size range, maybe smaller", fixedRange(4), { min: 1, max: 2 }, fixedRange(1), { min: 2, max: 4 }],
  ])("replace result size: %s (TestSize)", (_name, target, toReplace, replaceWith, expected) => {
    const result = estimate("replace", sized(STRING, target), [sized(STRING, toReplace), sized(STRING, replaceWith)]);
    expect(result?.resultSize).toEqual(expected);
  });
  test("replace on a string of unknown size stays saturated", () => {
    const result = estimate("replace", sized(STRING, UNKNOWN_SIZE), [str(0), str(2)]);
    expect(result).toEqual({ cost: { min: 0, max: Math.ceil(MAX * 0.2) }, resultSize: { min: 2, max: MAX } });
  });
  test("split: twice the traversal, at most an item a character (TestStringLibrary: 3)", () => {
    expect(estimate("split", str(15), [str(1)])).toEqual({ cost: fixedRange(3), resultSize: { min: 0, max: 15 } });
    expect(estimate("split", str(15), [str(1), intVar])?.resultSize).toEqual({ min: 0, max: 15 });
  });
  test("split with a literal limit: at most that many items, a negative one wrapping as Go's uint64", () => {
    const [one, oneLiteral] = intLiteral(1n);
    expect(estimate("split", str(15), [str(1), one], oneLiteral)).toEqual({
      cost: fixedRange(3),
      resultSize: { min: 0, max: 1 },
    });
    const [minusOne, minusOneLiteral] = intLiteral(-1n);
    expect(estimate("split", str(15), [str(1), minusOne], minusOneLiteral)?.resultSize).toEqual({ min: 0, max: MAX });
  });
  test("join: the items and the separators between them (TestStringLibrary: 11..23 and 10..22, less 10)", () => {
    expect(estimate("join", list(10, STRING), [str(1)])).toEqual({
      cost: { min: 1, max: 13 },
      resultSize: { min: 9, max: 129 },
    });
    expect(estimate("join", list(10, STRING), [])).toEqual({
      cost: { min: 0, max: 12 },
      resultSize: { min: 0, max: 120 },
    });
    expect(estimate("join", list(0, STRING), [str(1)])).toEqual({ cost: fixedRange(0), resultSize: fixedRange(0) });
  });
  test("the strings extension's other functions are not priced here", () => {
    expect(estimate("charAt", str(5), [sized(INT, fixedRange(1))])).toBeUndefined();
    expect(estimate("strings.quote", undefined, [str(5)])).toBeUndefined();
    expect(estimate("format", str(5), [list(1, DYN)])).toBeUndefined();
    expect(estimate("reverse", str(5), [])).toBeUndefined();
  });
  test("member functions called without a target are not priced", () => {
    expect(estimate("lowerAscii", undefined, [str(5)])).toBeUndefined();
    expect(estimate("replace", str(5), [str(1)])).toBeUndefined();
  });
});

describe("Kubernetes regex library (cost.go EstimateCallCost: find, findAll)", () => {
  test.each(["find", "findAll"])("%s: (string + 1) × 0.1 times the pattern × 0.25 (TestStringLibrary: 2)", (fn) => {
    expect(estimate(fn, str(15), [str(3)])).toEqual({ cost: fixedRange(2), resultSize: { min: 0, max: 15 } });
  });
  test("findAll with a limit is priced the same", () => {
    expect(estimate("findAll", str(15), [str(3), sized(INT, fixedRange(1))])?.cost).toEqual(fixedRange(2));
  });
  test("an empty string still costs the pattern", () => {
    expect(estimate("find", str(0), [str(40)])?.cost).toEqual(fixedRange(10));
  });
  test("matches is cel-go's standard overload, not here", () => {
    expect(estimate("matches", str(15), [str(3)])).toBeUndefined();
  });
});

describe("Kubernetes URL library (cost.go EstimateCallCost: url, getScheme, …, _==_)", () => {
  test("url traverses its string, its size the URL's (TestURLsCost: 4 less getScheme)", () => {
    expect(estimate("url", undefined, [str(23)])).toEqual({ cost: fixedRange(3), resultSize: fixedRange(23) });
  });
  test.each(["getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery"])("%s: 1", (fn) => {
    expect(estimate(fn, sized(URL, fixedRange(23)), [])).toEqual(cost(1));
  });
  test("URL equality traverses the right side's computed size (TestURLsCost: 7..9 and 5, less the urls)", () => {
    expect(estimate("_==_", undefined, [sized(URL, fixedRange(23)), sized(URL, fixedRange(23))])).toEqual(cost(1, 3));
    expect(estimate("_==_", undefined, [sized(URL, fixedRange(23)), sized(URL, fixedRange(9))])).toEqual(cost(1));
    expect(estimate("_==_", undefined, [sized(URL, fixedRange(99)), sized(URL)])).toEqual(cost(1));
  });
  test("isURL is not priced", () => {
    expect(estimate("isURL", undefined, [str(23)])).toBeUndefined();
  });
});

describe("Kubernetes IP and CIDR libraries (cost.go EstimateCallCost)", () => {
  test("ip parses its string (TestIPCost: 2 and 4)", () => {
    expect(estimate("ip", undefined, [str(11)])).toEqual(cost(2));
    expect(estimate("ip", undefined, [str(39)])).toEqual(cost(4));
  });
  test("a CIDR's ip() reads a field (TestCIDRCost: base + 1)", () => {
    expect(estimate("ip", sized(CIDR), [])).toEqual(cost(1));
  });
  test.each(["cidr", "isIP", "isCIDR"])("%s parses its string (TestCIDRCost: 2)", (fn) => {
    expect(estimate(fn, undefined, [str(14)])).toEqual(cost(2));
    expect(estimate(fn, undefined, [str(13)])).toEqual(cost(2));
  });
  test("ip.isCanonical parses and compares (TestIPIsCanonicalCost: 3, 8, 3)", () => {
    expect(estimate("ip.isCanonical", undefined, [str(11)])).toEqual(cost(3));
    expect(estimate("ip.isCanonical", undefined, [str(39)])).toEqual(cost(8));
    expect(estimate("ip.isCanonical", undefined, [str(14)])).toEqual(cost(3));
  });
  test.each([
    "masked",
    "prefixLength",
    "family",
    "isUnspecified",
    "isLoopback",
    "isLinkLocalMulticast",
    "isLinkLocalUnicast",
    "isGlobalUnicast",
  ])("%s: 1", (fn) => {
    expect(estimate(fn, sized(IP), [])).toEqual(cost(1));
  });
  test("containsIP compares 4 to 16 bytes, parsing a string first (TestCIDRCost: +2..5, +3..6, +5..8)", () => {
    expect(estimate("containsIP", sized(CIDR), [sized(IP)])).toEqual(cost(1, 4));
    expect(estimate("containsIP", sized(CIDR), [str(9)])).toEqual(cost(2, 5));
    expect(estimate("containsIP", sized(CIDR), [str(11)])).toEqual(cost(3, 6));
    expect(estimate("containsIP", sized(CIDR), [str(39)])).toEqual(cost(5, 8));
  });
  test("containsCIDR also masks and compares the prefix (TestCIDRCost: +5..9 with a cidr() or a string)", () => {
    expect(estimate("containsCIDR", sized(CIDR), [sized(CIDR)])).toEqual(cost(3, 7));
    expect(estimate("containsCIDR", sized(CIDR), [str(12)])).toEqual(cost(5, 9));
    expect(estimate("containsCIDR", sized(CIDR), [str(14)])).toEqual(cost(5, 9));
  });
  test("a dyn argument matches both overloads, the estimate covers both (checker costCall's union)", () => {
    expect(estimate("containsIP", sized(CIDR), [variable(DYN, "x")])).toEqual(cost(1, 4 + multiplyByFactor(MAX, 0.1)));
  });
  test("IP and CIDR equality is 1 (TestIPCost and TestCIDRCost: base + base + 1)", () => {
    expect(estimate("_==_", undefined, [sized(IP), sized(IP)])).toEqual(cost(1));
    expect(estimate("_==_", undefined, [sized(CIDR), sized(CIDR)])).toEqual(cost(1));
  });
});

describe("Kubernetes quantity library (cost.go EstimateCallCost)", () => {
  test.each(["quantity", "isQuantity"])("%s parses its string (TestQuantityCost: 1)", (fn) => {
    expect(estimate(fn, undefined, [str(4)])).toEqual(cost(1));
    expect(estimate(fn, undefined, [str(25)])).toEqual(cost(3));
  });
  test.each([
    "sign",
    "asInteger",
    "isInteger",
    "asApproximateFloat",
    "isGreaterThan",
    "isLessThan",
    "compareTo",
    "add",
    "sub",
  ])("%s: 1 (TestQuantityCost)", (fn) => {
    expect(estimate(fn, sized(QUANTITY), fn.startsWith("is") && fn !== "isInteger" ? [sized(QUANTITY)] : [])).toEqual(
      cost(1),
    );
  });
  test("quantity equality is 1 (TestQuantityCost equality_reflexivity: 3 = 1 + 1 + 1)", () => {
    expect(estimate("_==_", undefined, [sized(QUANTITY), sized(QUANTITY)])).toEqual(cost(1));
  });
  test("equality of other types, or of different ones, is not priced here", () => {
    expect(estimate("_==_", undefined, [sized(INT), sized(INT)])).toBeUndefined();
    expect(estimate("_==_", undefined, [sized(QUANTITY), sized(DYN)])).toBeUndefined();
    expect(estimate("_!=_", undefined, [sized(URL), sized(URL)])).toBeUndefined();
  });
});

describe("Kubernetes semver library (cost.go EstimateCallCost)", () => {
  test.each(["semver", "isSemver"])("%s parses its string (TestSemverCost: 1 and 4)", (fn) => {
    expect(estimate(fn, undefined, [str(5)])).toEqual(cost(1));
    expect(estimate(fn, undefined, [str(32)])).toEqual(cost(4));
    expect(estimate(fn, undefined, [str(32), sized(BOOL, fixedRange(1))])).toEqual(cost(4));
  });
  test.each(["major", "minor", "patch"])("%s: 1 (TestSemverCost: 2 less semver())", (fn) => {
    expect(estimate(fn, sized(SEMVER), [])).toEqual(cost(1));
  });
  test("semver equality is 1", () => {
    expect(estimate("_==_", undefined, [sized(SEMVER), sized(SEMVER)])).toEqual(cost(1));
  });
});

describe("Kubernetes format library (cost.go EstimateCallCost: format.named, validate, _==_)", () => {
  test("format.named: 1 (TestNameFormatCost)", () => {
    expect(estimate("format.named", undefined, [str(16)])).toEqual(cost(1));
  });
  test("validate scans by the longest pattern, 128 × 0.25 (TestNameFormatCost: 34 less format.named and value)", () => {
    expect(estimate("validate", sized(FORMAT), [str(7)])).toEqual(cost(32));
    expect(estimate("validate", sized(FORMAT), [str(25)])).toEqual(cost(96));
  });
  test("format equality traverses up to 64 characters (TestNameFormatCost: 5..11 less 4)", () => {
    expect(estimate("_==_", undefined, [sized(FORMAT), sized(FORMAT)])).toEqual(cost(1, 7));
  });
  test("the named formats' own functions are not priced here", () => {
    expect(estimate("format.dns1123Label", undefined, [])).toBeUndefined();
  });
});

describe("Kubernetes authorizer library (cost.go EstimateCallCost)", () => {
  test("check is fixed (TestAuthzLibrary: 350003 = authorizer, path, check, allowed)", () => {
    expect(estimate("check", sized(RESOURCE_CHECK), [str(6)])).toEqual(cost(350_000));
  });
  test.each([
    "serviceAccount",
    "path",
    "group",
    "resource",
    "subresource",
    "namespace",
    "name",
    "allowed",
    "reason",
    "error",
    "errored",
  ])("%s: 1", (fn) => {
    expect(estimate(fn, sized(AUTHORIZER), [str(4)])).toEqual(cost(1));
  });
  test.each(["fieldSelector", "labelSelector"])(
    "%s: 10 + the traversal + 50 a requirement (TestAuthzLibrary: 1821 less 3)",
    (fn) => {
      // 10 + ceil(7.1) + ceil(71 × 0.5) × 50
      expect(estimate(fn, sized(RESOURCE_CHECK), [str(71)])).toEqual(cost(1818));
    },
  );
  test("authorizer equality is 1", () => {
    expect(estimate("_==_", undefined, [sized(AUTHORIZER), sized(AUTHORIZER)])).toEqual(cost(1));
  });
});

describe("jsonpatch.escapeKey (cost.go EstimateCallCost)", () => {
  test("one traversal, the key's size (TestStringLibrary: 2)", () => {
    expect(estimate("jsonpatch.escapeKey", undefined, [str(18)])).toEqual({
      cost: fixedRange(2),
      resultSize: fixedRange(18),
    });
  });
});

describe("cel-go sets extension (ext/sets.go estimateSetsCost)", () => {
  test("contains and intersects: 1 + m × n (TestSetsCost less 10 a list)", () => {
    expect(estimate("sets.contains", undefined, [list(0), list(0)])).toEqual(cost(1));
    expect(estimate("sets.contains", undefined, [list(1), list(1)])).toEqual(cost(2));
    expect(estimate("sets.contains", undefined, [list(4), list(2)])).toEqual(cost(9));
    expect(estimate("sets.intersects", undefined, [list(2), list(2)])).toEqual(cost(5));
    expect(estimate("sets.intersects", undefined, [list(2), list(3)])).toEqual(cost(7));
  });
  test("equivalent: 1 + 2 × m × n (TestSetsCost)", () => {
    expect(estimate("sets.equivalent", undefined, [list(1), list(1)])).toEqual(cost(3));
    expect(estimate("sets.equivalent", undefined, [list(3), list(3)])).toEqual(cost(19));
    expect(estimate("sets.equivalent", undefined, [list(2), list(3)])).toEqual(cost(13));
  });
  test("a list of unknown size saturates", () => {
    expect(estimate("sets.contains", undefined, [variable(listOf(INT), "x"), list(5)])).toEqual(cost(1, MAX));
  });
});

describe("cel-go lists extension, version 3 (ext/lists.go estimators; TestListsCosts)", () => {
  test("lists.range: a literal size + 1 + 10 (list_range: 26 less 10 and the ==)", () => {
    const [four, literal] = intLiteral(4n);
    expect(estimate("lists.range", undefined, [four], literal)).toEqual({
      cost: fixedRange(15),
      resultSize: fixedRange(4),
    });
    const [negative, negativeLiteral] = intLiteral(-3n);
    expect(estimate("lists.range", undefined, [negative], negativeLiteral)).toEqual({
      cost: fixedRange(11),
      resultSize: fixedRange(0),
    });
  });
  test("lists.range of a computed size is unbounded (list_range_computed, list_range_var: MaxUint64)", () => {
    expect(estimate("lists.range", undefined, [intVar])).toEqual({
      cost: fixedRange(MAX),
      resultSize: fixedRange(MAX),
    });
  });
  test("flatten: the list's size times the depth + 11 (list_flatten_depth_one..three, list_flatten)", () => {
    const target = sized(listOf(DYN), fixedRange(2));
    for (const [depth, expected] of [
      [1n, 13],
      [2n, 15],
      [3n, 17],
      [0n, 11],
    ] as const) {
      const [node, literal] = intLiteral(depth);
      expect(estimate("flatten", target, [node], literal)).toEqual({
        cost: fixedRange(expected),
        resultSize: fixedRange(2),
      });
    }
    expect(estimate("flatten", sized(listOf(listOf(INT)), fixedRange(3)), [])?.cost).toEqual(fixedRange(14));
  });
  test("flatten of a variable (list_flatten_var: 23..26 less 12)", () => {
    const sizes = sizeOfWith({ x: { min: 0, max: 3 } });
    expect(estimate("flatten", variable(listOf(DYN), "x"), [], new Map(), sizes)).toEqual({
      cost: { min: 11, max: 14 },
      resultSize: { min: 0, max: 3 },
    });
  });
  test("flatten to a computed depth is unbounded (list_flatten_depth_var: MaxUint64)", () => {
    expect(estimate("flatten", sized(listOf(DYN), fixedRange(2)), [intVar])?.cost).toEqual(fixedRange(MAX));
  });
  test("distinct: n² × 2 + 11, its result sized n² (list_distinct_worst_case: 50 less 20 and the ==)", () => {
    expect(estimate("distinct", list(3), [])).toEqual({ cost: fixedRange(29), resultSize: fixedRange(9) });
    const sizes = sizeOfWith({ x: { min: 0, max: 3 } });
    // list_distinct_var: 23..41 less 12, strings not traversed
    expect(estimate("distinct", variable(listOf(STRING), "x"), [], new Map(), sizes)?.cost).toEqual({
      min: 11,
      max: 29,
    });
  });
  test("slice: the literal bounds, else 0 and the list's largest size (list_slice*)", () => {
    const [one, oneLiteral] = intLiteral(1n);
    const [three, threeLiteral] = intLiteral(3n);
    const literals = new Map([...oneLiteral, ...threeLiteral]);
    expect(estimate("slice", list(3), [one, three], literals)).toEqual({
      cost: fixedRange(13),
      resultSize: fixedRange(2),
    });
    expect(estimate("slice", list(5), [intVar, intVar])).toEqual({
      cost: fixedRange(16),
      resultSize: fixedRange(5),
    });
    const sizes = sizeOfWith({ z: { min: 0, max: 10 } });
    const z = variable(listOf(INT), "z");
    expect(estimate("slice", z, [one, three], literals, sizes)?.cost).toEqual(fixedRange(13));
    expect(estimate("slice", z, [intVar, intVar], new Map(), sizes)?.cost).toEqual(fixedRange(21));
  });
  test("slice with a start past its end wraps as Go's uint64 subtraction", () => {
    const [three, threeLiteral] = intLiteral(3n);
    const [one, oneLiteral] = intLiteral(1n);
    const literals = new Map([...oneLiteral, ...threeLiteral]);
    expect(estimate("slice", list(3), [three, one], literals)?.cost).toEqual(fixedRange(MAX));
  });
  test("reverse: n + 11 (list_reverse: 35 less 21; list_var_reverse: 23..28 less 12)", () => {
    expect(estimate("reverse", list(3), [])).toEqual({ cost: fixedRange(14), resultSize: fixedRange(3) });
    const sizes = sizeOfWith({ x: { min: 0, max: 5 } });
    expect(estimate("reverse", variable(listOf(INT), "x"), [], new Map(), sizes)?.cost).toEqual({ min: 11, max: 16 });
  });
  test("sort: n² × 2 + 11, × 2.1 for strings and bytes (list_sort, list_sort_var, list_sort_var_string)", () => {
    expect(estimate("sort", list(3), [])).toEqual({ cost: fixedRange(29), resultSize: fixedRange(9) });
    const x = (elem: CelT) => variable(listOf(elem), "x");
    expect(estimate("sort", x(INT), [], new Map(), sizeOfWith({ x: { min: 0, max: 5 } }))?.cost).toEqual({
      min: 11,
      max: 61,
    });
    const ten = sizeOfWith({ x: { min: 0, max: 10 } });
    expect(estimate("sort", x(STRING), [], new Map(), ten)?.cost).toEqual({ min: 11, max: 221 });
    expect(estimate("sort", x(UINT), [], new Map(), ten)?.cost).toEqual({ min: 11, max: 211 });
    expect(estimate("sort", x(BYTES), [], new Map(), ten)?.cost).toEqual({ min: 11, max: 221 });
  });
  test("sort of dyn items matches every overload, the estimate covers them (checker costCall's union)", () => {
    const sizes = sizeOfWith({ x: { min: 0, max: 10 } });
    expect(estimate("sort", variable(listOf(DYN), "x"), [], new Map(), sizes)?.cost).toEqual({ min: 11, max: 221 });
  });
  test("@sortByAssociatedKeys sorts the keys, typed by the keys (estimateListSortBy)", () => {
    const items = list(2, DYN);
    expect(estimate("@sortByAssociatedKeys", items, [list(2, INT)])).toEqual({
      cost: fixedRange(19),
      resultSize: fixedRange(4),
    });
    expect(estimate("@sortByAssociatedKeys", items, [list(2, STRING)])?.cost).toEqual(fixedRange(20));
  });
  test("the lists extension's functions need their receivers", () => {
    expect(estimate("reverse", undefined, [list(3)])).toBeUndefined();
    expect(estimate("lists.range", list(3), [intVar])).toBeUndefined();
    expect(estimate("slice", list(3), [intVar])).toBeUndefined();
  });
});

describe("functions neither the extensions nor Kubernetes price", () => {
  test.each(["size", "contains", "startsWith", "string", "bytes", "_+_", "value", "hasValue"])(
    "%s is left to cel-go's standard switch",
    (fn) => {
      expect(estimate(fn, str(5), [str(2)])).toBeUndefined();
    },
  );
});
