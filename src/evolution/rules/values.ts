import { deepEqual, getKey, hasKey, type JsonValue } from "../../value/index.js";
import { at, type Change, type NodePair, type RuleDescriptor, show } from "../rule.js";
import { numberOf } from "./keywords.js";

const enumOf = (pair: NodePair, side: "old" | "new"): JsonValue[] | undefined => {
  const e = getKey(pair[side], "enum");
  return Array.isArray(e) ? e : undefined;
};
const missing = (values: readonly JsonValue[], from: readonly JsonValue[]) =>
  values.filter((v) => !from.some((w) => deepEqual(v, w)));
const list = (values: readonly JsonValue[]) => values.map((v) => show(v)).join(", ");

export const enumRestricted: RuleDescriptor = {
  id: "enum-restricted",
  severity: "error",
  description: "an enum added to a field, or enum values removed",
  inJunctors: true,
  node(pair) {
    const before = enumOf(pair, "old");
    const after = enumOf(pair, "new");
    if (!after) return [];
    if (!before) {
      return [
        at(pair, `enum added (${list(after)}); stored values outside it no longer validate`, {
          newValue: after,
          keyword: "enum",
        }),
      ];
    }
    const gone = missing(before, after);
    if (gone.length === 0) return [];
    return [
      at(pair, `enum values removed: ${list(gone)}; stored objects using them no longer validate`, {
        oldValue: before,
        newValue: after,
        keyword: "enum",
      }),
    ];
  },
};

export const enumExtended: RuleDescriptor = {
  id: "enum-extended",
  severity: "notice",
  description: "enum values added (old clients may not handle them)",
  inJunctors: true,
  node(pair) {
    const before = enumOf(pair, "old");
    const after = enumOf(pair, "new");
    if (!before) return [];
    if (!after)
      return [
        at(pair, "enum removed: any value is allowed now; old clients may not handle them", {
          oldValue: before,
          keyword: "enum",
        }),
      ];
    const added = missing(after, before);
    if (added.length === 0) return [];
    return [
      at(pair, `enum values added: ${list(added)}; old clients may not handle them`, {
        oldValue: before,
        newValue: after,
        keyword: "enum",
      }),
    ];
  },
};

const upper = ["maximum", "maxLength", "maxItems", "maxProperties"] as const;
const lower = ["minimum", "minLength", "minItems", "minProperties"] as const;

/** `b` divides `a` (floating point multiples such as 0.1 included). */
function divides(a: number, b: number): boolean {
  const q = a / b;
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

export const boundsTightened: RuleDescriptor = {
  id: "bounds-tightened",
  severity: "error",
  description:
    "maximum/maxLength/maxItems/maxProperties added or decreased; minimum/minLength/minItems/minProperties added or increased; exclusive bounds or multipleOf tightened",
  inJunctors: true,
  node(pair) {
    const out: Change[] = [];
    const report = (kw: string, from: number | undefined, to: number, how: string, why: string) =>
      out.push(
        at(
          pair,
          `${kw} ${from === undefined ? `added: ${to}` : `${how} from ${from} to ${to}`}; stored values ${why} no longer validate`,
          {
            oldValue: from,
            newValue: to,
            keyword: kw,
          },
        ),
      );
    for (const kw of upper) {
      const from = numberOf(pair.old, kw);
      const to = numberOf(pair.new, kw);
      if (to !== undefined && (from === undefined || to < from)) report(kw, from, to, "lowered", "above it");
    }
    for (const kw of lower) {
      const from = numberOf(pair.old, kw);
      const to = numberOf(pair.new, kw);
      if (to !== undefined && (from === undefined || to > from)) report(kw, from, to, "raised", "below it");
    }
    // OpenAPI v3.0: exclusiveMaximum/exclusiveMinimum are booleans qualifying maximum/minimum.
    for (const [kw, bound] of [
      ["exclusiveMaximum", "maximum"],
      ["exclusiveMinimum", "minimum"],
    ] as const) {
      const was = getKey(pair.old, kw) === true;
      const now = getKey(pair.new, kw) === true;
      const value = numberOf(pair.new, bound);
      if (now && !was && value !== undefined && numberOf(pair.old, bound) === value) {
        out.push(
          at(pair, `${kw} set: ${value} itself is no longer allowed`, { oldValue: false, newValue: true, keyword: kw }),
        );
      }
    }
    const from = numberOf(pair.old, "multipleOf");
    const to = numberOf(pair.new, "multipleOf");
    if (to !== undefined && to > 0 && (from === undefined || !divides(from, to))) {
      report("multipleOf", from, to, "changed", "that are not multiples of it");
    }
    return out;
  },
};

/** A string keyword that tightens when added or changed (pattern, format). */
function stringKeyword(id: string, kw: string, severity: "error" | "warning", why: string): RuleDescriptor {
  return {
    id,
    severity,
    description: `${kw} added or changed`,
    inJunctors: true,
    node(pair) {
      const from = getKey(pair.old, kw);
      const to = getKey(pair.new, kw);
      if (typeof to !== "string" || to === from) return [];
      const what = typeof from === "string" ? `changed from ${show(from)} to ${show(to)}` : `added: ${show(to)}`;
      return [
        at(pair, `${kw} ${what}; ${why}`, {
          oldValue: typeof from === "string" ? from : undefined,
          newValue: to,
          keyword: kw,
        }),
      ];
    },
  };
}

export const patternChanged = stringKeyword("pattern-changed", "pattern", "error", "stored values may no longer match");
export const formatChanged = stringKeyword(
  "format-changed",
  "format",
  "warning",
  "stored values may no longer validate",
);

export const nullableRemoved: RuleDescriptor = {
  id: "nullable-removed",
  severity: "error",
  description: "nullable true → false",
  node(pair) {
    if (getKey(pair.old, "nullable") !== true || getKey(pair.new, "nullable") === true) return [];
    return [
      at(pair, "nullable removed; stored nulls no longer validate (or are pruned)", {
        oldValue: true,
        newValue: false,
        keyword: "nullable",
      }),
    ];
  },
};

export const defaultChanged: RuleDescriptor = {
  id: "default-changed",
  severity: "warning",
  description: "default added, removed or changed",
  node(pair) {
    const had = hasKey(pair.old, "default");
    const has = hasKey(pair.new, "default");
    const from = getKey(pair.old, "default");
    const to = getKey(pair.new, "default");
    if (!had && !has) return [];
    if (had && has && deepEqual(from, to)) return [];
    const what = !had
      ? `default added: ${show(to)}; stored objects without the field get it when read`
      : !has
        ? `default ${show(from)} removed; new objects no longer get it and clients relying on it break`
        : `default changed from ${show(from)} to ${show(to)}; objects without the field read differently`;
    return [at(pair, what, { oldValue: from, newValue: to, keyword: "default" })];
  },
};
