import { isCrd } from "../crd/index.js";
import { type DiffOptions, diffCrds } from "../evolution/index.js";
import { type Finding, finding } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import { locateFinding, type ParsedSource, parseSource, type SourceDocument } from "../source/index.js";
import { displayText, getKey, isObject } from "../value/index.js";
import { withListItems } from "./lists.js";
import type { ParsedFile, TextFile } from "./workspace.js";

/** An evolution finding: where it is in the new file and, for a removal, in the old one. */
export interface ChangeFinding extends Finding {
  oldPath?: FieldPath;
  oldFile?: string;
  oldLine?: number;
}

/**
 * One revision of a file as whoever read it parsed it: `{file, text, ...parseSource(text, file)}`,
 * or a value that came without text (`{file, documents: [documentOf(value, file)], findings: []}`).
 */
export interface CrdRevision extends ParsedSource {
  /** The name findings about the whole file carry. */
  file: string;
  /** The text the documents were read from: its `# kunion:allow` comments accept findings. */
  text?: string;
}

/**
 * Compares the CRDs of two revisions of a file (`kunion crd-diff`, and every
 * changed CRD in `kunion check`), each read once by its caller. CRDs are
 * paired by name (a single CRD on each side is paired whatever its name, so a
 * rename shows as such); each finding is placed in the new document
 * (`locateFinding`), and a removal also in the old one. A `# kunion:allow
 * <rule-id> <reason>` comment on a finding's line of the new text accepts the
 * finding: it stays, as a notice. What reading the texts found (`findings` of
 * each revision) is the reader's to report: it is not repeated here, and a
 * revision that could not be read is not said to hold no CRD, nor to have lost one.
 */
export function diffCrdDocuments(before: CrdRevision, after: CrdRevision, options: DiffOptions = {}): ChangeFinding[] {
  const findings: ChangeFinding[] = [];
  // a CRD may come as an item of a List (`kubectl get crd -o yaml`)
  const olds = withListItems(before.documents).filter((d) => isCrd(d.value));
  const news = withListItems(after.documents).filter((d) => isCrd(d.value));
  if (news.length === 0 && after.findings.length === 0) {
    const f = wholeFile("the file holds no CustomResourceDefinition", "crd-invalid", after.file);
    const doc = after.documents[0];
    findings.push(doc ? locateFinding(doc, f) : f);
  }
  const single = olds.length === 1 && news.length === 1;
  for (const next of news) {
    const prev = single ? olds[0] : olds.find((o) => nameOf(o) === nameOf(next));
    if (!prev) continue; // a new CRD: nothing to break
    for (const f of diffCrds(prev.value, next.value, options)) findings.push(placed(f, next, prev));
  }
  // A CRD missing from a revision that did not read cleanly may be in the part that did not: its error says so.
  const unreadable = after.findings.some((f) => f.severity === "error");
  for (const prev of olds) {
    if (single || unreadable || news.some((n) => nameOf(n) === nameOf(prev))) continue;
    const detail = `the CustomResourceDefinition ${nameOf(prev)} is gone: its objects cannot be read any more`;
    const f = wholeFile(detail, "crd-removed", after.file);
    findings.push({ ...f, oldFile: prev.file, oldLine: prev.locate([]).line });
  }
  return after.text === undefined ? findings : allowed(findings, after.text);
}

/** `diffCrdDocuments` over two texts, each parsed here unless it comes parsed: what reading them found comes first. */
export function diffCrdFiles(
  oldFile: TextFile | ParsedFile,
  newFile: TextFile | ParsedFile,
  options: DiffOptions = {},
): ChangeFinding[] {
  const read = (f: TextFile | ParsedFile): CrdRevision => ({
    file: f.path,
    text: f.text,
    ...("documents" in f ? f : parseSource(f.text, f.path)),
  });
  const before = read(oldFile);
  const after = read(newFile);
  return [...before.findings, ...after.findings, ...diffCrdDocuments(before, after, options)];
}

function nameOf(d: SourceDocument): string {
  const meta = isObject(d.value) ? getKey(d.value, "metadata") : undefined;
  return isObject(meta) ? displayText(getKey(meta, "name")) : "";
}

/** A whole-file change on the file's first line, worded as the evolution rules word theirs (the rule id is printed beside it). */
function wholeFile(detail: string, rule: string, file: string): ChangeFinding {
  const f = finding({ type: "CrdChange", path: [], detail, rule });
  return { ...f, message: detail, file, line: 1, column: 1 };
}

/** A finding of the CRD pair: in the new document, and for a removal where the removed part was in the old one. */
function placed(f: ChangeFinding, next: SourceDocument, prev: SourceDocument): ChangeFinding {
  const out: ChangeFinding = locateFinding(next, f);
  if (f.oldPath) {
    out.oldFile = prev.file;
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
