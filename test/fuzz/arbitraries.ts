/**
 * Generators shared by the fuzz properties: JSON values with the parts that
 * broke parsers and validators before (prototype keys, huge strings, deep
 * nesting, odd numbers), and random mutations of a valid object at random
 * paths. Objects are built with defineProperty, so a `__proto__` key is data
 * here too and the generator itself pollutes nothing.
 */
import fc from "fast-check";
import type { JsonObject, JsonValue } from "../../src/index.js";

/** Sets an own property, even `__proto__`. */
export function put(obj: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export function objectOf(entries: ReadonlyArray<readonly [string, JsonValue]>): JsonObject {
  const obj: JsonObject = {};
  for (const [k, v] of entries) put(obj, k, v);
  return obj;
}

/** A deep copy through JSON text: JSON.parse keeps `__proto__` as an own key. */
export const copy = <T extends JsonValue>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * Keys that name prototypes, Kubernetes fields or nothing at all. A mapping with a `toString` or
 * `valueOf` key once crashed String() in several places (regressions.yaml).
 */
export const hostileKey = fc.constantFrom(
  "toString",
  "valueOf",
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "__defineGetter__",
  "",
  " ",
  "a.b",
  "[0]",
  "$ref",
  "apiVersion",
  "kind",
  "metadata",
  "spec",
  "status",
  "type",
  "name",
  "annotations",
  "kunion.dev/conversion-data",
);
export const key = fc.oneof(fc.string({ maxLength: 6 }), hostileKey);

/** Long and strange strings: the CEL `replace` blow-up needed 40,000 characters. */
const hostileString = fc.oneof(
  fc.constantFrom("", " ", "\u0000", "\uFEFF", "\uD800", "💥", "a\r\nb", "$(X)", "{{ .Values.x }}", "%", "'\"\\"),
  fc
    .constantFrom(1_000, 40_000, 200_000)
    .chain((n) => fc.constantFrom("a", "ab", "é", "*", " ").map((c) => c.repeat(n))),
  fc.constantFrom("1Ki", "-1", "0.5m", "1e3", "1E400", "25%", "101%", "10.0.0.0/8", "::1", "2001:db8::/129"),
  fc.constantFrom("http://x", "2024-01-01T00:00:00Z", "P1D", "1h30m", "@hourly", "* * * * *", "0 0 0 0 0 0"),
  // What makes a document a declaration rather than an object.
  fc.constantFrom("Conversion", "CustomResourceDefinition", "kunion.dev/v1alpha1", "apiextensions.k8s.io/v1"),
);

const hostileNumber = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 63),
  1e308,
  -1e308,
  Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER + 2,
);

export const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  hostileString,
  hostileNumber,
);

/** Nesting up to `levels` deep: well inside the 512 levels a document may have. */
const deep = fc.tuple(fc.integer({ min: 20, max: 300 }), fc.boolean(), scalar).map(([levels, asList, leaf]) => {
  let v: JsonValue = leaf;
  for (let i = 0; i < levels; i++) v = asList ? [v] : objectOf([["a", v]]);
  return v;
});

/** Any JSON value, mostly small. */
export const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map(objectOf),
    deep,
  ),
})).value;

/** A path into a value: strings for keys, numbers for indexes. */
export type Path = Array<string | number>;

/** Every path in a value, the root included, containers before their contents. */
export function pathsOf(value: JsonValue, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (out.length > 2_000) return out;
  if (Array.isArray(value)) value.forEach((v, i) => void pathsOf(v, [...at, i], out));
  else if (value !== null && typeof value === "object")
    for (const k of Object.keys(value)) pathsOf(value[k] as JsonValue, [...at, k], out);
  return out;
}

function parentOf(root: JsonValue, path: Path): JsonValue | undefined {
  let cur: JsonValue | undefined = root;
  for (const seg of path.slice(0, -1)) cur = (cur as Record<string | number, JsonValue> | undefined)?.[seg];
  return cur;
}

/** One change at a path chosen by `pick` among the paths of the value when it is applied. */
export interface Mutation {
  pick: number;
  op: "set" | "delete" | "add" | "wrap";
  key: string;
  value: JsonValue;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom("set", "delete", "add", "wrap"),
  key,
  value: jsonValue,
});

/** The value with the mutations applied, on a copy; a mutation of the root replaces it only by an object. */
export function mutate<T extends JsonValue>(value: T, mutations: readonly Mutation[]): T {
  let root: JsonValue = copy(value);
  for (const original of mutations) {
    // fast-check hands the same values out again while shrinking: never edit them in place.
    const m = { ...original, value: copy(original.value) };
    const paths = pathsOf(root);
    const path = paths[m.pick % paths.length] as Path;
    const parent = parentOf(root, path);
    const last = path[path.length - 1];
    const target = path.length === 0 ? root : (parent as Record<string | number, JsonValue>)[last as string];
    const replace = (v: JsonValue) => {
      if (path.length === 0) root = v !== null && typeof v === "object" && !Array.isArray(v) ? v : root;
      else if (Array.isArray(parent)) parent[last as number] = v;
      else put(parent as JsonObject, last as string, v);
    };
    switch (m.op) {
      case "set":
        replace(m.value);
        break;
      case "delete":
        if (Array.isArray(parent)) parent.splice(last as number, 1);
        else if (parent !== null && typeof parent === "object") delete parent[last as string];
        break;
      case "add":
        if (Array.isArray(target)) target.push(m.value);
        else if (target !== null && typeof target === "object") put(target, m.key, m.value);
        else replace(objectOf([[m.key, m.value]]));
        break;
      case "wrap":
        replace(path.length % 2 === 0 ? [target as JsonValue] : objectOf([[m.key, target as JsonValue]]));
        break;
    }
  }
  return root as T;
}

/** Mutations, mostly few: one wrong field is how most manifests go wrong. */
export const mutations = fc.array(mutation, { minLength: 0, maxLength: 4 });
