/**
 * Findings → report text (pure: the caller prints). `text` is one line per
 * finding as compilers print them, `json` the machine-readable form of
 * interfaces.md. Imports findings.
 */
import { compareFindings, type Finding, type Severity } from "../findings/index.js";

export interface Summary {
  files: number;
  objects: number;
  errors: number;
  warnings: number;
  notices: number;
}

export function summarize(findings: readonly Finding[], files: number, objects: number): Summary {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  return { files, objects, errors: count("error"), warnings: count("warning"), notices: count("notice") };
}

/** `file:line:col: severity rule: message`, sorted by file and position. */
export function formatText(findings: readonly Finding[]): string {
  return [...findings]
    .sort(compareFindings)
    .map((f) => {
      const where = f.file ? `${f.file}:${f.line ?? 1}:${f.column ?? 1}: ` : "";
      return `${where}${f.severity} ${f.rule}: ${f.message}`;
    })
    .join("\n");
}

/** The public JSON shape of a finding: no internal path segments. */
export function findingToJson(f: Finding): Record<string, unknown> {
  const { path: _path, ...rest } = f;
  return rest;
}

export function formatJson(findings: readonly Finding[], summary: Summary): string {
  return JSON.stringify({ findings: [...findings].sort(compareFindings).map(findingToJson), summary }, null, 2);
}

/** Whether any finding reaches the failing severity (`--fail-on`). */
export function failsAt(findings: readonly Finding[], failOn: Severity | "never"): boolean {
  if (failOn === "never") return false;
  const rank: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };
  return findings.some((f) => rank[f.severity] <= rank[failOn]);
}

export * from "./github.js";
export * from "./rules.js";
export * from "./sarif.js";
