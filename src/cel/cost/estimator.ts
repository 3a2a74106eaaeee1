/**
 * The static cost estimate of a checked expression, as cel-go's checker/cost.go computes it when the API
 * server compiles a CRD's rule (with PresenceTestHasCost(false), as its base environment sets): each node's
 * cost range, from sizes that come from the expression itself (literals, concatenations), from the schema
 * (a SizeEstimator over the paths from `self`), or from the types (scalars are 1); a comprehension costs its
 * range's size times its step and condition. A call is priced by the libraries' estimators first
 * (estimates.ts), then by cel-go's own switch on the standard overloads, else 1 plus its arguments.
 */
import { type Checker, type Expr, OPT_INDEX, OPT_SELECT, qualifiedName } from "../language/checker.js";
import type { Overload } from "../language/signatures.js";
import { type CelT, DYN } from "../language/types.js";
import { type AstNodeInfo, type CallEstimate, MAX, type Range, type SizeEstimator } from "./estimate-types.js";
import {
  addRanges as add,
  multiplyRangeByFactor as byFactor,
  fixedRange as fixed,
  LIST_CREATE_BASE_COST,
  libraryCallEstimate,
  multiplyRanges as multiply,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
  STRUCT_CREATE_BASE_COST,
  UNKNOWN_SIZE as UNKNOWN,
  unionRanges as union,
} from "./estimates.js";

/** cel-go common/cost.go. */
const SELECT_AND_IDENT = fixed(1);
const CONST = fixed(0);
const LIST_CREATE = fixed(LIST_CREATE_BASE_COST);
const MAP_CREATE = fixed(30);
const STRUCT_CREATE = fixed(STRUCT_CREATE_BASE_COST);
const STRING_TRAVERSAL = STRING_TRAVERSAL_COST_FACTOR;
const REGEX_STRING_LENGTH = REGEX_STRING_LENGTH_COST_FACTOR;
/** PresenceTestHasCost(false): a `has()` adds nothing to its operand's cost. */
const PRESENCE_TEST = fixed(0);
const NONE: Range = { min: 0, max: 0 };

/** The accumulators of the macros (parser.AccumulatorName, HiddenAccumulatorName). */
const isAccumulator = (name: string) => name === "@result" || name === "__result__";

/** A container's entries: its kind, and the sizes of its keys (a list's indices) and values. */
interface EntrySize {
  container: "list" | "map";
  key: Range;
  val: Range;
}

interface LocalVar {
  path: readonly string[];
  size: Range | undefined;
  entrySize: EntrySize | undefined;
}

/** The checked expression the estimate walks: its root, the checker that typed it, its chained selects. */
export interface CheckedExpr {
  expr: Expr;
  checker: Checker;
  /** The optional selects that are plain selects in cel-go's AST (syntax.ts Parsed.chained). */
  chained: ReadonlySet<bigint>;
}

/** The cost range of `checked`, its variables' sizes from `sizeOf` (cel-go checker.Cost). */
export function estimateCost(checked: CheckedExpr, sizeOf: SizeEstimator): Range {
  return new Coster(checked, sizeOf).cost(checked.expr);
}

class Coster {
  private readonly paths = new Map<bigint, readonly string[]>();
  private readonly locals = new Map<string, LocalVar[]>();
  private readonly sizes = new Map<bigint, Range>();
  private readonly entrySizes = new Map<bigint, EntrySize>();
  /** The int literals among the nodes made for calls (the extensions' estimators read them). */
  private readonly literals = new WeakMap<AstNodeInfo, bigint>();

  private readonly checker: Checker;
  private readonly chained: ReadonlySet<bigint>;

  constructor(
    checked: CheckedExpr,
    private readonly sizeOf: SizeEstimator,
  ) {
    this.checker = checked.checker;
    this.chained = checked.chained;
  }

  cost(e: Expr | undefined): Range {
    if (e === undefined) return NONE;
    const k = e.exprKind;
    switch (k.case) {
      case "constExpr":
        return CONST;
      case "identExpr":
        return this.ident(e, k.value.name);
      case "selectExpr":
        return this.select(e, k.value);
      case "callExpr":
        return this.call(e, k.value);
      case "listExpr":
        return this.list(e, k.value.elements);
      case "structExpr":
        return k.value.messageName === "" ? this.map(e, k.value.entries) : this.struct(k.value.entries);
      case "comprehensionExpr":
        return isBind(k.value) ? this.bind(e, k.value) : this.comprehension(e, k.value);
      default:
        return NONE;
    }
  }

  private typeOf(e: Expr): CelT {
    const t = this.checker.types.get(e.id);
    return t === undefined ? DYN : this.checker.finalize(t);
  }

  private ident(e: Expr, name: string): Range {
    const local = this.peek(name);
    this.paths.set(e.id, local !== undefined ? local.path : [name]);
    return SELECT_AND_IDENT;
  }

  private select(e: Expr, sel: Extract<Expr["exprKind"], { case: "selectExpr" }>["value"]): Range {
    if (sel.testOnly) return add(PRESENCE_TEST, this.cost(sel.operand));
    let sum = this.cost(sel.operand);
    if (sel.operand === undefined) return sum;
    const k = this.typeOf(sel.operand).k;
    if (k === "map" || k === "object" || k === "var") sum = add(sum, SELECT_AND_IDENT);
    this.paths.set(e.id, [...this.pathOf(sel.operand), sel.field]);
    return sum;
  }

  private call(e: Expr, call: Extract<Expr["exprKind"], { case: "callExpr" }>["value"]): Range {
    const { function: fn, args } = call;
    // a select past an optional one: cel-go's plain select on an optional, which adds nothing to its operand
    if (this.chained.has(e.id) && args[0] !== undefined && args[1]?.exprKind.case === "constExpr") {
      const field = String(args[1].exprKind.value.constantKind.value);
      const sum = this.cost(args[0]);
      this.paths.set(e.id, [...this.pathOf(args[0]), field]);
      return sum;
    }
    // dyn() only turns type-checking off: 1 and its argument, whose sizes it takes
    if (fn === "dyn" && call.target === undefined && args.length === 1) {
      const argCost = this.cost(args[0]);
      this.copySizes(e, args[0] as Expr);
      return add(fixed(1), argCost);
    }
    const argCosts = args.map((a) => this.cost(a));
    const argNodes = args.map((a) => this.node(a));
    const ids = overloadIds(fn, this.checker.overloads.get(e.id));
    if (ids.length === 0) return NONE;
    let sum = NONE;
    let target: AstNodeInfo | undefined;
    // a namespace (`sets` of sets.contains, `ip` of ip.isCanonical) the checker never typed: no receiver
    const namespace = call.target !== undefined && !this.checker.types.has(call.target.id);
    if (call.target !== undefined && !namespace) {
      sum = add(sum, this.cost(call.target));
      target = this.node(call.target);
    }
    const name = namespace && call.target !== undefined ? `${qualifiedName(call.target)}.${fn}` : fn;
    let fnCost: Range = { min: MAX, max: 0 };
    let resultSize: Range | undefined;
    for (const id of ids) {
      const est = this.functionCost(e, name, id, target, argNodes, argCosts);
      fnCost = union(fnCost, est.cost);
      if (est.resultSize !== undefined)
        resultSize = resultSize === undefined ? est.resultSize : union(resultSize, est.resultSize);
      // index operations track the path to their items or values
      if ((id === "index_list" || id === "index_map") && args[0] !== undefined) {
        resultSize = this.entrySizeOf(args[0])?.val;
        this.paths.set(e.id, [...this.pathOf(args[0]), id === "index_list" ? "@items" : "@values"]);
      }
      resultSize ??= this.sizeOfExpr(e);
    }
    if (resultSize !== undefined) this.sizes.set(e.id, resultSize);
    return add(sum, fnCost);
  }

  private functionCost(
    e: Expr,
    fn: string,
    id: string,
    target: AstNodeInfo | undefined,
    args: readonly AstNodeInfo[],
    argCosts: readonly Range[],
  ): CallEstimate {
    const argSum = argCosts.reduce(add, NONE);
    const sizeOrUnknown = (n: AstNodeInfo) => n.computedSize ?? UNKNOWN;
    // Kubernetes' estimator sizes a node its own way (cost.go sizeEstimate): computed, else by its path
    const librarySize = (n: AstNodeInfo) =>
      n.computedSize ?? (n.path !== undefined && n.path.length > 0 ? this.sizeOf(n.path) : undefined) ?? UNKNOWN;
    const library = libraryCallEstimate(fn, target, args, librarySize, (n) => this.literals.get(n));
    if (library !== undefined) return { cost: add(library.cost, argSum), resultSize: library.resultSize };
    const [a0, a1, a2] = args;
    switch (id) {
      case "string_to_bytes":
        if (a0 !== undefined) {
          const sz = sizeOrUnknown(a0);
          return {
            cost: add(byFactor(sz, STRING_TRAVERSAL), argSum),
            resultSize: { min: sz.min, max: Math.min(MAX, sz.max * 4) },
          };
        }
        break;
      case "bytes_to_string":
        if (a0 !== undefined) {
          const sz = sizeOrUnknown(a0);
          return {
            cost: add(byFactor(sz, STRING_TRAVERSAL), argSum),
            resultSize: { min: Math.floor(sz.min / 4), max: sz.max },
          };
        }
        break;
      case "starts_with_string":
      case "ends_with_string":
        if (a0 !== undefined) return { cost: add(byFactor(sizeOrUnknown(a0), STRING_TRAVERSAL), argSum) };
        break;
      case "in_list":
        if (a1 !== undefined) return { cost: add(byFactor(sizeOrUnknown(a1), 1), argSum) };
        break;
      case "matches_string":
        if (target !== undefined && a0 !== undefined) {
          // one more than the string, so that an empty string against a costly regex is not free
          const str = byFactor(add(sizeOrUnknown(target), fixed(1)), STRING_TRAVERSAL);
          const regex = byFactor(sizeOrUnknown(a0), REGEX_STRING_LENGTH);
          return { cost: add(multiply(str, regex), argSum) };
        }
        break;
      case "contains_string":
        if (target !== undefined && a0 !== undefined) {
          const str = byFactor(sizeOrUnknown(target), STRING_TRAVERSAL);
          const sub = byFactor(sizeOrUnknown(a0), STRING_TRAVERSAL);
          return { cost: add(multiply(str, sub), argSum) };
        }
        break;
      case "logical_and":
      case "logical_or": {
        // the least is the left side's alone, when it decides
        const [lhs = NONE, rhs = NONE] = argCosts;
        return { cost: { min: lhs.min, max: add(lhs, rhs).max } };
      }
      case "conditional": {
        const size = union(a1 ? sizeOrUnknown(a1) : UNKNOWN, a2 ? sizeOrUnknown(a2) : UNKNOWN);
        const call = e.exprKind.case === "callExpr" ? e.exprKind.value : undefined;
        const entry = unionEntry(this.entrySizeOf(call?.args[1]), this.entrySizeOf(call?.args[2]));
        if (entry !== undefined) this.entrySizes.set(e.id, entry);
        const [cond = NONE, yes = NONE, no = NONE] = argCosts;
        return { cost: add(cond, union(yes, no)), resultSize: size };
      }
      case "add_string":
      case "add_bytes":
      case "add_list":
        if (a0 !== undefined && a1 !== undefined) {
          const resultSize = add(sizeOrUnknown(a0), sizeOrUnknown(a1));
          const call = e.exprKind.case === "callExpr" ? e.exprKind.value : undefined;
          const entry = unionEntry(this.entrySizeOf(call?.args[0]), this.entrySizeOf(call?.args[1]));
          if (entry !== undefined) this.entrySizes.set(e.id, entry);
          // list concatenation is O(1): priced here for its size
          if (id === "add_list") return { cost: add(fixed(1), argSum), resultSize };
          return { cost: add(byFactor(resultSize, STRING_TRAVERSAL), argSum), resultSize };
        }
        break;
      case "compare_string":
      case "equals": {
        const lhs = a0 ? sizeOrUnknown(a0) : UNKNOWN;
        const rhs = a1 ? sizeOrUnknown(a1) : UNKNOWN;
        const smallestMax = Math.min(lhs.max, rhs.max);
        const cost = byFactor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL);
        return { cost: add(cost, argSum) };
      }
      default:
        break;
    }
    return { cost: add(fixed(1), argSum) };
  }

  private list(e: Expr, elements: readonly Expr[]): Range {
    let sum = NONE;
    let itemSize: Range = { min: elements.length === 0 ? 0 : MAX, max: 0 };
    for (const item of elements) {
      sum = add(sum, this.cost(item));
      itemSize = union(itemSize, this.sizeOfExpr(item) ?? UNKNOWN);
    }
    this.entrySizes.set(e.id, { container: "list", key: fixed(1), val: itemSize });
    return add(sum, LIST_CREATE);
  }

  private map(e: Expr, entries: Extract<Expr["exprKind"], { case: "structExpr" }>["value"]["entries"]): Range {
    let sum = NONE;
    const empty = entries.length === 0;
    let keySize: Range = { min: empty ? 0 : MAX, max: 0 };
    let valSize: Range = { min: empty ? 0 : MAX, max: 0 };
    for (const entry of entries) {
      const key = entry.keyKind.case === "mapKey" ? entry.keyKind.value : undefined;
      sum = add(add(sum, this.cost(key)), this.cost(entry.value));
      keySize = union(keySize, (key && this.sizeOfExpr(key)) ?? UNKNOWN);
      valSize = union(valSize, (entry.value && this.sizeOfExpr(entry.value)) ?? UNKNOWN);
    }
    this.entrySizes.set(e.id, { container: "map", key: keySize, val: valSize });
    return add(sum, MAP_CREATE);
  }

  private struct(entries: Extract<Expr["exprKind"], { case: "structExpr" }>["value"]["entries"]): Range {
    let sum = NONE;
    for (const entry of entries) sum = add(sum, this.cost(entry.value));
    return add(sum, STRUCT_CREATE);
  }

  private comprehension(e: Expr, c: Comprehension): Range {
    let sum = add(this.cost(c.iterRange), this.cost(c.accuInit));
    this.pushLocal(c.accuVar, c.accuInit as Expr);
    const range = c.iterRange as Expr;
    const entry = this.entrySizeOf(range);
    const container = entry?.container ?? (this.typeOf(range).k === "list" ? "list" : "map");
    const path = this.pathOf(range);
    if (c.iterVar2 !== "") {
      this.push(c.iterVar, {
        path: [...path, container === "list" ? "@indices" : "@keys"],
        size: entry?.key,
        entrySize: undefined,
      });
      this.push(c.iterVar2, {
        path: [...path, container === "list" ? "@items" : "@values"],
        size: entry?.val,
        entrySize: undefined,
      });
    } else {
      const size = container === "list" ? entry?.val : entry?.key;
      this.push(c.iterVar, { path: [...path, container === "list" ? "@items" : "@keys"], size, entrySize: undefined });
    }
    const loopCost = this.cost(c.loopCondition);
    const stepCost = this.cost(c.loopStep);
    this.pop(c.iterVar);
    if (c.iterVar2 !== "") this.pop(c.iterVar2);
    sum = add(sum, this.cost(c.result));
    this.pop(c.accuVar);
    const count = this.sizeOfExpr(range) ?? UNKNOWN;
    sum = add(sum, multiply(count, add(stepCost, loopCost)));
    const init = c.accuInit as Expr;
    if (init.exprKind.case === "constExpr") {
      const size = this.sizeOfExpr(init);
      if (size !== undefined) this.sizes.set(e.id, size);
    } else if (init.exprKind.case === "listExpr" || init.exprKind.case === "structExpr") {
      this.sizes.set(e.id, count);
      const stepEntry = this.entrySizeOf(c.loopStep);
      if (stepEntry !== undefined) this.entrySizes.set(e.id, stepEntry);
    }
    return sum;
  }

  /** cel.bind: the bound value and the result, the empty range priced as any; the result's sizes are the bind's. */
  private bind(e: Expr, c: Comprehension): Range {
    let sum = add(this.cost(c.iterRange), this.cost(c.accuInit));
    this.pushLocal(c.accuVar, c.accuInit as Expr);
    sum = add(sum, this.cost(c.result));
    this.pop(c.accuVar);
    this.copySizes(e, c.result as Expr);
    return sum;
  }

  // --- sizes, paths and local variables (cel-go computeSize, computeEntrySize, getPath, scopes) ---

  private node(e: Expr): AstNodeInfo {
    const path = this.pathOf(e);
    const node: AstNodeInfo = {
      // none where cel-go tracks none (a literal, a call's result: Kubernetes then sizes its items by type alone,
      // as unknown), nor an accumulator's
      path: path.length === 0 || isAccumulator(path[0] as string) ? undefined : path,
      type: this.typeOf(e),
      computedSize: this.sizeOfExpr(e),
    };
    const k = e.exprKind;
    if (k.case === "constExpr" && k.value.constantKind.case === "int64Value")
      this.literals.set(node, k.value.constantKind.value);
    return node;
  }

  private pathOf(e: Expr): readonly string[] {
    if (e.exprKind.case === "identExpr") {
      const local = this.peek(e.exprKind.value.name);
      if (local !== undefined) return local.path;
    }
    return this.paths.get(e.id) ?? [];
  }

  /** cel-go computeSize: a size computed for the node, its literal's, the schema's, a scalar's 1, a local's. */
  private sizeOfExpr(e: Expr): Range | undefined {
    const known = this.sizes.get(e.id);
    if (known !== undefined) return known;
    const literal = literalSize(e);
    if (literal !== undefined) return literal;
    const path = this.pathOf(e);
    const estimated = path.length > 0 ? this.sizeOf(path) : undefined;
    if (estimated !== undefined) {
      this.sizes.set(e.id, estimated);
      return estimated;
    }
    if (isScalar(this.typeOf(e))) return fixed(1);
    if (e.exprKind.case === "identExpr") return this.peek(e.exprKind.value.name)?.size;
    return undefined;
  }

  private entrySizeOf(e: Expr | undefined): EntrySize | undefined {
    if (e === undefined) return undefined;
    const known = this.entrySizes.get(e.id);
    if (known !== undefined) return known;
    if (e.exprKind.case === "identExpr") return this.peek(e.exprKind.value.name)?.entrySize;
    return undefined;
  }

  private copySizes(to: Expr, from: Expr): void {
    const size = this.sizeOfExpr(from);
    if (size !== undefined) this.sizes.set(to.id, size);
    const entry = this.entrySizeOf(from);
    if (entry !== undefined) this.entrySizes.set(to.id, entry);
  }

  private pushLocal(name: string, e: Expr): void {
    this.push(name, { path: this.pathOf(e), size: this.sizeOfExpr(e), entrySize: this.entrySizeOf(e) });
  }

  private push(name: string, v: LocalVar): void {
    const stack = this.locals.get(name);
    if (stack === undefined) this.locals.set(name, [v]);
    else stack.push(v);
  }

  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }

  private peek(name: string): LocalVar | undefined {
    return this.locals.get(name)?.at(-1);
  }
}

type Comprehension = Extract<Expr["exprKind"], { case: "comprehensionExpr" }>["value"];

/** cel.bind as cel-go tells it: an empty range, a false condition, an accumulator of its own name. */
function isBind(c: Comprehension): boolean {
  const range = c.iterRange?.exprKind;
  const cond = c.loopCondition?.exprKind;
  return (
    range?.case === "listExpr" &&
    range.value.elements.length === 0 &&
    cond?.case === "constExpr" &&
    cond.value.constantKind.case === "boolValue" &&
    cond.value.constantKind.value === false &&
    !isAccumulator(c.accuVar)
  );
}

/** cel-go computeExprSize: a literal's size (a string's code points), a list's or map's entries. */
function literalSize(e: Expr): Range | undefined {
  const k = e.exprKind;
  if (k.case === "constExpr") {
    const c = k.value.constantKind;
    if (c.case === "stringValue") return fixed([...c.value].length);
    if (c.case === "bytesValue") return fixed(c.value.length);
    return c.case === undefined ? undefined : fixed(1);
  }
  if (k.case === "listExpr") return fixed(k.value.elements.length);
  if (k.case === "structExpr" && k.value.messageName === "") return fixed(k.value.entries.length);
  return undefined;
}

/** cel-go isScalar: a value of fixed size (strings, bytes, lists and maps are not). */
function isScalar(t: CelT): boolean {
  switch (t.k) {
    case "bool":
    case "double":
    case "duration":
    case "int":
    case "timestamp":
    case "uint":
      return true;
    case "opaque":
      return t.name === "optional_type" && isScalar(t.params[0] ?? DYN);
    default:
      return false;
  }
}

function unionEntry(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (a === undefined || b === undefined) return undefined;
  return { container: a.container, key: union(a.key, b.key), val: union(a.val, b.val) };
}

/**
 * The cel-go overload ids cel-go's own switch prices, for the overloads the checker matched (the ids of the
 * rest do not matter: they cost 1); the logical operators and the conditional, which the checker types
 * itself, by their names.
 */
function overloadIds(fn: string, matched: readonly Overload[] | undefined): string[] {
  switch (fn) {
    case "_&&_":
      return ["logical_and"];
    case "_||_":
      return ["logical_or"];
    case "_?_:_":
      return ["conditional"];
    case "@not_strictly_false":
    case "__not_strictly_false__":
      return ["not_strictly_false"];
    case OPT_SELECT:
      return ["select_optional_field"];
    case OPT_INDEX:
      return ["optional_index"];
    default:
      break;
  }
  return (matched ?? []).map((o) => overloadId(o));
}

function overloadId(o: Overload): string {
  const [p0, p1] = o.params;
  const k0 = p0?.k;
  const k1 = p1?.k;
  switch (o.name) {
    case "matches":
      return o.target?.k === "string" ? "matches_string" : "matches";
    case "contains":
      return o.target?.k === "string" ? "contains_string" : o.name;
    case "startsWith":
      return o.target?.k === "string" ? "starts_with_string" : o.name;
    case "endsWith":
      return o.target?.k === "string" ? "ends_with_string" : o.name;
    case "@in":
      return k1 === "list" ? "in_list" : "in_map";
    case "_+_":
      if (k0 === "string" && k1 === "string") return "add_string";
      if (k0 === "bytes" && k1 === "bytes") return "add_bytes";
      if (k0 === "list" && k1 === "list") return "add_list";
      return "add";
    case "_<_":
    case "_<=_":
    case "_>_":
    case "_>=_":
      return (k0 === "string" && k1 === "string") || (k0 === "bytes" && k1 === "bytes") ? "compare_string" : "compare";
    case "_==_":
    case "_!=_":
      return "equals";
    case "bytes":
      return k0 === "string" ? "string_to_bytes" : o.name;
    case "string":
      return k0 === "bytes" ? "bytes_to_string" : o.name;
    case "_[_]":
      return k0 === "list" ? "index_list" : "index_map";
    default:
      return o.name;
  }
}
