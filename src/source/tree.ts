/**
 * A YAML syntax tree → a JSON value, in one pass that bounds its own work, so
 * that no input can make this or any later walk loop or explode. It reads as
 * go-yaml v2 (sigs.k8s.io/yaml) decodes, and refuses in its words:
 * - an alias inside its own anchor ("anchor 'a' value contains itself"): the
 *   value would be cyclic;
 * - alias expansion past go-yaml v2's bound (decode.go, allowedAliasRatio):
 *   once over 100 nodes come from aliases in a document of over 1,000, their
 *   share may be 99% up to 400,000 nodes, falling to 10% at 4,000,000;
 * - nesting deeper than the limit, aliases included;
 * - duplicate keys, found with one map per mapping, are reported as kubectl
 *   (goyaml.v3) reports them: "mapping key "a" already defined at line 1";
 * - a scalar whose explicit `!!int`, `!!float` or `!!bool` tag its text does
 *   not take (resolve.go): "cannot decode !!str `abc` as a !!int".
 * Merge keys (`<<`) apply in order, as go-yaml v2 applies them: a key after
 * the merge overrides it, a key before it is overridden.
 * An aliased value is shared, not copied, as the `yaml` package shares it.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type Node, type Pair, type Scalar } from "yaml";
import type { JsonObject, JsonValue } from "../value/index.js";

export interface TreeValue {
  value?: JsonValue;
  duplicates: { key: string; offset: number; first: number }[];
  /** Why the document has no value. */
  refusal?: { message: string; offset: number };
  /** The value holds infinity or NaN (`.inf`, `.nan`), which JSON has not. */
  nonFinite: boolean;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** What an anchored node was built into, for its aliases. */
interface Built {
  value: JsonValue;
  /** Nodes go-yaml decodes for it, aliases expanded. */
  size: number;
  /** Object and list levels, aliases expanded. */
  height: number;
}

export function readTree(doc: Document, maxDepth: number): TreeValue {
  const duplicates: TreeValue["duplicates"] = [];
  const anchors = new Map<string, Node>();
  const built = new Map<Node, Built>(); // anchored nodes, once finished
  let decoded = 1; // the document node
  let aliased = 0;
  // Size and height of the node `build` last returned: kept here, so that no
  // object is allocated per node on a path that reads megabytes of CRDs.
  let size = 0;
  let height = 0;
  let nonFinite = false;
  const scalar = (node: Scalar): JsonValue => {
    if (node.tag !== undefined && typedTags.has(node.tag)) {
      const as = implicitly(doc, node.source ?? "");
      // an integer read as a float is that number
      if (as.tag === intTag && node.tag === floatTag) return as.value as number;
      if (as.tag !== node.tag)
        throw new Refusal(
          `cannot decode ${shortTag(as.tag)} \`${node.source ?? ""}\` as a ${shortTag(node.tag)}`,
          node.range?.[0] ?? 0,
        );
    }
    const value = scalarValue(node.value, node.source);
    if (typeof value === "number" && !Number.isFinite(value)) nonFinite = true;
    return value;
  };

  const count = (nodes: number, fromAlias: boolean, offset: number) => {
    decoded += nodes;
    if (fromAlias) aliased += nodes;
    if (aliased > 100 && decoded > 1000 && aliased / decoded > allowedAliasRatio(decoded)) {
      throw new Refusal("document contains excessive aliasing", offset);
    }
  };

  const build = (node: unknown, depth: number): JsonValue => {
    if (node === null || node === undefined) {
      size = 0;
      height = 0;
      return null;
    }
    const offset = (node as Node).range?.[0] ?? 0;
    if (isScalar(node) && !node.anchor) {
      count(1, false, offset);
      size = 1;
      height = 0;
      return scalar(node);
    }
    if (isAlias(node)) {
      count(1, false, offset);
      const target = anchors.get(node.source);
      if (target === undefined) throw new Refusal(`unknown anchor '${node.source}' referenced`, offset);
      const done = built.get(target);
      if (done === undefined) throw new Refusal(`anchor '${node.source}' value contains itself`, offset);
      // Every node of the expansion adds to both counts, so checking once at its end is exact.
      count(done.size, true, offset);
      if (depth + done.height > maxDepth) throw new Refusal(`document nests deeper than ${maxDepth} levels`, offset);
      size = 1 + done.size;
      height = done.height;
      return done.value;
    }
    count(1, false, offset);
    const anchor = (node as Node & { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node as Node);
    let value: JsonValue;
    if (isScalar(node)) {
      value = scalar(node);
      size = 1;
      height = 0;
    } else if (depth + 1 > maxDepth) throw new Refusal(`document nests deeper than ${maxDepth} levels`, offset);
    else if (isMap(node)) value = buildMap(node.items as Pair[], depth + 1);
    else if (isSeq(node)) value = buildSeq(node.items, depth + 1);
    else throw new Refusal("unsupported YAML node", offset);
    if (anchor) built.set(node as Node, { value, size, height });
    return value;
  };

  const buildSeq = (nodes: readonly unknown[], depth: number): JsonValue => {
    const items: JsonValue[] = [];
    let total = 1;
    let deepest = 0;
    for (const item of nodes) {
      items.push(build(item, depth));
      total += size;
      if (height > deepest) deepest = height;
    }
    size = total;
    height = deepest + 1;
    return items;
  };

  const buildMap = (pairs: readonly Pair[], depth: number): JsonValue => {
    const out: JsonObject = {};
    let total = 1;
    let deepest = 0;
    for (const pair of pairs) {
      const keyOffset = (pair.key as Node | null)?.range?.[0] ?? 0;
      if (isMergeKey(pair.key)) {
        const merged = build(pair.value, depth);
        total += size;
        if (height - 1 > deepest) deepest = height - 1;
        for (const source of mergeSources(merged, keyOffset)) {
          for (const [k, v] of Object.entries(source)) setKey(out, k, v);
        }
        continue;
      }
      const key = build(pair.key, depth);
      total += size;
      if (typeof key === "object" && key !== null) throw new Refusal("a mapping key must be a scalar", keyOffset);
      const name = key === null ? "" : String(key);
      const value = build(pair.value, depth);
      total += size;
      if (height > deepest) deepest = height;
      if (Object.hasOwn(out, name) && !mergedOnly(pairs, pair, name)) {
        duplicates.push({ key: name, offset: keyOffset, first: firstOffset(pairs, name) });
      }
      setKey(out, name, value);
    }
    size = total;
    height = deepest + 1;
    return out;
  };

  try {
    const value = build(doc.contents, 0);
    return { value, duplicates, nonFinite };
  } catch (e) {
    if (e instanceof Refusal) return { duplicates, refusal: { message: e.message, offset: e.offset }, nonFinite };
    throw e;
  }
}

const keyName = (key: unknown): string | undefined =>
  isScalar(key) ? (key.value === null ? "" : String(key.value)) : undefined;

/** Where a key first stands among a mapping's own pairs (looked up only for a duplicate). */
function firstOffset(pairs: readonly Pair[], name: string): number {
  const first = pairs.find((p) => keyName(p.key) === name);
  return (first?.key as Node | null)?.range?.[0] ?? 0;
}

/** A key a merge brought in is overridden, not duplicated: only the mapping's own keys count. */
function mergedOnly(pairs: readonly Pair[], current: Pair, name: string): boolean {
  return pairs.find((p) => !isMergeKey(p.key) && keyName(p.key) === name) === current;
}

function allowedAliasRatio(decoded: number): number {
  if (decoded <= 400_000) return 0.99;
  if (decoded >= 4_000_000) return 0.1;
  return 0.99 - (0.89 * (decoded - 400_000)) / 3_600_000;
}

/** `<<` as a plain key: the `yaml` package reads it as a symbol when merge keys are on. */
export function isMergeKey(key: unknown): boolean {
  if (!isScalar(key)) return false;
  const v = key.value;
  return typeof v === "symbol" ? v.description === "<<" : v === "<<" && key.type === "PLAIN";
}

/** go-yaml v2: a map, or a list of maps where earlier maps win (applied last). */
function mergeSources(value: JsonValue, offset: number): JsonObject[] {
  const isMapValue = (v: JsonValue): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isMapValue(value)) return [value];
  if (Array.isArray(value) && value.every(isMapValue)) return [...value].reverse();
  throw new Refusal("map merge requires map or sequence of maps as the value", offset);
}

function setKey(out: JsonObject, key: string, value: JsonValue): void {
  // A `__proto__` key is data: assigning it would replace the object's prototype.
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

const intTag = "tag:yaml.org,2002:int";
const floatTag = "tag:yaml.org,2002:float";
const strTag = "tag:yaml.org,2002:str";
/** The explicit tags go-yaml v2 checks its text against (`!!str` takes any text; others it does not resolve). */
const typedTags = new Set(["tag:yaml.org,2002:bool", intTag, floatTag]);
const shortTag = (tag: string) => tag.replace("tag:yaml.org,2002:", "!!");

/**
 * The tag go-yaml v2's resolve gives a scalar's text without a tag: the first of the schema's tags whose
 * pattern it matches, a number only where it is in range (schema.ts), else a string. resolve() then refuses
 * an explicit tag that differs ("cannot decode !!str `abc` as a !!int"), but an integer read as `!!float`.
 */
function implicitly(doc: Document, text: string): { tag: string; value?: unknown } {
  for (const t of doc.schema.tags) {
    if (!t.default || !(t.test instanceof RegExp) || !t.test.test(text)) continue;
    if (t.tag !== intTag && t.tag !== floatTag) return { tag: t.tag };
    const resolve = t.resolve as (text: string, onError: (message: string) => void, options: object) => unknown;
    const read = resolve(text, () => {}, {});
    const value = isScalar(read) ? read.value : read;
    return typeof value === "number" ? { tag: t.tag, value } : { tag: strTag };
  }
  return { tag: strTag };
}

/** JSON scalars as they are; anything else the schema made (binary data) as its text. */
export function scalarValue(value: unknown, source: string | undefined): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return source ?? String(value);
}
