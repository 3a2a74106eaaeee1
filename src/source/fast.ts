/**
 * The quick reading of a document: js-yaml builds the value about ten times
 * faster than the `yaml` package builds its syntax tree, so a document is
 * read here first and its syntax tree built only when a finding needs a
 * line (locate) or a fix needs the text (render). Scalars resolve through the
 * very tags the syntax-tree reading uses (schema.ts: go-yaml v2's YAML 1.1),
 * so both readings give the same value. Everything the quick reading does not
 * handle as go-yaml does is left to the full one (index.ts), which also
 * reports every problem: anchors and aliases (expansion limits, merge keys),
 * tags, directives, collections and nulls as keys, duplicate keys, syntax errors,
 * infinity and NaN, nesting near the limit.
 */
import { FAILSAFE_SCHEMA, type LoadOptions, load, Type } from "js-yaml";
import { Document, isScalar } from "yaml";
import type { JsonObject, JsonValue } from "../value/index.js";
import { goYaml } from "./schema.js";
import { scalarValue } from "./tree.js";

interface ScalarTag {
  test: RegExp;
  resolve(text: string, onError: (message: string) => void, options: object): unknown;
}

const goDocument = new Document(null, goYaml);
/** The tags a plain scalar is tested against, in the order the `yaml` package's composer tries them. */
const scalarTags = (goDocument.schema.tags as unknown as Array<Partial<ScalarTag> & { default?: unknown }>).filter(
  (t): t is ScalarTag & { default: true } => t.default === true && t.test instanceof RegExp,
);
/** Every test above needs one of these first characters, or an empty scalar (null): the rest are strings. */
const mayBeTyped = /^[-+.0-9~NnYyTtOoFf]/;

/** Set when the text needs the full reading: reset before each document. */
let unsure = false;
let matched: ScalarTag | undefined;
const onError = () => {
  unsure = true;
};

const implicitTag = "tag:kunion.dev,2026:go-yaml-scalar";
const goScalar = new Type(implicitTag, {
  kind: "scalar",
  resolve: (text: unknown) => {
    if (typeof text !== "string" || (text !== "" && !mayBeTyped.test(text))) return false;
    matched = scalarTags.find((t) => t.test.test(text));
    return matched !== undefined;
  },
  construct: (text: string) => {
    const read = (matched as ScalarTag).resolve(text, onError, goDocument.options);
    // Some tags answer a Scalar node (as the composer takes them), some a bare value.
    const value = scalarValue(isScalar(read) ? read.value : read, text);
    // `.inf` or `.nan`, which no JSON has: the full reading reports where.
    if (typeof value === "number" && !Number.isFinite(value)) unsure = true;
    return value;
  },
});

/** js-yaml reading scalars as go-yaml v2: no tags but str, seq and map. */
export const goYamlSchema = FAILSAFE_SCHEMA.extend({ implicit: [goScalar] });

/** Where each node being read began, innermost last: a flow mapping's entries are its keys. */
const opened: number[] = [];

/** A merge key, a tag or an anchor on any node, or a key that may be a collection: the full reading decides. */
function listener(event: string, node: object): void {
  // js-yaml's loader state: the node about to be read or just read, and where the reading stands.
  const state = node as LoaderState;
  const text = state.input;
  if (event === "open") {
    opened.push(state.position);
    if (explicitKeyBefore(text, state.position)) unsure = true;
    return;
  }
  const start = opened.pop() ?? 0;
  if (state.anchor !== null) unsure = true;
  else if (state.tag !== null && state.tag !== "?" && state.tag !== implicitTag) unsure = true;
  else if (state.tag === "?" && state.result === "<<") unsure = true;
  else if (state.kind === "mapping" || state.kind === "sequence") {
    // A collection as a key: before a `:`, or as an entry of a flow mapping (`{[a]}`, `{{ .Values.x }}`).
    if (codeAfter(text, state.position) === 0x3a) unsure = true;
    else {
      const before = codeBefore(text, start);
      const parent = opened[opened.length - 1];
      if ((before === 0x7b || before === 0x2c) && parent !== undefined && codeAfter(text, parent) === 0x7b)
        unsure = true;
    }
  }
}

interface LoaderState {
  tag: string | null;
  anchor: string | null;
  kind: string | null;
  result: unknown;
  input: string;
  position: number;
}

const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** The character before `at`, past blanks and line breaks (NaN at the start). */
const codeBefore = (text: string, at: number) => text.charCodeAt(lastNonBlank(text, at));

/** The character at or after `from`, past blanks, line breaks and comments (NaN at the end). */
function codeAfter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23) {
      // # to the end of the line
      const end = text.indexOf("\n", i);
      if (end < 0) return Number.NaN;
      i = end;
    } else if (!isBlank(c)) return c;
  }
  return Number.NaN;
}

/**
 * Whether an explicit key's `?` (one after a blank, a line break or a flow indicator) stands before `at`,
 * past blanks and line breaks: the node is an explicit key, which may be a collection.
 */
function explicitKeyBefore(text: string, at: number): boolean {
  const i = lastNonBlank(text, at);
  return text.charCodeAt(i) === 0x3f && (i === 0 || /[\s[{,]/.test(text.charAt(i - 1)));
}

/** Where the last character before `at` that is no blank or line break stands (-1 if none). */
function lastNonBlank(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  return i;
}

// A carriage return alone, a line break to js-yaml only; a byte order mark, which the `yaml` package
// skips wherever a line starts; directives and document markers, which the
// stream splitting (index.ts) owns; a comment after an explicit key's `?` or a flow entry's `{` or `,`,
// which hides the key from the listener; block scalars with an indentation indicator or kept trailing
// lines, which js-yaml reads otherwise.
const needsFullReading =
  /\r(?!\n)|\uFEFF|^(?:%|---|\.\.\.)|\?[ \t]+#|[{,][ \t\r\n]*#|[|>](?:[1-9][-+]?|[-+]?[1-9]|\+)[ \t]*(?:#.*)?\r?$/m;

// A list item empty on its line (`- ` then a line less indented), which js-yaml nests wrongly. Found from
// the lines that end in `-`: one regular expression anchored at every line start costs five times as much.
const dashAtLineEnd = /-[ \t]*\r?$/gm;
const onlyListIndicators = /^[ \t]*(?:-[ \t]+)*$/;
function hasEmptyListItem(text: string): boolean {
  dashAtLineEnd.lastIndex = 0;
  for (let m = dashAtLineEnd.exec(text); m !== null; m = dashAtLineEnd.exec(text)) {
    if (onlyListIndicators.test(text.slice(text.lastIndexOf("\n", m.index) + 1, m.index))) return true;
  }
  return false;
}

// A tab among a line's leading blanks (a blank line included), which js-yaml and the `yaml` package read
// differently inside a block scalar (` k: |` then ` \t`: "" against "\t\n"). Tried only when the text has a tab.
const tabInIndentation = /^ *\t/m;

/**
 * The document's value when the quick reading is sure to give what the full
 * one gives, else undefined. `maxDepth` counts nodes (js-yaml's measure), so
 * anything near the full reading's limit is left to it.
 */
export function readQuickly(text: string, maxDepth: number): { value: JsonValue } | undefined {
  if (needsFullReading.test(text) || hasEmptyListItem(text) || (text.includes("\t") && tabInIndentation.test(text)))
    return undefined;
  unsure = false;
  opened.length = 0;
  let value: unknown;
  try {
    // maxDepth is js-yaml's own option, which its type declarations do not list yet.
    value = load(text, { schema: goYamlSchema, listener, maxDepth: maxDepth - 8 } as LoadOptions);
  } catch {
    return undefined;
  }
  if (unsure) return undefined;
  if (value === undefined || value === null) return { value: null };
  // A scalar document is no manifest, and the readers differ on a top-level block scalar's indentation.
  if (typeof value !== "object" || hasNullKey(value as JsonValue)) return undefined;
  return { value: value as JsonValue };
}

/** js-yaml writes a null key as "null" where go-yaml (and the full reading) has "": a "null" key goes to the full reading. */
function hasNullKey(value: JsonValue): boolean {
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    for (const key in v as JsonObject) {
      if (key === "null") return true;
      const item = (v as JsonObject)[key] as JsonValue;
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return false;
}
