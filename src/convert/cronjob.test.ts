import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCrd } from "../crd/index.js";
import { parseSource } from "../source/index.js";
import { compileSchema, validateWithSchema } from "../validate/index.js";
import { isObject, type JsonObject } from "../value/index.js";
import { ANNOTATION, convert, readConversion, roundTrip, sampleObjects } from "./index.js";

const corpus = "/work/shared/corpus/kubebuilder-book";
const load = (file: string) => {
  const { documents } = parseSource(readFileSync(file, "utf8"), file);
  return documents;
};
const crd = readCrd(
  load(`${corpus}/crds/multiversion-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml`)[0]?.value as JsonObject,
).crd;
const v1 = load(`${corpus}/examples/multiversion-tutorial/batch_v1_cronjob.yaml`)[0]?.value as JsonObject;
const v2 = load(`${corpus}/examples/multiversion-tutorial/batch_v2_cronjob.yaml`)[0]?.value as JsonObject;
const decl = load("examples/conversions/cronjob.yaml")[0];
const { conversion, findings } = readConversion(decl as never, crd);
const V1 = "batch.tutorial.kubebuilder.io/v1";
const V2 = "batch.tutorial.kubebuilder.io/v2";

const withSchedule = (s: string): JsonObject => ({ ...v1, spec: { ...(v1.spec as JsonObject), schedule: s } });

describe("kubebuilder CronJob v1 ⇄ v2", () => {
  it("reads the declaration against the CRD", () => {
    expect(findings).toEqual([]);
    expect(conversion).toBeDefined();
  });
  it("converts the corpus v1 sample to the v2 sample and back", () => {
    const r = convert(v1, V2, conversion!);
    expect(r.error).toBeUndefined();
    expect(r.object?.spec).toEqual(v2.spec);
    expect(r.object?.apiVersion).toBe(V2);
    expect(r.object?.metadata).toEqual(v1.metadata);
    const v2Schema = crd.versions.find((v) => v.name === "v2")?.openAPIV3Schema as JsonObject;
    expect(validateWithSchema(compileSchema(v2Schema).compiled, r.object as JsonObject).findings).toEqual([]);
    const back = convert(v2, V1, conversion!);
    expect(back.object?.spec).toEqual(v1.spec);
    expect(back.object?.metadata).toEqual(v2.metadata);
    expect(
      roundTrip(conversion!, [
        { apiVersion: V1, object: v1 },
        { apiVersion: V2, object: v2 },
      ]),
    ).toEqual([]);
  });
  it("keeps @hourly and double spaces in the annotation (lossless)", () => {
    for (const s of ["@hourly", "*/1  * * * *", "0 0 * * *", "* * * * *", "@daily"]) {
      const hub = convert(withSchedule(s), V2, conversion!).object!;
      expect(hub).toBeDefined();
      const back = convert(hub, V1, conversion!).object!;
      expect(back).toEqual(withSchedule(s));
    }
    const hub = convert(withSchedule("@hourly"), V2, conversion!).object!;
    expect((hub.spec as JsonObject).schedule).toEqual({ minute: "0" });
    expect(
      JSON.parse(String((hub.metadata as JsonObject & { annotations: JsonObject }).annotations[ANNOTATION])),
    ).toEqual({
      apiVersion: V1,
      lost: [{ path: ["spec", "schedule"], value: "@hourly", converted: "0 * * * *" }],
    });
  });
  it("a later change through the hub wins over the stale original in the annotation", () => {
    const hub = convert(withSchedule("@hourly"), V2, conversion!).object!;
    const edited = { ...hub, spec: { ...(hub.spec as JsonObject), schedule: { minute: "5" } } };
    expect((convert(edited, V1, conversion!).object!.spec as JsonObject).schedule).toBe("5 * * * *");
    const untouched = { ...hub, spec: { ...(hub.spec as JsonObject), startingDeadlineSeconds: 5 } };
    expect((convert(untouched, V1, conversion!).object!.spec as JsonObject).schedule).toBe("@hourly");
  });
  it("keeps an explicit '*' of v2 when going through v1", () => {
    const hub: JsonObject = { ...v2, spec: { ...(v2.spec as JsonObject), schedule: { minute: "*", hour: "1" } } };
    const spoke = convert(hub, V1, conversion!).object!;
    expect((spoke.spec as JsonObject).schedule).toBe("* 1 * * *");
    expect(convert(spoke, V2, conversion!).object).toEqual(hub);
  });
  it("fails clearly on a six-field schedule", () => {
    const r = convert(withSchedule("0 */5 * * * *"), V2, conversion!);
    expect(r.error).toMatch(
      /CronJob cronjob-sample: converting .*\/v1 to .*\/v2: spec.schedule is not a standard 5-field schedule/,
    );
  });
  it("property: spoke → hub → spoke and hub → spoke → hub are identity", () => {
    const field = fc.oneof(fc.constant("*"), fc.constantFrom("*/1", "0", "5", "1-5", "*/15", "MON", "1,2"));
    const sched = fc.oneof(
      fc
        .tuple(field, field, field, field, field, fc.constantFrom(" ", "  "))
        .map(([a, b, c, d, e, sep]) => [a, b, c, d, e].join(sep)),
      fc.constantFrom("@hourly", "@daily", "@weekly", "@monthly", "@yearly", "@annually", "@midnight"),
    );
    fc.assert(
      fc.property(sched, (s) => roundTrip(conversion!, [{ apiVersion: V1, object: withSchedule(s) }]).length === 0),
      { numRuns: 500 },
    );
    const hubField = fc.option(fc.constantFrom("*", "*/1", "0", "1-5", "MON"), { nil: undefined });
    fc.assert(
      fc.property(fc.tuple(hubField, hubField, hubField, hubField, hubField), (fs) => {
        const schedule: JsonObject = {};
        ["minute", "hour", "dayOfMonth", "month", "dayOfWeek"].forEach((k, i) => {
          if (fs[i] !== undefined) schedule[k] = fs[i] as string;
        });
        const hub = { ...v2, spec: { ...(v2.spec as JsonObject), schedule } };
        return roundTrip(conversion!, [{ apiVersion: V2, object: hub }]).length === 0;
      }),
      { numRuns: 500 },
    );
  });
  it("generated samples of both versions survive the round trip", () => {
    const cron = ["*/1 * * * *", "0 1 * * MON", "@hourly"];
    const v1s = sampleObjects(crd, "v1", 50, 7).map((o, i) => {
      (o.spec as JsonObject).schedule = cron[i % cron.length] as string;
      return { apiVersion: V1, object: o };
    });
    const v2s = sampleObjects(crd, "v2", 50, 11).map((o) => ({ apiVersion: V2, object: o }));
    expect(v2s.every((s) => isObject((s.object.spec as JsonObject).schedule))).toBe(true);
    expect(roundTrip(conversion!, [...v1s, ...v2s])).toEqual([]);
  });
});
