/**
 * What a person reads when a run finds a flood: identical parse errors as one
 * line with their count, and at most a few findings per file with one line
 * saying how many more. JSON and SARIF keep every finding; so do the counts.
 */
import { compareFindings, type Finding, formatGithub, formatText, skippedNotice } from "../index.js";

/** How many lines a grouped parse error lists before it stops. */
const linesListed = 5;

/**
 * Parse errors of one file with the same message, as one finding at the first
 * of them that says how many there were and where the others are.
 */
export function groupParseErrors(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  const out: (Finding | Finding[])[] = [];
  for (const f of [...findings].sort(compareFindings)) {
    if (f.type !== "ParseError" || f.file === undefined) {
      out.push(f);
      continue;
    }
    const key = `${f.file}\u0000${f.severity}\u0000${f.message}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else {
      const first = [f];
      groups.set(key, first);
      out.push(first);
    }
  }
  return out.map((entry) => {
    if (!Array.isArray(entry)) return entry;
    const [first, ...others] = entry as [Finding, ...Finding[]];
    if (others.length === 0) return first;
    const lines = others.slice(0, linesListed).map((f) => f.line ?? 1);
    const more = others.length > linesListed ? ", …" : "";
    const suffix = ` (${entry.length} times; also at line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}${more})`;
    return { ...first, detail: first.detail + suffix, message: first.message + suffix };
  });
}

const rank = { error: 0, warning: 1, notice: 2 } as const;

/**
 * At most `max` findings of each file (0: all), the most severe first; the
 * rest counted by file.
 */
export function limitPerFile(
  findings: readonly Finding[],
  max: number,
): { shown: Finding[]; hidden: Map<string, number> } {
  const hidden = new Map<string, number>();
  if (max === 0) return { shown: [...findings], hidden };
  const byFile = new Map<string, Finding[]>();
  const shown: Finding[] = [];
  for (const f of findings) {
    if (f.file === undefined) shown.push(f);
    else {
      const list = byFile.get(f.file);
      if (list) list.push(f);
      else byFile.set(f.file, [f]);
    }
  }
  for (const [file, list] of byFile) {
    const ordered = [...list].sort((a, b) => rank[a.severity] - rank[b.severity] || compareFindings(a, b));
    shown.push(...ordered.slice(0, max));
    if (ordered.length > max) hidden.set(file, ordered.length - max);
  }
  return { shown, hidden };
}

/** Text or GitHub workflow commands of the findings, grouped and limited, a line per file that was cut. */
export function formatLimited(findings: readonly Finding[], format: "text" | "github", maxPerFile: number): string {
  const { shown, hidden } = limitPerFile(groupParseErrors(findings), maxPerFile);
  const print = format === "github" ? formatGithub : formatText;
  const byFile = new Map<string | undefined, Finding[]>();
  for (const f of [...shown].sort(compareFindings)) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const parts: string[] = [];
  for (const [file, list] of byFile) {
    parts.push(print(list));
    const more = file === undefined ? undefined : hidden.get(file);
    if (more === undefined) continue;
    const detail = `${more} more finding(s) in this file not shown (--max-per-file 0 shows every one)`;
    if (format === "github") parts.push(print([skippedNotice(detail, file)]));
    else parts.push(`${file}: … ${detail}`);
  }
  return parts.filter((p) => p !== "").join("\n");
}
