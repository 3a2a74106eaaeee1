/**
 * CRD `openAPIV3Schema` → `SchemaNode` tree with unions attached (unions.md
 * §2 forms 1, 2 and 5): both `x-kubernetes-unions` shapes, CEL rules that
 * encode a union, and `oneOf` of single-field `required` branches. The walk is
 * iterative so that deeply nested input cannot exhaust the stack.
 */
import { type Finding, schemaError } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
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

export interface FromOpenAPIOptions {
  /** Data path of the schema's root, prefixed to every finding. */
  path?: FieldPath;
}

export interface FromOpenAPIResult {
  root: SchemaNode;
  findings: Finding[];
}

const nodeTypes = new Set<string>(["object", "array", "string", "integer", "number", "boolean"]);

interface Visited {
  json: JsonObject;
  node: SchemaNode;
  at: () => FieldPath;
}

export function fromOpenAPI(schema: unknown, opts: FromOpenAPIOptions = {}): FromOpenAPIResult {
  const findings: Finding[] = [];
  // Breadth-first, in a deterministic order; aliased and cyclic objects get one node.
  const queue = new NodeQueue<NameLink | undefined>();
  const nodeFor = (json: JsonValue | undefined, path: NameLink | undefined): SchemaNode =>
    isObject(json) ? queue.nodeOf(json, path) : {};
  const root = nodeFor(isObject(schema) ? schema : undefined, undefined);
  for (let i = 0; i < queue.entries.length; i++) {
    const { json, node, at: path } = queue.entries[i]!;
    fillScalars(json, node);
    const props = getKey(json, "properties");
    if (isObject(props)) {
      const record = emptyRecord<SchemaNode>();
      for (const key of Object.keys(props)) record[key] = nodeFor(getKey(props, key), { up: path, name: key });
      node.properties = record;
    }
    // List items and map values live at the data path of their container.
    const items = getKey(json, "items");
    if (isObject(items)) node.items = nodeFor(items, path);
    const extra = getKey(json, "additionalProperties");
    if (isObject(extra)) node.additionalProperties = nodeFor(extra, path);
  }
  // Unions once every node is filled (member kinds depend on it).
  for (const { json, node, at: link } of queue.entries) {
    let path: FieldPath | undefined;
    // The path is built only when something is reported or checked.
    const v: Visited = { json, node, at: () => (path ??= linkPath(link, opts.path)) };
    const unions = unionsOf(v, findings);
    if (unions.length === 0) continue;
    v.node.unions = unions;
    findings.push(...checkUnions(v.node, v.at()));
  }
  return { root, findings };
}

function fillScalars(json: JsonObject, node: SchemaNode): void {
  const type = getKey(json, "type");
  if (typeof type === "string" && nodeTypes.has(type)) node.type = type as SchemaNode["type"];
  const required = strings(getKey(json, "required"));
  if (required) node.required = required;
  const en = getKey(json, "enum");
  if (Array.isArray(en)) node.enum = [...en];
  if (getKey(json, "x-kubernetes-list-type") === "map") {
    const keys = strings(getKey(json, "x-kubernetes-list-map-keys"));
    if (keys && keys.length > 0) node.listMapKeys = keys;
  }
}

function strings(v: JsonValue | undefined): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
}

/** Every union declared on one object schema, in form order, recognised twice kept once. */
function unionsOf(v: Visited, findings: Finding[]): Union[] {
  const found: Union[] = [];
  const ext = getKey(v.json, "x-kubernetes-unions");
  if (Array.isArray(ext)) {
    ext.forEach((entry, i) => {
      const origin = ext.length === 1 ? "x-kubernetes-unions" : `x-kubernetes-unions[${i}]`;
      const u = firstForm(v, entry, origin, findings);
      if (u) found.push(u);
    });
  } else if (ext !== undefined && !isFieldMembers(ext)) {
    findings.push(
      schemaError(v.at(), "x-kubernetes-unions must be a list of unions or {fieldMembers} on a discriminator"),
    );
  }
  const props = getKey(v.json, "properties");
  if (isObject(props)) {
    for (const key of Object.keys(props)) {
      const prop = getKey(props, key);
      const pext = isObject(prop) ? getKey(prop, "x-kubernetes-unions") : undefined;
      if (isFieldMembers(pext)) {
        const u = latestForm(v, key, pext, findings);
        if (u) found.push(u);
      }
    }
  }
  found.push(...celUnions(v));
  const oneOf = oneOfUnion(v);
  if (oneOf) found.push(oneOf);
  return dedupe(found);
}

function isFieldMembers(v: JsonValue | undefined): v is JsonObject {
  return isObject(v) && Object.hasOwn(v, "fieldMembers");
}

function member(v: Visited, field: string, value: string, optional = false): UnionMember {
  return { field, value, optional, kind: memberKindOf(v.node.properties?.[field]) };
}

/** A union on `discriminator`: empty values from its enum, exactly one when it is required. */
function discriminated(
  v: Visited,
  discriminator: string,
  members: UnionMember[],
  origin: string,
  declaredEmpty: string[] = [],
): Union {
  const claimed = new Set(members.map((m) => m.value));
  const emptyValues: string[] = [];
  const add = (s: string) => {
    if (!claimed.has(s) && !emptyValues.includes(s)) emptyValues.push(s);
  };
  declaredEmpty.forEach(add);
  for (const e of v.node.properties?.[discriminator]?.enum ?? []) if (typeof e === "string") add(e);
  const exactlyOne = v.node.required?.includes(discriminator) ?? false;
  return { discriminator, members, emptyValues, exactlyOne, deduce: false, origin };
}

/** KEP first version: `{discriminator?, fields-to-discriminateBy: {member: value}}`; members never optional. */
function firstForm(v: Visited, entry: JsonValue, origin: string, findings: Finding[]): Union | undefined {
  if (!isObject(entry)) {
    findings.push(schemaError(v.at(), `a union must be an object (${origin})`));
    return undefined;
  }
  const disc = getKey(entry, "discriminator");
  if (disc !== undefined && typeof disc !== "string") {
    findings.push(schemaError(v.at(), `discriminator must be a field name (${origin})`));
    return undefined;
  }
  const byValue = getKey(entry, "fields-to-discriminateBy");
  const members: UnionMember[] = [];
  if (isObject(byValue)) {
    for (const field of Object.keys(byValue)) {
      const value = getKey(byValue, field);
      if (typeof value === "string") members.push(member(v, field, value));
      else findings.push(schemaError(v.at(), `discriminator value of \`${field}\` must be a string (${origin})`));
    }
  } else if (byValue !== undefined) {
    findings.push(schemaError(v.at(), `fields-to-discriminateBy must map fields to values (${origin})`));
  }
  if (disc !== undefined) return discriminated(v, disc, members, origin);
  if (members.length === 0) return undefined;
  return { members, emptyValues: [], exactlyOne: false, deduce: false, origin };
}

/** KEP latest: `{fieldMembers: {<value>: {name, optional} | null}}` on the discriminator property. */
function latestForm(v: Visited, disc: string, ext: JsonObject, findings: Finding[]): Union | undefined {
  const origin = `x-kubernetes-unions on \`${disc}\``;
  const fm = getKey(ext, "fieldMembers");
  if (!isObject(fm)) {
    findings.push(schemaError(v.at(), `fieldMembers must map values to members (${origin})`));
    return undefined;
  }
  const members: UnionMember[] = [];
  const empty: string[] = [];
  for (const value of Object.keys(fm)) {
    const m = getKey(fm, value);
    if (m === null) {
      empty.push(value);
      continue;
    }
    const name = isObject(m) ? getKey(m, "name") : undefined;
    if (typeof name !== "string") {
      findings.push(schemaError(v.at(), `member for value ${JSON.stringify(value)} needs a field name (${origin})`));
      continue;
    }
    members.push(member(v, name, value, isObject(m) && getKey(m, "optional") === true));
  }
  return discriminated(v, disc, members, origin, empty);
}

/** Unions encoded in `x-kubernetes-validations`: counters, and discriminator pairs grouped per discriminator. */
function celUnions(v: Visited): Union[] {
  const rules = getKey(v.json, "x-kubernetes-validations");
  if (!Array.isArray(rules) || (v.node.type !== "object" && !v.node.properties)) return [];
  const out: Union[] = [];
  const pairs = new Map<string, Array<{ fact: CelFact; index: number }>>();
  rules.forEach((r, index) => {
    const rule = isObject(r) ? getKey(r, "rule") : undefined;
    if (typeof rule !== "string") return;
    for (const fact of recognizeRule(rule)) {
      if (fact.kind === "count") {
        out.push({
          members: fact.fields.map((f) => member(v, f, defaultMemberValue(f))),
          emptyValues: [],
          exactlyOne: fact.exactlyOne,
          deduce: false,
          origin: `x-kubernetes-validations rule ${index}`,
          enforcedBySchema: true,
        });
        continue;
      }
      const group = pairs.get(fact.discriminator);
      if (group) group.push({ fact, index });
      else pairs.set(fact.discriminator, [{ fact, index }]);
    }
  });
  for (const [disc, facts] of pairs) {
    const members: UnionMember[] = [];
    const used = new Set<number>();
    // A member is selected by "set ⇒ discriminator is X"; without "X ⇒ set" it is optional.
    for (const { fact, index } of facts) {
      if (fact.kind !== "select" || members.some((m) => m.field === fact.field)) continue;
      members.push(member(v, fact.field, fact.value, true));
      used.add(index);
    }
    if (members.length === 0) continue;
    for (const { fact, index } of facts) {
      if (fact.kind !== "require") continue;
      const m = members.find((x) => x.field === fact.field && x.value === fact.value);
      if (!m) continue;
      m.optional = false;
      used.add(index);
    }
    const list = [...used].sort((a, b) => a - b);
    const origin = `x-kubernetes-validations rule${list.length === 1 ? "" : "s"} ${list.join(", ")}`;
    out.push({ ...discriminated(v, disc, members, origin), enforcedBySchema: true });
  }
  return out;
}

/** `oneOf: [{required: [a]}, {required: [b]}, …]` with nothing else in any branch: exactly one of the fields. */
function oneOfUnion(v: Visited): Union | undefined {
  const branches = getKey(v.json, "oneOf");
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  const fields: string[] = [];
  for (const b of branches) {
    if (!isObject(b) || Object.keys(b).length !== 1) return undefined;
    const req = getKey(b, "required");
    if (!Array.isArray(req) || req.length !== 1 || typeof req[0] !== "string" || fields.includes(req[0])) {
      return undefined;
    }
    fields.push(req[0]);
  }
  const members = fields.map((f) => member(v, f, defaultMemberValue(f)));
  return { members, emptyValues: [], exactlyOne: true, deduce: false, origin: "oneOf", enforcedBySchema: true };
}

/** The same union declared in two forms is kept once (the first); exactly-one wins if either says so. */
function dedupe(unions: Union[]): Union[] {
  const byKey = new Map<string, Union>();
  const out: Union[] = [];
  for (const u of unions) {
    const key = JSON.stringify([u.discriminator ?? null, u.members.map((m) => m.field).sort()]);
    const first = byKey.get(key);
    if (first) {
      first.exactlyOne ||= u.exactlyOne;
      continue;
    }
    byKey.set(key, u);
    out.push(u);
  }
  return out;
}

/** What one CEL rule says about union membership (`self` is the object). */
export type CelFact =
  | { kind: "count"; fields: string[]; exactlyOne: boolean }
  /** `field` set ⇒ `discriminator` is `value`. */
  | { kind: "select"; discriminator: string; field: string; value: string }
  /** `discriminator` is `value` ⇒ `field` set. */
  | { kind: "require"; discriminator: string; field: string; value: string };

// Fixed, anchored patterns assembled from the constant pieces below (never from input); `\s*` and `\w*`
// always sit between distinct literals, so matching is linear. Roles name the capture groups in order:
// f = member field, d = discriminator, v = value (two groups: '…' or "…").
const ID = String.raw`([A-Za-z_]\w*)`;
const HAS = String.raw`has\(self\.${ID}\)`;
const SELF = String.raw`self\.${ID}`;
const Q = String.raw`(?:'([^'\\]*)'|"([^"\\]*)")`;
const AND = String.raw`\s*&&\s*`;
const OR = String.raw`\s*\|\|\s*`;
const pair = (re: string, roles: string, ...kinds: Array<"select" | "require">) => ({
  re: new RegExp(`^${re}$`),
  roles,
  kinds,
});
const pairForms = [
  // "x set ⇒ type is X": !(has(self.x) && self.type != 'X') (Gateway API) and its spellings.
  pair(String.raw`!\(\s*${HAS}${AND}${SELF}\s*!=\s*${Q}\s*\)`, "fdv", "select"),
  pair(String.raw`!\(\s*${SELF}\s*!=\s*${Q}${AND}${HAS}\s*\)`, "dvf", "select"), // prometheus-operator
  pair(String.raw`!${HAS}${OR}${SELF}\s*==\s*${Q}`, "fdv", "select"),
  pair(String.raw`${HAS}\s*\?\s*${SELF}\s*==\s*${Q}\s*:\s*true`, "fdv", "select"),
  // "type is X ⇒ x set" (the member is required): !(!has(self.x) && self.type == 'X') and its spellings.
  pair(String.raw`!\(\s*!${HAS}${AND}${SELF}\s*==\s*${Q}\s*\)`, "fdv", "require"),
  pair(String.raw`!\(\s*${SELF}\s*==\s*${Q}${AND}!${HAS}\s*\)`, "dvf", "require"),
  pair(String.raw`${SELF}\s*!=\s*${Q}${OR}${HAS}`, "dvf", "require"),
  pair(String.raw`${SELF}\s*==\s*${Q}\s*\?\s*${HAS}\s*:\s*true`, "dvf", "require"),
  // Both in one rule: self.mode == 'X' ? has(self.x) : !has(self.x)
  pair(String.raw`${SELF}\s*==\s*${Q}\s*\?\s*${HAS}\s*:\s*!${HAS}`, "dvff", "select", "require"),
];

const hasTerm = new RegExp(String.raw`^\s*${HAS}\s*$`);
const ternaryTerm = new RegExp(String.raw`^\s*\(\s*${HAS}\s*\?\s*1\s*:\s*0\s*\)\s*$`);
const filterTail = new RegExp(
  String.raw`^\]\s*\.\s*filter\(\s*${ID}\s*,\s*${ID}(?:\s*==\s*true)?\s*\)\s*\.\s*size\(\)$`,
);

/** The union facts one rule states; none when the rule is not one of the recognised shapes. */
export function recognizeRule(rule: string): CelFact[] {
  const s = rule.trim();
  const count = counter(s);
  if (count) return [count];
  for (const form of pairForms) {
    const m = form.re.exec(s);
    if (!m) continue;
    let g = 1;
    const fields: string[] = [];
    let discriminator = "";
    let value = "";
    for (const role of form.roles) {
      if (role === "f") fields.push(celName(m[g++]!));
      else if (role === "d") discriminator = celName(m[g++]!);
      else {
        value = m[g] ?? m[g + 1] ?? "";
        g += 2;
      }
    }
    const field = fields[0]!;
    // `self.type` guarding `has(self.type)` is not a union; both fields of the ternary form must agree.
    if (field === discriminator || fields.some((f) => f !== field)) return [];
    return form.kinds.map((kind) => ({ kind, discriminator, field, value }));
  }
  return [];
}

/** `[has(self.a), …].filter(x, x == true).size() == 1` or `(has(self.a) ? 1 : 0) + … <= 1`. */
function counter(s: string): CelFact | undefined {
  if (!s.endsWith("1")) return undefined;
  let head = s.slice(0, -1).trimEnd();
  const op = head.slice(-2);
  if (op !== "==" && op !== "<=") return undefined;
  head = head.slice(0, -2).trimEnd();
  let fields: string[] | undefined;
  if (head.startsWith("[")) {
    const close = head.indexOf("]");
    const tail = close < 0 ? null : filterTail.exec(head.slice(close));
    if (!tail || tail[1] !== tail[2]) return undefined;
    fields = terms(head.slice(1, close).split(","), hasTerm);
  } else {
    fields = terms(head.split("+"), ternaryTerm);
  }
  if (!fields || fields.length < 2 || new Set(fields).size !== fields.length) return undefined;
  return { kind: "count", fields, exactlyOne: op === "==" };
}

function terms(parts: string[], re: RegExp): string[] | undefined {
  const out: string[] = [];
  for (const p of parts) {
    const m = re.exec(p);
    if (!m) return undefined;
    out.push(celName(m[1]!));
  }
  return out;
}

// CEL reserved words, escaped as `__word__` when used as property names.
const celKeywords = new Set("as break const continue else false for function if import in".split(" "));
for (const k of "let loop namespace null package return true var".split(" ")) celKeywords.add(k);

/** Kubernetes escapes property names that are not CEL identifiers: `__dash__`, `__dot__`, `__namespace__`, … */
function celName(id: string): string {
  const inner = id.startsWith("__") && id.endsWith("__") ? id.slice(2, -2) : "";
  if (celKeywords.has(inner)) return inner;
  return id.replace(/__(underscores|dot|dash|slash)__/g, (_, w: string) => celEscapes[w] ?? w);
}

const celEscapes: Record<string, string> = { underscores: "__", dot: ".", dash: "-", slash: "/" };
