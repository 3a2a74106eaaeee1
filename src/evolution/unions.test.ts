import { describe, expect, it } from "vitest";
import type { JsonObject } from "../value/index.js";
import { brief, diff, obj, str, v1 } from "./test-helpers.js";

/** A `spec` with a discriminator `type`, members a, b (and more), and a KEP first-form union over them. */
function unionSpec(
  members: Record<string, string>,
  fields: string[],
  extra: JsonObject = {},
  discriminator: string | null = "type",
) {
  const props: JsonObject = { type: str(), kind: str() };
  for (const f of fields) props[f] = obj({ x: str() });
  const union: JsonObject = { "fields-to-discriminateBy": members };
  if (discriminator) union.discriminator = discriminator;
  return v1(obj(props, { "x-kubernetes-unions": [union], ...extra }));
}

describe("union-changed", () => {
  it("fires when the discriminator is renamed", () => {
    const found = diff(
      unionSpec({ a: "A", b: "B" }, ["a", "b"]),
      unionSpec({ a: "A", b: "B" }, ["a", "b"], {}, "kind"),
    );
    expect(brief(found)).toEqual(["union-changed v1 spec"]);
    expect(found[0]?.detail).toMatch(/^the discriminator `type` of the union of `a`, `b` was renamed to `kind`/);
  });

  it("fires when a member's discriminator value changes", () => {
    const found = diff(unionSpec({ a: "A", b: "B" }, ["a", "b"]), unionSpec({ a: "Alpha", b: "B" }, ["a", "b"]));
    expect(found.map((f) => f.detail.split(";")[0])).toEqual([
      'the discriminator value selecting `a` changed from "A" to "Alpha"',
    ]);
  });

  it("fires when a member leaves the union while its field stays", () => {
    const found = diff(unionSpec({ a: "A", b: "B" }, ["a", "b"]), unionSpec({ a: "A" }, ["a", "b"]));
    expect(brief(found)).toEqual(["union-changed v1 spec"]);
  });

  it("a member whose field is removed is reported once, as field-removed", () => {
    expect(brief(diff(unionSpec({ a: "A", b: "B" }, ["a", "b"]), unionSpec({ a: "A" }, ["a"])))).toEqual([
      "field-removed v1 spec.b",
    ]);
  });

  it("fires when a union is laid over existing fields", () => {
    const plain = v1(obj({ type: str(), a: obj(), b: obj() }));
    const found = diff(plain, unionSpec({ a: "A", b: "B" }, ["a", "b"]));
    expect(found.map((f) => f.rule)).toEqual(["union-changed"]);
    expect(found[0]?.detail).toMatch(/^a union laid over the existing fields `a`, `b`/);
  });
});

describe("union-member-added", () => {
  it("a new field joining the union is a notice, not a break", () => {
    const found = diff(
      unionSpec({ a: "A", b: "B" }, ["a", "b"]),
      unionSpec({ a: "A", b: "B", c: "C" }, ["a", "b", "c"]),
    );
    expect(found.map((f) => `${f.rule} ${f.severity}`)).toEqual(["union-member-added notice"]);
  });

  it("an existing field joining the union is union-changed instead", () => {
    const found = diff(
      unionSpec({ a: "A", b: "B" }, ["a", "b", "c"]),
      unionSpec({ a: "A", b: "B", c: "C" }, ["a", "b", "c"]),
    );
    expect(found.map((f) => f.rule)).toEqual(["union-changed"]);
  });

  it("a member added through CEL rules (Gateway API style) is a notice with its enum value, not a new validation", () => {
    const filter = (members: string[]) => {
      const props: JsonObject = { type: str({ enum: members.map((m) => m.toUpperCase()) }) };
      for (const m of members) props[m] = obj({ x: str() });
      const rules = members.flatMap((m) => [
        { rule: `!(has(self.${m}) && self.type != '${m.toUpperCase()}')` },
        { rule: `!(!has(self.${m}) && self.type == '${m.toUpperCase()}')` },
      ]);
      return v1(obj({ filter: obj(props, { required: ["type"], "x-kubernetes-validations": rules }) }));
    };
    const found = diff(filter(["a", "b"]), filter(["a", "b", "c"]));
    expect(found.map((f) => `${f.rule} ${f.field}`)).toEqual([
      "union-member-added v1 spec.filter",
      "enum-extended v1 spec.filter.type",
    ]);
  });
});

describe("union-without-discriminator", () => {
  it("warns for a new union without a discriminator", () => {
    const before = v1(obj({ type: str(), kind: str() }));
    const found = diff(before, unionSpec({ a: "A", b: "B" }, ["a", "b"], {}, null));
    expect(found.map((f) => `${f.rule} ${f.severity} ${f.field}`)).toEqual([
      "union-without-discriminator warning v1 spec",
    ]);
  });

  it("is quiet for a new union with a discriminator, and for a union the old revision had", () => {
    const before = v1(obj({ type: str(), kind: str() }));
    expect(diff(before, unionSpec({ a: "A", b: "B" }, ["a", "b"]))).toEqual([]);
    const old = unionSpec({ a: "A", b: "B" }, ["a", "b"], {}, null);
    expect(diff(old, old)).toEqual([]);
  });

  it("finds new unions inside new fields too", () => {
    const spec = obj(
      { type: str(), a: obj({ x: str() }), b: obj({ x: str() }) },
      {
        "x-kubernetes-validations": [{ rule: "(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1" }],
      },
    );
    const found = diff(v1(obj()), v1(obj({ source: spec })));
    expect(brief(found)).toEqual(["union-without-discriminator v1 spec.source"]);
  });
});
