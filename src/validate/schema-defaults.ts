import { type CelBadValue, type CelBudget, evaluateRules, RUNTIME_BUDGET } from "../cel/index.js";
import { type Finding, invalid, reroot } from "../findings/index.js";
import { type FieldPath, schemaProperty } from "../path/index.js";
import { getKey, hasKey, isObject, type JsonObject, type JsonValue, setKey, shallowCopy } from "../value/index.js";
import { type Compiled, compileSchema, maxDepth } from "./compile.js";
import { metaFields, prepare } from "./defaults.js";
import { validateObjectMeta, validateTypeMeta } from "./metadata.js";
import { childLoc, emptyNode, type Loc, type Node, toPath } from "./types.js";
import { type CelJob, checkValue } from "./validate.js";

export interface SchemaDefaultsOptions {
  /**
   * Whether defaults must be pruned (apiextensions' requirePrunedDefaults): on create always; on an update
   * only when the old CRD's defaults were all pruned.
   */
  requirePrunedDefaults?: boolean;
  /** The Kubernetes minor whose CEL libraries the rules compile with (compileSchema's option); every one when absent. */
  celLibraries?: number;
  /** How failing CEL rules print the value they judged (validateWithSchema's option of that name). */
  celBadValue?: CelBadValue;
}

/**
 * The `default`s of one CRD version's openAPIV3Schema that the API server
 * refuses, as apiextensions' defaulting.ValidateDefaults checks them once
 * the schema is structural (validateCustomResourceDefinitionVersion).
 * `at` is where the schema sits in the CRD
 * (`spec.versions[0].schema.openAPIV3Schema`); findings go below it, on
 * the default (`….properties[spec].properties[a].default: …`). Each default
 * is checked against the schema it sits in, in the server's order:
 * - outside a resource's apiVersion/kind/metadata: it must be pruned
 *   already (`must not have unknown fields`); then the embedded resources
 *   in it (objectmeta.Validate), kube-openapi's validator and the CEL
 *   rules, each only when the one before found nothing;
 * - inside them: the default placed in a resource (`validation/v1`,
 *   `Validation`) must give valid ObjectMeta (`must result in valid
 *   metadata: …`); then the validator, then CEL.
 * Defaults under additionalProperties are not checked: the server does not
 * follow them (argo-workflows' CRDs have some and are accepted). A default
 * whose apiVersion/kind is no string or whose metadata does not decode as
 * ObjectMeta gets no finding: the server's Coerce error is in Go's JSON
 * decoder's words, which we do not have.
 */
export function validateSchemaDefaults(
  schema: JsonValue,
  at: FieldPath,
  options: SchemaDefaultsOptions = {},
): Finding[] {
  const { compiled } = compileSchema(schema, { celLibraries: options.celLibraries });
  const root = (compiled as Compiled).root;
  const ctx: Context = {
    at,
    requirePruned: options.requirePrunedDefaults ?? true,
    celBadValue: options.celBadValue,
    // One runtime budget for all the defaults' rules (celconfig.RuntimeCELCostBudget); spent, the server stops.
    budget: { remaining: RUNTIME_BUDGET },
    out: [],
  };
  // The root is checked as a resource, embedded or not.
  walk(root, undefined, { resource: root, meta: false, trail: undefined }, ctx, 0);
  return ctx.out;
}

interface Context {
  readonly at: FieldPath;
  readonly requirePruned: boolean;
  readonly celBadValue: CelBadValue | undefined;
  readonly budget: CelBudget;
  readonly out: Finding[];
}

/** Where a schema node sits relative to the resource (the root or an embedded resource) around it. */
interface Scope {
  readonly resource: Node;
  /** Inside the resource's apiVersion, kind or metadata. */
  readonly meta: boolean;
  /** The way from the resource to the node: property names, and 0 for a list's items. */
  readonly trail: Loc | undefined;
}

/** The server's recursion: items and properties, the node's default first. */
function walk(node: Node, schemaLoc: Loc | undefined, scope: Scope, ctx: Context, depth: number): void {
  if (depth > maxDepth) return;
  const here = node.embedded ? { resource: node, meta: false, trail: undefined } : scope;
  if (node.hasDefault) checkDefault(node, node.default as JsonValue, schemaLoc, here, ctx);
  if (ctx.budget.remaining < 0) return;
  if (node.items) {
    const itemScope = { ...here, trail: childLoc(here.trail, 0) };
    walk(node.items, childLoc(schemaLoc, "items"), itemScope, ctx, depth + 1);
  }
  for (const [name, prop] of node.properties ?? []) {
    if (ctx.budget.remaining < 0) return;
    const meta = here.meta || (here.resource === node && metaFields.has(name));
    const propLoc = schemaProperty(name).reduce<Loc | undefined>((l, seg) => childLoc(l, seg), schemaLoc);
    walk(prop, propLoc, { resource: here.resource, meta, trail: childLoc(here.trail, name) }, ctx, depth + 1);
  }
}

function checkDefault(node: Node, value: JsonValue, schemaLoc: Loc | undefined, scope: Scope, ctx: Context): void {
  const at = [...ctx.at, ...toPath(schemaLoc), "default"];
  if (scope.meta) {
    const meta = resourceMeta(scope.resource, surround(value, scope.trail), true);
    if (meta === undefined) return;
    if (meta.length > 0) {
      ctx.out.push(invalid(at, value, `must result in valid metadata: ${aggregate(meta)}`));
      return;
    }
  } else {
    if (ctx.requirePruned && hasUnknownFields(node, value, node === scope.resource)) {
      ctx.out.push(invalid(at, value, "must not have unknown fields"));
    }
    const meta = resourceMeta(node, value, node === scope.resource);
    if (meta === undefined) return;
    if (meta.length > 0) {
      for (const f of meta) ctx.out.push(reroot(f, at));
      return;
    }
  }
  // The default is its own old value (correlated where the server correlates one).
  const { findings, jobs } = checkValue(node, value, value);
  if (findings.length > 0) {
    for (const f of findings) ctx.out.push(reroot(f, at));
    return;
  }
  for (const f of celFindings(jobs, at, ctx)) ctx.out.push(f);
}

/**
 * The resource the server builds around a default inside TypeMeta or
 * ObjectMeta (SurroundingObjectFunc): the default at its place, apiVersion
 * and kind set last, so a default for either is replaced.
 */
function surround(value: JsonValue, trail: Loc | undefined): JsonObject {
  let v = value;
  for (let t = trail; t; t = t.parent) {
    if (typeof t.seg === "number") v = [v];
    else {
      const o: JsonObject = {};
      setKey(o, t.seg as string, v);
      v = o;
    }
  }
  // The trail starts at apiVersion, kind or metadata: v is an object.
  const obj = shallowCopy(v as JsonObject);
  setKey(obj, "apiVersion", "validation/v1");
  setKey(obj, "kind", "Validation");
  return obj;
}

/**
 * objectmeta.Validate over `value`: apiVersion, kind and metadata of each
 * embedded resource in it (and of `value` itself when it is a resource).
 * Undefined when objectmeta.Coerce refuses first: a TypeMeta field that is
 * no string, metadata that does not decode as ObjectMeta.
 */
function resourceMeta(node: Node, value: JsonValue, resource: boolean): Finding[] | undefined {
  const out: Finding[] = [];
  embeddedMeta(node, value, undefined, resource, out, 0);
  const coerceFails = out.some((f) => f.type === "FieldValueTypeInvalid" || f.detail === "must be a string");
  return coerceFails ? undefined : out;
}

function embeddedMeta(
  node: Node,
  value: JsonValue,
  loc: Loc | undefined,
  resource: boolean,
  out: Finding[],
  depth: number,
): void {
  if (depth > maxDepth) return;
  if (Array.isArray(value)) {
    if (node.items)
      for (let i = 0; i < value.length; i++)
        embeddedMeta(node.items, value[i] as JsonValue, childLoc(loc, i), false, out, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  if (resource || node.embedded) {
    validateTypeMeta(value, loc, out);
    if (hasKey(value, "metadata"))
      validateObjectMeta(
        getKey(value, "metadata"),
        childLoc(loc, "metadata"),
        { root: false, unknown: undefined },
        out,
      );
  }
  for (const key of Object.keys(value)) {
    const prop = node.properties?.get(key);
    const child = prop ?? node.additional;
    if (child)
      embeddedMeta(child, getKey(value, key) as JsonValue, childLoc(loc, prop ? key : { key }), false, out, depth + 1);
  }
}

/** utilerrors' Aggregate: one message as it is, more deduplicated in brackets. */
function aggregate(findings: Finding[]): string {
  const messages = [...new Set(findings.map((f) => f.message))];
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(", ")}]`;
}

/**
 * Whether pruning (kunion's defaulting pass, `prepare`) would drop a field
 * of the default. `prepare` takes its node for a resource root, keeping
 * apiVersion, kind and metadata: where the node is none, a holder makes
 * the default an ordinary field. Unknown fields inside defaults the pass
 * fills in are those defaults' own.
 */
function hasUnknownFields(node: Node, value: JsonValue, resource: boolean): boolean {
  const findings: Finding[] = [];
  if (resource) prepare(node, value, { findings, unknown: "error" });
  else
    prepare(
      { ...emptyNode(), properties: new Map([["default", node]]) },
      { default: value },
      { findings, unknown: "error" },
    );
  const fieldPath = (f: Finding) => (resource ? f.path : f.path.slice(1));
  return findings.some((f) => f.type === "UnknownField" && isWritten(value, fieldPath(f)));
}

/** Whether `path` leads to a field written in `value`, not through a part defaulting filled in. */
function isWritten(value: JsonValue, path: FieldPath): boolean {
  let v: JsonValue | undefined = value;
  for (const seg of path) {
    if (v === null || v === undefined) return false;
    if (typeof seg === "number") v = Array.isArray(v) ? v[seg] : undefined;
    else v = isObject(v) ? getKey(v, typeof seg === "string" ? seg : seg.key) : undefined;
  }
  return v !== undefined;
}

/**
 * The rules on the default, as ValidateDefaults runs them: first with the
 * default as its own old value, without ratcheting (kunion's CEL module
 * ratchets an unchanged value to warnings: here they are errors); when
 * that passes, again without an old value (CRDValidationRatcheting, on
 * from 1.30), for rules with optionalOldSelf. The budget keeps the
 * smaller remainder of the two runs.
 */
function celFindings(jobs: CelJob[], at: FieldPath, ctx: Context): Finding[] {
  if (jobs.length === 0) return [];
  const evaluate = (withOld: boolean, budget: CelBudget) =>
    jobs.flatMap((j) =>
      evaluateRules(j.cel, j.value, withOld ? j.old : undefined, [...at, ...toPath(j.loc)], budget, ctx.celBadValue),
    );
  const first: CelBudget = { remaining: ctx.budget.remaining };
  const out = evaluate(true, first).map((f) => (f.severity === "warning" ? { ...f, severity: "error" as const } : f));
  let remaining = first.remaining;
  if (out.length === 0) {
    const second: CelBudget = { remaining: ctx.budget.remaining };
    for (const f of evaluate(false, second)) out.push(f);
    remaining = Math.min(remaining, second.remaining);
  }
  ctx.budget.remaining = remaining;
  return out;
}
