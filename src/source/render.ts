/**
 * Edits applied to a document's syntax tree, so that comments and layout
 * survive them; and the same edits applied to its value, which is what the
 * edited text must read back as. Where the tree cannot take an edit in place
 * (the place is an alias of an anchor used elsewhere, or its fields come from
 * a merge key), it says why instead of writing something else.
 */
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node, type Pair } from "yaml";
import { type FieldPath, formatPath, type PathSegment } from "../path/index.js";
import { clone, deepEqual, deleteKey, isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { nodeFor, printOptions } from "./print.js";
import { isMergeKey } from "./tree.js";

/** Set `value` at `path`, or remove what is there when `value` is undefined. */
export interface Edit {
  path: FieldPath;
  value?: JsonValue;
}

const keyOf = (seg: PathSegment): string | number => (typeof seg === "object" ? seg.key : seg);

/**
 * A copy of `value` with the edits applied as the syntax tree applies them:
 * missing mappings on the way are created, a removed list item is taken out.
 */
export function applyEdits(value: JsonValue, edits: readonly Edit[]): JsonValue {
  let root = clone(value);
  for (const { path, value: set } of edits) {
    if (path.length === 0) {
      root = set === undefined ? null : clone(set);
      continue;
    }
    let cur: JsonValue | undefined = root;
    for (const seg of path.slice(0, -1)) {
      const k = keyOf(seg);
      let next: JsonValue | undefined;
      if (Array.isArray(cur) && typeof k === "number") next = cur[k];
      else if (isObject(cur)) next = Object.hasOwn(cur, String(k)) ? cur[String(k)] : undefined;
      if (next === undefined && isObject(cur) && set !== undefined) {
        next = {};
        setKey(cur, String(k), next);
      }
      cur = next;
    }
    const last = keyOf(path[path.length - 1] as PathSegment);
    if (Array.isArray(cur) && typeof last === "number") {
      if (set === undefined) cur.splice(last, 1);
      else cur[last] = clone(set);
    } else if (isObject(cur)) {
      if (set === undefined) deleteKey(cur, String(last));
      else setKey(cur as JsonObject, String(last), clone(set));
    }
  }
  return root;
}

export type InPlace = { text: string } | { lost: string };

/** The document's text with the edits made in its syntax tree, or why they cannot be. */
export function editInPlace(doc: Document, text: string, edits: readonly Edit[]): InPlace {
  const copy = doc.clone();
  for (const { path, value } of edits) {
    const obstacle = sharedPlace(copy, path, value === undefined);
    if (obstacle) return { lost: obstacle };
    const keys = treeKeys(copy, path);
    try {
      if (value === undefined) {
        if (!copy.hasIn(keys)) continue;
        keepCommentBefore(copy, keys);
        copy.deleteIn(keys);
      } else copy.setIn(keys, nodeFor(copy, value));
    } catch (e) {
      return { lost: `${formatPath(path)} cannot be edited in place: ${(e as Error).message.split("\n")[0]}` };
    }
  }
  return { text: copy.toString({ ...printOptions, ...layoutOf(doc, text) }) };
}

/**
 * The indentation the text uses, so that printing the edited tree keeps it:
 * the spaces a nested mapping is indented by, and whether a list under a key
 * is indented (`  - a`) or not (`- a`, as kubectl prints). The `yaml` package
 * would print its own defaults.
 */
function layoutOf(doc: Document, text: string): { indent?: number; indentSeq?: boolean } {
  const column = (offset: number) => offset - text.lastIndexOf("\n", offset - 1) - 1;
  const layout: { indent?: number; indentSeq?: boolean } = {};
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0 && (layout.indent === undefined || layout.indentSeq === undefined)) {
    const node = stack.pop();
    if (!isMap(node) && !isSeq(node)) continue;
    if (node.flow) continue;
    for (const item of node.items) {
      const pair = isPair(item) ? item : undefined;
      const value = pair ? pair.value : item;
      stack.push(value);
      const key = (pair?.key as Node | undefined)?.range?.[0];
      const start = (value as Node | undefined)?.range?.[0];
      if (key === undefined || start === undefined || text.lastIndexOf("\n", start) < key) continue;
      if (isSeq(value) && !value.flow && layout.indentSeq === undefined) layout.indentSeq = column(start) > column(key);
      if (isMap(value) && !value.flow && layout.indent === undefined && column(start) > column(key))
        layout.indent = column(start) - column(key);
    }
  }
  return layout;
}

/**
 * The keys the `yaml` package finds `path` by: a mapping's key as its scalar
 * holds it (`0:` holds the number 0, the value's key "0"), a list's index as a number.
 */
function treeKeys(doc: Document, path: FieldPath): Array<unknown> {
  let node: unknown = doc.contents;
  return path.map((seg) => {
    const k = keyOf(seg);
    if (isSeq(node) && typeof k === "number") {
      node = node.items[k];
      return k;
    }
    const pair = isMap(node)
      ? (node.items as Pair[]).find((p) => isScalar(p.key) && String(p.key.value ?? "") === String(k))
      : undefined;
    node = pair?.value;
    return pair ? (pair.key as { value: unknown }).value : String(k);
  });
}

/**
 * The comment above an entry about to be removed moves to the entry after it
 * (or above the document): the `yaml` package attaches a file's head comment
 * to the first key, and would remove it with that key.
 */
function keepCommentBefore(doc: Document, keys: readonly unknown[]): void {
  const parent: unknown = keys.length === 1 ? doc.contents : doc.getIn(keys.slice(0, -1), true);
  const last = keys[keys.length - 1];
  let items: Node[] = [];
  let index = -1;
  if (isMap(parent)) {
    items = (parent.items as Pair[]).map((p) => p.key as Node);
    index = (parent.items as Pair[]).findIndex((p) => isScalar(p.key) && p.key.value === last);
  } else if (isSeq(parent) && typeof last === "number") {
    items = parent.items as Node[];
    index = last;
  }
  const comment = items[index]?.commentBefore;
  if (!comment) return;
  const join = (a: string | null | undefined) => (a ? `${comment}\n${a}` : comment);
  const next = items[index + 1];
  if (next && typeof next === "object") next.commentBefore = join(next.commentBefore);
  else if (index === 0 && parent === doc.contents) doc.commentBefore = join(doc.commentBefore);
}

/**
 * Why an edit at `path` would not stay at `path`: a node on the way is an
 * alias (editing it would edit its anchor) or an anchor (its aliases would
 * change too), or a merge key (`<<`) gives the next key on the way, or the
 * key being removed (removing the mapping's own key would uncover it).
 */
function sharedPlace(doc: Document, path: FieldPath, removing: boolean): string | undefined {
  let node: unknown = doc.contents;
  for (let i = 0; i <= path.length; i++) {
    const here = formatPath(path.slice(0, i)) || "the document";
    // An alias at the end is replaced or removed as itself; on the way, it stands for its anchor.
    if (isAlias(node) && i < path.length)
      return `${here} is an alias of the anchor &${node.source}, which other places share`;
    const anchor = (node as { anchor?: string } | undefined)?.anchor;
    if (anchor) return `${here} is the anchor &${anchor}, which aliases may repeat elsewhere`;
    if (i === path.length) return undefined;
    const k = keyOf(path[i] as PathSegment);
    if (isSeq(node) && typeof k === "number") {
      node = node.items[k];
      continue;
    }
    if (!isMap(node)) return undefined;
    const pairs = node.items as Pair[];
    const own = pairs.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(k));
    const last = i === path.length - 1;
    // Setting the last key adds or overrides an own key, which a merge never overrides.
    if ((last ? removing : !own) && pairs.some((p) => isMergeKey(p.key)))
      return `${here} takes fields from a merge key (<<), which other places share`;
    if (!own) return undefined;
    node = own.value;
  }
  return undefined;
}

/**
 * Edits that turn `before` into `after`: mappings compared key by key, so that
 * an edit touches only what changed; anything else that differs replaced whole.
 */
export function editsBetween(before: JsonValue, after: JsonValue, path: PathSegment[] = []): Edit[] {
  if (!isObject(before) || !isObject(after)) return deepEqual(before, after) ? [] : [{ path, value: after }];
  const edits: Edit[] = [];
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) edits.push({ path: [...path, key] });
  for (const key of Object.keys(after)) {
    const value = after[key] as JsonValue;
    if (!Object.hasOwn(before, key)) edits.push({ path: [...path, key], value });
    else if (before[key] !== value) edits.push(...editsBetween(before[key] as JsonValue, value, [...path, key]));
  }
  return edits;
}
