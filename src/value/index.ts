/**
 * JSON values: guards and the few operations the core needs, safe against
 * `__proto__` and `constructor` keys (they are ordinary data in Kubernetes
 * objects and must never reach an object's prototype). Imports nothing.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An own property of `obj`, never one inherited from Object.prototype. */
export function getKey(obj: JsonObject, key: string): JsonValue | undefined {
  const v = obj[key];
  // One lookup, not two: a JSON value holds no function, so a function found is Object.prototype's
  // (toString, constructor…); only `__proto__` finds something else that is not the object's own.
  if (v === undefined || typeof v === "function") return undefined;
  return key === "__proto__" && !Object.hasOwn(obj, key) ? undefined : v;
}

/**
 * A value as text for messages and keys: a string as it is, anything else as
 * JSON. Never `String(v)`, which throws for a mapping with a `toString` key.
 */
export function displayText(v: JsonValue | undefined): string {
  return typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v);
}

export function hasKey(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** Sets an own data property; `obj.__proto__ = v` would replace the prototype instead. */
export function setKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

export function deleteKey(obj: JsonObject, key: string): void {
  if (Object.hasOwn(obj, key)) delete obj[key];
}

/** A deep copy made of fresh plain objects and arrays (iterative: depth is not bounded by the stack). */
export function clone<T extends JsonValue>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  const root: JsonValue = Array.isArray(value) ? [] : {};
  const stack: Array<[JsonValue, JsonValue]> = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop() as [JsonValue, JsonValue];
    if (Array.isArray(from)) {
      const target = to as JsonValue[];
      for (const item of from) {
        const copy = copyShallow(item);
        target.push(copy);
        if (copy !== item) stack.push([item, copy]);
      }
    } else {
      const target = to as JsonObject;
      for (const key of Object.keys(from as JsonObject)) {
        const item = (from as JsonObject)[key] as JsonValue;
        const copy = copyShallow(item);
        setKey(target, key, copy);
        if (copy !== item) stack.push([item, copy]);
      }
    }
  }
  return root as T;
}

function copyShallow(v: JsonValue): JsonValue {
  if (typeof v !== "object" || v === null) return v;
  return Array.isArray(v) ? [] : {};
}

/** Structural equality of JSON values; key order does not matter. */
export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const stack: Array<[JsonValue | undefined, JsonValue | undefined]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [JsonValue | undefined, JsonValue | undefined];
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(y, k)) return false;
      stack.push([x[k], y[k]]);
    }
  }
  return true;
}

/** The nesting depth of a value (a scalar is 0), computed without recursion. */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    const next = d + 1;
    if (next > max) max = next;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, next]);
    }
  }
  return max;
}

/**
 * A copy of the top level only: children are shared. Spread defines each property as its own (a key
 * `__proto__` stays a field, as setKey keeps it) and copies an object's shape whole, several times faster than
 * setting the keys one by one.
 */
export function shallowCopy<T extends JsonObject | JsonValue[]>(value: T): T {
  if (Array.isArray(value)) return value.slice() as T;
  return { ...(value as JsonObject) } as T;
}

/**
 * A deterministic stream of numbers in [0, 1) for a seed (mulberry32): sample
 * objects and generated test cases that a seed reproduces.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
