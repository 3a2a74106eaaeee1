/** `map {path, values}`: enum values spoke → hub; invertible because the map must be one-to-one. */
import { isObject, type JsonValue } from "../../value/index.js";
import { getAt, setAt } from "../paths.js";
import type { ConversionRuleKind } from "./rule.js";

export const map: ConversionRuleKind = {
  kind: "map",
  required: ["path", "values"],
  optional: [],
  summary: "enum values of the spoke → values of the hub (one-to-one); other values pass unchanged",
  compile(ctx) {
    const path = ctx.path("path", "both");
    const raw = ctx.args.values;
    if (!isObject(raw)) {
      ctx.error("values", "must be a map of spoke value to hub value", raw ?? null);
      return undefined;
    }
    const forward = new Map<string, JsonValue>();
    const backward = new Map<string, string>();
    for (const [from, to] of Object.entries(raw)) {
      if (typeof to !== "string" && typeof to !== "number" && typeof to !== "boolean") {
        ctx.error("values", `value for ${JSON.stringify(from)} must be a scalar`, to);
        continue;
      }
      const key = JSON.stringify(to);
      const other = backward.get(key);
      if (other !== undefined) {
        ctx.error("values", `not one-to-one: ${JSON.stringify(other)} and ${JSON.stringify(from)} both map to ${key}`);
        continue;
      }
      forward.set(JSON.stringify(from), to);
      backward.set(key, from);
    }
    if (path === undefined) return undefined;
    const apply = (w: Parameters<typeof getAt>[0], table: Map<string, JsonValue>) => {
      const v = getAt(w, path);
      if (v === undefined || (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")) return;
      const hit = table.get(JSON.stringify(v));
      if (hit !== undefined) setAt(w, path, hit);
    };
    const back = new Map<string, JsonValue>([...backward].map(([k, v]) => [k, v]));
    return { toHub: (w) => apply(w, forward), fromHub: (w) => apply(w, back) };
  },
};
