/** `rename`/`move {from, to}`: the spoke's `from` is the hub's `to`. Invertible. */
import { deleteAt, getAt, setAt } from "../paths.js";
import type { DataPath } from "../types.js";
import type { ConversionRuleKind } from "./rule.js";

function move(work: Parameters<typeof getAt>[0], from: DataPath, to: DataPath): void {
  const v = getAt(work, from);
  if (v === undefined) return;
  deleteAt(work, from);
  setAt(work, to, v);
}

const compile: ConversionRuleKind["compile"] = (ctx) => {
  const from = ctx.path("from", "spoke");
  const to = ctx.path("to", "hub");
  if (from === undefined || to === undefined) return undefined;
  return { toHub: (w) => move(w, from, to), fromHub: (w) => move(w, to, from) };
};

export const rename: ConversionRuleKind = {
  kind: "rename",
  required: ["from", "to"],
  optional: [],
  summary: "the spoke's field `from` is the hub's field `to`",
  compile,
};

export const moveRule: ConversionRuleKind = { ...rename, kind: "move" };
