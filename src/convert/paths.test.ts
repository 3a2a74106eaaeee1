import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clone, getKey, isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { copyForWriting, deleteAt, getAt, setAt, writeTrie } from "./paths.js";
import { ConvertError, type DataPath } from "./types.js";

// Few names, so that generated paths often meet generated fields; __proto__ is ordinary data.
const names = ["a", "b", "c", "__proto__"] as const;
const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null));
const { tree } = fc.letrec<{ tree: JsonValue }>((t) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(t("tree"), { maxLength: 3 }),
    fc.array(fc.tuple(fc.constantFrom(...names), t("tree")), { maxLength: 4 }).map((entries) => {
      const o: JsonObject = {};
      for (const [k, v] of entries) setKey(o, k, v);
      return o;
    }),
  ),
}));
const object = tree.map((v) => {
  const o: JsonObject = {};
  setKey(o, "a", v);
  return o;
});
const path = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 4 });

/** Every write a rule may make at `p` (see RuleContext.path): set, delete, and edits inside the value there. */
function writeEverywhere(work: JsonObject, p: DataPath): void {
  const v = getAt(work, p);
  if (Array.isArray(v)) v.push("x");
  else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      const inner = getKey(v, k);
      if (isObject(inner)) setKey(inner, "edited", true);
      if (Array.isArray(inner)) inner.push("edited");
    }
    setKey(v, "edited", true);
  }
  try {
    setAt(work, p, "set");
    deleteAt(work, p);
    setAt(work, p, { fresh: true });
  } catch (e) {
    // a scalar or a list in the way: the helpers refuse, as a conversion error
    if (!(e instanceof ConvertError)) throw e;
  }
}

describe("copyForWriting over a trie of written paths", () => {
  it("property: writes at any of the paths, and inside the values there, never reach the input", () => {
    fc.assert(
      fc.property(object, fc.array(path, { maxLength: 4 }), (generated, paths) => {
        // fast-check shrinks from the values it generated: a copy that fails to copy must not scribble on them
        const input = clone(generated);
        const before = clone(generated);
        const work = copyForWriting(input, writeTrie(paths));
        expect(work).toEqual(before);
        for (const p of paths) writeEverywhere(work, p);
        expect(input).toEqual(before);
      }),
      { numRuns: 500 },
    );
  });

  it("property: what no path leads to is shared with the input, not copied", () => {
    fc.assert(
      fc.property(object, fc.array(path, { maxLength: 4 }), (input, paths) => {
        const work = copyForWriting(input, writeTrie(paths));
        const firsts = new Set<string | undefined>(paths.map((p) => p[0]));
        for (const k of Object.keys(input)) if (!firsts.has(k)) expect(getKey(work, k)).toBe(getKey(input, k));
        expect(work).not.toBe(input);
      }),
      { numRuns: 300 },
    );
  });

  it("a copied object keeps a __proto__ key as a field of its own, not as its prototype", () => {
    const input = JSON.parse('{"spec": {"__proto__": {"polluted": true}, "a": 1}}') as JsonObject;
    const work = copyForWriting(input, writeTrie([["spec", "a"]]));
    const spec = work.spec as JsonObject;
    expect(spec).not.toBe(input.spec);
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(spec, "__proto__")?.value).toEqual({ polluted: true });
    expect((spec as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("a path below another is covered by the shorter one's whole copy, whichever comes first", () => {
    const input: JsonObject = { a: { b: { c: { d: 1 } }, e: { f: 2 } } };
    for (const paths of [
      [["a", "b", "c"], ["a"]],
      [["a"], ["a", "b", "c"]],
    ]) {
      const work = copyForWriting(input, writeTrie(paths));
      expect(work.a).not.toBe(input.a);
      expect((work.a as JsonObject).e).not.toBe((input.a as JsonObject).e);
    }
  });
});

describe("deleteAt", () => {
  it("removes the field and keeps the order of the others", () => {
    const o: JsonObject = { spec: { a: 1, b: 2, c: 3 } };
    deleteAt(o, ["spec", "b"]);
    expect(Object.keys(o.spec as JsonObject)).toEqual(["a", "c"]);
    deleteAt(o, ["spec"]);
    expect(o).toEqual({});
  });
  it("leaves the object alone when the field or the way to it is missing", () => {
    const o: JsonObject = { spec: { a: [1] } };
    const inner = o.spec;
    deleteAt(o, ["spec", "x"]);
    deleteAt(o, ["spec", "a", "0"]);
    deleteAt(o, ["status", "x"]);
    expect(o.spec).toBe(inner);
    expect(o).toEqual({ spec: { a: [1] } });
  });
});
