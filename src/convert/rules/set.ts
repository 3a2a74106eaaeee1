/**
 * `set {path, toHub?, fromHub?}`: the value at `path` computed by a CEL expression over the step's input object
 * (`self`). A null result removes the field, and null values inside a resulting map are dropped (Kubernetes treats
 * null as absent). A missing direction leaves the field as it is; whatever the inverse does not reproduce is kept
 * by the engine in the annotation.
 */
import { compileExpression, evaluateExpression } from "../../cel/index.js";
import type { JsonObject, JsonValue } from "../../value/index.js";
import { deleteAt, setAt } from "../paths.js";
import { ConvertError, type DataPath } from "../types.js";
import type { ConversionRuleKind, RuleContext } from "./rule.js";

/** A rule's expression under `key`, evaluated on the step's source; `dropNullEntries` as evaluateExpression's. */
function celStep(ctx: RuleContext, key: string, path: DataPath | undefined, dropNullEntries: boolean) {
  const text = ctx.string(key, true);
  if (text === undefined) return undefined;
  const options = { dropNullEntries };
  const { program, error } = compileExpression(text);
  if (program === undefined) {
    ctx.error(key, error ?? "does not compile", text);
    return undefined;
  }
  return (source: JsonObject): JsonValue => {
    const r = evaluateExpression(program, source, undefined, options);
    if (r.error !== undefined)
      throw new ConvertError(path ?? [], `${key} expression ${JSON.stringify(text)} failed: ${r.error}`);
    return r.value as JsonValue;
  };
}

/** A rule's `toHub` and `fromHub` expressions, at least one of which it needs. */
function celDirections(ctx: RuleContext, kind: string, path: DataPath | undefined, dropNullEntries: boolean) {
  const to = celStep(ctx, "toHub", path, dropNullEntries);
  const from = celStep(ctx, "fromHub", path, dropNullEntries);
  if (ctx.args.toHub === undefined && ctx.args.fromHub === undefined)
    ctx.error(undefined, `${kind} needs toHub, fromHub or both`);
  return { to, from };
}

export const set: ConversionRuleKind = {
  kind: "set",
  required: ["path"],
  optional: ["toHub", "fromHub"],
  summary: "the value at `path` computed by CEL over the source object",
  compile(ctx) {
    // the path is written in the hub (toHub) and in the spoke (fromHub); a null result removes it, so one
    // version holding it is enough
    const path = ctx.path("path", "either");
    // null entries of a resulting map are left out as it is made
    const { to, from } = celDirections(ctx, "set", path, true);
    if (path === undefined) return undefined;
    const apply = (w: JsonObject, v: JsonValue) => (v === null ? deleteAt(w, path) : setAt(w, path, v));
    return {
      toHub: (w, s) => (to === undefined ? undefined : apply(w, to(s))),
      fromHub: (w, s) => (from === undefined ? undefined : apply(w, from(s))),
    };
  },
};

export const assertRule: ConversionRuleKind = {
  kind: "assert",
  required: ["message"],
  optional: ["toHub", "fromHub"],
  summary: "a CEL condition over the source object; the conversion fails with `message` when it is false",
  compile(ctx) {
    const message = ctx.string("message");
    const { to, from } = celDirections(ctx, "assert", undefined, false);
    const check = (f: ((s: JsonObject) => JsonValue) | undefined, s: JsonObject) => {
      if (f === undefined) return;
      const v = f(s);
      if (v !== true)
        throw new ConvertError(
          [],
          `${message ?? "assertion failed"}${v === false ? "" : ` (condition gave ${JSON.stringify(v)})`}`,
        );
    };
    return { toHub: (_w, s) => check(to, s), fromHub: (_w, s) => check(from, s) };
  },
};
