/**
 * Unions declared by Go markers (unions.md §2 item 4), built per struct and
 * attached to the CRD schema by walking the kind's struct down the schema.
 * Contradictory declarations become `schemaError` findings located at the
 * Go marker; they are never thrown and never silently dropped.
 */
import { type Finding, schemaError } from "../findings/index.js";
import { child, type FieldPath } from "../path/index.js";
import {
  findGoMarker,
  findGoType,
  type GoField,
  type GoLocation,
  type GoMarker,
  type GoStruct,
  type GoTypeDecl,
  type GoTypes,
  goEnumValues,
  goKindOf,
  goUnquote,
  splitMarkerList,
} from "./gotypes.js";
import { emptyRecord, type MemberKind, type SchemaNode, type Union } from "./model.js";

type Loc = GoLocation;

/** A union with what attaching needs to check it against the schema. */
interface Built {
  union: Union;
  /** The discriminator's values came from Go; otherwise the schema's `enum` may supply them. */
  enumKnown: boolean;
  at: Loc;
  discAt?: Loc;
  memberAt: Map<string, Loc>;
}

interface Member {
  field: GoField;
  value: string;
  optional: boolean;
  at: Loc;
  marker: string;
}

const where = (at: Loc) => `${at.file}:${at.line}`;
const located = (path: FieldPath, at: Loc, detail: string): Finding => ({
  ...schemaError(path, detail),
  file: at.file,
  line: at.line,
});
const has = (f: GoField, name: string) => findGoMarker(f.markers, name) !== undefined;
const argValue = (m: GoMarker) => m.args.replace(/^=/, "").trim();

class StructUnions {
  readonly findings: Finding[] = [];
  readonly built: Built[] = [];
  constructor(
    private readonly types: GoTypes,
    private readonly s: GoStruct,
    private readonly path: FieldPath,
  ) {}

  report(at: Loc, detail: string): void {
    this.findings.push(located(this.path, at, `${this.s.name}: ${detail}`));
  }

  /** `+required` (any dialect) wins; then `+optional`; then controller-tools: no `omitempty` means required. */
  required(f: GoField): boolean {
    if (["required", "kubebuilder:validation:Required", "k8s:required"].some((n) => has(f, n))) return true;
    if (["optional", "kubebuilder:validation:Optional", "k8s:optional"].some((n) => has(f, n))) return false;
    return !f.omitEmpty;
  }

  kindOf(f: GoField): MemberKind {
    const pointer = f.type.startsWith("*");
    const k = goKindOf(this.types, f.type.replace(/^\*+/, ""), f.file);
    if (k === "list" || k === "map") return k;
    if (k === "struct") return "object";
    return !pointer && (k === "string" || k === "scalar") ? "zero" : "scalar";
  }

  /** Reports a discriminator that is not a string; returns its enum (field marker first, then the type's). */
  discriminator(d: GoField, at: Loc): string[] | undefined {
    const k = goKindOf(this.types, d.type.replace(/^\*/, ""), d.file);
    if (k !== "string" && k !== "unknown")
      this.report(at, `discriminator ${d.jsonName} has Go type ${d.type}, not a string`);
    const kb = findGoMarker(d.markers, "kubebuilder:validation:Enum");
    return kb ? splitMarkerList(argValue(kb)) : goEnumValues(this.types, d.type, d.file);
  }

  /** One union; `label` plus `at` make its origin (`+union FooSpec (foo_types.go:12)`). */
  add(
    disc: GoField | undefined,
    discAt: Loc | undefined,
    members: Member[],
    exactlyOne: boolean,
    label: string,
    at: Loc,
  ): void {
    const values = disc && discAt ? this.discriminator(disc, discAt) : undefined;
    const byValue = new Map<string, Member>();
    const memberAt = new Map<string, Loc>();
    const kept: Member[] = [];
    for (const m of members) {
      const prev = byValue.get(m.value);
      if (prev) {
        this.report(
          m.at,
          `duplicate discriminator value "${m.value}" for ${prev.field.jsonName} and ${m.field.jsonName}`,
        );
        continue;
      }
      if (values && !values.includes(m.value))
        this.report(
          m.at,
          `+${m.marker}: "${m.value}" (${m.field.jsonName}) is not a value of the discriminator's enum ${disc?.type}: ${values.map((v) => JSON.stringify(v)).join(", ")}`,
        );
      byValue.set(m.value, m);
      memberAt.set(m.field.jsonName, m.at);
      kept.push(m);
    }
    const union: Union = {
      members: kept.map((m) => ({
        field: m.field.jsonName,
        value: m.value,
        optional: m.optional,
        kind: this.kindOf(m.field),
      })),
      emptyValues: values ? values.filter((v) => !byValue.has(v)) : [],
      exactlyOne: disc ? this.required(disc) : exactlyOne,
      deduce: false,
      origin: `${label} (${where(at)})`,
    };
    if (disc) union.discriminator = disc.jsonName;
    this.built.push({ union, enumKnown: values !== undefined, at, memberAt, ...(discAt ? { discAt } : {}) });
  }

  /** KEP-1027: `+union`, `+unionDiscriminator`, `+unionDeprecated`, `+unionMember`, `+unionDiscriminatedBy`. */
  kep(): void {
    const unionMarker = findGoMarker(this.s.markers, "union");
    const discs = this.s.fields.filter((f) => has(f, "unionDiscriminator"));
    const groups = new Map<GoField | undefined, Member[]>(discs.map((d) => [d, []]));
    for (const f of this.s.fields) {
      if (discs.includes(f)) continue;
      const m =
        findGoMarker(f.markers, "unionMember") ??
        findGoMarker(f.markers, "unionDeprecated") ??
        findGoMarker(f.markers, "unionDiscriminatedBy");
      if (!m && (!unionMarker || f.inline || isOtherMember(f))) continue;
      const at = m ?? f;
      if (f.inline) {
        this.report(at, `+${m?.name}: the inline field ${f.name} cannot be a union member`);
        continue;
      }
      const by = findGoMarker(f.markers, "unionDiscriminatedBy");
      let disc: GoField | undefined;
      if (by) {
        const name = argValue(by);
        disc = discs.find((d) => d.name === name || d.jsonName === name);
        if (!disc) {
          this.report(by, `+unionDiscriminatedBy=${name}: no +unionDiscriminator field ${name}`);
          continue;
        }
      } else if (discs.length === 1) {
        disc = discs[0];
      } else if (discs.length > 1) {
        const names = discs.map((d) => d.jsonName).join(", ");
        this.report(at, `${f.jsonName}: several +unionDiscriminator fields (${names}) and no +unionDiscriminatedBy`);
        continue;
      }
      const um = findGoMarker(f.markers, "unionMember");
      const [value = "", ...flags] = um ? argValue(um).split(",") : [];
      const member: Member = {
        field: f,
        value: value.trim().replace(/^"(.*)"$/, "$1") || f.name,
        optional: flags.some((x) => x.trim() === "optional"),
        at,
        marker: um ? "unionMember" : (m?.name ?? "union"),
      };
      groups.set(disc, [...(groups.get(disc) ?? []), member]);
    }
    for (const [disc, members] of groups) {
      const discAt = disc ? findGoMarker(disc.markers, "unionDiscriminator") : undefined;
      const first = members[0];
      if (unionMarker) this.add(disc, discAt, members, false, `+union ${this.s.name}`, unionMarker);
      else if (disc && discAt)
        this.add(disc, discAt, members, false, `+unionDiscriminator ${this.label(disc)}`, discAt);
      else if (first) this.add(undefined, undefined, members, false, `+${first.marker} ${this.s.name}`, first.at);
    }
  }

  /** Kubernetes 1.34 declarative validation: `+k8s:unionMember`, `+k8s:zeroOrOneOfMember`, `+k8s:unionDiscriminator`. */
  k8s(): void {
    const discs = new Map<string, { field: GoField; at: GoMarker }>();
    const groups = new Map<string, Member[]>();
    for (const f of this.s.fields) {
      for (const m of f.markers) {
        const kinds = ["k8s:unionDiscriminator", "k8s:unionMember", "k8s:zeroOrOneOfMember"];
        if (!kinds.includes(m.name)) continue;
        const args = goMarkerArgs(m.args);
        if (!args) {
          this.report(m, `+${m.name}: cannot read the arguments ${m.args}`);
          continue;
        }
        const union = args.union ?? "";
        if (m.name === "k8s:unionDiscriminator") {
          const prev = discs.get(union)?.field.jsonName;
          if (prev) this.report(m, `two +k8s:unionDiscriminator fields for union "${union}": ${prev}, ${f.jsonName}`);
          else discs.set(union, { field: f, at: m });
          continue;
        }
        const key = `${m.name}\u0000${union}`;
        const member: Member = { field: f, value: args.memberName || f.name, optional: false, at: m, marker: m.name };
        groups.set(key, [...(groups.get(key) ?? []), member]);
      }
    }
    const used = new Set<string>();
    for (const [key, members] of groups) {
      const [marker = "", union = ""] = key.split("\u0000");
      const d = marker === "k8s:unionMember" ? discs.get(union) : undefined;
      if (d) used.add(union);
      const label = `+${marker}${union ? `(union: ${JSON.stringify(union)})` : ""} ${this.s.name}`;
      this.add(d?.field, d?.at, members, marker === "k8s:unionMember", label, d?.at ?? (members[0] as Member).at);
    }
    for (const [union, d] of discs) {
      if (used.has(union)) continue;
      const label = `+k8s:unionDiscriminator${union ? `(union: ${JSON.stringify(union)})` : ""} ${this.label(d.field)}`;
      this.add(d.field, d.at, [], false, label, d.at);
    }
  }

  label(f: GoField): string {
    return `${this.s.name}.${f.jsonName}`;
  }

  /** controller-tools `+kubebuilder:validation:ExactlyOneOf=a;b` / `AtMostOneOf` on the struct (inlined fields count). */
  kubebuilder(): void {
    for (const m of this.s.markers) {
      const exactly = m.name === "kubebuilder:validation:ExactlyOneOf";
      if (!exactly && m.name !== "kubebuilder:validation:AtMostOneOf") continue;
      const members: Member[] = [];
      for (const name of splitMarkerList(argValue(m))) {
        const f = jsonField(this.types, this.s, name, new Set());
        if (f) members.push({ field: f, value: f.name, optional: false, at: m, marker: m.name });
        else this.report(m, `+${m.name} names ${name}, which is not a field of ${this.s.name}`);
      }
      if (members.length > 0) this.add(undefined, undefined, members, exactly, `+${m.name} ${this.s.name}`, m);
    }
  }

  /** Merges identical declarations; a field in two unions, or both discriminator and member, is a finding. */
  settle(): Built[] {
    const out: Built[] = [];
    const owner = new Map<string, Built>();
    const discs = new Set(this.built.flatMap((b) => (b.union.discriminator ? [b.union.discriminator] : [])));
    for (const b of this.built) {
      const same = out.find((o) => sameUnion(o.union, b.union));
      if (same) {
        same.union.exactlyOne ||= b.union.exactlyOne;
        continue;
      }
      b.union.members = b.union.members.filter((m) => {
        const at = b.memberAt.get(m.field) ?? b.at;
        const o = owner.get(m.field);
        if (discs.has(m.field)) this.report(at, `${m.field} is both a union member and a discriminator`);
        else if (o) this.report(at, `${m.field} is in two unions: ${o.union.origin} and ${b.union.origin}`);
        else {
          owner.set(m.field, b);
          return true;
        }
        return false;
      });
      out.push(b);
    }
    return out;
  }
}

/** Fields another marker family already places (kept out of `+union`'s "every field"). */
function isOtherMember(f: GoField): boolean {
  return f.markers.some((m) => m.name.startsWith("k8s:union") || m.name === "k8s:zeroOrOneOfMember");
}

/** The field with JSON name `name`, looking through inline embedded structs. */
function jsonField(types: GoTypes, s: GoStruct, name: string, seen: Set<GoStruct>): GoField | undefined {
  seen.add(s);
  const own = s.fields.find((f) => !f.inline && f.jsonName === name);
  if (own) return own;
  for (const f of s.fields) {
    const d = f.inline ? findGoType(types, f.type.replace(/^\*/, ""), s.file) : undefined;
    const hit = d?.kind === "struct" && !seen.has(d) ? jsonField(types, d, name, seen) : undefined;
    if (hit) return hit;
  }
  return undefined;
}

/** `(union: "u1", memberName: "Foo")` or `={"union": "u1"}`; undefined when unreadable. */
export function goMarkerArgs(args: string): Record<string, string> | undefined {
  const a = args.trim();
  if (a === "" || a === "()") return {};
  const out = emptyRecord<string>();
  if (a.startsWith("=")) {
    try {
      const v: unknown = JSON.parse(a.slice(1));
      if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
      for (const [k, x] of Object.entries(v)) out[k] = String(x);
      return out;
    } catch {
      return undefined; // not JSON
    }
  }
  if (!a.startsWith("(") || !a.endsWith(")")) return undefined;
  const re = /\s*(\w+)\s*:\s*("(?:[^"\\]|\\.)*"|`[^`]*`|[^,\s)]+)\s*(,|$)/y;
  const inner = a.slice(1, -1);
  while (re.lastIndex < inner.length) {
    const m = re.exec(inner);
    if (!m) break;
    const raw = m[2] as string;
    out[m[1] as string] = raw.startsWith('"') ? goUnquote(raw.slice(1, -1)) : raw.replace(/^`|`$/g, "");
  }
  return re.lastIndex === inner.length || inner.trim() === "" ? out : undefined;
}

/** Same discriminator and the same member fields. */
function sameUnion(a: Union, b: Union): boolean {
  const fields = (u: Union) =>
    u.members
      .map((m) => m.field)
      .sort()
      .join("\u0000");
  return a.discriminator === b.discriminator && fields(a) === fields(b);
}

function build(types: GoTypes, s: GoStruct, path: FieldPath): { built: Built[]; findings: Finding[] } {
  const su = new StructUnions(types, s, path);
  su.kep();
  su.k8s();
  su.kubebuilder();
  const built = su.settle();
  return { built, findings: su.findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
}

/** The unions the Go markers declare on one struct (its own fields; embedded structs have their own). */
export function unionsOfStruct(
  types: GoTypes,
  typeName: string,
  path: FieldPath = [],
): { unions: Union[]; findings: Finding[] } {
  const s = findGoType(types, typeName);
  if (s?.kind !== "struct") return { unions: [], findings: [] };
  const { built, findings } = build(types, s, path);
  return { unions: built.map((b) => b.union), findings };
}

/** Checks a struct's unions against its schema node and adds the new ones to `node.unions`. */
function attachStruct(node: SchemaNode, types: GoTypes, s: GoStruct, path: FieldPath, findings: Finding[]): void {
  const { built, findings: own } = build(types, s, path);
  findings.push(...own);
  const props = node.properties;
  const prop = (name: string) => (props && Object.hasOwn(props, name) ? props[name] : undefined);
  const report = (at: Loc, detail: string) => findings.push(located(path, at, `${s.name}: ${detail}`));
  for (const { union, enumKnown, at, discAt, memberAt } of built) {
    const d = union.discriminator;
    if (d !== undefined && !prop(d)) {
      report(discAt ?? at, `discriminator ${d} is not a property of the schema`);
      continue;
    }
    union.members = union.members.filter((m) => {
      if (prop(m.field)) return true;
      report(memberAt.get(m.field) ?? at, `union member ${m.field} is not a property of the schema`);
      return false;
    });
    if (d !== undefined) {
      if (node.required?.includes(d)) union.exactlyOne = true;
      const schemaEnum = prop(d)?.enum?.filter((v): v is string => typeof v === "string");
      if (!enumKnown && schemaEnum && schemaEnum.length > 0) {
        for (const m of union.members)
          if (!schemaEnum.includes(m.value))
            report(memberAt.get(m.field) ?? at, `"${m.value}" (${m.field}) is not in the enum of ${d}`);
        union.emptyValues = schemaEnum.filter((v) => !union.members.some((m) => m.value === v));
      }
    } else if (union.members.length === 0) continue;
    if (node.unions?.some((u) => sameUnion(u, union))) continue;
    node.unions ??= [];
    node.unions.push(union);
  }
}

/** The element type of `[]T` / `[N]T`, or the value type of `map[K]V`. */
function elementType(t: string): string {
  let depth = 0;
  const start = t.startsWith("map[") ? 3 : 0;
  for (let i = start; i < t.length; i++) {
    if (t[i] === "[") depth++;
    else if (t[i] === "]" && --depth === 0) return t.slice(i + 1);
  }
  return "";
}

/**
 * Finds the Go struct named `kind` and walks its fields by JSON name down the
 * schema (`properties`, `items`, `additionalProperties`, `,inline` embedding),
 * attaching every reached struct's unions to its node. Each (node, type) pair
 * is visited once, so recursive types terminate. `opts.file` (a Go file or
 * directory) picks the struct when several packages declare `kind` (api/v1, api/v2).
 * A kind without a Go struct gets nothing: not every CRD has its types among the files.
 */
export function attachGoUnions(
  root: SchemaNode,
  types: GoTypes,
  kind: string,
  opts: { file?: string } = {},
): Finding[] {
  const findings: Finding[] = [];
  const structs = (types.byName.get(kind) ?? []).filter((d) => d.kind === "struct");
  const pick = opts.file?.replace(/\/+$/, "");
  const top =
    structs.find((d) => pick !== undefined && (d.file === pick || d.file.startsWith(`${pick}/`))) ?? structs[0];
  if (!top) return findings;
  const seen = new Map<SchemaNode, Set<GoTypeDecl>>();
  const stack: Array<{ node: SchemaNode; type: string; from: string; path: FieldPath }> = [
    { node: root, type: kind, from: top.file, path: [] },
  ];
  while (stack.length > 0) {
    const { node, type, from, path } = stack.pop() as (typeof stack)[number];
    const t = type.replace(/^\*+/, "");
    if (t.startsWith("[") || t.startsWith("map[")) {
      const next = t.startsWith("map[") ? node.additionalProperties : node.items;
      if (next) stack.push({ node: next, type: elementType(t), from, path: child(path, { key: "*" }) });
      continue;
    }
    const decl = t === kind && node === root ? top : findGoType(types, t, from);
    if (!decl) continue; // builtin, or a package not given (metav1.ObjectMeta)
    const done = seen.get(node) ?? new Set<GoTypeDecl>();
    if (done.has(decl)) continue;
    seen.set(node, done.add(decl));
    if (decl.kind === "named") {
      stack.push({ node, type: decl.underlying, from: decl.file, path });
      continue;
    }
    attachStruct(node, types, decl, path, findings);
    for (const f of [...decl.fields].reverse()) {
      if (f.inline) {
        stack.push({ node, type: f.type, from: decl.file, path });
        continue;
      }
      const props = node.properties;
      const next = props && Object.hasOwn(props, f.jsonName) ? props[f.jsonName] : undefined;
      if (next) stack.push({ node: next, type: f.type, from: decl.file, path: child(path, f.jsonName) });
    }
  }
  return findings;
}
