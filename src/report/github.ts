/**
 * Findings → GitHub Actions workflow commands, one line per finding:
 * `::error file=F,line=L,col=C,title=kunion <rule>::<message>`. GitHub turns
 * each into an annotation on the line. Pure: returns the text.
 *
 * Every value is escaped as the runner expects (actions/toolkit's
 * `escapeData`/`escapeProperty`), so a hostile message or file name can
 * neither end the command early nor start a new one on a line of its own.
 */
import { compareFindings, type Finding, type Severity } from "../findings/index.js";

/** Escapes the message part of a workflow command: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a property value: what {@link escapeData} does, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

const commands: Record<Severity, string> = { error: "error", warning: "warning", notice: "notice" };

/** One workflow command for one finding. */
export function githubCommand(f: Finding): string {
  const props: string[] = [];
  if (f.file !== undefined && f.file !== "") {
    props.push(`file=${escapeProperty(f.file)}`);
    if (f.line !== undefined && f.line >= 1) {
      props.push(`line=${f.line}`);
      if (f.column !== undefined && f.column >= 1) props.push(`col=${f.column}`);
    }
  }
  props.push(`title=${escapeProperty(`kunion ${f.rule}`)}`);
  return `::${commands[f.severity]} ${props.join(",")}::${escapeData(f.message)}`;
}

/** Workflow commands for all findings, sorted by file and position, one per line. */
export function formatGithub(findings: readonly Finding[]): string {
  return [...findings].sort(compareFindings).map(githubCommand).join("\n");
}
