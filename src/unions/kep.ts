import { hasKey } from "../value/index.js";
import { discriminatorOf, fieldList, isSet, selectedMember, setMembers } from "./members.js";
import type { UnionPolicy } from "./policy.js";

/**
 * Policy `kep` (default): KEP-1027 as reconciled in unions.md §3. The newest
 * revision governs discriminated unions (respect the discriminator, but only
 * when it changed); the oldest still describes unions without one (keep the
 * member the client added, clear the others).
 */
export const kepPolicy: UnionPolicy = {
  name: "kep",

  update(union, { out, old }, edit) {
    const now = setMembers(out, union);
    const before = setMembers(old, union);
    const added = now.filter((m) => !before.includes(m));

    if (union.discriminator === undefined) {
      if (!old || now.length <= 1) return;
      const [only] = added;
      if (added.length === 1 && only) {
        for (const m of now) if (m !== only) edit.clear(m);
      } else if (added.length > 1) {
        edit.note(`several members were added at once (${fieldList(added)}): left as is`);
      } else {
        edit.note(`several members are set (${fieldList(now)}) and none was added: left as is`);
      }
      return;
    }

    const d = discriminatorOf(out, union);
    if (d !== undefined && d !== discriminatorOf(old, union)) {
      const [only] = added;
      // On create every set member counts as added; say it the way the user sees it.
      const said = old ? `\`${union.discriminator}\` changed to "${d}"` : `\`${union.discriminator}\` is "${d}"`;
      const members = old ? "members were added" : "members are set";
      if (added.length > 1) {
        edit.note(`${said} while several ${members} (${fieldList(added)}): left as is`);
        return;
      }
      if (only && only.value !== d) {
        const member = old ? `the added member \`${only.field}\`` : `\`${only.field}\``;
        edit.note(`${said} but ${member} is selected by "${only.value}": left as is`);
        return;
      }
      for (const m of union.members) if (m.value !== d && hasKey(out, m.field)) edit.clear(m);
      return;
    }

    const [single] = now;
    if (d === undefined && now.length === 1 && single) {
      // A client that does not know the discriminator set exactly one member.
      // Empty siblings (null, [], {}) go too, as they would once the discriminator is there.
      for (const m of union.members) if (m !== single && hasKey(out, m.field)) edit.clear(m);
      edit.setDiscriminator(single.value);
      return;
    }
    const selected = selectedMember(union, d);
    if (selected && !isSet(out, selected) && isSet(old, selected)) {
      // A client unaware of this member echoed the discriminator: it meant "no change".
      edit.restore(selected);
    }
    if (setMembers(out, union).length > 1) {
      edit.note(
        `several members are set (${fieldList(setMembers(out, union))}) while \`${union.discriminator}\` did not change: left for validation`,
      );
    }
  },

  apply(union, { out, applied }, edit) {
    const appliedMembers = setMembers(applied, union);
    const d = discriminatorOf(applied, union);
    const [only] = appliedMembers;
    if (appliedMembers.length > 1) {
      edit.note(`several members were applied at once (${fieldList(appliedMembers)}): left as is`);
      return;
    }
    if (only) {
      if (d !== undefined && d !== only.value) {
        edit.note(
          `the applied \`${union.discriminator}\` "${d}" does not select the applied member \`${only.field}\`: left as is`,
        );
        return;
      }
      for (const m of union.members) if (m !== only && hasKey(out, m.field)) edit.clear(m);
      if (union.discriminator !== undefined && discriminatorOf(out, union) !== only.value) {
        edit.setDiscriminator(only.value);
      }
      return;
    }
    // Only the discriminator was applied (e.g. `type: Recreate`): it decides.
    if (d !== undefined) {
      for (const m of union.members) if (m.value !== d && hasKey(out, m.field)) edit.clear(m);
    }
  },
};
