/** The round-trip checker and deterministic sample objects generated from a version's schema. */
import type { Crd } from "../crd/index.js";
import { type Finding, finding, formatValue } from "../findings/index.js";
import { splitApiVersion } from "../names/index.js";
import type { FieldPath } from "../path/index.js";
import {
  displayText,
  getKey,
  isObject,
  type JsonObject,
  type JsonValue,
  seededRandom,
  setKey,
} from "../value/index.js";
import { convert } from "./engine.js";
import type { Conversion } from "./types.js";

/** The first path where `a` and `b` differ (undefined when equal). */
export function firstDifference(
  a: JsonValue | undefined,
  b: JsonValue | undefined,
  at: FieldPath = [],
): FieldPath | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], [...at, i]);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const d = firstDifference(getKey(a, k), getKey(b, k), [...at, k]);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return at;
}

function valueAt(v: JsonValue | undefined, path: FieldPath): JsonValue | undefined {
  let cur = v;
  for (const seg of path) {
    if (typeof seg === "number") cur = Array.isArray(cur) ? cur[seg] : undefined;
    else if (typeof seg === "string") cur = isObject(cur) ? getKey(cur, seg) : undefined;
  }
  return cur;
}

/** For each sample: spoke → hub → spoke and hub → spoke → hub give back the input; the first differing path. */
export function roundTrip(
  conversion: Conversion,
  samples: Array<{ apiVersion: string; object: JsonObject }>,
): Finding[] {
  const out: Finding[] = [];
  const refused: string[] = [];
  const report = (i: number, trip: string, path: FieldPath, detail: string, badValue?: unknown) =>
    out.push(
      finding({
        type: "FieldValueInvalid",
        path,
        badValue,
        detail: `sample ${i}: ${trip}: ${detail}`,
        rule: "round-trip",
      }),
    );
  const trip = (i: number, obj: JsonObject, via: string): JsonObject | undefined => {
    const from = displayText(getKey(obj, "apiVersion"));
    const name = `${splitApiVersion(from).version} → ${splitApiVersion(via).version} → ${splitApiVersion(from).version}`;
    const there = convert(obj, via, conversion, { share: true });
    if (there.object === undefined) {
      // The declaration refuses this input (an assert, an unconvertible value): outside its
      // domain, not a round trip that loses data. Counted, and said once at the end.
      refused.push(`sample ${i}: ${name}: ${there.error ?? "conversion failed"}`);
      return undefined;
    }
    const back = convert(there.object, from, conversion, { share: true });
    if (back.object === undefined) {
      report(i, name, [], back.error ?? "conversion failed");
      return undefined;
    }
    const d = firstDifference(obj, back.object);
    if (d !== undefined)
      report(
        i,
        name,
        d,
        `gives ${formatValue(valueAt(back.object, d) ?? null)} instead of the input's value`,
        valueAt(obj, d) ?? null,
      );
    return there.object;
  };
  samples.forEach(({ apiVersion, object }, i) => {
    const obj = getKey(object, "apiVersion") === apiVersion ? object : { ...object, apiVersion };
    const { group, version } = splitApiVersion(apiVersion);
    const hubAv = `${group}/${conversion.hub}`;
    if (version === conversion.hub) {
      for (const s of conversion.spokes.keys()) trip(i, obj, `${group}/${s}`);
      return;
    }
    const hubObj = trip(i, obj, hubAv);
    // the hub object this sample gives must also survive hub → spoke → hub
    if (hubObj !== undefined) trip(i, hubObj, apiVersion);
  });
  if (refused.length > 0) {
    const detail = `${refused.length} sample(s) refused by the declaration's own rules, not round-tripped (first: ${refused[0]})`;
    out.push(finding({ type: "FieldValueInvalid", path: [], detail, rule: "round-trip", severity: "notice" }));
  }
  return out;
}

/** `count` small objects of `version` generated from its schema (deterministic for a seed). */
export function sampleObjects(crd: Crd, version: string, count: number, seed: number): JsonObject[] {
  const v = crd.versions.find((x) => x.name === version);
  if (v?.openAPIV3Schema === undefined) return [];
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const word = () => {
    const chars = "abcdefghijklmnopqrstuvwxyz0123456789";
    let s = "";
    for (let i = int(1, 8); i > 0; i--) s += chars[int(0, chars.length - 1)];
    return s;
  };
  const gen = (s: JsonObject, depth: number): JsonValue | undefined => {
    const en = getKey(s, "enum");
    if (Array.isArray(en) && en.length > 0) return en[int(0, en.length - 1)] as JsonValue;
    if (getKey(s, "x-kubernetes-int-or-string") === true) return rand() < 0.5 ? int(0, 100) : word();
    const num = (k: string, d: number) => (typeof getKey(s, k) === "number" ? (getKey(s, k) as number) : d);
    switch (getKey(s, "type")) {
      case "string": {
        const f = getKey(s, "format");
        if (f === "date-time") return "2024-01-02T03:04:05Z";
        if (f === "date") return "2024-01-02";
        return word();
      }
      case "integer":
        return int(Math.ceil(num("minimum", 0)), Math.floor(Math.min(num("maximum", 100), num("minimum", 0) + 100)));
      case "number":
        return (
          int(num("minimum", 0), Math.min(num("maximum", 100), num("minimum", 0) + 100)) +
          0.5 * int(0, 1) * (getKey(s, "maximum") === undefined ? 1 : 0)
        );
      case "boolean":
        return rand() < 0.5;
      case "array": {
        const items = getKey(s, "items");
        if (!isObject(items) || depth > 6) return [];
        const out: JsonValue[] = [];
        for (let n = int(Math.max(0, num("minItems", 0)), Math.max(num("minItems", 0), 2)); n > 0; n--) {
          const x = gen(items, depth + 1);
          if (x !== undefined) out.push(x);
        }
        return out;
      }
      case "object":
      case undefined: {
        const out: JsonObject = {};
        const props = getKey(s, "properties");
        const req = getKey(s, "required");
        const requiredKeys = Array.isArray(req) ? req.filter((k): k is string => typeof k === "string") : [];
        if (isObject(props)) {
          for (const k of Object.keys(props)) {
            const p = props[k];
            if (!isObject(p)) continue;
            const want = requiredKeys.includes(k) || (depth < 4 && rand() < 0.4);
            if (!want) continue;
            const x = gen(p, depth + 1);
            if (x !== undefined) setKey(out, k, x);
          }
        } else {
          const extra = getKey(s, "additionalProperties");
          if (isObject(extra) && depth < 6)
            for (let n = int(0, 2); n > 0; n--) {
              const x = gen(extra, depth + 1);
              if (x !== undefined) setKey(out, word(), x);
            }
        }
        return out;
      }
      default:
        return undefined;
    }
  };
  const out: JsonObject[] = [];
  for (let i = 0; i < count; i++) {
    const body = gen(v.openAPIV3Schema, 0);
    const obj: JsonObject = {
      apiVersion: `${crd.group}/${version}`,
      kind: crd.kind,
      metadata: { name: `sample-${i}`, namespace: "default" },
    };
    if (isObject(body))
      for (const k of Object.keys(body))
        if (!["apiVersion", "kind", "metadata"].includes(k)) setKey(obj, k, body[k] as JsonValue);
    out.push(obj);
  }
  return out;
}
