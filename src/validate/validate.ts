import { type CelBadValue, type CelBudget, type CelRules, evaluateRules } from "../cel/index.js";
import { type Finding, invalid, type Severity } from "../findings/index.js";
import type { NameRule } from "../names/index.js";
import { deepEqual, getKey, hasKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { type Compiled, type CompiledSchema, maxDepth } from "./compile.js";
import { prepare, ROOT } from "./defaults.js";
import { mapKey } from "./keywords/list-type.js";
import { validateObjectMeta, validateTypeMeta } from "./metadata.js";
import { childLoc, type FormatDecoder, type Loc, type Node, nameOf, openAPIPath, type Run, toPath } from "./types.js";

export interface ValidateOptions {
  /** The previous revision: CEL transition rules (oldSelf) and ratcheting, as the API server does on update. */
  oldObject?: JsonValue;
  /** Fields the schema does not know: "error" (default, kubectl --validate=strict), "warning" or "ignore". */
  unknownFields?: "error" | "warning" | "ignore";
  /** Runtime CEL cost budget for the object (API server: 1e7; each expression is limited to 1e6 by the CEL module). */
  celCostLimit?: number;
  /** How CEL failures print the value they judged: by release (see CelBadValue); the newest by default. */
  celBadValue?: CelBadValue;
  /**
   * Values printed as JSON, as the API server does from 1.34 on (kubernetes#132314): `Invalid value: null`
   * where 1.33 and older print `Invalid value: "null"`. The newest by default.
   */
  jsonValues?: boolean;
  /** The kind's own rule for `metadata.name` (Kubernetes' own kinds); DNS subdomains by default, as for custom resources. */
  nameRule?: NameRule;
}

/** Field errors that make the API server skip CEL (customresource strategy's hasBlockingErr). */
const blocking = new Set([
  "FieldValueNotSupported",
  "FieldValueRequired",
  "FieldValueTooLong",
  "FieldValueTooMany",
  "FieldValueTypeInvalid",
]);
const notChecked =
  "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/** A node's CEL rules, the value they judge and its correlated old value. */
export interface CelJob {
  cel: CelRules;
  value: JsonValue;
  old: JsonValue | undefined;
  loc: Loc | undefined;
}

interface WalkOptions {
  /** The structural tree of an object (defaults applied, metadata, list types), not a value-only branch. */
  main: boolean;
  unknown?: Severity;
  nameRule?: NameRule;
  /** How the root's metadata timestamps decode (a built-in kind's metav1.Time). */
  decodeTime?: FormatDecoder;
  /** Collect the CEL rules met on the way (the main run's; a CRD default's, checkValue). Default: `main`. */
  cel?: boolean;
  /** Errors on a value unchanged since its old value only warn (KEP-4008). Default: true. */
  ratchet?: boolean;
}

class Walk implements Run {
  sink: Finding[] = [];
  extras: Finding[] = [];
  matches = 0;
  readonly jobs: CelJob[] = [];
  readonly main: boolean;
  readonly unknown: Severity | undefined;
  readonly nameRule: NameRule | undefined;
  readonly decodeTime: FormatDecoder | undefined;
  readonly cel: boolean;
  readonly ratchet: boolean;

  constructor(options: WalkOptions) {
    this.main = options.main;
    this.unknown = options.unknown;
    this.nameRule = options.nameRule;
    this.decodeTime = options.decodeTime;
    this.cel = options.cel ?? options.main;
    this.ratchet = options.ratchet ?? true;
  }

  evaluate(node: Node, value: JsonValue, loc: Loc | undefined) {
    const branch = new Walk({ main: false });
    visit(node, value, loc, branch, 0, undefined, 0);
    return { findings: branch.sink, matches: branch.matches };
  }
}

/**
 * kube-openapi's validator alone over `value` (apiservervalidation's ValidateCustomResource on a value as written:
 * no defaulting, pruning, list types or object metadata), with the CEL rules of the structural tree met on the
 * way, in the server's order; each with `old` where the API server correlates one (through properties, map
 * values and the items of list-type=map lists) and never ratcheted.
 */
export function checkValue(
  node: Node,
  value: JsonValue,
  old: JsonValue | undefined,
): { findings: Finding[]; jobs: CelJob[] } {
  const run = new Walk({ main: false, cel: true, ratchet: false });
  visit(node, value, undefined, run, 0, old, 0);
  return { findings: [...run.sink, ...run.extras], jobs: run.jobs };
}

/**
 * Defaults, then validates, as the API server does: structural defaulting,
 * non-nullable nulls dropped (a warning each), the OpenAPI value
 * validations, unknown fields (kubectl's strict field validation), object
 * metadata, list types, then CEL unless a blocking error came first. Pure:
 * the input is never mutated; the returned object shares unchanged parts.
 */
export function validateWithSchema(
  compiled: CompiledSchema,
  object: JsonValue,
  options: ValidateOptions = {},
): { object: JsonValue; findings: Finding[] } {
  const { root, hasCel, decoders } = compiled as Compiled;
  const findings: Finding[] = [];
  const mode = options.unknownFields ?? "error";
  const unknown = mode === "ignore" ? undefined : mode;
  // Validation sees what the server sees: the pruned, defaulted object (and old object).
  const { defaulted, pruned } = prepare(root, object, { findings, unknown });
  const old =
    options.oldObject === undefined
      ? undefined
      : prepare(root, options.oldObject, { findings: undefined, unknown: undefined }).pruned;
  const walk = new Walk({ main: true, unknown, nameRule: options.nameRule, decodeTime: decoders?.["date-time"] });
  visit(root, pruned, undefined, walk, 0, old, ROOT);
  // One push each, never push(...xs): an object can have more findings than a call takes arguments.
  for (const f of walk.sink) findings.push(f);
  for (const f of walk.extras) findings.push(f);
  if (hasCel) {
    if (findings.some((f) => f.severity === "error" && blocking.has(f.type))) {
      // The server adds field.Invalid(nil, nil, …) (customresource strategy.go): `<nil>: Invalid value: null: …`.
      findings.push(
        invalid([], options.jsonValues === false ? "null" : null, notChecked, { rule: "cel", severity: "notice" }),
      );
    } else {
      const budget: CelBudget = { remaining: options.celCostLimit ?? 1e7 };
      for (const job of walk.jobs) for (const f of runCel(job, budget, options.celBadValue)) findings.push(f);
    }
  }
  return { object: defaulted, findings };
}

/**
 * The node's rules on its pruned, defaulted value and its correlated old
 * value. The CEL module skips transition rules without an old value and
 * ratchets the others on an unchanged value (KEP-4008), as the server does.
 */
function runCel(job: CelJob, budget: CelBudget, badValue: CelBadValue | undefined): Finding[] {
  return evaluateRules(job.cel, job.value, job.old, toPath(job.loc), budget, badValue);
}

function visit(
  node: Node,
  value: JsonValue,
  loc: Loc | undefined,
  run: Walk,
  depth: number,
  old: JsonValue | undefined,
  flags: number,
): void {
  if (depth > maxDepth) {
    run.extras.push(invalid(toPath(loc), "", `nesting deeper than ${maxDepth} levels is not validated`));
    return;
  }
  run.matches++;
  const start = run.sink.length;
  if (value === null) {
    // kube-openapi checks only type (nullable) and enum on null.
    for (const check of node.nullChecks) check(value, loc, run);
  } else {
    for (const check of node.checks) {
      run.matches++;
      check(value, loc, run);
    }
    if (run.main) for (const check of node.mainChecks) check(value, loc, run);
    // CEL rules see only non-null values (apiextensions' cel validator skips nulls), a node's before its
    // children's, as the validator walks them (which decides where a spent budget stops).
    if (run.cel && node.cel) run.jobs.push({ cel: node.cel, value, old, loc });
    if (Array.isArray(value)) items(node, value, loc, run, depth, old);
    else if (isObject(value)) properties(node, value, loc, run, depth, old, flags);
  }
  // Ratcheting: errors of the OpenAPI validations on a value unchanged since the old object only warn.
  if (run.ratchet && old !== undefined && run.sink.length > start && deepEqual(value, old)) {
    for (let i = start; i < run.sink.length; i++) {
      const f = run.sink[i] as Finding;
      if (f.severity === "error") run.sink[i] = { ...f, severity: "warning" };
    }
  }
}

function items(
  node: Node,
  list: JsonValue[],
  loc: Loc | undefined,
  run: Walk,
  depth: number,
  old: JsonValue | undefined,
): void {
  const schema = node.items;
  if (!schema) return;
  // Old items correlate by their keys in list-type=map lists only (sets and atomic lists do not correlate).
  let previous: Map<string, JsonValue> | undefined;
  if (Array.isArray(old) && node.listType === "map" && node.listMapKeys) {
    previous = new Map();
    for (const item of old) if (isObject(item)) previous.set(mapKey(item, node.listMapKeys).text, item);
  }
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as JsonValue;
    const o = previous && isObject(item) ? previous.get(mapKey(item, node.listMapKeys as string[]).text) : undefined;
    visit(schema, item, childLoc(loc, i), run, depth + 1, o, 0);
  }
}

function properties(
  node: Node,
  obj: JsonObject,
  loc: Loc | undefined,
  run: Walk,
  depth: number,
  old: JsonValue | undefined,
  flags: number,
): void {
  const sized = node.sizeCheck ? node.sizeCheck(obj, loc, run) !== false : true;
  // After a min/maxProperties failure kube-openapi validates nothing below; the rest still runs.
  if (!sized && !run.main) return;
  const saved = run.sink;
  if (!sized) run.sink = [];
  const resource = run.main && (flags & ROOT || node.embedded);
  const oldObj = isObject(old) ? old : undefined;
  for (const key of Object.keys(obj)) {
    const v = getKey(obj, key) as JsonValue;
    const o = oldObj ? getKey(oldObj, key) : undefined;
    const prop = node.properties?.get(key);
    if (prop) visit(prop, v, childLoc(loc, key), run, depth + 1, o, 0);
    else if (node.additional) visit(node.additional, v, childLoc(loc, { key }), run, depth + 1, o, 0);
    else if (node.additionalFalse) {
      // Pruning removed such keys from the structural tree, except under a preserved list;
      // value-only branches keep plain JSON Schema semantics.
      run.sink.push(forbiddenProperty(loc, key));
    }
  }
  if (sized) node.required?.(obj, loc, run);
  run.sink = saved;
  if (!resource) return;
  const meta = getKey(obj, "metadata");
  if (flags & ROOT) {
    const opts = { root: true, unknown: run.unknown, nameRule: run.nameRule, decodeTime: run.decodeTime };
    validateObjectMeta(meta, childLoc(undefined, "metadata"), opts, run.extras);
  } else {
    validateTypeMeta(obj, loc, run.extras);
    if (hasKey(obj, "metadata")) {
      validateObjectMeta(meta, childLoc(loc, "metadata"), { root: false, unknown: run.unknown }, run.extras);
    }
  }
}

/** kube-openapi's PropertyNotAllowed, reported on the object: `spec: Invalid value: "foo": spec.foo in body is a forbidden property`. */
function forbiddenProperty(loc: Loc | undefined, key: string): Finding {
  return invalid(openAPIPath(loc), key, `${nameOf(loc)}.${key} in body is a forbidden property`);
}
