/**
 * CEL optional types (cel-go `OptionalTypes`, which the API server enables
 * unversioned, so at the latest version its cel-go has): `optional.of`,
 * `optional.ofNonZeroValue`, `optional.none`, `hasValue`, `value`, `orValue`,
 * `or`, a list's `first` and `last` (version 2), and `x.?f` / `x[?k]` (rewritten by
 * language/syntax.ts into internal calls). `oldSelf` is an optional when
 * `optionalOldSelf` is set.
 */
import { type CelList, type CelValue, isCelList, isCelMap, isCelUint } from "@bufbuild/cel";
import { OPT_INDEX, OPT_SELECT } from "../language/checker.js";
import { asCel, CelRuntimeError, celEquals, OpaqueValue, opaqueOf } from "../language/values.js";
import { isDuration, isTimestamp, secondsNanos } from "../language/wkt.js";
import { type Declaration, declare, internal } from "./declaration.js";

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
  if (isCelUint(v)) return v.value === 0n;
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

/** What `x.?f` and `x[?k]` look into: an optional's value (undefined for none), anything else as it is. */
function unwrapped(operand: CelValue): CelValue | undefined {
  return operand instanceof OptionalValue ? operand.value : operand;
}

/** `m[?k]` of a map: the entry as an optional. */
function optEntry(m: CelValue, key: CelValue): CelValue {
  const map = m as unknown as MapLike;
  return map.has(key) ? optionalOf(map.get(key) as CelValue) : none();
}

const isPlainMap = (v: CelValue) => isCelMap(v) && !(v instanceof OpaqueValue);

function optSelect(operand: CelValue, field: CelValue): CelValue {
  const target = unwrapped(operand);
  if (target === undefined) return none();
  if (isPlainMap(target)) return optEntry(target, field);
  throw new CelRuntimeError(`no such overload: _?._(${typeof target})`);
}

function optIndex(operand: CelValue, key: CelValue): CelValue {
  const target = unwrapped(operand);
  if (target === undefined) return none();
  if (isCelList(target)) {
    const i = typeof key === "bigint" ? Number(key) : typeof key === "number" ? key : Number.NaN;
    if (!Number.isInteger(i)) throw new CelRuntimeError("unsupported index type");
    const v = target.get(i);
    return v === undefined ? none() : optionalOf(v);
  }
  if (isPlainMap(target)) return optEntry(target, key);
  throw new CelRuntimeError("no such overload: _[?_]");
}

const asOptional = (v: unknown) => opaqueOf(OptionalValue, v);

export const OPTIONALS: readonly Declaration[] = [
  declare("optional.of(A) -> optional<A>", (v: CelValue) => optionalOf(v)),
  declare("optional.ofNonZeroValue(A) -> optional<A>", (v: CelValue) => (isZero(v) ? none() : optionalOf(v))),
  declare("optional.none() -> optional<A>", () => none()),
  declare("optional<A>.hasValue() -> bool", function (this: unknown) {
    return asOptional(this).value !== undefined;
  }),
  declare("optional<A>.value() -> A", function (this: unknown) {
    const v = asOptional(this).value;
    if (v === undefined) throw new CelRuntimeError("optional.none() dereference");
    return v;
  }),
  declare("optional<A>.orValue(A) -> A", function (this: unknown, other: CelValue) {
    return asOptional(this).value ?? other;
  }),
  declare("optional<A>.or(optional<A>) -> optional<A>", function (this: unknown, other: CelValue) {
    return asOptional(this).value === undefined ? asOptional(other) : this;
  }),
  declare("list<A>.first() -> optional<A>", function (this: CelList) {
    return this.size === 0 ? none() : optionalOf(this.get(0) as CelValue);
  }),
  declare("list<A>.last() -> optional<A>", function (this: CelList) {
    return this.size === 0 ? none() : optionalOf(this.get(this.size - 1) as CelValue);
  }),
  internal(OPT_SELECT, 2, optSelect),
  internal(OPT_INDEX, 2, optIndex),
];
