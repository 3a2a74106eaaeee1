/**
 * Which lines a change touched, from `git diff --unified=0` hunks: findings
 * on those lines are the pull request author's own, and come first. A
 * finding about something removed (it has an old line) is moved onto the
 * hunk that removed it, where the reviewer sees the removal.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangedFile, ChangeFinding, Finding } from "../index.js";
import { type Hunk, hunksBetween } from "./git.js";

/** Per changed file, its hunks; a file without a base revision is changed on every line. */
export type ChangedLines = ReadonlyMap<string, readonly Hunk[] | "all">;

/** GitHub shows this many unchanged lines around each hunk of a pull request's diff. */
const context = 3;

export function changedLines(files: readonly ChangedFile[]): ChangedLines {
  const out = new Map<string, readonly Hunk[] | "all">();
  const compared = files.filter((f) => f.before !== undefined);
  for (const f of files) if (f.before === undefined) out.set(f.path, "all");
  const hunks = textHunks(compared.map((f) => ({ before: f.before as string, after: f.after })));
  for (const [i, f] of compared.entries()) out.set(f.path, hunks[i] ?? []);
  return out;
}

/** The hunks between pairs of texts (`git diff --unified=0`, in a scratch folder removed after). */
export function textHunks(pairs: readonly { before: string; after: string }[]): Hunk[][] {
  if (pairs.length === 0) return [];
  const folder = mkdtempSync(join(tmpdir(), "kunion-diff-"));
  try {
    return hunksBetween(folder, pairs);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether a finding is on a line the change added or modified (a whole-file problem of a changed file counts). */
export function onChangedLine(f: Finding, lines: ChangedLines | undefined): boolean {
  if (lines === undefined) return true;
  const hunks = f.file === undefined ? undefined : lines.get(f.file);
  if (hunks === undefined) return false;
  if (hunks === "all" || f.line === undefined) return true;
  const line = f.line;
  return hunks.some((h) => h.newCount > 0 && line >= h.newStart && line < h.newStart + h.newCount);
}

/** Whether GitHub shows the finding's line in the pull request's diff (changed, or context around a hunk). */
export function inDiff(f: Finding, lines: ChangedLines | undefined): boolean {
  if (onChangedLine(f, lines)) return true;
  const hunks = f.file === undefined ? undefined : lines?.get(f.file);
  if (hunks === undefined || hunks === "all" || f.line === undefined) return false;
  const line = f.line;
  return hunks.some((h) => line >= h.newStart - context && line <= h.newStart + Math.max(h.newCount, 1) + context);
}

/**
 * A removal's finding (it has `oldLine`) on the hunk that removed its old
 * line: the nearest line of that hunk in the new file, its old line kept.
 */
export function placeRemovals(findings: readonly Finding[], lines: ChangedLines): Finding[] {
  return findings.map((f) => {
    const { oldLine } = f as ChangeFinding;
    const hunks = f.file === undefined ? undefined : lines.get(f.file);
    if (oldLine === undefined || hunks === undefined || hunks === "all" || onChangedLine(f, lines)) return f;
    const hunk = hunks.find((h) => oldLine >= h.oldStart && oldLine < h.oldStart + h.oldCount);
    if (hunk === undefined) return f;
    const line =
      hunk.newCount === 0
        ? Math.max(hunk.newStart, 1)
        : Math.min(Math.max(f.line ?? hunk.newStart, hunk.newStart), hunk.newStart + hunk.newCount - 1);
    const { column: _column, ...rest } = f;
    return { ...rest, line, column: 1 };
  });
}
