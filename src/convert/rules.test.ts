import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Crd, readCrd } from "../crd/index.js";
import { parseSource } from "../source/index.js";
import { clone, deepEqual, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { applyRules, declaredRules } from "./declaration.js";
import {
  ANNOTATION,
  type Conversion,
  ConvertError,
  convert,
  defineConversion,
  readConversion,
  roundTrip,
  sampleObjects,
} from "./index.js";
import { annotationBytes, decode, encode, type LostField, lostFields } from "./losslessness.js";
import { copyForWriting } from "./paths.js";

const G = "example.com";
const av = (v: string) => `${G}/${v}`;

const str = { type: "string" };
const int = { type: "integer" };
const bucket = { type: "object", properties: { bucket: str } };
const crdDoc = (): JsonObject => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `widgets.${G}` },
  spec: {
    group: G,
    names: { kind: "Widget", plural: "widgets" },
    scope: "Namespaced",
    versions: [
      [
        "v1",
        {
          old: str,
          policy: { type: "string", enum: ["Always", "Never"] },
          x: int,
          y: str,
          source: { type: "object", properties: { s3: bucket, gcs: bucket } },
        },
      ],
      ["v2", { size: str, policy: { type: "string", enum: ["always", "never"] } }],
      [
        "v3",
        {
          new: str,
          policy: { type: "string", enum: ["always", "never"] },
          x: { type: "object", properties: { value: int } },
          z: int,
          extra: str,
          source: { type: "object", properties: { type: str, s3: bucket, gcs: bucket } },
        },
      ],
    ].map(([name, props]) => ({
      name,
      served: true,
      storage: name === "v3",
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            apiVersion: str,
            kind: str,
            metadata: { type: "object" },
            spec: { type: "object", properties: props },
          },
        },
      },
    })) as unknown as JsonValue,
  },
});
const crd: Crd = readCrd(crdDoc()).crd;

const DECL = `apiVersion: kunion.dev/v1alpha1
kind: Conversion
metadata: {name: widgets.example.com}
spec:
  group: example.com
  kind: Widget
  hub: v3
  spokes:
    v1:
      - rename: {from: spec.old, to: spec.new}
      - map: {path: spec.policy, values: {Always: always, Never: never}}
      - wrap: {path: spec.x, into: value}
      - remove: {path: spec.y}
      - default: {path: spec.z, value: 1}
      - union: {path: spec.source, discriminator: type, members: {s3: S3, gcs: GCS}}
    v2:
      - map: {path: spec.policy, values: {always: always, never: never}}
      - set:
          path: spec.x
          toHub: "has(self.spec) && has(self.spec.size) && string(self.spec.size).matches('^-?[0-9]{1,9}$') ? {'value': int(self.spec.size)} : dyn(null)"
          fromHub: "dyn(null)"
      - set:
          path: spec.size
          toHub: "dyn(null)"
          fromHub: "has(self.spec) && has(self.spec.x) && type(self.spec.x) == map && has(self.spec.x.value) ? string(self.spec.x.value) : dyn(null)"
`;

const read = (text: string, withCrd?: Crd) =>
  readConversion(parseSource(text, "conv.yaml").documents[0] as never, withCrd);
const plain = read(DECL).conversion as Conversion;
const typed = read(DECL, crd).conversion as Conversion;

const obj = (v: string, spec: JsonValue, meta: JsonObject = {}): JsonObject => ({
  apiVersion: av(v),
  kind: "Widget",
  metadata: { name: "w", namespace: "ns", uid: "u-1", ...meta },
  spec,
});
const to = (o: JsonObject, v: string, c = plain) => {
  const r = convert(o, av(v), c);
  if (r.object === undefined) throw new Error(r.error);
  return r.object;
};
const annotation = (o: JsonObject) =>
  ((o.metadata as JsonObject).annotations as JsonObject | undefined)?.[ANNOTATION] as string | undefined;

describe("rules, both ways", () => {
  it("reads without findings", () => {
    expect(read(DECL).findings).toEqual([]);
    expect(read(DECL, crd).findings).toEqual([]);
  });
  it("rename, map, wrap, default, union toHub and back", () => {
    const v1 = obj("v1", { old: "a", policy: "Always", x: 3, source: { s3: { bucket: "b" } }, keep: [1, { k: 2 }] });
    const hub = to(v1, "v3");
    expect(hub.spec).toEqual({
      new: "a",
      policy: "always",
      x: { value: 3 },
      z: 1,
      source: { type: "S3", s3: { bucket: "b" } },
      keep: [1, { k: 2 }],
    });
    expect(annotation(hub)).toBeUndefined();
    expect(to(hub, "v1")).toEqual(v1);
  });
  it("remove keeps the value in the annotation and restores it", () => {
    const v1 = obj("v1", { y: "gone", policy: "Never" });
    const hub = to(v1, "v3");
    expect(hub.spec).toEqual({ policy: "never", z: 1 });
    expect(JSON.parse(annotation(hub) as string)).toEqual({
      apiVersion: av("v1"),
      lost: [{ path: ["spec", "y"], value: "gone" }],
    });
    expect(to(hub, "v1")).toEqual(v1);
  });
  it("default: an explicit default value survives (absent paths are recorded)", () => {
    const v1 = obj("v1", { z: 1 });
    const hub = to(v1, "v3");
    expect(hub.spec).toEqual({ z: 1 });
    expect(to(hub, "v1")).toEqual(v1);
    const hub2 = obj("v3", { z: 7 });
    expect(to(hub2, "v1").spec).toEqual({ z: 7 });
  });
  it("set with CEL both ways", () => {
    const v2 = obj("v2", { size: "42", policy: "always" });
    const hub = to(v2, "v3");
    expect(hub.spec).toEqual({ x: { value: 42 }, policy: "always" });
    expect(to(hub, "v2")).toEqual(v2);
    const odd = obj("v2", { size: "x" });
    expect(to(odd, "v3").spec).toEqual({});
    expect(to(to(odd, "v3"), "v2")).toEqual(odd);
    const failing = read(
      DECL.replace(
        "- rename: {from: spec.old, to: spec.new}",
        `- set: {path: spec.n, toHub: "self.spec.b + 1", fromHub: "dyn(null)"}`,
      ),
    ).conversion as Conversion;
    const bad = convert(obj("v1", { b: "s" }), av("v3"), failing);
    expect(bad.error).toMatch(
      /^Widget ns\/w: converting example.com\/v1 to example.com\/v3: spec.n: toHub expression "self.spec.b \+ 1" failed: /,
    );
  });
  it("union: more than one member is an error naming the path", () => {
    const r = convert(obj("v1", { source: { s3: {}, gcs: {} } }), av("v3"), plain);
    expect(r.error).toMatch(/spec.source: more than one member of the union is set: s3, gcs/);
    const hub = obj("v3", { source: { type: "GCS", gcs: { bucket: "g" } } });
    expect(to(hub, "v1").spec).toEqual({ source: { gcs: { bucket: "g" } } });
    expect(to(to(hub, "v1"), "v3")).toEqual(hub);
  });
  it("move is rename; __proto__ keys are plain data", () => {
    const c = read(
      DECL.replace("- rename: {from: spec.old, to: spec.new}", "- move: {from: spec.old, to: spec.deep.new}"),
    ).conversion as Conversion;
    const v1 = JSON.parse(
      '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"old":{"__proto__":{"a":1}},"__proto__":2}}',
    );
    const hub = to(v1, "v3", c);
    expect(JSON.stringify(hub.spec)).toBe('{"__proto__":2,"deep":{"new":{"__proto__":{"a":1}}},"z":1}');
    expect(Object.getPrototypeOf(hub.spec)).toBe(Object.prototype);
    expect(to(hub, "v1", c)).toEqual(v1);
  });
  it("unwrap is wrap's inverse", () => {
    const c = read(DECL.replace("wrap: {path: spec.x, into: value}", "unwrap: {path: spec.x, from: value}"))
      .conversion as Conversion;
    const v1 = obj("v1", { x: { value: 5 } });
    expect(to(v1, "v3", c).spec).toEqual({ x: 5, z: 1 });
    expect(to(to(v1, "v3", c), "v1", c)).toEqual(v1);
  });
});

describe("engine", () => {
  it("passes an object already at the target through: itself when the result may share, else a copy of its own", () => {
    const o = obj("v1", { old: "a" });
    expect(convert(o, av("v1"), plain, { share: true }).object).toBe(o);
    const own = convert(o, av("v1"), plain).object as JsonObject;
    expect(own).toEqual(o);
    expect(own).not.toBe(o);
    expect(own.spec).not.toBe(o.spec);
  });
  it("converts any version to any version through the hub", () => {
    const v1 = obj("v1", { policy: "Always", x: 9 });
    const v2 = to(v1, "v2");
    expect(v2.apiVersion).toBe(av("v2"));
    expect(v2.spec).toEqual({ policy: "always", size: "9", z: 1 });
    expect(to(v2, "v3").spec).toEqual({ policy: "always", x: { value: 9 }, z: 1 });
  });
  it("keeps every step's data through spoke → hub → spoke and back", () => {
    const v1 = obj("v1", { y: "only-v1", x: 4, policy: "Always" }, { annotations: { keep: "me" } });
    const v2 = to(v1, "v2", typed);
    expect(v2.spec).toEqual({ size: "4", policy: "always" });
    const hub = to(v2, "v3", typed);
    expect(hub).toEqual(to(v1, "v3", typed));
    expect(to(hub, "v1", typed)).toEqual(v1);
    expect(to(v2, "v1", typed)).toEqual(v1);
  });
  it("refuses unknown versions, listing the known ones", () => {
    expect(convert(obj("v9", {}), av("v1"), plain).error).toBe(
      'Widget ns/w: unknown apiVersion "example.com/v9": known versions are example.com/v3, example.com/v1, example.com/v2',
    );
    expect(convert(obj("v1", {}), "other.io/v1", plain).error).toMatch(/cannot convert to unknown apiVersion/);
  });
  it("a conversion changed after use converts by its new versions", () => {
    const identity = { toHub: (o: JsonObject) => o, fromHub: (o: JsonObject) => o };
    const c = defineConversion({ group: G, kind: "Widget", hub: "v3", spokes: { v1: identity } });
    expect(convert(obj("v1", {}), av("v3"), c).object?.apiVersion).toBe(av("v3"));
    expect(convert(obj("v2", {}), av("v3"), c).error).toMatch(/unknown apiVersion "example.com\/v2"/);
    c.spokes = new Map([...c.spokes, ["v2", identity]]);
    expect(convert(obj("v2", {}), av("v3"), c).object?.apiVersion).toBe(av("v3"));
    c.hub = "v1";
    c.spokes = new Map([["v3", identity]]);
    expect(convert(obj("v3", {}), av("v1"), c).object?.apiVersion).toBe(av("v1"));
    expect(convert(obj("v2", {}), av("v1"), c).error).toMatch(/known versions are example.com\/v1, example.com\/v3/);
    c.group = "example.org";
    expect(convert(obj("v3", {}), av("v1"), c).error).toMatch(/unknown apiVersion/);
    // without its CRD, nothing is pruned any more
    const schemaKnown: Conversion = { ...typed };
    const hub = obj("v3", { extra: "only-in-hub", policy: "never" });
    expect(to(hub, "v1", schemaKnown).spec).toEqual({ policy: "Never" });
    delete schemaKnown.crd;
    expect(to(hub, "v1", schemaKnown).spec).toEqual({ extra: "only-in-hub", policy: "Never" });
  });
  it("a step back to the version the step before came from reads the annotation that step wrote", () => {
    // With an empty group, "v1" and "/v1" name the same version: v1 → hub → v1, the hub dropping spec.x.
    const lossy = defineConversion({
      group: "",
      kind: "Widget",
      hub: "v2",
      spokes: {
        v1: {
          toHub: (o) => ({ ...o, spec: {} }),
          fromHub: (o) => o,
        },
      },
    });
    const input: JsonObject = { apiVersion: "v1", kind: "Widget", metadata: { name: "w" }, spec: { x: 1 } };
    expect(convert(input, "/v1", lossy).object?.spec).toEqual({ x: 1 });
  });
  it("refuses a conversion that changes metadata other than labels and annotations", () => {
    const evil = defineConversion({
      group: G,
      kind: "Widget",
      hub: "v3",
      spokes: {
        v1: {
          toHub: (o) => ({ ...o, metadata: { ...(o.metadata as JsonObject), uid: "other" } }),
          fromHub: (o) => o,
        },
        v2: { toHub: (o) => ({ ...o, kind: "Gadget" }), fromHub: (o) => o },
      },
    });
    expect(convert(obj("v1", {}), av("v3"), evil).error).toBe(
      "Widget ns/w: converting example.com/v1 to example.com/v3: metadata.uid: Forbidden: a conversion may only change labels and annotations",
    );
    expect(convert(obj("v2", {}), av("v3"), evil).error).toMatch(/kind: Forbidden/);
    const labels = defineConversion({
      group: G,
      kind: "Widget",
      hub: "v3",
      spokes: {
        v1: {
          toHub: (o) => ({ ...o, metadata: { ...(o.metadata as JsonObject), labels: { a: "b" } } }),
          fromHub: (o) => o,
        },
      },
    });
    expect((to(obj("v1", {}), "v3", labels).metadata as JsonObject).labels).toEqual({ a: "b" });
    expect(read(DECL.replace("spec.old, to: spec.new", "metadata.uid, to: spec.new")).findings[0]?.message).toMatch(
      /only metadata.labels.<key> and metadata.annotations.<key> may be converted/,
    );
  });
  it("TypeScript conversions with user functions", () => {
    const ts = defineConversion({
      group: G,
      kind: "Widget",
      hub: "v3",
      spokes: {
        v1: {
          toHub: (o) => ({ ...o, spec: { n: Number((o.spec as JsonObject).s) } }),
          fromHub: (o) => ({ ...o, spec: { s: String((o.spec as JsonObject).n) } }),
        },
      },
    });
    expect(to(obj("v1", { s: "3" }), "v3", ts).spec).toEqual({ n: 3 });
    expect(
      roundTrip(ts, [
        { apiVersion: av("v1"), object: obj("v1", { s: "3" }) },
        { apiVersion: av("v1"), object: obj("v1", { s: "03" }) },
      ]),
    ).toEqual([]);
  });
  it("keeps hub fields a spoke cannot hold (schema known) in the annotation and restores them", () => {
    const hub = obj(
      "v3",
      { extra: "only-in-hub", policy: "never", z: 2 },
      { labels: { a: "b" }, annotations: { other: "x" } },
    );
    const v1 = to(hub, "v1", typed);
    expect(v1.spec).toEqual({ policy: "Never" });
    expect(JSON.parse(annotation(v1) as string)).toEqual({
      apiVersion: av("v3"),
      lost: [
        { path: ["spec", "extra"], value: "only-in-hub" },
        { path: ["spec", "z"], value: 2, converted: 1 },
      ],
    });
    // a v1 user's edit elsewhere keeps the hub-only field
    const edited = { ...v1, spec: { ...(v1.spec as JsonObject), policy: "Always" } };
    expect(to(edited, "v3", typed).spec).toEqual({ extra: "only-in-hub", policy: "always", z: 2 });
    expect((v1.metadata as JsonObject).labels).toEqual({ a: "b" });
    const back = to(v1, "v3", typed);
    expect(back).toEqual(hub);
  });
  it("refuses when the annotations would exceed 256 KiB", () => {
    const big = "x".repeat(200 * 1024);
    const hub = obj("v3", { extra: big }, { annotations: { note: "y".repeat(60 * 1024) } });
    const r = convert(hub, av("v1"), typed);
    expect(r.error).toMatch(
      /^Widget ns\/w: converting example.com\/v3 to example.com\/v1: metadata.annotations: Too long: must have at most 262144 bytes/,
    );
    expect(convert(obj("v3", { extra: big }), av("v1"), typed).error).toBeUndefined();
  });
  it("round-trip reports the first differing path", () => {
    const lossy = defineConversion({
      group: G,
      kind: "Widget",
      hub: "v3",
      spokes: { v1: { toHub: (o) => o, fromHub: (o) => ({ ...o, spec: { ...(o.spec as JsonObject), b: 2 } }) } },
    });
    const f = roundTrip(lossy, [{ apiVersion: av("v3"), object: obj("v3", { a: 1 }) }]);
    expect(f).toHaveLength(0); // the engine makes even this lossless: b is recorded as absent
    // labels are not tracked by the annotation: a conversion that adds one is caught
    const labelling: Conversion = {
      ...lossy,
      spokes: new Map([
        [
          "v1",
          {
            toHub: (o) => ({ ...o, metadata: { ...(o.metadata as JsonObject), labels: { l: "x" } } }),
            fromHub: (o) => o,
          },
        ],
      ]),
    };
    const g = roundTrip(labelling, [{ apiVersion: av("v1"), object: obj("v1", { a: 1 }) }]);
    expect(g[0]?.rule).toBe("round-trip");
    expect(g[0]?.field).toBe("metadata.labels");
    expect(g[0]?.detail).toMatch(/^sample 0: v1 → v3 → v1: gives \{"l":"x"\} instead/);
  });
});

describe("declaration errors", () => {
  it("reports unknown keys, versions, paths, non-invertible maps, bad CEL, duplicate spokes with lines", () => {
    const text = `apiVersion: kunion.dev/v1alpha1
kind: Conversion
metadata: {name: x}
spec:
  group: example.com
  kind: Widget
  hub: v3
  colour: red
  spokes:
    - version: v1
      rules:
        - rename: {from: spec.nothere, to: spec.new, extra: 1}
        - map: {path: spec.policy, values: {Always: always, Never: always}}
        - set: {path: spec.x, toHub: "self.spec.(("}
        - frobnicate: {path: spec.x}
    - version: v1
      rules: []
    - version: v7
      rules: []
    - version: v3
      rules: []
`;
    const { conversion, findings } = read(text, crd);
    expect(conversion).toBeUndefined();
    const lines = findings.map((f) => [f.line, f.field, f.message.slice(0, 90)]);
    const at = (line: number) => findings.filter((f) => f.line === line).map((f) => f.message);
    expect(at(8)).toEqual(['unknown field "spec.colour"']);
    expect(at(12).join("\n")).toMatch(/unknown field "spec.spokes\[0\].rules\[0\].rename.extra"/);
    expect(at(12).join("\n")).toMatch(
      /rename.from: Invalid value: "spec.nothere": no such field in the schema of version v1/,
    );
    expect(at(13).join("\n")).toMatch(/not one-to-one: "Always" and "Never" both map to "always"/);
    expect(at(14).join("\n")).toMatch(/set.toHub: Invalid value: .*compilation failed/);
    expect(at(15).join("\n")).toMatch(/Unsupported value: "frobnicate": supported values: "rename", "move"/);
    expect(at(16).join("\n")).toMatch(/this version is already a spoke/);
    expect(at(18).join("\n")).toMatch(/Unsupported value: "v7": supported values: "v1", "v2", "v3"/);
    expect(at(20).join("\n")).toMatch(/the hub cannot also be a spoke/);
    expect(findings.every((f) => f.rule === "conversion" && f.file === "conv.yaml")).toBe(true);
    expect(lines.length).toBeGreaterThanOrEqual(9);
  });
  it("reports an unknown hub", () => {
    const { findings } = read(DECL.replace("hub: v3", "hub: v9"), crd);
    expect(findings.map((f) => [f.line, f.message])).toContainEqual([
      7,
      'spec.hub: Unsupported value: "v9": supported values: "v1", "v2", "v3"',
    ]);
  });
});

// Generated objects: arbitrary nested content drawn from the names the rules use (and __proto__).
const keys = fc.constantFrom(
  "old",
  "new",
  "policy",
  "x",
  "y",
  "z",
  "source",
  "value",
  "type",
  "s3",
  "gcs",
  "size",
  "keep",
  "__proto__",
);
const scalar = fc.oneof(
  fc.constantFrom("Always", "Never", "always", "never", "S3", "1", ""),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
);
const tree = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("v"), { maxLength: 2 }),
    fc.array(fc.tuple(keys, tie("v")), { maxLength: 4 }).map((es) => {
      const o: JsonObject = {};
      for (const [k, v] of es) setKey(o, k, v);
      return o;
    }),
  ),
})).v;
const specArb = fc.array(fc.tuple(keys, tree), { maxLength: 6 }).map((es) => {
  const o: JsonObject = {};
  for (const [k, v] of es) setKey(o, k, v);
  return o;
});
const onlyUnionErrors = (c: Conversion, version: string, spec: JsonObject) =>
  roundTrip(c, [{ apiVersion: av(version), object: obj(version, spec, { labels: { l: "1" } }) }]).every((f) =>
    /more than one member of the union|expression .* failed|is not a string|expected an object/.test(f.detail),
  );

describe("property: round trips are identity", () => {
  for (const version of ["v1", "v2", "v3"])
    it(`generated ${version} objects (no schema)`, () => {
      fc.assert(
        fc.property(specArb, (spec) => onlyUnionErrors(plain, version, spec)),
        { numRuns: 1000 },
      );
    });
  it("round trips never report a difference (only conversion errors)", () => {
    fc.assert(
      fc.property(specArb, fc.constantFrom("v1", "v2", "v3"), (spec, v) =>
        roundTrip(plain, [{ apiVersion: av(v), object: obj(v, spec) }]).every((f) => f.path.length === 0),
      ),
      { numRuns: 1000 },
    );
  });
  for (const version of ["v1", "v2", "v3"])
    it(`schema samples of ${version} (schema known, pruning)`, () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const samples = sampleObjects(crd, version, 3, seed).map((object) => ({ apiVersion: av(version), object }));
          const bad = roundTrip(typed, samples).filter((f) => !/more than one member/.test(f.detail));
          if (bad.length > 0) throw new Error(`${bad[0]?.message}\n${JSON.stringify(samples[0]?.object)}`);
        }),
        { numRuns: 300 },
      );
    });
  it("sampleObjects is deterministic", () => {
    expect(deepEqual(sampleObjects(crd, "v3", 5, 1) as never, sampleObjects(crd, "v3", 5, 1) as never)).toBe(true);
    expect(sampleObjects(crd, "v3", 5, 1)).not.toEqual(sampleObjects(crd, "v3", 5, 2));
  });
});

/** Writes into every object and list of `v`. */
const scribble = (v: JsonValue): void => {
  if (Array.isArray(v)) {
    for (const x of v) scribble(x);
    v.push("scribbled");
  } else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) scribble(v[k] as JsonValue);
    v.scribbled = true;
  }
};

describe("the engine leaves its input alone", () => {
  it("property: converting never changes the object converted, with or without an annotation to restore", () => {
    fc.assert(
      fc.property(specArb, fc.constantFrom("v1", "v2", "v3"), fc.constantFrom("v1", "v2", "v3"), (spec, v, w) => {
        for (const c of [plain, typed]) {
          const input = obj(v, spec, { labels: { l: "1" }, annotations: { keep: "me" } });
          const there = convert(input, av(w), c).object;
          expect(input).toEqual(obj(v, spec, { labels: { l: "1" }, annotations: { keep: "me" } }));
          if (there === undefined) continue;
          // the way back reads (and restores from) the annotation this conversion wrote
          const copy = structuredClone(there);
          convert(there, av(v), c);
          expect(there).toEqual(copy);
          // the output is the caller's own: writing anywhere in it leaves the input as it was
          scribble(there);
          expect(input).toEqual(obj(v, spec, { labels: { l: "1" }, annotations: { keep: "me" } }));
        }
      }),
      { numRuns: 300 },
    );
  });
  it("property: a result that may share is the same object, and converting to it and back still leaves the input alone", () => {
    fc.assert(
      fc.property(specArb, fc.constantFrom("v1", "v2", "v3"), fc.constantFrom("v1", "v2", "v3"), (spec, v, w) => {
        for (const c of [plain, typed]) {
          const meta = { labels: { l: "1" }, annotations: { keep: "me" } };
          const input = obj(v, spec, meta);
          const shared = convert(input, av(w), c, { share: true });
          expect(shared).toEqual(convert(obj(v, spec, meta), av(w), c));
          expect(input).toEqual(obj(v, spec, meta));
          if (shared.object === undefined) continue;
          const there = structuredClone(shared.object);
          expect(convert(shared.object, av(v), c, { share: true })).toEqual(convert(there, av(v), c));
          expect(shared.object).toEqual(there);
          expect(input).toEqual(obj(v, spec, meta));
        }
      }),
      { numRuns: 300 },
    );
  });
  it("gives a TypeScript spoke a copy, so one that edits its argument cannot touch the input", () => {
    const editing = defineConversion({
      group: G,
      kind: "Widget",
      hub: "v3",
      spokes: {
        v1: {
          toHub: (o) => {
            (o.spec as JsonObject).n = 1;
            return o;
          },
          fromHub: (o) => {
            delete (o.spec as JsonObject).n;
            return o;
          },
        },
      },
    });
    const input = obj("v1", { s: "a" });
    const there = to(input, "v3", editing);
    expect(there.spec).toEqual({ s: "a", n: 1 });
    expect(input.spec).toEqual({ s: "a" });
    // convert's default result is the caller's own here too, from the one copy the spoke was given
    scribble(there);
    expect(input).toEqual(obj("v1", { s: "a" }));
  });
  it("the way back edits its own copy even inside a value an earlier rule moved", () => {
    const moved = read(`apiVersion: kunion.dev/v1alpha1
kind: Conversion
metadata: {name: widgets.example.com}
spec:
  group: example.com
  kind: Widget
  hub: v3
  spokes:
    v1:
      - rename: {from: spec.a, to: spec.b}
      - union: {path: spec.b.src, discriminator: type, members: {s3: S3, gcs: GCS}}
`).conversion as Conversion;
    const hub = obj("v3", { b: { src: { type: "S3", s3: { bucket: "x" } } } });
    // the conversion back to v3 sets type inside the moved value: not in the v1 object returned
    expect(to(hub, "v1", moved).spec).toEqual({ a: { src: { s3: { bucket: "x" } } } });
  });
  it("gives each output its own copy of a default value", () => {
    const c = read(DECL.replace("default: {path: spec.z, value: 1}", "default: {path: spec.z, value: {a: 1}}"))
      .conversion as Conversion;
    const first = to(obj("v1", {}), "v3", c);
    ((first.spec as JsonObject).z as JsonObject).a = 2;
    expect(to(obj("v1", {}), "v3", c).spec).toEqual({ z: { a: 1 } });
  });
});

describe("the annotation's text", () => {
  it("property: annotationBytes counts UTF-8 bytes as TextEncoder does, lone surrogates included", () => {
    const unit = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    );
    const text = fc.array(unit, { maxLength: 6 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 4 }), (entries) => {
        const annotations: JsonObject = {};
        for (const [k, v] of entries) setKey(annotations, k, v);
        const enc = new TextEncoder();
        let want = 0;
        for (const [k, v] of Object.entries(annotations)) want += enc.encode(k).length + enc.encode(v as string).length;
        expect(annotationBytes(annotations)).toBe(want);
      }),
    );
  });
  it("property: equal contents give equal text whatever the key order, and decode reads it back", () => {
    const reversed = (v: JsonValue): JsonValue => {
      if (Array.isArray(v)) return v.map(reversed);
      if (v === null || typeof v !== "object") return v;
      const out: JsonObject = {};
      for (const k of Object.keys(v).reverse()) setKey(out, k, reversed(v[k] as JsonValue));
      return out;
    };
    const field = fc.record(
      { path: fc.array(keys, { minLength: 1, maxLength: 3 }), value: tree, converted: tree },
      { requiredKeys: ["path"] },
    );
    fc.assert(
      fc.property(fc.uniqueArray(field, { selector: (f) => JSON.stringify(f.path), maxLength: 4 }), (lost) => {
        const flipped = lost
          .map((f) => {
            const g: LostField = { path: f.path };
            if (f.value !== undefined) g.value = reversed(f.value);
            if (f.converted !== undefined) g.converted = reversed(f.converted);
            return g;
          })
          .reverse();
        const text = encode(av("v1"), lost, "earlier", true);
        expect(encode(av("v1"), flipped, "earlier", true)).toBe(text);
        const d = decode(text);
        if (typeof d === "string") throw new Error(d);
        expect(d.apiVersion).toBe(av("v1"));
        expect(d.previous).toBe("earlier");
        expect(d.keepEmpty).toBe(true);
        expect(d.lost).toHaveLength(lost.length);
        for (const f of lost) expect(d.lost).toContainEqual(f);
      }),
    );
  });
});

describe("the round trip compared along the written paths", () => {
  const byPath = (lost: LostField[]) =>
    lost.map((f) => [JSON.stringify(f.path), f] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  it("property: finds what the whole walk finds, the way there sharing its input or on a whole copy", () => {
    fc.assert(
      fc.property(specArb, fc.constantFrom("v1", "v2"), fc.boolean(), (spec, version, toHub) => {
        const d = declaredRules(plain.spokes.get(version) as never);
        if (d === undefined) throw new Error(`${version} is not a declared spoke`);
        const input = obj(toHub ? version : "v3", spec);
        for (const own of [false, true]) {
          let back: JsonObject;
          try {
            const there = applyRules(d, toHub, own ? clone(input) : copyForWriting(input, d.trie), input);
            back = applyRules(d, !toHub, copyForWriting(there, d.trie), there);
          } catch (e) {
            // a union with two members set, a CEL error: refused before any comparison
            if (e instanceof ConvertError) continue;
            throw e;
          }
          expect(byPath(lostFields(input, back, d.trie))).toEqual(byPath(lostFields(input, back)));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
