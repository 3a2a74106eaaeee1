/**
 * A CEL type checker for rules (cel-go `checker` semantics, reduced to what
 * Kubernetes rules need): resolves identifiers, fields of schema object types,
 * overloads with type parameters, homogeneous aggregate literals, comprehension
 * variables and optional types, and reports errors in cel-go's words
 * (`undeclared reference to 'x' (in container '')`, `undefined field 'x'`,
 * `found no matching overload for '_+_' applied to '(int, string)'`).
 */
import type { parse } from "@bufbuild/cel";
import type { Overload } from "./signatures.js";
import {
  BOOL,
  BYTES,
  type CelT,
  DOUBLE,
  DYN,
  ERROR,
  INT,
  listOf,
  mapOf,
  NULL,
  optionalOf,
  STRING,
  typeKey,
  typeName,
  typeOf,
  UINT,
} from "./types.js";

export type Expr = ReturnType<typeof parse>["expr"];

export interface CheckIssue {
  /** Offset of the offending node in the source. */
  offset: number;
  message: string;
}

export interface FunctionTable {
  /** Overloads by function name. */
  byName: ReadonlyMap<string, readonly Overload[]>;
}

export function functionTable(...lists: ReadonlyArray<readonly Overload[]>): FunctionTable {
  const byName = new Map<string, Overload[]>();
  for (const list of lists)
    for (const o of list) {
      const group = byName.get(o.name);
      if (group === undefined) byName.set(o.name, [o]);
      else group.push(o);
    }
  return { byName };
}

/** Internal functions introduced by the rewriter (optional selection/indexing). */
export const OPT_SELECT = "@kunion_opt_select";
export const OPT_INDEX = "@kunion_opt_index";

const TYPE_IDENTS: Record<string, CelT> = {
  int: typeOf(INT),
  uint: typeOf(UINT),
  double: typeOf(DOUBLE),
  bool: typeOf(BOOL),
  string: typeOf(STRING),
  bytes: typeOf(BYTES),
  list: typeOf(listOf(DYN)),
  map: typeOf(mapOf(DYN, DYN)),
  null_type: typeOf(NULL),
  type: typeOf(typeOf()),
  dyn: typeOf(DYN),
};

/** Whether `name` is a type's name (`int`, `string`, ...) where no variable hides it. */
export const isTypeIdent = (name: string): boolean => Object.hasOwn(TYPE_IDENTS, name);

type Scope = ReadonlyMap<string, CelT>;

/** A message type the environment resolves by name, for a `Name{field: value}` literal. */
export interface StructType {
  type: CelT;
  /** The type of a field; undefined when the type has no such field. */
  field(name: string): CelT | undefined;
}

/** The message types of an environment by name (cel-go's type provider); schema rules have none. */
export type StructTypes = (name: string) => StructType | undefined;

export class Checker {
  private subst = new Map<string, CelT>();
  private fresh = 0;
  readonly issues: CheckIssue[] = [];
  /** The selections found on an optional: what syntax.ts withOptionalSelects makes them for the runtime. */
  readonly optionalSelects = new Set<bigint>();

  constructor(
    private readonly fns: FunctionTable,
    private readonly positions: Readonly<Record<string, number>>,
    private readonly structs: StructTypes = () => undefined,
  ) {}

  private pos(e: { id: bigint }): number {
    return this.positions[String(e.id)] ?? 0;
  }
  private error(e: { id: bigint }, message: string): CelT {
    this.issues.push({ offset: this.pos(e), message });
    return ERROR;
  }

  /** The type of `e` with type parameters resolved as far as known (unbound ones become dyn). */
  check(e: Expr, scope: Scope): CelT {
    return this.finalize(this.visit(e, scope));
  }

  finalize(t: CelT): CelT {
    const r = this.resolve(t);
    switch (r.k) {
      case "var":
        return DYN;
      case "list":
        return { ...r, elem: this.finalize(r.elem) };
      case "map":
        return mapOf(this.finalize(r.key), this.finalize(r.val));
      case "opaque":
        return r.params.length === 0 ? r : { k: "opaque", name: r.name, params: r.params.map((p) => this.finalize(p)) };
      case "type":
        return r.of === undefined ? r : typeOf(this.finalize(r.of));
      default:
        return r;
    }
  }

  private resolve(t: CelT): CelT {
    let cur = t;
    for (let i = 0; cur.k === "var" && i < 1000; i++) {
      const next = this.subst.get(cur.name);
      if (next === undefined) return cur;
      cur = next;
    }
    return cur;
  }

  private freshVar(): CelT {
    return { k: "var", name: `_T${this.fresh++}` };
  }

  private occurs(name: string, t: CelT): boolean {
    const r = this.resolve(t);
    switch (r.k) {
      case "var":
        return r.name === name;
      case "list":
        return this.occurs(name, r.elem);
      case "map":
        return this.occurs(name, r.key) || this.occurs(name, r.val);
      case "opaque":
        return r.params.some((p) => this.occurs(name, p));
      case "type":
        return r.of !== undefined && this.occurs(name, r.of);
      default:
        return false;
    }
  }

  /** cel-go `isAssignable`: may bind type variables (in `this.subst`). */
  private assignable(a0: CelT, b0: CelT): boolean {
    const a = this.resolve(a0);
    const b = this.resolve(b0);
    if (a === b) return true;
    if (a.k === "var") {
      if (b.k === "var" && b.name === a.name) return true;
      if (this.occurs(a.name, b)) return false;
      this.subst.set(a.name, b);
      return true;
    }
    if (b.k === "var") {
      if (this.occurs(b.name, a)) return false;
      this.subst.set(b.name, a);
      return true;
    }
    if (a.k === "dyn" || b.k === "dyn" || a.k === "error" || b.k === "error") return true;
    if (a.k === "null") return b.k === "null" || nullable(b);
    if (b.k === "null") return nullable(a);
    if (a.k !== b.k) return false;
    switch (a.k) {
      case "list":
        return this.assignable(a.elem, (b as typeof a).elem);
      case "map":
        return this.assignable(a.key, (b as typeof a).key) && this.assignable(a.val, (b as typeof a).val);
      case "object":
        return typeKey(a) === typeKey(b);
      case "opaque": {
        const o = b as typeof a;
        if (a.name !== o.name || a.params.length !== o.params.length) return false;
        return a.params.every((p, i) => this.assignable(p, o.params[i] as CelT));
      }
      case "type":
        return true;
      default:
        return true;
    }
  }

  /** Tries `assignable` and rolls back variable bindings when it fails. */
  private tryAssign(a: CelT, b: CelT): boolean {
    const saved = new Map(this.subst);
    if (this.assignable(a, b)) return true;
    this.subst = saved;
    return false;
  }

  private instantiate(o: Overload): Overload {
    const names = new Map<string, CelT>();
    const inst = (t: CelT): CelT => {
      switch (t.k) {
        case "var": {
          let v = names.get(t.name);
          if (v === undefined) {
            v = this.freshVar();
            names.set(t.name, v);
          }
          return v;
        }
        case "list":
          return listOf(inst(t.elem));
        case "map":
          return mapOf(inst(t.key), inst(t.val));
        case "opaque":
          return t.params.length === 0 ? t : { k: "opaque", name: t.name, params: t.params.map(inst) };
        case "type":
          return t.of === undefined ? t : typeOf(inst(t.of));
        default:
          return t;
      }
    };
    return {
      name: o.name,
      target: o.target === undefined ? undefined : inst(o.target),
      params: o.params.map(inst),
      result: inst(o.result),
    };
  }

  private display(t: CelT): string {
    return typeName(this.finalizeForDisplay(t));
  }
  private finalizeForDisplay(t: CelT): CelT {
    const r = this.resolve(t);
    switch (r.k) {
      case "list":
        return listOf(this.finalizeForDisplay(r.elem));
      case "map":
        return mapOf(this.finalizeForDisplay(r.key), this.finalizeForDisplay(r.val));
      case "opaque":
        return { k: "opaque", name: r.name, params: r.params.map((p) => this.finalizeForDisplay(p)) };
      default:
        return r;
    }
  }

  /** Resolves an overloaded call; reports cel-go's error when nothing matches. */
  private call(e: Expr, name: string, target: CelT | undefined, args: readonly CelT[]): CelT {
    const group = this.fns.byName.get(name);
    if (group === undefined) return this.error(e, `undeclared reference to '${name}' (in container '')`);
    if (args.some((a) => this.resolve(a).k === "error") || (target && this.resolve(target).k === "error")) return ERROR;
    const results: CelT[] = [];
    const matched: Overload[] = [];
    let savedAfter: Map<string, CelT> | undefined;
    for (const raw of group) {
      if ((raw.target === undefined) !== (target === undefined)) continue;
      if (raw.params.length !== args.length) continue;
      const o = this.instantiate(raw);
      const saved = new Map(this.subst);
      let ok = o.target === undefined || this.assignable(o.target, target as CelT);
      for (let i = 0; ok && i < args.length; i++) ok = this.assignable(o.params[i] as CelT, args[i] as CelT);
      if (ok) {
        results.push(o.result);
        matched.push(raw);
        if (savedAfter === undefined) savedAfter = new Map(this.subst);
      }
      this.subst = saved;
    }
    this.overloads.set(e.id, matched);
    if (results.length === 0) {
      const t = target === undefined ? "" : `${this.display(target)}.`;
      return this.error(
        e,
        `found no matching overload for '${name}' applied to '${t}(${args.map((a) => this.display(a)).join(", ")})'`,
      );
    }
    if (results.length === 1 && savedAfter !== undefined) {
      this.subst = savedAfter;
      return results[0] as CelT;
    }
    // several overloads match (dyn arguments): the common result type, else dyn
    const first = this.finalize(results[0] as CelT);
    const same = results.every((r) => typeKey(this.finalize(r)) === typeKey(first));
    return same ? first : DYN;
  }

  /** Each node's type as checked (type parameters resolved as far as known: finalize() them), by id. */
  readonly types = new Map<bigint, CelT>();
  /** Each call's overloads that its arguments' types match (several only with dyn arguments), by id. */
  readonly overloads = new Map<bigint, readonly Overload[]>();

  private visit(e: Expr, scope: Scope): CelT {
    const t = this.visitNode(e, scope);
    this.types.set(e.id, t);
    return t;
  }

  private visitNode(e: Expr, scope: Scope): CelT {
    const k = e.exprKind;
    switch (k.case) {
      case "constExpr":
        switch (k.value.constantKind.case) {
          case "int64Value":
            return INT;
          case "uint64Value":
            return UINT;
          case "doubleValue":
            return DOUBLE;
          case "stringValue":
            return STRING;
          case "bytesValue":
            return BYTES;
          case "boolValue":
            return BOOL;
          case "nullValue":
            return NULL;
          default:
            return this.error(e, "unsupported constant");
        }
      case "identExpr": {
        const name = k.value.name;
        const t = scope.get(name);
        if (t !== undefined) return t;
        const ti = TYPE_IDENTS[name];
        if (ti !== undefined) return ti;
        return this.error(e, `undeclared reference to '${name}' (in container '')`);
      }
      case "selectExpr": {
        const sel = k.value;
        if (sel.operand === undefined) return this.error(e, "invalid select");
        const qualified = qualifiedName(e);
        // a variable whose declared name has dots (admission's `authorizer.requestResource`) before a field of its prefix
        const declared = qualified === undefined ? undefined : scope.get(qualified);
        if (declared !== undefined && !sel.testOnly) return declared;
        if (qualified !== undefined && !scope.has(qualified.split(".")[0] as string)) {
          const ti = TYPE_IDENTS[qualified];
          if (ti !== undefined) return ti;
        }
        const operand = this.resolve(this.visit(sel.operand, scope));
        // cel-go's checkSelectField: a field of an optional (`oldSelf.spec` with optionalOldSelf) is an optional
        const optional = operand.k === "opaque" && operand.name === "optional_type";
        if (optional) this.optionalSelects.add(e.id);
        const field = this.selectField(e, optional ? this.resolve(operand.params[0] ?? DYN) : operand, sel.field);
        if (field.k === "error") return ERROR;
        return sel.testOnly ? BOOL : optional ? optionalOf(field) : field;
      }
      case "callExpr":
        return this.visitCall(e, k.value, scope);
      case "listExpr": {
        const elems = k.value.elements.map((x) => this.visit(x, scope));
        if (elems.length === 0) return listOf(this.freshVar());
        const first = elems[0] as CelT;
        let elem = first;
        for (let i = 1; i < elems.length; i++) {
          const t = elems[i] as CelT;
          if (!this.tryAssign(elem, t)) {
            this.error(
              k.value.elements[i] as Expr,
              `expected type '${this.display(elem)}' but found '${this.display(t)}'`,
            );
            elem = DYN;
          } else if (this.resolve(elem).k === "dyn") elem = DYN;
        }
        return listOf(elem);
      }
      case "structExpr": {
        const st = k.value;
        if (st.messageName !== "") {
          const struct = this.structs(st.messageName);
          if (struct === undefined)
            return this.error(e, `undeclared reference to '${st.messageName}' (in container '')`);
          // cel-go's checkCreateStruct: each field the type has, its value assignable to the field's type
          for (const entry of st.entries) {
            if (entry.keyKind.case !== "fieldKey" || entry.value === undefined)
              return this.error(e, "invalid struct entry");
            const name = entry.keyKind.value;
            const vt = this.visit(entry.value, scope);
            const ft = struct.field(name);
            if (ft === undefined) this.error(entry, `undefined field '${name}'`);
            else if (!this.tryAssign(ft, vt))
              this.error(
                entry,
                `expected type of field '${name}' is '${this.display(ft)}' but provided type is '${this.display(vt)}'`,
              );
          }
          return struct.type;
        }
        let key: CelT | undefined;
        let val: CelT | undefined;
        for (const entry of st.entries) {
          if (entry.keyKind.case !== "mapKey" || entry.value === undefined) return this.error(e, "invalid map entry");
          const kt = this.visit(entry.keyKind.value, scope);
          const vt = this.visit(entry.value, scope);
          if (key === undefined) key = kt;
          else if (!this.tryAssign(key, kt))
            this.error(entry.keyKind.value, `expected type '${this.display(key)}' but found '${this.display(kt)}'`);
          if (val === undefined) val = vt;
          else if (!this.tryAssign(val, vt))
            this.error(entry.value, `expected type '${this.display(val)}' but found '${this.display(vt)}'`);
        }
        return mapOf(key ?? this.freshVar(), val ?? this.freshVar());
      }
      case "comprehensionExpr": {
        const c = k.value;
        if (!c.iterRange || !c.accuInit || !c.loopCondition || !c.loopStep || !c.result)
          return this.error(e, "invalid comprehension");
        const range = this.resolve(this.visit(c.iterRange, scope));
        let iterT: CelT;
        let iterT2: CelT | undefined;
        switch (range.k) {
          case "list":
            iterT = c.iterVar2 ? INT : range.elem;
            iterT2 = c.iterVar2 ? range.elem : undefined;
            break;
          case "map":
            iterT = range.key;
            iterT2 = c.iterVar2 ? range.val : undefined;
            break;
          case "dyn":
          case "error":
          case "var":
            iterT = DYN;
            iterT2 = DYN;
            break;
          default:
            this.error(
              c.iterRange,
              `expression of type '${this.display(range)}' cannot be the range of a comprehension (must be list, map, or dynamic)`,
            );
            iterT = DYN;
            iterT2 = DYN;
        }
        const accuT = this.visit(c.accuInit, scope);
        const inner = new Map(scope);
        inner.set(c.accuVar, accuT);
        inner.set(c.iterVar, iterT);
        if (c.iterVar2) inner.set(c.iterVar2, iterT2 ?? DYN);
        const cond = this.visit(c.loopCondition, inner);
        if (!this.tryAssign(BOOL, cond))
          this.error(c.loopCondition, `expected type 'bool' but found '${this.display(cond)}'`);
        const step = this.visit(c.loopStep, inner);
        if (!this.tryAssign(accuT, step))
          this.error(c.loopStep, `expected type '${this.display(accuT)}' but found '${this.display(step)}'`);
        const resultScope = new Map(scope);
        resultScope.set(c.accuVar, accuT);
        return this.visit(c.result, resultScope);
      }
      default:
        return this.error(e, "unsupported expression");
    }
  }

  private selectField(e: Expr, operand: CelT, field: string): CelT {
    switch (operand.k) {
      case "object": {
        const f = operand.fields.get(field);
        if (f === undefined) return this.error(e, `undefined field '${field}'`);
        return f.type;
      }
      case "map":
        if (!this.tryAssign(operand.key, STRING))
          return this.error(e, `type '${this.display(operand)}' does not support field selection`);
        return operand.val;
      case "dyn":
      case "var":
        return DYN;
      case "error":
        return ERROR;
      default:
        return this.error(e, `type '${this.display(operand)}' does not support field selection`);
    }
  }

  private visitCall(e: Expr, call: Extract<Expr["exprKind"], { case: "callExpr" }>["value"], scope: Scope): CelT {
    const fn = call.function;
    // qualified function names: format.dns1123Label(), optional.of(x), ip.isCanonical(s), strings.quote(s)
    if (call.target !== undefined) {
      const q = qualifiedName(call.target);
      if (q !== undefined && !scope.has(q.split(".")[0] as string) && this.fns.byName.has(`${q}.${fn}`)) {
        const args = call.args.map((a) => this.visit(a, scope));
        return this.call(e, `${q}.${fn}`, undefined, args);
      }
    }
    switch (fn) {
      case "_&&_":
      case "_||_": {
        // cel-go's one overload, (bool, bool) -> bool: an argument of another type refuses the call, at the call
        const types = call.args.map((a) => this.visit(a, scope));
        if (types.some((t) => this.resolve(t).k === "error")) return BOOL;
        if (!types.every((t) => this.tryAssign(BOOL, t)))
          this.error(
            e,
            `found no matching overload for '${fn}' applied to '(${types.map((t) => this.display(t)).join(", ")})'`,
          );
        return BOOL;
      }
      case "@not_strictly_false":
      case "__not_strictly_false__":
        for (const a of call.args) this.visit(a, scope);
        return BOOL;
      case "_?_:_": {
        const [c, t, f] = call.args;
        if (c === undefined || t === undefined || f === undefined) return this.error(e, "invalid conditional");
        const ct = this.visit(c, scope);
        const tt = this.visit(t, scope);
        const ft = this.visit(f, scope);
        if (!this.tryAssign(BOOL, ct) || !this.tryAssign(tt, ft) || !this.tryAssign(ft, tt))
          return this.error(
            e,
            `found no matching overload for '_?_:_' applied to '(${this.display(ct)}, ${this.display(tt)}, ${this.display(ft)})'`,
          );
        const rt = this.resolve(tt);
        return rt.k === "dyn" ? DYN : this.resolve(ft).k === "dyn" ? DYN : tt;
      }
      case OPT_SELECT: {
        const [operand, name] = call.args;
        if (operand === undefined || name === undefined) return this.error(e, "invalid optional select");
        let ot = this.resolve(this.visit(operand, scope));
        if (ot.k === "opaque" && ot.name === "optional_type") ot = this.resolve(ot.params[0] ?? DYN);
        const fname = name.exprKind.case === "constExpr" ? String(name.exprKind.value.constantKind.value) : "";
        const ft = this.selectField(e, ot, fname);
        return ft.k === "error" ? ERROR : optionalOf(ft);
      }
      case OPT_INDEX: {
        const [operand, index] = call.args;
        if (operand === undefined || index === undefined) return this.error(e, "invalid optional index");
        let ot = this.resolve(this.visit(operand, scope));
        if (ot.k === "opaque" && ot.name === "optional_type") ot = this.resolve(ot.params[0] ?? DYN);
        const it = this.visit(index, scope);
        const rt = this.call(e, "_[_]", undefined, [ot, it]);
        return rt.k === "error" ? ERROR : optionalOf(rt);
      }
      default:
        break;
    }
    const target = call.target === undefined ? undefined : this.visit(call.target, scope);
    const args = call.args.map((a) => this.visit(a, scope));
    return this.call(e, fn, target, args);
  }
}

function nullable(t: CelT): boolean {
  return (
    t.k === "opaque" || t.k === "object" || t.k === "duration" || t.k === "timestamp" || t.k === "dyn" || t.k === "null"
  );
}

/** `a.b.c` for a chain of selects over an identifier, else undefined. */
export function qualifiedName(e: Expr): string | undefined {
  const k = e.exprKind;
  if (k.case === "identExpr") return k.value.name;
  if (k.case === "selectExpr" && !k.value.testOnly && k.value.operand !== undefined) {
    const parent = qualifiedName(k.value.operand);
    return parent === undefined ? undefined : `${parent}.${k.value.field}`;
  }
  return undefined;
}

/** cel-go's Errors.maxErrorsToReport: the errors past it are counted, not shown. */
const MAX_ERRORS_SHOWN = 100;

/**
 * The issues as cel-go's Errors.ToDisplayString shows them: in the order of their places in the source (a
 * stable sort, so issues at one place keep the order they were found in), at most a hundred, then how many more.
 */
export function formatIssues(source: string, issues: readonly CheckIssue[]): string {
  const shown = [...issues]
    .sort((a, b) => a.offset - b.offset)
    .slice(0, MAX_ERRORS_SHOWN)
    .map((i) => formatIssue(source, i.offset, i.message));
  if (issues.length > MAX_ERRORS_SHOWN) shown.push(`${issues.length - MAX_ERRORS_SHOWN} more errors were truncated`);
  return shown.join("\n");
}

/** cel-go's rendering of an issue: `ERROR: <input>:1:6: msg` with the source line and a caret. */
export function formatIssue(source: string, offset: number, message: string): string {
  const lines = source.split("\n");
  let line = 0;
  let rest = offset;
  while (line < lines.length - 1 && rest > (lines[line] as string).length) {
    rest -= (lines[line] as string).length + 1;
    line++;
  }
  const text = (lines[line] ?? "").replaceAll("\t", " ");
  const col = [...text.slice(0, rest)].length;
  return `ERROR: <input>:${line + 1}:${col + 1}: ${message}\n | ${text}\n | ${".".repeat(col)}^`;
}
