import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fromSMDSchema } from "./smd.js";

// conformance/smd-unions.md §1.8: the schema of structured-merge-diff typed/union_test.go @v4.3.0.
const unionTest = `
types:
- name: union
  map:
    fields:
    - name: discriminator
      type: {scalar: string}
    - name: one
      type: {scalar: numeric}
    - name: two
      type: {scalar: numeric}
    - name: three
      type: {scalar: numeric}
    - name: letter
      type: {scalar: string}
    - name: a
      type: {scalar: numeric}
    - name: b
      type: {scalar: numeric}
    unions:
    - discriminator: discriminator
      deduceInvalidDiscriminator: true
      fields:
      - fieldName: one
        discriminatorValue: One
      - fieldName: two
        discriminatorValue: TWO
      - fieldName: three
        discriminatorValue: three
    - discriminator: letter
      fields:
      - fieldName: a
        discriminatorValue: A
      - fieldName: b
        discriminatorValue: b
`;

// §1.11: merge/union_test.go, with a union that has no discriminator.
const unionFields = `
types:
- name: unionFields
  map:
    fields:
    - {name: numeric, type: {scalar: numeric}}
    - {name: string,  type: {scalar: string}}
    - {name: type,    type: {scalar: string}}
    - {name: fieldA,  type: {scalar: string}}
    - {name: fieldB,  type: {scalar: string}}
    unions:
    - discriminator: type
      deduceInvalidDiscriminator: true
      fields:
      - {fieldName: numeric, discriminatorValue: Numeric}
      - {fieldName: string,  discriminatorValue: String}
    - fields:
      - {fieldName: fieldA, discriminatorValue: FieldA}
      - {fieldName: fieldB, discriminatorValue: FieldB}
`;

const scalar = (field: string, value: string) => ({ field, value, optional: false, kind: "scalar" });

describe("fromSMDSchema", () => {
  it("reads the typed/union_test.go schema as two unions", () => {
    const { types, findings } = fromSMDSchema(parse(unionTest));
    expect(findings).toEqual([]);
    const node = types.union!;
    expect(node.type).toBe("object");
    expect(node.properties!.one).toEqual({ type: "number" });
    expect(node.properties!.letter).toEqual({ type: "string" });
    expect(node.unions).toEqual([
      {
        discriminator: "discriminator",
        members: [scalar("one", "One"), scalar("two", "TWO"), scalar("three", "three")],
        emptyValues: [],
        exactlyOne: false,
        deduce: true,
        origin: "SMD union unions[0]",
      },
      {
        discriminator: "letter",
        members: [scalar("a", "A"), scalar("b", "b")],
        emptyValues: [],
        exactlyOne: false,
        deduce: false,
        origin: "SMD union unions[1]",
      },
    ]);
  });

  it("reads a union without discriminator (merge/union_test.go)", () => {
    const { types, findings } = fromSMDSchema(parse(unionFields));
    expect(findings).toEqual([]);
    const [typed, plain] = types.unionFields!.unions!;
    expect(typed).toMatchObject({ discriminator: "type", deduce: true });
    expect(plain).toEqual({
      members: [scalar("fieldA", "FieldA"), scalar("fieldB", "FieldB")],
      emptyValues: [],
      exactlyOne: false,
      deduce: false,
      origin: "SMD unionFields unions[1]",
    });
  });

  it("links named types to shared nodes, recursive ones included", () => {
    const { types, findings } = fromSMDSchema(
      parse(`
types:
- name: tree
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: left
      type: {namedType: tree}
    - name: children
      type:
        list:
          elementType: {namedType: tree}
          elementRelationship: associative
          keys: [name]
    - name: labels
      type: {map: {elementType: {scalar: string}}}
    - name: leaf
      type: {namedType: leaf}
    unions:
    - fields:
      - {fieldName: left, discriminatorValue: Left}
      - {fieldName: children, discriminatorValue: Children}
      - {fieldName: leaf, discriminatorValue: Leaf}
- name: leaf
  map:
    fields:
    - name: value
      type: {scalar: boolean}
`),
    );
    expect(findings).toEqual([]);
    const tree = types.tree!;
    const p = tree.properties!;
    expect(p.left).toBe(tree);
    expect(p.children!.items).toBe(tree);
    expect(p.children).toMatchObject({ type: "array", listMapKeys: ["name"] });
    expect(p.labels).toEqual({ type: "object", additionalProperties: { type: "string" } });
    expect(p.leaf).toBe(types.leaf);
    expect(types.leaf!.properties!.value).toEqual({ type: "boolean" });
    // Members that are maps or lists count as objects: SMD counted any non-null value as set.
    expect(tree.unions![0]!.members.map((m) => m.kind)).toEqual(["object", "object", "object"]);
  });

  it("reports consistency errors at the type's path", () => {
    const { findings } = fromSMDSchema(
      parse(`
types:
- name: bad
  map:
    fields:
    - {name: kind, type: {scalar: numeric}}
    - {name: x, type: {scalar: string}}
    - {name: y, type: {scalar: string}}
    - name: inner
      type:
        map:
          fields:
          - {name: d, type: {scalar: string}}
          unions:
          - discriminator: d
            fields:
            - {fieldName: d, discriminatorValue: D}
    unions:
    - discriminator: kind
      fields:
      - {fieldName: x, discriminatorValue: X}
      - {fieldName: y, discriminatorValue: X}
      - {fieldName: z, discriminatorValue: Z}
    - fields:
      - {fieldName: x, discriminatorValue: X}
`),
    );
    expect(findings.map((f) => [f.field, f.detail])).toEqual([
      ["bad", 'discriminator value "X" is used by both `x` and `y` (SMD bad unions[0])'],
      ["bad", "member `z` is not a property (SMD bad unions[0])"],
      ["bad", "discriminator `kind` must be a string field, not number (SMD bad unions[0])"],
      ["bad", "field `x` is in two unions (SMD bad unions[0]; SMD bad unions[1])"],
      ["bad.inner", "discriminator `d` is also a member (SMD bad.inner unions[0])"],
    ]);
    expect(findings.every((f) => f.type === "SchemaError" && f.rule === "union-declaration")).toBe(true);
  });

  it("reports malformed documents without throwing", () => {
    expect(fromSMDSchema(null).findings.map((f) => f.detail)).toEqual(["an SMD schema must have a `types` list"]);
    const { types, findings } = fromSMDSchema(
      parse(`
types:
- name: a
  map:
    fields:
    - {name: f, type: {namedType: missing}}
    - {name: g, type: {namedType: __untyped_atomic_}}
- name: a
  scalar: string
- {scalar: string}
- name: __proto__
  scalar: string
`),
    );
    expect(findings.map((f) => [f.field, f.detail])).toEqual([
      ["a", "type `a` is defined twice"],
      ["", "types[2] must have a name"],
      ["a.f", "unknown named type `missing`"],
    ]);
    expect(types.a!.properties!.g).toEqual({});
    expect(Object.getPrototypeOf(types)).toBeNull();
    const atom: Record<string, unknown> = {};
    atom.map = { fields: [{ name: "again", type: atom }] };
    const cyclic = fromSMDSchema({ types: [{ name: "c", map: { fields: [{ name: "x", type: atom }] } }] });
    const x = cyclic.types.c!.properties!.x!;
    expect(x.properties!.again).toBe(x);
    expect(Object.getOwnPropertyDescriptor(types, "__proto__")?.value).toEqual({ type: "string" });
  });
});
