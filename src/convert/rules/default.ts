/** `default {path, value}`: set in the hub when the spoke has no value; removed on the way back when equal. */
import { clone, deepEqual, type JsonValue } from "../../value/index.js";
import { deleteAt, getAt, setAt } from "../paths.js";
import type { ConversionRuleKind } from "./rule.js";

export const defaultRule: ConversionRuleKind = {
  kind: "default",
  required: ["path", "value"],
  optional: [],
  summary: "the hub's value when the spoke has none",
  compile(ctx) {
    const path = ctx.path("path", "hub");
    const value = ctx.args.value as JsonValue;
    if (path === undefined || value === undefined) return undefined;
    return {
      // a copy each time: outputs never share the declaration's value
      toHub: (w) => (getAt(w, path) === undefined ? setAt(w, path, clone(value)) : undefined),
      fromHub: (w) => (deepEqual(getAt(w, path), value) ? deleteAt(w, path) : undefined),
    };
  },
};
