/**
 * What every fuzz property asserts of a call into kunion: it returns (no
 * exception escapes), within a time bound, leaves the built-in prototypes as
 * they were, and answers the same input the same way twice.
 *
 * `npm test` runs each property a few hundred times; `npm run fuzz` sets
 * KUNION_FUZZ_RUNS (100,000 by default) for the long mode. KUNION_FUZZ_SEED
 * and KUNION_FUZZ_PATH replay a failure fast-check printed; KUNION_FUZZ_BOUND_MS
 * changes the time bound; KUNION_FUZZ_KNOWN=1 also generates the inputs of
 * known, unfixed bugs (regressions.yaml, `known: true`), left out otherwise so
 * that the suite stays green and the long mode looks for new ones.
 */
import type fc from "fast-check";
import { expect } from "vitest";
import type { Finding } from "../../src/index.js";

const env = process.env;
/** Runs per property asked for by the environment (the long mode), if any. */
const asked = env.KUNION_FUZZ_RUNS ? Number(env.KUNION_FUZZ_RUNS) : undefined;
export const longMode = asked !== undefined;
export const knownBugs = env.KUNION_FUZZ_KNOWN === "1";

/** Milliseconds one call may take. Generous: the bugs this catches took 10 s or never returned. */
export const boundMs = Number(env.KUNION_FUZZ_BOUND_MS ?? 2_000);

/** Per-test timeout: a property runs many calls; the long mode runs as long as it needs. */
export const testTimeout = longMode ? 24 * 60 * 60 * 1000 : 120_000;

/** fast-check parameters for a property that runs `defaultRuns` times in `npm test`. */
export function params(defaultRuns: number): fc.Parameters<unknown> {
  return {
    numRuns: asked ?? defaultRuns,
    ...(env.KUNION_FUZZ_SEED ? { seed: Number(env.KUNION_FUZZ_SEED) } : {}),
    ...(env.KUNION_FUZZ_PATH ? { path: env.KUNION_FUZZ_PATH } : {}),
  };
}

const builtins: Record<string, object> = {
  Object: Object.prototype,
  Array: Array.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Boolean: Boolean.prototype,
  Function: Function.prototype,
  Map: Map.prototype,
  Set: Set.prototype,
  RegExp: RegExp.prototype,
  JSON: JSON,
};

/** Every own property of the built-in prototypes, by name, with its value or accessors. */
function prototypes(): Map<string, unknown> {
  const seen = new Map<string, unknown>();
  for (const [name, proto] of Object.entries(builtins)) {
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      seen.set(`${name}.${String(key)}`, d?.value);
      seen.set(`${name}.${String(key)} get`, d?.get);
      seen.set(`${name}.${String(key)} set`, d?.set);
    }
  }
  return seen;
}

const baseline = prototypes();

/** The prototypes are as they were when the suite started: nothing added, replaced or removed. */
export function expectPrototypesUntouched(): void {
  const now = prototypes();
  const changed = [...new Set([...baseline.keys(), ...now.keys()])].filter((k) => baseline.get(k) !== now.get(k));
  expect(changed, "built-in prototypes changed").toEqual([]);
  const inherited: string[] = [];
  for (const k in {}) inherited.push(k);
  expect(inherited, "a fresh object inherits enumerable keys").toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/** JSON for comparing two answers; functions (a document's `locate`) are dropped, as JSON does. */
export const json = (value: unknown): string => JSON.stringify(value) ?? "undefined";

/**
 * Calls `face` twice and returns the first answer, asserting: no exception
 * escapes (a throw fails the property), the first call (the cold one, CEL
 * compilation included) takes less than `bound` ms, the prototypes are
 * untouched, and both answers serialize the same.
 */
export function answer<T>(face: () => T, bound = boundMs): T {
  const started = performance.now();
  const first = face();
  const elapsed = performance.now() - started;
  expectPrototypesUntouched();
  expect(elapsed, `answered in ${Math.round(elapsed)} ms`).toBeLessThan(bound);
  const [a, b] = [json(first), json(face())];
  if (a !== b) expect.fail(`the same input answered differently: ${difference(a, b)}`);
  return first;
}

/** Where two serialized answers part, with some context: answers can be megabytes long. */
function difference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 100), i + 100));
  return `at character ${i} of ${a.length} and ${b.length}: first ${around(a)}, then ${around(b)}`;
}

/** A finding placed in a file: named by the file, with a line and column counted from 1. */
export function expectPlaced(findings: readonly Finding[], files: readonly string[]): void {
  for (const f of findings) {
    expect(files, f.message).toContain(f.file);
    expect(Number.isInteger(f.line) && (f.line as number) >= 1, `line of ${f.message}: ${f.line}`).toBe(true);
    expect(Number.isInteger(f.column) && (f.column as number) >= 1, `column of ${f.message}: ${f.column}`).toBe(true);
    expect(typeof f.message, "message").toBe("string");
  }
}

/** Every object in a value is a plain object or an array: no document or result has a borrowed prototype. */
export function expectPlain(value: unknown, seen = new Set<unknown>()): void {
  if (value === null || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) expect(proto).toBe(Array.prototype);
  else expect(proto === Object.prototype || proto === null, "an object with a foreign prototype").toBe(true);
  for (const v of Object.values(value)) expectPlain(v, seen);
}
