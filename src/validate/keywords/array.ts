import { invalid, tooMany } from "../../findings/index.js";
import { getKey } from "../../value/index.js";
import { canonical } from "../canonical.js";
import { type Check, count, type Keyword, nameOf, openAPIPath } from "../types.js";

/**
 * `minItems`, `maxItems`, `uniqueItems` (kube-openapi's schemaSliceValidator;
 * the items themselves are walked by the validator). maxItems maps to
 * apimachinery's field.TooMany:
 *   spec.items: Too many: 5: must have at most 3 items
 *   spec.items: Invalid value: 1: spec.items in body should have at least 2 items
 *   spec.items: Invalid value: "": spec.items in body shouldn't contain duplicates
 */
const messages = {
  tooFew: (name: string, min: number) => `${name} in body should have at least ${min} items`,
  duplicates: (name: string) => `${name} in body shouldn't contain duplicates`,
};

export const arrayKeyword: Keyword = {
  name: "array",
  keywords: ["minItems", "maxItems", "uniqueItems"],
  phase: "value",
  compile(schema): Check | undefined {
    const min = count(getKey(schema, "minItems"));
    const max = count(getKey(schema, "maxItems"));
    const unique = getKey(schema, "uniqueItems") === true;
    if (min === undefined && max === undefined && !unique) return undefined;
    return (value, loc, run) => {
      if (!Array.isArray(value)) return undefined;
      if (min !== undefined && value.length < min) {
        run.sink.push(invalid(openAPIPath(loc), value.length, messages.tooFew(nameOf(loc), min)));
      }
      if (max !== undefined && value.length > max) run.sink.push(tooMany(openAPIPath(loc), value.length, max));
      if (unique && value.length > 1) {
        const seen = new Set<string>();
        for (const item of value) {
          const key = canonical(item);
          if (seen.has(key)) {
            run.sink.push(invalid(openAPIPath(loc), "", messages.duplicates(nameOf(loc))));
            break;
          }
          seen.add(key);
        }
      }
      return undefined;
    };
  },
};
