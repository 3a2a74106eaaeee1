import { deepEqual, getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { hitAt, onChange, type RuleDescriptor, type RuleHit, show } from "../rule.js";
import { numberOf, readKeyword } from "./keywords.js";

const enumOf = (json: JsonObject): JsonValue[] | undefined => {
  const e = getKey(json, "enum");
  return Array.isArray(e) ? e : undefined;
};
const missing = (values: readonly JsonValue[], from: readonly JsonValue[]) =>
  values.filter((v) => !from.some((w) => deepEqual(v, w)));
const list = (values: readonly JsonValue[]) => values.map((v) => show(v)).join(", ");

export const enumRestricted = onChange(
  {
    id: "enum-restricted",
    severity: "error",
    description: "an enum added to a field, or enum values removed",
    inJunctors: true,
  },
  enumOf,
  (before, after, pair) => {
    if (!after) return [];
    if (!before) {
      return [
        hitAt(pair, `enum added (${list(after)}); stored values outside it no longer validate`, {
          newValue: after,
          keyword: "enum",
        }),
      ];
    }
    const gone = missing(before, after);
    if (gone.length === 0) return [];
    return [
      hitAt(pair, `enum values removed: ${list(gone)}; stored objects using them no longer validate`, {
        oldValue: before,
        newValue: after,
        keyword: "enum",
      }),
    ];
  },
);

export const enumExtended = onChange(
  {
    id: "enum-extended",
    severity: "notice",
    description: "enum values added (old clients may not handle them)",
    inJunctors: true,
  },
  enumOf,
  (before, after, pair) => {
    if (!before) return [];
    if (!after)
      return [
        hitAt(pair, "enum removed: any value is allowed now; old clients may not handle them", {
          oldValue: before,
          keyword: "enum",
        }),
      ];
    const added = missing(after, before);
    if (added.length === 0) return [];
    return [
      hitAt(pair, `enum values added: ${list(added)}; old clients may not handle them`, {
        oldValue: before,
        newValue: after,
        keyword: "enum",
      }),
    ];
  },
);

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
    const out: RuleHit[] = [];
    const report = (kw: string, from: number | undefined, to: number, how: string, why: string) =>
      out.push(
        hitAt(
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
          hitAt(pair, `${kw} set: ${value} itself is no longer allowed`, {
            oldValue: false,
            newValue: true,
            keyword: kw,
          }),
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
  return onChange(
    { id, severity, description: `${kw} added or changed`, inJunctors: true },
    readKeyword(kw),
    (from, to, pair) => {
      if (typeof to !== "string") return [];
      const what = typeof from === "string" ? `changed from ${show(from)} to ${show(to)}` : `added: ${show(to)}`;
      return [
        hitAt(pair, `${kw} ${what}; ${why}`, {
          oldValue: typeof from === "string" ? from : undefined,
          newValue: to,
          keyword: kw,
        }),
      ];
    },
  );
}

export const patternChanged = stringKeyword("pattern-changed", "pattern", "error", "stored values may no longer match");
export const formatChanged = stringKeyword(
  "format-changed",
  "format",
  "warning",
  "stored values may no longer validate",
);

export const nullableRemoved = onChange(
  { id: "nullable-removed", severity: "error", description: "nullable true → false" },
  (json) => getKey(json, "nullable") === true,
  (was, _is, pair) =>
    was
      ? [
          hitAt(pair, "nullable removed; stored nulls no longer validate (or are pruned)", {
            oldValue: true,
            newValue: false,
            keyword: "nullable",
          }),
        ]
      : [],
);

export const defaultChanged = onChange(
  { id: "default-changed", severity: "warning", description: "default added, removed or changed" },
  readKeyword("default"),
  (from, to, pair) => {
    // A JSON value is never undefined: undefined is a default that is not there (`default: null` is one).
    const what =
      from === undefined
        ? `default added: ${show(to)}; stored objects without the field get it when read`
        : to === undefined
          ? `default ${show(from)} removed; new objects no longer get it and clients relying on it break`
          : `default changed from ${show(from)} to ${show(to)}; objects without the field read differently`;
    return [hitAt(pair, what, { oldValue: from, newValue: to, keyword: "default" })];
  },
);
