import type { Finding, Severity } from "../findings/index.js";
import { type FieldPath, formatPath } from "../path/index.js";
import type { SchemaNode } from "../schema/index.js";
import { deepEqual, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import type { Revision, RevisionVersion } from "./revision.js";

/** One rule of the catalog (evolution.md): its stable id, default severity and what it reports. */
export interface EvolutionRule {
  id: string;
  severity: Severity | "off";
  description: string;
}

/** An evolution finding: where it is in the new CRD document and, for a removal, in the old one. */
export interface CrdChangeFinding extends Finding {
  type: "CrdChange";
  /** The CRD version the change is in (absent for changes to the whole CRD). */
  version?: string;
  /** For a removal: where the removed part was in the old document (`path` is its nearest surviving parent). */
  oldPath?: FieldPath;
  oldValue?: unknown;
  newValue?: unknown;
}

/**
 * What a rule's check found: one difference between the revisions (or one
 * problem of a revision) the rule speaks of; the engine gives it the rule's
 * id and severity and makes it a `CrdChangeFinding`.
 */
export interface RuleHit {
  /** Where in the new CRD document. */
  path: FieldPath;
  oldPath?: FieldPath;
  version?: string;
  /** Readable location: `v1 spec.replicas`, or a document path for the whole CRD. */
  field: string;
  /** The data path within the version (`spec.replicas`), for changes inside a schema. */
  data?: FieldPath;
  /** One line: why it breaks. */
  detail: string;
  oldValue?: unknown;
  newValue?: unknown;
  /** Identity of a problem of one revision (state rules): reported only when the old revision did not have it. */
  key?: string;
}

/** One schema node present in both revisions of a version (or in two served versions of one revision). */
export interface NodePair {
  version: string;
  /** Data path as objects see it; list items and map values are `[*]`. */
  data: FieldPath;
  old: JsonObject;
  new: JsonObject;
  /** Paths of the node in the old and the new CRD document. */
  oldPath: FieldPath;
  newPath: FieldPath;
  /** The union model of the node (absent under allOf/anyOf/oneOf/not). */
  oldNode?: SchemaNode;
  newNode?: SchemaNode;
  /** The node is a branch of allOf/anyOf/oneOf/not: it only restricts values. */
  junctor: boolean;
}

/** A hit of a per-node rule in the schema diff, with its rule: for rules built on the diff of other rules. */
export interface NodeHit {
  rule: RuleDescriptor;
  hit: RuleHit;
}

export interface CrdContext {
  old: Revision;
  new: Revision;
  severityOf(rule: string): Severity | "off";
  /** The schema diff (every per-node rule that is not off) between two versions, `from` → `to`. */
  diffVersions(from: RevisionVersion, to: RevisionVersion): NodeHit[];
}

/** A rule with its checks; only `EvolutionRule` is public. */
export interface RuleDescriptor extends EvolutionRule {
  /** Compares the two revisions as wholes. */
  crd?: (ctx: CrdContext) => RuleHit[];
  /** A problem of one revision: reported when the old revision did not have it (same `key`). */
  state?: (rev: Revision) => RuleHit[];
  /**
   * `state` finds what the API server's own validation refuses in the revision, which a CRD validated as
   * an object says in the server's words (crd/): left out where that validation runs too (DiffOptions).
   */
  refusedByServer?: boolean;
  /** Compares one schema node present in both revisions. */
  node?: (pair: NodePair) => RuleHit[];
  /** `node` also runs on allOf/anyOf/oneOf/not branches (value restrictions only). */
  inJunctors?: boolean;
}

/** `v1 spec.template.spec.containers[*].image`; just the version for the schema's root. */
export function fieldOf(version: string, data: FieldPath): string {
  const path = formatPath(data);
  return path === "" ? version : `${version} ${path}`;
}

/**
 * A hit at a node pair. With `keyword`, it is placed on that keyword of
 * the new node (`minimum: 0`, where a reviewer sees what changed), or, when
 * the new node lost it, on the node with the keyword's place in the old one.
 */
export function hitAt(
  pair: NodePair,
  detail: string,
  { keyword, ...extra }: Partial<RuleHit> & { keyword?: string | FieldPath } = {},
): RuleHit {
  const data = extra.data ?? pair.data;
  const placed = keyword === undefined ? {} : keywordPlace(pair, typeof keyword === "string" ? [keyword] : keyword);
  return {
    path: pair.newPath,
    version: pair.version,
    field: fieldOf(pair.version, data),
    detail,
    ...placed,
    ...extra,
    data,
  };
}

function keywordPlace(pair: NodePair, keyword: FieldPath): Partial<RuleHit> {
  if (valueAt(pair.new, keyword) !== undefined) return { path: [...pair.newPath, ...keyword] };
  return valueAt(pair.old, keyword) !== undefined ? { oldPath: [...pair.oldPath, ...keyword] } : {};
}

function valueAt(node: JsonValue, path: FieldPath): JsonValue | undefined {
  let value: JsonValue | undefined = node;
  for (const seg of path) {
    if (typeof seg === "number") value = Array.isArray(value) ? value[seg] : undefined;
    else if (typeof seg === "string") value = isObject(value) ? getKey(value, seg) : undefined;
    else return undefined;
  }
  return value;
}

/**
 * A per-node rule that reads one value from each node of a pair and speaks
 * only when the two readings differ (`deepEqual`): the shape of most keyword
 * rules. `compare` gets the old reading, the new one and the pair.
 */
export function onChange<T extends JsonValue | undefined>(
  rule: Omit<RuleDescriptor, "node">,
  read: (node: JsonObject) => T,
  compare: (from: T, to: T, pair: NodePair) => RuleHit[],
): RuleDescriptor {
  return {
    ...rule,
    node(pair) {
      const from = read(pair.old);
      const to = read(pair.new);
      return deepEqual(from, to) ? [] : compare(from, to, pair);
    },
  };
}

/** Values as they read in one line: JSON, long ones cut. */
export function show(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
