/** `wrap {path, into}` (spoke `x: v` ⇄ hub `x: {into: v}`) and its inverse `unwrap {path, from}`. */
import { getKey, isObject, type JsonObject, setKey } from "../../value/index.js";
import { getAt, setAt } from "../paths.js";
import type { DataPath } from "../types.js";
import type { RuleDescriptor } from "./rule.js";

function doWrap(w: JsonObject, path: DataPath, field: string): void {
  const v = getAt(w, path);
  if (v === undefined) return;
  const box: JsonObject = {};
  setKey(box, field, v);
  setAt(w, path, box);
}

function doUnwrap(w: JsonObject, path: DataPath, field: string): void {
  const v = getAt(w, path);
  if (!isObject(v)) return;
  const inner = getKey(v, field);
  // other fields of the struct are lost here; the engine keeps them in the annotation
  if (inner === undefined) return;
  setAt(w, path, inner);
}

export const wrap: RuleDescriptor = {
  kind: "wrap",
  required: ["path", "into"],
  optional: [],
  summary: "the spoke's value becomes field `into` of a struct in the hub",
  compile(ctx) {
    const path = ctx.path("path", "both");
    const into = ctx.string("into");
    if (path === undefined || into === undefined) return undefined;
    return { toHub: (w) => doWrap(w, path, into), fromHub: (w) => doUnwrap(w, path, into) };
  },
};

export const unwrap: RuleDescriptor = {
  kind: "unwrap",
  required: ["path", "from"],
  optional: [],
  summary: "field `from` of the spoke's struct becomes the hub's value",
  compile(ctx) {
    const path = ctx.path("path", "both");
    const from = ctx.string("from");
    if (path === undefined || from === undefined) return undefined;
    return { toHub: (w) => doUnwrap(w, path, from), fromHub: (w) => doWrap(w, path, from) };
  },
};
