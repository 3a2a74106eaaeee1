/**
 * For tests: throwaway git repositories with a base and a head commit, and
 * the Action run on them the way the runner runs it (INPUT_* variables, the
 * event payload, a step summary file and an output file): its source in this
 * process (runAction), or the committed bundle as a process (runBundle).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gitIn, initRepository } from "../src/checkout/testing.js";
import { run } from "./main.js";

const bundle = join(import.meta.dirname, "dist/index.js");

/** File contents, or `{ link: target }` for a symbolic link. */
export type Files = Record<string, string | Buffer | { link: string }>;

export function write(dir: string, files: Files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    if (typeof content === "object" && "link" in content) symlinkSync(content.link, join(dir, path));
    else writeFileSync(join(dir, path), content);
  }
}

/** A repository with a base commit and a head commit on top of it (which may also delete files). */
export function repository(base: Files, head: Files, remove: readonly string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), "kunion-action-"));
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const git = initRepository(ws);
  write(ws, { "README.md": "# demo\n", ...base });
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  const baseSha = git("rev-parse", "HEAD");
  write(ws, head);
  for (const path of remove) git("rm", "-q", "--", path);
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "-m", "head");
  return { dir, ws, baseSha, headSha: git("rev-parse", "HEAD") };
}

/** What a run gave the runner: the step's log, its exit status, the job summary and the outputs. */
export interface ActionRun {
  stdout: string;
  stderr: string;
  status: number;
  summary: string;
  outputs: Record<string, string>;
  ms: number;
}

type RunOptions = { baseSha?: string; apiUrl?: string; headRepository?: string; proxy?: string };

/**
 * The runner's side of a run on a pull request event: the event file, an
 * empty step summary and output file, and the environment the runner sets
 * (inputs as INPUT_*, upper-cased with their dashes kept).
 */
function runnerEnvironment(
  repo: ReturnType<typeof repository>,
  inputs: Record<string, string>,
  options: RunOptions,
): Record<string, string> {
  const { dir, ws } = repo;
  const event = {
    action: "synchronize",
    number: 7,
    pull_request: {
      number: 7,
      base: { ref: "main", sha: options.baseSha ?? repo.baseSha },
      head: { ref: "feature", sha: repo.headSha, repo: { full_name: options.headRepository ?? "acme/demo" } },
    },
    repository: { full_name: "acme/demo" },
  };
  writeFileSync(join(dir, "event.json"), JSON.stringify(event));
  writeFileSync(join(dir, "summary.md"), "");
  writeFileSync(join(dir, "output.txt"), "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: join(dir, "event.json"),
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_OUTPUT: join(dir, "output.txt"),
    GITHUB_WORKSPACE: ws,
    GITHUB_REPOSITORY: "acme/demo",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: options.apiUrl ?? "http://127.0.0.1:9",
    GITHUB_SHA: repo.headSha,
    RUNNER_TEMP: dir,
  };
  // The runner passes its proxy settings to every step in these variables.
  if (options.proxy !== undefined) Object.assign(env, { http_proxy: options.proxy, https_proxy: options.proxy });
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}

/** The summary and the outputs the run left in the runner's files. */
function runnerFiles(dir: string): Pick<ActionRun, "summary" | "outputs"> {
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  const outputs: Record<string, string> = {};
  for (const m of read("output.txt").matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    outputs[m[1] as string] = m[3] as string;
  }
  return { summary: read("summary.md"), outputs };
}

/**
 * The Action's source (main.ts's run) on a repository, in this process, as
 * the runner would run it: its environment in place of this process's, the
 * workspace as the working folder, stdout and stderr captured, the exit
 * status from process.exitCode; all of them restored after. Runs must not
 * overlap (a test file's tests run one after the other).
 */
export async function runAction(
  repo: ReturnType<typeof repository>,
  inputs: Record<string, string> = {},
  options: RunOptions = {},
): Promise<ActionRun> {
  const env = runnerEnvironment(repo, inputs, options);
  const saved = { env: process.env, cwd: process.cwd(), exitCode: process.exitCode };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const captured = { stdout: "", stderr: "" };
  const capture = (stream: "stdout" | "stderr") =>
    ((chunk: string | Uint8Array) => {
      captured[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    }) as typeof process.stdout.write;
  const started = Date.now();
  process.env = env;
  process.chdir(repo.ws);
  process.exitCode = undefined;
  process.stdout.write = capture("stdout");
  process.stderr.write = capture("stderr");
  let status: number;
  try {
    await run();
  } finally {
    status = Number(process.exitCode ?? 0);
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    process.exitCode = saved.exitCode;
    process.chdir(saved.cwd);
    process.env = saved.env;
  }
  return { ...captured, status, ...runnerFiles(repo.dir), ms: Date.now() - started };
}

/** The committed bundle (action/dist/index.js) on a repository, as a process the way the runner starts it. */
export async function runBundle(
  repo: ReturnType<typeof repository>,
  inputs: Record<string, string> = {},
  options: RunOptions = {},
): Promise<ActionRun> {
  const env = runnerEnvironment(repo, inputs, options);
  const started = Date.now();
  let stdout = "";
  let stderr = "";
  let status = 0;
  try {
    ({ stdout, stderr } = await promisify(execFile)(process.execPath, [bundle], {
      cwd: repo.ws,
      env,
      maxBuffer: 1 << 26,
    }));
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    ({ stdout, stderr } = err);
    status = err.code;
  }
  return { stdout, stderr, status, ...runnerFiles(repo.dir), ms: Date.now() - started };
}

/** Commits everything in the work tree. */
export function commit(ws: string, message: string) {
  const git = gitIn(ws);
  git("add", "-A");
  git("commit", "-q", "-m", message);
}

export interface ReportedFinding {
  rule: string;
  severity: string;
  message: string;
  file?: string;
  line?: number;
  oldLine?: number;
}

/** Findings as both faces must agree on them: one line each, sorted. */
export const brief = (findings: readonly ReportedFinding[]) =>
  findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.rule}: ${f.message}`).sort();

/** The findings file the Action wrote. */
export const actionFindings = (outputs: Record<string, string>): ReportedFinding[] =>
  JSON.parse(readFileSync(outputs["findings-file"] as string, "utf8")).findings;
