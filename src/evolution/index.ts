/**
 * CRD evolution (evolution.md): two revisions of one CustomResourceDefinition
 * → the changes that break stored objects, clients or the API server's own
 * checks, each a finding with a stable rule id, a default severity, the
 * version and field, old and new values, one line on why it breaks, and its
 * path in the new document (for a removal, the nearest surviving parent and
 * the path in the old one); the caller turns paths into lines. Each rule is a
 * descriptor under `rules/` (`rule.ts`: what a rule sees and reports),
 * collected here in catalog order; the engine (`diff.ts`) runs them, walking
 * both schemas side by side without recursion (`walk.ts`). Pure: no I/O,
 * never throws.
 * Imports crd, schema, names, path, findings, value.
 */
import type { JsonValue } from "../value/index.js";
import { crdInvalid, type DiffOptions, diff } from "./diff.js";
import type { CrdChangeFinding, EvolutionRule, RuleDescriptor } from "./rule.js";
import { conversionInvalid, conversionMissing, servedVersionsDiverge } from "./rules/conversion.js";
import { fieldRemoved, requiredAdded, typeChanged } from "./rules/fields.js";
import { schemaNotStructural } from "./rules/structural.js";
import { descriptionChanged, listTypeChanged, unknownFieldsPruned } from "./rules/structure.js";
import { unionChanged, unionMemberAdded, unionWithoutDiscriminator } from "./rules/unions.js";
import { validationRuleAdded, validationRuleChanged } from "./rules/validations.js";
import {
  boundsTightened,
  defaultChanged,
  enumExtended,
  enumRestricted,
  formatChanged,
  nullableRemoved,
  patternChanged,
} from "./rules/values.js";
import {
  identityChanged,
  storageVersionChanged,
  storageVersionCount,
  storedVersionRemoved,
  versionNameInvalid,
  versionRemoved,
  versionUnserved,
} from "./rules/versions.js";

export type { DiffOptions } from "./diff.js";
export type { CrdChangeFinding, EvolutionRule } from "./rule.js";

const crdInvalidRule: RuleDescriptor = {
  id: crdInvalid,
  severity: "error",
  description:
    "kunion's own id, not in evolution.md's table: an input that cannot be compared (not a CustomResourceDefinition, no versions, a schema too deep to walk)",
};

const catalog: readonly RuleDescriptor[] = [
  // Whole CRD.
  identityChanged,
  versionRemoved,
  storedVersionRemoved,
  versionUnserved,
  storageVersionChanged,
  storageVersionCount,
  versionNameInvalid,
  conversionMissing,
  conversionInvalid,
  schemaNotStructural,
  // Per version present in both revisions.
  fieldRemoved,
  typeChanged,
  requiredAdded,
  enumRestricted,
  enumExtended,
  boundsTightened,
  patternChanged,
  formatChanged,
  nullableRemoved,
  defaultChanged,
  validationRuleAdded,
  validationRuleChanged,
  listTypeChanged,
  unknownFieldsPruned,
  unionChanged,
  unionMemberAdded,
  unionWithoutDiscriminator,
  descriptionChanged,
  // Between served versions of the new revision.
  servedVersionsDiverge,
  crdInvalidRule,
];

/** Every rule of evolution.md, ids exactly as there, in its order; then `crd-invalid`. */
export const evolutionRules: readonly EvolutionRule[] = catalog;

/** Every finding between two revisions of one CRD (JSON values of the CRD documents). Pure, never throws. */
export function diffCrds(oldCrd: JsonValue, newCrd: JsonValue, options?: DiffOptions): CrdChangeFinding[] {
  return diff(oldCrd, newCrd, catalog, options);
}
