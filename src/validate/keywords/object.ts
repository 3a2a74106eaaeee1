import { invalid, required, tooMany } from "../../findings/index.js";
import { getKey, hasKey, isObject } from "../../value/index.js";
import { type Check, childLoc, count, type Keyword, nameOf, openAPIPath, schemaFinding } from "../types.js";

/**
 * `minProperties`/`maxProperties` and `required` (kube-openapi's
 * objectValidator). A size failure returns early in kube-openapi: the
 * properties are then not validated at all, and neither is `required`.
 *   spec.x: Invalid value: 0: spec.x in body should have at least 1 properties
 *   spec.x: Too many: 4: must have at most 3 items
 *   spec.x: Required value
 */
const messages = {
  tooFew: (name: string, min: number) => `${name} in body should have at least ${min} properties`,
};

export const sizeKeyword: Keyword = {
  name: "properties-size",
  keywords: ["minProperties", "maxProperties"],
  phase: "size",
  compile(schema): Check | undefined {
    const min = count(getKey(schema, "minProperties"));
    const max = count(getKey(schema, "maxProperties"));
    if (min === undefined && max === undefined) return undefined;
    return (value, loc, run) => {
      if (!isObject(value)) return undefined;
      const n = Object.keys(value).length;
      if (min !== undefined && n < min) {
        run.sink.push(invalid(openAPIPath(loc), n, messages.tooFew(nameOf(loc), min)));
        return false;
      }
      if (max !== undefined && n > max) {
        run.sink.push(tooMany(openAPIPath(loc), n, max));
        return false;
      }
      return undefined;
    };
  },
};

export const requiredKeyword: Keyword = {
  name: "required",
  keywords: ["required"],
  phase: "required",
  compile(schema, ctx): Check | undefined {
    const raw = getKey(schema, "required");
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw) || raw.some((k) => typeof k !== "string")) {
      ctx.findings.push(schemaFinding([...ctx.path, "required"], "must be a list of property names"));
      return undefined;
    }
    const names = [...new Set(raw as string[])];
    if (names.length === 0) return undefined;
    return (value, loc, run) => {
      if (!isObject(value)) return undefined;
      for (const name of names) {
        // An explicit null counts as present (kube-openapi looks the key up only).
        if (!hasKey(value, name)) run.sink.push(required(openAPIPath(childLoc(loc, name))));
      }
      return undefined;
    };
  },
};
