/**
 * structured-merge-diff schema YAML (`types: [{name, map|list|scalar}]`) →
 * named `SchemaNode`s with unions (unions.md §2 form 3). Named types are
 * created first and linked afterwards, so a `namedType` reference always
 * yields the one shared node and recursive types work. Inline atoms are
 * filled from a work queue rather than by recursion.
 */
import { type Finding, schemaError } from "../findings/index.js";
import { type FieldPath, formatPath } from "../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { checkUnions } from "./check.js";
import {
  defaultMemberValue,
  emptyRecord,
  memberKindOf,
  type SchemaNode,
  type Union,
  type UnionMember,
} from "./model.js";
import { linkPath, type NameLink, NodeQueue } from "./walk.js";

export interface FromSMDSchemaResult {
  /** Every named type, by name (a record without prototype). */
  types: Record<string, SchemaNode>;
  findings: Finding[];
}

const scalarTypes: Record<string, SchemaNode["type"]> = { string: "string", numeric: "number", boolean: "boolean" };

// SMD's own untyped types, usable without a definition.
const untypedNames = new Set(["__untyped_atomic_", "__untyped_deduced_"]);

interface PendingUnions {
  node: SchemaNode;
  unions: JsonValue[];
  /** The type name, then field names. */
  at: NameLink;
}

export function fromSMDSchema(doc: unknown): FromSMDSchemaResult {
  const types = emptyRecord<SchemaNode>();
  const findings: Finding[] = [];
  const list = isObject(doc) ? getKey(doc, "types") : undefined;
  if (!Array.isArray(list)) {
    findings.push(schemaError([], "an SMD schema must have a `types` list"));
    return { types, findings };
  }
  // Pass 1: one node per name, so that references resolve before their target is filled.
  const defs: Array<[string, JsonObject]> = [];
  list.forEach((entry, i) => {
    const name = isObject(entry) ? getKey(entry, "name") : undefined;
    if (!isObject(entry) || typeof name !== "string" || name === "") {
      findings.push(schemaError([], `types[${i}] must have a name`));
    } else if (Object.hasOwn(types, name)) {
      findings.push(schemaError([name], `type \`${name}\` is defined twice`));
    } else {
      types[name] = {};
      defs.push([name, entry]);
    }
  });
  // Pass 2: fill every node from its atom (`map`, `list`, `scalar`); inline atoms join the queue.
  const queue = new NodeQueue<NameLink>();
  for (const [name, entry] of defs) queue.add(entry, types[name]!, { up: undefined, name });
  const pending: PendingUnions[] = [];
  const resolve = (ref: JsonValue | undefined, at: NameLink): SchemaNode | undefined => {
    if (!isObject(ref)) return undefined;
    const named = getKey(ref, "namedType");
    if (typeof named === "string") {
      if (Object.hasOwn(types, named)) return types[named];
      if (!untypedNames.has(named)) findings.push(schemaError(linkPath(at), `unknown named type \`${named}\``));
      return {};
    }
    // One node per inline atom object, so that aliased (even cyclic) YAML cannot loop forever.
    return queue.nodeOf(ref, at);
  };
  for (let i = 0; i < queue.entries.length; i++) {
    const { json: atom, node, at } = queue.entries[i]!;
    fillAtom(node, atom, at, resolve, pending);
  }
  // Pass 3: unions, once every member's node is filled (member kinds depend on it).
  for (const p of pending) {
    const path = linkPath(p.at);
    const unions = p.unions.flatMap((u, i) =>
      unionOf(p.node, u, `SMD ${formatPath(path)} unions[${i}]`, path, findings),
    );
    if (unions.length === 0) continue;
    p.node.unions = unions;
    findings.push(...checkUnions(p.node, path));
  }
  return { types, findings };
}

type Resolve = (ref: JsonValue | undefined, at: NameLink) => SchemaNode | undefined;

function fillAtom(node: SchemaNode, atom: JsonObject, at: NameLink, resolve: Resolve, pending: PendingUnions[]): void {
  const kinds: Array<SchemaNode["type"]> = [];
  const scalar = getKey(atom, "scalar");
  if (typeof scalar === "string") kinds.push(scalarTypes[scalar]);
  const list = getKey(atom, "list");
  if (isObject(list)) {
    kinds.push("array");
    const items = resolve(getKey(list, "elementType"), at);
    if (items) node.items = items;
    const keys = getKey(list, "keys");
    if (getKey(list, "elementRelationship") === "associative" && Array.isArray(keys)) {
      const names = keys.filter((k): k is string => typeof k === "string");
      if (names.length > 0) node.listMapKeys = names;
    }
  }
  const map = getKey(atom, "map");
  if (isObject(map)) {
    kinds.push("object");
    const fields = getKey(map, "fields");
    if (Array.isArray(fields)) {
      const props = emptyRecord<SchemaNode>();
      for (const f of fields) {
        const name = isObject(f) ? getKey(f, "name") : undefined;
        if (!isObject(f) || typeof name !== "string") continue;
        props[name] = resolve(getKey(f, "type"), { up: at, name }) ?? {};
      }
      node.properties = props;
    }
    const values = resolve(getKey(map, "elementType"), at);
    if (values) node.additionalProperties = values;
    const unions = getKey(map, "unions");
    if (Array.isArray(unions) && unions.length > 0) pending.push({ node, unions, at });
  }
  // A type with several atoms (SMD's deduced types) has no single JSON type.
  if (kinds.length === 1 && kinds[0] !== undefined) node.type = kinds[0];
}

/** One SMD union: members never optional, never exactly-one, no enum so no empty values. */
function unionOf(node: SchemaNode, u: JsonValue, origin: string, path: FieldPath, findings: Finding[]): Union[] {
  if (!isObject(u)) {
    findings.push(schemaError(path, `a union must be an object (${origin})`));
    return [];
  }
  const disc = getKey(u, "discriminator");
  if (disc !== undefined && disc !== null && typeof disc !== "string") {
    findings.push(schemaError(path, `discriminator must be a field name (${origin})`));
    return [];
  }
  const members: UnionMember[] = [];
  const fields = getKey(u, "fields");
  for (const f of Array.isArray(fields) ? fields : []) {
    const field = isObject(f) ? getKey(f, "fieldName") : undefined;
    if (!isObject(f) || typeof field !== "string") {
      findings.push(schemaError(path, `a union field must have a fieldName (${origin})`));
      continue;
    }
    const v = getKey(f, "discriminatorValue");
    // SMD counted any non-null member as set; the normalizer applies that by policy.
    const kind = memberKindOf(node.properties?.[field]) === "scalar" ? "scalar" : "object";
    members.push({ field, value: typeof v === "string" ? v : defaultMemberValue(field), optional: false, kind });
  }
  const union: Union = {
    members,
    emptyValues: [],
    exactlyOne: false,
    deduce: getKey(u, "deduceInvalidDiscriminator") === true,
    origin,
  };
  if (typeof disc === "string" && disc !== "") union.discriminator = disc;
  return [union];
}
