/**
 * The Action's inputs and the event that started the run, read once at the
 * edge (INPUT_* variables, GITHUB_* variables, the event payload file).
 */
import { readFileSync } from "node:fs";
import * as core from "@actions/core";
// The Action chooses among every release: register their schema tables (the Worker carries the default's alone).
import "../src/builtins/all-releases.js";
import { checkRef } from "../src/checkout/index.js";
import { type KubernetesRelease, releaseOf, type Severity } from "../src/index.js";

export interface Inputs {
  crds: string[];
  manifests: string[];
  conversions: string[];
  /** A ref or sha to compare with; empty: the pull request's base (or the push's previous commit). */
  baseRef: string;
  changedOnly: boolean;
  config: string;
  failOn?: Severity | "never";
  sarifFile: string;
  annotations: boolean;
  /** Annotate findings on lines the pull request's diff does not show too (else they are in the summary only). */
  annotateOutsideDiff: boolean;
  /** A baseline file of accepted findings (kunion check --write-baseline): only new findings count. */
  baseline: string;
  /** Post normalization's fixes as a review of suggestions. */
  suggestFixes: boolean;
  summary: boolean;
  policy?: "kep" | "smd";
  strict?: boolean;
  /** Undefined: the configuration's, else the newest. */
  kubernetesVersion?: KubernetesRelease;
  token: string;
}

const failOns = ["error", "warning", "notice", "never"] as const;

function flag(name: string, fallback: boolean): boolean {
  const v = core.getInput(name).trim().toLowerCase();
  if (v === "") return fallback;
  if (["true", "yes", "on", "1"].includes(v)) return true;
  if (["false", "no", "off", "0"].includes(v)) return false;
  throw new Error(`${name} must be true or false, not "${v}"`);
}

/** A ref git could read as an option (`--upload-pack=…`) is refused before git sees it. */
function baseRef(ref: string): string {
  if (ref === "") return ref;
  try {
    return checkRef(ref);
  } catch {
    throw new Error("base-ref must be a ref or sha, not an option or control characters");
  }
}

/** Every input, checked; a bad value is an error naming the input. */
export function getInputs(): Inputs {
  const failOn = core.getInput("fail-on").trim();
  if (failOn !== "" && !(failOns as readonly string[]).includes(failOn)) {
    throw new Error(`fail-on must be error, warning, notice or never, not "${failOn}"`);
  }
  const policy = core.getInput("policy").trim();
  if (policy !== "" && policy !== "kep" && policy !== "smd") {
    throw new Error(`policy must be kep or smd, not "${policy}"`);
  }
  const strict = core.getInput("strict").trim();
  const version = core.getInput("kubernetes-version").trim();
  const release = version === "" ? undefined : releaseOf(version);
  if (release && "error" in release) throw new Error(`kubernetes-version ${release.error}`);
  return {
    crds: core.getMultilineInput("crds"),
    manifests: core.getMultilineInput("manifests"),
    conversions: core.getMultilineInput("conversions"),
    baseRef: baseRef(core.getInput("base-ref").trim()),
    changedOnly: flag("changed-only", true),
    config: core.getInput("config").trim(),
    failOn: failOn === "" ? undefined : (failOn as Inputs["failOn"]),
    sarifFile: core.getInput("sarif-file").trim() || "kunion.sarif",
    annotations: flag("annotations", true),
    annotateOutsideDiff: flag("annotate-outside-diff", false),
    baseline: core.getInput("baseline").trim(),
    suggestFixes: flag("suggest-fixes", true),
    summary: flag("summary", true),
    policy: policy === "" ? undefined : policy,
    strict: strict === "" ? undefined : flag("strict", true),
    kubernetesVersion: release?.release,
    token: core.getInput("token").trim() || process.env.GITHUB_TOKEN || "",
  };
}

/** What the run is about: the event, the pull request, the commits. */
export interface RunContext {
  eventName: string;
  repository: string;
  serverUrl: string;
  apiUrl: string;
  workspace: string;
  /** The commit whose files the links in the summary point at. */
  headSha: string;
  pullNumber?: number;
  /** The repository the pull request's head is in (another one for a fork). */
  headRepository?: string;
  /** The pull request's base commit, or the push's previous commit. */
  baseSha?: string;
}

export function readContext(): RunContext {
  const env = process.env;
  let payload: Record<string, unknown> = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8")) as Record<string, unknown>;
    } catch (e) {
      core.warning(`the event payload ${env.GITHUB_EVENT_PATH} cannot be read: ${(e as Error).message}`);
    }
  }
  const pr = payload.pull_request as
    | { number?: number; base?: { sha?: string }; head?: { sha?: string; repo?: { full_name?: string } } }
    | undefined;
  const before = typeof payload.before === "string" && !/^0+$/.test(payload.before) ? payload.before : undefined;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? "",
    repository: env.GITHUB_REPOSITORY ?? "",
    serverUrl: env.GITHUB_SERVER_URL ?? "https://github.com",
    apiUrl: env.GITHUB_API_URL ?? "https://api.github.com",
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    headSha: pr?.head?.sha ?? env.GITHUB_SHA ?? "HEAD",
    pullNumber: pr ? (pr.number ?? (payload.number as number | undefined)) : undefined,
    headRepository: pr?.head?.repo?.full_name,
    baseSha: pr ? pr.base?.sha : before,
  };
}
