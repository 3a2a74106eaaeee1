import { describe, expect, it } from "vitest";
import { type JsonValue, normalize } from "../../src/index.js";
import { schema } from "./fixtures.js";

const wrap = (strategy: JsonValue | undefined) => (strategy === undefined ? undefined : { spec: { strategy } });

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null) {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}

type Case = {
  name: string;
  old?: JsonValue;
  new: JsonValue;
  out: JsonValue;
  changes?: string[];
  note?: RegExp;
};

// One row per branch of unions.md §3, policy kep, update mode, at spec.strategy.
const cases: Case[] = [
  { name: "create: discriminator and its member", new: { type: "A", a: {} }, out: { type: "A", a: {} }, changes: [] },
  {
    name: "create: discriminator with two members is left alone",
    new: { type: "A", a: {}, b: {} },
    out: { type: "A", a: {}, b: {} },
    note: /`type` is "A" while several members are set \(a, b\)/,
  },
  {
    name: "create: an empty value with a member set is a conflict, left alone",
    new: { type: "None", a: {} },
    out: { type: "None", a: {} },
    note: /`type` is "None" but `a` is selected by "A"/,
  },
  {
    name: "create: one member without discriminator gets the discriminator",
    new: { a: { v: 1 } },
    out: { a: { v: 1 }, type: "A" },
    changes: ["set spec.strategy.type=A"],
  },
  {
    name: "update: discriminator changed with the new member: the old member is cleared",
    old: { type: "A", a: {} },
    new: { type: "B", a: {}, b: {} },
    out: { type: "B", b: {} },
    changes: ["clear spec.strategy.a"],
  },
  {
    name: "update: discriminator changed to an empty value clears every member",
    old: { type: "A", a: {}, c: ["q"] },
    new: { type: "None", a: {}, c: ["q"] },
    out: { type: "None" },
    changes: ["clear spec.strategy.a", "clear spec.strategy.c"],
  },
  {
    name: "update: an unknown discriminator value clears every member (validation reports the value)",
    old: { type: "A", a: {} },
    new: { type: "Zzz", a: {} },
    out: { type: "Zzz" },
    changes: ["clear spec.strategy.a"],
  },
  {
    name: "update: empty and null members are cleared too",
    old: { type: "A", a: {} },
    new: { type: "B", a: null, b: {}, c: [] },
    out: { type: "B", b: {} },
    changes: ["clear spec.strategy.a", "clear spec.strategy.c"],
  },
  {
    name: "update: discriminator changed while two members were added is left alone",
    old: { type: "A", a: {} },
    new: { type: "B", a: {}, b: {}, c: ["q"] },
    out: { type: "B", a: {}, b: {}, c: ["q"] },
    note: /several members were added \(b, c\)/,
  },
  {
    name: "update: discriminator changed but the added member is another one: left alone",
    old: { type: "A", a: {} },
    new: { type: "B", a: {}, c: ["q"] },
    out: { type: "B", a: {}, c: ["q"] },
    note: /added member `c` is selected by "C"/,
  },
  {
    name: "update: discriminator removed, one member: the discriminator is written back",
    old: { type: "A", a: {} },
    new: { b: {} },
    out: { b: {}, type: "B" },
    changes: ["set spec.strategy.type=B"],
  },
  {
    name: "update: restore the selected member a client did not know about",
    old: { type: "A", a: { v: 7 } },
    new: { type: "A" },
    out: { type: "A", a: { v: 7 } },
    changes: ["restore spec.strategy.a"],
  },
  {
    name: "update: no restore when the old object did not have the member either",
    old: { type: "A" },
    new: { type: "A" },
    out: { type: "A" },
    changes: [],
  },
  {
    name: "update: two members with an unchanged discriminator are left for validation",
    old: { type: "A", a: {} },
    new: { type: "A", a: {}, b: {} },
    out: { type: "A", a: {}, b: {} },
    note: /did not change: left for validation/,
  },
  {
    name: "update, no discriminator: the added member wins",
    old: { x: "1" },
    new: { x: "1", y: {} },
    out: { y: {} },
    changes: ["clear spec.strategy.x"],
  },
  {
    name: "update, no discriminator: two added members are left alone",
    old: { x: "1" },
    new: { x: "1", y: {}, z: { k: "v" } },
    out: { x: "1", y: {}, z: { k: "v" } },
    note: /several members were added at once \(y, z\)/,
  },
  {
    name: "update, no discriminator: an empty map member is not an added member",
    old: { x: "1" },
    new: { x: "1", z: {} },
    out: { x: "1", z: {} },
    changes: [],
  },
  {
    name: "create, no discriminator: two members are left for validation",
    new: { x: "1", y: {} },
    out: { x: "1", y: {} },
    changes: [],
  },
  {
    name: "other fields are never touched",
    old: { type: "A", a: {}, other: "keep" },
    new: { type: "B", a: {}, b: {}, other: "keep" },
    out: { type: "B", b: {}, other: "keep" },
  },
];

describe("policy kep, update mode", () => {
  it.each(cases)("$name", (c) => {
    const object = deepFreeze(wrap(c.new) as JsonValue);
    const oldObject = deepFreeze(wrap(c.old));
    const result = normalize({ object, oldObject, schema });
    expect(result.object).toEqual(wrap(c.out));
    if (c.changes) {
      expect(result.changes.map((ch) => `${ch.op} ${ch.path}${ch.op === "set" ? `=${ch.value}` : ""}`)).toEqual(
        c.changes,
      );
    }
    if (c.note) expect(result.notes.map((n) => n.message).join("\n")).toMatch(c.note);
    else expect(result.notes).toEqual([]);
    expect(result.errors).toEqual([]);
  });

  it("reports changes with a JSON Pointer and the restored value", () => {
    const result = normalize({
      object: wrap({ type: "A" }) as JsonValue,
      oldObject: wrap({ type: "A", a: { v: 7 } }),
      schema,
    });
    expect(result.changes).toEqual([
      { op: "restore", path: "spec.strategy.a", pointer: "/spec/strategy/a", value: { v: 7 } },
    ]);
  });

  it("matches list items by their map keys, not their index", () => {
    const oldObject: JsonValue = {
      spec: {
        items: [
          { name: "p", type: "A", a: {} },
          { name: "q", x: "1" },
        ],
      },
    };
    const object: JsonValue = {
      spec: {
        items: [
          { name: "q", x: "1", y: {} },
          { name: "p", type: "B", a: {}, b: {} },
        ],
      },
    };
    const result = normalize({ object, oldObject, schema });
    expect(result.object).toEqual({
      spec: {
        items: [
          { name: "q", y: {} },
          { name: "p", type: "B", b: {} },
        ],
      },
    });
    expect(result.changes.map((c) => c.path)).toEqual(["spec.items[0].x", "spec.items[1].a"]);
  });

  it("treats a new list item as created and matches lists without keys by index", () => {
    const oldObject: JsonValue = { spec: { items: [{ name: "p", inner: [{ type: "A", a: {} }] }] } };
    const object: JsonValue = {
      spec: {
        items: [
          {
            name: "p",
            inner: [
              { type: "B", a: {}, b: {} },
              { type: "B", a: {}, b: {} },
            ],
          },
          { name: "new", type: "B", a: {}, b: {} },
        ],
      },
    };
    const result = normalize({ object, oldObject, schema });
    expect(result.changes.map((c) => c.path)).toEqual(["spec.items[0].inner[0].a"]);
    expect(result.notes.map((n) => n.path)).toEqual(["spec.items[0].inner[1]", "spec.items[1]"]);
  });

  it("matches map entries by key, including hostile keys", () => {
    const oldObject = JSON.parse('{"spec":{"byKey":{"__proto__":{"type":"A","a":{}}}}}');
    const object = JSON.parse('{"spec":{"byKey":{"__proto__":{"type":"B","a":{},"b":{}}}}}');
    const result = normalize({ object, oldObject, schema });
    expect(result.changes.map((c) => c.path)).toEqual(["spec.byKey[__proto__].a"]);
    expect(JSON.stringify(result.object)).toBe('{"spec":{"byKey":{"__proto__":{"type":"B","b":{}}}}}');
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it("normalizes several unions of one struct independently", () => {
    const result = normalize({
      object: wrap({ type: "B", a: {}, b: {}, x: "1", y: {} }) as JsonValue,
      oldObject: wrap({ type: "A", a: {}, x: "1" }),
      schema,
    });
    expect(result.object).toEqual(wrap({ type: "B", b: {}, y: {} }));
  });

  it("copies only the nodes on the way to an edit, and nothing when nothing changes", () => {
    const object = {
      spec: { strategy: { type: "B", a: {} }, items: [{ name: "p", y: {} }], byKey: { k: { x: "1" } } },
    };
    expect(normalize({ object, schema: undefined }).object).toBe(object);
    expect(normalize({ object, oldObject: object, schema: { ...schema } }).object).toBe(object);
    const result = normalize({ object, oldObject: { spec: { strategy: { type: "A", a: {} } } }, schema });
    const spec = (result.object as typeof object).spec;
    expect(spec.strategy).toEqual({ type: "B" });
    expect(result.object).not.toBe(object);
    expect(spec.items).toBe(object.spec.items);
    expect(spec.byKey).toBe(object.spec.byKey);
    expect(object.spec.strategy).toEqual({ type: "B", a: {} });
  });
});

describe("policy kep, apply mode", () => {
  const live = wrap({ type: "A", a: { v: 1 }, other: "x" }) as JsonValue;
  const apply = (applied: JsonValue) =>
    normalize({ object: wrap(applied) as JsonValue, oldObject: live, schema }, { mode: "apply" });

  it("an applied member wins: others cleared, discriminator set", () => {
    const result = apply({ b: {} });
    expect(result.object).toEqual(wrap({ type: "B", b: {}, other: "x" }));
    expect(result.changes.map((c) => `${c.op} ${c.path}`)).toEqual(["clear spec.strategy.a", "set spec.strategy.type"]);
  });

  it("an applied discriminator alone decides (Deployment switched to Recreate)", () => {
    expect(apply({ type: "None" }).object).toEqual(wrap({ type: "None", other: "x" }));
  });

  it("an applied discriminator that disagrees with the applied member is a conflict", () => {
    const result = apply({ type: "A", b: {} });
    expect(result.object).toEqual(wrap({ type: "A", a: { v: 1 }, b: {}, other: "x" }));
    expect(result.notes[0]?.message).toMatch(/does not select the applied member `b`/);
  });

  it("two applied members are a conflict", () => {
    expect(apply({ a: {}, b: {} }).notes[0]?.message).toMatch(/several members were applied at once \(a, b\)/);
  });

  it("applying without the live object is a create", () => {
    const result = normalize({ object: wrap({ b: {} }) as JsonValue, schema }, { mode: "apply" });
    expect(result.object).toEqual(wrap({ b: {}, type: "B" }));
  });
});
