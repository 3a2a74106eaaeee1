import { getKey, type JsonValue } from "../value/index.js";

/** A piece of output text, as opposed to a value still to render. */
class Lit {
  constructor(readonly text: string) {}
}

/** Nesting rendered in full; deeper parts (or a cycle built in code) render as a marker. */
const maxNesting = 10_000;

/**
 * JSON with object keys sorted, so that equal values render equally
 * whatever their key order. Iterative: nesting depth is not bounded by the
 * stack. Used for enum/set/uniqueItems comparisons and the schema cache key.
 */
export function canonical(value: JsonValue): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const out: string[] = [];
  const stack: Array<[JsonValue, number] | Lit> = [[value, 0]];
  while (stack.length > 0) {
    const top = stack.pop() as [JsonValue, number] | Lit;
    if (top instanceof Lit) {
      out.push(top.text);
      continue;
    }
    const [x, depth] = top;
    if (typeof x !== "object" || x === null) out.push(JSON.stringify(x));
    else if (depth >= maxNesting) out.push('"\u0000…"');
    else if (Array.isArray(x)) {
      stack.push(new Lit("]"));
      for (let i = x.length - 1; i >= 0; i--) {
        stack.push([x[i] as JsonValue, depth + 1]);
        if (i > 0) stack.push(new Lit(","));
      }
      out.push("[");
    } else {
      const keys = Object.keys(x).sort();
      stack.push(new Lit("}"));
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        stack.push([getKey(x, k) as JsonValue, depth + 1]);
        stack.push(new Lit(`${i > 0 ? "," : ""}${JSON.stringify(k)}:`));
      }
      out.push("{");
    }
  }
  return out.join("");
}

/** cyrb53: a fast 53-bit string hash (not cryptographic). */
function cyrb53(s: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A content key: two independent 53-bit hashes and the length (collisions are negligible). */
export function contentKey(text: string): string {
  return `${cyrb53(text, 1).toString(36)}.${cyrb53(text, 0x9e3779b9).toString(36)}.${text.length}`;
}
