/**
 * Kubernetes regex library (apiserver/pkg/cel/library/regex.go): `find`,
 * `findAll`, and the standard library's `matches`, over one cache of compiled
 * patterns. Match positions come from the RE2 program @bufbuild/re2 compiles
 * (private to it: canary.test.ts), run by a Pike VM here (leftmost-first, Go's
 * semantics; linear time, never backtracking).
 */
import type { CelValue } from "@bufbuild/cel";
import { RE2JS } from "@bufbuild/re2";
import { chargeWork } from "../cost/meter.js";
import { ArrayValue, asCel, CelRuntimeError } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";

/** One instruction of @bufbuild/re2's compiled program (private to it: see canary.test.ts). */
export interface Inst {
  op: number;
  out: number;
  arg: number;
  matchRune(r: number): boolean;
}
export interface Prog {
  inst: Inst[];
  start: number;
}
/** The opcodes of @bufbuild/re2's instructions (its Inst class) the VM below tells apart; rune ops are the rest. */
export const OP = { ALT: 1, ALT_MATCH: 2, CAPTURE: 3, EMPTY_WIDTH: 4, MATCH: 6, NOP: 7 } as const;

/** The flags of an EMPTY_WIDTH instruction's `arg` (@bufbuild/re2's EMPTY_* flags, as Go's syntax.EmptyOp). */
export const EMPTY = {
  BEGIN_LINE: 1,
  END_LINE: 2,
  BEGIN_TEXT: 4,
  END_TEXT: 8,
  WORD_BOUNDARY: 16,
  NO_WORD_BOUNDARY: 32,
} as const;

const isWord = (r: number) => (r >= 48 && r <= 57) || (r >= 65 && r <= 90) || (r >= 97 && r <= 122) || r === 95;

function emptyContext(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= EMPTY.BEGIN_TEXT | EMPTY.BEGIN_LINE;
  if (r1 === 10) op |= EMPTY.BEGIN_LINE;
  if (r2 < 0) op |= EMPTY.END_TEXT | EMPTY.END_LINE;
  if (r2 === 10) op |= EMPTY.END_LINE;
  op |= isWord(r1) !== isWord(r2) ? EMPTY.WORD_BOUNDARY : EMPTY.NO_WORD_BOUNDARY;
  return op;
}

export interface Regex {
  /** RE2 syntax check and boolean search. */
  re: RE2JS;
  prog: Prog;
}

const cache = new Map<string, Regex>();

/** A compiled RE2 regex (cached by pattern); throws CelRuntimeError on a syntax error. */
export function compileRegex(pattern: string): Regex {
  let r = cache.get(pattern);
  if (r === undefined) {
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw new CelRuntimeError(`error parsing regexp: ${e instanceof Error ? e.message : String(e)}`);
    }
    r = { re, prog: (re.re2() as unknown as { prog: Prog }).prog };
    if (cache.size > 2000) cache.clear();
    cache.set(pattern, r);
  }
  return r;
}

function runeBefore(s: string, i: number): number {
  if (i <= 0) return -1;
  const lo = s.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = s.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return s.codePointAt(i - 2) as number;
  }
  return lo;
}

/** Leftmost-first match, searching from `from` (UTF-16 offsets): [start, end] or undefined. */
export function findAt(regex: Regex, s: string, from: number): [number, number] | undefined {
  return search(regex, s, from).matched;
}

/** `findAt`, and where the scan stopped. */
function search(regex: Regex, s: string, from: number): { matched: [number, number] | undefined; stop: number } {
  const prog = regex.prog;
  const n = prog.inst.length;
  const add = (list: Array<[number, number]>, seen: Uint8Array, pc0: number, start: number, ctx: number) => {
    const stack: number[] = [pc0];
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (pc < 0 || pc >= n || seen[pc]) continue;
      seen[pc] = 1;
      const inst = prog.inst[pc] as Inst;
      switch (inst.op) {
        case OP.ALT:
        case OP.ALT_MATCH:
          stack.push(inst.arg, inst.out);
          break;
        case OP.NOP:
        case OP.CAPTURE:
          stack.push(inst.out);
          break;
        case OP.EMPTY_WIDTH:
          if ((inst.arg & ~ctx) === 0) stack.push(inst.out);
          break;
        default:
          list.push([pc, start]);
      }
    }
  };
  let clist: Array<[number, number]> = [];
  let cseen = new Uint8Array(n);
  let matched: [number, number] | undefined;
  let prev = runeBefore(s, from);
  let i = from;
  for (;;) {
    const r = i < s.length ? (s.codePointAt(i) as number) : -1;
    const width = r < 0 ? 0 : r > 0xffff ? 2 : 1;
    if (matched === undefined) add(clist, cseen, prog.start, i, emptyContext(prev, r));
    if (clist.length === 0) {
      if (r < 0 || matched !== undefined) break;
      prev = r;
      i += width;
      cseen = new Uint8Array(n);
      continue;
    }
    const nlist: Array<[number, number]> = [];
    const nseen = new Uint8Array(n);
    const nctx = r < 0 ? 0 : emptyContext(r, i + width < s.length ? (s.codePointAt(i + width) as number) : -1);
    for (const [pc, start] of clist) {
      const inst = prog.inst[pc] as Inst;
      if (inst.op === OP.MATCH) {
        matched = [start, i];
        break; // lower-priority threads are cut
      }
      if (r >= 0 && inst.matchRune(r)) add(nlist, nseen, inst.out, start, nctx);
    }
    if (r < 0) break;
    prev = r;
    i += width;
    clist = nlist;
    cseen = nseen;
    if (clist.length === 0 && matched !== undefined) break;
  }
  return { matched, stop: i };
}

/** Go `FindAllString(s, n)` (n < 0: all). */
export function findAll(regex: Regex, s: string, limit: number): string[] {
  const out: string[] = [];
  let pos = 0;
  let prevEnd = -1;
  let scanned = 0;
  while (pos <= s.length && (limit < 0 || out.length < limit)) {
    if (pos === 0 && !regex.re.test(s)) break;
    const { matched: m, stop } = search(regex, s, pos);
    // A search scans on while a preferred thread lives, so each match can rescan the rest of the
    // string (quadratic): what is scanned again, beyond the one pass the cost counts, is work.
    if (stop > pos && scanned > pos) chargeWork((Math.min(stop, scanned) - pos) * regex.prog.inst.length);
    scanned = Math.max(scanned, stop);
    if (m === undefined) break;
    const [start, end] = m;
    let accept = true;
    if (end === start && start === prevEnd) accept = false; // empty match right after a match
    if (accept) out.push(s.slice(start, end));
    prevEnd = end;
    if (end > start) pos = end;
    else {
      const c = s.codePointAt(start);
      pos = start + (c !== undefined && c > 0xffff ? 2 : 1);
    }
  }
  return out;
}

export const REGEX: readonly Declaration[] = [
  declare("string.matches(string) -> bool", function (this: string, pattern: string) {
    return compileRegex(pattern).re.test(this);
  }),
  declare("matches(string, string) -> bool", (s: string, pattern: string) => compileRegex(pattern).re.test(s)),
  declare("string.find(string) -> string", function (this: string, pattern: string) {
    const m = findAt(compileRegex(pattern), this, 0);
    return m === undefined ? "" : this.slice(m[0], m[1]);
  }),
  declare("string.findAll(string) -> list<string>", function (this: string, pattern: string): CelValue {
    return asCel(new ArrayValue(findAll(compileRegex(pattern), this, -1)));
  }),
  declare("string.findAll(string, int) -> list<string>", function (this: string, pattern: string, n: bigint): CelValue {
    return asCel(new ArrayValue(findAll(compileRegex(pattern), this, Number(n))));
  }),
];
