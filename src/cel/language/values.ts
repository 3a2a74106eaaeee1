/**
 * JSON values as the API server hands them to CEL (apiserver/pkg/cel/common
 * `UnstructuredToVal`), typed by the schema: lazy object/map/list wrappers that
 * convert children only when a rule touches them; objects expose their
 * properties under escaped names; list-type set/map lists compare as sets/maps.
 * Also the map every such value is to @bufbuild/cel (MapView), the base class
 * of the Kubernetes library's own value types, the map a small map literal
 * builds (LiteralMap), and CEL equality and list `+` extended to all of them.
 */
import { type CelValue, isCelList, isCelMap, isCelType, isCelUint } from "@bufbuild/cel";
import { deepEqual, getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { chargeWork } from "../cost/meter.js";
import type { CelT, ObjectField } from "./types.js";
import {
  isDuration,
  isTimestamp,
  makeDuration,
  makeTimestamp,
  parseDateTime,
  parseFormatDuration,
  secondsNanos,
} from "./wkt.js";

const MAP_MARK = Symbol.for("@bufbuild/cel/map");
const LIST_MARK = Symbol.for("@bufbuild/cel/list");
/** The map keys of a list that is not a map list (one array for all). */
const NO_KEYS: readonly string[] = [];

type Key = bigint | string | boolean | number | { value: bigint };

/** A thrown error whose message becomes the rule's runtime error. */
export class CelRuntimeError extends Error {}

/**
 * A CEL map to @bufbuild/cel (its map brand) over `keys`, `get` and `has`;
 * iteration follows from them.
 */
export abstract class MapView {
  abstract get size(): number;
  abstract get(key: Key): CelValue | undefined;
  abstract has(key: Key): boolean;
  abstract keys(): IterableIterator<string>;
  *values(): IterableIterator<CelValue> {
    for (const k of this.keys()) yield this.get(k) as CelValue;
  }
  *entries(): IterableIterator<[string, CelValue]> {
    for (const k of this.keys()) yield [k, this.get(k) as CelValue];
  }
  forEach(cb: (value: CelValue, key: string, map: unknown) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this);
  }
  [Symbol.iterator](): IterableIterator<[string, CelValue]> {
    return this.entries();
  }
}

// @bufbuild/cel knows a map by its brand (`MAP_MARK in v`): on the prototype, no object is made per map.
Object.defineProperty(MapView.prototype, MAP_MARK, { value: {} });

/**
 * Base of the Kubernetes library types (URL, IP, CIDR, Quantity, Format, optional):
 * they travel through @bufbuild/cel as empty maps and are recognised with `instanceof`.
 */
export abstract class OpaqueValue extends MapView {
  abstract readonly celTypeName: string;
  abstract equals(other: unknown): boolean;
  get size(): number {
    return 0;
  }
  get(_key: Key): CelValue | undefined {
    return undefined;
  }
  has(_key: Key): boolean {
    return false;
  }
  *keys(): IterableIterator<string> {}
}

/**
 * A library value with an order (a quantity, a semver), which `isLessThan`, `isGreaterThan` and `compareTo`
 * compare (libraries/ordered.ts).
 */
export abstract class OrderedValue extends OpaqueValue {
  /** -1, 0 or 1 against a value of its own type; the runtime's "no such overload" for any other. */
  abstract compare(other: unknown): number;
}

export const asCel = (v: unknown): CelValue => v as CelValue;

/** `v` as a value of the library type `type`, or the runtime's "no such overload". */
export function opaqueOf<T extends OpaqueValue>(type: abstract new (...args: never[]) => T, v: unknown): T {
  if (v instanceof type) return v;
  throw new CelRuntimeError("no such overload");
}

/** Whether `parse` returns rather than throws: the libraries' `isIP(s)`, `isURL(s)`, … */
export function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/**
 * The children of a map or object converted to objects, by key: the first
 * in two fields, the rest in a Map made only then (a rule mostly reads one
 * nested object of each, and a Map costs more to make than that read).
 */
class ChildCache {
  private firstKey: string | undefined;
  private first: CelValue | undefined;
  private rest: Map<string, CelValue> | undefined;
  get(key: string): CelValue | undefined {
    if (key === this.firstKey) return this.first;
    return this.rest?.get(key);
  }
  set(key: string, v: CelValue): void {
    if (this.firstKey === undefined) {
      this.firstKey = key;
      this.first = v;
    } else {
      this.rest ??= new Map();
      this.rest.set(key, v);
    }
  }
}

/** A CEL map over a JSON object: either an object type (escaped property names) or a map (additionalProperties). */
export class ObjectValue extends MapView {
  /** Children converted to objects, so that each is converted once and is the same value every time. */
  private readonly cache = new ChildCache();
  constructor(
    readonly raw: JsonObject,
    readonly type: CelT & { k: "object" },
  ) {
    super();
  }
  get size(): number {
    return Object.keys(this.raw).length;
  }
  private field(key: Key): ObjectField | undefined {
    return typeof key === "string" ? this.type.fields.get(key) : undefined;
  }
  get(key: Key): CelValue | undefined {
    const f = this.field(key);
    if (f === undefined) return undefined;
    const hit = this.cache.get(key as string);
    if (hit !== undefined) return hit;
    const v = getKey(this.raw, f.raw);
    if (v === undefined) return undefined;
    const out = toCelValue(v, f.type);
    // a string, int, double or bool is equal to itself however often it is converted: only objects are kept
    if (typeof out === "object" && out !== null) this.cache.set(key as string, out);
    return out;
  }
  has(key: Key): boolean {
    const f = this.field(key);
    return f !== undefined && getKey(this.raw, f.raw) !== undefined;
  }
  *keys(): IterableIterator<string> {
    for (const [name, f] of this.type.fields) if (getKey(this.raw, f.raw) !== undefined) yield name;
  }
}

/** A CEL map over a JSON object whose values share one schema (additionalProperties). */
export class MapValue extends MapView {
  /** Children converted to objects (see ObjectValue). */
  private readonly cache = new ChildCache();
  constructor(
    readonly raw: JsonObject,
    readonly valType: CelT,
  ) {
    super();
  }
  get size(): number {
    return Object.keys(this.raw).length;
  }
  get(key: Key): CelValue | undefined {
    if (typeof key !== "string") return undefined;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const v = getKey(this.raw, key);
    if (v === undefined) return undefined;
    const out = toCelValue(v, this.valType);
    if (typeof out === "object" && out !== null) this.cache.set(key, out);
    return out;
  }
  has(key: Key): boolean {
    return typeof key === "string" && getKey(this.raw, key) !== undefined;
  }
  keys(): IterableIterator<string> {
    return Object.keys(this.raw)[Symbol.iterator]();
  }
}

/** A CEL list over a JSON array; `listType` set/map changes equality and `+`. */
export class ListValue {
  private readonly cache: Array<CelValue | undefined>;
  constructor(
    readonly raw: readonly JsonValue[],
    readonly elemType: CelT,
    readonly listType: "atomic" | "set" | "map" = "atomic",
    readonly mapKeys: readonly string[] = NO_KEYS,
  ) {
    this.cache = new Array(raw.length);
  }
  get size(): number {
    return this.raw.length;
  }
  get(index: number): CelValue | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.raw.length) return undefined;
    let v = this.cache[index];
    if (v === undefined) {
      v = toCelValue(this.raw[index] as JsonValue, this.elemType);
      this.cache[index] = v;
    }
    return v;
  }
  *values(): IterableIterator<CelValue> {
    for (let i = 0; i < this.raw.length; i++) yield this.get(i) as CelValue;
  }
  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.values();
  }
}

/** A list built by the library (results of `+` on set/map lists, `findAll`, …). */
export class ArrayValue {
  constructor(
    private readonly items: readonly CelValue[],
    readonly listType: "atomic" | "set" | "map" = "atomic",
    readonly mapKeys: readonly string[] = NO_KEYS,
    /** How many of `items` this list holds: lists made by `+` share one array, as Go slices do. */
    private readonly length = items.length,
    /** `items` was made by `+`, so later `+` may append to it. */
    private readonly growable = false,
  ) {}
  get size(): number {
    return this.length;
  }
  get(index: number): CelValue | undefined {
    return Number.isInteger(index) && index >= 0 && index < this.length ? this.items[index] : undefined;
  }
  *values(): IterableIterator<CelValue> {
    for (let i = 0; i < this.length; i++) yield this.items[i] as CelValue;
  }
  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.values();
  }
  /**
   * `a + b` of plain lists. A comprehension's `map` and `filter` add one item
   * at a time to their result (`accu + [x]`): when nothing was added after `a`
   * yet, `b` goes at the end of its array, in place, as Go's append does, so
   * that they are linear; otherwise the items are copied. Either way, the
   * items moved are work.
   */
  static concat(a: ListLike, b: ListLike): ArrayValue {
    const more = b.size;
    if (a instanceof ArrayValue && a.growable && a.items.length === a.length) {
      const items = a.items as CelValue[];
      for (let i = 0; i < more; i++) items.push(b.get(i) as CelValue);
      chargeWork(more);
      return new ArrayValue(items, "atomic", NO_KEYS, items.length, true);
    }
    const items: CelValue[] = [];
    for (let i = 0, n = a.size; i < n; i++) items.push(a.get(i) as CelValue);
    for (let i = 0; i < more; i++) items.push(b.get(i) as CelValue);
    chargeWork(items.length);
    return new ArrayValue(items, "atomic", NO_KEYS, items.length, true);
  }
  /** The list `+` makes of `items` (so that a later `+` may append in place): a loop's result built in an array. */
  static grown(items: CelValue[]): ArrayValue {
    return new ArrayValue(items, "atomic", NO_KEYS, items.length, true);
  }
  /** `a + [v]` of plain lists, as concat does it (the same items, growth and work) without the one-item list. */
  static append(a: ListLike, v: CelValue): ArrayValue {
    if (a instanceof ArrayValue && a.growable && a.items.length === a.length) {
      const items = a.items as CelValue[];
      items.push(v);
      chargeWork(1);
      return new ArrayValue(items, "atomic", NO_KEYS, items.length, true);
    }
    const items: CelValue[] = [];
    for (let i = 0, n = a.size; i < n; i++) items.push(a.get(i) as CelValue);
    items.push(v);
    chargeWork(items.length);
    return new ArrayValue(items, "atomic", NO_KEYS, items.length, true);
  }
}
// The list brand (`LIST_MARK in v`) on the prototypes, as MapView's.
for (const c of [ListValue, ArrayValue]) Object.defineProperty(c.prototype, LIST_MARK, { value: {} });

/**
 * A map literal of a few entries, as @bufbuild/cel's map of a JavaScript
 * Map (celMap) answers, quirks included (`has` is false for a null value;
 * an int or a whole double finds a uint key), over two arrays: a Map of
 * five entries takes longer to fill than its lookups ever save. Its keys
 * are distinct bools, ints, uints and strings, its values CEL values as
 * they are (no conversion on the way out).
 */
export class LiteralMap {
  constructor(
    /** Its keys, in the literal's order. */
    readonly keyList: readonly unknown[],
    /** Its values, each at its key's index. */
    readonly valueList: readonly CelValue[],
  ) {}
  /** The most entries a literal is built so: past them, a Map's lookups pay. */
  static readonly MAX = 8;
  get size(): number {
    return this.keyList.length;
  }
  get(key: unknown): CelValue | undefined {
    let k = key;
    if (isCelUint(k)) k = k.value;
    if (typeof k === "number") {
      if (!Number.isInteger(k)) return undefined;
      k = BigInt(k);
    }
    const keys = this.keyList;
    for (let i = 0; i < keys.length; i++) if (keys[i] === k) return this.valueList[i];
    if (typeof k === "bigint")
      for (let i = 0; i < keys.length; i++) {
        const m = keys[i];
        if (isCelUint(m) && m.value === k) return this.valueList[i];
      }
    return undefined;
  }
  has(key: unknown): boolean {
    const v = this.get(key);
    return v !== undefined && v !== null;
  }
  forEach(cb: (value: CelValue, key: unknown, map: unknown) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.keyList.length; i++)
      cb.call(thisArg, this.valueList[i] as CelValue, this.keyList[i], this);
  }
  keys(): IterableIterator<unknown> {
    return this.keyList[Symbol.iterator]();
  }
  *values(): IterableIterator<CelValue> {
    yield* this.valueList;
  }
  *entries(): IterableIterator<[unknown, CelValue]> {
    for (let i = 0; i < this.keyList.length; i++) yield [this.keyList[i], this.valueList[i] as CelValue];
  }
  [Symbol.iterator](): IterableIterator<[unknown, CelValue]> {
    return this.entries();
  }
}
Object.defineProperty(LiteralMap.prototype, MAP_MARK, { value: {} });

/** A value that could not be converted (e.g. a malformed date-time): accessing it fails the rule. */
export class InvalidValue extends OpaqueValue {
  readonly celTypeName = "error";
  constructor(readonly message: string) {
    super();
  }
  equals(): boolean {
    return false;
  }
}

function base64Decode(s: string): Uint8Array | undefined {
  try {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** The CEL value of a JSON value of the given declared type. */
export function toCelValue(v: JsonValue, t: CelT): CelValue {
  if (v === null) return null;
  switch (t.k) {
    case "int":
      if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
      break;
    case "double":
      if (typeof v === "number") return v;
      break;
    case "string":
      if (typeof v === "string") return v;
      break;
    case "bool":
      if (typeof v === "boolean") return v;
      break;
    case "bytes":
      if (typeof v === "string") {
        const b = base64Decode(v);
        return b ?? asCel(new InvalidValue(`invalid data, expected base64 encoded bytes, got ${JSON.stringify(v)}`));
      }
      break;
    case "timestamp":
      if (typeof v === "string") {
        const sn = parseDateTime(v);
        const out = sn === undefined ? new Error("") : makeTimestamp(sn.seconds, sn.nanos);
        return out instanceof Error
          ? asCel(new InvalidValue(`invalid data, expected date-time, got ${JSON.stringify(v)}`))
          : out;
      }
      break;
    case "duration":
      if (typeof v === "string") {
        const n = parseFormatDuration(v);
        const out = n === undefined ? new Error("") : makeDuration(n);
        return out instanceof Error
          ? asCel(new InvalidValue(`invalid data, expected duration, got ${JSON.stringify(v)}`))
          : out;
      }
      break;
    case "list":
      if (Array.isArray(v)) return asCel(new ListValue(v, t.elem, t.listType, t.mapKeys));
      break;
    case "map":
      if (isObject(v)) return asCel(new MapValue(v, t.val));
      break;
    case "object":
      if (isObject(v)) return asCel(new ObjectValue(v, t));
      break;
    default:
      break;
  }
  return dynValue(v);
}

const DYN_T: CelT = { k: "dyn" };

/** An untyped JSON value (int-or-string, dyn): integral numbers become ints. */
export function dynValue(v: JsonValue): CelValue {
  if (v === null) return null;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return asCel(new ListValue(v, DYN_T));
  return asCel(new MapValue(v, DYN_T));
}

/**
 * Whether @bufbuild/cel takes `v` as the CEL value it is (toCel answers it unchanged, checking the same). kunion's
 * own maps and lists, which most values are, are asked first: a class check, not a walk for a brand.
 */
export function isCelValue(v: unknown): boolean {
  switch (typeof v) {
    case "bigint":
    case "boolean":
    case "number":
    case "string":
      return true;
    case "object":
      return (
        v === null ||
        v instanceof MapView ||
        v instanceof ArrayValue ||
        v instanceof ListValue ||
        v instanceof Uint8Array ||
        isCelList(v) ||
        isCelMap(v) ||
        isCelUint(v) ||
        isCelType(v)
      );
    default:
      return false;
  }
}

/** The name of a value's runtime type, as cel-go prints it in overload errors. */
export function runtimeTypeName(v: unknown): string {
  switch (typeof v) {
    case "bigint":
      return "int";
    case "number":
      return "double";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    default:
      break;
  }
  if (v === null) return "null_type";
  if (v instanceof Uint8Array) return "bytes";
  if (v instanceof OpaqueValue) return v.celTypeName;
  if (isCelUint(v)) return "uint";
  if (isTimestamp(v)) return "google.protobuf.Timestamp";
  if (isDuration(v)) return "google.protobuf.Duration";
  if (v instanceof ObjectValue) return "object";
  if (isCelList(v)) return "list";
  if (isCelMap(v)) return "map";
  if (isCelType(v)) return "type";
  return "unknown";
}

/** The number an int, uint or double holds; undefined for any other value. */
export function numeric(v: unknown): bigint | number | undefined {
  if (typeof v === "bigint" || typeof v === "number") return v;
  if (isCelUint(v)) return v.value;
  return undefined;
}

function numEq(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === "number" && Number.isNaN(a)) return false;
  if (typeof b === "number" && Number.isNaN(b)) return false;
  // biome-ignore lint/suspicious/noDoubleEquals: mixed bigint/number comparison is intended
  return a == b;
}

interface ListLike {
  size: number;
  get(i: number): CelValue | undefined;
  [Symbol.iterator](): Iterator<CelValue>;
}
interface MapLike {
  size: number;
  get(k: Key): CelValue | undefined;
  has(k: Key): boolean;
  keys(): IterableIterator<unknown>;
}

type ListKind = { kind: "atomic" | "set" | "map"; keys: readonly string[] };
const ATOMIC: ListKind = { kind: "atomic", keys: NO_KEYS };

function listKind(v: unknown): ListKind {
  if ((v instanceof ListValue || v instanceof ArrayValue) && v.listType !== "atomic")
    return { kind: v.listType, keys: v.mapKeys };
  return ATOMIC;
}

/** The map-key tuple of an element of a list-type=map list. */
export function mapListKey(elem: CelValue, keys: readonly string[]): string {
  if (!isCelMap(elem)) return "";
  const m = elem as unknown as MapLike;
  return JSON.stringify(
    keys.map((k) => {
      const v = m.get(k);
      return typeof v === "bigint" ? `${v}n` : typeof v === "object" && v !== null ? "?" : (v ?? null);
    }),
  );
}

/** CEL equality (`_==_`) over every value kind used here, with Kubernetes' set/map list semantics. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return !(typeof a === "number" && Number.isNaN(a));
  // Each comparison is work: equality of nested values and of set lists (each item against each) can
  // cost far more than the API server's charge for `==`, which counts only the outer sizes.
  chargeWork(1);
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && numEq(na, nb);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof OpaqueValue) return a.equals(b);
  if (b instanceof OpaqueValue) return false;
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (isCelList(a)) return isCelList(b) && listEquals(a as unknown as ListLike, b as unknown as ListLike, listKind(a));
  if (isCelMap(a)) {
    if (!isCelMap(b)) return false;
    if (a instanceof ObjectValue && b instanceof ObjectValue) return objectEquals(a, b);
    return mapEquals(a as unknown as MapLike, b as unknown as MapLike);
  }
  if (isCelType(a)) {
    if (!isCelType(b)) return false;
    const ta = a as { kind: string; name: string };
    const tb = b as { kind: string; name: string };
    return ta.kind === tb.kind && ta.name === tb.name;
  }
  if ((isTimestamp(a) && isTimestamp(b)) || (isDuration(a) && isDuration(b))) {
    const x = secondsNanos(a);
    const y = secondsNanos(b);
    return x.seconds === y.seconds && x.nanos === y.nanos;
  }
  return false;
}

/** CEL inequality (`_!=_`): celEquals negated. */
export function celNotEquals(a: unknown, b: unknown): boolean {
  return !celEquals(a, b);
}

function listEquals(a: ListLike, b: ListLike, kind: { kind: "atomic" | "set" | "map"; keys: readonly string[] }) {
  if (a.size !== b.size) return false;
  if (kind.kind === "set") {
    for (const x of a) {
      let found = false;
      for (const y of b) {
        if (celEquals(x, y)) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
  if (kind.kind === "map" && kind.keys.length > 0) {
    const index = new Map<string, CelValue>();
    for (const x of a) index.set(mapListKey(x, kind.keys), x);
    for (const y of b) {
      const x = index.get(mapListKey(y, kind.keys));
      if (x === undefined || !celEquals(x, y)) return false;
    }
    return true;
  }
  for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i), b.get(i))) return false;
  return true;
}

function mapEquals(a: MapLike, b: MapLike): boolean {
  if (a.size !== b.size) return false;
  for (const k of a.keys()) {
    const key = k as Key;
    if (!b.has(key)) return false;
    if (!celEquals(a.get(key), b.get(key))) return false;
  }
  return true;
}

/** `unstructuredMap.Equal`: declared properties compare as CEL values, undeclared ones as JSON. */
function objectEquals(a: ObjectValue, b: ObjectValue): boolean {
  const ka = Object.keys(a.raw);
  if (ka.length !== Object.keys(b.raw).length) return false;
  const declared = new Map<string, string>();
  for (const [name, f] of a.type.fields) declared.set(f.raw, name);
  for (const raw of ka) {
    const name = declared.get(raw);
    if (name !== undefined) {
      if (!b.has(name)) return false;
      if (!celEquals(a.get(name), b.get(name))) return false;
    } else {
      const other = getKey(b.raw, raw);
      if (other !== undefined && !deepEqual(getKey(a.raw, raw), other)) return false;
    }
  }
  return true;
}

/** `+` on lists: set lists union, map lists merge by key (right wins), other lists concatenate. */
export function listAdd(a: unknown, b: unknown): CelValue {
  const la = a as unknown as ListLike;
  const lb = b as unknown as ListLike;
  const kind = listKind(a);
  if (kind.kind === "set") {
    const out = [...la];
    for (const y of lb) if (!out.some((x) => celEquals(x, y))) out.push(y);
    return asCel(new ArrayValue(out, "set"));
  }
  if (kind.kind === "map" && kind.keys.length > 0) {
    const out = [...la];
    const pos = new Map<string, number>();
    out.forEach((x, i) => {
      pos.set(mapListKey(x, kind.keys), i);
    });
    for (const y of lb) {
      const k = mapListKey(y, kind.keys);
      const i = pos.get(k);
      if (i === undefined) {
        pos.set(k, out.length);
        out.push(y);
      } else out[i] = y;
    }
    return asCel(new ArrayValue(out, "map", kind.keys));
  }
  return asCel(ArrayValue.concat(la, lb));
}
