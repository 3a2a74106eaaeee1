/**
 * Findings → what the user sees: annotations within GitHub's limits, the job
 * summary (one row per finding, linked to its line), the SARIF and JSON files,
 * the outputs. Everything taken from a manifest is escaped.
 */
import { writeFileSync } from "node:fs";
import * as core from "@actions/core";
import { type ChangedLines, inDiff, knownRules, onChangedLine } from "../src/checkout/index.js";
import {
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

export const escapeHtml = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** The summary may hold 1 MiB: rows stop well before. */
const summaryBudget = 900 * 1024;

export function lineUrl(ctx: RunContext, f: Finding): string {
  const path = (f.file ?? "").split("/").map(encodeURIComponent).join("/");
  return `${ctx.serverUrl}/${ctx.repository}/blob/${ctx.headSha}/${path}#L${f.line ?? 1}`;
}

/** The job summary as HTML/Markdown text. */
export function summaryText(findings: readonly Finding[], summary: Summary, notes: readonly string[], ctx: RunContext) {
  const head = [
    "## kunion",
    "",
    `${summary.files} file(s) checked: ${summary.errors} error(s), ${summary.warnings} warning(s), ${summary.notices} notice(s)`,
    "",
    ...notes.map((n) => `> ${escapeHtml(n)}\n`),
  ];
  if (findings.length === 0) return `${head.join("\n")}\n`;
  let size = head.join("\n").length;
  const rows: string[] = [];
  const sorted = [...findings].sort(bySeverity);
  for (const f of sorted) {
    const where = escapeHtml(`${f.file ?? ""}:${f.line ?? 1}`);
    const cell = f.file ? `<a href="${escapeHtml(lineUrl(ctx, f))}">${where}</a>` : where;
    const row = `<tr><td>${f.severity}</td><td>${cell}</td><td>${escapeHtml(f.rule)}</td><td>${escapeHtml(f.message).replaceAll("\n", "<br>")}</td></tr>`;
    if (size + row.length > summaryBudget) break;
    size += row.length;
    rows.push(row);
  }
  const cut = sorted.length - rows.length;
  return [
    ...head,
    "<table>",
    "<tr><th>severity</th><th>where</th><th>rule</th><th>message</th></tr>",
    ...rows,
    "</table>",
    cut > 0 ? `\n${cut} more finding(s) do not fit in the summary: see the findings file and the SARIF file.` : "",
    "",
  ].join("\n");
}

export function writeReports(findings: readonly Finding[], summary: Summary, sarifFile: string, findingsFile: string) {
  writeFileSync(sarifFile, `${formatSarif(findings, { version: kunionVersion, rules: knownRules })}\n`);
  writeFileSync(findingsFile, `${formatJson(findings, summary)}\n`);
}
