/**
 * Fuzzing conversion: the CronJob declaration of examples/conversions (with
 * and without its CRD, cronjob-crd.yaml here) converting generated CronJobs
 * of every version to every version; hostile `kunion.dev/conversion-data`
 * annotations; ConversionReview bodies as the API server would post them;
 * and mutated declarations, read and round-trip checked.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANNOTATION } from "../../src/convert/index.js";
import {
  type Converters,
  convert,
  convertersFor,
  handleConversionReview,
  type JsonObject,
  type JsonValue,
  loadConversions,
  parseSource,
  readCrd,
} from "../../src/index.js";
import { copy, jsonValue, mutate, mutations, objectOf, put, scalar } from "./arbitraries.js";
import { converts, readsDeclaration } from "./faces.js";
import { answer, params, testTimeout } from "./harness.js";

const declText = readFileSync(join(import.meta.dirname, "../../examples/conversions/cronjob.yaml"), "utf8");
const crdText = readFileSync(join(import.meta.dirname, "cronjob-crd.yaml"), "utf8");
const crd = readCrd(parseSource(crdText, "cronjob-crd.yaml").documents[0]?.value as JsonObject).crd;
const declaration = { path: "cronjob.yaml", text: declText };

const G = "batch.tutorial.kubebuilder.io";
const conversions = [loadConversions([declaration], [crd]), loadConversions([declaration], [])].map((r) => {
  expect(r.findings).toEqual([]);
  return r.conversions[0] as NonNullable<(typeof r.conversions)[0]>;
});

// Cron fields as people write them, and as nobody should.
const cronField = fc.oneof(
  fc.constantFrom("*", "*/1", "*/15", "0", "5", "59", "1-5", "MON", "JAN", "1,2", "?", "L", "*/0", "-", ""),
  fc.string({ maxLength: 3 }),
);
const v1Schedule = fc.oneof(
  fc
    .tuple(fc.array(cronField, { minLength: 1, maxLength: 7 }), fc.constantFrom(" ", "  ", "\t", " \t "))
    .map(([fields, sep]) => fields.join(sep)),
  fc.constantFrom("@hourly", "@daily", "@weekly", "@monthly", "@yearly", "@annually", "@midnight", "@every 1h", "@"),
  fc.string({ maxLength: 20 }),
  scalar,
);
const fieldNames = ["minute", "hour", "dayOfMonth", "month", "dayOfWeek"] as const;
const v2Schedule = fc.oneof(
  fc
    .tuple(
      fc.array(fc.option(cronField, { nil: undefined }), { minLength: 5, maxLength: 5 }),
      fc.array(fc.tuple(fc.constantFrom(...fieldNames, "second", "__proto__"), scalar), { maxLength: 2 }),
    )
    .map(([fields, odd]) =>
      objectOf([
        ...fields.flatMap(
          (f, i): Array<[string, JsonValue]> => (f === undefined ? [] : [[fieldNames[i] as string, f]]),
        ),
        ...odd,
      ]),
    ),
  jsonValue,
);

const apiVersion = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(`${G}/v1`, `${G}/v2`) },
  { weight: 1, arbitrary: fc.constantFrom(`${G}/v3`, "v1", "", `other.io/v1`, `${G}/`, `${G}/v1/x`) },
);
/** Where to convert to: mostly the other version (the same one is the identity), sometimes nowhere known. */
const target = fc.oneof(
  { weight: 6, arbitrary: fc.constant("other") },
  { weight: 1, arbitrary: fc.constantFrom(`${G}/v1`, `${G}/v2`) },
  { weight: 1, arbitrary: fc.constantFrom(`${G}/v3`, "v2", "", `other.io/v2`, `/v2`) },
);
const resolve = (to: string, object: JsonObject) =>
  to !== "other" ? to : object.apiVersion === `${G}/v1` ? `${G}/v2` : `${G}/v1`;

/** A CronJob of some version, with optional fields, unknown fields, and random mutations on top. */
const cronJob = fc
  .record({
    apiVersion,
    kind: fc.oneof({ weight: 9, arbitrary: fc.constant("CronJob") }, { weight: 1, arbitrary: scalar }),
    name: fc.option(fc.constantFrom("c", "x-1", ""), { nil: undefined }),
    labels: fc.option(fc.constant({ app: "c" }), { nil: undefined }),
    v1: v1Schedule,
    v2: v2Schedule,
    optional: fc.record(
      {
        startingDeadlineSeconds: fc.oneof(fc.integer(), scalar),
        concurrencyPolicy: fc.constantFrom("Allow", "Forbid", "Replace", "Never"),
        suspend: fc.boolean(),
        jobTemplate: jsonValue,
        unknownField: jsonValue,
      },
      { requiredKeys: [] },
    ),
    noSchedule: fc.nat(9),
    random: fc.option(mutations, { nil: undefined, freq: 3 }),
  })
  .map((r) => {
    const spec = objectOf(Object.entries(r.optional) as Array<[string, JsonValue]>);
    if (r.noSchedule > 0) put(spec, "schedule", String(r.apiVersion).endsWith("/v2") ? r.v2 : r.v1);
    const metadata = objectOf([
      ...(r.name === undefined ? [] : [["name", r.name] as [string, JsonValue]]),
      ["namespace", "default"],
      ...(r.labels === undefined ? [] : [["labels", r.labels] as [string, JsonValue]]),
    ]);
    const object = objectOf([
      ["apiVersion", r.apiVersion],
      ["kind", r.kind],
      ["metadata", metadata],
      ["spec", spec],
    ]);
    return r.random === undefined ? object : mutate(object, r.random);
  });

const isMapping = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** The object without the engine's own annotation: a round trip starts from what a user wrote. */
function withoutConversionData(object: JsonObject): JsonObject {
  const meta = object.metadata;
  if (isMapping(meta) && isMapping(meta.annotations)) delete meta.annotations[ANNOTATION];
  return object;
}

/** What could be in the annotation: garbage, JSON of the wrong shape, and lost fields at hostile paths. */
const conversionData = fc.oneof(
  fc.string({ maxLength: 30 }),
  jsonValue.map((v) => JSON.stringify(v)),
  fc
    .record({
      apiVersion: fc.oneof(fc.constantFrom(`${G}/v1`, `${G}/v2`), scalar),
      lost: fc.oneof(
        fc.array(
          fc.record(
            {
              path: fc.oneof(
                fc.constantFrom(["__proto__", "polluted"], ["constructor", "prototype", "polluted"], ["spec"], []),
                fc.array(fc.constantFrom("spec", "schedule", "metadata", "annotations", "__proto__", "x"), {
                  maxLength: 4,
                }),
                jsonValue,
              ),
              value: jsonValue,
              converted: jsonValue,
            },
            { requiredKeys: ["path"] },
          ),
          { maxLength: 3 },
        ),
        jsonValue,
      ),
      previous: fc.option(fc.oneof(fc.string({ maxLength: 10 }), scalar), { nil: undefined }),
    })
    .map((r) => JSON.stringify(r)),
  fc.constantFrom("x".repeat(300_000)),
);

describe("fuzz: convert", () => {
  it(
    "generated CronJobs convert or fail with an error, and convert back to themselves",
    () => {
      fc.assert(
        fc.property(cronJob, target, fc.nat(1), (generated, to, which) => {
          const object = withoutConversionData(copy(generated));
          converts(conversions[which] as (typeof conversions)[0], object, resolve(to, object));
        }),
        params(400),
      );
    },
    testTimeout,
  );

  it(
    "a hostile conversion-data annotation is an error or ignored, never an exception",
    () => {
      fc.assert(
        fc.property(cronJob, target, fc.nat(1), conversionData, (generated, to, which, data) => {
          const object = copy(generated);
          const meta = object.metadata;
          if (!isMapping(meta)) return;
          put(meta, "annotations", objectOf([[ANNOTATION, data]]));
          converts(conversions[which] as (typeof conversions)[0], object, resolve(to, object), { roundTrip: false });
        }),
        params(300),
      );
    },
    testTimeout,
  );

  it(
    "ConversionReview bodies, well-formed or not",
    () => {
      const conversion = conversions[0] as (typeof conversions)[0];
      const converters = convertersFor([conversion]);
      // the same conversion, given copies of the request's objects and answering results of its own
      const copyingConverters: Converters = {
        forKind(group, kind) {
          const found = converters.forKind(group, kind);
          return found && { versions: found.versions, convert: (o, to) => convert(o, to, conversion) };
        },
      };
      const review = fc
        .record({
          apiVersion: fc.constantFrom("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"),
          desired: fc.constantFrom(`${G}/v1`, `${G}/v2`, `${G}/v3`, "v1", ""),
          objects: fc.array(cronJob, { maxLength: 3 }),
          random: mutations,
        })
        .map(({ apiVersion, desired, objects, random }) =>
          mutate(
            {
              apiVersion,
              kind: "ConversionReview",
              request: { uid: "705ab4f5-6393-11e8-b7cc-42010a800002", desiredAPIVersion: desired, objects },
            },
            random,
          ),
        );
      fc.assert(
        fc.property(review, (body) => {
          // The engine's converters are given the request's own objects (they promise to leave them alone) and
          // answer results that may share with them: the review is not changed, and the answer is the one
          // converters working on copies, with results of their own, give.
          const given = JSON.stringify(body);
          const { status, body: out } = answer(() => handleConversionReview(body, converters));
          expect([200, 400]).toContain(status);
          expect(JSON.stringify(body)).toBe(given);
          const copying = answer(() => handleConversionReview(JSON.parse(given), copyingConverters));
          expect(JSON.stringify(out)).toBe(JSON.stringify(copying.body));
        }),
        params(300),
      );
    },
    testTimeout,
  );

  it(
    "mutated declarations are read into findings, and round-trip checked",
    () => {
      const decl = parseSource(declText, "cronjob.yaml").documents[0]?.value as JsonObject;
      fc.assert(
        fc.property(mutations, fc.boolean(), (random, withCrd) => {
          readsDeclaration({ path: "decl.json", text: JSON.stringify(mutate(decl, random)) }, withCrd ? [crd] : []);
        }),
        params(200),
      );
    },
    testTimeout,
  );
});
