import { Ajv } from "ajv";
import { expect, it } from "vitest";
import { type JsonObject, type JsonValue, seededRandom } from "../value/index.js";
import { compileSchema, validateWithSchema } from "./index.js";
import { object, resource } from "./test-helpers.js";

// Differential test against Ajv for the plain JSON Schema keywords both implement:
// type, enum, min/max*, multipleOf, pattern, required, properties, items,
// additionalProperties, uniqueItems, allOf/anyOf/oneOf/not. Valid/invalid must agree.
//
// Kubernetes prunes fields a schema does not know (kubectl strict reports them),
// JSON Schema allows them: every structural node without additionalProperties
// gets x-kubernetes-preserve-unknown-fields, which Ajv ignores (strict: false).

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const chance = (r: Rng, p: number) => r() < p;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const names = ["a", "b", "c"];
const strings = ["", "a", "ab", "abc", "b1", "😀x", "zzzz"];
const patterns = ["^a", "b$", "[0-9]", "^[a-z]+$", "x|y"];
const types = ["string", "integer", "number", "boolean", "object", "array"] as const;

function scalar(r: Rng): JsonValue {
  return pick(r, [() => pick(r, strings), () => int(r, -3, 5), () => int(r, -6, 10) / 2, () => chance(r, 0.5)])();
}

/** A schema; `structural` nodes get the pruning guard, branches do not need it. */
function schema(r: Rng, depth: number, structural: boolean): JsonObject {
  const s: JsonObject = {};
  const type = chance(r, 0.8) ? pick(r, types) : undefined;
  if (type) s.type = type;
  if (chance(r, 0.15)) s.enum = Array.from({ length: int(r, 1, 3) }, () => scalar(r));
  if (type === "string" || (!type && chance(r, 0.3))) {
    if (chance(r, 0.4)) s.minLength = int(r, 0, 3);
    if (chance(r, 0.4)) s.maxLength = int(r, 0, 3);
    if (chance(r, 0.3)) s.pattern = pick(r, patterns);
  }
  if (type === "integer" || type === "number" || (!type && chance(r, 0.3))) {
    if (chance(r, 0.4)) s.minimum = int(r, -2, 3);
    if (chance(r, 0.4)) s.maximum = int(r, 0, 6);
    if (chance(r, 0.3)) s.multipleOf = int(r, 1, 3);
  }
  if (type === "array" || (!type && chance(r, 0.2))) {
    if (depth > 0 && chance(r, 0.7)) s.items = schema(r, depth - 1, structural);
    if (chance(r, 0.3)) s.minItems = int(r, 0, 2);
    if (chance(r, 0.3)) s.maxItems = int(r, 1, 3);
    if (chance(r, 0.2)) s.uniqueItems = true;
  }
  if (type === "object" || (!type && chance(r, 0.2))) {
    if (depth > 0 && chance(r, 0.8)) {
      const props: JsonObject = {};
      for (const n of names) if (chance(r, 0.5)) props[n] = schema(r, depth - 1, structural);
      s.properties = props;
      const req = names.filter(() => chance(r, 0.25));
      if (req.length > 0) s.required = req;
    }
    const extra = r();
    if (extra < 0.25) s.additionalProperties = false;
    else if (extra < 0.4) s.additionalProperties = true;
    else if (extra < 0.55 && depth > 0) s.additionalProperties = schema(r, depth - 1, structural);
    if (chance(r, 0.2)) s.minProperties = int(r, 0, 2);
    if (chance(r, 0.2)) s.maxProperties = int(r, 1, 3);
  }
  if (depth > 0) {
    for (const k of ["allOf", "anyOf", "oneOf"]) {
      if (chance(r, 0.1)) s[k] = Array.from({ length: int(r, 1, 3) }, () => schema(r, depth - 1, false));
    }
    if (chance(r, 0.08)) s.not = schema(r, depth - 1, false);
  }
  if (structural && s.additionalProperties === undefined) s["x-kubernetes-preserve-unknown-fields"] = true;
  return s;
}

/** A value shaped like `s` most of the time, so that both outcomes are frequent. */
function sample(r: Rng, s: JsonObject, depth: number): JsonValue {
  if (chance(r, 0.1) || depth < 0) return scalar(r);
  if (Array.isArray(s.enum) && chance(r, 0.5)) return pick(r, s.enum);
  switch (s.type) {
    case "string":
      return chance(r, 0.5) && typeof s.pattern === "string" ? pick(r, ["a1", "ab", "x", "b"]) : pick(r, strings);
    case "integer":
      return int(r, -3, 7);
    case "number":
      return int(r, -6, 14) / 2;
    case "boolean":
      return chance(r, 0.5);
    case "array": {
      const items = (s.items as JsonObject | undefined) ?? {};
      return Array.from({ length: int(r, 0, 4) }, () => sample(r, items, depth - 1));
    }
    case "object": {
      const o: JsonObject = {};
      const props = (s.properties as JsonObject | undefined) ?? {};
      for (const n of names) {
        if (chance(r, 0.6)) o[n] = sample(r, (props[n] as JsonObject | undefined) ?? {}, depth - 1);
      }
      if (chance(r, 0.2)) o.d = scalar(r);
      return o;
    }
    default:
      return chance(r, 0.5) ? scalar(r) : sample(r, { ...s, type: pick(r, types) }, depth);
  }
}

it("agrees with Ajv on valid/invalid for the keywords both implement", () => {
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
  let valid = 0;
  let invalid = 0;
  for (let seed = 1; seed <= 2500; seed++) {
    const r = seededRandom(seed);
    const spec = schema(r, 3, true);
    const data = sample(r, spec, 3);
    const expected = ajv.validate(spec, data);
    const { compiled, findings } = compileSchema(resource(spec));
    expect(findings).toEqual([]);
    const errors = validateWithSchema(compiled, object(data)).findings.filter((f) => f.severity === "error");
    const detail = `seed ${seed}\nschema ${JSON.stringify(spec)}\ndata ${JSON.stringify(data)}\n${errors.map((f) => f.message).join("\n")}\najv ${JSON.stringify(ajv.errors)}`;
    expect(errors.length === 0, detail).toBe(expected);
    if (expected) valid++;
    else invalid++;
  }
  // Both outcomes are well represented.
  expect(valid).toBeGreaterThan(400);
  expect(invalid).toBeGreaterThan(400);
});
