import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepEqual, type JsonObject, type JsonValue, normalize, validateUnions } from "../../src/index.js";
import { planFor } from "../../src/unions/plan.js";
import { walkUnions } from "../../src/unions/walk.js";
import { schema } from "./fixtures.js";

// Objects shaped by the fixture schema, with every union field present, absent or null at random.
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, fc.constant(null)), { nil: undefined });
const unionFields = fc.record(
  {
    type: maybe(fc.constantFrom("A", "B", "C", "None", "Zzz", "")),
    a: maybe(fc.record({ v: fc.integer() })),
    b: maybe(fc.constant({})),
    c: maybe(fc.array(fc.constantFrom("p", "q"), { maxLength: 2 })),
    x: maybe(fc.constantFrom("", "1")),
    y: maybe(fc.constant({})),
    z: maybe(fc.dictionary(fc.constantFrom("k", "__proto__"), fc.constant("v"), { maxKeys: 1 })),
    other: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }),
  },
  { requiredKeys: [] },
);
const item = fc.tuple(fc.constantFrom("p", "q", "r"), unionFields, fc.array(unionFields, { maxLength: 2 }));
const objectArb = fc
  .record(
    {
      strategy: unionFields,
      items: fc.uniqueArray(item, { selector: ([name]) => name, maxLength: 3 }),
      byKey: fc.dictionary(fc.constantFrom("k1", "k2"), unionFields, { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  )
  .map((spec) => {
    const clean = JSON.parse(
      JSON.stringify({
        ...spec,
        items: spec.items?.map(([name, fields, inner]) => ({ name, ...fields, inner })),
      }),
    );
    return { spec: clean } as JsonValue;
  });
const pair = fc.tuple(fc.option(objectArb, { nil: undefined }), objectArb);
const runs = { numRuns: 400 };

/** The object with every union member and discriminator removed, for comparing what else changed. */
function withoutUnionFields(value: JsonValue): JsonValue {
  const copy = JSON.parse(JSON.stringify(value)) as JsonValue;
  const plan = planFor(schema);
  if (!plan) throw new Error("fixture schema has unions");
  walkUnions(plan, copy, undefined, (node: JsonObject, _c, p) => {
    for (const u of p.unions) {
      for (const m of u.members) delete node[m.field];
      if (u.discriminator) delete node[u.discriminator];
    }
    return undefined;
  });
  return copy;
}

describe.each(["kep", "smd"] as const)("normalization invariants, policy %s", (policy) => {
  it("is idempotent: normalize(old, normalize(old, x)) = normalize(old, x)", () => {
    fc.assert(
      fc.property(pair, ([oldObject, object]) => {
        const once = normalize({ object, oldObject, schema }, { policy });
        if (once.errors.length > 0) return; // smd refuses; nothing was produced
        const twice = normalize({ object: once.object, oldObject, schema }, { policy });
        expect(twice.object).toEqual(once.object);
        expect(twice.changes).toEqual([]);
      }),
      runs,
    );
  });

  it("touches only union members and discriminators, and never its inputs", () => {
    fc.assert(
      fc.property(pair, ([oldObject, object]) => {
        const before = JSON.stringify([oldObject, object]);
        const result = normalize({ object, oldObject, schema }, { policy });
        expect(JSON.stringify([oldObject, object])).toBe(before);
        expect(deepEqual(withoutUnionFields(result.object), withoutUnionFields(object))).toBe(true);
      }),
      runs,
    );
  });

  it("is deterministic, changes included", () => {
    fc.assert(
      fc.property(pair, ([oldObject, object]) => {
        const a = normalize({ object, oldObject, schema }, { policy });
        const b = normalize({ object: JSON.parse(JSON.stringify(object)), oldObject, schema }, { policy });
        expect(b).toEqual(a);
      }),
      runs,
    );
  });
});

describe("normalization invariants, policy kep", () => {
  it("normalize(x, x) changes nothing in a valid object", () => {
    fc.assert(
      fc.property(objectArb, (object) => {
        fc.pre(validateUnions({ object, schema }, { ratcheting: false }).length === 0);
        const result = normalize({ object, oldObject: object, schema });
        expect(result.changes).toEqual([]);
        expect(result.object).toEqual(object);
      }),
      { numRuns: 300 },
    );
  });

  it("every change is recorded: replaying the changes on the input gives the output", () => {
    fc.assert(
      fc.property(pair, ([oldObject, object]) => {
        const result = normalize({ object, oldObject, schema });
        const replay = JSON.parse(JSON.stringify(object));
        for (const c of result.changes) {
          const parts = c.pointer
            .split("/")
            .slice(1)
            .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
          const last = parts.pop() as string;
          const parent = parts.reduce((node, key) => node[key], replay);
          if (c.op === "clear") delete parent[last];
          else
            Object.defineProperty(parent, last, {
              value: c.value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
        }
        expect(replay).toEqual(result.object);
      }),
      runs,
    );
  });
});
