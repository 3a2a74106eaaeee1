/**
 * The union engine: normalization under policies `kep` and `smd` (unions.md
 * §3) and union validation with ratcheting (§4). Pure functions over JSON
 * values and a `SchemaNode`; inputs are never mutated.
 * Imports schema, value, path, findings.
 */
export { isSet, setMembers } from "./members.js";
export {
  type Change,
  describeChange,
  mergeApplied,
  type NormalizeInput,
  type NormalizeOptions,
  type NormalizeResult,
  type Note,
  normalize,
  policies,
} from "./normalize.js";
export type { UnionPolicy } from "./policy.js";
export { type ValidateUnionsInput, type ValidateUnionsOptions, validateUnions } from "./validate.js";
