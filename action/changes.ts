/**
 * Which files to check, with their text now and at the base: the changed files
 * of the pull request (git, or the pull-request files API as a fallback), or
 * every file the globs match, selected and read as `kunion check` selects and
 * reads them (src/checkout): inside the workspace, never through a link.
 */

import {
  allFiles,
  type Candidates,
  type ChangedPath,
  changedBetween,
  configuredGlobs,
  deletedFiles,
  ensureCommit,
  GitError,
  resolveCommit,
  selectFiles,
} from "../src/checkout/index.js";
import type { ChangedFile, Finding, KunionConfig, TextFile } from "../src/index.js";
import { apiCall, apiClient } from "./github-api.js";
import type { Inputs, RunContext } from "./inputs.js";

/** The pull-request files API lists at most 3,000 files. */
const apiPageLimit = 30;

export interface Collected {
  changed: ChangedFile[];
  /** Deleted Kubernetes files, with their text at the base. */
  deleted: TextFile[];
  /** Files that could not be checked, as findings on the file. */
  problems: Finding[];
  /** One-line notices for the log and the summary. */
  notes: string[];
  /** Why nothing could be compared: the step fails with it. */
  failure?: string;
  /** The revision the files were compared with. */
  base?: string;
}

/** The inputs' globs and the configuration's: both add to discovery. */
export const kubernetesGlobs = (inputs: Inputs, config: KunionConfig): string[] =>
  configuredGlobs(config, [...inputs.manifests, ...inputs.crds, ...inputs.conversions]);

/**
 * The pull request's files from the API (`pulls.listFiles`, 100 a page,
 * followed through its Link headers), through the runner's proxy settings.
 */
async function pullRequestFiles(
  ctx: RunContext,
  token: string,
): Promise<{ changes: ChangedPath[]; truncated: boolean }> {
  const [owner = "", repo = ""] = ctx.repository.split("/");
  const octokit = apiClient(ctx, token);
  const changes: ChangedPath[] = [];
  let pages = 0;
  const params = { owner, repo, pull_number: ctx.pullNumber as number, per_page: 100, request: apiCall() };
  for await (const page of octokit.paginate.iterator(octokit.rest.pulls.listFiles, params)) {
    for (const r of page.data)
      if (r.status !== "removed") changes.push({ path: r.filename, from: r.previous_filename });
    // Truncated when GitHub has a next page past the last one it serves, not merely a full last page.
    if (++pages >= apiPageLimit) return { changes, truncated: /\brel="next"/.test(page.headers.link ?? "") };
  }
  return { changes, truncated: false };
}

/** The changed files since the base, from git, or else from the files API. */
async function changedCandidates(
  wanted: string,
  ctx: RunContext,
  inputs: Inputs,
): Promise<{ candidates?: Candidates; base?: string; failure?: string }> {
  const root = ctx.workspace;
  try {
    const base = ensureCommit(root, wanted);
    const diff = changedBetween(root, base, "HEAD");
    return { candidates: { changes: diff.changes, deleted: diff.deleted, notes: diff.note ? [diff.note] : [] }, base };
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    const why = `the base commit ${wanted.slice(0, 40)} cannot be found or fetched (${e.message})`;
    if (ctx.pullNumber === undefined) return { failure: `${why}. Check out with fetch-depth: 0.` };
    try {
      const listed = await pullRequestFiles(ctx, inputs.token);
      const notes = [
        `${why}: the changed files come from the pull-request files API and are checked without their base revision (no evolution checks, no old objects)`,
      ];
      if (listed.truncated) {
        notes.push(
          "the pull-request files API lists at most 3,000 files: later files are not checked; check out with fetch-depth: 0 to check them all",
        );
      }
      return { candidates: { changes: listed.changes, deleted: [], notes } };
    } catch (api) {
      return {
        failure: `${why}, and the pull-request files API failed (${(api as Error).message}). Check out with fetch-depth: 0.`,
      };
    }
  }
}

/** The files to check. Never throws for a git or API problem: it becomes `failure` or a note. */
export async function collect(inputs: Inputs, config: KunionConfig, ctx: RunContext): Promise<Collected> {
  const root = ctx.workspace;
  const globs = kubernetesGlobs(inputs, config);
  const wanted =
    inputs.baseRef || ctx.baseSha || (ctx.pullNumber === undefined && resolveCommit(root, "HEAD^") ? "HEAD^" : "");
  let candidates: Candidates;
  let base: string | undefined;
  if (inputs.changedOnly && wanted !== "") {
    const found = await changedCandidates(wanted, ctx, inputs);
    if (found.failure !== undefined || found.candidates === undefined) {
      return { changed: [], deleted: [], problems: [], notes: [], failure: found.failure };
    }
    candidates = found.candidates;
    base = found.base;
  } else {
    base = wanted !== "" ? resolveCommit(root, wanted) : undefined;
    candidates = allFiles(root, globs, base);
    if (inputs.changedOnly) {
      candidates.notes.push(
        "no base commit to compare with (no pull request, no previous commit): every file is checked",
      );
    }
  }
  const ignore = config.ignore ?? [];
  const selection = selectFiles(root, candidates.changes, { globs, ignore, base });
  const deleted = deletedFiles(root, candidates.deleted, { ignore, base });
  return { ...selection, deleted, notes: [...candidates.notes, ...selection.notes], base };
}
