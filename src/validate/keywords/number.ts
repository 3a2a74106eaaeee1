import { invalid } from "../../findings/index.js";
import { getKey } from "../../value/index.js";
import { type Check, goFloat, type Keyword, kindOf, type Loc, nameOf, openAPIPath, schemaFinding } from "../types.js";

/**
 * `multipleOf`, `minimum`/`exclusiveMinimum`, `maximum`/`exclusiveMaximum`
 * (booleans, OpenAPI v3.0). kube-openapi's numberValidator reports all three,
 * in that order. Integer data is compared with the bound truncated to an
 * integer (MinimumInt(value, int64(min))), other data as float64.
 *
 *   spec.x: Invalid value: 11: spec.x in body should be less than or equal to 10
 *   spec.x: Invalid value: 7: spec.x in body should be a multiple of 5
 */
const messages = {
  multipleOf: (name: string, factor: string) => `${name} in body should be a multiple of ${factor}`,
  minimum: (name: string, min: string, exclusive: boolean) =>
    `${name} in body should be greater than ${exclusive ? "" : "or equal to "}${min}`,
  maximum: (name: string, max: string, exclusive: boolean) =>
    `${name} in body should be less than ${exclusive ? "" : "or equal to "}${max}`,
};

const maxJSONInteger = 2 ** 53 - 1;

/** swag.IsFloat64AJSONInteger: integral within ±(2^53-1), or within a relative 1e-9 of one. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > maxJSONInteger) return false;
  if (Number.isInteger(f)) return true;
  const g = Math.trunc(f);
  if (g === 0) return false;
  return Math.abs(f - g) / (Math.abs(f) + Math.abs(g)) < 1e-9;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export const numberKeyword: Keyword = {
  name: "number",
  keywords: ["multipleOf", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"],
  phase: "value",
  compile(schema, ctx): Check | undefined {
    let factor = num(getKey(schema, "multipleOf"));
    if (factor !== undefined && factor <= 0) {
      ctx.findings.push(schemaFinding([...ctx.path, "multipleOf"], "must be greater than 0"));
      factor = undefined;
    }
    const min = num(getKey(schema, "minimum"));
    const max = num(getKey(schema, "maximum"));
    const exMin = getKey(schema, "exclusiveMinimum") === true;
    const exMax = getKey(schema, "exclusiveMaximum") === true;
    if (factor === undefined && min === undefined && max === undefined) return undefined;
    return (value, loc: Loc | undefined, run) => {
      if (typeof value !== "number") return undefined;
      const int = kindOf(value) === "integer";
      const path = () => openAPIPath(loc);
      if (factor !== undefined) {
        const intFactor = int && Number.isInteger(factor);
        const ok = intFactor ? value % factor === 0 : isJSONInteger(factor < 1 ? (1 / factor) * value : value / factor);
        const shown = intFactor ? String(factor) : goFloat(factor);
        if (!ok) run.sink.push(invalid(path(), value, messages.multipleOf(nameOf(loc), shown)));
      }
      if (min !== undefined) {
        const bound = int ? Math.trunc(min) : min;
        if (exMin ? value <= bound : value < bound) {
          const shown = int ? String(bound) : goFloat(bound);
          run.sink.push(invalid(path(), value, messages.minimum(nameOf(loc), shown, exMin)));
        }
      }
      if (max !== undefined) {
        const bound = int ? Math.trunc(max) : max;
        if (exMax ? value >= bound : value > bound) {
          const shown = int ? String(bound) : goFloat(bound);
          run.sink.push(invalid(path(), value, messages.maximum(nameOf(loc), shown, exMax)));
        }
      }
      return undefined;
    };
  },
};
