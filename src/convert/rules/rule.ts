/** What a rule kind is: its argument keys and how it compiles into two in-place transforms. */
import type { JsonObject, JsonValue } from "../../value/index.js";
import { parseDataPath } from "../paths.js";
import type { DataPath } from "../types.js";

/** A compiled rule: mutates `work` (a copy); `source` is the unmodified input of the step. */
export interface CompiledRule {
  toHub(work: JsonObject, source: JsonObject): void;
  fromHub(work: JsonObject, source: JsonObject): void;
}

/** A path an argument names, and which side's schema must hold it. */
export interface NamedPath {
  key: string;
  path: DataPath;
  side: "spoke" | "hub" | "both" | "either";
}

export interface RuleContext {
  args: JsonObject;
  /** Reports a problem with argument `key` (undefined: the rule as a whole). */
  error(key: string | undefined, detail: string, badValue?: JsonValue): void;
  /**
   * A path argument, checked; undefined (and an error) when missing or malformed. A rule writes only at the
   * paths it reads here, or inside the values found at them: the engine's copies are made only there
   * (paths.copyForWriting), and its round trip is compared only there (losslessness.lostFields).
   */
  path(key: string, side: NamedPath["side"], optional?: boolean): DataPath | undefined;
  string(key: string, optional?: boolean): string | undefined;
  paths: NamedPath[];
}

export interface ConversionRuleKind {
  kind: string;
  required: readonly string[];
  optional: readonly string[];
  summary: string;
  compile(ctx: RuleContext): CompiledRule | undefined;
}

/** The argument-reading half of a RuleContext, over `args`. */
export function makeContext(args: JsonObject, error: RuleContext["error"]): RuleContext {
  const paths: NamedPath[] = [];
  const string = (key: string, optional = false): string | undefined => {
    const v = Object.hasOwn(args, key) ? args[key] : undefined;
    if (v === undefined) {
      if (!optional) error(key, "Required value");
      return undefined;
    }
    if (typeof v !== "string") {
      error(key, "must be a string", v);
      return undefined;
    }
    return v;
  };
  return {
    args,
    error,
    paths,
    string,
    path(key, side, optional = false) {
      const text = string(key, optional);
      if (text === undefined) return undefined;
      const p = parseDataPath(text);
      if (typeof p === "string") {
        error(key, p, text);
        return undefined;
      }
      paths.push({ key, path: p, side });
      return p;
    },
  };
}
