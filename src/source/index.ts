/**
 * Text → documents. Reads multi-document YAML (JSON is YAML too) the way
 * sigs.k8s.io/yaml does (YAML 1.1 scalars, merge keys, unique keys), keeps
 * each document's syntax tree so a field path can be turned into a line and
 * column when — and only when — a finding needs one, and turns every problem
 * with the text (syntax, alias bombs, size, depth) into a finding with a line.
 * Imports value, path, findings and the `yaml` package.
 */
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
} from "yaml";
import { type Finding, parseError } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import { depthOf, type JsonValue } from "../value/index.js";

export interface SourceLimits {
  /** Bytes per input text; larger inputs are refused whole. */
  maxInputBytes: number;
  /** Bytes per document, as the API server's request limit (3 MiB). */
  maxDocumentBytes: number;
  /** Nesting depth of a document. */
  maxDepth: number;
  /** Alias resolutions per document (YAML "billion laughs"). */
  maxAliasCount: number;
}

export const defaultLimits: SourceLimits = {
  maxInputBytes: 64 * 1024 * 1024,
  maxDocumentBytes: 3 * 1024 * 1024,
  maxDepth: 512,
  maxAliasCount: 100,
};

export interface Position {
  line: number;
  column: number;
}

export interface SourceDocument {
  file: string;
  /** 0-based index among the documents of the file, empty ones included. */
  index: number;
  value: JsonValue;
  /** Line and column of the node at `path`, or of its nearest existing parent. */
  locate(path: FieldPath): Position;
}

export interface ParsedSource {
  documents: SourceDocument[];
  findings: Finding[];
}

export function parseSource(text: string, file: string, limits: Partial<SourceLimits> = {}): ParsedSource {
  const lim = { ...defaultLimits, ...limits };
  const findings: Finding[] = [];
  const at = (f: Finding, pos: Position, document?: number): Finding => ({ ...f, file, ...pos, document });
  if (text.length > lim.maxInputBytes) {
    findings.push(at(parseError(`input is larger than ${lim.maxInputBytes} bytes`), { line: 1, column: 1 }));
    return { documents: [], findings };
  }
  if (text.includes("\u0000")) {
    findings.push(at(parseError("input is binary, not YAML or JSON"), { line: 1, column: 1 }));
    return { documents: [], findings };
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, schema: "yaml-1.1", merge: true, uniqueKeys: true });
  const documents: SourceDocument[] = [];
  const position = (offset: number): Position => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  // parseAllDocuments returns an EmptyStream (a plain array) for an empty text.
  for (const [index, doc] of (Array.isArray(docs) ? docs : []).entries()) {
    const start = position(doc.range[0]);
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        const pos = position(e.pos[0]);
        findings.push(at(parseError(describeYamlError(e.message)), pos, index));
      }
      continue;
    }
    if (doc.contents === null) continue; // an empty document, e.g. after a trailing `---`
    if (doc.range[2] - doc.range[0] > lim.maxDocumentBytes) {
      findings.push(
        at(
          parseError(`Request entity too large: limit is ${lim.maxDocumentBytes}`, { severity: "error" }),
          start,
          index,
        ),
      );
      continue;
    }
    let value: JsonValue;
    try {
      value = doc.toJS({ maxAliasCount: lim.maxAliasCount }) as JsonValue;
    } catch (e) {
      // yaml throws a ReferenceError for an alias bomb; anything else is an input we cannot read either.
      findings.push(at(parseError(describeYamlError((e as Error).message)), start, index));
      continue;
    }
    if (value === null || value === undefined) continue;
    if (depthOf(value) > lim.maxDepth) {
      findings.push(at(parseError(`document nests deeper than ${lim.maxDepth} levels`), start, index));
      continue;
    }
    documents.push({ file, index, value, locate: (path) => locateIn(doc, path, position) });
  }
  return { documents, findings };
}

function describeYamlError(message: string): string {
  const first = message.split("\n")[0] ?? message;
  if (first.startsWith("Maximum call stack size exceeded") || first.includes("Stack overflow")) {
    return "document nests too deeply to be read";
  }
  if (first.startsWith("Excessive alias count")) {
    return "too many YAML aliases: the document expands like an alias bomb";
  }
  return first.replace(/ at line \d+, column \d+:?$/, "");
}

/** Walks the syntax tree along `path`; stops at the deepest node that exists. */
function locateIn(doc: Document, path: FieldPath, position: (offset: number) => Position): Position {
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  for (const seg of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (typeof seg === "number" && isSeq(node)) {
      const item = node.items[seg];
      if (item === undefined) break;
      node = item;
      offset = (item as Node).range?.[0] ?? offset;
      continue;
    }
    const key = typeof seg === "object" ? seg.key : String(seg);
    if (!isMap(node)) break;
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
    if (!pair) break;
    offset = (pair.key as Node).range?.[0] ?? offset;
    node = pair.value;
  }
  return position(offset);
}
