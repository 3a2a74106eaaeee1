import type { Union, UnionMember } from "../schema/index.js";
import { getKey, hasKey, type JsonObject } from "../value/index.js";
import { fieldList, setMembers } from "./members.js";
import type { UnionPolicy } from "./policy.js";

/**
 * Policy `smd`: structured-merge-diff v4.3.0 `union.Normalize` and
 * `union.NormalizeApply`, the last code that normalized unions, reproduced
 * branch for branch (conformance/smd-unions.md). Differences, all cosmetic:
 * field lists are in declaration order (Go printed map order), and the field
 * is named where v4.3.0 printed a pointer address.
 */
export const smdPolicy: UnionPolicy = {
  name: "smd",

  update(union, { out, old }, edit) {
    const before = setMembers(old, union, "smd");
    const now = setMembers(out, union, "smd");
    const added = now.filter((m) => !before.includes(m));
    const d = discriminator(out, union);
    if (d !== discriminator(old, union) && d !== "") {
      const [only] = added;
      if (added.length === 1 && only && d !== only.value) {
        edit.fail(`discriminator (${d}) and field changed (${only.field}) don't match`);
        return;
      }
      if (added.length > 1) {
        edit.fail(`multiple new fields added: ${fieldList(added)}`);
        return;
      }
      clearAllBut(union, out, fieldFor(union, d), edit.clear);
      return;
    }
    const [single] = now;
    if (now.length > 1) {
      edit.fail(`multiple fields set without discriminator change: ${fieldList(now)}`);
      return;
    }
    if (union.deduce && single && union.discriminator !== undefined) edit.setDiscriminator(single.value);
  },

  apply(union, { out, applied }, edit) {
    const appliedMembers = setMembers(applied, union, "smd");
    const [only] = appliedMembers;
    if (appliedMembers.length > 1) {
      edit.fail(`more than one field of union applied: ${fieldList(appliedMembers)}`);
      return;
    }
    if (!only) return;
    const d = discriminator(applied, union);
    if (d !== "" && d !== only.value) {
      edit.fail(`applied discriminator (${d}) doesn't match applied field (${only.field})`);
      return;
    }
    if (union.deduce && union.discriminator !== undefined) edit.setDiscriminator(only.value);
    clearAllBut(union, out, only.field, edit.clear);
  },
};

/** SMD's `discriminator.Get`: the string value, or "" for absent and non-string values. */
function discriminator(node: JsonObject | undefined, union: Union): string {
  if (!node || union.discriminator === undefined) return "";
  const v = getKey(node, union.discriminator);
  return typeof v === "string" ? v : "";
}

/** SMD's `toField`: a value no member claims is taken as a field name. */
function fieldFor(union: Union, value: string): string {
  return union.members.find((m) => m.value === value)?.field ?? value;
}

function clearAllBut(union: Union, out: JsonObject, keep: string, clear: (m: UnionMember) => void): void {
  for (const m of union.members) if (m.field !== keep && hasKey(out, m.field)) clear(m);
}
