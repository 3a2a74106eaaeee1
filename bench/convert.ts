/**
 * Conversion throughput through two hops (spoke v1 → hub v2 → spoke v3), as
 * objects per second and as a ratio to a plain deep copy of the same objects,
 * the two timed pass for pass in the same run: as the webhook, /v1/convert and
 * the CLI convert (the result sharing with its input what the conversion does
 * not write), and as convert() does by default (a result all its own). The declaration is the
 * kubebuilder CronJob one (examples/conversions/cronjob.yaml) with a second
 * spoke added for the benchmark, v3, where the hub's startingDeadlineSeconds is
 * deadlineSeconds and concurrencyPolicy a struct {value}; the objects are the
 * tutorial's v1 sample with varied schedules (one in five, @hourly, is kept in
 * the annotation on the way to the hub). A third line times the same two hops with a CEL-free v1 (the schedule
 * wrapped into the hub's struct instead of parsed by CEL), so the engine's own cost is printed apart.
 * Run: npm run bench
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileExpression, evaluateExpression } from "../src/cel/index.js";
import { clone, convert, type JsonObject, type JsonValue, parseSource, readConversion } from "../src/index.js";
import { medianPair } from "./measure.js";

const corpus = process.env.KUNION_CORPUS ?? join(process.cwd(), "../shared/corpus");
const declaration = `${readFileSync("examples/conversions/cronjob.yaml", "utf8")}
    v3:
      - rename: {from: spec.deadlineSeconds, to: spec.startingDeadlineSeconds}
      - unwrap: {path: spec.concurrencyPolicy, from: value}
`;
const [doc] = parseSource(declaration, "bench.yaml").documents;
const { conversion, findings } = doc ? readConversion(doc) : { conversion: undefined, findings: [] };
if (!conversion) throw new Error(findings.map((f) => f.message).join("\n"));
// The engine without CEL: v1's rules are a wrap (the schedule's text becomes a field of the hub's struct), v3's
// the same rename and unwrap; same objects, same two hops, same final copy.
const celFreeDeclaration = `apiVersion: kunion.dev/v1alpha1
kind: Conversion
metadata: {name: cronjobs.batch.tutorial.kubebuilder.io}
spec:
  group: batch.tutorial.kubebuilder.io
  kind: CronJob
  hub: v2
  spokes:
    v1:
      - wrap: {path: spec.schedule, into: text}
    v3:
      - rename: {from: spec.deadlineSeconds, to: spec.startingDeadlineSeconds}
      - unwrap: {path: spec.concurrencyPolicy, from: value}
`;
const celFreeDoc = parseSource(celFreeDeclaration, "bench-cel-free.yaml").documents[0];
const celFree = celFreeDoc ? readConversion(celFreeDoc) : { conversion: undefined, findings: [] };
if (!celFree.conversion) throw new Error(celFree.findings.map((f) => f.message).join("\n"));
const celFreeConversion = celFree.conversion;

const sampleText = readFileSync(
  join(corpus, "kubebuilder-book/examples/multiversion-tutorial/batch_v1_cronjob.yaml"),
  "utf8",
);
const sample = parseSource(sampleText, "sample.yaml").documents[0]?.value as JsonObject;
const schedules = ["*/1 * * * *", "0 3 * * *", "@hourly", "15 */2 1 * 1-5", "0 0 1 1 *"];
const objects: JsonObject[] = Array.from({ length: 2000 }, (_, i) => {
  const o = clone(sample);
  (o.metadata as JsonObject).name = `cronjob-${i}`;
  (o.spec as JsonObject).schedule = schedules[i % schedules.length] as string;
  return o;
});
const target = "batch.tutorial.kubebuilder.io/v3";

let sink = 0;
// The v3 shape, so the benchmark never times a declaration that converts nothing.
for (const c of [conversion, celFreeConversion]) {
  const first = convert(objects[0] as JsonObject, target, c).object?.spec as JsonObject | undefined;
  if (first?.deadlineSeconds === undefined || (first.concurrencyPolicy as JsonObject | undefined)?.value === undefined)
    throw new Error(`not a v3 CronJob: ${JSON.stringify(first)}`);
}
// The floor under the conversion: the declaration's CEL alone, as the v1 → v2 step evaluates it (assert and set
// toward the hub on the v1 object, set back on the hub object).
const v1Rules = ((doc as { value: JsonObject }).value.spec as JsonObject).spokes as JsonObject;
const [assertRule, setRule] = (v1Rules.v1 as JsonObject[]).map((r) => Object.values(r)[0] as JsonObject);
const program = (text: JsonValue | undefined) => {
  const p = compileExpression(String(text)).program;
  if (p === undefined) throw new Error(`does not compile: ${text}`);
  return p;
};
const celAssert = program(assertRule?.toHub);
const celToHub = program(setRule?.toHub);
const celBack = program(setRule?.fromHub);
const hubs = objects.map((o) => convert(o, "batch.tutorial.kubebuilder.io/v2", conversion).object as JsonObject);
let failed = 0;
const [copyCelMs, celMs] = medianPair(
  () => {
    for (const o of objects) sink += Object.keys(clone(o)).length;
  },
  () => {
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i] as JsonObject;
      if (evaluateExpression(celAssert, o).error !== undefined) failed++;
      // as the set rule evaluates it: null map entries left out of the result
      if (evaluateExpression(celToHub, o, undefined, { dropNullEntries: true }).error !== undefined) failed++;
      if (evaluateExpression(celBack, hubs[i] as JsonObject).error !== undefined) failed++;
    }
  },
);
const [copyMs, convertMs] = medianPair(
  () => {
    for (const o of objects) sink += Object.keys(clone(o)).length;
  },
  () => {
    for (const o of objects) {
      const r = convert(o, target, conversion, { share: true });
      if (r.object) sink += 1;
      else failed++;
    }
  },
);
const [copyOwnMs, ownMs] = medianPair(
  () => {
    for (const o of objects) sink += Object.keys(clone(o)).length;
  },
  () => {
    for (const o of objects) {
      const r = convert(o, target, conversion);
      if (r.object) sink += 1;
      else failed++;
    }
  },
);
const [copyEngineMs, engineMs] = medianPair(
  () => {
    for (const o of objects) sink += Object.keys(clone(o)).length;
  },
  () => {
    for (const o of objects) {
      const r = convert(o, target, celFreeConversion, { share: true });
      if (r.object) sink += 1;
      else failed++;
    }
  },
);
console.log(`${objects.length} CronJobs, v1 → v2 (hub) → v3${failed > 0 ? ` (${failed} failed)` : ""}`);
console.log(`baseline: deep copy ${copyMs.toFixed(1)} ms per pass`);
console.log(
  `two-hop conversion as the webhook, /v1/convert and the CLI run it (result sharing what it does not write): ${convertMs.toFixed(1)} ms, ${Math.round((objects.length / convertMs) * 1000)} objects/s, ratio to a deep copy ${(convertMs / copyMs).toFixed(1)}`,
);
console.log(
  `two-hop conversion with a result all its own (convert's default): ${ownMs.toFixed(1)} ms, ratio to a deep copy ${(ownMs / copyOwnMs).toFixed(1)}`,
);
console.log(
  `of which the declaration's CEL alone (3 expressions per object): ${celMs.toFixed(1)} ms, ratio to a deep copy ${(celMs / copyCelMs).toFixed(1)}`,
);
console.log(
  `two-hop conversion without CEL (v1 wraps the schedule; result sharing): ${engineMs.toFixed(1)} ms, ratio to a deep copy ${(engineMs / copyEngineMs).toFixed(1)}`,
);
if (sink < 0) console.log(sink);
