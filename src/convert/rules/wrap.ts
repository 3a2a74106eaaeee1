/** `wrap {path, into}` (spoke `x: v` ⇄ hub `x: {into: v}`) and its inverse `unwrap {path, from}`. */
import { getKey, isObject, type JsonObject, setKey } from "../../value/index.js";
import { getAt, setAt } from "../paths.js";
import type { DataPath } from "../types.js";
import type { ConversionRuleKind } from "./rule.js";

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

/** `wrap` and `unwrap` are one rule read in opposite directions: `structInHub` says which side holds the struct. */
function boxRule(kind: string, field: string, summary: string, structInHub: boolean): ConversionRuleKind {
  return {
    kind,
    required: ["path", field],
    optional: [],
    summary,
    compile(ctx) {
      const path = ctx.path("path", "both");
      const name = ctx.string(field);
      if (path === undefined || name === undefined) return undefined;
      const box = (w: JsonObject) => doWrap(w, path, name);
      const unbox = (w: JsonObject) => doUnwrap(w, path, name);
      return structInHub ? { toHub: box, fromHub: unbox } : { toHub: unbox, fromHub: box };
    },
  };
}

export const wrap = boxRule("wrap", "into", "the spoke's value becomes field `into` of a struct in the hub", true);

export const unwrap = boxRule("unwrap", "from", "field `from` of the spoke's struct becomes the hub's value", false);
