import { schemaProperty } from "../../path/index.js";
import { getKey, hasKey, isObject } from "../../value/index.js";
import { hitAt, onChange, type RuleDescriptor } from "../rule.js";
import { propertySchema, stringList, typeName, typeOf } from "./keywords.js";

export const fieldRemoved: RuleDescriptor = {
  id: "field-removed",
  severity: "error",
  description: "a property disappeared (reported once, not again as enum/type/default)",
  node(pair) {
    const oldProps = getKey(pair.old, "properties");
    if (!isObject(oldProps)) return [];
    // Unknown fields are kept there: the data survives, only its schema went.
    if (getKey(pair.new, "x-kubernetes-preserve-unknown-fields") === true) return [];
    const newProps = getKey(pair.new, "properties");
    return Object.keys(oldProps)
      .filter((key) => !isObject(newProps) || !hasKey(newProps, key))
      .map((key) =>
        hitAt(pair, "removed; stored values are pruned on the next write and clients that send it lose it", {
          data: [...pair.data, key],
          oldPath: [...pair.oldPath, ...schemaProperty(key)],
        }),
      );
  },
};

/** `a` accepts every value `b` accepts. */
function widens(from: string, to: string): boolean {
  return (
    to === "" ||
    (from === "integer" && (to === "number" || to === "int-or-string")) ||
    (from === "string" && to === "int-or-string")
  );
}

export const typeChanged = onChange(
  { id: "type-changed", severity: "error", description: "type, or int-or-string, changed" },
  typeOf,
  (from, to, pair) => {
    const why = widens(from, to)
      ? `clients that expect ${typeName(from)} may now read other values`
      : "stored objects no longer validate";
    return [
      hitAt(pair, `${typeName(from)} became ${typeName(to)}; ${why}`, {
        oldValue: from === "" ? undefined : from,
        newValue: to === "" ? undefined : to,
        keyword: to === "int-or-string" || from === "int-or-string" ? "x-kubernetes-int-or-string" : "type",
      }),
    ];
  },
);

export const requiredAdded: RuleDescriptor = {
  id: "required-added",
  severity: "error",
  description:
    "a field became required under a parent that existing objects may already have (not when the parent is new and optional, not when the field has a default)",
  node(pair) {
    // Only nodes present in both revisions are visited: under a new parent no stored object has the
    // parent yet, and a new required parent is reported on its own parent (crd-schema-checker's rule).
    const before = new Set(stringList(getKey(pair.old, "required")));
    const required = getKey(pair.new, "required");
    return [...new Set(stringList(required))]
      .filter((name) => !before.has(name))
      .flatMap((name) => {
        const prop = propertySchema(pair.new, name);
        // The API server defaults before it validates: a defaulted field is never missing.
        if (prop && hasKey(prop, "default")) return [];
        return [
          hitAt(pair, `\`${name}\` became required; existing objects without it are rejected on their next update`, {
            data: [...pair.data, name],
            // On the new entry of `required`: the line the change is on.
            keyword: ["required", Array.isArray(required) ? required.indexOf(name) : 0],
            newValue: name,
          }),
        ];
      });
  },
};
