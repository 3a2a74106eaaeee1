/**
 * Consistency rules every union declaration must satisfy, whatever form it
 * came from (unions.md §2, last paragraph). Malformed declarations are
 * reported as schema errors, never silently ignored; the unions are kept so
 * that the caller decides what to do with them.
 */
import { type Finding, schemaError } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import type { SchemaNode, Union } from "./model.js";

/** Schema errors for the unions declared on `node`, reported at `path` (the object's data path). */
export function checkUnions(node: SchemaNode, path: FieldPath): Finding[] {
  const unions = node.unions ?? [];
  const out: Finding[] = [];
  // Which union first claimed each field (member or discriminator), to find fields in two unions.
  const owner = new Map<string, Union>();
  for (const union of unions) {
    const origin = union.origin;
    const fields: string[] = [];
    const seen = new Set<string>();
    for (const m of union.members) {
      if (seen.has(m.field)) {
        out.push(schemaError(path, `member \`${m.field}\` is listed twice (${origin})`));
        continue;
      }
      seen.add(m.field);
      fields.push(m.field);
    }
    const d = union.discriminator;
    if (d !== undefined) {
      if (seen.has(d)) out.push(schemaError(path, `discriminator \`${d}\` is also a member (${origin})`));
      else fields.push(d);
      out.push(...duplicateValues(union, path));
    }
    for (const field of fields) {
      const first = owner.get(field);
      if (first === undefined) owner.set(field, union);
      else if (first !== union) {
        out.push(schemaError(path, `field \`${field}\` is in two unions (${first.origin}; ${origin})`));
      }
    }
    out.push(...unknownFields(node, union, path));
  }
  return out;
}

/** Each discriminator value may select one thing: a member or "no member". */
function duplicateValues(union: Union, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const claimedBy = new Map<string, string>();
  const claim = (value: string, who: string) => {
    const first = claimedBy.get(value);
    if (first === undefined) claimedBy.set(value, who);
    else
      out.push(
        schemaError(
          path,
          `discriminator value ${JSON.stringify(value)} is used by both ${first} and ${who} (${union.origin})`,
        ),
      );
  };
  for (const m of union.members) claim(m.value, `\`${m.field}\``);
  for (const v of union.emptyValues) claim(v, "an empty member");
  return out;
}

/** Members and discriminators must be properties of the object (when it lists any). */
function unknownFields(node: SchemaNode, union: Union, path: FieldPath): Finding[] {
  const props = node.properties;
  if (props === undefined) return [];
  const out: Finding[] = [];
  const has = (f: string) => Object.hasOwn(props, f);
  for (const m of union.members) {
    if (!has(m.field)) out.push(schemaError(path, `member \`${m.field}\` is not a property (${union.origin})`));
  }
  const d = union.discriminator;
  if (d !== undefined) {
    if (!has(d)) out.push(schemaError(path, `discriminator \`${d}\` is not a property (${union.origin})`));
    else {
      const type = props[d]?.type;
      if (type !== undefined && type !== "string") {
        out.push(schemaError(path, `discriminator \`${d}\` must be a string field, not ${type} (${union.origin})`));
      }
    }
  }
  return out;
}
