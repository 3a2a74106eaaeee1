/**
 * Findings → what the user sees: annotations within GitHub's limits, the job
 * summary (one row per finding, linked to its line), the SARIF and JSON files,
 * the outputs. Everything taken from a manifest is escaped.
 */
import { writeFileSync } from "node:fs";
import * as core from "@actions/core";
import { type ChangedLines, inDiff, knownRules, onChangedLine } from "../src/checkout/index.js";
import {
  type ChangeFinding,
  compareFindings,
  type Finding,
  formatJson,
  formatSarif,
  kunionVersion,
  type Severity,
  type Summary,
} from "../src/index.js";
import type { RunContext } from "./inputs.js";

/** GitHub shows 10 error, 10 warning and 10 notice annotations per step, 50 annotations per job. */
export const limits = { error: 10, warning: 10, notice: 10, total: 50 } as const;

const rank: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };
export const bySeverity = (a: Finding, b: Finding) => rank[a.severity] - rank[b.severity] || compareFindings(a, b);

export interface AnnotationOptions {
  /** The changed lines; undefined: every line counts as changed (no base to compare with). */
  lines?: ChangedLines;
  /** Annotate findings outside the diff too. */
  outsideDiff?: boolean;
  /** Annotations of each severity the step makes anyway (its notices, the failure). */
  used?: Partial<Record<Severity, number>>;
}

export interface AnnotationPlan {
  shown: Finding[];
  /** Findings not annotated one by one (they are in the summary). */
  more: number;
}

/**
 * Objects of kinds kunion knows no schema for (data files that merely carry
 * an `apiVersion`, custom resources without their CRD): one annotation for
 * all of them, not one each.
 */
function grouped(findings: readonly Finding[]): { findings: Finding[]; members: number } {
  const missing = findings.filter((f) => f.rule === "schema-missing");
  if (missing.length < 2) return { findings: [...findings], members: 0 };
  const [first] = [...missing].sort(compareFindings) as [Finding];
  const files = new Set(missing.map((f) => f.file)).size;
  const message = `${missing.length} object(s) in ${files} file(s) are of kinds kunion has no schema for and were not checked (give their CRDs to check them); the job summary lists them`;
  return {
    findings: [...findings.filter((f) => f.rule !== "schema-missing"), { ...first, message }],
    members: missing.length,
  };
}

/**
 * The annotations to emit, in order: findings on changed lines (errors,
 * warnings, notices), then the rest of those the diff shows (and, when
 * asked, those outside it); at most 10 of each severity and 50 in all,
 * counting what the step emits anyway and the "N more" notice, which
 * always has its place.
 */
export function pickAnnotations(findings: readonly Finding[], options: AnnotationOptions = {}): AnnotationPlan {
  const { lines, outsideDiff = false, used = {} } = options;
  const { findings: candidates, members } = grouped(findings);
  const changed = candidates.filter((f) => onChangedLine(f, lines)).sort(bySeverity);
  const rest = candidates.filter((f) => !onChangedLine(f, lines) && (outsideDiff || inDiff(f, lines))).sort(bySeverity);
  const ordered = [...changed, ...rest];
  const fill = (noticeRoom: number) => {
    const room: Record<Severity, number> = {
      error: limits.error - (used.error ?? 0),
      warning: limits.warning - (used.warning ?? 0),
      notice: noticeRoom,
    };
    let total = limits.total - (used.error ?? 0) - (used.warning ?? 0) - (used.notice ?? 0) - 1;
    const shown: Finding[] = [];
    for (const f of ordered) {
      if (total <= 0) break;
      if (room[f.severity] <= 0) continue;
      room[f.severity]--;
      total--;
      shown.push(f);
    }
    return shown;
  };
  const noticeRoom = limits.notice - (used.notice ?? 0);
  let shown = fill(noticeRoom);
  const left = (s: Finding[]) =>
    findings.length - s.length - (members > 0 && s.some((f) => f.rule === "schema-missing") ? members - 1 : 0);
  // The "N more" notice takes one notice's place.
  if (left(shown) > 0 && shown.filter((f) => f.severity === "notice").length >= noticeRoom)
    shown = fill(noticeRoom - 1);
  return { shown, more: left(shown) };
}

export function annotate(findings: readonly Finding[], options: AnnotationOptions): void {
  const { shown, more } = pickAnnotations(findings, options);
  for (const f of shown) {
    const props = { title: `kunion ${f.rule}`, file: f.file, startLine: f.line, startColumn: f.column };
    if (f.severity === "error") core.error(f.message, props);
    else if (f.severity === "warning") core.warning(f.message, props);
    else core.notice(f.message, props);
  }
  if (more > 0) core.notice(`${more} more finding(s) are listed in the job summary.`);
}

/** Text from a manifest, inert in Markdown and HTML: no tags, links, emphasis or code spans. */
export const escapeMarkdown = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/[\\`*_[\]#|~!]/g, "\\$&")
    .replace(/\r?\n/g, " ");

/** GitHub keeps 1 MiB of a step's summary: the text stops well before, with a note. */
export const summaryBudget = 1000 * 1024;

export function lineUrl(ctx: RunContext, f: Finding): string {
  const path = (f.file ?? "").split("/").map(encodeURIComponent).join("/");
  return `${ctx.serverUrl}/${ctx.repository}/blob/${ctx.headSha}/${path}#L${f.line ?? 1}`;
}

const marks: Record<Severity, string> = { error: "🔴 error", warning: "🟠 warning", notice: "🔵 notice" };

/** One finding, one list item: severity, the line (linked), the rule, the message. */
function item(f: Finding, ctx: RunContext): string {
  const where = f.file && f.line ? `[line ${f.line}](${lineUrl(ctx, f)})` : "";
  const old = (f as ChangeFinding).oldLine;
  const was = old !== undefined && old !== f.line ? ` (was line ${old})` : "";
  return `- ${marks[f.severity]} ${where}${was} \`${f.rule}\`: ${escapeMarkdown(f.message)}`;
}

export interface SummaryInput {
  findings: readonly Finding[];
  summary: Summary;
  notes: readonly string[];
  ctx: RunContext;
  /** The changed lines; undefined: every line counts as changed. */
  lines?: ChangedLines;
  /** The suggested fixes, after the findings: a heading and one block per fix. */
  fixes?: { heading: string; blocks: readonly string[] };
}

/**
 * The job summary, as Markdown that reads at GitHub's content width: one
 * section per file (a heading, not a table column of long paths), the
 * findings on changed lines first, each a list item with its line linked
 * at the head commit; then the suggested fixes. It stops before GitHub's
 * 1 MiB, saying how many findings and fixes are left out (the findings are
 * all in the findings and SARIF files): the findings come first, the fixes
 * get the room they leave.
 */
export function summaryText(input: SummaryInput): string {
  const { findings, summary, notes, ctx, lines } = input;
  const head = [
    "## kunion",
    "",
    `${summary.files} file(s) checked: **${summary.errors} error(s)**, ${summary.warnings} warning(s), ${summary.notices} notice(s)`,
    "",
    ...notes.map((n) => `> ${escapeMarkdown(n)}\n`),
  ].join("\n");
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) byFile.set(f.file ?? "", [...(byFile.get(f.file ?? "") ?? []), f]);
  const changedFirst = (f: Finding) => (onChangedLine(f, lines) ? 0 : 1);
  const order = (a: Finding, b: Finding) => changedFirst(a) - changedFirst(b) || bySeverity(a, b);
  // Files with findings on changed lines first, the worst first; then by path.
  const rankOf = (fs: Finding[]) => Math.min(...fs.map((f) => changedFirst(f) * 3 + rank[f.severity]));
  const files = [...byFile.entries()].sort((a, b) => rankOf(a[1]) - rankOf(b[1]) || a[0].localeCompare(b[0]));
  const parts: string[] = [head];
  let size = Buffer.byteLength(head);
  const sized = (line: string) => Buffer.byteLength(line) + 1;
  const fixes = input.fixes && input.fixes.blocks.length > 0 ? input.fixes : undefined;
  // Room for the "N more" lines, and for the fixes' heading whatever the findings take.
  const budget = summaryBudget - 200 - (fixes ? sized(fixes.heading) + 200 : 0);
  let shown = 0;
  outer: for (const [file, fs] of files) {
    const sorted = [...fs].sort(order);
    const heading = `\n### ${file === "" ? "(no file)" : escapeMarkdown(file)}\n`;
    const changed = sorted.filter((f) => changedFirst(f) === 0);
    const rest = sorted.filter((f) => changedFirst(f) === 1);
    const block = [heading];
    if (changed.length > 0 && rest.length > 0) block.push("On the lines this change touched:\n");
    block.push(...changed.map((f) => item(f, ctx)));
    if (rest.length > 0)
      block.push(changed.length > 0 ? "\nElsewhere in the file:\n" : "", ...rest.map((f) => item(f, ctx)));
    for (const [i, line] of block.entries()) {
      const bytes = sized(line);
      if (size + bytes > budget) break outer;
      size += bytes;
      parts.push(line);
      if (i > 0 && line.startsWith("- ")) shown++;
    }
  }
  const cut = findings.length - shown;
  if (cut > 0) {
    const line = `\n${cut} more finding(s) do not fit in the summary: see the findings file and the SARIF file.`;
    parts.push(line);
    size += sized(line);
  }
  if (fixes) {
    const heading = `\n${fixes.heading}\n`;
    parts.push(heading);
    size += sized(heading);
    let shownFixes = 0;
    // Findings first: a fix has room only when every finding is shown.
    for (const block of cut > 0 ? [] : fixes.blocks) {
      if (size + sized(block) > summaryBudget - 200) break;
      parts.push(block);
      size += sized(block);
      shownFixes++;
    }
    const left = fixes.blocks.length - shownFixes;
    if (left > 0) parts.push(`${left} more suggested fix(es) do not fit in the summary.`);
  }
  return `${parts.join("\n")}\n`;
}

export function writeReports(findings: readonly Finding[], summary: Summary, sarifFile: string, findingsFile: string) {
  writeFileSync(sarifFile, `${formatSarif(findings, { version: kunionVersion, rules: knownRules })}\n`);
  writeFileSync(findingsFile, `${formatJson(findings, summary)}\n`);
}
