/**
 * kunion's CEL evaluator: a checked, instrumented expression compiled once
 * into nested closures (no eval), run over the runtime values of values.ts
 * with the environment's function dispatch, resolved once per call site. It
 * answers what @bufbuild/cel's `plan` answers for the same expression and
 * bindings, error values and their words included, and calls the same
 * functions in the same order, so that cost and work are charged alike (but
 * for `x + [e]` on a plain list, how `map` and `filter` add an item, which
 * appends it as list `+` would, with the same charges, without the one-item
 * list or the dispatch, and which `map` and `filter` themselves do in one
 * array made a list at the end; for `==` and `!=` of two strings or two ints, compared with the
 * same charges without the dispatch; for `in` of a string on kunion's own maps, their `has` with
 * the same charges without the dispatch; and for `dyn(x)` (or another call whose
 * overload is the identity) of a string, number, bool or null, answered with
 * the same charges without the call); the planner's attributes and
 * per-iteration activations become slots of one array (`cel.bind`, a loop
 * over nothing, just binds its slot), and a map literal of
 * a few entries a LiteralMap, which reads as the planner's map does. Each
 * evaluation runs inside a `plan` of one call (hostOf), which sets the
 * registry @bufbuild/cel's functions read for messages, unless no message
 * can occur in it (`messageFree`). What it does not compile
 * (`Unsupported`) the caller leaves to `plan` whole: calls of `type()`, an
 * identifier named like a registry package (`google`), two-variable
 * comprehensions, message literals, and shapes the parser never makes.
 */
import {
  type CelEnv,
  CelScalar,
  type CelValue,
  celEnv,
  celError,
  celList,
  celMap,
  celType,
  celUint,
  isCelError,
  isCelList,
  isCelMap,
  isCelType,
  isCelUint,
  listType,
  mapType,
  parse,
  plan,
} from "@bufbuild/cel";
import { plainType } from "../cost/cost.js";
import { chargeWork, currentMeter } from "../cost/meter.js";
import { type Expr, qualifiedName } from "./checker.js";
import { VAR } from "./syntax.js";
import { ArrayValue, celEquals, celNotEquals, isCelValue, ListValue, LiteralMap, listAdd, MapView } from "./values.js";

/** An evaluation's state: the bindings at 0, then one slot per comprehension variable. */
type Frame = unknown[];
/** A compiled node: a value or an error value; an attribute (`attr`) may also answer undefined, unresolved. */
type Run = (f: Frame) => unknown;

type CallExpr = Extract<Expr["exprKind"], { case: "callExpr" }>["value"];
type Charge = (a0?: unknown, a1?: unknown) => number;
interface Dispatch {
  call(id: number, target: unknown, args: unknown[]): unknown;
  /** The environment's metered dispatch (cost/cost.ts MeteredOverloads) says which overload values of given types reach. */
  sole?(
    target: unknown,
    args: readonly unknown[],
  ): { impl: (...args: unknown[]) => unknown; cost: Charge; built: Charge } | undefined;
  /** A dispatch of one call site's own (MeteredOverloads.site). */
  site?(hasTarget: boolean, arity: 0 | 1 | 2): (id: number, target: unknown, x?: unknown, y?: unknown) => unknown;
}

/** A construct this compiler leaves to `plan` (which refuses it too, or runs it as it always did). */
export class Unsupported extends Error {}

// @bufbuild/cel answers `[]` and `{}` with one list and one map each time: `==` takes identical values as
// equal without charging work (values.ts celEquals), so an empty literal must be that same value here.
const STANDARD = celEnv();
const EMPTY_LIST = plan(STANDARD, parse("[]"))();
const EMPTY_MAP = plan(STANDARD, parse("{}"))();
/** A list of one item, what `x + [v]`'s charges are computed on (they read sizes and kinds, not items). */
const ONE_ITEM = celList([null]);

/**
 * Functions that read the registry of the running evaluation, which only
 * `plan` sets (@bufbuild/cel's `type()` of a message): an expression
 * calling one is left to `plan`.
 */
const NEEDS_PLAN_CONTEXT = new Set(["type"]);

/**
 * isCelError, asked first whether `v` is an Error at all (every error value
 * is one): for the lists and maps of every shape that flow through, a
 * prototype walk is cheaper than the brand lookup.
 */
const isError = (v: unknown): boolean => v instanceof Error && isCelError(v);

const unresolved = (id: number) => celError("unresolved attribute", id);
const fieldNotFound = (id: number, name: unknown) => celError(`field not found: ${String(name)}`, id);
const outOfBounds = (id: number, index: number) => celError(`index ${index} out of bounds [0, -1)`, id);

/** A bound value as the planner's activation hands it out: CEL values as they are, anything else converted. */
function bound(v: unknown): unknown {
  if (isCelValue(v)) return v;
  // A list's get converts its item with @bufbuild/cel's own conversion (toCel), throwing as it throws.
  return celList([v as never]).get(0);
}

/** The types a bare identifier names when no variable has that name; a fresh list and map type each time, as there. */
function typeNamed(name: string): (() => unknown) | undefined {
  switch (name) {
    case "int":
      return () => CelScalar.INT;
    case "uint":
      return () => CelScalar.UINT;
    case "double":
      return () => CelScalar.DOUBLE;
    case "bool":
      return () => CelScalar.BOOL;
    case "string":
      return () => CelScalar.STRING;
    case "bytes":
      return () => CelScalar.BYTES;
    case "list":
      return () => listType(CelScalar.DYN);
    case "map":
      return () => mapType(CelScalar.DYN, CelScalar.DYN);
    case "null_type":
      return () => CelScalar.NULL;
    case "type":
      return () => CelScalar.TYPE;
    default:
      return undefined;
  }
}

/** Values that are neither plain nor containers (messages: timestamps, durations): fields read by `plan`. */
const isPlainObject = (o: object) => o instanceof Uint8Array || isCelList(o) || isCelUint(o) || isCelType(o);

const messageReads = new Map<string, (bindings: Record<string, unknown>) => unknown>();
/** `o.name` or `has(o.name)` of a message, by `plan` (its field reflection and registry). */
function readMessage(o: unknown, name: string, testOnly: boolean): unknown {
  const key = `${testOnly ? "?" : ""}${name}`;
  let read = messageReads.get(key);
  if (read === undefined) {
    const operand = { $typeName: "cel.expr.Expr", id: 1n, exprKind: { case: "identExpr", value: { name: "o" } } };
    read = plan(celEnv(), {
      $typeName: "cel.expr.Expr",
      id: 2n,
      exprKind: { case: "selectExpr", value: { operand, field: name, testOnly } },
    } as unknown as Expr) as (bindings: Record<string, unknown>) => unknown;
    messageReads.set(key, read);
  }
  return read({ o });
}

/** `o.name` (or `o['name']`): a map's entry, a message's field, else an error. */
function byName(o: unknown, name: string, id: number): unknown {
  if (typeof o === "object" && o !== null) {
    if (isCelMap(o)) {
      const v = (o as { get(k: unknown): unknown }).get(name);
      return v === undefined ? fieldNotFound(id, name) : v;
    }
    if (!isPlainObject(o)) return readMessage(o, name, false);
  }
  return fieldNotFound(id, name);
}

/** `has(o.name)`. */
function hasName(o: unknown, name: string): unknown {
  if (typeof o !== "object" || o === null) return false;
  if (isCelMap(o)) return (o as { has(k: unknown): boolean }).has(name);
  if (!isPlainObject(o)) return readMessage(o, name, true);
  return false;
}

/** A map's entry or a list's item at `index`; undefined when there is none. */
function byIndex(o: unknown, index: unknown): unknown {
  if (typeof o !== "object" || o === null) return undefined;
  if (isCelMap(o)) return (o as { get(k: unknown): unknown }).get(index);
  if (isCelList(o)) return (o as { get(i: number): unknown }).get(Number(index));
  return undefined;
}

/** `o[key]` for a key known only at run time, with the planner's error for each kind of key. */
function byKey(o: unknown, key: unknown, id: number): unknown {
  switch (typeof key) {
    case "string":
      return byName(o, key, id);
    case "bigint": {
      const v = byIndex(o, key);
      return v === undefined ? outOfBounds(id, Number(key)) : v;
    }
    case "number": {
      const v = byIndex(o, key);
      return v === undefined ? outOfBounds(id, key) : v;
    }
    case "boolean": {
      const v = byIndex(o, key);
      return v === undefined ? fieldNotFound(id, key) : v;
    }
    default:
      if (isCelUint(key)) {
        const v = byIndex(o, key.value);
        return v === undefined ? outOfBounds(id, Number(key.value)) : v;
      }
      return celError("unsupported key type", id);
  }
}

/** `o[k]` for a constant `k`: the access chosen once, as the planner chooses it. */
function constantAccess(k: unknown, id: number): (o: unknown) => unknown {
  if (typeof k === "string") return (o) => byName(o, k, id);
  if (typeof k === "bigint" || typeof k === "number") {
    // kunion's own lists (a filter's result, a JSON array) read at once, without asking whether they are maps
    const n = Number(k);
    return (o) => {
      if (!(o instanceof ArrayValue || o instanceof ListValue)) return byKey(o, k, id);
      const v = o.get(n);
      return v === undefined ? outOfBounds(id, n) : v;
    };
  }
  if (typeof k === "boolean" || isCelUint(k)) return (o) => byKey(o, k, id);
  const error = celError("unsupported key type", id);
  return () => error;
}

function constant(e: Expr & { exprKind: { case: "constExpr" } }): unknown {
  const c = e.exprKind.value.constantKind;
  switch (c.case) {
    case "stringValue":
    case "bytesValue":
    case "doubleValue":
    case "boolValue":
    case "int64Value":
      return c.value;
    case "uint64Value":
      return celUint(c.value);
    case "nullValue":
      return null;
    default:
      throw new Unsupported(`constant ${c.case}`);
  }
}

const isAttribute = (e: Expr): boolean => {
  const k = e.exprKind;
  if (k.case === "identExpr") return true;
  if (k.case === "selectExpr") return !k.value.testOnly;
  if (k.case === "callExpr") return k.value.function === "_[_]" || k.value.function === "_?_:_";
  return false;
};

/** Whether `e` is a list or map literal of constants (nested ones included). */
function constantLiteral(e: Expr): boolean {
  const k = e.exprKind;
  const isConstant = (x: Expr): boolean => x.exprKind.case === "constExpr" || constantLiteral(x);
  if (k.case === "listExpr") return k.value.elements.every(isConstant);
  if (k.case === "structExpr")
    return (
      k.value.messageName === "" &&
      k.value.entries.every(
        (en) =>
          en.keyKind.case === "mapKey" &&
          isConstant(en.keyKind.value) &&
          en.value !== undefined &&
          isConstant(en.value),
      )
    );
  return false;
}

const packages = new WeakMap<CelEnv, ReadonlySet<string>>();
/** The first segments of the names of `env`'s registry types (`google`), found once per environment. */
function packagesOf(env: CelEnv): ReadonlySet<string> {
  let out = packages.get(env);
  if (out === undefined) {
    const types = env.registry as unknown as Iterable<{ typeName: string }>;
    out = new Set([...types].map((d) => d.typeName.split(".")[0] as string));
    packages.set(env, out);
  }
  return out;
}

class Compiler {
  private slots = 1;
  /** How many comprehension loops (condition, step) enclose the node being compiled. */
  private loops = 0;
  /**
   * First segments of the registry's type names: the planner looks `x.f`
   * up as a type or enum value named `x.f` before it selects `f` from `x`,
   * which only such a name can find; an identifier so named is left to plan.
   */
  private readonly packages: ReadonlySet<string>;

  constructor(
    private readonly env: CelEnv,
    private readonly tick: string | undefined,
  ) {
    if (env.namespace !== "") throw new Unsupported("a namespace");
    this.packages = packagesOf(env);
  }

  get frameSize(): number {
    return this.slots;
  }

  /** `e`'s value, or an error value. */
  value(e: Expr, scope: ReadonlyMap<string, number>): Run {
    const id = Number(e.id);
    const k = e.exprKind;
    switch (k.case) {
      case "constExpr": {
        const v = constant(e as Expr & { exprKind: { case: "constExpr" } });
        return () => v;
      }
      case "identExpr":
        return this.ident(k.value.name, id, scope, "value");
      case "selectExpr": {
        const { operand, field, testOnly } = k.value;
        if (operand === undefined) throw new Unsupported("select without operand");
        if (!testOnly) return this.attr(e, scope, false, true);
        // has(): the operand resolved without the field; unresolved is absent.
        const of = isAttribute(operand) ? this.attr(operand, scope, false) : this.value(operand, scope);
        return (f) => {
          const o = of(f);
          if (o === undefined) return false;
          if (isError(o)) return o;
          return hasName(o, field);
        };
      }
      case "callExpr":
        if (isAttribute(e)) return this.attr(e, scope, false, true);
        return this.call(id, k.value, scope);
      case "listExpr":
      case "structExpr": {
        const build =
          k.case === "listExpr"
            ? this.list(k.value.elements, k.value.optionalIndices, scope)
            : this.map(id, k.value, scope);
        // A literal of constants evaluated at most once per evaluation (outside every loop) is built once:
        // values are immutable, and no two of its values can meet (`==` of the same object charges no work).
        if (this.loops > 0 || !constantLiteral(e)) return build;
        const built = build([]);
        return () => built;
      }
      case "comprehensionExpr":
        return this.comprehension(id, k.value, scope);
      default:
        throw new Unsupported(`expression ${k.case}`);
    }
  }

  /**
   * An identifier: a comprehension variable, else a binding, else (unless a
   * field or index is taken from it, `accessed`) a type's name; undefined
   * when none, or an error for `value`.
   */
  private ident(
    name: string,
    id: number,
    scope: ReadonlyMap<string, number>,
    mode: "value" | "attr" | "accessed",
  ): Run {
    const n = name.startsWith(".") ? name.slice(1) : name;
    if (n.includes(".") || this.packages.has(n)) throw new Unsupported(`identifier ${name}`);
    const slot = scope.get(name);
    if (slot !== undefined) return (f) => f[slot];
    const type = mode === "accessed" ? undefined : typeNamed(n);
    const missing: Run = type ?? (mode === "value" ? () => unresolved(id) : () => undefined);
    return (f) => {
      const raw = (f[0] as Record<string, unknown>)[n];
      if (raw === undefined) return missing(f);
      return isError(raw) ? raw : bound(raw);
    };
  }

  /**
   * An attribute (identifier, select, index, conditional) resolved;
   * `accessed`: a field or index is taken from it. `asValue`: its value,
   * unresolved being an error, answered by the same closure rather than
   * one more around it.
   */
  private attr(e: Expr, scope: ReadonlyMap<string, number>, accessed: boolean, asValue = false): Run {
    const id = Number(e.id);
    const k = e.exprKind;
    if (k.case === "identExpr")
      return this.ident(k.value.name, id, scope, asValue ? "value" : accessed ? "accessed" : "attr");
    if (k.case === "selectExpr") {
      // `a.b.c`: the fields selected in turn by one closure rather than one per select
      const fields: string[] = [];
      const ids: number[] = [];
      let root: Expr = e;
      for (let r = root.exprKind; r.case === "selectExpr" && !r.value.testOnly; r = root.exprKind) {
        if (r.value.operand === undefined) throw new Unsupported("select without operand");
        fields.unshift(r.value.field);
        ids.unshift(Number(root.id));
        root = r.value.operand;
      }
      const of = this.operand(root, scope);
      if (asValue)
        return (f) => {
          let o = of(f);
          for (let i = 0; i < fields.length; i++) {
            if (o === undefined) return unresolved(id);
            if (isError(o)) return o;
            o = byName(o, fields[i] as string, ids[i] as number);
          }
          return o === undefined ? unresolved(id) : o;
        };
      return (f) => {
        let o = of(f);
        for (let i = 0; i < fields.length; i++) {
          if (o === undefined || isError(o)) return o;
          o = byName(o, fields[i] as string, ids[i] as number);
        }
        return o;
      };
    }
    if (k.case !== "callExpr" || k.value.target !== undefined) throw new Unsupported("attribute");
    const args = k.value.args;
    if (k.value.function === "_?_:_") {
      if (args.length !== 3) throw new Unsupported("conditional arity");
      const cond = this.value(args[0] as Expr, scope);
      const branch = (x: Expr) => (isAttribute(x) ? this.attr(x, scope, accessed) : this.value(x, scope));
      const yes = branch(args[1] as Expr);
      const no = branch(args[2] as Expr);
      if (asValue)
        return (f) => {
          const c = cond(f);
          let v: unknown;
          if (c === true) v = yes(f);
          else if (c === false) v = no(f);
          else if (isError(c)) return c;
          else return celError(`found no matching overload for _?_:_ applied to '(${celType(c as never).name})'`, id);
          return v === undefined ? unresolved(id) : v;
        };
      return (f) => {
        const c = cond(f);
        if (c === true) return yes(f);
        if (c === false) return no(f);
        if (isError(c)) return c;
        return celError(`found no matching overload for _?_:_ applied to '(${celType(c as never).name})'`, id);
      };
    }
    // _[_]: the planner's accesses carry the operand's id
    if (args.length !== 2) throw new Unsupported("index arity");
    const operand = args[0] as Expr;
    const index = args[1] as Expr;
    const at = Number(operand.id);
    const of = this.operand(operand, scope);
    if (index.exprKind.case === "constExpr") {
      const access = constantAccess(constant(index as Expr & { exprKind: { case: "constExpr" } }), at);
      if (asValue)
        return (f) => {
          const o = of(f);
          if (o === undefined) return unresolved(id);
          if (isError(o)) return o;
          const v = access(o);
          return v === undefined ? unresolved(id) : v;
        };
      return (f) => {
        const o = of(f);
        if (o === undefined || isError(o)) return o;
        return access(o);
      };
    }
    const key = this.value(index, scope);
    if (asValue)
      return (f) => {
        const o = of(f);
        if (o === undefined) return unresolved(id);
        if (isError(o)) return o;
        const kv = key(f);
        if (isError(kv)) return kv;
        const v = byKey(o, kv, at);
        return v === undefined ? unresolved(id) : v;
      };
    return (f) => {
      const o = of(f);
      if (o === undefined || isError(o)) return o;
      const kv = key(f);
      if (isError(kv)) return kv;
      return byKey(o, kv, at);
    };
  }

  /** What a field or index is taken from. */
  private operand(e: Expr, scope: ReadonlyMap<string, number>): Run {
    return isAttribute(e) ? this.attr(e, scope, true) : this.value(e, scope);
  }

  private call(id: number, call: CallExpr, scope: ReadonlyMap<string, number>): Run {
    const fn = call.function;
    if (NEEDS_PLAN_CONTEXT.has(fn)) throw new Unsupported(`function ${fn}`);
    // `optional.of(x)`, `strings.quote(s)`: a qualified name the environment has is that function, called
    // on the arguments alone (first, as the planner does, whatever the target names).
    if (call.target !== undefined) {
      const q = qualifiedName(call.target);
      if (q !== undefined) {
        const name = `${q}.${fn}`;
        const candidate = name.startsWith(".") ? name.slice(1) : name;
        const d = this.env.funcs.find(candidate) as Dispatch | undefined;
        if (d !== undefined)
          return this.dispatch(
            id,
            candidate,
            d,
            undefined,
            call.args.map((a) => this.value(a, scope)),
          );
      }
    }
    switch (fn) {
      case "_[?_]":
      case "_?._":
        throw new Unsupported(fn);
      case "_&&_":
      case "_||_":
        if (call.target !== undefined) throw new Unsupported(`${fn} with a target`);
        return this.logic(
          id,
          fn === "_&&_",
          call.args.map((a) => this.value(a, scope)),
        );
      case "@not_strictly_false":
      case "__not_strictly_false__": {
        if (call.target !== undefined || call.args.length === 0) throw new Unsupported(fn);
        const arg = this.value(call.args[0] as Expr, scope);
        return (f) => arg(f) !== false;
      }
      case this.tick: {
        // cost/instrument.ts's tick: its condition, then its constant weight charged to the running meter
        const [cond, weight] = call.args;
        if (call.target !== undefined || call.args.length !== 2 || weight?.exprKind.case !== "constExpr") break;
        const value = this.value(cond as Expr, scope);
        const charge = Number(constant(weight as Expr & { exprKind: { case: "constExpr" } }));
        return (f) => {
          const v = value(f);
          if (isError(v)) return v;
          currentMeter()?.charge(charge);
          return v;
        };
      }
      case VAR:
        // selectFromVariables' marker: it answers its argument (environment.ts), so no call is made
        if (call.target === undefined && call.args.length === 1) return this.value(call.args[0] as Expr, scope);
        break;
      default:
        break;
    }
    const d = this.env.funcs.find(fn) as Dispatch | undefined;
    if (d === undefined) {
      const error = celError(`unbound function: ${fn}`, id);
      return () => error;
    }
    if (fn === "_+_" && call.target === undefined && call.args.length === 2) {
      const append = this.append(id, d, call.args[0] as Expr, call.args[1] as Expr, scope);
      if (append !== undefined) return append;
    }
    if (call.target === undefined && call.args.length === 1) {
      const same = this.identity(id, fn, d, call.args[0] as Expr, scope);
      if (same !== undefined) return same;
    }
    const target = call.target === undefined ? undefined : this.value(call.target, scope);
    return this.dispatch(
      id,
      fn,
      d,
      target,
      call.args.map((a) => this.value(a, scope)),
    );
  }

  /**
   * A call: the target, then each argument, the first error answered; then
   * the overloads, through a dispatch of this call site's own when the
   * environment makes one (cost/cost.ts MeteredOverloads.site), so that no
   * array is made for up to two arguments.
   */
  private dispatch(id: number, name: string, d: Dispatch, target: Run | undefined, args: Run[]): Run {
    const none = (t: unknown, vals: unknown[]) => noOverload(id, name, t, vals);
    if (args.length <= 2) {
      const arity = args.length as 0 | 1 | 2;
      const call =
        d.site?.(target !== undefined, arity) ??
        ((id: number, t: unknown, x?: unknown, y?: unknown) =>
          d.call(id, t, arity === 0 ? [] : arity === 1 ? [x] : [x, y]));
      const [a, b] = args;
      if (target === undefined) {
        if (a === undefined)
          return () => {
            const out = call(id, undefined);
            return out !== undefined ? out : none(undefined, []);
          };
        if (b === undefined)
          return (f) => {
            const x = a(f);
            if (isError(x)) return x;
            const out = call(id, undefined, x);
            return out !== undefined ? out : none(undefined, [x]);
          };
        const equality = name === "_==_" || name === "_!=_";
        const strings = equality ? scalarEquality<string>(d, "") : undefined;
        const ints = equality ? scalarEquality<bigint>(d, 0n) : undefined;
        if (strings !== undefined || ints !== undefined)
          return (f) => {
            const x = a(f);
            if (isError(x)) return x;
            const y = b(f);
            if (isError(y)) return y;
            if (typeof x === "string") {
              if (typeof y === "string" && strings !== undefined) return strings(id, x, y);
            } else if (typeof x === "bigint" && typeof y === "bigint" && ints !== undefined) return ints(id, x, y);
            const out = call(id, undefined, x, y);
            return out !== undefined ? out : none(undefined, [x, y]);
          };
        const has = name === "@in" ? membership(d) : undefined;
        if (has !== undefined)
          return (f) => {
            const x = a(f);
            if (isError(x)) return x;
            const y = b(f);
            if (isError(y)) return y;
            if (typeof x === "string" && (y instanceof MapView || y instanceof LiteralMap)) return has(id, x, y);
            const out = call(id, undefined, x, y);
            return out !== undefined ? out : none(undefined, [x, y]);
          };
        return (f) => {
          const x = a(f);
          if (isError(x)) return x;
          const y = b(f);
          if (isError(y)) return y;
          const out = call(id, undefined, x, y);
          return out !== undefined ? out : none(undefined, [x, y]);
        };
      }
      if (a === undefined)
        return (f) => {
          const t = target(f);
          if (isError(t)) return t;
          const out = call(id, t);
          return out !== undefined ? out : none(t, []);
        };
      if (b === undefined)
        return (f) => {
          const t = target(f);
          if (isError(t)) return t;
          const x = a(f);
          if (isError(x)) return x;
          const out = call(id, t, x);
          return out !== undefined ? out : none(t, [x]);
        };
      return (f) => {
        const t = target(f);
        if (isError(t)) return t;
        const x = a(f);
        if (isError(x)) return x;
        const y = b(f);
        if (isError(y)) return y;
        const out = call(id, t, x, y);
        return out !== undefined ? out : none(t, [x, y]);
      };
    }
    return (f) => {
      const t = target?.(f);
      if (isError(t)) return t;
      const vals: unknown[] = [];
      for (const a of args) {
        const x = a(f);
        if (isError(x)) return x;
        vals.push(x);
      }
      const out = d.call(id, t, vals);
      return out !== undefined ? out : none(t, vals);
    };
  }

  /**
   * `x + [e]`, how `map` and `filter` add to their result: when `x` is a
   * plain list (the empty literal, or one `+` made) and `e`'s value is a CEL
   * value as it is (a list literal's item would be converted), the call the
   * dispatch makes, list `+` (values.ts listAdd), charged as it charges,
   * without the one-item list; otherwise that list and the call. Undefined
   * when `[e]` is not a one-item list or list `+` is not what the dispatch
   * calls for two lists.
   */
  private append(
    id: number,
    d: Dispatch,
    left: Expr,
    right: Expr,
    scope: ReadonlyMap<string, number>,
  ): Run | undefined {
    const k = right.exprKind;
    if (k.case !== "listExpr" || k.value.elements.length !== 1 || k.value.optionalIndices.length > 0) return undefined;
    const plus = d.sole?.(undefined, [EMPTY_LIST, EMPTY_LIST]);
    if (plus === undefined || plus.impl !== listAdd) return undefined;
    const { cost, built } = plus;
    const list = this.value(left, scope);
    const item = this.value(k.value.elements[0] as Expr, scope);
    const call = (x: unknown, l: unknown) => {
      const out = d.call(id, undefined, [x, l]);
      return out !== undefined ? out : noOverload(id, "_+_", undefined, [x, l]);
    };
    return (f) => {
      const x = list(f);
      if (isError(x)) return x;
      const v = item(f);
      if (isError(v)) return v;
      if (!((x === EMPTY_LIST || (x instanceof ArrayValue && x.listType === "atomic")) && isCelValue(v)))
        return call(x, celList([v as never]));
      const meter = currentMeter();
      if (meter !== undefined) meter.charge(cost(x, ONE_ITEM), built(x, ONE_ITEM));
      try {
        return ArrayValue.append(x as never, v as never);
      } catch (e) {
        // as the dispatch's direct call answers what an implementation throws (WorkExceeded)
        return celError(e, id);
      }
    };
  }

  /**
   * `f(x)` where the dispatch answers `x` itself for a string, int, bool,
   * double or null (its one overload for that type being @bufbuild/cel's
   * identity, as for `dyn(x)`, `double(d)`, `bool(b)`): charged as it
   * charges, `x` answered without the call. Other values, and types it
   * calls something else for, go through the dispatch. Undefined when no
   * such type has the identity.
   */
  private identity(
    id: number,
    name: string,
    d: Dispatch,
    arg: Expr,
    scope: ReadonlyMap<string, number>,
  ): Run | undefined {
    const identity = this.identityImpl();
    if (identity === undefined) return undefined;
    const byType = PRIMITIVES.map((v) => {
      const sole = d.sole?.(undefined, [v]);
      return sole?.impl === identity ? sole : undefined;
    });
    if (byType.every((x) => x === undefined)) return undefined;
    const a = this.value(arg, scope);
    // the dispatch as dispatch() calls it for one argument
    const call = d.site?.(false, 1) ?? ((id: number, _t: unknown, x?: unknown) => d.call(id, undefined, [x]));
    return (f) => {
      const x = a(f);
      if (isError(x)) return x;
      const i = plainType(x);
      const sole = i < 0 ? undefined : byType[i];
      if (sole === undefined) {
        const out = call(id, undefined, x);
        return out !== undefined ? out : noOverload(id, name, undefined, [x]);
      }
      const meter = currentMeter();
      if (meter !== undefined) meter.charge(sole.cost(x), sole.built(x));
      return x;
    };
  }

  /** The implementation the environment's `dyn` calls: @bufbuild/cel's identity, which its conversions to their own type share. */
  private identityImpl(): unknown {
    const dyn = this.env.funcs.find("dyn") as Dispatch | undefined;
    return dyn?.sole?.(undefined, [null])?.impl;
  }

  /** `&&` and `||`: every argument until one decides; then the first error, a non-bool being one. */
  private logic(id: number, and: boolean, args: Run[]): Run {
    return (f) => {
      let error: unknown;
      for (const a of args) {
        const v = a(f);
        if (typeof v === "boolean") {
          if (v !== and) return v;
          continue;
        }
        const e = isError(v) ? v : celError(`type mismatch: expected bool, got ${celType(v as never)}`, id);
        error ??= e;
      }
      return error === undefined ? and : error;
    };
  }

  private list(elements: Expr[], optionalIndices: readonly number[], scope: ReadonlyMap<string, number>): Run {
    for (const i of optionalIndices) if (i < 0 || i >= elements.length) throw new Unsupported("optional index");
    // Optional entries are taken as plain ones, as the planner takes them.
    if (elements.length === 0) return () => EMPTY_LIST;
    const items = elements.map((x) => this.value(x, scope));
    return (f) => {
      const out: unknown[] = new Array(items.length);
      for (let i = 0; i < items.length; i++) {
        const v = (items[i] as Run)(f);
        if (isError(v)) return v;
        out[i] = v;
      }
      return celList(out as never);
    };
  }

  private map(
    id: number,
    st: Extract<Expr["exprKind"], { case: "structExpr" }>["value"],
    scope: ReadonlyMap<string, number>,
  ): Run {
    if (st.messageName !== "") throw new Unsupported("message literal");
    if (st.entries.length === 0) return () => EMPTY_MAP;
    const keyRuns: Run[] = [];
    const valueRuns: Run[] = [];
    for (const en of st.entries) {
      if (en.keyKind.case !== "mapKey" || en.value === undefined) throw new Unsupported("map entry");
      keyRuns.push(this.value(en.keyKind.value, scope));
      valueRuns.push(this.value(en.value, scope));
    }
    if (keyRuns.length > LiteralMap.MAX)
      return (f) => {
        const out = new Map<unknown, unknown>();
        for (let i = 0; i < keyRuns.length; i++) {
          const k = mapKey((keyRuns[i] as Run)(f), id);
          if (isError(k)) return k;
          const v = (valueRuns[i] as Run)(f);
          if (isError(v)) return v;
          if (out.has(k)) return celError(`map key conflict: ${k}`, id);
          out.set(k, v);
        }
        return celMap(out as never);
      };
    // Distinct constant keys (a literal's usual shape): found once, one array that every map made here shares
    // (mapKey makes no NaN, the one key indexOf and a Map's SameValueZero tell apart differently)
    const keyExprs = st.entries.map((en) => en.keyKind.value as Expr);
    const constantKeys = keyExprs.every((k) => k.exprKind.case === "constExpr")
      ? keyExprs.map((k) => mapKey(constant(k as Expr & { exprKind: { case: "constExpr" } }), id))
      : [];
    if (
      constantKeys.length === keyRuns.length &&
      constantKeys.every((k, i) => !isError(k) && constantKeys.indexOf(k) === i)
    )
      return (f) => {
        const values: unknown[] = [];
        let plain = true;
        for (let i = 0; i < valueRuns.length; i++) {
          const v = (valueRuns[i] as Run)(f);
          if (isError(v)) return v;
          values.push(v);
          if (plain && !isCelValue(v)) plain = false;
        }
        if (plain) return new LiteralMap(constantKeys, values as CelValue[]);
        return celMap(new Map(constantKeys.map((k, i) => [k, values[i]])) as never);
      };
    return (f) => {
      const keys: unknown[] = [];
      const values: unknown[] = [];
      let plain = true;
      for (let i = 0; i < keyRuns.length; i++) {
        const k = mapKey((keyRuns[i] as Run)(f), id);
        if (isError(k)) return k;
        const v = (valueRuns[i] as Run)(f);
        if (isError(v)) return v;
        // includes compares as a Map's keys do (SameValueZero)
        if (keys.includes(k)) return celError(`map key conflict: ${k}`, id);
        keys.push(k);
        values.push(v);
        if (plain && !isCelValue(v)) plain = false;
      }
      // a value to convert (a message) goes where @bufbuild/cel converts it on every read
      if (plain) return new LiteralMap(keys, values as CelValue[]);
      return celMap(new Map(keys.map((k, i) => [k, values[i]])) as never);
    };
  }

  /** The weight of a loop condition that is cost/instrument.ts's tick of the constant `true`; undefined otherwise. */
  private tickOfTrue(e: Expr): number | undefined {
    const k = e.exprKind;
    if (k.case !== "callExpr" || k.value.function !== this.tick || k.value.target !== undefined) return undefined;
    const [cond, weight] = k.value.args;
    if (k.value.args.length !== 2 || cond?.exprKind.case !== "constExpr" || weight?.exprKind.case !== "constExpr")
      return undefined;
    if (constant(cond as Expr & { exprKind: { case: "constExpr" } }) !== true) return undefined;
    return Number(constant(weight as Expr & { exprKind: { case: "constExpr" } }));
  }

  /**
   * `map` and `filter` (and `map` with a filter): a comprehension from `[]`
   * whose condition is (the tick of) `true`, whose step is `@result +
   * [item]` or `test ? @result + [item] : @result` and whose result is
   * `@result`, `test` and `item` not reading `@result`, when list `+` is
   * listAdd for two lists. Run over one array, made a list at the end,
   * instead of a list per item: the same calls in the same order, charged
   * as the step charges them (the tick, the test, the item, then list `+`,
   * whose cost and work do not depend on the lists' sizes), the errors it
   * answers kept as the accumulator would keep them. An item that is not a
   * CEL value as it is (a message) goes to the dispatch as the step sends
   * it, and the loop goes on from what that answers. Undefined for other
   * shapes.
   */
  private listMacro(
    id: number,
    c: Extract<Expr["exprKind"], { case: "comprehensionExpr" }>["value"],
    range: Run,
    iter: number,
    iter2: number | undefined,
    inLoop: ReadonlyMap<string, number>,
  ): Run | undefined {
    const { accuVar, accuInit, loopCondition, loopStep, result } = c;
    const isAccu = (e: Expr | undefined) => e?.exprKind.case === "identExpr" && e.exprKind.value.name === accuVar;
    if (
      accuInit?.exprKind.case !== "listExpr" ||
      accuInit.exprKind.value.elements.length > 0 ||
      loopCondition === undefined ||
      loopStep === undefined ||
      !isAccu(result)
    )
      return undefined;
    const weight = this.tickOfTrue(loopCondition);
    const isTrue =
      loopCondition.exprKind.case === "constExpr" &&
      constant(loopCondition as Expr & { exprKind: { case: "constExpr" } }) === true;
    if (weight === undefined && !isTrue) return undefined;
    // the step: `@result + [item]`, or that under `test ? … : @result`
    let test: Expr | undefined;
    let add = loopStep;
    let conditionalId = 0;
    const k = loopStep.exprKind;
    if (k.case === "callExpr" && k.value.function === "_?_:_" && k.value.target === undefined) {
      const [t, yes, no] = k.value.args;
      if (k.value.args.length !== 3 || yes === undefined || !isAccu(no)) return undefined;
      test = t;
      add = yes;
      conditionalId = Number(loopStep.id);
    }
    const a = add.exprKind;
    if (a.case !== "callExpr" || a.value.function !== "_+_" || a.value.target !== undefined) return undefined;
    const [left, right] = a.value.args;
    if (a.value.args.length !== 2 || !isAccu(left) || right?.exprKind.case !== "listExpr") return undefined;
    const one = right.exprKind.value;
    if (one.elements.length !== 1 || one.optionalIndices.length > 0) return undefined;
    const itemExpr = one.elements[0] as Expr;
    if ((test !== undefined && reads(test, accuVar)) || reads(itemExpr, accuVar)) return undefined;
    const d = this.env.funcs.find("_+_") as Dispatch | undefined;
    const plus = d?.sole?.(undefined, [EMPTY_LIST, EMPTY_LIST]);
    if (d === undefined || plus === undefined || plus.impl !== listAdd) return undefined;
    // list + charges the same whatever the lists' sizes (cost/cost.ts; the differential test holds it)
    const cost = plus.cost(EMPTY_LIST, ONE_ITEM);
    const builtCost = plus.built(EMPTY_LIST, ONE_ITEM);
    const addId = Number(add.id);
    this.loops++;
    const testRun = test === undefined ? undefined : this.value(test, inLoop);
    const item = this.value(itemExpr, inLoop);
    this.loops--;
    /** The step's `@result + [v]` for an accumulator `x` that is a list: as `append` does it. */
    const addTo = (x: unknown, v: unknown): unknown => {
      if (!((x === EMPTY_LIST || (x instanceof ArrayValue && x.listType === "atomic")) && isCelValue(v))) {
        const l = celList([v as never]);
        const out = d.call(addId, undefined, [x, l]);
        return out !== undefined ? out : noOverload(addId, "_+_", undefined, [x, l]);
      }
      currentMeter()?.charge(cost, builtCost);
      try {
        return ArrayValue.append(x as never, v as never);
      } catch (e) {
        return celError(e, addId);
      }
    };
    return (f) => {
      const r = range(f);
      if (isError(r)) return r;
      let keys: unknown[] | undefined;
      let list: { size: number; get(i: number): unknown } | undefined;
      let map: { get(key: unknown): unknown } | undefined;
      if (isCelMap(r)) {
        const m = r as unknown as { keys(): Iterable<unknown>; get(key: unknown): unknown };
        keys = Array.from(m.keys());
        map = m;
      } else if (isCelList(r)) list = r as unknown as { size: number; get(i: number): unknown };
      else return celError(`type mismatch: iterable vs ${celType(r as never)}`, id);
      const n = keys !== undefined ? keys.length : (list as { size: number }).size;
      // the items added while the accumulator is the list of them; else the accumulator itself
      const items: CelValue[] = [];
      let accumulator: unknown;
      for (let i = 0; i < n; i++) {
        let x = keys !== undefined ? keys[i] : (list as { get(i: number): unknown }).get(i);
        if (isError(x)) return x;
        if (iter2 !== undefined) {
          f[iter2] = keys !== undefined ? (map as { get(key: unknown): unknown }).get(x) : x;
          if (keys === undefined) x = BigInt(i);
        }
        f[iter] = x;
        if (weight !== undefined) currentMeter()?.charge(weight);
        if (testRun !== undefined) {
          const t = testRun(f);
          if (t === false) continue;
          if (t !== true) {
            accumulator = isError(t)
              ? t
              : celError(
                  `found no matching overload for _?_:_ applied to '(${celType(t as never).name})'`,
                  conditionalId,
                );
            continue;
          }
        }
        if (accumulator !== undefined) {
          if (isError(accumulator)) continue;
          const v = item(f);
          accumulator = isError(v) ? v : addTo(accumulator, v);
          continue;
        }
        const v = item(f);
        if (isError(v)) {
          accumulator = v;
          continue;
        }
        if (!isCelValue(v)) {
          accumulator = addTo(items.length === 0 ? EMPTY_LIST : ArrayValue.grown(items), v);
          continue;
        }
        currentMeter()?.charge(cost, builtCost);
        try {
          chargeWork(1);
        } catch (e) {
          accumulator = celError(e, addId);
          continue;
        }
        items.push(v as CelValue);
      }
      if (accumulator !== undefined) return accumulator;
      return items.length === 0 ? EMPTY_LIST : ArrayValue.grown(items);
    };
  }

  private comprehension(
    id: number,
    c: Extract<Expr["exprKind"], { case: "comprehensionExpr" }>["value"],
    scope: ReadonlyMap<string, number>,
  ): Run {
    const { iterRange, accuInit, loopCondition, loopStep, result } = c;
    if (!iterRange || !accuInit || !loopCondition || !loopStep || !result) throw new Unsupported("comprehension");
    const init = this.value(accuInit, scope);
    const range = this.value(iterRange, scope);
    const accu = this.slots++;
    const iter = this.slots++;
    // the second variable (cel-go's ext.TwoVarComprehensions): a list's item or a map's value, the first being
    // its index or key
    const iter2 = c.iterVar2 === "" ? undefined : this.slots++;
    const inAccu = new Map(scope).set(c.accuVar, accu);
    const inLoop = new Map(inAccu).set(c.iterVar, iter);
    if (iter2 !== undefined) inLoop.set(c.iterVar2, iter2);
    const built = this.listMacro(id, c, range, iter, iter2, inLoop);
    if (built !== undefined) return built;
    this.loops++;
    const cond = this.value(loopCondition, inLoop);
    const step = this.value(loopStep, inLoop);
    this.loops--;
    const done = this.value(result, inAccu);
    const weight = this.tickOfTrue(loopCondition);
    // cel.bind: no item to loop over, the accumulator is the bound value
    if (iterRange.exprKind.case === "listExpr" && iterRange.exprKind.value.elements.length === 0)
      return (f) => {
        const start = init(f);
        if (isError(start)) return start;
        f[accu] = start;
        return done(f);
      };
    const loop =
      weight === undefined
        ? (f: Frame, item: unknown): boolean | unknown => {
            if (isError(item)) return item;
            f[iter] = item;
            const ok = cond(f);
            if (isError(ok)) return ok;
            if (ok !== true) return false;
            f[accu] = step(f);
            return true;
          }
        : // the condition of map and filter: its charge, then the step, without evaluating `true`
          (f: Frame, item: unknown): boolean | unknown => {
            if (isError(item)) return item;
            f[iter] = item;
            currentMeter()?.charge(weight);
            f[accu] = step(f);
            return true;
          };
    return (f) => {
      const start = init(f);
      if (isError(start)) return start;
      const r = range(f);
      if (isError(r)) return r;
      f[accu] = start;
      if (isCelMap(r)) {
        const map = r as unknown as { keys(): Iterable<unknown>; get(key: unknown): unknown };
        for (const key of Array.from(map.keys())) {
          if (iter2 !== undefined) f[iter2] = map.get(key);
          const go = loop(f, key);
          if (go !== true) {
            if (go === false) break;
            return go;
          }
        }
      } else if (isCelList(r)) {
        // The planner copies a list's items first (Array.from); reading each as the loop reaches it gives the
        // same items, in order, without building the rest when the loop stops early.
        const list = r as unknown as { size: number; get(i: number): unknown };
        for (let i = 0, n = list.size; i < n; i++) {
          if (iter2 !== undefined) {
            const item = list.get(i);
            if (isError(item)) return item;
            f[iter2] = item;
          }
          const go = loop(f, iter2 === undefined ? list.get(i) : BigInt(i));
          if (go !== true) {
            if (go === false) break;
            return go;
          }
        }
      } else return celError(`type mismatch: iterable vs ${celType(r as never)}`, id);
      return done(f);
    };
  }
}

/**
 * `==` or `!=` of two strings (or two ints, as `sample`'s type), when the
 * dispatch calls celEquals or its negation alone for them: charged as the
 * call is (its cost, then the one unit of work celEquals charges for values
 * not identical, an error value if that runs out), without the dispatch's
 * type lookups; two such values are equal when identical. Undefined
 * otherwise.
 */
function scalarEquality<T extends string | bigint>(
  d: Dispatch,
  sample: T,
): ((id: number, x: T, y: T) => unknown) | undefined {
  const sole = d.sole?.(undefined, [sample, sample]);
  if (sole === undefined || (sole.impl !== celEquals && sole.impl !== celNotEquals)) return undefined;
  const { cost, built } = sole;
  const equal = sole.impl === celEquals;
  return (id, x, y) => {
    const meter = currentMeter();
    if (meter !== undefined) meter.charge(cost(x, y), built(x, y));
    if (x === y) return equal;
    try {
      chargeWork(1);
    } catch (e) {
      return celError(e, id);
    }
    return !equal;
  };
}

/** The implementation of @bufbuild/cel's standard overload `overloadId` (its `_impl`, canary.test.ts). */
function standardImpl(overloadId: string): unknown {
  for (const f of STANDARD.funcs) if (f.id === overloadId) return (f as unknown as { _impl?: unknown })._impl;
  return undefined;
}

/** @bufbuild/cel's `in` of a string on a map: `map.has(value)` (canary.test.ts). */
const IN_MAP = standardImpl("@in(string,map)");

/**
 * `x in m` of a string on one of kunion's own maps (MapView's kinds, a
 * LiteralMap), when the dispatch calls @bufbuild/cel's own `in` alone for a
 * string and a map: charged as the call is (its cost, which a map's size
 * does not change, and what it builds, before it runs; the differential
 * test holds both), then the map's `has`, without the dispatch's type
 * lookups. Undefined otherwise.
 */
function membership(d: Dispatch): ((id: number, x: string, m: MapView | LiteralMap) => unknown) | undefined {
  const sole = d.sole?.(undefined, ["", EMPTY_MAP]);
  if (sole === undefined || IN_MAP === undefined || sole.impl !== IN_MAP) return undefined;
  const cost = sole.cost("", EMPTY_MAP);
  const built = sole.built("", EMPTY_MAP);
  return (id, x, m) => {
    currentMeter()?.charge(cost, built);
    try {
      return m.has(x);
    } catch (e) {
      // as the dispatch's direct call answers what an implementation throws
      return celError(e, id);
    }
  };
}

/** Whether `e` reads the variable `name` (not a comprehension's own variable of that name). */
function reads(e: Expr, name: string): boolean {
  const k = e.exprKind;
  switch (k.case) {
    case "identExpr":
      return k.value.name === name;
    case "selectExpr":
      return k.value.operand !== undefined && reads(k.value.operand, name);
    case "callExpr":
      return (k.value.target !== undefined && reads(k.value.target, name)) || k.value.args.some((x) => reads(x, name));
    case "listExpr":
      return k.value.elements.some((x) => reads(x, name));
    case "structExpr":
      return k.value.entries.some(
        (en) =>
          (en.keyKind.case === "mapKey" && reads(en.keyKind.value, name)) ||
          (en.value !== undefined && reads(en.value, name)),
      );
    case "comprehensionExpr": {
      const c = k.value;
      const under = (x: Expr | undefined) => x !== undefined && reads(x, name);
      if (under(c.iterRange) || under(c.accuInit)) return true;
      if (c.accuVar === name) return false;
      if (under(c.result)) return true;
      if (c.iterVar === name || c.iterVar2 === name) return false;
      return under(c.loopCondition) || under(c.loopStep);
    }
    default:
      return false;
  }
}

/** A string, an int, a bool, a double and null, at their plainType indices (0 to 4). */
const PRIMITIVES: readonly unknown[] = ["", 0n, false, 0.5, null];

/** A map literal's key: bool, int, uint and string; an integral double as an int. */
function mapKey(key: unknown, id: number): unknown {
  switch (typeof key) {
    case "boolean":
    case "bigint":
    case "string":
      return key;
    case "number":
      return Number.isInteger(key) ? BigInt(key) : celError("unsupported key type", id);
    case "object":
      // an error value too: the planner answers it as an unsupported key
      return isCelUint(key) ? key : celError("unsupported key type", id);
    default:
      return celError("unsupported key type", id);
  }
}

function noOverload(id: number, name: string, target: unknown, vals: unknown[]): unknown {
  const on = target !== undefined ? `${celType(target as never)}.` : "";
  const types = vals.map((x) => celType(x as never).name).join(", ");
  return celError(`found no matching overload for '${name}' applied to '${on}(${types})'`, id);
}

/** What the host function (below) runs next: the root of an evaluation and its frame. */
let nextRoot: Run = () => undefined;
let nextFrame: Frame = [];

const HOST = "@kunion_evaluate";
const hosts = new WeakMap<CelEnv, (bindings?: Record<string, unknown>) => unknown>();

/**
 * `plan` of a call of one function that runs the evaluation set up in
 * nextRoot/nextFrame, in `env` (its registry): @bufbuild/cel's functions
 * read the registry of the running evaluation (a duration they return is
 * made a CEL value through it), which only `plan` sets.
 */
function hostOf(env: CelEnv): (bindings?: Record<string, unknown>) => unknown {
  let host = hosts.get(env);
  if (host === undefined) {
    const run = { call: () => nextRoot(nextFrame) };
    const funcs = {
      find: (name: string) => (name === HOST ? run : undefined),
      [Symbol.iterator]: () => [][Symbol.iterator](),
    };
    const inEnv = Object.create(env, { funcs: { value: funcs } }) as CelEnv;
    const call = {
      $typeName: "cel.expr.Expr",
      id: 1n,
      exprKind: { case: "callExpr", value: { function: HOST, args: [] } },
    } as unknown as Expr;
    host = plan(inEnv, call) as (bindings?: Record<string, unknown>) => unknown;
    hosts.set(env, host);
  }
  return host;
}

/**
 * `expr` (variables selected from directly, language/syntax.ts) compiled in
 * `env`: a function of the bindings, as `plan` returns. `tick` names the
 * function cost/instrument.ts wraps loop conditions in, which `env` runs as
 * "charge the constant weight, answer the condition": it is run so without
 * a call. `messageFree`: the caller knows that no value of an evaluation is
 * a protobuf message (its bindings hold none and `expr` calls no function
 * that makes one), and @bufbuild/cel reads the registry only for a message
 * (converting, comparing or unpacking one), for `type()` and for message
 * literals (both left to `plan`): it is run without the host. Throws
 * Unsupported.
 */
export function compile(
  expr: Expr,
  env: CelEnv,
  tick?: string,
  messageFree = false,
): (bindings: Record<string, unknown>) => unknown {
  const compiler = new Compiler(env, tick);
  const body = compiler.value(expr, new Map());
  const size = compiler.frameSize;
  const id = Number(expr.id);
  const root: Run = (f) => {
    try {
      return body(f);
    } catch (e) {
      // as plan() does: what a function throws (the meter's CostExceeded) ends the evaluation in an error value
      return celError(e, id);
    }
  };
  if (messageFree)
    return (bindings) => {
      const f: Frame = new Array(size);
      f[0] = bindings;
      return root(f);
    };
  const host = hostOf(env);
  return (bindings) => {
    const f: Frame = new Array(size);
    f[0] = bindings;
    nextRoot = root;
    nextFrame = f;
    // no bindings for the host: its one call reads none (and `plan` then makes no activation)
    return host(undefined);
  };
}
