import { describe, expect, it } from "vitest";
import { type JsonValue, validateUnions } from "../../src/index.js";
import { schema } from "./fixtures.js";

const wrap = (strategy: JsonValue | undefined) => (strategy === undefined ? undefined : { spec: { strategy } });
const messages = (object: JsonValue, oldObject?: JsonValue, ratcheting = true) =>
  validateUnions({ object: wrap(object) as JsonValue, oldObject: wrap(oldObject), schema }, { ratcheting }).map(
    (f) => f.message,
  );

// The fixture's discriminated union: type A→a, B→b (optional), C→c (a list), None empty, required;
// and x, y, z without discriminator (at most one).
describe("union validation (unions.md §4)", () => {
  it.each<[string, JsonValue, string[]]>([
    ["the selected member set", { type: "A", a: {} }, []],
    ["an empty value with no member", { type: "None" }, []],
    ["an optional member selected while empty", { type: "B" }, []],
    [
      "a required member selected while empty",
      { type: "A" },
      ['spec.strategy.a: Invalid value: "": must be specified when `type` is "A"'],
    ],
    [
      "an empty list member counts as unset",
      { type: "C", c: [] },
      ['spec.strategy.c: Invalid value: "": must be specified when `type` is "C"'],
    ],
    [
      "a member the discriminator does not select",
      { type: "A", a: {}, b: {} },
      ['spec.strategy.b: Invalid value: "": may only be specified when `type` is "B"'],
    ],
    [
      "a required discriminator missing",
      { a: {} },
      [
        "spec.strategy.type: Required value",
        'spec.strategy.a: Invalid value: "": may only be specified when `type` is "A"',
      ],
    ],
    [
      "a discriminator value outside members and empty values",
      { type: "D" },
      ['spec.strategy.type: Unsupported value: "D": supported values: "A", "B", "C", "None"'],
    ],
    [
      "two members of the union without discriminator",
      { type: "None", x: "1", y: {} },
      ['spec.strategy: Invalid value: "{x, y}": must specify at most one of: `x`, `y`, `z`'],
    ],
    ["an empty map member is not a second member", { type: "None", x: "1", z: {} }, []],
  ])("create: %s", (_name, object, expected) => {
    expect(messages(object)).toEqual(expected);
  });

  it("update: switching members without changing the discriminator is named at the discriminator (KEP-1027)", () => {
    expect(messages({ type: "A", b: {} }, { type: "A", a: {} })).toEqual([
      'spec.strategy.a: Invalid value: "": must be specified when `type` is "A"',
      'spec.strategy.b: Invalid value: "": may only be specified when `type` is "B"',
      'spec.strategy.type: Invalid value: "A": must be changed when a different member is set',
    ]);
  });

  it("update: an invalid union the update did not touch is ratcheted, unless ratcheting is off", () => {
    const invalid = { type: "A", a: {}, b: {}, other: "1" };
    const changedElsewhere = { ...invalid, other: "2" };
    expect(messages(changedElsewhere, invalid)).toEqual([]);
    expect(messages(changedElsewhere, invalid, false)).toEqual([
      'spec.strategy.b: Invalid value: "": may only be specified when `type` is "B"',
    ]);
  });

  it("update: changing the discriminator is never ratcheted", () => {
    expect(messages({ type: "B", a: {} }, { type: "A", a: {} })).toEqual([
      'spec.strategy.a: Invalid value: "": may only be specified when `type` is "A"',
    ]);
  });

  it("validates unions nested in keyed lists and maps, with their paths", () => {
    const object = {
      spec: {
        items: [{ name: "p", inner: [{ type: "A" }] }],
        byKey: { "app.kubernetes.io/x": { type: "None", a: {} } },
      },
    };
    expect(validateUnions({ object, schema }).map((f) => f.field)).toEqual([
      "spec.items[0].type",
      "spec.items[0].inner[0].a",
      "spec.byKey[app.kubernetes.io/x].a",
    ]);
  });
});
