/**
 * The lazy JSON wrappers keep each child they convert to an object: read
 * again, it is the same value (so `==` of it with itself charges no work),
 * whichever of the wrapper's children it is and in whatever order they are read.
 */
import { describe, expect, test } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { schemaType } from "./types.js";
import { dynValue, type MapView, ObjectValue } from "./values.js";

const doc: JsonObject = { a: { x: 1 }, b: [1, 2], c: { y: "s" }, d: "text", e: { z: true } };

/** Each key read twice, in the order given: the second read answers the first's value, and no two keys share one. */
function expectKept(m: { get(k: string): unknown }, keys: readonly string[]): void {
  const first = keys.map((k) => m.get(k));
  for (const [i, k] of keys.entries()) expect(m.get(k)).toBe(first[i]);
  expect(new Set(first).size).toBe(keys.length);
}

describe("a converted child is the same value on every read", () => {
  test("of a map over dyn JSON", () => {
    expectKept(dynValue(doc) as unknown as MapView, ["c", "a", "b", "e"]);
    expectKept(dynValue(doc) as unknown as MapView, ["e", "b"]);
    const m = dynValue(doc) as unknown as MapView;
    expect(m.get("d")).toBe("text");
    expect(m.get("missing")).toBeUndefined();
  });

  test("of an object typed by its schema", () => {
    const t = schemaType({
      type: "object",
      properties: { a: { type: "object" }, b: { type: "array" }, c: { type: "object" }, e: { type: "object" } },
    });
    if (t?.k !== "object") throw new Error("not an object type");
    expectKept(new ObjectValue(doc, t), ["e", "a", "b", "c"]);
  });
});
