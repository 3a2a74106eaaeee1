/**
 * Compiling and evaluating the `x-kubernetes-validations` of one schema node,
 * as apiextensions-apiserver does (pkg/apiserver/schema/cel: compilation.go,
 * validation.go; CRD validation of the rule fields), with its messages.
 */
import { type CelValue, isCelError } from "@bufbuild/cel";
import { type Finding, type FindingType, finding, notSupported } from "../findings/index.js";
import type { FieldPath, PathSegment } from "../path/index.js";
import { deepEqual, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { MAX, type SizeEstimator } from "./cost/estimate-types.js";
import { type CheckedExpr, estimateCost } from "./cost/estimator.js";
import { instrument } from "./cost/instrument.js";
import {
  CostExceeded,
  Meter,
  PER_CALL_LIMIT,
  type WorkBudget,
  WorkExceeded,
  withMeter,
  workBudget,
} from "./cost/meter.js";
import { maxCardinality, minSerializedSize, sizeEstimator } from "./cost/sizes.js";
import { type CelLibraries, celLibraries, planned } from "./environment.js";
import { Checker, type Expr, formatIssue, formatIssues } from "./language/checker.js";
import {
  ALL_MACROS,
  MacroError,
  type Macros,
  type Parsed,
  parseRule,
  SyntaxErrorAt,
  walk,
  withOptionalSelects,
} from "./language/syntax.js";
import { BOOL, type CelT, optionalOf, STRING, schemaType, schemaTypeName, typeKey } from "./language/types.js";
import { asCel, toCelValue } from "./language/values.js";
import { INTRODUCED } from "./libraries/index.js";
import { NONE, OptionalValue } from "./libraries/optional.js";

/** A compiled expression: planned program and what it needs. */
interface Program {
  run: (bindings: Record<string, unknown>) => unknown;
  usesOldSelf: boolean;
  baseCost: number;
  /** The expression as checked, for the static cost estimate (which depends on the node's sizes, not cached). */
  checked: CheckedExpr;
}

interface CompiledRule {
  index: number;
  rule: string;
  message: string | undefined;
  program: Program;
  messageExpression: Program | undefined;
  messageExpressionText: string;
  reason: FindingType;
  fieldPath: PathSegment[];
  optionalOldSelf: boolean;
}

export class CompiledRules {
  constructor(
    readonly selfType: CelT,
    readonly typeName: string,
    readonly rules: readonly CompiledRule[],
  ) {}
}

const REASONS: Record<string, FindingType> = {
  FieldValueInvalid: "FieldValueInvalid",
  FieldValueForbidden: "FieldValueForbidden",
  FieldValueRequired: "FieldValueRequired",
  FieldValueDuplicate: "FieldValueDuplicate",
};

const programCache = new Map<string, Program | string>();
const CACHE_LIMIT = 20_000;

function referencesOldSelf(e: Expr): boolean {
  // comprehension variables named oldSelf shadow the variable; such rules are rare enough to treat conservatively
  let found = false;
  walk(e, (x) => {
    if (x.exprKind.case === "identExpr" && x.exprKind.value.name === "oldSelf") found = true;
  });
  return found;
}

const syntaxPos = /^<input>:(\d+):(\d+): ([\s\S]*)$/;

/** Parses, checks and plans `text`; a string is the compile error detail (without the "compilation failed" prefix). */
function compileProgram(
  text: string,
  vars: ReadonlyMap<string, CelT>,
  want: CelT,
  libraries: CelLibraries,
): Program | string {
  const key = `${want.k}\u0000${libraries.minor}\u0000${[...vars].map(([n, t]) => `${n}=${typeKey(t)}`).join("\u0000")}\u0000${text}`;
  const hit = programCache.get(key);
  if (hit !== undefined) return hit;
  const out = compileUncached(text, vars, want, libraries);
  if (programCache.size >= CACHE_LIMIT) programCache.clear();
  programCache.set(key, out);
  return out;
}

/**
 * Parses `text` (once per text and macros), or says why not as cel-go does (`compilation failed: ERROR:
 * <input>:l:c: Syntax error: …`), with positions in the text as written: the
 * parser sees preprocessed text, so its positions go back through an offset table.
 */
export function parseOrExplain(text: string, macros: Macros = ALL_MACROS): ParseResult {
  const key = `${Number(macros.twoVariable)}${Number(macros.sortBy)}\u0000${text}`;
  const hit = parseCache.get(key);
  if (hit !== undefined) return hit;
  const out = parseUncached(text, macros);
  if (parseCache.size >= CACHE_LIMIT) parseCache.clear();
  parseCache.set(key, out);
  return out;
}

type ParseResult = { parsed: Readonly<Parsed> } | { error: string };

/**
 * Parses by text and macros. A rule is checked once per type its variables have, but its text repeats across
 * a CRD's versions and a project's channels (gateway-api's experimental CRDs repeat the standard ones' rules):
 * parsed once. The parse is only read after.
 */
const parseCache = new Map<string, ParseResult>();

function parseUncached(text: string, macros: Macros): ParseResult {
  try {
    return { parsed: parseRule(text, macros) };
  } catch (e) {
    if (e instanceof MacroError) return { error: `compilation failed: ${formatIssue(text, e.offset, e.message)}` };
    if (!(e instanceof SyntaxErrorAt))
      return { error: `compilation failed: ${e instanceof Error ? e.message : String(e)}` };
    const m = syntaxPos.exec(e.message);
    if (m === null) return { error: `compilation failed: ERROR: <input>:1:1: Syntax error: ${e.message}` };
    const lines = e.text.split("\n");
    let offset = 0;
    for (let i = 0; i < Number(m[1]) - 1 && i < lines.length; i++) offset += (lines[i] as string).length + 1;
    offset = e.toOriginal(offset + Number(m[2]) - 1);
    return { error: `compilation failed: ${formatIssue(text, offset, `Syntax error: ${m[3]}`)}` };
  }
}

function compileUncached(
  text: string,
  vars: ReadonlyMap<string, CelT>,
  want: CelT,
  libraries: CelLibraries,
): Program | string {
  const read = parseOrExplain(text, libraries.macros);
  if ("error" in read) return read.error;
  const { parsed } = read;
  const checker = new Checker(libraries.functions, parsed.positions);
  let t: CelT;
  try {
    t = checker.check(parsed.expr, vars);
  } catch (e) {
    return `compilation failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (checker.issues.length > 0) return `compilation failed: ${formatIssues(text, checker.issues)}`;
  if (t.k !== want.k) return want.k === "bool" ? "cel expression must evaluate to a bool" : "must evaluate to a string";
  const inst = instrument(withOptionalSelects(parsed.expr, checker.optionalSelects));
  let run: Program["run"];
  try {
    run = planned(inst.expr);
  } catch (e) {
    return `compilation failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  return {
    run,
    usesOldSelf: referencesOldSelf(parsed.expr),
    baseCost: inst.baseCost,
    checked: { expr: parsed.expr, checker, chained: parsed.chained },
  };
}

const hasNewlines = (s: string) => /[\n\r]/.test(s);

function unescapeSingleQuote(s: string): string | undefined {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c === "\\") {
      const n = s.charAt(i + 1);
      if (n !== "\\" && n !== "'") return undefined;
      out += n;
      i++;
    } else if (c === "'") return undefined;
    else out += c;
  }
  return out;
}

/**
 * ValidFieldPath's tokens: a quoted string from a `'` to the next `'` not after a backslash (or to the end), a
 * delimiter (`.`, `[`, `]`) alone, or the text up to the next delimiter.
 */
function fieldPathTokens(fieldPath: string): string[] {
  const tokens: string[] = [];
  for (let at = 0; at < fieldPath.length; ) {
    let end = fieldPath.length;
    if (fieldPath.charAt(at) === "'") {
      for (let i = at + 1; i < fieldPath.length; i++)
        if (fieldPath.charAt(i) === "'" && fieldPath.charAt(i - 1) !== "\\") {
          end = i + 1;
          break;
        }
    } else {
      for (let i = at; i < fieldPath.length; i++)
        if (".[]".includes(fieldPath.charAt(i))) {
          end = i === at ? at + 1 : i;
          break;
        }
    }
    tokens.push(fieldPath.slice(at, end));
    at = end;
  }
  return tokens;
}

/**
 * `ValidFieldPath`: the relative path of `fieldPath` in `node`, or the error: each field after a `.` or in
 * `['…']`, so a path must start with one of them (`spec.x` is refused, `.spec.x` is not).
 */
export function validFieldPath(fieldPath: string, node: JsonObject): PathSegment[] | string {
  let schema: JsonObject = node;
  const out: PathSegment[] = [];
  const enter = (name: string): string | undefined => {
    const props = getKey(schema, "properties");
    const additional = getKey(schema, "additionalProperties");
    if (isObject(props)) {
      const s = getKey(props, name);
      if (!isObject(s)) return "does not refer to a valid field";
      schema = s;
      out.push(name);
    } else if (isObject(additional)) {
      schema = additional;
      out.push({ key: name });
    } else return "does not refer to a valid field";
    return undefined;
  };
  const tokens = fieldPathTokens(fieldPath);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as string;
    if (tok === "[") {
      const quoted = tokens[++i];
      if (quoted === undefined) return "unexpected end of JSON path";
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'"))
        return `expected single quoted string but got ${quoted}`;
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if (name === undefined) return "invalid string literal";
      const err = enter(name);
      if (err !== undefined) return err;
      const close = tokens[++i];
      if (close === undefined) return "unexpected end of JSON path";
      if (close !== "]") return `expected ] but got ${close}`;
    } else if (tok === ".") {
      const name = tokens[++i];
      if (name === undefined) return "unexpected end of JSON path";
      const err = enter(name);
      if (err !== undefined) return err;
    } else return `expected [ or . but got: ${tok}`;
  }
  return out;
}

/** A rule's or message expression's estimated cost, as the CRD's total adds it up (apiextensions TotalCost). */
export interface ExpressionCost {
  path: FieldPath;
  cost: number;
}

type Out = { rules: CompiledRules | undefined; findings: Finding[]; costs: ExpressionCost[] };

/** apiextensions validation.go: the most a rule's estimated cost (times its cardinality) may be. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

/** apiextensions getCostErrorMessage: how far over `limit` an estimate is, in its words. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const exceed = cost / limit;
  const factor = exceed > 100 ? "more than 100x" : exceed < 1.5 ? `${exceed.toFixed(6)}x` : `${exceed.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** apiextensions multiplyWithOverflowGuard: a cost times a cardinality, saturating; an empty rule's 0 stays 0. */
const timesCardinality = (cost: number, cardinality: number) => (cost === 0 ? 0 : Math.min(MAX, cost * cardinality));

/**
 * The first release whose API server compiles `text`, when the libraries of the one checked for cannot and a
 * later one's can (libraries/index.ts INTRODUCED): a rule written for a newer cluster than kunion checks for.
 */
function laterRelease(text: string, vars: ReadonlyMap<string, CelT>, want: CelT, libraries: CelLibraries) {
  if (libraries.minor === Number.POSITIVE_INFINITY) return undefined;
  const later = Object.values(INTRODUCED)
    .filter((minor) => minor > libraries.minor)
    .sort((a, b) => a - b);
  const compiles = later.find((minor) => typeof compileProgram(text, vars, want, celLibraries(minor)) !== "string");
  // a server compiles new rules with its compatibility version's libraries, one minor below its own
  return compiles === undefined ? undefined : compiles + 1;
}

/**
 * kunion's own note beside an estimated-cost refusal, where the server's words do not say where to look: what
 * one evaluation is estimated at, and how many times the expression may run (an unbounded list or map above it
 * makes that as many as fit in a request).
 */
function costNotice(path: FieldPath, each: number, runs: number, unboundedAbove: boolean): Finding {
  // past a trillion the estimate's digits are no longer exact (doubles): its order of magnitude then
  const count = (n: number) => (n >= 1e12 ? n.toExponential(1).replace("e+", "e") : n.toLocaleString("en-US"));
  const why = unboundedAbove
    ? ", as many as fit in a 3 MiB request: a list or map above it has no maxItems or maxProperties"
    : runs > 1
      ? ", as the maxItems and maxProperties above it allow"
      : "";
  const times = runs === 1 ? "once per object" : `up to ${count(runs)} times${why}`;
  const detail = `estimated at ${count(each)} each time it runs, ${times}; the limit is ${count(STATIC_ESTIMATED_COST_LIMIT)}`;
  const f = finding({ type: "SchemaError", path, detail, rule: "cel", severity: "notice" });
  return { ...f, message: `${f.field}: ${detail}` };
}

/** kunion's own note beside the API server's refusal: the rule compiles on a later release. */
function laterNotice(path: FieldPath, release: number, libraries: CelLibraries): Finding {
  const detail = `compiles on Kubernetes 1.${release} and later, whose CEL libraries have what it calls; kunion checks for 1.${libraries.minor + 1} (--kubernetes-version, kubernetesVersion in .kunion.yaml)`;
  const f = finding({ type: "SchemaError", path, detail, rule: "cel", severity: "notice" });
  return { ...f, message: `${f.field}: ${detail}` };
}

function schemaFinding(
  path: FieldPath,
  detail: string,
  type: FindingType = "SchemaError",
  badValue?: unknown,
): Finding {
  return finding({ type, path, detail, rule: "cel", badValue });
}

/**
 * What the API server keeps of a CRD on its update (apiextensions validation.go validationOptions): the
 * expressions the old CRD already had, compiled with every library its environment has (StoredExpressions,
 * preexistingExpressions), and, for a version whose schema is unchanged, no refusal for a rule's own estimated
 * cost (versionsWithUnchangedSchemas, suppressPerExpressionCost), so that an upgraded server does not refuse
 * what it accepted.
 */
export interface UpdateContext {
  rules: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
  suppressPerExpressionCost: boolean;
}

export function compileRulesImpl(
  node: JsonObject,
  schemaPath: FieldPath,
  options: {
    resourceRoot: boolean;
    libraries: CelLibraries;
    cardinality: number | null;
    update: UpdateContext | undefined;
  },
): Out {
  const { resourceRoot, libraries, cardinality, update } = options;
  const findings: Finding[] = [];
  const costs: ExpressionCost[] = [];
  const list = getKey(node, "x-kubernetes-validations");
  if (!Array.isArray(list) || list.length === 0) return { rules: undefined, findings, costs };
  const base = [...schemaPath, "x-kubernetes-validations"];
  const selfType = schemaType(node, resourceRoot);
  if (selfType === undefined) {
    findings.push(
      schemaFinding(
        base,
        `failed to compile x-kubernetes-validations rules: rule declared on schema that does not support validation rules type: '${schemaTypeName(node)}' x-kubernetes-preserve-unknown-fields: '${getKey(node, "x-kubernetes-preserve-unknown-fields") === true}'`,
      ),
    );
    return { rules: undefined, findings, costs };
  }
  const compiled: CompiledRule[] = [];
  // validation.go getExpressionCost: times the enclosing lists' and maps' bounds, or, where one has none, the
  // most times the node fits in a request (compilation.go maxCardinality)
  const times = cardinality ?? maxCardinality(minSerializedSize(node, resourceRoot) ?? 0);
  let sizes: SizeEstimator | undefined;
  const estimate = (p: Program) => {
    // the sizes are the server's own release's (its libraries are its compatibility version's, one below)
    sizes ??= sizeEstimator(node, resourceRoot, libraries.minor + 1);
    return estimateCost(p.checked, sizes).max;
  };
  // First each rule's own fields, the schema errors of ValidateCustomResourceDefinitionOpenAPISchema: where the
  // node has any, the server compiles none of its rules (nor, the catalog sees to it, of the nodes above it).
  const shapes: Shape[] = [];
  list.forEach((raw: JsonValue, index) => {
    const shape = ruleShape(raw, index, base, node, findings);
    if (shape !== undefined) shapes.push(shape);
  });
  if (findings.length > 0) return { rules: undefined, findings, costs };
  for (const { index, rule, message, messageExpression, reason, fieldPath, optionalOldSelfRaw } of shapes) {
    const at = (field: string) => [...base, index, field];
    const optionalOldSelf = optionalOldSelfRaw === true;
    const vars = new Map<string, CelT>([
      ["self", selfType],
      ["oldSelf", optionalOldSelf ? optionalOf(selfType) : selfType],
    ]);
    /** An expression's estimated cost: refused past the limit, and added to the schema's total. */
    const observe = (field: "rule" | "messageExpression", each: number, runs: number) => {
      const cost = timesCardinality(each, runs);
      if (cost > STATIC_ESTIMATED_COST_LIMIT && update?.suppressPerExpressionCost !== true) {
        findings.push(
          schemaFinding(
            at(field),
            costErrorMessage(`estimated ${field} cost`, cost, STATIC_ESTIMATED_COST_LIMIT),
            "FieldValueForbidden",
          ),
        );
        findings.push(costNotice(at(field), each, runs, field === "rule" && cardinality === null));
      }
      costs.push({ path: at(field), cost });
    };
    // an expression the old CRD had: every library (StoredExpressions)
    const librariesOf = (text: string, stored: ReadonlySet<string> | undefined) =>
      stored?.has(text) === true ? celLibraries() : libraries;
    const program = compileProgram(rule, vars, BOOL, librariesOf(rule, update?.rules));
    if (typeof program === "string") {
      findings.push(schemaFinding(at("rule"), program));
      const later = laterRelease(rule, vars, BOOL, libraries);
      if (later !== undefined) findings.push(laterNotice(at("rule"), later, libraries));
    } else observe("rule", estimate(program), times);
    // set at all, false included (a *bool the server checks for nil)
    if (typeof program !== "string" && typeof optionalOldSelfRaw === "boolean" && !program.usesOldSelf) {
      const detail = "may not be set if oldSelf is not used in rule";
      findings.push(schemaFinding(at("optionalOldSelf"), detail, "FieldValueInvalid", optionalOldSelfRaw));
    }
    let msgProgram: Program | undefined;
    if (messageExpression.trim() !== "") {
      const p = compileProgram(
        messageExpression,
        vars,
        STRING,
        librariesOf(messageExpression, update?.messageExpressions),
      );
      if (typeof p === "string")
        findings.push(
          schemaFinding(
            at("messageExpression"),
            p.startsWith("compilation failed: ")
              ? `messageExpression ${p}`
              : p === "must evaluate to a string"
                ? "messageExpression must evaluate to a string"
                : p,
          ),
        );
      else {
        msgProgram = p;
        // not times the cardinality: validation.go checks a message expression's own estimate
        observe("messageExpression", estimate(p), 1);
      }
    }
    if (typeof program === "string") continue;
    compiled.push({
      index,
      rule,
      message,
      program,
      messageExpression: msgProgram,
      messageExpressionText: messageExpression,
      reason,
      fieldPath,
      optionalOldSelf,
    });
  }
  if (compiled.length === 0) return { rules: undefined, findings, costs };
  return { rules: new CompiledRules(selfType, schemaTypeName(node), compiled), findings, costs };
}

/** A rule's fields as read, for the rules whose own fields pass. */
interface Shape {
  index: number;
  rule: string;
  message: string | undefined;
  messageExpression: string;
  reason: FindingType;
  fieldPath: PathSegment[];
  optionalOldSelfRaw: JsonValue | undefined;
}

/**
 * The words, types and values of ValidateCustomResourceDefinitionOpenAPISchema's checks of a rule's own fields,
 * pushed to `findings` (rule "schema": the server counts them among the schema's errors); the rule as read when
 * it has one to compile.
 */
function ruleShape(
  raw: JsonValue,
  index: number,
  base: FieldPath,
  node: JsonObject,
  findings: Finding[],
): Shape | undefined {
  const at = (field: string) => [...base, index, field];
  const shapeError = (path: FieldPath, detail: string, type: FindingType, badValue?: unknown) =>
    findings.push(finding({ type, path, detail, rule: "schema", badValue }));
  if (!isObject(raw)) {
    findings.push(schemaFinding([...base, index], "must be an object"));
    return undefined;
  }
  const ruleText = getKey(raw, "rule");
  const rule = typeof ruleText === "string" ? ruleText : "";
  const msgRaw = getKey(raw, "message");
  const message = typeof msgRaw === "string" ? msgRaw : undefined;
  const msgExprRaw = getKey(raw, "messageExpression");
  const messageExpression = typeof msgExprRaw === "string" ? msgExprRaw : "";
  const reasonRaw = getKey(raw, "reason");
  const fieldPathRaw = getKey(raw, "fieldPath");
  const trimmedMsg = (message ?? "").trim();
  if (rule.trim() === "") {
    shapeError(at("rule"), "rule is not specified", "FieldValueRequired");
    return undefined;
  }
  if (message !== undefined && message.length > 0 && trimmedMsg === "") {
    shapeError(at("message"), "message must be non-empty if specified", "FieldValueInvalid", message);
  } else if (hasNewlines(trimmedMsg)) {
    shapeError(at("message"), "message must not contain line breaks", "FieldValueInvalid", message);
  } else if (hasNewlines(rule.trim()) && trimmedMsg === "") {
    // a messageExpression does not stand in for the message here
    shapeError(at("message"), "message must be specified if rule contains line breaks", "FieldValueRequired");
  }
  if (messageExpression.length > 0 && messageExpression.trim() === "")
    shapeError(at("messageExpression"), "messageExpression must be non-empty if specified", "FieldValueRequired");
  let reason: FindingType = "FieldValueInvalid";
  if (reasonRaw !== undefined && reasonRaw !== null) {
    const r = typeof reasonRaw === "string" ? REASONS[reasonRaw] : undefined;
    if (r === undefined) findings.push(notSupported(at("reason"), reasonRaw, Object.keys(REASONS).sort()));
    else reason = r;
  }
  // three checks of their own, the last on the path as written (pathValid is given it untrimmed)
  let fieldPath: PathSegment[] = [];
  if (typeof fieldPathRaw === "string" && fieldPathRaw.length > 0) {
    const invalidPath = (detail: string) => shapeError(at("fieldPath"), detail, "FieldValueInvalid", fieldPathRaw);
    if (fieldPathRaw.trim() === "") invalidPath("fieldPath must be non-empty if specified");
    if (hasNewlines(fieldPathRaw)) invalidPath("fieldPath must not contain line breaks");
    const fp = validFieldPath(fieldPathRaw, node);
    if (typeof fp === "string") invalidPath("fieldPath must be a valid path");
    else fieldPath = fp;
  }
  const optionalOldSelfRaw = getKey(raw, "optionalOldSelf");
  return { index, rule, message, messageExpression, reason, fieldPath, optionalOldSelfRaw };
}

const ruleErrorString = (r: CompiledRule) => (r.message && r.message.trim() !== "" ? r.message.trim() : r.rule.trim());
const ruleMessageOrDefault = (r: CompiledRule) =>
  r.message && r.message.trim() !== "" ? r.message.trim() : `failed rule: ${r.rule.trim()}`;

/** cel-go's wording of runtime errors @bufbuild/cel words differently. */
export function errorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const fieldMissing = /^field not found: (.*)$/.exec(msg);
  if (fieldMissing) return `no such key: ${fieldMissing[1]}`;
  const index = /^index (-?\d+) out of bounds/.exec(msg);
  if (index) return `index out of bounds: ${index[1]}`;
  if (msg.startsWith("found no matching overload")) return `no such overload`;
  if (/^int overflow/.test(msg)) return "integer overflow";
  if (/^uint overflow/.test(msg)) return "unsigned integer overflow";
  if (/divide by zero$/.test(msg)) return "division by zero";
  if (/modulus by zero$/.test(msg)) return "modulus by zero";
  if (msg === "unresolved attribute") return "no such attribute";
  return msg;
}

function reasonFinding(path: FieldPath, typeName: unknown, detail: string, reason: FindingType): Finding {
  switch (reason) {
    case "FieldValueForbidden":
      return finding({ type: "FieldValueForbidden", path, detail, rule: "cel" });
    case "FieldValueRequired":
      return finding({ type: "FieldValueRequired", path, detail, rule: "cel" });
    case "FieldValueDuplicate":
      return finding({ type: "FieldValueDuplicate", path, badValue: typeName, rule: "cel" });
    default:
      return finding({ type: "FieldValueInvalid", path, badValue: typeName, detail, rule: "cel" });
  }
}

const invalidAt = (path: FieldPath, typeName: unknown, detail: string) =>
  finding({ type: "FieldValueInvalid", path, badValue: typeName, detail, rule: "cel" });

interface RunResult {
  value: unknown;
  cost: number;
  exceeded: boolean;
  /** The document's work budget ran out during this run. */
  spent: boolean;
}

function run(p: Program, bindings: Record<string, unknown>, limit: number, work: WorkBudget): RunResult {
  const meter = new Meter(limit, work);
  let value: unknown;
  try {
    meter.charge(p.baseCost);
    value = withMeter(meter, () => p.run(bindings));
  } catch (e) {
    if (!(e instanceof CostExceeded || e instanceof WorkExceeded)) throw e;
  }
  // @bufbuild/cel turns some exceptions into error values: the meter and the budget know what happened.
  return { value, cost: meter.cost, exceeded: meter.exceeded, spent: work.exhausted };
}

/** Said once per document, where its work budget ran out; no rule of it runs after. */
function workSpent(path: FieldPath, work: WorkBudget): Finding {
  work.reported = true;
  return finding({
    type: "FieldValueInvalid",
    path,
    detail: `kunion stopped evaluating validation rules here: the document exceeds its work budget of ${work.limit} cost units (kunion's bound on one document, not the API server's); the remaining rules of the document are not checked`,
    rule: "work-budget",
  });
}

/**
 * How a failed rule prints the value it judged: Kubernetes 1.34 and older
 * print its type (`Invalid value: "integer"`); from 1.35 a simple value is
 * printed as it is and an object or list not at all (kubernetes#132798,
 * #133832).
 */
export type CelBadValue = "type" | "value";

function badValueOf(self: JsonValue, typeName: string, form: CelBadValue): string | number | boolean | undefined {
  if (form === "type") return typeName;
  return typeof self === "string" || typeof self === "number" || typeof self === "boolean" ? self : undefined;
}

export function evaluateRulesImpl(
  rules: CompiledRules,
  self: JsonValue,
  oldSelf: JsonValue | undefined,
  dataPath: FieldPath,
  budget: { remaining: number; work?: WorkBudget },
  form: CelBadValue = "value",
): Finding[] {
  const out: Finding[] = [];
  /** Ends the object's evaluation with `last`: no rule runs after a budget is spent. */
  const stop = (last: Finding): Finding[] => {
    out.push(last);
    budget.remaining = -1;
    return out;
  };
  const work = workBudget(budget);
  if (budget.remaining < 0 || work.reported || self === null || self === undefined) return out;
  const tn = badValueOf(self, rules.typeName, form);
  const selfVal = toCelValue(self, rules.selfType);
  const oldVal = oldSelf === undefined || oldSelf === null ? undefined : toCelValue(oldSelf, rules.selfType);
  const plain: Record<string, unknown> = { self: selfVal };
  if (oldVal !== undefined) plain.oldSelf = oldVal;
  let optional: Record<string, unknown> | undefined;
  const ratchet = oldSelf !== undefined && oldSelf !== null && deepEqual(self, oldSelf);
  for (const r of rules.rules) {
    if (r.program.usesOldSelf && oldVal === undefined && !r.optionalOldSelf) continue;
    let bindings = plain;
    if (r.optionalOldSelf) {
      optional ??= {
        self: selfVal,
        oldSelf: oldVal === undefined ? asCel(NONE) : asCel(new OptionalValue(oldVal as CelValue)),
      };
      bindings = optional;
    }
    const limit = Math.min(PER_CALL_LIMIT, budget.remaining);
    const res = run(r.program, bindings, limit, work);
    if (res.spent) return stop(workSpent(dataPath, work));
    if (res.cost > budget.remaining)
      return stop(
        invalidAt(
          dataPath,
          tn,
          "validation failed due to running out of cost budget, no further validation rules will be run",
        ),
      );
    if (res.exceeded)
      return stop(
        invalidAt(
          dataPath,
          tn,
          `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(r)}`,
        ),
      );
    budget.remaining -= res.cost;
    const v = res.value;
    if (isCelError(v)) {
      const text = errorText(v);
      if (text.startsWith("no such overload"))
        out.push(
          invalidAt(
            dataPath,
            tn,
            `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r)}`,
          ),
        );
      else out.push(invalidAt(dataPath, tn, `${text} evaluating rule: ${ruleErrorString(r)}`));
      continue;
    }
    if (v === true) continue;
    const path = r.fieldPath.length > 0 ? [...dataPath, ...r.fieldPath] : dataPath;
    let detail = ruleMessageOrDefault(r);
    if (r.messageExpression !== undefined) {
      const mres = run(r.messageExpression, bindings, Math.min(PER_CALL_LIMIT, budget.remaining), work);
      if (mres.spent) return stop(workSpent(path, work));
      if (mres.cost > budget.remaining)
        return stop(
          invalidAt(
            path,
            tn,
            "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run",
          ),
        );
      if (mres.exceeded)
        return stop(
          invalidAt(
            path,
            tn,
            `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(r.messageExpressionText)}`,
          ),
        );
      budget.remaining -= mres.cost;
      const m = mres.value;
      if (typeof m === "string") {
        const trimmed = m.trim();
        if (trimmed !== "" && trimmed.length <= 5 * 1024 && !hasNewlines(trimmed)) detail = trimmed;
      }
    }
    const f = reasonFinding(path, tn, detail, r.reason);
    // CRD validation ratcheting: an unchanged value only warns about rules that do not use oldSelf
    if (!r.program.usesOldSelf && ratchet) f.severity = "warning";
    out.push(f);
  }
  return out;
}
