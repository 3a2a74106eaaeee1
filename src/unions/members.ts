import type { Union, UnionMember } from "../schema/index.js";
import { getKey, isObject, type JsonObject } from "../value/index.js";

/**
 * When a member counts as set (unions.md §1): present and not null; under
 * `apimachinery` rules an empty list or map is unset, and so is a Go
 * non-pointer scalar at its zero value. Policy `smd` counts anything non-null.
 */
export type Setness = "apimachinery" | "smd";

export function isSet(node: JsonObject | undefined, member: UnionMember, rules: Setness = "apimachinery"): boolean {
  if (!node) return false;
  const v = getKey(node, member.field);
  if (v === undefined || v === null) return false;
  if (rules === "smd") return true;
  switch (member.kind) {
    case "list":
      return !Array.isArray(v) || v.length > 0;
    case "map":
      return !isObject(v) || Object.keys(v).length > 0;
    case "zero":
      return v !== "" && v !== 0 && v !== false;
    default:
      return true;
  }
}

export function setMembers(node: JsonObject | undefined, union: Union, rules: Setness = "apimachinery"): UnionMember[] {
  return union.members.filter((m) => isSet(node, m, rules));
}

/**
 * The discriminator's value, or undefined when it is unset for union purposes:
 * absent, null, not a string, or `""` where `""` is not a declared value.
 */
export function discriminatorOf(node: JsonObject | undefined, union: Union): string | undefined {
  if (!node || union.discriminator === undefined) return undefined;
  const v = getKey(node, union.discriminator);
  if (typeof v !== "string") return undefined;
  if (v === "" && !declaresEmptyString(union)) return undefined;
  return v;
}

function declaresEmptyString(union: Union): boolean {
  return union.emptyValues.includes("") || union.members.some((m) => m.value === "");
}

/** The member a discriminator value selects (none for empty values and unknown values). */
export function selectedMember(union: Union, value: string | undefined): UnionMember | undefined {
  return value === undefined ? undefined : union.members.find((m) => m.value === value);
}

/** Every value the discriminator may take: members' values, then empty values. */
export function allowedValues(union: Union): string[] {
  return [...union.members.map((m) => m.value), ...union.emptyValues];
}

export const fieldList = (members: readonly UnionMember[]) => members.map((m) => m.field).join(", ");
