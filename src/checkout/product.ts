/**
 * Every rule the faces can report, with its docs: for SARIF, and for the
 * configuration's waivers (an unknown id is an error).
 */
import { evolutionRules, type RuleDoc, ruleDocsOf } from "../index.js";

/** Every rule id kunion reports: docs/messages.md's and docs/evolution.md's. */
export const knownRules: readonly RuleDoc[] = ruleDocsOf(evolutionRules);
