/**
 * CEL optional types (cel-go `OptionalTypes`, enabled by the API server):
 * `optional.of`, `optional.ofNonZeroValue`, `optional.none`, `hasValue`,
 * `value`, `orValue`, `or`, and `x.?f` / `x[?k]` (rewritten by `syntax.ts`
 * into internal calls). `oldSelf` is an optional when `optionalOldSelf` is set.
 */
import { CelScalar, type CelValue, celFunc, celMethod, isCelList, isCelMap, isCelUint } from "@bufbuild/cel";
import { OPT_INDEX, OPT_SELECT } from "./checker.js";
import { decls } from "./decls.js";
import { asCel, CelRuntimeError, celEquals, OpaqueValue } from "./values.js";
import { isDuration, isTimestamp, secondsNanos } from "./wkt.js";

const { DYN, BOOL } = CelScalar;

export class OptionalValue extends OpaqueValue {
  readonly celTypeName = "optional_type";
  constructor(readonly value: CelValue | undefined) {
    super();
  }
  equals(other: unknown): boolean {
    if (!(other instanceof OptionalValue)) return false;
    if (this.value === undefined || other.value === undefined) return this.value === other.value;
    return celEquals(this.value, other.value);
  }
}

export const NONE = new OptionalValue(undefined);
export const optionalOf = (v: CelValue): CelValue => asCel(new OptionalValue(v));
const none = (): CelValue => asCel(NONE);

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === "" || v === 0 || v === 0n) return true;
  if (isCelUint(v)) return (v as { value: bigint }).value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelList(v)) return v.size === 0;
  if (v instanceof OpaqueValue) return false;
  if (isCelMap(v)) return v.size === 0;
  if (isDuration(v) || isTimestamp(v)) {
    const sn = secondsNanos(v);
    return sn.seconds === 0n && sn.nanos === 0;
  }
  return false;
}

interface MapLike {
  has(k: unknown): boolean;
  get(k: unknown): CelValue | undefined;
}

function optSelect(operand: CelValue, field: CelValue): CelValue {
  let target: CelValue | undefined = operand;
  if (target instanceof OptionalValue) {
    if (target.value === undefined) return none();
    target = target.value;
  }
  if (isCelMap(target) && !(target instanceof OpaqueValue)) {
    const m = target as unknown as MapLike;
    return m.has(field) ? optionalOf(m.get(field) as CelValue) : none();
  }
  throw new CelRuntimeError(`no such overload: _?._(${typeof target})`);
}

function optIndex(operand: CelValue, key: CelValue): CelValue {
  let target: CelValue | undefined = operand;
  if (target instanceof OptionalValue) {
    if (target.value === undefined) return none();
    target = target.value;
  }
  if (isCelList(target)) {
    const i = typeof key === "bigint" ? Number(key) : typeof key === "number" ? key : Number.NaN;
    if (!Number.isInteger(i)) throw new CelRuntimeError("unsupported index type");
    const v = target.get(i);
    return v === undefined ? none() : optionalOf(v);
  }
  if (isCelMap(target) && !(target instanceof OpaqueValue)) {
    const m = target as unknown as MapLike;
    return m.has(key) ? optionalOf(m.get(key) as CelValue) : none();
  }
  throw new CelRuntimeError("no such overload: _[?_]");
}

export const OPTIONAL_DECLS = decls(`
optional.of(A) -> optional<A>
optional.ofNonZeroValue(A) -> optional<A>
optional.none() -> optional<A>
optional<A>.hasValue() -> bool
optional<A>.value() -> A
optional<A>.orValue(A) -> A
optional<A>.or(optional<A>) -> optional<A>
`);

function asOptional(v: CelValue): OptionalValue {
  if (!(v instanceof OptionalValue)) throw new CelRuntimeError("no such overload");
  return v;
}

export const OPTIONAL_FUNCS = [
  celFunc("optional.of", [DYN], DYN, (v: CelValue) => optionalOf(v)),
  celFunc("optional.ofNonZeroValue", [DYN], DYN, (v: CelValue) => (isZero(v) ? none() : optionalOf(v))),
  celFunc("optional.none", [], DYN, () => none()),
  celMethod("hasValue", DYN, [], BOOL, function () {
    return asOptional(this).value !== undefined;
  }),
  celMethod("value", DYN, [], DYN, function () {
    const v = asOptional(this).value;
    if (v === undefined) throw new CelRuntimeError("optional.none() dereference");
    return v;
  }),
  celMethod("orValue", DYN, [DYN], DYN, function (other: CelValue) {
    return asOptional(this).value ?? other;
  }),
  celMethod("or", DYN, [DYN], DYN, function (other: CelValue) {
    return asOptional(this).value === undefined ? (asOptional(other) as unknown as CelValue) : this;
  }),
  celFunc(OPT_SELECT, [DYN, DYN], DYN, optSelect),
  celFunc(OPT_INDEX, [DYN, DYN], DYN, optIndex),
];
