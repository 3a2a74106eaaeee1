import { isCrd } from "../crd/index.js";
import { type DiffOptions, diffCrds } from "../evolution/index.js";
import { type Finding, finding } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import { parseSource, type SourceDocument } from "../source/index.js";
import { displayText, getKey, isObject } from "../value/index.js";
import type { TextFile } from "./workspace.js";

/** An evolution finding: where it is in the new file and, for a removal, in the old one. */
export interface ChangeFinding extends Finding {
  oldPath?: FieldPath;
  oldFile?: string;
  oldLine?: number;
}

/**
 * Compares the CRDs of two revisions of a file (`kunion crd-diff`, and every
 * changed CRD in `kunion check`). CRDs are paired by name (a single CRD on
 * each side is paired whatever its name, so a rename shows as such); each
 * finding is placed on its line in the new file. A `# kunion:allow <rule-id>
 * <reason>` comment on that line accepts the finding: it stays, as a notice.
 */
export function diffCrdFiles(oldFile: TextFile, newFile: TextFile, options: DiffOptions = {}): ChangeFinding[] {
  const before = parseSource(oldFile.text, oldFile.path);
  const after = parseSource(newFile.text, newFile.path);
  const findings: ChangeFinding[] = [...before.findings, ...after.findings];
  const olds = before.documents.filter((d) => isCrd(d.value));
  const news = after.documents.filter((d) => isCrd(d.value));
  if (news.length === 0 && after.findings.length === 0) {
    const doc = after.documents[0];
    const detail = "the file holds no CustomResourceDefinition";
    findings.push({
      ...change(detail, "crd-invalid"),
      file: newFile.path,
      line: 1,
      column: 1,
      ...(doc ? doc.locate([]) : {}),
    });
  }
  const nameOf = (d: SourceDocument) => {
    const meta = isObject(d.value) ? getKey(d.value, "metadata") : undefined;
    return isObject(meta) ? displayText(getKey(meta, "name")) : "";
  };
  for (const next of news) {
    const prev = olds.length === 1 && news.length === 1 ? olds[0] : olds.find((o) => nameOf(o) === nameOf(next));
    if (!prev) continue; // a new CRD: nothing to break
    for (const f of diffCrds(prev.value, next.value, options) as ChangeFinding[]) {
      findings.push(placed(f, next, prev, newFile, oldFile));
    }
  }
  for (const prev of olds) {
    if (news.length === 1 && olds.length === 1) break;
    if (news.some((n) => nameOf(n) === nameOf(prev))) continue;
    const detail = `the CustomResourceDefinition ${nameOf(prev)} is gone: its objects cannot be read any more`;
    const f: ChangeFinding = {
      ...change(detail, "crd-removed"),
      file: newFile.path,
      line: 1,
      column: 1,
    };
    findings.push({ ...f, oldFile: oldFile.path, oldLine: prev.locate([]).line });
  }
  return allowed(findings, newFile.text);
}

/** A whole-file change, worded as the evolution rules word theirs (the rule id is printed beside it). */
function change(detail: string, rule: string): ChangeFinding {
  return { ...finding({ type: "CrdChange", path: [], detail, rule }), message: detail };
}

function placed(
  f: ChangeFinding,
  next: SourceDocument,
  prev: SourceDocument,
  newFile: TextFile,
  oldFile: TextFile,
): ChangeFinding {
  const out: ChangeFinding = { ...f, file: newFile.path, document: next.index, ...next.locate(f.path) };
  if (f.oldPath) {
    out.oldFile = oldFile.path;
    out.oldLine = prev.locate(f.oldPath).line;
  }
  return out;
}

const allowComment = /#\s*kunion:allow\s+([a-z0-9-]+)\s+(\S.*)$/;

function allowed(findings: ChangeFinding[], text: string): ChangeFinding[] {
  const lines = text.split("\n");
  return findings.map((f) => {
    const m = f.line ? allowComment.exec(lines[f.line - 1] ?? "") : null;
    if (!m || m[1] !== f.rule) return f;
    const reason = (m[2] as string).trim();
    return {
      ...f,
      severity: "notice",
      detail: `${f.detail} (allowed: ${reason})`,
      message: `${f.message} (allowed: ${reason})`,
    };
  });
}
