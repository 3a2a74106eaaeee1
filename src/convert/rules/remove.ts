/** `remove {path}`: the spoke's field has no place in the hub (one-way; the engine keeps it in the annotation). */
import { deleteAt } from "../paths.js";
import type { ConversionRuleKind } from "./rule.js";

export const remove: ConversionRuleKind = {
  kind: "remove",
  required: ["path"],
  optional: [],
  summary: "drop the spoke's field on the way to the hub",
  compile(ctx) {
    const path = ctx.path("path", "spoke");
    if (path === undefined) return undefined;
    return { toHub: (w) => deleteAt(w, path), fromHub: () => {} };
  },
};
