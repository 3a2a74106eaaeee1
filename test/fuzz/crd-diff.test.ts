/**
 * Fuzzing CRD evolution and CRD schemas: the example CRDs and generated
 * mutations of them (types changed, properties removed, enums changed,
 * x-kubernetes-* extensions of the wrong type, CEL rules generated from a
 * grammar or plain garbage, versions toggled), diffed in pairs by
 * `crd-diff`, used to validate their objects, and checked as a pull request.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, it } from "vitest";
import { stringify } from "yaml";
import { type JsonObject, type JsonValue, parseSource } from "../../src/index.js";
import { copy, jsonValue, mutate, mutations, objectOf, type Path, put, scalar } from "./arbitraries.js";
import { checksChanges, checksFiles, diffsCrds } from "./faces.js";
import { params, testTimeout } from "./harness.js";

const read = (file: string) => readFileSync(join(import.meta.dirname, file), "utf8");
const valuesOf = (file: string) => parseSource(read(file), file).documents.map((d) => d.value as JsonObject);
const backups = valuesOf("../../examples/crds/backups.kunion.dev.yaml")[0] as JsonObject;
const cronjobs = valuesOf("cronjob-crd.yaml")[0] as JsonObject;
const declaration = read("../../examples/conversions/cronjob.yaml");

/** Custom resources of each CRD, valid to start with. */
const resources = new Map<JsonObject, JsonObject[]>([
  [
    backups,
    [
      ...valuesOf("../../examples/manifests/backups.yaml"),
      ...valuesOf("../../examples/manifests/backups-invalid.yaml"),
    ],
  ],
  [
    cronjobs,
    [
      {
        apiVersion: "batch.tutorial.kubebuilder.io/v1",
        kind: "CronJob",
        metadata: { name: "c", namespace: "default" },
        spec: { schedule: "*/1 * * * *", concurrencyPolicy: "Allow", jobTemplate: { spec: {} } },
      },
      {
        apiVersion: "batch.tutorial.kubebuilder.io/v2",
        kind: "CronJob",
        metadata: { name: "c", namespace: "default" },
        spec: { schedule: { minute: "*/1" }, suspend: false },
      },
    ],
  ],
]);

// CEL rules: a small grammar over the fields the example schemas have, with the library functions
// Kubernetes adds and the constructs that cost the most; and garbage.
const field = fc.constantFrom("spec", "destination", "type", "s3", "schedule", "cron", "minute", "retention", "x");
const celLiteral = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000 }).map(String),
  fc.constantFrom("'a'", "''", "'S3'", '"\\u00e9"', "b'x'", "1.5", "true", "null", "[1, 2, 3]", "{'a': 1}", "1u"),
  fc.constantFrom("'a'.repeat(10)", "'x' * 3", "[1,2,3,4,5,6,7,8,9,10]", "'0 3 * * *'", "'1Gi'", "'10.0.0.0/8'"),
);
const cel: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("self", "oldSelf", "self.spec", "self.type", "self.x", "true", "false"),
    field.map((f) => `self.${f}`),
    field.map((f) => `has(self.${f})`),
    field.map((f) => `self.?${f}.orValue('')`),
    celLiteral,
    tie("e").map((e) => `!${e}`),
    tie("e").map((e) => `-${e}`),
    fc
      .tuple(tie("e"), fc.constantFrom("==", "!=", "<", "<=", "+", "-", "*", "/", "%", "&&", "||", "in"), tie("e"))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([a, b, c]) => `${a} ? ${b} : ${c}`),
    fc
      .tuple(
        tie("e"),
        fc.constantFrom(
          "size()",
          "lowerAscii()",
          "trim()",
          "reverse()",
          "sum()",
          "isSorted()",
          "min()",
          "indexOf('a')",
        ),
      )
      .map(([e, m]) => `${e}.${m}`),
    fc
      .tuple(tie("e"), fc.constantFrom("startsWith", "contains", "matches", "split", "join", "endsWith"), tie("e"))
      .map(([e, m, a]) => `${e}.${m}(${a})`),
    fc
      .tuple(tie("e"), fc.constantFrom("all", "exists", "exists_one", "map", "filter"), tie("e"))
      .map(([e, m, body]) => `${e}.${m}(x, ${body})`),
    fc
      .tuple(
        fc.constantFrom("size", "string", "int", "double", "quantity", "isQuantity", "url", "ip", "cidr", "duration"),
        tie("e"),
      )
      .map(([f, a]) => `${f}(${a})`),
    fc.tuple(tie("e"), tie("e")).map(([a, b]) => `cel.bind(v, ${a}, ${b})`),
    // Lists of lists of lists: what a runaway rule looks like, stopped by the cost limit.
    fc.nat({ max: 4 }).map((n) => `${"[1,2,3,4,5,6,7,8,9,10].map(x, ".repeat(n + 1)}x${")".repeat(n + 1)}.size() > 0`),
    fc.constantFrom(
      "self.s.replace('a', 'aaaaaaaaaa')",
      "self.s.split('')",
      "'%s'.format([self])",
      "self.matches('^(a+)+$')",
    ),
  ),
})).e;
const garbage = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc
    .array(fc.constantFrom("self", ".", "(", ")", "[", "]", "has", "'", "?", ":", "x", "1", ",", "!", "=="), {
      maxLength: 15,
    })
    .map((t) => t.join("")),
  scalar,
);
const rule = fc.record(
  {
    rule: fc.oneof({ weight: 3, arbitrary: cel }, { weight: 1, arbitrary: garbage }),
    message: fc.oneof(fc.string({ maxLength: 10 }), scalar),
    messageExpression: fc.oneof(cel, garbage),
    reason: fc.constantFrom("FieldValueInvalid", "FieldValueForbidden", "Nope", ""),
    fieldPath: fc.constantFrom(".spec", ".x", "spec", "['a']", ""),
    optionalOldSelf: fc.oneof(fc.boolean(), scalar),
  },
  { requiredKeys: ["rule"] },
);

/** A small schema to add or nest. */
const schema: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>(
    { type: "string" },
    { type: "integer", minimum: 0 },
    { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
    { "x-kubernetes-int-or-string": true },
    { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    {},
  ),
  jsonValue,
);

/** A change to one schema node: the keywords a CRD author changes, given right or wrong values. */
const schemaChange = fc.oneof(
  fc.tuple(
    fc.constant("type"),
    fc.constantFrom<JsonValue>(
      "string",
      "integer",
      "number",
      "boolean",
      "object",
      "array",
      "null",
      "",
      7,
      ["string"],
      null,
    ),
  ),
  fc.tuple(fc.constantFrom("enum", "required"), fc.oneof(fc.array(scalar, { maxLength: 4 }), scalar)),
  fc.tuple(
    fc.constantFrom("x-kubernetes-validations"),
    fc.oneof(fc.array(rule, { minLength: 1, maxLength: 3 }), jsonValue),
  ),
  fc.tuple(
    fc.constantFrom(
      "x-kubernetes-preserve-unknown-fields",
      "x-kubernetes-int-or-string",
      "x-kubernetes-embedded-resource",
      "x-kubernetes-list-type",
      "x-kubernetes-list-map-keys",
      "x-kubernetes-map-type",
      "x-kubernetes-unions",
      "nullable",
    ),
    fc.oneof(fc.constantFrom<JsonValue>(true, false, "atomic", "set", "map", "granular", ["name"], [], [7]), jsonValue),
  ),
  fc.tuple(
    fc.constantFrom("format", "pattern"),
    fc.constantFrom<JsonValue>("int32", "int64", "date-time", "byte", "uuid", "nope", "(", "^(a+)+$", "(?=a)", "\\", 7),
  ),
  fc.tuple(
    fc.constantFrom(
      "minimum",
      "maximum",
      "multipleOf",
      "minLength",
      "maxLength",
      "minItems",
      "maxItems",
      "maxProperties",
    ),
    fc.oneof(fc.constantFrom<JsonValue>(0, -1, 0.5, 1e308, 2 ** 53, "1"), scalar),
  ),
  fc.tuple(fc.constantFrom("default", "example"), jsonValue),
  fc.tuple(fc.constantFrom("items", "additionalProperties", "not"), fc.oneof(schema, fc.boolean())),
  fc.tuple(fc.constantFrom("allOf", "anyOf", "oneOf"), fc.oneof(fc.array(schema, { maxLength: 3 }), jsonValue)),
  fc.tuple(
    fc.constantFrom("properties"),
    fc.oneof(fc.array(fc.tuple(field, schema), { maxLength: 3 }).map(objectOf), scalar),
  ),
  fc.tuple(fc.constant("remove a property"), fc.constant(null)),
  fc.tuple(
    fc.constant("remove the keyword"),
    fc.constantFrom("type", "enum", "required", "properties", "items", "x-kubernetes-validations"),
  ),
);

/** Changes to the CRD around its schemas: versions served, stored, renamed, removed; names and scope. */
const crdChange = fc.oneof(
  fc.tuple(fc.constantFrom("served", "storage", "deprecated"), fc.oneof(fc.boolean(), scalar)),
  fc.tuple(fc.constant("name"), fc.constantFrom<JsonValue>("v1", "v2", "v1beta1", "v3", "", "V1", 1)),
  fc.tuple(fc.constantFrom("remove version", "duplicate version", "reverse versions"), fc.constant(null)),
  fc.tuple(
    fc.constantFrom("group", "scope", "kind", "plural"),
    fc.constantFrom<JsonValue>("example.com", "Cluster", "Namespaced", "Thing", "", 0),
  ),
  fc.tuple(
    fc.constant("conversion"),
    fc.constantFrom<JsonValue>({ strategy: "None" }, { strategy: "Webhook" }, "x", null),
  ),
);

type Change = { schema: boolean; pick: number; version: number; change: [string, JsonValue] };
const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ schema: fc.constant(true), pick: fc.nat(), version: fc.nat(), change: schemaChange }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ schema: fc.constant(false), pick: fc.nat(), version: fc.nat(), change: crdChange }),
  },
);

const isMapping = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
const at = (v: JsonValue, path: Path): JsonValue | undefined =>
  path.reduce<JsonValue | undefined>((cur, seg) => (cur as Record<string | number, JsonValue> | undefined)?.[seg], v);

/** The schema nodes of a version: the root and everything under properties, items and additionalProperties. */
function schemaNodes(root: JsonValue): JsonObject[] {
  const nodes: JsonObject[] = [];
  const walk = (n: JsonValue | undefined) => {
    if (!isMapping(n) || nodes.length > 500) return;
    nodes.push(n);
    if (isMapping(n.properties)) for (const k of Object.keys(n.properties)) walk(n.properties[k]);
    walk(n.items);
    walk(n.additionalProperties);
  };
  walk(root);
  return nodes;
}

function apply(crd: JsonObject, c: Change): void {
  const spec = crd.spec;
  if (!isMapping(spec)) return;
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const version = versions[c.version % Math.max(versions.length, 1)];
  const [what, generated] = c.change;
  // Generated values, constants among them, are shared between cases: put copies.
  const value = copy(generated);
  if (!c.schema) {
    if (what === "remove version") versions.splice(c.version % Math.max(versions.length, 1), 1);
    else if (what === "duplicate version" && version !== undefined) versions.push(copy(version));
    else if (what === "reverse versions") versions.reverse();
    else if (["group", "scope", "conversion"].includes(what)) put(spec, what, value);
    else if (["kind", "plural"].includes(what) && isMapping(spec.names)) put(spec.names, what, value);
    else if (isMapping(version)) put(version, what, value);
    return;
  }
  const root = isMapping(version) ? at(version, ["schema", "openAPIV3Schema"]) : undefined;
  const nodes = schemaNodes(root ?? null);
  const node = nodes[c.pick % Math.max(nodes.length, 1)];
  if (node === undefined) return;
  if (what === "remove a property") {
    const props = node.properties;
    if (isMapping(props)) delete props[Object.keys(props)[c.pick % Math.max(Object.keys(props).length, 1)] as string];
  } else if (what === "remove the keyword") delete node[value as string];
  else put(node, what, value);
}

/** A CRD with some changes, and sometimes random mutations anywhere in it. */
const mutated = (base: JsonObject) =>
  fc
    .record({ changes: fc.array(change, { minLength: 1, maxLength: 4 }), random: fc.option(mutations, { freq: 4 }) })
    .map(({ changes, random }) => {
      const crd = copy(base);
      for (const c of changes) apply(crd, c);
      return random === null ? crd : mutate(crd, random);
    });

const text = (v: JsonValue, yaml: boolean) => (yaml ? stringify(v) : JSON.stringify(v));
const base = fc.constantFrom(backups, cronjobs);

describe("fuzz: CRD evolution and CRD schemas", () => {
  it(
    "crd-diff: a CRD and its mutation, two mutations, or two CRDs, both ways",
    () => {
      const pair = fc.oneof(
        base.chain((b) => fc.tuple(fc.constant(b), mutated(b))),
        base.chain((b) => fc.tuple(mutated(b), mutated(b))),
        fc.tuple(base.chain(mutated), base.chain(mutated)),
      );
      fc.assert(
        fc.property(pair, fc.boolean(), ([before, after], yaml) => {
          diffsCrds(text(before, yaml), text(after, yaml));
        }),
        params(150),
      );
    },
    testTimeout,
  );

  it(
    "a mutated CRD validates (and normalizes) its objects, mutated too",
    () => {
      const files = base.chain((b) =>
        fc.record({
          crd: mutated(b),
          objects: fc.array(
            fc.tuple(fc.constantFrom(...(resources.get(b) as JsonObject[])), mutations).map(([o, m]) => mutate(o, m)),
            { minLength: 1, maxLength: 3 },
          ),
          yaml: fc.boolean(),
        }),
      );
      fc.assert(
        fc.property(files, ({ crd, objects, yaml }) => {
          checksFiles({
            inputs: [{ path: "objects.yaml", text: objects.map((o) => text(o, true)).join("---\n") }],
            crds: [{ path: "crd.yaml", text: text(crd, yaml) }],
          });
        }),
        params(150),
      );
    },
    testTimeout,
  );

  it(
    "a pull request changing a CRD, its objects and, for the CronJob, its conversion",
    () => {
      const changes = base.chain((b) =>
        fc.record({
          crd: mutated(b),
          objects: fc.array(fc.constantFrom(...(resources.get(b) as JsonObject[])), { minLength: 1, maxLength: 2 }),
          random: mutations,
          conversion: fc.boolean(),
          cronjob: fc.constant(b === cronjobs),
        }),
      );
      fc.assert(
        fc.property(changes, ({ crd, objects, random, conversion, cronjob }) => {
          const manifests = objects.map((o) => stringify(o)).join("---\n");
          checksChanges([
            { path: "crd.yaml", before: stringify(cronjob ? cronjobs : backups), after: stringify(crd) },
            { path: "objects.yaml", before: manifests, after: stringify(mutate(objects[0] as JsonObject, random)) },
            ...(cronjob && conversion ? [{ path: "conversion.yaml", after: declaration }] : []),
          ]);
        }),
        params(40),
      );
    },
    testTimeout,
  );
});
