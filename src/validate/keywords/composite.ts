import { type Finding, invalid } from "../../findings/index.js";
import { quote } from "../../go/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  type Check,
  type CompileContext,
  type Keyword,
  type Loc,
  type Node,
  nameOf,
  openAPIPath,
  schemaFinding,
} from "../types.js";

/**
 * `allOf`, `anyOf`, `oneOf`, `not`: value validations only (structural
 * schemas forbid them to declare types or defaults), each branch evaluated
 * against the same, already defaulted, value. kube-openapi's schemaPropsValidator:
 * a failed anyOf/oneOf reports its composite message and the errors of the
 * branch that matched best; allOf reports every branch's errors.
 *
 * The API server prints the composite messages with a nil field path
 * (`<nil>: Invalid value: "": "spec.addresses[0]" must validate one and only one schema (oneOf). Found none valid`);
 * we attach them to the node's path so the finding can be located, and keep
 * the server's detail verbatim.
 */
const messages = {
  anyOf: (name: string) => `${quote(name)} must validate at least one schema (anyOf)`,
  oneOf: (name: string, valid: number) =>
    `${quote(name)} must validate one and only one schema (oneOf). ${
      valid === 0 ? "Found none valid" : `Found ${valid} valid alternatives`
    }`,
  allOf: (name: string, valid: number) =>
    `${quote(name)} must validate all the schemas (allOf)${valid === 0 ? ". None validated" : ""}`,
  not: (name: string) => `${quote(name)} must not validate the schema (not)`,
};

const composite = (loc: Loc | undefined, detail: string) => invalid(openAPIPath(loc), "", detail);
const valid = (findings: Finding[]) => !findings.some((f) => f.severity === "error");

function branches(schema: JsonObject, key: string, ctx: CompileContext): Node[] | undefined {
  const raw = getKey(schema, key);
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    ctx.findings.push(schemaFinding([...ctx.path, key], "must be a list of schemas"));
    return undefined;
  }
  return raw.map((b: JsonValue, i) => ctx.branch(b, [...ctx.path, key, i]));
}

export const compositeKeyword: Keyword = {
  name: "composite",
  keywords: ["allOf", "anyOf", "oneOf", "not"],
  phase: "value",
  compile(schema, ctx): Check | undefined {
    const anyOf = branches(schema, "anyOf", ctx);
    const oneOf = branches(schema, "oneOf", ctx);
    const allOf = branches(schema, "allOf", ctx);
    const notRaw = getKey(schema, "not");
    const not = notRaw === undefined ? undefined : ctx.branch(notRaw, [...ctx.path, "not"]);
    if (!anyOf?.length && !oneOf?.length && !allOf?.length && !not) return undefined;
    return (value, loc, run) => {
      if (anyOf?.length) {
        let best: { findings: Finding[]; matches: number } | undefined;
        let ok = false;
        for (const b of anyOf) {
          const r = run.evaluate(b, value, loc);
          if (valid(r.findings)) {
            ok = true;
            break;
          }
          if (!best || r.matches > best.matches) best = r;
        }
        if (!ok) {
          run.sink.push(composite(loc, messages.anyOf(nameOf(loc))));
          if (best) for (const f of best.findings) run.sink.push(f);
        }
      }
      if (oneOf?.length) {
        let best: { findings: Finding[]; matches: number } | undefined;
        let count = 0;
        for (const b of oneOf) {
          const r = run.evaluate(b, value, loc);
          if (valid(r.findings)) {
            count++;
            best = undefined;
            continue;
          }
          if (count === 0 && (!best || r.matches > best.matches)) best = r;
        }
        if (count !== 1) {
          run.sink.push(composite(loc, messages.oneOf(nameOf(loc), count)));
          if (best) for (const f of best.findings) run.sink.push(f);
        }
      }
      if (allOf?.length) {
        let count = 0;
        for (const b of allOf) {
          const r = run.evaluate(b, value, loc);
          if (valid(r.findings)) count++;
          else for (const f of r.findings) run.sink.push(f);
        }
        if (count !== allOf.length) run.sink.push(composite(loc, messages.allOf(nameOf(loc), count)));
      }
      if (not && valid(run.evaluate(not, value, loc).findings)) {
        run.sink.push(composite(loc, messages.not(nameOf(loc))));
      }
      return undefined;
    };
  },
};
