import { describe, expect, test } from "vitest";
import type { JsonObject, JsonValue } from "../../value/index.js";
import { compileRules, evaluateRules } from "../index.js";
import { besidesEstimatedCost } from "./testing.js";

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    s: { type: "string" },
    t: { type: "string" },
    i: { type: "integer" },
    n: { type: "number" },
    l: { type: "array", items: { type: "string" } },
    il: { type: "array", items: { type: "integer" } },
    nl: { type: "array", items: { type: "number" } },
    m: { type: "object", additionalProperties: { type: "string" } },
  },
};

/** true/false for a rule that held/failed, the runtime error detail otherwise; throws on compile errors. */
function run(rule: string, self: JsonValue, schema: JsonObject = SCHEMA): boolean | string {
  const { rules, findings: all } = compileRules({ ...schema, "x-kubernetes-validations": [{ rule }] }, ["schema"]);
  const findings = besidesEstimatedCost(all);
  if (findings.length > 0 || rules === undefined) throw new Error(findings.map((f) => f.message).join("\n"));
  const out = evaluateRules(rules, self, undefined, ["spec"], { remaining: 10_000_000 });
  if (out.length === 0) return true;
  const detail = out[0]?.detail ?? "";
  return detail === `failed rule: ${rule}` ? false : detail;
}

const holds = (rule: string, self: JsonValue = {}) => expect(run(rule, self)).toBe(true);
const fails = (rule: string, self: JsonValue = {}) => expect(run(rule, self)).toBe(false);
const errors = (rule: string, self: JsonValue, text: string) => expect(run(rule, self)).toContain(text);

describe("standard library and macros (as the corpus uses them)", () => {
  test("has, all, exists, exists_one, filter, map, in, size, ternaries", () => {
    const self = { s: "a", l: ["x", "y", "y"], il: [3, 1, 2] };
    holds("has(self.s) && !has(self.t)", self);
    holds("self.l.all(e, e.size() == 1)", self);
    holds("self.l.exists(e, e == 'y')", self);
    fails("self.l.exists_one(e, e == 'y')", self);
    holds("self.l.exists_one(e, e == 'x')", self);
    holds("self.l.filter(e, e == 'y').size() == 2", self);
    holds("self.il.map(e, e * 2) == [6, 2, 4]", self);
    holds("self.il.map(e, e > 1, e) == [3, 2]", self);
    holds("'x' in self.l && !('z' in self.l)", self);
    holds("size(self.l) == 3 && self.l.size() == 3", self);
    holds("(has(self.s) ? 1 : 0) + (has(self.t) ? 1 : 0) == 1", self);
    holds("[has(self.s), has(self.t)].filter(x, x).size() <= 1", self);
    holds("(self.il.size() > 0 ? self.il[0] : 0) == 3", self);
  });
  test("string functions (standard and strings extension)", () => {
    const self = { s: "Hello.World", t: "a/b/c" };
    holds("self.s.startsWith('He') && self.s.endsWith('ld') && self.s.contains('o.W')", self);
    holds("self.s.lowerAscii() == 'hello.world' && self.s.upperAscii() == 'HELLO.WORLD'", self);
    holds("self.t.split('/') == ['a', 'b', 'c'] && self.t.split('/')[0].size() < 253", self);
    // split answers kunion's own list (values.ts ArrayValue): a list to every function, like a literal
    holds("type(self.t.split('/')) == list && self.t.split('/', 2) == ['a', 'b/c'] && 'b' in self.t.split('/')", self);
    holds("self.t.split('/') + ['d'] == ['a', 'b', 'c', 'd'] && self.t.split('/').join('-') == 'a-b-c'", self);
    holds("self.t.split('/').map(x, x + x) == ['aa', 'bb', 'cc'] && self.t.split('/').size() == 3", self);
    holds("[self.t.split('/'), ['a', 'b', 'c']].all(l, l == self.t.split('/')) && self.t.split('/') != ['a']", self);
    holds("self.s.substring(6) == 'World' && self.s.substring(0, 5) == 'Hello'", self);
    holds("self.s.indexOf('o') == 4 && self.s.lastIndexOf('o') == 7 && self.s.charAt(1) == 'e'", self);
    holds("self.s.replace('o', '0') == 'Hell0.W0rld' && '  x '.trim() == 'x'", self);
    holds("['a', 'b'].join('-') == 'a-b' && 'abc'.reverse() == 'cba'", self);
    holds("self.s.matches('^[A-Z][a-z]+\\\\.[A-Z]')", self);
    holds("!self.s.matches('^[0-9]')", self);
  });
  test("RE2 matching is not backtracking", () => {
    const long = `${"a".repeat(30000)}b`;
    const start = performance.now();
    fails("self.s.matches('^(a+)+$')", { s: long });
    expect(performance.now() - start).toBeLessThan(2000);
  });
  test("durations and timestamps", () => {
    holds("!(duration(self.s) < duration('1s') || duration(self.s) > duration('1h'))", { s: "30m" });
    fails("!(duration(self.s) < duration('1s') || duration(self.s) > duration('1h'))", { s: "2h" });
    holds("duration('1h30m') == duration('90m') && duration('1.5s').getMilliseconds() == 500", {});
    holds("timestamp('2024-01-01T00:00:00Z') + duration('24h') == timestamp('2024-01-02T00:00:00Z')", {});
    holds(
      "timestamp('2024-03-01T10:20:30Z').getFullYear() == 2024 && timestamp('2024-03-01T10:20:30Z').getHours() == 10",
      {},
    );
    errors("duration(self.s) > duration('1s')", { s: "nonsense" }, "evaluating rule");
  });
});

describe("Kubernetes lists library", () => {
  test("isSorted, sum, min, max, indexOf, lastIndexOf", () => {
    const self = { il: [1, 2, 2, 5], l: ["b", "a", "b"], nl: [1.5, 2.5] };
    holds("self.il.isSorted() && !self.l.isSorted()", self);
    holds(
      "self.il.sum() == 10 && self.nl.sum() == 4.0 && [duration('1s'), duration('2s')].sum() == duration('3s')",
      self,
    );
    holds("self.il.min() == 1 && self.il.max() == 5 && self.l.min() == 'a' && self.l.max() == 'b'", self);
    holds("self.l.indexOf('b') == 0 && self.l.lastIndexOf('b') == 2 && self.l.indexOf('z') == -1", self);
    errors("self.il.min() == 0", { il: [] }, "min called on empty list");
  });
  test("sets extension", () => {
    holds("sets.contains([1, 2, 3], [3, 1]) && !sets.contains([1], [2])", {});
    holds("sets.equivalent([1, 2, 2], [2, 1]) && sets.intersects([1, 2], [2, 3])", {});
  });
});

describe("Kubernetes regex library", () => {
  test("find and findAll use leftmost-first RE2 semantics", () => {
    const self = { s: "abc 123 def 4567" };
    holds("self.s.find('[0-9]+') == '123'", self);
    holds("self.s.find('x') == ''", self);
    holds("self.s.findAll('[0-9]+') == ['123', '4567']", self);
    holds("self.s.findAll('[0-9]+', 1) == ['123']", self);
    holds("'aaa'.find('a+?') == 'a' && 'abab'.find('(a|ab)(b?)') == 'ab'", self);
    holds("'a,b,,c'.findAll('[^,]*') == ['a', 'b', '', 'c']", self);
    errors("self.s.find('(') == ''", self, "error parsing regexp");
  });
});

describe("Kubernetes URL library", () => {
  test("url, isURL and getters", () => {
    const self = { s: "https://user@example.com:8443/a%20b/c?x=1&x=2&y=z#frag" };
    holds("isURL(self.s) && !isURL('not a url') && !isURL('example.com/x')", self);
    holds("url(self.s).getScheme() == 'https'", self);
    holds("url(self.s).getHost() == 'example.com:8443'", self);
    holds("url(self.s).getHostname() == 'example.com' && url(self.s).getPort() == '8443'", self);
    holds("url(self.s).getEscapedPath() == '/a%20b/c'", self);
    holds("url(self.s).getQuery() == {'x': ['1', '2'], 'y': ['z']}", self);
    holds("url('https://[::1]:80/').getHostname() == '::1' && url('http://example.com').getPort() == ''", self);
    errors("url('::') == url('::')", self, "URL parse error");
  });
});

describe("Kubernetes quantity library", () => {
  test("parsing, comparison and arithmetic", () => {
    holds(
      "isQuantity('1.5Gi') && isQuantity('100m') && isQuantity('1e3') && !isQuantity('1.5GG') && !isQuantity('')",
      {},
    );
    holds("quantity('1Gi').isGreaterThan(quantity('1G')) && quantity('500m').isLessThan(quantity('1'))", {});
    holds("quantity('1k').compareTo(quantity('1000')) == 0 && quantity('1k') == quantity('1000')", {});
    holds("quantity('1Ki').asInteger() == 1024 && quantity('1k').isInteger() && !quantity('1500m').isInteger()", {});
    holds(
      "quantity('1.5').asApproximateFloat() == 1.5 && quantity('-2').sign() == -1 && quantity('0').sign() == 0",
      {},
    );
    holds("quantity('1').add(quantity('500m')) == quantity('1500m') && quantity('2').sub(1) == quantity('1')", {});
    holds("quantity('1Mi').add(1).asInteger() == 1048577", {});
    errors("quantity('1.5m').asInteger() == 0", {}, "cannot convert value to integer");
    errors("quantity('abc').sign() == 0", {}, "quantities must match the regular expression");
  });
});

describe("Kubernetes IP and CIDR libraries", () => {
  test("ip", () => {
    holds(
      "isIP('10.0.0.1') && isIP('2001:db8::1') && !isIP('010.0.0.1') && !isIP('fe80::1%eth0') && !isIP('::ffff:1.2.3.4')",
      {},
    );
    holds("ip('10.0.0.1').family() == 4 && ip('::1').family() == 6", {});
    holds(
      "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1') && !ip.isCanonical('2001:db8:0:0:0:0:0:1')",
      {},
    );
    holds("ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && !ip('10.0.0.1').isLoopback()", {});
    holds("ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()", {});
    holds("ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()", {});
    holds("ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()", {});
    holds(
      "ip('8.8.8.8').isGlobalUnicast() && ip('10.0.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()",
      {},
    );
    holds("string(ip('2001:0db8:0000::0001')) == '2001:db8::1' && ip('10.0.0.1') == ip('10.0.0.1')", {});
    fails("self.l.all(h, !isIP(h))", { l: ["example.com", "1.2.3.4"] });
  });
  test("cidr", () => {
    holds("isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0') && !isCIDR('10.0.0.0/08')", {});
    holds("cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')) && cidr('10.0.0.0/8').containsIP('10.1.2.3')", {});
    holds("!cidr('10.0.0.0/8').containsIP('11.0.0.1') && !cidr('10.0.0.0/8').containsIP('::1')", {});
    holds("cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')", {});
    holds("cidr('10.1.2.3/8').prefixLength() == 8 && cidr('10.1.2.3/8').ip() == ip('10.1.2.3')", {});
    holds(
      "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8') && string(cidr('2001:db8::1/32').masked()) == '2001:db8::/32'",
      {},
    );
  });
});

describe("Kubernetes format library", () => {
  test("named formats and validate()", () => {
    holds("!format.dns1123Label().validate('my-name').hasValue()", {});
    holds("format.dns1123Label().validate('My_Name').hasValue()", {});
    holds("format.dns1123Label().validate('My_Name').value().size() == 1", {});
    holds("format.named('dns1123Subdomain').hasValue() && !format.named('nope').hasValue()", {});
    holds("!format.named('dns1123Subdomain').value().validate('a.b.c').hasValue()", {});
    holds(
      "!format.labelValue().validate('').hasValue() && !format.qualifiedName().validate('example.com/Name').hasValue()",
      {},
    );
    holds(
      "format.dns1035Label().validate('1abc').hasValue() && !format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
      {},
    );
    holds("!format.dns1123LabelPrefix().validate('my-prefix-').hasValue()", {});
    holds("format.dns1123Label().validate('x').value()[0].size() > 0 || true", {});
  });
  test("the gateway XBackend rule compares an optional with null, which is never equal", () => {
    const rule = "size(self) == 0 || format.dns1123Label().validate(self) == null";
    const schema = { type: "string", maxLength: 63 };
    expect(run(rule, "", schema)).toBe(true);
    expect(run(rule, "http", schema)).toBe(false);
  });
});

describe("optional types", () => {
  test("?., [?], optional.of/none, orValue, hasValue, value, or", () => {
    holds("self.?s.orValue('d') == 'x' && self.?t.orValue('d') == 'd'", { s: "x" });
    holds("!self.?t.hasValue() && self.?s.hasValue() && self.?s.value() == 'x'", { s: "x" });
    holds("self.m[?'k'].orValue('') == 'v' && !self.m[?'z'].hasValue()", { m: { k: "v" } });
    holds("self.l[?5].orValue('none') == 'none' && self.l[?0] == optional.of('a')", { l: ["a"] });
    holds("optional.none().or(optional.of(1)).value() == 1 && optional.ofNonZeroValue('') == optional.none()", {});
    errors("optional.none().value() == 1", {}, "optional.none() dereference");
  });
  // cel-go cel/library.go, the optional library's version 2: base.go enables OptionalTypes() unversioned, so
  // every release kunion knows has them
  test("a list's first and last: an optional of the item, none for an empty list", () => {
    holds("[1, 2, 3].first() == optional.of(1) && [1, 2, 3].last().value() == 3", {});
    holds("!self.l.first().hasValue() && self.l.last().orValue('z') == 'z' && [].first() == optional.none()", {
      l: [],
    });
    holds("self.l.first().value() == 'a' && self.l.last() == optional.of('c')", { l: ["a", "b", "c"] });
    expect(() => run("self.l.first().value() == 1", {})).toThrow("applied to '(string, int)'");
    const oldest = compileRules(
      { ...SCHEMA, "x-kubernetes-validations": [{ rule: "self.l.first().hasValue()" }] },
      ["s"],
      {
        libraries: 31,
      },
    );
    expect(oldest.findings).toEqual([]);
  });
  // cel-go interpreter/attributes.go applyQualifiers: past an optional qualifier every later one is optional
  // too; checker.go checkSelectField unwraps the optional and keeps the result optional
  test("a field selected past ?. is optional: absent anywhere, the chain is none", () => {
    const object = (properties: JsonObject): JsonObject => ({ type: "object", properties });
    const schema = object({
      spec: object({ replicas: { type: "integer" } }),
      a: object({ b: object({ c: { type: "string" } }) }),
      m: { type: "object", additionalProperties: object({ b: { type: "integer" } }) },
    });
    const chain = (rule: string, self: JsonValue) => expect(run(rule, self, schema)).toBe(true);
    chain("self.?spec.replicas.orValue(1) == 3", { spec: { replicas: 3 } });
    chain("self.?spec.replicas.orValue(1) == 1", { spec: {} });
    chain("self.?spec.replicas.orValue(1) == 1", {});
    chain("self.?a.b.c.orValue('none') == 'none' && !self.?a.b.hasValue()", { a: {} });
    chain("self.m[?'k'].b.orValue(0) == 2", { m: { k: { b: 2 } } });
    // the schema still types the chain: a misspelt field is refused
    expect(() => run("self.?spec.replica.orValue(1) == 1", {}, schema)).toThrow("undefined field 'replica'");
  });
});
