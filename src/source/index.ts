/**
 * Bytes → text → documents. Bytes become text as UTF-8 alone, as kubectl
 * reads them (text.ts). Reads multi-document YAML (JSON is YAML too) the way
 * sigs.k8s.io/yaml does (YAML 1.1 scalars, merge keys, unique keys), and a
 * stream of JSON values as kubectl does (json.ts), keeps
 * each document's syntax tree so a field path can be turned into a line and
 * column when — and only when — a finding needs one, and turns every problem
 * with the text (syntax, alias bombs, size, depth) into a finding with a line.
 * And back: documents edited in their syntax trees (render.ts), values printed
 * as YAML that reads back the same (print.ts).
 * Imports value, path, findings, go and the `yaml` and `js-yaml` packages.
 */
import { load as loadYaml } from "js-yaml";
import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  type Pair,
  Parser,
  type YAMLMap,
  YAMLParseError,
} from "yaml";
import { type Finding, invalid, parseError } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import { deepEqual, type JsonValue } from "../value/index.js";
import { goYamlSchema, readQuickly } from "./fast.js";
import { isJsonValue, type JsonStream, jsonStream } from "./json.js";
import { printYaml } from "./print.js";
import { applyEdits, type Edit, editInPlace } from "./render.js";
import { goYaml } from "./schema.js";
import { readTree } from "./tree.js";

export { printOptions, printYaml, readsAsNonString } from "./print.js";
export { type Edit, editsBetween } from "./render.js";
export { type DecodedText, decodeText } from "./text.js";

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
   * The document's text with edits applied, which reads back as `value` with
   * the edits applied; the original text, byte for byte, when there are none.
   * Comments and layout are kept where the edits can be made in the syntax
   * tree; where they cannot (an alias, an anchor or a merge key shares the
   * place, or only the lenient reader could read the text) the document is
   * printed anew and `onLost` is told why. Undefined for a document without
   * text of its own (an object given as a value, an item of a List).
   */
  render(edits: readonly Edit[], onLost?: (why: string) => void): string | undefined;
  /** For an object read from inside a document (an item of a List): that document, and the object's path in it. */
  within?: { document: SourceDocument; path: FieldPath };
}

/** A finding placed in the document it was found in: file, document index, and the line and column of its field. */
export function locateFinding(doc: SourceDocument, f: Finding): Finding {
  return { ...f, file: doc.file, document: doc.index, ...doc.locate(f.at ?? f.path) };
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
  const chunks = documentChunks(text);
  for (const chunk of chunks) {
    const broken = chunk.json?.broken;
    if (broken) {
      findings.push(at(parseError(notJsonValue(broken.message)), positionIn(chunk, broken.at), chunk.index));
      continue;
    }
    const quick = chunk.text.length > lim.maxDocumentBytes ? undefined : readQuickly(chunk.text, lim.maxDepth);
    if (quick) {
      if (quick.value !== null) documents.push(quickDocument(file, chunk, quick.value, lim.maxDepth));
      continue;
    }
    const index = chunk.index;
    const { parsed, position } = parseWithLines(chunk, lim.maxDepth);
    if ("tooDeep" in parsed) {
      findings.push(at(parseError("document nests too deeply to be read"), position(parsed.tooDeep), index));
      continue;
    }
    const doc = parsed.doc;
    const start = position(doc.range[0]);
    if (doc.contents === null && doc.errors.length === 0) continue; // an empty document
    if (chunk.text.length > lim.maxDocumentBytes) {
      findings.push(at(parseError(`Request entity too large: limit is ${lim.maxDocumentBytes}`), start, index));
      continue;
    }
    let value: JsonValue | undefined;
    // Whether the value may hold infinity or NaN: the lenient reading does not say.
    let nonFinite = true;
    if (doc.errors.length > 0) {
      value = readLeniently(chunk.text, lim);
      if (value === undefined) {
        const directive = chunks[index + 1] === undefined ? undefined : loneDirective(chunk.text);
        if (directive !== undefined) findings.push(at(parseError(directiveCut), position(directive), index));
        else {
          for (const e of doc.errors)
            findings.push(at(parseError(describeYamlError(e.message)), position(e.pos[0]), index));
        }
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
      nonFinite = tree.nonFinite;
    }
    if (value === null || value === undefined) continue;
    const read = value;
    const notJson = nonFinite ? nonFiniteNumbers(read) : [];
    if (notJson.length > 0) {
      for (const f of notJson) findings.push(at(f, locateIn(doc, f.path, position), index));
      continue;
    }
    // The `yaml` package could not read the text: only js-yaml did, so the syntax tree is not the document.
    const tree = doc.errors.length > 0 ? undefined : doc;
    documents.push({
      file,
      index,
      value: read,
      locate: (path) => locateIn(doc, path, position),
      render: (edits, onLost) => render(tree, chunk, read, edits, onLost),
    });
  }
  return { documents, findings };
}

/**
 * A document the quick reading read: its syntax tree is built on the first
 * call that needs it (a finding to locate, an edit to render), and only then.
 */
function quickDocument(file: string, chunk: DocumentChunk, value: JsonValue, maxDepth: number): SourceDocument {
  let full: ReturnType<typeof parseWithLines> | undefined;
  const tree = () => {
    full ??= parseWithLines(chunk, maxDepth);
    return full;
  };
  return {
    file,
    index: chunk.index,
    value,
    locate: (path) => {
      if (path.length === 0) return rootStart(chunk);
      const { parsed, position } = tree();
      return "doc" in parsed ? locateIn(parsed.doc, path, position) : position(0);
    },
    render: (edits, onLost) => {
      const { parsed } = tree();
      const doc = "doc" in parsed && parsed.doc.errors.length === 0 ? parsed.doc : undefined;
      return render(doc, chunk, value, edits, onLost);
    },
  };
}

/**
 * Where a quickly read document's root begins, told from its text without the syntax tree: the first
 * character that is not blank and starts no comment. The quick reading takes no document markers,
 * directives or byte order marks (fast.ts), so that is where the tree puts the root too.
 */
function rootStart(chunk: DocumentChunk): Position {
  const text = chunk.text;
  for (let lineStart = 0, line = 0; lineStart < text.length; line++) {
    const newline = text.indexOf("\n", lineStart);
    const end = newline < 0 ? text.length : newline;
    let i = lineStart;
    while (i < end && (text[i] === " " || text[i] === "\t" || text[i] === "\r")) i++;
    if (i < end && text[i] !== "#")
      return { line: chunk.line + line + 1, column: i - lineStart + 1 + (line === 0 ? chunk.column : 0) };
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return { line: chunk.line + 1, column: chunk.column + 1 };
}

/** The chunk's syntax tree, and the line and column (in the whole stream) of an offset in the chunk. */
function parseWithLines(chunk: DocumentChunk, maxDepth: number) {
  const lines = new LineCounter();
  const position = (offset: number): Position => {
    const p = lines.linePos(offset);
    return { line: p.line + chunk.line, column: p.line === 1 ? p.col + chunk.column : p.col };
  };
  return { parsed: parseChunk(chunk.text, lines, maxDepth), position };
}

/** A document for a value that came without text (an HTTP body field, an API call). */
export function documentOf(value: JsonValue, file: string): SourceDocument {
  return { file, index: 0, value, locate: () => ({ line: 1, column: 1 }), render: () => undefined };
}

export interface DocumentChunk {
  /** The document's text, without the `---` line that ends it. */
  text: string;
  /** Offset of the text in the whole stream. */
  offset: number;
  /** Lines before the chunk in the whole stream. */
  line: number;
  /** Columns before the chunk on its first line: a value of a JSON stream may follow another on its line. */
  column: number;
  /** 0-based index among the documents of the stream, empty ones included (SourceDocument.index). */
  index: number;
  /**
   * Set on the chunks of a JSON stream, each a value and the blanks after it,
   * which must stay JSON; the last may be what follows the values and is no
   * value, refused `at` (in the chunk) in Go's words.
   */
  json?: { broken?: { at: number; message: string } };
}

/**
 * Splits a stream on `---` lines before any parsing, as Kubernetes' YAML
 * reader (apimachinery util/yaml) does: a broken document cannot swallow the
 * next one, and document indexes match kubectl's. The text between two chunks
 * is their `---` line. A stream of JSON values is split between its values.
 */
export function documentChunks(text: string): DocumentChunk[] {
  const stream = jsonStream(text);
  if (stream) return jsonChunks(text, stream);
  const chunks: DocumentChunk[] = [];
  let begin = 0;
  let line = 0;
  let chunkLine = 0;
  let from = 0;
  while (from <= text.length) {
    const newline = text.indexOf("\n", from);
    const end = newline < 0 ? text.length : newline;
    if (isSeparator(text.slice(from, end))) {
      chunks.push({ text: text.slice(begin, from), offset: begin, line: chunkLine, column: 0, index: chunks.length });
      begin = end + 1;
      chunkLine = line + 1;
    }
    if (newline < 0) break;
    from = newline + 1;
    line++;
  }
  chunks.push({ text: text.slice(begin), offset: begin, line: chunkLine, column: 0, index: chunks.length });
  return chunks;
}

/** The chunks of a JSON stream: each value with the blanks after it, then what follows the values, if anything. */
function jsonChunks(text: string, { starts, broken }: JsonStream): DocumentChunk[] {
  const ends = [...starts.slice(1), broken?.start ?? text.length];
  let line = 0;
  let lineStart = 0;
  let counted = 0;
  const chunkAt = (offset: number, end: number, index: number): DocumentChunk => {
    for (let i = text.indexOf("\n", counted); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    counted = offset;
    return { text: text.slice(offset, end), offset, line, column: offset - lineStart, index, json: {} };
  };
  const chunks = starts.map((start, i) => chunkAt(start, ends[i] as number, i));
  if (broken) {
    const rest = chunkAt(broken.start, text.length, chunks.length);
    rest.json = { broken: { at: broken.at - broken.start, message: broken.message } };
    chunks.push(rest);
  }
  return chunks;
}

/** The line and column (in the whole stream) of an offset in the chunk. */
function positionIn(chunk: DocumentChunk, offset: number): Position {
  const before = chunk.text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  const lines = before.split("\n").length - 1;
  return { line: chunk.line + lines + 1, column: offset - lineStart + 1 + (lines === 0 ? chunk.column : 0) };
}

/**
 * One document's syntax tree, as the `yaml` package's parseDocument builds
 * it, but refused as soon as its collections nest deeper than `maxDepth` (+ a
 * document and a scalar on the parser's stack): the package's composer
 * recurses once per level, and past some depth it overflows the stack at a
 * point that depends on how deep the caller's stack already is. The parser
 * keeps its own stack, so the check costs nothing and stops at the first
 * character too deep, however long the input.
 */
function parseChunk(
  text: string,
  lines: LineCounter,
  maxDepth: number,
): { doc: Document.Parsed } | { tooDeep: number } {
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    const offset = parser.offset;
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > maxDepth + 2) return { tooDeep: offset };
  }
  for (const token of parser.end()) tokens.push(token);
  let doc: Document.Parsed | undefined;
  for (const d of new Composer(goYaml).compose(tokens, true, text.length)) {
    if (doc === undefined) doc = d;
    else {
      // A second document after a `...` line: kubectl splits only at --- lines, and go-yaml decodes the first
      // document of what it is given and never reads on.
      doc.errors.push(new YAMLParseError([d.range[0], d.range[1]], "MULTIPLE_DOCS", secondDocument));
      break;
    }
  }
  return { doc: doc as Document.Parsed };
}

/**
 * Where a chunk's first directive stands when the chunk holds directives and
 * nothing else but comments: the `---` line after them, which YAML reads as
 * their end, is where the stream splitting (kubectl's too) ended the chunk.
 */
function loneDirective(text: string): number | undefined {
  const at = /^%/m.exec(text)?.index;
  if (at === undefined || !text.split("\n").every((line) => /^(?:%|[ \t]*(?:#|\r?$))/.test(line))) return undefined;
  return at;
}

const secondDocument =
  'a second document after a "..." line, with no --- line before it: kubectl splits a file at its --- lines only and reads the first document of each part, so this one would be dropped without a word; start it with ---';

const notJsonValue = (go: string) =>
  `not a JSON value: kubectl reads a file that starts with several JSON values as a stream of JSON values to its end, and refuses this ("${go}")`;

const directiveCut =
  'directive cut from its document: kubectl splits a file at its --- lines, so it reads this directive alone and refuses it ("did not find expected <document start>"); remove the directive';

/**
 * Infinity and NaN (`.inf`, `.nan`: numbers to go-yaml) where a value holds
 * them: JSON has no such numbers, sigs.k8s.io/yaml fails to convert the
 * document ("json: unsupported value: +Inf"), and kubectl refuses it. A node
 * aliases share is reported once.
 */
function nonFiniteNumbers(value: JsonValue): Finding[] {
  const found: Finding[] = [];
  const seen = new Set<object>();
  const visit = (v: JsonValue, path: FieldPath): void => {
    if (typeof v === "number" && !Number.isFinite(v)) {
      const go = Number.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
      const detail = `${go}: infinity and NaN are not JSON numbers: kubectl refuses the document`;
      found.push(invalid(path, undefined, detail, { rule: "parse" }));
    }
    if (typeof v !== "object" || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) for (const [i, item] of v.entries()) visit(item, [...path, i]);
    else for (const [k, item] of Object.entries(v)) visit(item, [...path, k]);
  };
  visit(value, []);
  return found;
}

const isSeparator = (line: string) => line.startsWith("---") && /^---[ \t]*(#.*)?\r?$/.test(line);

/**
 * go-yaml accepts a quoted multi-line scalar whose closing quote sits at its
 * key's indentation (`args: ['` … `']`, common in Argo workflows); the `yaml`
 * package does not. js-yaml reads such documents as go-yaml does, scalars
 * included (YAML 1.1, as the quick reading has them). Aliases are
 * refused here: js-yaml shares aliased nodes, and a shared graph is how an
 * alias bomb would slip past the expansion limit.
 */
function readLeniently(text: string, lim: SourceLimits): JsonValue | undefined {
  try {
    const value = loadYaml(text, { schema: goYamlSchema, json: true }) as JsonValue;
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

/**
 * The text of a document with edits: made in its syntax tree when that reads
 * back as the edited value, else the edited value printed anew, saying why.
 * A value of a JSON stream stays JSON, with the blanks after it: YAML there
 * would end the stream for kubectl.
 */
function render(
  doc: Document | undefined,
  chunk: DocumentChunk,
  value: JsonValue,
  edits: readonly Edit[],
  onLost: ((why: string) => void) | undefined,
): string {
  const original = chunk.text;
  if (edits.length === 0) return original;
  // Printed with the document's line breaks: a quoted carriage return is escaped, so none is in the text.
  const lineBreaks = (text: string) => (original.includes("\r\n") ? text.replaceAll("\n", "\r\n") : text);
  const blanksAfter = chunk.json ? original.slice(original.trimEnd().length) : "";
  const edited = applyEdits(value, edits);
  let lost = "only a lenient reading could read it: its syntax tree is not the document";
  if (doc) {
    const inPlace = editInPlace(doc, original, edits);
    if ("text" in inPlace && readsBackAs(inPlace.text, edited)) {
      if (!chunk.json) return lineBreaks(inPlace.text);
      if (isJsonValue(inPlace.text)) return lineBreaks(inPlace.text.trimEnd()) + blanksAfter;
      lost = "the text edited in place is not JSON, which a value of a JSON stream must stay";
    } else lost = "text" in inPlace ? "the text edited in place did not read back as the edited object" : inPlace.lost;
  }
  onLost?.(lost);
  return chunk.json ? JSON.stringify(edited) + blanksAfter : lineBreaks(printYaml(edited));
}

function readsBackAs(text: string, value: JsonValue): boolean {
  const { documents, findings } = parseSource(text, "");
  return findings.length === 0 && documents.length === 1 && deepEqual(documents[0]?.value, value);
}

/** Walks the syntax tree along `path`; stops at the deepest node that exists. */
/** Large maps' pairs by key, built on a map's first lookup: placing a finding on each of many keys stays linear. */
const pairsByKey = new WeakMap<YAMLMap, Map<string, Pair>>();

/** The first pair of `map` whose scalar key is `key`. */
function pairOf(map: YAMLMap, key: string): Pair | undefined {
  const matches = (p: unknown): p is Pair => isPair(p) && isScalar(p.key) && String(p.key.value) === key;
  if (map.items.length <= 32) return map.items.find(matches);
  let index = pairsByKey.get(map);
  if (index === undefined) {
    index = new Map();
    for (const p of map.items)
      if (isPair(p) && isScalar(p.key) && !index.has(String(p.key.value))) index.set(String(p.key.value), p);
    pairsByKey.set(map, index);
  }
  return index.get(key);
}

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
    const pair = pairOf(node, key);
    if (!pair) break;
    offset = (pair.key as Node).range?.[0] ?? offset;
    node = pair.value;
  }
  return position(offset);
}
