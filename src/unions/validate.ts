import { type Finding, finding, invalid, notSupported, required } from "../findings/index.js";
import { child, type FieldPath, formatOpenAPIName } from "../path/index.js";
import type { SchemaNode, Union, UnionMember } from "../schema/index.js";
import { deepEqual, getKey, type JsonObject, type JsonValue } from "../value/index.js";
import { allowedValues, discriminatorOf, isSet, selectedMember, setMembers } from "./members.js";
import { planFor } from "./plan.js";
import { walkUnions } from "./walk.js";
import { wordings } from "./wording.js";

export interface ValidateUnionsInput {
  object: JsonValue;
  /** The stored object on update; enables ratcheting and the KEP's update rule. */
  oldObject?: JsonValue;
  schema: SchemaNode | undefined;
}

export interface ValidateUnionsOptions {
  /** Skip a union whose members' set-ness and discriminator did not change (default true, as the API server). */
  ratcheting?: boolean;
  /**
   * The schema is validated in the same pass: leave to it the unions it checks
   * itself (CEL, oneOf) and a discriminator's type, so each is reported once.
   */
  schemaValidated?: boolean;
}

const rule = { rule: "union" } as const;
const quoteFields = (fields: readonly string[]) => fields.map((f) => `\`${f}\``).join(", ");

/**
 * Union validation (unions.md §4) in apimachinery's words
 * (`k8s.io/apimachinery/pkg/api/validate`: Union, DiscriminatedUnion,
 * ZeroOrOneOfUnion), or the API server's own hand-written messages for the
 * built-in unions that have them (`wording.ts`).
 */
export function validateUnions(input: ValidateUnionsInput, options: ValidateUnionsOptions = {}): Finding[] {
  const plan = input.schema ? planFor(input.schema) : null;
  if (!plan) return [];
  const ratcheting = options.ratcheting ?? true;
  const schemaValidated = options.schemaValidated ?? false;
  const findings: Finding[] = [];
  walkUnions(plan, input.object, input.oldObject, (node, old, p, path) => {
    for (const union of p.unions) {
      if (schemaValidated && union.enforcedBySchema) continue;
      if (ratcheting && old && unchanged(union, node, old)) continue;
      if (!old && quietlyValid(union, node)) continue;
      findings.push(...validateUnion(union, node, old, path(), schemaValidated));
    }
    return undefined;
  });
  return findings;
}

function validateUnion(
  union: Union,
  node: JsonObject,
  old: JsonObject | undefined,
  path: FieldPath,
  schemaValidated: boolean,
): Finding[] {
  const out: Finding[] = [];
  const raw = union.discriminator === undefined ? undefined : getKey(node, union.discriminator);
  const typed = raw === undefined || raw === null || typeof raw === "string";
  if (union.discriminator !== undefined && !typed && !schemaValidated) {
    // The API server refuses this before any union rule; for unions the discriminator is then unset.
    const at = child(path, union.discriminator);
    const detail = `${formatOpenAPIName(at)} in body must be of type string: "${jsonType(raw)}"`;
    out.push(finding({ type: "FieldValueTypeInvalid", path: at, badValue: jsonType(raw), detail, ...rule }));
  }
  const own = union.wording !== undefined ? wordings[union.wording] : undefined;
  if (own) {
    out.push(
      ...own({ union, path, node, isSet: (m) => isSet(node, m), discriminatorValue: discriminatorOf(node, union) }),
    );
  } else if (union.discriminator === undefined) {
    out.push(...validateUndiscriminated(union, node, path));
  } else {
    out.push(...validateDiscriminated(union, union.discriminator, node, old, path));
  }
  return out;
}

function validateUndiscriminated(union: Union, node: JsonObject, path: FieldPath): Finding[] {
  const names = quoteFields(union.members.map((m) => m.field));
  const set = setMembers(node, union).map((m) => m.field);
  if (set.length > 1) {
    const how = union.exactlyOne ? "exactly one" : "at most one";
    return [invalid(path, `{${set.join(", ")}}`, `must specify ${how} of: ${names}`, rule)];
  }
  if (set.length === 0 && union.exactlyOne) return [invalid(path, "", `must specify one of: ${names}`, rule)];
  return [];
}

function validateDiscriminated(
  union: Union,
  name: string,
  node: JsonObject,
  old: JsonObject | undefined,
  path: FieldPath,
): Finding[] {
  const out: Finding[] = [];
  const at = child(path, name);
  const raw = getKey(node, name);
  const d = discriminatorOf(node, union);
  const wrongType = raw !== undefined && raw !== null && typeof raw !== "string";
  if (d === undefined && union.exactlyOne && !wrongType) {
    out.push(required(at, "", rule));
  } else if (d !== undefined && !allowedValues(union).includes(d)) {
    out.push(notSupported(at, d, allowedValues(union), rule));
  }
  for (const m of union.members) {
    const selected = d === m.value;
    const present = isSet(node, m);
    if (!selected && present) {
      out.push(invalid(child(path, m.field), "", `may only be specified when \`${name}\` is "${m.value}"`, rule));
    } else if (selected && !present && !m.optional) {
      out.push(invalid(child(path, m.field), "", `must be specified when \`${name}\` is "${d}"`, rule));
    }
  }
  // KEP-1027 (latest): a client that switched members but kept the discriminator
  // is told what to fix, on top of apimachinery's two member errors.
  const chosen = selectedMember(union, d);
  if (old && chosen && d === discriminatorOf(old, union) && isSet(old, chosen) && !isSet(node, chosen)) {
    const added = setMembers(node, union).filter((m) => !isSet(old, m));
    if (added.length === 1) out.push(invalid(at, d, "must be changed when a different member is set", rule));
  }
  return out;
}

/**
 * The common case, decided with a few key lookups: exactly one member set and
 * selected by a string discriminator, or an at-most-one union with none set.
 * Unions with the API server's own wording always take the full path.
 */
function quietlyValid(union: Union, node: JsonObject): boolean {
  if (union.wording !== undefined) return false;
  let set: UnionMember | undefined;
  for (const m of union.members) {
    if (!isSet(node, m)) continue;
    if (set) return false;
    set = m;
  }
  if (union.discriminator === undefined) return set !== undefined || !union.exactlyOne;
  return set !== undefined && getKey(node, union.discriminator) === set.value;
}

/**
 * Ratcheting: no member and not the discriminator changed, compared by value.
 * Set-ness alone is not enough: a union whose wording also judges the members'
 * own fields (EnvVar judges `valueFrom`'s sources) would let a source added
 * beside the old one through, where the API server refuses the update.
 */
function unchanged(union: Union, node: JsonObject, old: JsonObject): boolean {
  if (union.members.some((m) => !deepEqual(getKey(node, m.field), getKey(old, m.field)))) return false;
  if (union.discriminator === undefined) return true;
  return deepEqual(getKey(node, union.discriminator), getKey(old, union.discriminator));
}

function jsonType(v: JsonValue): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
