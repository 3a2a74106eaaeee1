/** The rule kinds a declaration may use, by name. */
import { defaultRule } from "./default.js";
import { map } from "./map.js";
import { remove } from "./remove.js";
import { moveRule, rename } from "./rename.js";
import type { ConversionRuleKind } from "./rule.js";
import { assertRule, set } from "./set.js";
import { union } from "./union.js";
import { unwrap, wrap } from "./wrap.js";

export type { CompiledRule, ConversionRuleKind, NamedPath, RuleContext } from "./rule.js";
export { makeContext } from "./rule.js";

export const RULES: ReadonlyMap<string, ConversionRuleKind> = new Map(
  [rename, moveRule, map, wrap, unwrap, set, assertRule, remove, defaultRule, union].map((r) => [r.kind, r]),
);
