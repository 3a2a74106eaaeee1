/**
 * Expected numbers are worked out from the Go sources each test names: apiserver pkg/cel/common/schemas.go
 * (`SchemaDeclType` and its estimate… helpers), pkg/cel/types.go, pkg/cel/limits.go, apiextensions
 * model/schemas.go (`WithTypeAndObjectMeta`), compilation.go (`sizeEstimator`, `maxCardinality`) and
 * cel_validation.go (`extractMaxElements`). The array and map cases of the first table are the cases of
 * apiextensions model/schemas_test.go `TestEstimateMaxLengthJSON`. 3,145,726 is MaxRequestSizeBytes (3 MiB) − 2.
 */
import { describe, expect, test } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { type CelT, schemaType } from "../language/types.js";
import {
  cardinalityFactor,
  MAX_REQUEST_SIZE_BYTES,
  maxCardinality,
  maxElements,
  minSerializedSize,
  sizeEstimator,
} from "./sizes.js";

const REQUEST_STRING = MAX_REQUEST_SIZE_BYTES - 2; // 3,145,726

const arrayOf = (items: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: "array", items, ...extra });
const mapOf = (values: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: "object",
  additionalProperties: values,
  ...extra,
});

describe("SchemaDeclType MaxElements (schemas.go)", () => {
  const cases: Array<[string, JsonObject, number | undefined]> = [
    // strings: maxLength × 4 (estimateMaxElementsFromMaxLength), enum (estimateMaxStringEnumLength),
    // else estimateMaxStringLengthPerRequest
    ["string", { type: "string" }, REQUEST_STRING],
    ["string with maxLength 20", { type: "string", maxLength: 20 }, 80],
    ["string with maxLength 0", { type: "string", maxLength: 0 }, 0],
    ["string with a negative maxLength (zeroIfNegative)", { type: "string", maxLength: -3 }, 0],
    ["string enum: longest value", { type: "string", enum: ["low", "medium", "high"] }, 6],
    ["string enum: bytes, not characters", { type: "string", enum: ["é", "ab"] }, 2],
    ["string enum and maxLength: maxLength wins", { type: "string", enum: ["a"], maxLength: 3 }, 12],
    ["string with an empty enum", { type: "string", enum: [] }, REQUEST_STRING],
    ["string enum of no strings", { type: "string", enum: [1, 2] }, 0],
    ["string with an unknown format", { type: "string", format: "email", maxLength: 5 }, 20],
    // formats
    ["byte", { type: "string", format: "byte" }, REQUEST_STRING],
    ["byte with maxLength 20 (not × 4)", { type: "string", format: "byte", maxLength: 20 }, 20],
    ["duration: MaxDurationSizeJSON", { type: "string", format: "duration" }, 32],
    ["duration ignores maxLength", { type: "string", format: "duration", maxLength: 5 }, 32],
    ["date: JSONDateSize", { type: "string", format: "date" }, 12],
    ["date-time: MaxDatetimeSizeJSON", { type: "string", format: "date-time", maxLength: 100 }, 32],
    // int-or-string
    ["int-or-string", { "x-kubernetes-int-or-string": true }, REQUEST_STRING],
    ["int-or-string with maxLength 10 (1.34 on)", { "x-kubernetes-int-or-string": true, maxLength: 10 }, 40],
    // lists: maxItems, else estimateMaxArrayItemsFromMinSize: (3 MiB − 2) / (item's MinSerializedSize + 1)
    ["booleanArray", arrayOf({ type: "boolean" }), 629145],
    ["durationArray", arrayOf({ type: "string", format: "duration" }), 786431],
    ["datetimeArray", arrayOf({ type: "string", format: "date-time" }), 142987],
    ["dateArray", arrayOf({ type: "string", format: "date" }), 241978],
    ["numberArray (integer)", arrayOf({ type: "integer" }), 1572863],
    ["numberArray (number)", arrayOf({ type: "number" }), 1572863],
    ["stringArray", arrayOf({ type: "string" }), 1048575],
    ["bytesArray", arrayOf({ type: "string", format: "byte" }), 1048575],
    ["int-or-string array", arrayOf({ "x-kubernetes-int-or-string": true }), 1572863],
    ["array of arrays", arrayOf(arrayOf({ type: "string" })), 1048575],
    ["array of maps", arrayOf(mapOf({ type: "string" })), 1048575],
    [
      'objectOptionalPropertyArray: [{"required":""},…]',
      arrayOf({
        type: "object",
        required: ["required"],
        properties: { required: { type: "string" }, optional: { type: "string" } },
      }),
      185042,
    ],
    [
      "objectDefaultFieldArray: a defaulted required field is not counted",
      arrayOf({ type: "object", required: ["field"], properties: { field: { type: "string", default: "default" } } }),
      1048575,
    ],
    ["arrayWithLength", arrayOf({ type: "integer", format: "int64" }, { maxItems: 10 }), 10],
    ["array with a negative maxItems", arrayOf({ type: "integer" }, { maxItems: -1 }), 0],
    // maps: maxProperties, else estimateMaxAdditionalPropertiesFromMinSize: (3 MiB − 2) / (value's size + 6)
    ["stringMap", mapOf({ type: "string" }), 393215],
    ["integer map", mapOf({ type: "integer" }), 449389],
    ["boolean map", mapOf({ type: "boolean" }), 314572],
    ["mapWithLength", mapOf({ type: "string" }, { maxProperties: 15 }), 15],
    // no MaxElements set by Go (0): undefined here
    ["boolean", { type: "boolean" }, undefined],
    ["integer", { type: "integer" }, undefined],
    ["number", { type: "number" }, undefined],
    ["object", { type: "object", properties: { a: { type: "string" } } }, undefined],
    // no DeclType at all
    ["array without items", { type: "array" }, undefined],
    ["array of untyped items", arrayOf({ "x-kubernetes-preserve-unknown-fields": true }), undefined],
    ["map of untyped values", mapOf({}), undefined],
    ["untyped preserve-unknown-fields", { "x-kubernetes-preserve-unknown-fields": true }, undefined],
  ];
  test.each(cases)("%s", (_name, node, expected) => {
    expect(maxElements(node)).toBe(expected);
  });

  test("int-or-string's maxLength is not read before 1.34 (kubernetes#132837)", () => {
    const node: JsonObject = { "x-kubernetes-int-or-string": true, maxLength: 10 };
    expect(maxElements(node, false, 32)).toBe(REQUEST_STRING);
    expect(maxElements(node, false, 33)).toBe(REQUEST_STRING);
    expect(maxElements(node, false, 34)).toBe(40);
    expect(maxElements(node, false, 36)).toBe(40);
    // and the list above it follows: its item is still 1 byte at least, so only the item's own answer changes
    expect(sizeEstimator(arrayOf(node), false, 33)(["self", "@items"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(sizeEstimator(arrayOf(node), false)(["self", "@items"])).toEqual({ min: 0, max: 40 });
  });

  test("bounds inside allOf, anyOf or oneOf are not the node's", () => {
    expect(maxElements({ type: "string", allOf: [{ maxLength: 5 }] })).toBe(REQUEST_STRING);
    expect(
      maxElements({
        "x-kubernetes-int-or-string": true,
        anyOf: [{ type: "integer" }, { type: "string", maxLength: 5 }],
      }),
    ).toBe(REQUEST_STRING);
  });
});

describe("SchemaDeclType MinSerializedSize (schemas.go, types.go, limits.go)", () => {
  const cases: Array<[string, JsonObject, number | undefined]> = [
    ["string (MinStringSize)", { type: "string" }, 2],
    ["bytes", { type: "string", format: "byte" }, 2],
    ["duration (MinDurationSizeJSON)", { type: "string", format: "duration" }, 3],
    ["date (JSONDateSize)", { type: "string", format: "date" }, 12],
    ["date-time (MinDatetimeSizeJSON)", { type: "string", format: "date-time" }, 21],
    ["boolean (MinBoolSize)", { type: "boolean" }, 4],
    ["integer (MinNumberSize)", { type: "integer" }, 1],
    ["number (MinNumberSize)", { type: "number" }, 1],
    ["int-or-string", { "x-kubernetes-int-or-string": true }, 1],
    ["list (NewListType)", arrayOf({ type: "string", minLength: 5 }, { minItems: 3 }), 2],
    ["map (NewMapType)", mapOf({ type: "string" }, { minProperties: 3 }), 2],
    ["object without required properties", { type: "object", properties: { a: { type: "string" } } }, 2],
    [
      "object: 2 + each required property's name, least value and 4",
      {
        type: "object",
        required: ["a", "b"],
        properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: "boolean" } },
      },
      2 + (1 + 2 + 4) + (1 + 1 + 4),
    ],
    [
      "object: a name counts its UTF-8 bytes (Go len)",
      { type: "object", required: ["ü"], properties: { ü: { type: "string" } } },
      2 + 2 + 2 + 4,
    ],
    [
      "object: an unescapable required property still counts",
      { type: "object", required: ["1abc"], properties: { "1abc": { type: "string" } } },
      2 + 4 + 2 + 4,
    ],
    [
      "object: a required property without a type does not",
      { type: "object", required: ["x"], properties: { x: { "x-kubernetes-preserve-unknown-fields": true } } },
      2,
    ],
    [
      "object: a default of null is no default",
      { type: "object", required: ["n"], properties: { n: { type: "integer", nullable: true, default: null } } },
      2 + 1 + 1 + 4,
    ],
    [
      "object: required names that are no property count nothing",
      { type: "object", required: ["ghost"], properties: {} },
      2,
    ],
    [
      "nested required objects",
      {
        type: "object",
        required: ["spec"],
        properties: { spec: { type: "object", required: ["x"], properties: { x: { type: "string" } } } },
      },
      2 + (4 + (2 + 1 + 2 + 4) + 4),
    ],
    ["no DeclType", { type: "array" }, undefined],
  ];
  test.each(cases)("%s", (_name, node, expected) => {
    expect(minSerializedSize(node)).toBe(expected);
  });

  test("a list of required-field objects takes its item's least size for its count", () => {
    // (3 MiB − 2) / (2 + 4 + 1 + 4 + 1): {"spec":0} with a comma
    const node = arrayOf({ type: "object", required: ["spec"], properties: { spec: { type: "integer" } } });
    expect(maxElements(node)).toBe(Math.floor(REQUEST_STRING / 12));
  });
});

describe("WithTypeAndObjectMeta at a resource root (model/schemas.go)", () => {
  const partial: JsonObject = {
    type: "object",
    required: ["kind", "metadata"],
    properties: {
      kind: { type: "string", maxLength: 10 },
      metadata: { type: "object", properties: { name: { type: "string", maxLength: 63 } } },
      spec: { type: "object" },
    },
  };
  const complete: JsonObject = {
    type: "object",
    properties: {
      kind: { type: "string", maxLength: 10 },
      apiVersion: { type: "string" },
      metadata: {
        type: "object",
        properties: { name: { type: "string", maxLength: 63 }, generateName: { type: "string" } },
      },
    },
  };

  test("without all of kind, apiVersion, metadata.name and generateName, the three are replaced", () => {
    const estimate = sizeEstimator(partial, true);
    expect(estimate(["self", "kind"])).toEqual({ min: 0, max: REQUEST_STRING }); // its maxLength is lost
    expect(estimate(["self", "apiVersion"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(estimate(["self", "metadata", "name"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(estimate(["self", "metadata", "generateName"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(estimate(["self", "metadata", "labels"])).toBeUndefined();
    expect(estimate(["self", "spec"])).toEqual({ min: 0, max: 0 });
    // required kind and metadata now count the replacements: "kind":"" and "metadata":{}
    expect(minSerializedSize(partial, true)).toBe(2 + (4 + 2 + 4) + (8 + 2 + 4));
  });

  test("a schema that declares them all keeps its own", () => {
    const estimate = sizeEstimator(complete, true);
    expect(estimate(["self", "kind"])).toEqual({ min: 0, max: 40 });
    expect(estimate(["self", "metadata", "name"])).toEqual({ min: 0, max: 252 });
    expect(estimate(["self", "metadata", "generateName"])).toEqual({ min: 0, max: REQUEST_STRING });
  });

  test("not at a resource root, nothing is added", () => {
    const estimate = sizeEstimator(partial, false);
    expect(estimate(["self", "kind"])).toEqual({ min: 0, max: 40 });
    expect(estimate(["self", "apiVersion"])).toBeUndefined();
    expect(estimate(["self", "metadata", "generateName"])).toBeUndefined();
    expect(minSerializedSize(partial, false)).toBe(2 + (4 + 2 + 4) + (8 + 2 + 4));
  });

  test("embedded resources are resource roots of their own", () => {
    const template: JsonObject = {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      "x-kubernetes-preserve-unknown-fields": true,
    };
    const node: JsonObject = {
      type: "object",
      properties: {
        template,
        templates: {
          type: "array",
          maxItems: 4,
          items: {
            type: "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
          },
        },
      },
    };
    const estimate = sizeEstimator(node, false);
    expect(estimate(["self", "template", "apiVersion"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(estimate(["self", "template", "metadata", "generateName"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(estimate(["self", "templates"])).toEqual({ min: 0, max: 4 });
    expect(estimate(["self", "templates", "@items", "kind"])).toEqual({ min: 0, max: REQUEST_STRING });
    // a rule on the embedded node itself
    expect(sizeEstimator(template, true)(["self", "kind"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(sizeEstimator(template, false)(["self", "metadata", "name"])).toEqual({ min: 0, max: REQUEST_STRING });
    expect(minSerializedSize(template, true)).toBe(2);
  });
});

describe("sizeEstimator (compilation.go)", () => {
  const crd: JsonObject = {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: {
          items: { type: "array", maxItems: 5, items: { type: "string", maxLength: 10 } },
          unbounded: { type: "array", items: { type: "string" } },
          labels: { type: "object", additionalProperties: { type: "string", maxLength: 63 } },
          nested: { type: "array", items: { type: "array", maxItems: 3, items: { type: "integer" } } },
          count: { type: "integer" },
          "x-y": { type: "string", maxLength: 2 },
          namespace: { type: "string", maxLength: 1 },
        },
      },
    },
  };
  const estimate = sizeEstimator(crd, false);

  test("fields, then @items of a list", () => {
    expect(estimate(["self", "spec", "items"])).toEqual({ min: 0, max: 5 });
    expect(estimate(["self", "spec", "items", "@items"])).toEqual({ min: 0, max: 40 });
    expect(estimate(["self", "spec", "unbounded"])).toEqual({ min: 0, max: 1048575 });
    expect(estimate(["self", "spec", "nested", "@items"])).toEqual({ min: 0, max: 3 });
    expect(estimate(["self", "spec", "nested", "@items", "@items"])).toEqual({ min: 0, max: 0 });
  });

  test("a map's @values, @items (ElemType as well) and @keys (the shared string type: 0)", () => {
    expect(estimate(["self", "spec", "labels"])).toEqual({ min: 0, max: 393215 });
    expect(estimate(["self", "spec", "labels", "@values"])).toEqual({ min: 0, max: 252 });
    expect(estimate(["self", "spec", "labels", "@items"])).toEqual({ min: 0, max: 252 });
    expect(estimate(["self", "spec", "labels", "@keys"])).toEqual({ min: 0, max: 0 });
  });

  test("the first element is the node whatever its name", () => {
    expect(estimate(["oldSelf", "spec", "items"])).toEqual({ min: 0, max: 5 });
    expect(estimate(["self"])).toEqual({ min: 0, max: 0 });
    expect(estimate(["anything", "spec", "x__dash__y"])).toEqual({ min: 0, max: 8 });
  });

  test("field names are the escaped CEL names", () => {
    expect(estimate(["self", "spec", "x__dash__y"])).toEqual({ min: 0, max: 8 });
    expect(estimate(["self", "spec", "x-y"])).toBeUndefined();
    expect(estimate(["self", "spec", "__namespace__"])).toEqual({ min: 0, max: 4 });
    expect(estimate(["self", "spec", "namespace"])).toBeUndefined();
  });

  test("numbers and objects answer 0, as their DeclType's MaxElements is never set", () => {
    expect(estimate(["self", "spec", "count"])).toEqual({ min: 0, max: 0 });
    expect(estimate(["self", "spec"])).toEqual({ min: 0, max: 0 });
  });

  test("paths leading nowhere", () => {
    expect(estimate([])).toBeUndefined();
    expect(estimate(["self", "nope"])).toBeUndefined();
    expect(estimate(["self", "spec", "@items"])).toBeUndefined();
    expect(estimate(["self", "spec", "@keys"])).toBeUndefined();
    expect(estimate(["self", "spec", "items", "@keys"])).toBeUndefined();
    expect(estimate(["self", "spec", "items", "@indices"])).toBeUndefined();
    expect(estimate(["self", "spec", "items", "@items", "@items"])).toBeUndefined();
    expect(estimate(["self", "spec", "labels", "foo"])).toBeUndefined();
    expect(estimate(["self", "spec", "count", "x"])).toBeUndefined();
  });

  test("a node without a DeclType answers nothing", () => {
    expect(sizeEstimator({ type: "array" }, false)(["self"])).toBeUndefined();
  });

  test("an int-or-string and a string at the root", () => {
    expect(sizeEstimator({ "x-kubernetes-int-or-string": true }, false)(["self"])).toEqual({
      min: 0,
      max: REQUEST_STRING,
    });
    expect(sizeEstimator({ type: "string", enum: ["Always", "Never"] }, false)(["self"])).toEqual({ min: 0, max: 6 });
  });
});

describe("maxCardinality (compilation.go)", () => {
  test.each([
    [0, 3145728],
    [1, 1572864], // an int-or-string or a number
    [2, 1048576], // a string, list, map or empty object
    [4, 629145], // a boolean
    [16, 185042],
  ])("minSize %d → %d", (minSize, expected) => {
    expect(maxCardinality(minSize)).toBe(expected);
  });
});

describe("cardinalityFactor (cel_validation.go extractMaxElements)", () => {
  const cases: Array<[string, JsonObject, number | undefined]> = [
    ["object with properties: 1", { type: "object", properties: { a: { type: "string" } } }, 1],
    ["map without maxProperties: unbounded", mapOf({ type: "string" }), undefined],
    ["map with maxProperties 7", mapOf({ type: "string" }, { maxProperties: 7 }), 7],
    ["additionalProperties: true without maxProperties", { type: "object", additionalProperties: true }, undefined],
    ["object with maxProperties but no additionalProperties: 1", { type: "object", maxProperties: 3 }, 1],
    ["array without maxItems: unbounded", arrayOf({ type: "string" }), undefined],
    ["array with maxItems 3", arrayOf({ type: "string" }, { maxItems: 3 }), 3],
    ["array with a negative maxItems", arrayOf({ type: "string" }, { maxItems: -2 }), 0],
    ["string: 1", { type: "string", maxLength: 5 }, 1],
    ["int-or-string (no type): 1", { "x-kubernetes-int-or-string": true }, 1],
  ];
  test.each(cases)("%s", (_name, node, expected) => {
    expect(cardinalityFactor(node)).toBe(expected);
  });
});

describe("agreement with schemaType (language/types.ts)", () => {
  /** Every path through the CEL type of `node`, as the estimator names its steps. */
  function paths(t: CelT, prefix: string[], out: string[][]): string[][] {
    out.push(prefix);
    if (t.k === "list") paths(t.elem, [...prefix, "@items"], out);
    else if (t.k === "map") {
      out.push([...prefix, "@keys"]);
      paths(t.val, [...prefix, "@values"], out);
    } else if (t.k === "object") for (const [name, f] of t.fields) paths(f.type, [...prefix, name], out);
    return out;
  }
  const crd: JsonObject = {
    type: "object",
    required: ["spec"],
    properties: {
      metadata: { type: "object" },
      spec: {
        type: "object",
        properties: {
          "a.b": { type: "string" },
          if: { "x-kubernetes-int-or-string": true },
          "9lives": { type: "string" },
          list: { type: "array", items: { type: "object", properties: { d: { type: "string", format: "date" } } } },
          map: { type: "object", additionalProperties: { type: "array", items: { type: "boolean" } } },
          untyped: { type: "array", items: { "x-kubernetes-preserve-unknown-fields": true } },
          embedded: {
            type: "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
          },
        },
      },
    },
  };
  test.each([true, false])("every path of the type is answered (resource root: %s)", (root) => {
    const type = schemaType(crd, root);
    if (type === undefined) throw new Error("no type");
    const estimate = sizeEstimator(crd, root);
    for (const path of paths(type, ["self"], [])) expect(estimate(path), path.join(".")).toBeDefined();
    expect(estimate(["self", "spec", "untyped"])).toBeUndefined();
    expect(estimate(["self", "spec", "9lives"])).toBeUndefined();
  });
});
