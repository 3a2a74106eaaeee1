import { recognizeRule } from "../../schema/index.js";
import { deepEqual, getKey, hasKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { hitAt, type NodePair, type RuleDescriptor, type RuleHit, show } from "../rule.js";

interface CelRule {
  entry: JsonObject;
  rule: string;
  index: number;
}

/** Layout aside: spaces next to punctuation and runs of spaces do not change a rule. */
const canonical = (rule: string) =>
  rule
    .trim()
    .replace(/\s+/g, " ")
    .replace(/ ?([^\w\s'"]) ?/g, "$1");

/** Where two rules part: a window of each around the first difference. */
function contrast(a: string, b: string): [string, string] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  const cut = (s: string) => `${from > 0 ? "..." : ""}${s.slice(from, i + 40)}${s.length > i + 40 ? "..." : ""}`;
  return [cut(a), cut(b)];
}

function celRules(json: JsonObject): CelRule[] {
  const list = getKey(json, "x-kubernetes-validations");
  if (!Array.isArray(list)) return [];
  const out: CelRule[] = [];
  list.forEach((entry, index) => {
    const rule = isObject(entry) ? getKey(entry, "rule") : undefined;
    if (isObject(entry) && typeof rule === "string") out.push({ entry, rule, index });
  });
  return out;
}

const attributes = ["message", "messageExpression", "reason", "fieldPath", "optionalOldSelf"] as const;

/**
 * New rules against old ones: the same rule text is the same rule (its
 * message may change); a rule whose text changed pairs, in order, with an old
 * rule that is gone; the rest are added.
 */
function matchRules(pair: NodePair): { added: CelRule[]; changed: Array<[CelRule, CelRule, string]> } {
  const before = celRules(pair.old);
  const after = celRules(pair.new);
  const unmatchedOld = [...before];
  const added: CelRule[] = [];
  const changed: Array<[CelRule, CelRule, string]> = [];
  const retexted: CelRule[] = [];
  for (const r of after) {
    const k = unmatchedOld.findIndex((o) => canonical(o.rule) === canonical(r.rule));
    if (k < 0) {
      retexted.push(r);
      continue;
    }
    const [o] = unmatchedOld.splice(k, 1) as [CelRule];
    const diff = attributes.filter((a) => !deepEqual(getKey(o.entry, a), getKey(r.entry, a)));
    if (diff.length > 0) changed.push([o, r, `${diff.join(", ")} of rule ${show(r.rule)} changed`]);
  }
  retexted.forEach((r, i) => {
    const o = unmatchedOld[i];
    if (!o) added.push(r);
    else {
      const [a, b] = contrast(canonical(o.rule), canonical(r.rule));
      changed.push([o, r, `rule changed from ${JSON.stringify(a)} to ${JSON.stringify(b)}`]);
    }
  });
  return { added, changed };
}

/**
 * A union rule about a member this revision adds (`!(has(self.x) && self.type != 'X')`): no stored
 * object can have the field, so it rejects nothing that exists; union-member-added reports the member.
 */
function guardsNewMember(pair: NodePair, rule: string): boolean {
  const facts = recognizeRule(rule);
  const props = getKey(pair.old, "properties");
  return facts.length > 0 && facts.every((f) => f.kind !== "count" && !(isObject(props) && hasKey(props, f.field)));
}

const rulePath = (pair: NodePair, r: CelRule) => [...pair.newPath, "x-kubernetes-validations", r.index];

const junctors = ["allOf", "anyOf", "oneOf", "not"] as const;

/** `anyOf: [{type: integer}, {type: string}]`: the int-or-string spelling, a type and not a validation. */
function isIntOrStringAnyOf(v: JsonValue | undefined): boolean {
  return deepEqual(v, [{ type: "integer" }, { type: "string" }]);
}

function junctorChanges(pair: NodePair): { added: RuleHit[]; changed: RuleHit[] } {
  const added: RuleHit[] = [];
  const changed: RuleHit[] = [];
  for (const kw of junctors) {
    const from = getKey(pair.old, kw);
    const to = getKey(pair.new, kw);
    if (to === undefined || (kw === "anyOf" && isIntOrStringAnyOf(to))) continue;
    const path = [...pair.newPath, kw];
    if (from === undefined) {
      added.push(hitAt(pair, `\`${kw}\` added; objects that do not satisfy it are rejected`, { path, newValue: to }));
    } else if (
      kw === "not" ? !deepEqual(from, to) : Array.isArray(from) && Array.isArray(to) && from.length !== to.length
    ) {
      const what =
        kw === "not"
          ? "`not` changed"
          : `\`${kw}\` changed from ${(from as JsonValue[]).length} to ${(to as JsonValue[]).length} branches`;
      changed.push(
        hitAt(pair, `${what}; objects may be validated differently`, { path, oldValue: from, newValue: to }),
      );
    }
  }
  return { added, changed };
}

export const validationRuleAdded: RuleDescriptor = {
  id: "validation-rule-added",
  severity: "error",
  description:
    "a CEL rule added (new objects and, without ratcheting, updates may be rejected); also a new allOf/anyOf/oneOf/not",
  inJunctors: true,
  node(pair) {
    const out = matchRules(pair)
      .added.filter((r) => !guardsNewMember(pair, r.rule))
      .map((r) =>
        hitAt(pair, `rule added: ${show(r.rule)}; objects that break it are rejected on create and update`, {
          path: rulePath(pair, r),
          newValue: r.rule,
        }),
      );
    return [...out, ...junctorChanges(pair).added];
  },
};

export const validationRuleChanged: RuleDescriptor = {
  id: "validation-rule-changed",
  severity: "warning",
  description: "a CEL rule or its message changed; also the number of allOf/anyOf/oneOf branches, or not",
  inJunctors: true,
  node(pair) {
    const out = matchRules(pair).changed.map(([o, r, what]) =>
      hitAt(pair, `${what}; objects may be validated or reported differently`, {
        path: rulePath(pair, r),
        oldValue: o.entry,
        newValue: r.entry,
      }),
    );
    return [...out, ...junctorChanges(pair).changed];
  },
};
