/**
 * Which files to check, with their text now and at the base: the changed files
 * of the pull request (git, or the pull-request files API as a fallback), or
 * every file the globs match. Files are read defensively: symbolic links are
 * not followed, huge and unreadable files become findings, never a crash.
 */
import { globSync, lstatSync, readFileSync } from "node:fs";
import { matchesGlob } from "node:path";
import { type ChangedFile, type Finding, finding, type KunionConfig } from "../src/index.js";
import { type Change, changedSince, ensureCommit, GitError, hasCommit, readAt, trackedFiles } from "./git.js";
import type { Inputs, RunContext } from "./inputs.js";

/** Larger files are not read (the API server takes 3 MiB per object). */
export const maxFileBytes = 10 * 1024 * 1024;
/** The pull-request files API lists at most 3,000 files. */
const apiPageLimit = 30;

export interface Collected {
  changed: ChangedFile[];
  /** Files that could not be checked, as findings on the file. */
  problems: Finding[];
  /** One-line notices for the log and the summary. */
  notes: string[];
  /** Why nothing could be compared: the step fails with it. */
  failure?: string;
  /** The revision the files were compared with. */
  base?: string;
}

const isYaml = (p: string) => /\.(ya?ml|json)$/i.test(p);

export function problem(file: string, detail: string, severity: Finding["severity"] = "error"): Finding {
  return { ...finding({ type: "ParseError", path: [], detail, rule: "input", severity }), file, line: 1, column: 1 };
}

type Read = { text: string } | { problem: Finding } | undefined;

/** A workspace file as text; undefined when it is gone or a folder. */
export function readFile(path: string): Read {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(path);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) return { problem: problem(path, "is a symbolic link: not followed", "notice") };
  if (!info.isFile()) return undefined;
  if (info.size > maxFileBytes) {
    const mb = (info.size / 1024 / 1024).toFixed(1);
    return {
      problem: problem(
        path,
        `the file is ${mb} MiB, over the ${maxFileBytes / 1024 / 1024} MiB kunion reads: not checked`,
      ),
    };
  }
  try {
    return { text: readFileSync(path, "utf8") };
  } catch (e) {
    return { problem: problem(path, `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`) };
  }
}

/** The globs that say what a Kubernetes file is: the inputs', else the configuration's. */
export function kubernetesGlobs(inputs: Inputs, config: KunionConfig): string[] {
  const given = [...inputs.manifests, ...inputs.crds, ...inputs.conversions];
  return given.length > 0
    ? given
    : [...(config.manifests ?? []), ...(config.crds ?? []), ...(config.conversions ?? [])];
}

async function pullRequestFiles(ctx: RunContext, token: string): Promise<{ changes: Change[]; truncated: boolean }> {
  const changes: Change[] = [];
  for (let page = 1; page <= apiPageLimit; page++) {
    const url = `${ctx.apiUrl}/repos/${ctx.repository}/pulls/${ctx.pullNumber}/files?per_page=100&page=${page}`;
    const headers: Record<string, string> = {
      accept: "application/vnd.github+json",
      "user-agent": "kunion-action",
      "x-github-api-version": "2022-11-28",
    };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${res.statusText}`);
    const rows = (await res.json()) as { filename: string; status: string; previous_filename?: string }[];
    for (const r of rows) if (r.status !== "removed") changes.push({ path: r.filename, from: r.previous_filename });
    if (rows.length < 100) return { changes, truncated: false };
  }
  return { changes, truncated: true };
}

/** The files to check. Never throws for a git or API problem: it becomes `failure` or a note. */
export async function collect(inputs: Inputs, config: KunionConfig, ctx: RunContext): Promise<Collected> {
  const notes: string[] = [];
  const problems: Finding[] = [];
  const globs = kubernetesGlobs(inputs, config);
  const ignore = config.ignore ?? [];
  let candidates: Change[];
  let base: string | undefined;
  const wanted = inputs.baseRef || ctx.baseSha || (ctx.pullNumber === undefined && hasCommit("HEAD^") ? "HEAD^" : "");
  if (inputs.changedOnly && wanted !== "") {
    try {
      base = ensureCommit(wanted);
      const diff = changedSince(base);
      candidates = diff.changes;
      if (diff.note) notes.push(diff.note);
    } catch (e) {
      if (!(e instanceof GitError)) throw e;
      const why = `the base commit ${wanted} cannot be found or fetched (${e.message})`;
      if (ctx.pullNumber === undefined) {
        return { changed: [], problems, notes, failure: `${why}. Check out with fetch-depth: 0.` };
      }
      try {
        const listed = await pullRequestFiles(ctx, inputs.token);
        candidates = listed.changes;
        notes.push(
          `${why}: the changed files come from the pull-request files API and are checked without their base revision (no evolution checks, no old objects)`,
        );
        if (listed.truncated) {
          notes.push(
            "the pull-request files API lists at most 3,000 files: later files are not checked; check out with fetch-depth: 0 to check them all",
          );
        }
      } catch (api) {
        return {
          changed: [],
          problems,
          notes,
          failure: `${why}, and the pull-request files API failed (${(api as Error).message}). Check out with fetch-depth: 0.`,
        };
      }
    }
  } else {
    if (inputs.changedOnly)
      notes.push("no base commit to compare with (no pull request, no previous commit): every file is checked");
    base = wanted !== "" && hasCommit(wanted) ? wanted : undefined;
    candidates = (globs.length > 0 ? [...new Set(globs.flatMap((g) => globSync(g)))].sort() : trackedFiles()).map(
      (path) => ({ path }),
    );
  }
  const selected = candidates.filter(
    (c) =>
      !ignore.some((g) => matchesGlob(c.path, g)) &&
      (globs.length === 0 || globs.some((g) => matchesGlob(c.path, g)) || !inputs.changedOnly),
  );
  const nonYaml = globs.length > 0 ? selected.filter((c) => !isYaml(c.path)) : [];
  if (nonYaml.length > 0) {
    notes.push(
      `${nonYaml.length} matched file(s) are not YAML or JSON (${nonYaml[0]?.path}${nonYaml.length > 1 ? ", …" : ""}): not checked`,
    );
  }
  const now: { change: Change; text: string }[] = [];
  for (const c of selected.filter((s) => isYaml(s.path))) {
    const read = readFile(c.path);
    if (read === undefined) continue;
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    // Without globs, a YAML file is a Kubernetes file when it says so (or cannot say anything: binary).
    if (globs.length === 0 && !/apiVersion|\0/.test(read.text)) continue;
    now.push({ change: c, text: read.text });
  }
  const before = base
    ? readAt(
        base,
        now.map((n) => n.change.from ?? n.change.path),
        maxFileBytes,
      )
    : new Map();
  const changed = now.map(({ change, text }): ChangedFile => {
    const old = before.get(change.from ?? change.path);
    return old === undefined
      ? { path: change.path, after: text }
      : { path: change.path, before: old.toString("utf8"), after: text };
  });
  return { changed, problems, notes, base };
}
