import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clone, getKey, type JsonObject, type JsonValue, setKey } from "./index.js";

// few names, so that generated objects often repeat keys; __proto__ is ordinary data
const key = fc.constantFrom("a", "b", "__proto__", "constructor");
const { tree } = fc.letrec<{ tree: JsonValue }>((t) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null)),
    fc.array(t("tree"), { maxLength: 3 }),
    fc.array(fc.tuple(key, t("tree")), { maxLength: 4 }).map((entries) => {
      const o: JsonObject = {};
      for (const [k, v] of entries) setKey(o, k, v);
      return o;
    }),
  ),
}));

/** Every object and array of `v`. */
function containers(v: JsonValue, out: object[] = []): object[] {
  if (typeof v !== "object" || v === null) return out;
  out.push(v);
  for (const x of Array.isArray(v) ? v : Object.values(v)) containers(x, out);
  return out;
}

describe("clone", () => {
  it("property: an equal value that shares no object or array with the original, own __proto__ keys kept", () => {
    fc.assert(
      fc.property(tree, (v) => {
        const copy = clone(v);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
        expect(copy).toEqual(v);
        const originals = new Set(containers(v));
        for (const c of containers(copy)) {
          expect(originals.has(c)).toBe(false);
          if (!Array.isArray(c)) expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("getKey", () => {
  // every name Object.prototype answers (toString, constructor, __proto__, hasOwnProperty…), and plain ones
  const names = fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype), "a", "b");
  it("property: an own key's value, never one inherited from Object.prototype, with or without a prototype", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(names, tree), { maxLength: 5 }), names, fc.boolean(), (entries, asked, bare) => {
        const o: JsonObject = bare ? Object.create(null) : {};
        for (const [k, v] of entries) setKey(o, k, v);
        expect(getKey(o, asked)).toBe(Object.hasOwn(o, asked) ? o[asked] : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
