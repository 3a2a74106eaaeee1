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

/**
 * `file:line:col: severity rule: message`, sorted by file and position, one line each: a file name or a message
 * quoting a manifest's key may hold a newline (a forged finding line in a CI log) or a terminal's control and
 * bidirectional characters, so those are written as escapes.
 */
export function formatText(findings: readonly Finding[]): string {
  return [...findings]
    .sort(compareFindings)
    .map((f) => {
      const where = f.file ? `${f.file}:${f.line ?? 1}:${f.column ?? 1}: ` : "";
      return printable(`${where}${f.severity} ${f.rule}: ${f.message}`);
    })
    .join("\n");
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds, to escape them.
const unprintable = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` with its control, line-separating and bidirectional characters as `\n`, `\r`, `\t` or `\uXXXX`. */
function printable(text: string): string {
  return text.replace(unprintable, (c) => escapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The public JSON shape of a finding: no internal path segments. */
export function findingToJson(f: Finding): Record<string, unknown> {
  const { path: _path, at: _at, ...rest } = f;
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
