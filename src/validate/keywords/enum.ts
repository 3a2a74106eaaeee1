import { notSupported } from "../../findings/index.js";
import { getKey } from "../../value/index.js";
import { canonical } from "../canonical.js";
import { type Check, type Keyword, openAPIPath, schemaFinding } from "../types.js";

/**
 * `enum`, as apiextensions maps kube-openapi's EnumFail to field.NotSupported
 * (string values as they are, others as JSON):
 *   spec.x: Unsupported value: "c": supported values: "a", "b"
 * kube-openapi's basicCommonValidator never matches a null value, even
 * against a literal `null` in the list; we keep that.
 */
export const enumKeyword: Keyword = {
  name: "enum",
  keywords: ["enum"],
  phase: "value",
  nulls: true,
  compile(schema, ctx): Check | undefined {
    const raw = getKey(schema, "enum");
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw)) {
      ctx.findings.push(schemaFinding([...ctx.path, "enum"], "must be a list"));
      return undefined;
    }
    if (raw.length === 0) return undefined;
    const allowed = new Set(raw.filter((v) => v !== null).map((v) => canonical(v)));
    const shown = raw.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
    return (value, loc, run) => {
      if (value === null || !allowed.has(canonical(value))) {
        // Go prints a nil bad value as the string "null".
        run.sink.push(notSupported(openAPIPath(loc), value === null ? "null" : value, shown));
      }
      return undefined;
    };
  },
};
