import { describe, expect, test } from "vitest";
import type { JsonObject, JsonValue } from "../../value/index.js";
import { compileRules, evaluateRules } from "../index.js";
import { functionsOf } from "./index.js";
import { besidesEstimatedCost } from "./testing.js";

const SCHEMA: JsonObject = { type: "object", properties: { s: { type: "string" } } };

/** The rule compiled for `self` and run: the findings' messages, and the cost it spent. */
function evaluate(rule: string, self: JsonValue): { messages: string[]; cost: number } {
  const { rules, findings: all } = compileRules({ ...SCHEMA, "x-kubernetes-validations": [{ rule }] }, ["spec"]);
  const findings = besidesEstimatedCost(all);
  if (findings.length > 0 || rules === undefined) throw new Error(findings.map((f) => f.message).join("\n"));
  const budget = { remaining: 10_000_000 };
  const out = evaluateRules(rules, self, undefined, ["spec"], budget);
  return { messages: out.map((f) => f.message), cost: 10_000_000 - budget.remaining };
}

/** true/false for a rule that held/failed, the runtime error detail otherwise. */
function run(rule: string, self: JsonValue = {}): boolean | string {
  const { rules } = compileRules({ ...SCHEMA, "x-kubernetes-validations": [{ rule }] }, ["spec"]);
  const [first] = evaluateRules(rules as NonNullable<typeof rules>, self, undefined, ["spec"], {
    remaining: 10_000_000,
  });
  if (first === undefined) return true;
  return first.detail === `failed rule: ${rule}` ? false : (first.detail ?? "");
}

const holds = (rule: string, self: JsonValue = {}) => {
  expect(evaluate(rule, self).messages, rule).toEqual([]);
};
/** The rule stops with `message` as the API server words it: `<error> evaluating rule: <rule>`. */
const failsWith = (rule: string, message: string) => expect(run(rule)).toBe(`${message} evaluating rule: ${rule}`);

/** The compilation error of a rule, its first line. */
function compileError(rule: string): string {
  const { findings } = compileRules({ ...SCHEMA, "x-kubernetes-validations": [{ rule }] }, ["spec"]);
  return findings.map((f) => f.message.split("\n")[0]).join("\n");
}

describe("semver and isSemver parse as blang/semver's Parse", () => {
  // staging/src/k8s.io/apiserver/pkg/cel/library/semverlib.go: semver(string) and isSemver(string) call
  // github.com/blang/semver/v4 semver.go Parse; isSemver is true exactly when semver does not fail.
  test("valid versions: MAJOR.MINOR.PATCH, a prerelease, build metadata", () => {
    for (const v of [
      "1.2.3",
      "0.0.0",
      "1.2.3-beta.1+build.1",
      "1.2.3-0",
      "1.2.3-alpha-1.x-y",
      "1.2.3--",
      "1.2.3+001",
      "1.2.3+exp.sha.5114f85",
      "1.0.0-x.7.z.92",
      "18446744073709551615.0.0",
    ]) {
      holds(`isSemver('${v}') && isSemver(self.s)`, { s: v });
      holds(`semver(self.s) == semver('${v}')`, { s: v });
    }
  });
  test("invalid versions", () => {
    // the cases of semverlib.go's own tests (library/semver_test.go), and more of Parse's rules
    for (const v of [
      "",
      "v1.0.0",
      " 1.0.0",
      "1.0.0 ",
      "1. 0.0",
      "01.01.01",
      "1",
      "1.1",
      "1.2.3.4",
      "1.02.3",
      "1.2.03",
      "1.2.3-01",
      "1.2.3-",
      "1.2.3-a..b",
      "1.2.3+",
      "1.2.3+a..b",
      "1.2.3+a_b",
      "1.2.3-é",
      "1.2.3-a$",
      "a.b.c",
      "..",
      "18446744073709551616.0.0",
      "1.2.99999999999999999999",
    ])
      holds("!isSemver(self.s)", { s: v });
    expect(compileError("isSemver([1, 2, 3])")).toContain(
      "found no matching overload for 'isSemver' applied to '(list(int))'",
    );
  });
  test("major, minor and patch as ints", () => {
    holds("semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3");
    holds("semver('10.20.30-rc.1+b').major() == 10 && semver('10.20.30-rc.1+b').patch() == 30");
    holds("semver('9223372036854775807.0.0').major() == 9223372036854775807");
    // Version.Major is a uint64 that semverlib.go converts with types.Int(v.Major): past 2^63 - 1 it wraps
    holds("semver('18446744073709551615.0.0').major() == -1 && semver('0.18446744073709551614.0').minor() == -2");
  });
});

describe("the failures of semver(s), in blang/semver's words", () => {
  // github.com/blang/semver/v4 semver.go Parse and NewPRVersion; strconv.ParseUint's own errors for an empty
  // or too large number; semverlib.go returns the error as it is (types.WrapErr).
  test.each([
    ["", "Version string empty"],
    ["x", "No Major.Minor.Patch elements found"],
    ["v1.0", "No Major.Minor.Patch elements found"],
    ["1.2", "No Major.Minor.Patch elements found"],
    ["a.0.0", 'Invalid character(s) found in major number "a"'],
    [" 1.0.0", 'Invalid character(s) found in major number " 1"'],
    ["01.0.0", 'Major number must not contain leading zeroes "01"'],
    ["1.b.0", 'Invalid character(s) found in minor number "b"'],
    ["1.02.0", 'Minor number must not contain leading zeroes "02"'],
    ["1.2.x", 'Invalid character(s) found in patch number "x"'],
    ["1.2.3.4", 'Invalid character(s) found in patch number "3.4"'],
    ["1.2.3 ", 'Invalid character(s) found in patch number "3 "'],
    ["1.2.03", 'Patch number must not contain leading zeroes "03"'],
    ["1.2.3-", "Prerelease is empty"],
    ["1.2.3-a..b", "Prerelease is empty"],
    ["1.2.3-01", 'Numeric PreRelease version must not contain leading zeroes "01"'],
    ["1.2.3-a$", 'Invalid character(s) found in prerelease "a$"'],
    ["1.2.3-a\\tb", 'Invalid character(s) found in prerelease "a\\tb"'],
    ["1.2.3+", "Build meta data is empty"],
    ["1.2.3+a_b", 'Invalid character(s) found in build meta data "a_b"'],
    ["..0", 'strconv.ParseUint: parsing "": invalid syntax'],
    ["18446744073709551616.0.0", 'strconv.ParseUint: parsing "18446744073709551616": value out of range'],
    ["1.2.3-18446744073709551616", 'strconv.ParseUint: parsing "18446744073709551616": value out of range'],
  ])("semver('%s')", (v, message) => failsWith(`semver('${v}').major() >= 0`, message));
  test("a prerelease is checked before build metadata, each identifier in turn", () => {
    failsWith("semver('1.2.3-01+a_b').major() >= 0", 'Numeric PreRelease version must not contain leading zeroes "01"');
    failsWith("semver('1.2.3-a+b.').major() >= 0", "Build meta data is empty");
    // the build metadata starts at the first `+`; a `-` after it belongs to the build metadata
    holds("semver('1.2.3+b-c').patch() == 3 && semver('1.2.3+b-c') == semver('1.2.3')");
  });
});

describe("normalization: semver(s, true) and isSemver(s, true)", () => {
  // staging/src/k8s.io/apiserver/pkg/cel/library/semverlib.go normalizeAndParse (SemverVersion(1)): one leading
  // `v` removed, leading zeros removed from the first three dot-separated parts, missing minor and patch added
  // as 0, then Parse; unlike blang/semver's ParseTolerant, no white space is trimmed.
  test("the examples of semverlib.go and its tests", () => {
    holds("semver('v1.0.0', true) == semver('1.0.0')");
    holds("semver('1.0', true) == semver('1.0.0')");
    holds("semver('01.01.01', true) == semver('1.1.1')");
    holds("semver('v01.01', true) == semver('1.1.0')");
    holds("isSemver('v1.0.0', true) && isSemver('01.01.01', true) && isSemver('1', true) && isSemver('1.1', true)");
    holds("!isSemver('', true) && !isSemver(' 1.0.0', true) && !isSemver('1. 0.0', true) && !isSemver('1.0.0 ', true)");
    holds("!isSemver('v1.0.0', false) && isSemver('1.0.0', false) && semver('1.2.3', false).patch() == 3");
  });
  test("leading zeros: a part of zeros keeps one; a part then starting with a non-digit gets a 0 back", () => {
    holds("semver('00.000.0000', true) == semver('0.0.0')");
    holds("semver('1.2.03-alpha', true) == semver('1.2.3-alpha')");
    holds("semver('1.2.0-alpha', true) == semver('1.2.0-alpha')");
    holds("semver('1.2.00+build', true) == semver('1.2.0') && semver('v007', true).major() == 7");
    // the prerelease's own identifiers are not normalized
    failsWith(
      "semver('1.2.3-01', true).major() >= 0",
      'Numeric PreRelease version must not contain leading zeroes "01"',
    );
    // a part that is not a number keeps its characters, now behind a 0
    failsWith("semver('1.0x.0', true).major() >= 0", 'Invalid character(s) found in minor number "0x"');
    failsWith("semver('1.0 ', true).major() >= 0", 'Invalid character(s) found in minor number "0 "');
    // "longer than one" counts Go's bytes: a single é (two bytes in UTF-8) gets its 0 too
    failsWith("semver('1.2.é', true).major() >= 0", 'Invalid character(s) found in patch number "0é"');
    failsWith("semver('1.2.x', true).major() >= 0", 'Invalid character(s) found in patch number "x"');
  });
  test("one lowercase v only; no white space trimmed", () => {
    holds("!isSemver('vv1.0.0', true) && !isSemver('V1.0.0', true) && !isSemver('1.0.0\\n', true)");
    // `vv1` loses one v; `v1`, longer than one character and not starting with a digit, gets a 0
    failsWith("semver('vv1', true).major() >= 0", 'Invalid character(s) found in major number "0v1"');
    failsWith("semver(' 1.0.0', true).major() >= 0", 'Invalid character(s) found in major number "0 1"');
  });
  test("a short version cannot have a prerelease or build metadata (semverlib.go's own message)", () => {
    failsWith("semver('1.0-alpha', true).major() >= 0", "short version cannot contain PreRelease/Build meta data");
    failsWith("semver('1+build', true).major() >= 0", "short version cannot contain PreRelease/Build meta data");
    holds("!isSemver('1.0-alpha', true) && isSemver('1.0.0-alpha', true)");
  });
  test("empty parts stay empty and fail to parse", () => {
    failsWith("semver('', true).major() >= 0", 'strconv.ParseUint: parsing "": invalid syntax');
    failsWith("semver('v', true).major() >= 0", 'strconv.ParseUint: parsing "": invalid syntax');
    failsWith("semver('1.', true).major() >= 0", 'strconv.ParseUint: parsing "": invalid syntax');
  });
});

describe("comparisons and equality", () => {
  // github.com/blang/semver/v4 semver.go Version.Compare and PRVersion.Compare, which
  // semverlib.go's isGreaterThan, isLessThan and compareTo call.
  test("the semver.org precedence example, each against the next", () => {
    const ordered = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "1.0.1",
      "1.1.0",
      "2.0.0",
      "10.0.0",
    ];
    for (let i = 0; i + 1 < ordered.length; i++) {
      const [a, b] = [`semver('${ordered[i]}')`, `semver('${ordered[i + 1]}')`];
      holds(`${a}.isLessThan(${b}) && !${b}.isLessThan(${a}) && ${b}.isGreaterThan(${a}) && !${a}.isGreaterThan(${b})`);
      holds(`${a}.compareTo(${b}) == -1 && ${b}.compareTo(${a}) == 1 && ${a}.compareTo(${a}) == 0`);
    }
  });
  test("prerelease identifiers: numbers by value and below text; text by ASCII order", () => {
    holds("semver('1.0.0-1').isLessThan(semver('1.0.0-a')) && semver('1.0.0-2').isLessThan(semver('1.0.0-10'))");
    holds("semver('1.0.0-Z').isLessThan(semver('1.0.0-a')) && semver('1.0.0-a-b').isLessThan(semver('1.0.0-a0'))");
    holds("semver('1.0.0-a.1').isGreaterThan(semver('1.0.0-a')) && !semver('1.0.0').isLessThan(semver('1.0.0'))");
    // numbers past 2^53 compare exactly
    holds("semver('9007199254740993.0.0').isGreaterThan(semver('9007199254740992.0.0'))");
    holds("semver('1.0.0-9007199254740993').compareTo(semver('1.0.0-9007199254740992')) == 1");
  });
  test("equality: Version.EQ, so build metadata does not count, a prerelease does", () => {
    // staging/src/k8s.io/apiserver/pkg/cel/semver.go Equal: v.Version.EQ(other), that is Compare(...) == 0
    holds("semver('1.2.3') == semver('1.2.3') && semver('1.2.3') != semver('1.0.0')");
    holds("semver('1.2.3+a') == semver('1.2.3+b') && semver('1.2.3+a').compareTo(semver('1.2.3')) == 0");
    holds("semver('1.2.3-a') != semver('1.2.3') && semver('1.2.3') in [semver('1.0.0'), semver('1.2.3+x')]");
    holds("[semver('1.0.0')] == [semver('1.0.0+b')] && {'a': semver('1.0.0')} == {'a': semver('1.0.0')}");
    holds("semver('1.0.0').isLessThan(semver('1.0.1')) == quantity('1').isLessThan(quantity('2'))");
  });
  test("quantities still compare: one runtime function serves both libraries", () => {
    holds("quantity('1Gi').isGreaterThan(quantity('1G')) && quantity('500m').isLessThan(quantity('1'))");
    holds("quantity('1k').compareTo(quantity('1000')) == 0 && quantity('2').compareTo(quantity('1')) == 1");
  });
  test("type-check errors", () => {
    // semverlib.go declares each function for kubernetes.Semver (pkg/cel/semver.go SemverType) only;
    // the type has no ordering operators and equals only itself.
    expect(compileError("semver('1.0.0').major() == 'x'")).toContain(
      "found no matching overload for '_==_' applied to '(int, string)'",
    );
    expect(compileError("semver('1.0.0') < semver('2.0.0')")).toContain(
      "found no matching overload for '_<_' applied to '(kubernetes.Semver, kubernetes.Semver)'",
    );
    expect(compileError("semver('1.0.0') == quantity('1')")).toContain(
      "found no matching overload for '_==_' applied to '(kubernetes.Semver, kubernetes.Quantity)'",
    );
    expect(compileError("semver('1.0.0').isLessThan(quantity('1'))")).toContain(
      "found no matching overload for 'isLessThan' applied to 'kubernetes.Semver.(kubernetes.Quantity)'",
    );
    expect(compileError("semver(1) == semver('1.0.0')")).toContain(
      "found no matching overload for 'semver' applied to '(int)'",
    );
    expect(compileError("semver('1.0.0', 'yes') == semver('1.0.0')")).toContain(
      "found no matching overload for 'semver' applied to '(string, string)'",
    );
    expect(compileError("isSemver('1.0.0', 1)")).toContain(
      "found no matching overload for 'isSemver' applied to '(string, int)'",
    );
    expect(compileError("quantity('1').major() == 1")).toContain(
      "found no matching overload for 'major' applied to 'kubernetes.Quantity.()'",
    );
  });
});

describe("the library's release", () => {
  test("introduced in 1.33, with the normalizing forms", () => {
    // staging/src/k8s.io/apiserver/pkg/cel/environment/base.go: IntroducedVersion 1.33,
    // library.SemverLib(library.SemverVersion(1)); semverlib.go declares the (string, bool) forms from version 1.
    const arities = (minor: number, name: string) =>
      (functionsOf(minor).byName.get(name) ?? []).map((o) => o.params.length).sort();
    expect(arities(32, "semver")).toEqual([]);
    expect(arities(32, "isSemver")).toEqual([]);
    expect(arities(33, "semver")).toEqual([1, 2]);
    expect(arities(33, "isSemver")).toEqual([1, 2]);
    expect(arities(33, "major")).toEqual([0]);
  });
});

describe("cost, as the API server charges it", () => {
  // staging/src/k8s.io/apiserver/pkg/cel/library/cost.go CallCost: semver and isSemver cost
  // ceil(size of the string × 0.1) (StringTraversalCostFactor); major, minor, patch, isGreaterThan, isLessThan
  // and compareTo 1; `==` of two Semver values 1. A function CallCost does not know costs 1 (cel-go
  // interpreter/runtimecost.go).
  const padded = (n: number) => `1.2.3+${"a".repeat(n - 6)}`;
  test("semver and isSemver: a traversal of the string, with or without normalization", () => {
    const costOf = (rule: string, s: string) => evaluate(rule, { s }).cost;
    for (const rule of [
      "isSemver(self.s)",
      "isSemver(self.s, true)",
      "semver(self.s).major() == 1",
      "semver(self.s, true).major() == 1",
    ]) {
      // only the call's charge grows with the string: ceil(1000 × 0.1) against ceil(10 × 0.1)
      expect(costOf(rule, padded(1000)) - costOf(rule, padded(10)), rule).toBe(100 - 1);
      expect(costOf(rule, padded(1001)) - costOf(rule, padded(1000)), rule).toBe(1);
    }
  });
  test("each call on constants: the parse, the accessor or comparison, the equality", () => {
    // semver('1.2.3'): ceil(5 × 0.1) = 1; major(): 1; `==`: 1
    expect(evaluate("semver('1.2.3').major() == 1", {}).cost).toBe(3);
    // two parses of 22 characters (ceil(2.2) = 3 each), compareTo 1, `==` 1
    expect(evaluate("semver('1.2.3-alpha.1+build.12').compareTo(semver('1.2.3-alpha.1+build.34')) == 0", {}).cost).toBe(
      3 + 3 + 1 + 1,
    );
    // two parses of 5 characters, isLessThan 1; `==` of the two values 1 (cost.go's case for *cel.Semver)
    expect(evaluate("semver('1.0.0').isLessThan(semver('2.0.0'))", {}).cost).toBe(3);
    expect(evaluate("semver('1.0.0') == semver('1.0.0')", {}).cost).toBe(3);
    expect(evaluate("semver('1.0.0').minor() + semver('1.0.0').patch() == 0", {}).cost).toBe(1 + 1 + 1 + 1 + 1 + 1);
  });
});
