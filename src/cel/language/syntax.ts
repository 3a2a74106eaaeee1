/**
 * Parsing a rule: the syntax the @bufbuild/cel parser lacks, optional
 * selection/indexing (`a.?b`, `a[?k]`, rewritten in the source to marker
 * names and then in the AST to internal calls) and the `cel.bind` macro; the
 * rewrite that lets @bufbuild/cel select from variables directly
 * (`selectFromVariables`); and the AST tools the rewrites share (node
 * builders, `walk`, `transform`).
 */
import { parse } from "@bufbuild/cel";
import { type Expr, OPT_INDEX, OPT_SELECT } from "./checker.js";

const OPT_FIELD = "__kunion_opt__";
const OPT_INDEX_FN = "__kunion_optidx__";

export interface Parsed {
  readonly expr: Expr;
  /** Offsets by expression id, in the original source. */
  readonly positions: Readonly<Record<string, number>>;
  /**
   * The selects past an optional one, run as optional selects themselves (`.b` of `self.?a.b`): in cel-go's
   * AST they are plain selects, which the cost estimate prices as such.
   */
  chained: ReadonlySet<bigint>;
}

/** Rewrites `.?name` and `x[?k]`; returns the new text and a map from new offsets to original ones. */
export function preprocess(src: string): { text: string; toOriginal: (offset: number) => number } {
  if (!src.includes("?")) return { text: src, toOriginal: (o) => o };
  let out = "";
  // [newOffset, originalOffset] at each point where the shift changes
  const marks: Array<[number, number]> = [[0, 0]];
  const stack: boolean[] = [];
  let prev = ""; // previous significant token kind: "operand", "in", or ""
  let i = 0;
  const emit = (text: string, origAdvance: number) => {
    out += text;
    i += origAdvance;
    if (text.length !== origAdvance) marks.push([out.length, i]);
  };
  while (i < src.length) {
    const c = src.charAt(i);
    // comments
    if (c === "/" && src.charAt(i + 1) === "/") {
      const end = src.indexOf("\n", i);
      const stop = end < 0 ? src.length : end;
      emit(src.slice(i, stop), stop - i);
      continue;
    }
    // string and bytes literals (with r/b prefixes, triple quotes)
    const m = /^([rRbB]{0,2})('''|"""|'|")/.exec(src.slice(i, i + 5));
    if (m !== null && (m[1] === "" || !/[A-Za-z0-9_]/.test(src.charAt(i - 1) || " "))) {
      const prefix = m[1] as string;
      const quote = m[2] as string;
      const raw = /[rR]/.test(prefix);
      let j = i + prefix.length + quote.length;
      while (j < src.length && !src.startsWith(quote, j)) {
        if (!raw && src.charAt(j) === "\\") j++;
        j++;
      }
      j = Math.min(src.length, j + quote.length);
      emit(src.slice(i, j), j - i);
      prev = "operand";
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_]/.test(src.charAt(j))) j++;
      const word = src.slice(i, j);
      emit(word, j - i);
      prev = word === "in" ? "in" : "operand";
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < src.length && /[0-9A-Za-z_.]/.test(src.charAt(j))) j++;
      emit(src.slice(i, j), j - i);
      prev = "operand";
      continue;
    }
    if (c === "." && src.charAt(i + 1) === "?") {
      emit(`.${OPT_FIELD}`, 2);
      // skip whitespace between `.?` and the name
      while (/\s/.test(src.charAt(i))) i++;
      prev = "";
      continue;
    }
    if (c === "[") {
      const isIndex = prev === "operand";
      let j = i + 1;
      while (/\s/.test(src.charAt(j))) j++;
      if (isIndex && src.charAt(j) === "?") {
        emit(`[${OPT_INDEX_FN}(`, j + 1 - i);
        stack.push(true);
      } else {
        emit("[", 1);
        stack.push(false);
      }
      prev = "";
      continue;
    }
    if (c === "]") {
      emit(stack.pop() === true ? ")]" : "]", 1);
      prev = "operand";
      continue;
    }
    if (c === ")" || c === "}") {
      emit(c, 1);
      prev = "operand";
      continue;
    }
    if (!/\s/.test(c)) prev = "";
    emit(c, 1);
  }
  const toOriginal = (offset: number) => {
    let best: [number, number] = [0, 0];
    for (const mk of marks) if (mk[0] <= offset) best = mk;
    return Math.max(0, best[1] - (best[0] - offset));
  };
  return { text: out, toOriginal };
}

type ExprKind = Expr["exprKind"];

export function node(id: number, kind: ExprKind): Expr {
  return { $typeName: "cel.expr.Expr", id: BigInt(id), exprKind: kind } as Expr;
}
export function callNode(id: number, fn: string, args: Expr[], target?: Expr): Expr {
  return node(id, {
    case: "callExpr",
    value: { $typeName: "cel.expr.Expr.Call", function: fn, args, target },
  } as ExprKind);
}
export function constNode(id: number, kind: "stringValue" | "int64Value" | "boolValue", value: unknown): Expr {
  return node(id, {
    case: "constExpr",
    value: { $typeName: "cel.expr.Constant", constantKind: { case: kind, value } },
  } as ExprKind);
}
function identNode(id: number, name: string): Expr {
  return node(id, { case: "identExpr", value: { $typeName: "cel.expr.Expr.Ident", name } } as ExprKind);
}
function mapNode(id: number): Expr {
  return node(id, {
    case: "structExpr",
    value: { $typeName: "cel.expr.Expr.CreateStruct", messageName: "", entries: [] },
  } as ExprKind);
}
function listNode(id: number): Expr {
  return node(id, {
    case: "listExpr",
    value: { $typeName: "cel.expr.Expr.CreateList", elements: [], optionalIndices: [] },
  } as ExprKind);
}

export function maxId(e: Expr): number {
  let max = 0;
  walk(e, (x) => {
    max = Math.max(max, Number(x.id));
  });
  return max;
}

/** Visits every node (pre-order). */
export function walk(e: Expr, f: (e: Expr) => void): void {
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as Expr;
    f(x);
    for (const c of children(x)) stack.push(c);
  }
}

function children(e: Expr): Expr[] {
  const k = e.exprKind;
  switch (k.case) {
    case "selectExpr":
      return k.value.operand ? [k.value.operand] : [];
    case "callExpr":
      return [...(k.value.target ? [k.value.target] : []), ...k.value.args];
    case "listExpr":
      return k.value.elements;
    case "structExpr":
      return k.value.entries.flatMap((en) => [
        ...(en.keyKind.case === "mapKey" ? [en.keyKind.value] : []),
        ...(en.value ? [en.value] : []),
      ]);
    case "comprehensionExpr": {
      const c = k.value;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].filter((x): x is Expr => x !== undefined);
    }
    default:
      return [];
  }
}

/** Rebuilds `e` bottom-up with `f` applied to every node (children first). */
export function transform(e: Expr, f: (e: Expr) => Expr): Expr {
  const k = e.exprKind;
  let out: Expr = e;
  switch (k.case) {
    case "selectExpr":
      if (k.value.operand)
        out = node(Number(e.id), { case: "selectExpr", value: { ...k.value, operand: transform(k.value.operand, f) } });
      break;
    case "callExpr":
      out = node(Number(e.id), {
        case: "callExpr",
        value: {
          ...k.value,
          target: k.value.target ? transform(k.value.target, f) : undefined,
          args: k.value.args.map((a) => transform(a, f)),
        },
      });
      break;
    case "listExpr":
      out = node(Number(e.id), {
        case: "listExpr",
        value: { ...k.value, elements: k.value.elements.map((a) => transform(a, f)) },
      });
      break;
    case "structExpr":
      out = node(Number(e.id), {
        case: "structExpr",
        value: {
          ...k.value,
          entries: k.value.entries.map((en) => ({
            ...en,
            keyKind:
              en.keyKind.case === "mapKey" ? { case: "mapKey", value: transform(en.keyKind.value, f) } : en.keyKind,
            value: en.value ? transform(en.value, f) : undefined,
          })),
        },
      } as ExprKind);
      break;
    case "comprehensionExpr": {
      const c = k.value;
      const t = (x: Expr | undefined) => (x ? transform(x, f) : undefined);
      out = node(Number(e.id), {
        case: "comprehensionExpr",
        value: {
          ...c,
          iterRange: t(c.iterRange),
          accuInit: t(c.accuInit),
          loopCondition: t(c.loopCondition),
          loopStep: t(c.loopStep),
          result: t(c.result),
        },
      });
      break;
    }
    default:
      break;
  }
  return f(out);
}

/** `x.?f` or `x[?k]` once rewritten: a value that is optional whatever `x` is. */
const isOptionalAccess = (e: Expr): boolean =>
  e.exprKind.case === "callExpr" &&
  (e.exprKind.value.function === OPT_SELECT || e.exprKind.value.function === OPT_INDEX);

/** A call of a named function (not an operator such as `_+_` or `!_`). */
const NAMED = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The token of each binary operator, as written in a rule. */
export const OPERATOR_TOKENS: Readonly<Record<string, string>> = {
  "_&&_": "&&",
  "_||_": "||",
  "_==_": "==",
  "_!=_": "!=",
  "_<_": "<",
  "_<=_": "<=",
  "_>_": ">",
  "_>=_": ">=",
  "_+_": "+",
  "_-_": "-",
  "_*_": "*",
  "_/_": "/",
  "_%_": "%",
  "@in": "in",
};

/** The parenthesis after the name (or dot and name) at `offset`, else `offset`. */
function atOpenParen(src: string, offset: number): number {
  let i = src.charAt(offset) === "." ? offset + 1 : offset;
  while (/\s/.test(src.charAt(i))) i++;
  while (/\w/.test(src.charAt(i))) i++;
  while (/\s/.test(src.charAt(i))) i++;
  return src.charAt(i) === "(" ? i : offset;
}

/** The colon after the field name at `offset`, else `offset`. */
function colonAfter(src: string, offset: number): number {
  let i = offset;
  while (/[\w?]/.test(src.charAt(i))) i++;
  while (/\s/.test(src.charAt(i))) i++;
  return src.charAt(i) === ":" ? i : offset;
}

/** The operator `token` just before the operand starting at `operand` (white space and parentheses between). */
function tokenBefore(src: string, operand: number, token: string): number | undefined {
  let i = operand - 1;
  while (i >= 0 && /[\s(]/.test(src.charAt(i))) i--;
  const start = i - token.length + 1;
  return start >= 0 && src.slice(start, i + 1) === token ? start : undefined;
}

/**
 * Where cel-go's parser places a node, from where @bufbuild/cel's places it, so that a compile error's
 * column and caret are the API server's: a call of a named function, a macro (and the nodes it expands
 * to) and `has()` at the parenthesis that opens the arguments (the grammar's `open` and `op` tokens,
 * where @bufbuild/cel uses the name or the dot before it); a binary operator and `?:` at their token
 * (where @bufbuild/cel may use the space before it); a message literal's field at its colon. Other nodes
 * keep their place.
 */
function placeAsCelGo(src: string, expr: Expr, positions: Record<string, number>): void {
  const original = { ...positions };
  const at = (e: Expr) => original[String(e.id)] ?? 0;
  // where each subtree starts in the source: its leftmost node
  const starts = new Map<Expr, number>();
  const startOf = (e: Expr): number => {
    let s = starts.get(e);
    if (s === undefined) {
      s = at(e);
      // a loop, not a spread: a list literal may have more items than a call takes arguments
      for (const c of children(e)) s = Math.min(s, startOf(c));
      starts.set(e, s);
    }
    return s;
  };
  const moveAll = (root: Expr, from: number, to: number) => {
    const stack = [root];
    while (stack.length > 0) {
      const e = stack.pop() as Expr;
      if (at(e) === from) positions[String(e.id)] = to;
      for (const c of children(e)) stack.push(c);
    }
  };
  const stack = [expr];
  const macros: Expr[] = [];
  while (stack.length > 0) {
    const e = stack.pop() as Expr;
    const k = e.exprKind;
    const id = String(e.id);
    if (k.case === "callExpr") {
      const fn = k.value.function;
      // the conditional at its `?`, before its second operand
      const token = fn === "_?_:_" ? "?" : OPERATOR_TOKENS[fn];
      const operand = k.value.args[1];
      if (NAMED.test(fn)) positions[id] = atOpenParen(src, at(e));
      else if (token !== undefined && operand !== undefined)
        positions[id] = tokenBefore(src, startOf(operand), token) ?? at(e);
    } else if (k.case === "selectExpr" && k.value.testOnly) positions[id] = atOpenParen(src, at(e));
    else if (k.case === "structExpr")
      // a message literal's field at its colon (the grammar's `cols`), where its type is checked
      for (const entry of k.value.entries) {
        if (entry.keyKind.case !== "fieldKey") continue;
        const from = original[String(entry.id)];
        if (from !== undefined) positions[String(entry.id)] = colonAfter(src, from);
      }
    else if (k.case === "comprehensionExpr") macros.push(e);
    for (const c of children(e)) stack.push(c);
  }
  // a macro and the nodes it expanded to, which share its place
  for (const m of macros) {
    const to = atOpenParen(src, at(m));
    if (to !== at(m)) moveAll(m, at(m), to);
  }
}

/**
 * The macros of libraries a release may lack (cel-go's ext.TwoVarComprehensions, and `sortBy` of its lists
 * extension, version 2 on); the standard ones and `cel.bind` are always there.
 */
export interface Macros {
  twoVariable: boolean;
  sortBy: boolean;
}

export const ALL_MACROS: Macros = { twoVariable: true, sortBy: true };

/** The accumulator of the comprehensions macros expand to (cel-go's parser.AccumulatorName). */
const ACCUMULATOR = "@result";
/** The variable `sortBy` binds its list to (cel-go's ext/lists.go). */
const SORT_BY_INPUT = "@__sortBy_input__";

/** The macros over one variable, which @bufbuild/cel expands when their first argument is a name. */
const ONE_VARIABLE: Readonly<Record<string, { arities: readonly number[]; notAName: string }>> = {
  all: { arities: [2], notAName: "argument must be a simple name" },
  exists: { arities: [2], notAName: "argument must be a simple name" },
  exists_one: { arities: [2], notAName: "argument must be a simple name" },
  map: { arities: [2, 3], notAName: "argument is not an identifier" },
  filter: { arities: [2], notAName: "argument is not an identifier" },
};

/** The macros over two variables (cel-go ext/comprehensions.go), by name: their arities. */
const TWO_VARIABLE: Readonly<Record<string, readonly number[]>> = {
  all: [3],
  exists: [3],
  existsOne: [3],
  exists_one: [3],
  transformList: [3, 4],
  transformMap: [3, 4],
  transformMapEntry: [3, 4],
};

/** The function the two-variable map macros insert with (cel-go ext/comprehensions.go). */
export const MAP_INSERT = "cel.@mapInsert";
/** The function `sortBy` expands to (cel-go ext/lists.go). */
export const SORT_BY_KEYS = "@sortByAssociatedKeys";

/** A macro whose arguments are not well-formed: cel-go reports it at the argument, in its own words. */
export class MacroError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const nameOf = (e: Expr | undefined): string | undefined =>
  e?.exprKind.case === "identExpr" ? e.exprKind.value.name : undefined;

/** New node ids, each placed where `at` is (a macro's nodes share its place). */
interface NodeIds {
  take(at: Expr): number;
}

function comprehension(
  id: number,
  parts: {
    iterVar: string;
    iterVar2?: string;
    iterRange: Expr;
    accuVar: string;
    accuInit: Expr;
    loopCondition: Expr;
    loopStep: Expr;
    result: Expr;
  },
): Expr {
  return node(id, {
    case: "comprehensionExpr",
    value: { $typeName: "cel.expr.Expr.Comprehension", iterVar2: "", ...parts },
  } as ExprKind);
}

/**
 * A call that a two-variable macro or `sortBy` expands, as cel-go's macros expand it (ext/comprehensions.go,
 * ext/lists.go); the call itself when it is none of them or its library is not there. Throws MacroError for a
 * macro whose variables are not names.
 */
function expandMacro(call: Expr, macros: Macros, ids: NodeIds, positions: Record<string, number>): Expr {
  const k = call.exprKind;
  if (k.case !== "callExpr" || k.value.target === undefined) return call;
  const { function: fn, args, target } = k.value;
  const variable = (arg: Expr, notAName: string): string => {
    const name = nameOf(arg);
    if (name === undefined) throw new MacroError(notAName, positions[String(arg.id)] ?? 0);
    return name;
  };
  const accu = () => identNode(ids.take(call), ACCUMULATOR);
  const literal = (kind: "boolValue" | "int64Value", value: boolean | bigint) => constNode(ids.take(call), kind, value);
  const op = (name: string, ...xs: Expr[]) => callNode(ids.take(call), name, xs);
  if (macros.twoVariable && TWO_VARIABLE[fn]?.includes(args.length)) {
    const iterVar = variable(args[0] as Expr, "argument must be a simple name");
    const iterVar2 = variable(args[1] as Expr, "argument must be a simple name");
    const [filter, out] = args.length === 4 ? [args[2], args[3] as Expr] : [undefined, args[2] as Expr];
    const loop = (accuInit: Expr, loopCondition: Expr, loopStep: Expr, result: Expr) =>
      comprehension(Number(call.id), {
        iterVar,
        iterVar2,
        iterRange: target,
        accuVar: ACCUMULATOR,
        accuInit,
        loopCondition,
        loopStep,
        result,
      });
    const filtered = (step: Expr) => (filter === undefined ? step : op("_?_:_", filter, step, accu()));
    switch (fn) {
      case "all":
        return loop(literal("boolValue", true), op("@not_strictly_false", accu()), op("_&&_", accu(), out), accu());
      case "exists":
        return loop(
          literal("boolValue", false),
          op("@not_strictly_false", op("!_", accu())),
          op("_||_", accu(), out),
          accu(),
        );
      case "existsOne":
      case "exists_one":
        return loop(
          literal("int64Value", 0n),
          literal("boolValue", true),
          op("_?_:_", out, op("_+_", accu(), literal("int64Value", 1n)), accu()),
          op("_==_", accu(), literal("int64Value", 1n)),
        );
      case "transformList": {
        const one = node(ids.take(call), {
          case: "listExpr",
          value: { $typeName: "cel.expr.Expr.CreateList", elements: [out], optionalIndices: [] },
        } as ExprKind);
        return loop(listNode(ids.take(call)), literal("boolValue", true), filtered(op("_+_", accu(), one)), accu());
      }
      default: {
        // transformMap inserts the transform under the first variable; transformMapEntry inserts the entry made
        const insert =
          fn === "transformMap"
            ? op(MAP_INSERT, accu(), identNode(ids.take(call), iterVar), out)
            : op(MAP_INSERT, accu(), out);
        return loop(mapNode(ids.take(call)), literal("boolValue", true), filtered(insert), accu());
      }
    }
  }
  if (macros.sortBy && fn === "sortBy" && args.length === 2) {
    // cel.bind(@__sortBy_input__, target, @__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(v, key)))
    if (!["listExpr", "selectExpr", "identExpr", "comprehensionExpr", "callExpr"].includes(target.exprKind.case ?? ""))
      throw new MacroError(
        "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
        positions[String(target.id)] ?? 0,
      );
    const v = variable(args[0] as Expr, "argument is not an identifier");
    const input = () => identNode(ids.take(call), SORT_BY_INPUT);
    const one = node(ids.take(call), {
      case: "listExpr",
      value: { $typeName: "cel.expr.Expr.CreateList", elements: [args[1] as Expr], optionalIndices: [] },
    } as ExprKind);
    const keys = comprehension(ids.take(call), {
      iterVar: v,
      iterRange: input(),
      accuVar: ACCUMULATOR,
      accuInit: listNode(ids.take(call)),
      loopCondition: literal("boolValue", true),
      loopStep: op("_+_", accu(), one),
      result: accu(),
    });
    return comprehension(Number(call.id), {
      iterVar: "#unused",
      iterRange: listNode(ids.take(call)),
      accuVar: SORT_BY_INPUT,
      accuInit: target,
      loopCondition: literal("boolValue", false),
      loopStep: input(),
      result: callNode(ids.take(call), SORT_BY_KEYS, [keys], input()),
    });
  }
  // a one-variable macro @bufbuild/cel left a call: its variable is not a name
  const one = ONE_VARIABLE[fn];
  if (one?.arities.includes(args.length)) variable(args[0] as Expr, one.notAName);
  return call;
}

/** Parses a rule: optional syntax, `cel.bind`, the `macros` there are; throws with a cel-go-like message. */
export function parseRule(src: string, macros: Macros = ALL_MACROS): Parsed {
  const pre = preprocess(src);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(pre.text);
  } catch (e) {
    throw new SyntaxErrorAt(e instanceof Error ? e.message : String(e), pre.toOriginal, pre.text);
  }
  const positions: Record<string, number> = {};
  for (const [id, off] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = pre.toOriginal(off);
  placeAsCelGo(src, parsed.expr, positions);
  let next = maxId(parsed.expr) + 1;
  const chained = new Set<bigint>();
  const ids: NodeIds = {
    take: (at) => {
      const id = next++;
      positions[String(id)] = positions[String(at.id)] ?? 0;
      return id;
    },
  };
  const expr = transform(parsed.expr, (e) => {
    const k = e.exprKind;
    if (k.case === "selectExpr" && k.value.field.startsWith(OPT_FIELD) && k.value.operand) {
      const field = k.value.field.slice(OPT_FIELD.length);
      const id = next++;
      positions[String(id)] = positions[String(e.id)] ?? 0;
      return callNode(Number(e.id), OPT_SELECT, [k.value.operand, constNode(id, "stringValue", field)]);
    }
    // cel-go's applyQualifiers: past an optional qualifier every later one is optional too (`self.?a.b` as
    // `self.?a.?b`): a field absent there makes the whole chain none, not an error
    if (k.case === "selectExpr" && !k.value.testOnly && k.value.operand && isOptionalAccess(k.value.operand)) {
      const id = next++;
      positions[String(id)] = positions[String(e.id)] ?? 0;
      chained.add(e.id);
      return callNode(Number(e.id), OPT_SELECT, [k.value.operand, constNode(id, "stringValue", k.value.field)]);
    }
    if (k.case === "callExpr" && k.value.function === "_[_]" && k.value.args.length === 2) {
      const idx = k.value.args[1] as Expr;
      if (
        idx.exprKind.case === "callExpr" &&
        idx.exprKind.value.function === OPT_INDEX_FN &&
        idx.exprKind.value.args.length === 1 &&
        idx.exprKind.value.target === undefined
      )
        return callNode(Number(e.id), OPT_INDEX, [k.value.args[0] as Expr, idx.exprKind.value.args[0] as Expr]);
    }
    if (
      k.case === "callExpr" &&
      k.value.function === "bind" &&
      k.value.args.length === 3 &&
      k.value.target?.exprKind.case === "identExpr" &&
      k.value.target.exprKind.value.name === "cel" &&
      k.value.args[0]?.exprKind.case === "identExpr"
    ) {
      const v = k.value.args[0].exprKind.value.name;
      const pos = positions[String(e.id)] ?? 0;
      const ids = [next++, next++, next++];
      for (const id of ids) positions[String(id)] = pos;
      return node(Number(e.id), {
        case: "comprehensionExpr",
        value: {
          $typeName: "cel.expr.Expr.Comprehension",
          iterVar: "#unused",
          iterVar2: "",
          iterRange: listNode(ids[0] as number),
          accuVar: v,
          accuInit: k.value.args[1],
          loopCondition: constNode(ids[1] as number, "boolValue", false),
          loopStep: identNode(ids[2] as number, v),
          result: k.value.args[2],
        },
      } as ExprKind);
    }
    return expandMacro(e, macros, ids, positions);
  });
  return { expr, positions, chained };
}

/**
 * The selections the checker found on an optional (Checker.optionalSelects) as the runtime answers them,
 * once checked (the new nodes have no positions): `x.f` as `x.?f`, none where `x` is none or has no `f`,
 * and `has(x.f)` as `x.?f.hasValue()` (cel-go's applyQualifiers and evalTestOnly).
 */
export function withOptionalSelects(expr: Expr, ids: ReadonlySet<bigint>): Expr {
  if (ids.size === 0) return expr;
  let next = maxId(expr) + 1;
  return transform(expr, (e) => {
    const k = e.exprKind;
    if (k.case !== "selectExpr" || k.value.operand === undefined || !ids.has(e.id)) return e;
    const field = constNode(next++, "stringValue", k.value.field);
    if (!k.value.testOnly) return callNode(Number(e.id), OPT_SELECT, [k.value.operand, field]);
    return callNode(Number(e.id), "hasValue", [], callNode(next++, OPT_SELECT, [k.value.operand, field]));
  });
}

/** The runtime function `selectFromVariables` wraps variables in: it answers its argument. */
export const VAR = "@kunion_var";

/**
 * Wraps each variable a field is selected from (`self.spec`, `m['k']`) in
 * `@kunion_var(…)`. @bufbuild/cel plans a selection from a bare identifier
 * as a qualified name, and at every evaluation looks `self.spec.x` up first
 * as a variable or type of that name, then `self.spec`, then `self`; from a
 * call, it selects from the value at once. The checker lets a selection
 * start only at a variable or a type, and no variable or type has a dotted
 * name, so the result is the same, errors too (the call takes the
 * identifier's id, which they carry). Type names are left alone.
 */
export function selectFromVariables(expr: Expr, isType: (name: string) => boolean): Expr {
  const wrapped = (e: Expr | undefined): Expr | undefined =>
    e?.exprKind.case === "identExpr" && !isType(e.exprKind.value.name) ? callNode(Number(e.id), VAR, [e]) : undefined;
  return transform(expr, (e) => {
    const k = e.exprKind;
    if (k.case === "selectExpr" && !k.value.testOnly) {
      const operand = wrapped(k.value.operand);
      if (operand !== undefined) return node(Number(e.id), { case: "selectExpr", value: { ...k.value, operand } });
    }
    if (
      k.case === "callExpr" &&
      k.value.function === "_[_]" &&
      k.value.target === undefined &&
      k.value.args[1]?.exprKind.case === "constExpr"
    ) {
      const [first, ...rest] = k.value.args;
      const operand = wrapped(first);
      if (operand !== undefined)
        return node(Number(e.id), { case: "callExpr", value: { ...k.value, args: [operand, ...rest] } });
    }
    return e;
  });
}

export class SyntaxErrorAt extends Error {
  constructor(
    message: string,
    readonly toOriginal: (o: number) => number,
    readonly text: string,
  ) {
    super(message);
  }
}
