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
 * Each figure is the median over KUNION_CONVERT_RUNS (default 3) processes, its range beside it: the same code
 * measures ±0.4 apart from one process to the next (heap layout, compiled code), more than the margins it decides.
 * Run: npm run bench
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileExpression, evaluateExpression } from "../src/cel/index.js";
import { clone, convert, type JsonObject, type JsonValue, parseSource, readConversion } from "../src/index.js";
import { medianPair } from "./measure.js";

interface Round {
  objects: number;
  failed: number;
  copyMs: number;
  perSecond: number;
  /** ratios to a deep copy timed pass for pass with each */
  shared: number;
  owned: number;
  cel: number;
  celFree: number;
}

if (process.env.KUNION_CONVERT_ROUND === undefined) {
  const runs = Number(process.env.KUNION_CONVERT_RUNS ?? 3);
  const rounds: Round[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [process.argv[1] as string], {
      env: { ...process.env, KUNION_CONVERT_ROUND: String(i) },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`bench/convert round ${i} failed:\n${r.stderr}`);
    rounds.push(JSON.parse(r.stdout) as Round);
  }
  const sorted = (k: keyof Round) => rounds.map((r) => r[k]).sort((a, b) => a - b);
  const median = (k: keyof Round) => sorted(k)[Math.floor(runs / 2)] as number;
  const figure = (k: keyof Round) => {
    const xs = sorted(k);
    return `${median(k).toFixed(1)} (${(xs[0] as number).toFixed(1)}–${(xs[xs.length - 1] as number).toFixed(1)})`;
  };
  const failed = Math.max(...rounds.map((r) => r.failed));
  console.log(
    `${median("objects")} CronJobs, v1 → v2 (hub) → v3${failed > 0 ? ` (${failed} failed)` : ""}; ratios to a deep copy timed pass for pass with each, medians of ${runs} processes (range)`,
  );
  console.log(`baseline: deep copy ${median("copyMs").toFixed(1)} ms per pass`);
  console.log(
    `two-hop conversion as the webhook, /v1/convert and the CLI run it (result sharing what it does not write): ${Math.round(median("perSecond"))} objects/s, ratio to a deep copy ${figure("shared")}`,
  );
  console.log(
    `two-hop conversion with a result all its own (convert's default): ratio to a deep copy ${figure("owned")}`,
  );
  console.log(`of which the declaration's CEL alone (3 expressions per object): ratio to a deep copy ${figure("cel")}`);
  console.log(
    `two-hop conversion without CEL (v1 wraps the schedule; result sharing): ratio to a deep copy ${figure("celFree")}`,
  );
  process.exit(0);
}

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
const deepCopy = () => {
  for (const o of objects) sink += Object.keys(clone(o)).length;
};
/** Two hops over every object with `c`, as the webhook runs them (`share`) or as convert's default does. */
const hops = (c: typeof conversion, share: boolean) => () => {
  for (const o of objects) {
    const r = convert(o, target, c, { share });
    if (r.object) sink += 1;
    else failed++;
  }
};
const [copyMs, convertMs] = medianPair(deepCopy, hops(conversion, true));
const [copyOwnMs, ownMs] = medianPair(deepCopy, hops(conversion, false));
const [copyEngineMs, engineMs] = medianPair(deepCopy, hops(celFreeConversion, true));
const round: Round = {
  objects: objects.length,
  failed,
  copyMs,
  perSecond: (objects.length / convertMs) * 1000,
  shared: convertMs / copyMs,
  owned: ownMs / copyOwnMs,
  cel: celMs / copyCelMs,
  celFree: engineMs / copyEngineMs,
};
process.stdout.write(`${JSON.stringify(round)}\n`);
if (sink < 0) console.error(sink);
