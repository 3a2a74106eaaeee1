/**
 * Cold runs, as users start them: whole processes of `kunion validate` over
 * the corpus (every CRD, every example), interleaved with a process that only
 * reads and parses the same files with the `yaml` package (bench/parse-only.ts).
 * CPU time (user + system) and peak memory of each process, medians; the
 * figures are the ratios between the two, measured in the same run.
 *
 * KUNION_COLD_RUNS sets the number of interleaved pairs (default 5).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");
const corpus = join(root, "../shared/corpus");
if (!existsSync(corpus)) {
  console.log("bench/cold: ../shared/corpus is absent; nothing to measure");
  process.exit(0);
}
const projects = [
  "argo-workflows",
  "cert-manager",
  "crossplane",
  "gateway-api",
  "kubebuilder-book",
  "prometheus-operator",
];
const folders = projects.map((p) => join(corpus, p));
const runs = Number(process.env.KUNION_COLD_RUNS ?? 5);
const usageFile = join(mkdtempSync(join(tmpdir(), "kunion-cold-")), "usage.json");

interface Usage {
  cpuMs: number;
  maxRssKiB: number;
  wallMs: number;
}

function measure(script: string, args: string[], exitCodes: number[]): Usage {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--import", join(root, "bench/usage.mjs"), script, ...args], {
    cwd: root,
    // As a CI runner starts it: without V8's code cache, which the launcher keeps between runs on one machine.
    env: { ...process.env, KUNION_USAGE_FILE: usageFile, NO_COLOR: "1", NODE_DISABLE_COMPILE_CACHE: "1" },
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  if (!exitCodes.includes(r.status ?? -1))
    throw new Error(`${script} exited ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  return { ...(JSON.parse(readFileSync(usageFile, "utf8")) as Omit<Usage, "wallMs">), wallMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const parseOnly = join(root, "dist/bench/parse-only.js");
const kunion = join(root, "dist/kunion.js");
const baseline: Usage[] = [];
const subject: Usage[] = [];
for (let i = 0; i < runs; i++) {
  baseline.push(measure(parseOnly, folders, [0]));
  // kunion exits 1 on errors: the corpus holds known-invalid files.
  subject.push(measure(kunion, ["validate", "--crd", corpus, ...folders], [0, 1]));
}
const figure = (xs: Usage[], k: keyof Usage) => median(xs.map((u) => u[k]));
const row = (name: string, xs: Usage[]) =>
  `${name.padEnd(34)} cpu ${figure(xs, "cpuMs").toFixed(0).padStart(6)} ms  wall ${figure(xs, "wallMs").toFixed(0).padStart(6)} ms  peak ${(figure(xs, "maxRssKiB") / 1024).toFixed(0).padStart(5)} MiB`;
console.log(`cold runs over ../shared/corpus (six projects), medians of ${runs} interleaved pairs`);
console.log(row("parse only (yaml package)", baseline));
console.log(row("kunion validate --crd corpus", subject));
console.log(
  `ratio: cpu ${(figure(subject, "cpuMs") / figure(baseline, "cpuMs")).toFixed(2)}x (goal <= 1.0), peak memory ${(figure(subject, "maxRssKiB") / figure(baseline, "maxRssKiB")).toFixed(2)}x (goal <= 1.5)`,
);
