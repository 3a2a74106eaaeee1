/**
 * Fixes as suggestions: where normalization (the `policy` input's) would fix
 * a union finding of a changed manifest (a stale union member), the edit it
 * makes, as the lines of the head file it replaces. The Action posts them as
 * one pull-request review of ```suggestion blocks, and shows them as a diff
 * in the job summary.
 */
import { type ChangedLines, inDiff, textHunks } from "../src/checkout/index.js";
import {
  type ChangedFile,
  type Finding,
  fromJsonPointer,
  type KubernetesRelease,
  loadWorkspace,
  normalizeObjects,
  type ParsedFile,
  type ParsedSource,
  type TextFile,
} from "../src/index.js";
import { apiCall, apiClient } from "./github-api.js";
import type { RunContext } from "./inputs.js";

export interface Fix {
  file: string;
  /** The lines of the head file the fix replaces, first and last (1-based). */
  startLine: number;
  endLine: number;
  original: string[];
  replacement: string[];
  /** What normalization does (`cleared spec.strategy.rollingUpdate`). */
  what: string;
  /** The finding it fixes. */
  finding: Finding;
}

export interface FixOptions {
  policy: "kep" | "smd";
  /** The repository's CRDs: as text, or as the check parsed them. */
  crds: readonly (TextFile | ParsedFile)[];
  goTypes?: readonly TextFile[];
  kubernetesVersion?: KubernetesRelease;
  /** The changed lines: a suggestion may only sit on lines the pull request's diff shows. */
  lines?: ChangedLines;
}

const verbs = { clear: "clears", set: "sets", restore: "restores" } as const;

/** The fixes normalization makes to the objects that have union findings. */
export function suggestedFixes(
  changed: readonly ChangedFile[],
  findings: readonly Finding[],
  options: FixOptions,
): Fix[] {
  const unionErrors = findings.filter((f) => f.rule === "union" && f.severity === "error" && f.file !== undefined);
  const files = changed.filter((c) => unionErrors.some((f) => f.file === c.path));
  if (files.length === 0) return [];
  // A side the check parsed is read as it parsed it (a ChangedFile from checkCheckout carries its sides).
  const side = (path: string, text: string, parsed: ParsedSource | undefined): TextFile | ParsedFile =>
    parsed === undefined ? { path, text } : { path, text, ...parsed };
  const workspace = loadWorkspace({
    inputs: files.map((f) => side(f.path, f.after, f.parsed?.after)),
    crds: options.crds,
    goTypes: options.goTypes ?? [],
    old: files.flatMap((f) => (f.before === undefined ? [] : [side(f.path, f.before, f.parsed?.before)])),
    kubernetesVersion: options.kubernetesVersion,
  });
  const results = normalizeObjects(workspace.objects, workspace.catalog, {
    mode: "update",
    policy: options.policy,
    old: workspace.old,
  });
  const candidates: Omit<Fix, "startLine" | "endLine" | "original" | "replacement">[] = [];
  const texts: { before: string; after: string }[] = [];
  const fixed: { lines: number[] }[] = [];
  for (const [i, result] of results.entries()) {
    const object = workspace.objects[i];
    const finding = unionErrors.find((f) => f.file === result.file && f.document === result.index);
    if (!object || !finding || result.changes.length === 0 || result.errors.length > 0 || object.doc.within) continue;
    const edits = result.changes.map((c) => ({
      path: fromJsonPointer(c.pointer),
      value: c.op === "clear" ? undefined : c.value,
    }));
    const original = object.doc.render([]);
    const rendered = object.doc.render(edits);
    const text = files.find((f) => f.path === result.file)?.after;
    if (original === undefined || rendered === undefined || text === undefined) continue;
    const at = text.indexOf(original);
    if (at < 0 || text.indexOf(original, at + 1) >= 0) continue;
    texts.push({ before: text, after: text.slice(0, at) + rendered + text.slice(at + original.length) });
    fixed.push({ lines: edits.map((e) => object.doc.locate(e.path).line) });
    candidates.push({
      file: result.file,
      what: result.changes.map((c) => `${verbs[c.op]} \`${c.path}\``).join(", "),
      finding,
    });
  }
  const hunks = textHunks(texts);
  const out: Fix[] = [];
  for (const [i, c] of candidates.entries()) {
    const { before, after } = texts[i] as { before: string; after: string };
    const oldLines = before.split("\n");
    const newLines = after.split("\n");
    // Only the hunks that hold an edited field: rendering may also respace what it did not edit.
    for (const h of hunks[i] ?? []) {
      if (h.oldCount === 0) continue;
      const end = h.oldStart + h.oldCount - 1;
      if (!fixed[i]?.lines.some((l) => l >= h.oldStart && l <= end)) continue;
      const shown = Array.from({ length: h.oldCount }, (_, k) => h.oldStart + k).every((line) =>
        inDiff({ ...c.finding, line }, options.lines),
      );
      if (!shown) continue;
      out.push({
        ...c,
        startLine: h.oldStart,
        endLine: end,
        original: oldLines.slice(h.oldStart - 1, end),
        replacement: newLines.slice(h.newStart - 1, h.newStart - 1 + h.newCount),
      });
    }
  }
  return out;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fence(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
  return "`".repeat(longest + 1);
}

/** The fixes as a section of the job summary: its heading, and one diff per fix (the summary shows those that fit). */
export function fixesSection(fixes: readonly Fix[], policy: string): { heading: string; blocks: string[] } {
  const blocks = fixes.map((f) => {
    const diff = [...f.original.map((l) => `-${l}`), ...f.replacement.map((l) => `+${l}`)];
    const marks = fence(diff);
    const lines = f.startLine === f.endLine ? `line ${f.startLine}` : `lines ${f.startLine}-${f.endLine}`;
    const title = `${f.file.replace(/[\\`*_[\]<>#|~!&]/g, "\\$&")}, ${lines}: normalization ${f.what}`;
    return [title, "", `${marks}diff`, ...diff, marks, ""].join("\n");
  });
  return { heading: `### Suggested fixes (normalization, policy ${policy})`, blocks };
}

/** A review comment's body: why, and the ```suggestion block GitHub offers to commit. */
function commentBody(f: Fix, policy: string): string {
  const marks = fence(f.replacement);
  return [
    `kunion: normalization (policy ${policy}) ${f.what}, which fixes:`,
    "",
    `> ${f.finding.message.replace(/[\\`*_[\]<>#|~!&]/g, "\\$&").replace(/\r?\n/g, " ")}`,
    "",
    `${marks}suggestion`,
    ...f.replacement,
    marks,
  ].join("\n");
}

/**
 * Posts the fixes as one review of suggestions on the head commit. A fork's
 * pull request, or a token without `pull-requests: write`, cannot: that is
 * the one notice returned, and the summary shows the fixes instead: as many
 * as fit in its 1 MiB, and how many it left out, so the notice points there
 * without promising them all.
 */
export async function postSuggestions(
  fixes: readonly Fix[],
  ctx: RunContext,
  token: string,
  policy: string,
): Promise<string | undefined> {
  if (fixes.length === 0 || ctx.pullNumber === undefined) return undefined;
  const skip = (why: string) =>
    `${fixes.length} suggested fix(es) are not posted as a review (${why}): see the job summary`;
  if (ctx.headRepository !== undefined && ctx.headRepository !== ctx.repository) {
    return skip("a fork's pull request gets a read-only token");
  }
  if (!token) return skip("no token");
  const [owner = "", repo = ""] = ctx.repository.split("/");
  try {
    await apiClient(ctx, token).rest.pulls.createReview({
      request: apiCall(),
      owner,
      repo,
      pull_number: ctx.pullNumber,
      commit_id: ctx.headSha,
      event: "COMMENT",
      body: `kunion suggests ${fixes.length} fix(es) from normalization (policy ${policy}).`,
      comments: fixes.map((f) => ({
        path: f.file,
        body: commentBody(f, policy),
        side: "RIGHT" as const,
        line: f.endLine,
        ...(f.startLine < f.endLine ? { start_line: f.startLine, start_side: "RIGHT" as const } : {}),
      })),
    });
    return undefined;
  } catch (e) {
    const status = (e as { status?: number }).status;
    return skip(
      status === 403 || status === 404
        ? `the token cannot write reviews (HTTP ${status}): give the job pull-requests: write`
        : `the review could not be posted: ${(e as Error).message.split("\n")[0]}`,
    );
  }
}
