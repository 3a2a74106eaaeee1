/**
 * Text → documents. Reads multi-document YAML (JSON is YAML too) the way
 * sigs.k8s.io/yaml does (YAML 1.1 scalars, merge keys, unique keys), keeps
 * each document's syntax tree so a field path can be turned into a line and
 * column when — and only when — a finding needs one, and turns every problem
 * with the text (syntax, alias bombs, size, depth) into a finding with a line.
 * Imports value, path, findings and the `yaml` and `js-yaml` packages.
 */
import { CORE_SCHEMA, load as loadYaml } from "js-yaml";
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { type Finding, parseError } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import type { JsonValue } from "../value/index.js";
import { readTree } from "./tree.js";

export interface SourceLimits {
  /** Bytes per input text; larger inputs are refused whole. */
  maxInputBytes: number;
  /** Bytes per document, as the API server's request limit (3 MiB). */
  maxDocumentBytes: number;
  /** Nesting depth of a document. */
  maxDepth: number;
}

export const defaultLimits: SourceLimits = {
  maxInputBytes: 64 * 1024 * 1024,
  maxDocumentBytes: 3 * 1024 * 1024,
  maxDepth: 512,
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
  /**
   * The document's text with edits applied, comments and layout kept; the
   * original text when there are none. Undefined for a document that only a
   * lenient reading could parse (its syntax tree is not trustworthy).
   */
  render(edits: readonly Edit[]): string | undefined;
}

/** Set `value` at `path`, or remove what is there when `value` is undefined. */
export interface Edit {
  path: FieldPath;
  value?: JsonValue;
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
  const documents: SourceDocument[] = [];
  for (const chunk of splitDocuments(text)) {
    const index = chunk.index;
    const lines = new LineCounter();
    const doc = parseDocument(chunk.text, {
      lineCounter: lines,
      schema: "yaml-1.1",
      customTags: asGoYaml,
      merge: true,
      // readTree finds duplicate keys in one pass: the package's own check is quadratic.
      uniqueKeys: false,
    });
    const position = (offset: number): Position => {
      const p = lines.linePos(offset);
      return { line: p.line + chunk.line, column: p.col };
    };
    const start = position(doc.range[0]);
    if (doc.contents === null && doc.errors.length === 0) continue; // an empty document
    if (chunk.text.length > lim.maxDocumentBytes) {
      findings.push(at(parseError(`Request entity too large: limit is ${lim.maxDocumentBytes}`), start, index));
      continue;
    }
    let value: JsonValue | undefined;
    if (doc.errors.length > 0) {
      value = readLeniently(chunk.text, lim);
      if (value === undefined) {
        for (const e of doc.errors)
          findings.push(at(parseError(describeYamlError(e.message)), position(e.pos[0]), index));
        continue;
      }
    } else {
      const tree = readTree(doc, lim.maxDepth);
      for (const d of tree.duplicates) {
        const first = position(d.first).line;
        const detail = `mapping key ${JSON.stringify(d.key)} already defined at line ${first}`;
        findings.push(at(parseError(detail), position(d.offset), index));
      }
      if (tree.refusal) {
        findings.push(at(parseError(tree.refusal.message), position(tree.refusal.offset), index));
        continue;
      }
      if (tree.duplicates.length > 0) continue;
      value = tree.value;
    }
    if (value === null || value === undefined) continue;
    const lenient = doc.errors.length > 0;
    documents.push({
      file,
      index,
      value,
      locate: (path) => locateIn(doc, path, position),
      render: (edits) => (lenient ? undefined : render(doc, chunk.text, edits)),
    });
  }
  return { documents, findings };
}

/** A document for a value that came without text (an HTTP body field, an API call). */
export function documentOf(value: JsonValue, file: string): SourceDocument {
  return { file, index: 0, value, locate: () => ({ line: 1, column: 1 }), render: () => undefined };
}

// go-yaml v2 (sigs.k8s.io/yaml) reads YAML 1.1 scalars, but a float needs a
// digit (`.` and `e5` are strings), and there are no sexagesimal numbers
// (`12:30` is a string) nor timestamps (kept as written).
const goFloat = /^[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*\.[0-9_]*)$/;
const goFloatExp = /^[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*(?:\.[0-9_]*)?)[eE][-+]?[0-9]+$/;

function asGoYaml<T>(tags: T[]): T[] {
  const facts = (t: T) =>
    typeof t === "object" && t !== null ? (t as { tag?: string; format?: string; test?: unknown }) : {};
  return tags
    .filter((t) => facts(t).format !== "TIME" && facts(t).tag !== "tag:yaml.org,2002:timestamp")
    .map((t) => {
      const { tag, format, test } = facts(t);
      if (tag !== "tag:yaml.org,2002:float" || !(test instanceof RegExp) || test.source.includes("inf")) return t;
      return { ...t, test: format === "EXP" ? goFloatExp : goFloat };
    });
}

interface Chunk {
  text: string;
  /** Lines before the chunk in the whole text. */
  line: number;
  index: number;
}

/**
 * Splits a stream on `---` lines before any parsing, as Kubernetes' YAML
 * reader (apimachinery util/yaml) does: a broken document cannot swallow the
 * next one, and document indexes match kubectl's.
 */
function splitDocuments(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let begin = 0;
  let line = 0;
  let chunkLine = 0;
  let from = 0;
  while (from <= text.length) {
    const newline = text.indexOf("\n", from);
    const end = newline < 0 ? text.length : newline;
    if (isSeparator(text.slice(from, end))) {
      chunks.push({ text: text.slice(begin, from), line: chunkLine, index: chunks.length });
      begin = end + 1;
      chunkLine = line + 1;
    }
    if (newline < 0) break;
    from = newline + 1;
    line++;
  }
  chunks.push({ text: text.slice(begin), line: chunkLine, index: chunks.length });
  return chunks;
}

const isSeparator = (line: string) => line.startsWith("---") && /^---[ \t]*(#.*)?\r?$/.test(line);

/**
 * go-yaml accepts a quoted multi-line scalar whose closing quote sits at its
 * key's indentation (`args: ['` … `']`, common in Argo workflows); the `yaml`
 * package does not. js-yaml reads such documents as go-yaml does. Aliases are
 * refused here: js-yaml shares aliased nodes, and a shared graph is how an
 * alias bomb would slip past the expansion limit.
 */
function readLeniently(text: string, lim: SourceLimits): JsonValue | undefined {
  try {
    const value = loadYaml(text, { schema: CORE_SCHEMA, json: true }) as JsonValue;
    return hasSharedNodes(value, lim.maxDepth) ? undefined : value;
  } catch {
    return undefined;
  }
}

/** True when an object is reached twice (aliases) or nesting passes `maxDepth`. */
function hasSharedNodes(value: JsonValue, maxDepth: number): boolean {
  const seen = new Set<object>();
  const stack: Array<[JsonValue, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [JsonValue, number];
    if (typeof v !== "object" || v === null) continue;
    if (seen.has(v) || depth > maxDepth) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function describeYamlError(message: string): string {
  const first = message.split("\n")[0] ?? message;
  if (first.startsWith("Maximum call stack size exceeded") || first.includes("Stack overflow")) {
    return "document nests too deeply to be read";
  }
  return first.replace(/ at line \d+, column \d+:?$/, "");
}

function render(doc: Document, original: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return original;
  const copy = doc.clone();
  for (const { path, value } of edits) {
    const keys = path.map((seg) => (typeof seg === "object" ? seg.key : seg));
    if (value === undefined) copy.deleteIn(keys);
    else copy.setIn(keys, copy.createNode(value));
  }
  return copy.toString({ flowCollectionPadding: false });
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
