import type { SchemaNode, Union } from "../../src/schema/index.js";

/** A discriminated union `type`: A→a, B→b (optional), C→c (a list); `None` selects nothing. */
export const discriminated: Union = {
  discriminator: "type",
  members: [
    { field: "a", value: "A", optional: false, kind: "object" },
    { field: "b", value: "B", optional: true, kind: "object" },
    { field: "c", value: "C", optional: false, kind: "list" },
  ],
  emptyValues: ["None"],
  exactlyOne: true,
  deduce: false,
  origin: "test discriminated",
};

/** A union without discriminator over x, y, z (at most one). */
export const plain: Union = {
  members: [
    { field: "x", value: "X", optional: false, kind: "scalar" },
    { field: "y", value: "Y", optional: false, kind: "object" },
    { field: "z", value: "Z", optional: false, kind: "map" },
  ],
  emptyValues: [],
  exactlyOne: false,
  deduce: false,
  origin: "test plain",
};

const obj = { type: "object" } as const;
const unionNode = (): SchemaNode => ({
  type: "object",
  properties: {
    type: { type: "string", enum: ["A", "B", "C", "None"] },
    a: { ...obj, properties: { v: { type: "integer" } } },
    b: { ...obj, properties: { v: { type: "integer" } } },
    c: { type: "array", items: { type: "string" } },
    x: { type: "string" },
    y: obj,
    z: { type: "object", additionalProperties: { type: "string" } },
    other: { type: "string" },
  },
  unions: [discriminated, plain],
});

/**
 * spec.strategy: both unions in one struct; spec.items[*] (list keyed by name)
 * holding them, with a nested list of them; spec.byKey: a map of them.
 */
export const schema: SchemaNode = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        strategy: unionNode(),
        items: {
          type: "array",
          listMapKeys: ["name"],
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              inner: { type: "array", items: unionNode() },
              ...unionNode().properties,
            },
            unions: [discriminated, plain],
          },
        },
        byKey: { type: "object", additionalProperties: unionNode() },
      },
    },
  },
};
