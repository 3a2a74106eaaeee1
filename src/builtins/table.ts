/**
 * A schema table of Kubernetes' own kinds: each kind's definition and every
 * definition it reaches, in a compact type grammar, as the generator writes
 * it from a release's npm data (.ci/generate-builtin-schemas.mjs) and as
 * `openapi.ts` reads it from a cluster's own OpenAPI v3 documents. A kind is
 * turned into a structural schema, the form `validate/` compiles for custom
 * resources, only when an object of that kind is validated.
 *
 * Types: `s` string (`s/byte`, `s/date-time`, `s/date-time-micro` with a
 * format), `i/int32`,
 * `i/int64`, `n`, `n/double`, `b`, `x` int-or-string, `q` Quantity, `*` any
 * value, `[T]` a list (`[T]~map:k1,k2`, `~set`, `~atomic` with its list type),
 * `{T}` a map, `#Name` a definition.
 */
import type { JsonObject } from "../value/index.js";
import { enforcedRequired } from "./required.js";

export interface Definition {
  /** Properties and their types. */
  p: Record<string, string>;
  /** Required properties. */
  r?: string[];
}

export interface BuiltinTable {
  /** `apps/v1/Deployment` → its definition's name. */
  kinds: Record<string, string>;
  defs: Record<string, Definition>;
}

/** A key of `kinds`: the apiVersion and the kind. */
export const kindKey = (apiVersion: string, kind: string): string => `${apiVersion}/${kind}`;

/**
 * The structural schema of a kind, or undefined when the table lacks it.
 * apiVersion, kind and metadata are left out: the validator checks them as
 * every resource's (apimachinery's ObjectMeta rules). Every value may be
 * null: Go decodes a null as the field's zero value. Definitions are shared
 * objects, and recursive ones (JSONSchemaProps) refer to themselves.
 */
export function kindSchema(table: BuiltinTable, apiVersion: string, kind: string): JsonObject | undefined {
  const name = table.kinds[kindKey(apiVersion, kind)];
  if (name === undefined || !Object.hasOwn(table.defs, name)) return undefined;
  const def = new Expander(table, true).definition(name);
  const properties = { ...(def.properties as JsonObject) };
  delete properties.apiVersion;
  delete properties.kind;
  delete properties.metadata;
  // A status is decoded (its types and fields as strictly as the rest), then dropped or kept as it is by
  // PrepareForCreate and PrepareForUpdate: no validation asks for its required fields.
  const status = (table.defs[name] as Definition).p.status;
  if (status !== undefined) properties.status = new Expander(table, false).expand(status);
  return { ...def, properties };
}

/** Whether the kind's Go type has a `spec` struct (a definition of its own, not a scalar or a map). */
export function hasSpecStruct(table: BuiltinTable, apiVersion: string, kind: string): boolean {
  const name = table.kinds[kindKey(apiVersion, kind)];
  const spec = name === undefined ? undefined : table.defs[name]?.p.spec;
  return spec?.startsWith("#") === true;
}

/** Definitions expanded into schemas, each once; `required`: with their required lists, or none. */
class Expander {
  private readonly done = new Map<string, JsonObject>();

  constructor(
    private readonly table: BuiltinTable,
    private readonly required: boolean,
  ) {}

  /** The schema of a type in the table's grammar. */
  expand(text: string): JsonObject {
    return this.type(text, { at: 0 });
  }

  definition(name: string): JsonObject {
    const known = this.done.get(name);
    if (known) return known;
    const def = Object.hasOwn(this.table.defs, name) ? this.table.defs[name] : undefined;
    if (!def) return { "x-kubernetes-preserve-unknown-fields": true, nullable: true };
    const schema: JsonObject = { type: "object", nullable: true };
    this.done.set(name, schema);
    const properties: JsonObject = {};
    for (const [prop, type] of Object.entries(def.p)) properties[prop] = this.type(type, { at: 0 });
    schema.properties = properties;
    const required = def.r === undefined || !this.required ? [] : enforcedRequired(name, def.r);
    if (required.length > 0) schema.required = required;
    return schema;
  }

  private type(text: string, pos: { at: number }): JsonObject {
    const c = text[pos.at];
    if (c === "[") {
      pos.at++;
      const items = this.type(text, pos);
      pos.at++; // "]"
      const list: JsonObject = { type: "array", items, nullable: true };
      if (text[pos.at] === "~") {
        const semantics = readToken(text, pos, 1);
        const [listType, keys] = semantics.split(":") as [string, string | undefined];
        list["x-kubernetes-list-type"] = listType;
        if (keys) list["x-kubernetes-list-map-keys"] = keys.split(",");
      }
      return list;
    }
    if (c === "{") {
      pos.at++;
      const values = this.type(text, pos);
      pos.at++; // "}"
      return { type: "object", additionalProperties: values, nullable: true };
    }
    if (c === "#") return this.definition(readToken(text, pos, 1));
    return scalar(readToken(text, pos, 0));
  }
}

/** Text up to the next delimiter, after skipping `skip` characters. */
function readToken(text: string, pos: { at: number }, skip: number): string {
  const start = pos.at + skip;
  let end = start;
  while (end < text.length && !"[]{}~".includes(text[end] as string)) end++;
  // A list's semantics may name keys with ","; they end at the close of an enclosing type.
  pos.at = end;
  return text.slice(start, end);
}

function scalar(token: string): JsonObject {
  const [type, format] = token.split("/") as [string, string | undefined];
  const withFormat = (t: string): JsonObject =>
    format ? { type: t, format, nullable: true } : { type: t, nullable: true };
  switch (type) {
    case "s":
      return withFormat("string");
    case "i":
      return withFormat("integer");
    case "n":
      return withFormat("number");
    case "b":
      return withFormat("boolean");
    case "x":
      return { "x-kubernetes-int-or-string": true, nullable: true };
    case "q":
      // resource.Quantity: a string or a number, whatever its UnmarshalJSON accepts (builtins/decoders.ts).
      return { format: "quantity", nullable: true };
    default:
      return { "x-kubernetes-preserve-unknown-fields": true, nullable: true };
  }
}
