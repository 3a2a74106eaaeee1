import {
  type CelRules,
  cardinalityFactor,
  compileRules,
  costErrorMessage,
  type ExpressionCost,
  type UpdateContext,
} from "../cel/index.js";
import { type Finding, finding } from "../findings/index.js";
import { type PathSegment, schemaProperty } from "../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { canonical, contentKey } from "./canonical.js";
import { keywords } from "./keywords/index.js";
import { type Check, type CompileContext, emptyNode, type FormatDecoders, type Node, schemaFinding } from "./types.js";

/** Opaque handle on a compiled schema; share it freely, it is never mutated. */
export interface CompiledSchema {
  readonly kind: "CompiledSchema";
}

export interface Compiled extends CompiledSchema {
  readonly root: Node;
  readonly findings: readonly Finding[];
  /** Whether any node has x-kubernetes-validations (the API server then runs its CEL validator). */
  readonly hasCel: boolean;
  /** A built-in kind's format decoders, which also decode its metadata's timestamps. */
  readonly decoders?: FormatDecoders;
  /** The Kubernetes minor whose CEL libraries its rules were compiled with (undefined: every one). */
  readonly celLibraries?: number;
}

export interface CompileOptions {
  /**
   * The Kubernetes minor whose CEL libraries a new rule may use (the API server's compatibility version, one
   * below its own); every library when absent.
   */
  celLibraries?: number;
  /** On an update of the CRD: what the API server keeps of the old one (compiled anew, not cached). */
  update?: UpdateContext;
}

/** Schema nesting the compiler follows; deeper parts become a finding. */
export const maxDepth = 1000;
const maxCached = 256;

/** Compiled schemas by content: identical schemas (the same CRD loaded twice) share one compilation. */
const byContent = new Map<string, Compiled>();
/**
 * The same schema object compiled again skips canonicalising it (schemas,
 * like every value here, are never mutated once handed over).
 */
const byIdentity = new WeakMap<object, Compiled>();

/**
 * Compiles a CRD version's openAPIV3Schema once into closures, cached by
 * content (a hash of its canonical JSON), so identical schemas share one
 * compilation. Invalid parts (a pattern RE2 rejects, a CEL rule that does
 * not compile) become findings with their schema path
 * (`properties.spec.properties.x.pattern`); this never throws.
 */
export function compileSchema(
  schema: JsonValue,
  options: CompileOptions = {},
): { compiled: CompiledSchema; findings: Finding[] } {
  const { celLibraries, update } = options;
  if (update !== undefined) return fresh(schema, celLibraries, update);
  const known = typeof schema === "object" && schema !== null ? byIdentity.get(schema) : undefined;
  if (known && known.celLibraries === celLibraries) return { compiled: known, findings: [...known.findings] };
  const key = `${celLibraries ?? ""}\u0000${contentKey(canonical(schema))}`;
  let compiled = byContent.get(key);
  if (compiled) {
    // Refresh its place: the Map's order is the eviction order.
    byContent.delete(key);
  } else compiled = fresh(schema, celLibraries, undefined).compiled;
  byContent.set(key, compiled);
  if (byContent.size > maxCached) byContent.delete(byContent.keys().next().value as string);
  if (typeof schema === "object" && schema !== null) byIdentity.set(schema, compiled);
  return { compiled, findings: [...compiled.findings] };
}

/** A compilation of its own, cached nowhere. */
function fresh(
  schema: JsonValue,
  celLibraries: number | undefined,
  update: UpdateContext | undefined,
): { compiled: Compiled; findings: Finding[] } {
  const findings: Finding[] = [];
  const compiler = new Compiler(findings, undefined, celLibraries, update);
  const root = compiler.node(schema, [], "structural", 0, 1);
  for (const f of compiler.totalCostFindings()) findings.push(f);
  const compiled: Compiled = { kind: "CompiledSchema", root, findings, hasCel: compiler.hasCel, celLibraries };
  return { compiled, findings: [...findings] };
}

/**
 * Compiles a schema built in code (Kubernetes' own kinds, `builtins/`) as it
 * is: its definitions are shared objects, even cyclic ones, which the
 * compiler follows by identity; no content key, so no walk over the
 * expanded tree. The caller keeps the result. `decoders` check a format
 * as the API server's Go types decode it (metav1.Time's time.Parse) rather
 * than with the strfmt rule a CRD's `format` gets.
 */
export function compileSchemaGraph(
  schema: JsonObject,
  options: { decoders?: FormatDecoders } = {},
): { compiled: CompiledSchema; findings: Finding[] } {
  const findings: Finding[] = [];
  const compiler = new Compiler(findings, options.decoders);
  const root = compiler.node(schema, [], "structural", 0, 1);
  const compiled: Compiled = {
    kind: "CompiledSchema",
    root,
    findings,
    hasCel: compiler.hasCel,
    decoders: options.decoders,
  };
  return { compiled, findings: [...findings] };
}

type Mode = "structural" | "value";

class Compiler {
  /** Schema objects already compiled, per mode: YAML aliases may share (or even nest) them. */
  private readonly seen = { structural: new Map<object, Node>(), value: new Map<object, Node>() };
  hasCel = false;
  /** Each rule's and message expression's estimated cost, for the schema's total. */
  private readonly costs: ExpressionCost[] = [];

  constructor(
    private readonly findings: Finding[],
    private readonly decoders?: FormatDecoders,
    private readonly celLibraries?: number,
    private readonly update?: UpdateContext,
  ) {}

  /**
   * `cardinality`: how many times the node may occur in an object, as apiextensions' CEL context counts it for
   * the rules' cost (the enclosing lists' maxItems and maps' maxProperties multiplied; undefined: unbounded).
   */
  node(raw: JsonValue, path: readonly PathSegment[], mode: Mode, depth: number, cardinality?: number): Node {
    const node = emptyNode();
    if (!isObject(raw)) {
      if (raw !== true) this.findings.push(schemaFinding(path, "must be a schema object"));
      // `true` (and anything unreadable) accepts any value.
      node.preserveUnknown = true;
      node.additionalAllowed = true;
      return node;
    }
    const cached = this.seen[mode].get(raw);
    if (cached) return cached;
    if (depth > maxDepth) {
      this.findings.push(schemaFinding(path, `schema nesting exceeds ${maxDepth} levels`));
      node.preserveUnknown = true;
      node.additionalAllowed = true;
      return node;
    }
    this.seen[mode].set(raw, node);
    const ctx: CompileContext = {
      path,
      findings: this.findings,
      decoders: this.decoders,
      branch: (b, branchPath) => this.node(b, branchPath, "value", depth + 1),
    };
    for (const k of keywords) {
      if (k.phase === "main" && mode !== "structural") continue;
      const check: Check | undefined = k.compile(raw, ctx);
      if (!check) continue;
      if (k.nulls) node.nullChecks.push(check);
      if (k.phase === "value") node.checks.push(check);
      else if (k.phase === "size") node.sizeCheck = check;
      else if (k.phase === "required") node.required = check;
      else node.mainChecks.push(check);
    }
    const factor = cardinality === undefined ? undefined : cardinalityFactor(raw);
    const childCardinality = factor === undefined || cardinality === undefined ? undefined : cardinality * factor;
    const child = (v: JsonValue, childPath: PathSegment[]) =>
      this.node(v, childPath, mode, depth + 1, childCardinality);
    const props = getKey(raw, "properties");
    if (isObject(props)) {
      node.properties = new Map();
      for (const name of Object.keys(props)) {
        node.properties.set(name, child(getKey(props, name) as JsonValue, [...path, ...schemaProperty(name)]));
      }
    } else if (props !== undefined) this.findings.push(schemaFinding([...path, "properties"], "must be an object"));
    const additional = getKey(raw, "additionalProperties");
    if (additional === true) node.additionalAllowed = true;
    else if (additional === false) node.additionalFalse = true;
    else if (additional !== undefined) node.additional = child(additional, [...path, "additionalProperties"]);
    const items = getKey(raw, "items");
    if (isObject(items)) node.items = child(items, [...path, "items"]);
    // a list of schemas is refused in the server's words where a CRD's schema is validated (crd/)
    else if (items !== undefined && !Array.isArray(items))
      this.findings.push(schemaFinding([...path, "items"], "must be a schema object"));
    node.nullable = getKey(raw, "nullable") === true;
    if (mode === "structural") this.structural(node, raw, path, cardinality);
    return node;
  }

  /** What only the structural tree has: defaults, pruning rules, extensions, CEL. */
  private structural(node: Node, raw: JsonObject, path: readonly PathSegment[], cardinality: number | undefined): void {
    const def = getKey(raw, "default");
    // A literal `default: null` is dropped when the API server reads the CRD (kubernetes#104969): never applied.
    if (def !== undefined && def !== null) {
      node.hasDefault = true;
      node.default = def;
    }
    if (node.properties) {
      const defaulted = [...node.properties].filter(([, p]) => p.hasDefault);
      if (defaulted.length > 0) node.defaulted = defaulted;
    }
    node.preserveUnknown = getKey(raw, "x-kubernetes-preserve-unknown-fields") === true;
    node.embedded = getKey(raw, "x-kubernetes-embedded-resource") === true;
    const listType = getKey(raw, "x-kubernetes-list-type");
    if (listType === "atomic" || listType === "set" || listType === "map") node.listType = listType;
    const keys = getKey(raw, "x-kubernetes-list-map-keys");
    if (Array.isArray(keys) && keys.every((k) => typeof k === "string")) node.listMapKeys = keys as string[];
    const rules = getKey(raw, "x-kubernetes-validations");
    if (Array.isArray(rules) && rules.length > 0) {
      this.hasCel = true;
      node.cel = this.cel(raw, path, cardinality);
    }
  }

  /** The node's rules, compiled by the CEL module (which ratchets rules without oldSelf itself). */
  private cel(raw: JsonObject, path: readonly PathSegment[], cardinality: number | undefined): CelRules | undefined {
    // the schema's root is a resource's (a CRD version's schema, a built-in kind's)
    const { rules, findings, costs } = compileRules(raw, path, {
      resourceRoot: path.length === 0,
      libraries: this.celLibraries,
      cardinality: cardinality ?? null,
      update: this.update,
    });
    for (const f of findings) this.findings.push(f);
    for (const c of costs) this.costs.push(c);
    return rules;
  }

  /**
   * apiextensions' total of the rules' estimated costs over the schema: past its limit, the (at most four)
   * rules that took a hundredth of it or more, and the schema itself, are refused.
   */
  totalCostFindings(): Finding[] {
    let total = 0;
    for (const c of this.costs) total = Math.min(MAX_COST, total + c.cost);
    if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    const costly = this.costs
      .filter((c) => c.cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100)
      .sort((a, b) => b.cost - a.cost)
      .slice(0, 4);
    const forbidden = (path: readonly PathSegment[], detail: string) =>
      finding({ type: "FieldValueForbidden", path: [...path], detail, rule: "cel" });
    return [
      ...costly.map((c) =>
        forbidden(c.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"),
      ),
      forbidden(
        [],
        costErrorMessage(
          "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
          total,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    ];
  }
}

/** apiextensions validation.go: the most the estimated costs of a schema's rules may add up to. */
const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** math.MaxUint64, where TotalCost saturates. */
const MAX_COST = 2 ** 64;
