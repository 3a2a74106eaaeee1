import { duplicate, invalid } from "../../findings/index.js";
import { getKey, hasKey, isObject, type JsonObject, type JsonValue, setKey } from "../../value/index.js";
import { canonical } from "../canonical.js";
import { type Check, childLoc, type Keyword, toPath } from "../types.js";

/**
 * `x-kubernetes-list-type` (apiextensions' structurallisttype): `set` items
 * must be unique, `map` items must be objects unique by their
 * `x-kubernetes-list-map-keys`; each later duplicate is reported with the
 * duplicated value (for maps, the key fields, rendered as JSON with sorted
 * keys like Go's encoding/json):
 *   spec.pipeline[1]: Duplicate value: {"step":"one"}
 * `atomic` and `x-kubernetes-map-type` have no validation of their own.
 */
const messages = {
  notObject: "must be an object for an array of list-type map",
};

export const listTypeKeyword: Keyword = {
  name: "list-type",
  keywords: ["x-kubernetes-list-type", "x-kubernetes-list-map-keys"],
  phase: "main",
  compile(schema): Check | undefined {
    const type = getKey(schema, "x-kubernetes-list-type");
    if (type === undefined || type === "atomic") return undefined;
    if (type === "set") {
      return (value, loc, run) => {
        if (!Array.isArray(value) || value.length < 2) return undefined;
        const seen = new Set<string>();
        value.forEach((item, i) => {
          const key = canonical(item);
          if (seen.has(key)) run.extras.push(duplicate(toPath(childLoc(loc, i)), item));
          else seen.add(key);
        });
        return undefined;
      };
    }
    const keys = getKey(schema, "x-kubernetes-list-map-keys");
    // An unknown list type or a map without keys: the CRD's validation says so (crd/schema-validation.ts).
    if (type !== "map" || !Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== "string")) {
      return undefined;
    }
    const names = [...(keys as string[])].sort();
    return (value, loc, run) => {
      if (!Array.isArray(value)) return undefined;
      for (let i = 0; i < value.length; i++) {
        const item = value[i] as JsonValue;
        if (item !== null && !isObject(item)) {
          run.extras.push(invalid(toPath(childLoc(loc, i)), item, messages.notObject));
          return undefined;
        }
      }
      if (value.length < 2) return undefined;
      const seen = new Set<string>();
      value.forEach((item, i) => {
        if (!isObject(item)) return;
        const key = mapKey(item, names);
        if (seen.has(key.text)) run.extras.push(duplicate(toPath(childLoc(loc, i)), key.value));
        else seen.add(key.text);
      });
      return undefined;
    };
  },
};

/** The key fields of a list-map item, as a comparable text and as the value to report. */
export function mapKey(item: JsonObject, names: readonly string[]): { text: string; value: JsonObject } {
  const value: JsonObject = {};
  const parts: string[] = [];
  for (const name of names) {
    if (hasKey(item, name)) {
      const v = getKey(item, name) as JsonValue;
      setKey(value, name, v);
      parts.push(canonical(v));
    } else parts.push("");
  }
  return { text: parts.join("\u0000"), value };
}
