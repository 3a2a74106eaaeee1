/**
 * The Action on a pull request of a real project: gateway-api's repository
 * (its CRDs and example manifests from ../shared/corpus, at their paths in
 * the project) in a throwaway git repository, and a head commit that edits
 * 65 of its files (10 CRDs in both channels, 55 manifests). The repository
 * is served as `origin` over file:// and each run starts from a fresh
 * checkout of the head at depth 1, as actions/checkout leaves it, so the
 * base is fetched as on a runner (less the network). The Action runs as the
 * runner runs it (a whole process of the bundle built from the current
 * source, dist/bench/kunion-action.js), interleaved with a baseline process
 * that does the least any such check must: fetch the base, `git diff
 * --name-only` and the changed files read and parsed with the `yaml` package
 * (this file, run with `--baseline`). Medians of wall time and CPU time (the
 * process and the git processes it waits for, the serving side of a fetch
 * included), and how much of the Action's is git: the wall time of its git
 * calls and their CPU time, from a preload that times them.
 *
 * KUNION_ACTION_RUNS sets the number of interleaved runs (default 5);
 * KUNION_ACTION_COMPARE, another bundle to measure alike (before and after);
 * KUNION_ACTION_PROFILE, a directory: after the measured runs, each bundle
 * runs once more under `node --cpu-prof` and leaves its profile there.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { parseAllDocuments } from "yaml";
import { initRepository } from "../src/checkout/testing.js";

/** CPU milliseconds of this process's waited-for children so far (utime and stime of the reaped ones). */
function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 (cutime, cstime) in clock ticks of 10 ms.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

if (process.argv[2] === "--baseline") {
  // The baseline: the base fetched, which files changed (a depth-1 checkout has no merge base), each read and parsed.
  const base = process.argv[3] as string;
  execFileSync("git", ["fetch", "-q", "--no-tags", "--depth=1", "origin", base]);
  const names = execFileSync("git", ["diff", "--name-only", "-z", base, "HEAD", "--"], {
    encoding: "utf8",
  });
  let documents = 0;
  for (const path of names.split("\0").filter((p) => /\.(ya?ml|json)$/.test(p))) {
    for (const doc of parseAllDocuments(readFileSync(path, "utf8"), { logLevel: "error" })) {
      if ("toJS" in doc) doc.toJS({ maxAliasCount: -1 });
      documents++;
    }
  }
  process.stdout.write(`${documents} documents\n`);
  process.exit(0);
}

const root = join(import.meta.dirname, "../..");
const project = join(root, "../shared/corpus/gateway-api");
if (!existsSync(project)) {
  console.log("bench/action: ../shared/corpus/gateway-api is absent; nothing to measure");
  process.exit(0);
}
const runs = Number(process.env.KUNION_ACTION_RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), "kunion-bench-action-"));
const ws = join(dir, "ws");
mkdirSync(ws);

// The base: every corpus file at its path in the project.
const files = readFileSync(join(project, "FILES.tsv"), "utf8")
  .split("\n")
  .slice(1)
  .filter(Boolean)
  .map((row) => row.split("\t") as [string, string]);
for (const [from, to] of files) {
  mkdirSync(dirname(join(ws, to)), { recursive: true });
  cpSync(join(project, from), join(ws, to));
}
const git = initRepository(ws);
git("add", "-A");
git("commit", "-q", "-m", "base");
const baseSha = git("rev-parse", "HEAD");

// The head: a release's edits to five CRDs in both channels, and a port or a name changed in 55 manifests.
const paths = files.map(([, to]) => to).sort();
const crdNames = ["gateways", "httproutes", "grpcroutes", "referencegrants", "backendtlspolicies"];
const crds = paths.filter(
  (p) => p.startsWith("config/crd/") && crdNames.some((n) => p.endsWith(`_${n}.yaml`)) && !p.includes("vap"),
);
const manifests = paths.filter((p) => !p.startsWith("config/crd/") && /\.ya?ml$/.test(p));
const edited = manifests.filter((_, i) => i % Math.floor(manifests.length / 55) === 0).slice(0, 55);
const edit = (path: string, change: (text: string) => string) => {
  const text = readFileSync(join(ws, path), "utf8");
  const changed = change(text);
  if (changed === text) throw new Error(`bench/action: no edit made to ${path}`);
  writeFileSync(join(ws, path), changed);
};
for (const path of crds) {
  edit(path, (t) =>
    t
      .replace("bundle-version: v0.0.0-dev", "bundle-version: v1.5.0")
      .replace(/(\n {14}description: )([^\n]+)/, "$1$2 It is documented in the release notes."),
  );
}
for (const path of edited) {
  edit(path, (t) =>
    /port: \d+/.test(t)
      ? t.replace(/port: (\d+)/, (_, n) => `port: ${Number(n) + 1}`)
      : t.replace(/\n {2}name: ([\w.-]+)/, "\n  name: $1-v2"),
  );
}
git("add", "-A");
git("commit", "-q", "-m", "head");
const headSha = git("rev-parse", "HEAD");
const changedCount = git("diff", "--name-only", baseSha, headSha).split("\n").length;

// The project as the runner reaches it: `origin`, which lets a fetch name any commit, as GitHub does.
const origin = join(dir, "origin.git");
execFileSync("git", ["clone", "-q", "--bare", ws, origin]);
execFileSync("git", ["-C", origin, "config", "uploadpack.allowAnySHA1InWant", "true"]);
const checkout = join(dir, "checkout");
/** A fresh checkout of the head at depth 1, where each run starts (a run's fetch leaves the base behind). */
function freshCheckout(): void {
  rmSync(checkout, { recursive: true, force: true });
  execFileSync("git", ["clone", "-q", "--depth=1", "--no-tags", `file://${origin}`, checkout]);
}

// Preloaded into the Action's process: its own CPU time, and the wall and CPU time of the git it runs.
const preload = `
import cp from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const git = { ms: 0, calls: 0 };
for (const name of ["execFileSync", "spawnSync"]) {
  const original = cp[name];
  cp[name] = function (file, ...rest) {
    if (file !== "git") return original.call(this, file, ...rest);
    const t = performance.now();
    try { return original.call(this, file, ...rest); } finally { git.ms += performance.now() - t; git.calls++; }
  };
}
syncBuiltinESMExports();
process.on("exit", () => {
  const u = process.resourceUsage();
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  writeFileSync(process.env.KUNION_USAGE_FILE, JSON.stringify({
    ownCpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, gitCpuMs: (Number(f[13]) + Number(f[14])) * 10,
    gitMs: git.ms, gitCalls: git.calls,
  }));
});`;

interface Usage {
  wallMs: number;
  /** The process and every process it waited for. */
  cpuMs: number;
  ownCpuMs?: number;
  gitCpuMs?: number;
  gitMs?: number;
  gitCalls?: number;
  /** The Action's line saying what it checked. */
  log?: string;
}

const usageFile = join(dir, "usage.json");
function measure(args: string[], env: Record<string, string>, exitCodes: number[]): Usage {
  freshCheckout();
  writeFileSync(usageFile, "{}");
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd: checkout,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 28,
  });
  const wallMs = performance.now() - started;
  if (!exitCodes.includes(r.status ?? -1)) {
    throw new Error(
      `${args.join(" ")} exited ${r.status}: ${String(r.stderr).slice(0, 500)}${String(r.stdout).slice(-2000)}`,
    );
  }
  const log = /^kunion: .*$/m.exec(String(r.stdout))?.[0];
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore, log, ...JSON.parse(readFileSync(usageFile, "utf8")) };
}

/** The environment the runner gives a step on a pull request event, with fresh summary and output files. */
function runnerEnvironment(): Record<string, string> {
  const event = {
    number: 7,
    pull_request: {
      number: 7,
      base: { ref: "main", sha: baseSha },
      head: { ref: "feature", sha: headSha, repo: { full_name: "acme/gateway-api" } },
    },
    repository: { full_name: "acme/gateway-api" },
  };
  writeFileSync(join(dir, "event.json"), JSON.stringify(event));
  writeFileSync(join(dir, "summary.md"), "");
  writeFileSync(join(dir, "output.txt"), "");
  return {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: join(dir, "event.json"),
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_OUTPUT: join(dir, "output.txt"),
    GITHUB_WORKSPACE: checkout,
    GITHUB_REPOSITORY: "acme/gateway-api",
    GITHUB_API_URL: "http://127.0.0.1:9",
    GITHUB_SHA: headSha,
    RUNNER_TEMP: dir,
    INPUT_TOKEN: "",
    KUNION_USAGE_FILE: usageFile,
  };
}

// KUNION_ACTION_COMPARE names another bundle (the committed action/dist/index.js, an older build) measured alike.
const bundles = [
  { name: "the Action (this source)", path: join(root, "dist/bench/kunion-action.js"), runs: [] as Usage[] },
  ...(process.env.KUNION_ACTION_COMPARE
    ? [
        {
          name: `the Action (${basename(process.env.KUNION_ACTION_COMPARE)})`,
          path: process.env.KUNION_ACTION_COMPARE,
          runs: [] as Usage[],
        },
      ]
    : []),
];
const baseline: Usage[] = [];
for (let i = 0; i < runs; i++) {
  baseline.push(measure([import.meta.filename, "--baseline", baseSha], { PATH: process.env.PATH ?? "" }, [0]));
  for (const b of bundles) {
    // The step fails on error findings (exit 1).
    const args = ["--import", `data:text/javascript,${encodeURIComponent(preload)}`, b.path];
    b.runs.push(measure(args, runnerEnvironment(), [0, 1]));
  }
}
const profiles = process.env.KUNION_ACTION_PROFILE;
if (profiles) {
  // Apart from the measured runs: the profiler slows the process it watches.
  mkdirSync(profiles, { recursive: true });
  for (const [i, b] of bundles.entries()) {
    const args = ["--cpu-prof", "--cpu-prof-dir", profiles, "--cpu-prof-name", `action-${i}.cpuprofile`, b.path];
    measure(args, runnerEnvironment(), [0, 1]);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const figure = (xs: Usage[], k: Exclude<keyof Usage, "log">) => median(xs.map((u) => u[k] ?? 0));
const ms = (n: number) => `${n.toFixed(0).padStart(6)} ms`;
const row = (name: string, xs: Usage[]) =>
  `${name.padEnd(34)} wall ${ms(figure(xs, "wallMs"))}  cpu ${ms(figure(xs, "cpuMs"))}`;
console.log(
  `the Action on a pull request of gateway-api changing ${changedCount} files (${crds.length} CRDs, ${edited.length} manifests), medians of ${runs} interleaved runs`,
);
console.log(row("git diff + read + parse (yaml)", baseline));
for (const b of bundles) {
  console.log(row(b.name, b.runs));
  console.log(`  ${b.runs[0]?.log}`);
  console.log(
    `  of which git: ${figure(b.runs, "gitCalls")} calls, wall ${ms(figure(b.runs, "gitMs"))}, cpu ${ms(figure(b.runs, "gitCpuMs"))}; the Action's own cpu ${ms(figure(b.runs, "ownCpuMs"))}`,
  );
  console.log(
    `  ratio: wall ${(figure(b.runs, "wallMs") / figure(baseline, "wallMs")).toFixed(2)}x, cpu ${(figure(b.runs, "cpuMs") / figure(baseline, "cpuMs")).toFixed(2)}x the baseline`,
  );
}
if (profiles)
  console.log(
    `profiles (node --cpu-prof): ${bundles.map((_, i) => join(profiles, `action-${i}.cpuprofile`)).join(", ")}`,
  );
rmSync(dir, { recursive: true, force: true });
