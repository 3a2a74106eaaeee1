/**
 * Findings → what the user sees: annotations within GitHub's limits, the job
 * summary (one row per finding, linked to its line), the SARIF and JSON files,
 * the outputs. Everything taken from a manifest is escaped.
 */
import { writeFileSync } from "node:fs";
import * as core from "@actions/core";
import { knownRules } from "../src/checkout/index.js";
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

/** GitHub shows 10 error and 10 warning annotations per step, 50 annotations per job. */
export const limits = { error: 10, warning: 10, total: 50 } as const;

const rank: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };
export const bySeverity = (a: Finding, b: Finding) => rank[a.severity] - rank[b.severity] || compareFindings(a, b);

/**
 * The annotations to emit: errors first (10), then warnings (10), then notices
 * up to the job's 50, keeping one for the "N more" notice. `used` counts
 * annotations already emitted by the step (its own notices).
 */
export function pickAnnotations(findings: readonly Finding[], used = 0): { shown: Finding[]; more: number } {
  const shown: Finding[] = [];
  const count: Record<Severity, number> = { error: 0, warning: 0, notice: 0 };
  const sorted = [...findings].sort(bySeverity);
  for (const f of sorted) {
    const room = limits.total - 1 - used - shown.length;
    if (room <= 0) break;
    if (f.severity !== "notice" && count[f.severity] >= limits[f.severity]) continue;
    count[f.severity]++;
    shown.push(f);
  }
  return { shown, more: findings.length - shown.length };
}

export function annotate(findings: readonly Finding[], used: number): void {
  const { shown, more } = pickAnnotations(findings, used);
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
