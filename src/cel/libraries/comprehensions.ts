/**
 * The function cel-go's two-variable comprehensions (ext/comprehensions.go,
 * `ext.TwoVarComprehensions`, which the API server enables from 1.32) insert
 * map entries with: `transformMap` and `transformMapEntry` expand (in
 * language/syntax.ts) to comprehensions whose step calls `cel.@mapInsert` on
 * the accumulator, with a key and a value or with a map of entries. A key the
 * map already holds fails as cel-go's mutableMap.Insert fails.
 */
import { type CelMap, type CelValue, celMap, isCelMap, isCelUint } from "@bufbuild/cel";
import { MAP_INSERT } from "../language/syntax.js";
import { CelRuntimeError } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";

/** A map's key as the map literal keeps it: an integer double is an int (evaluate.ts mapKey). */
function keyOf(key: unknown): bigint | string | boolean | CelValue {
  if (typeof key === "number" && Number.isInteger(key)) return BigInt(key);
  if (typeof key === "boolean" || typeof key === "bigint" || typeof key === "string" || isCelUint(key))
    return key as CelValue;
  throw new CelRuntimeError("unsupported key type");
}

/** `map` with the entries of `entries` added, none of which it may hold already. */
function inserted(map: unknown, entries: Iterable<readonly [unknown, CelValue]>): CelMap {
  if (!isCelMap(map)) throw new CelRuntimeError("no such overload");
  const out = new Map(map as ReadonlyMap<unknown, CelValue>);
  for (const [k, v] of entries) {
    const key = keyOf(k);
    if (out.has(key)) throw new CelRuntimeError(`insert failed: key ${String(key)} already exists`);
    out.set(key, v);
  }
  return celMap(out as never);
}

export const COMPREHENSIONS: readonly Declaration[] = [
  declare(`${MAP_INSERT}(map<K, V>, K, V) -> map<K, V>`, (map: CelMap, key: unknown, value: CelValue) =>
    inserted(map, [[key, value]]),
  ),
  declare(`${MAP_INSERT}(map<K, V>, map<K, V>) -> map<K, V>`, (map: CelMap, entries: unknown) => {
    if (!isCelMap(entries)) throw new CelRuntimeError("no such overload");
    return inserted(map, entries as ReadonlyMap<unknown, CelValue>);
  }),
];
