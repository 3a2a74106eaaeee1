/**
 * Test support: a CEL expression of a given type, and a call of a declared
 * overload on such expressions, as a rule would write them, for the tests that
 * call every declared overload (declarations.test.ts, and
 * language/evaluate.test.ts's differential test); a compile's findings but the
 * estimated-cost refusals.
 */
import type { Finding } from "../../findings/index.js";
import type { Overload } from "../language/signatures.js";
import { OPERATOR_TOKENS } from "../language/syntax.js";
import { type CelT, DYN } from "../language/types.js";

const OPAQUE_SAMPLES: Record<string, string> = {
  "kubernetes.URL": "url('https://example.com/a?b=c')",
  "net.IP": "ip('10.0.0.1')",
  "net.CIDR": "cidr('10.0.0.0/8')",
  "kubernetes.Quantity": "quantity('1Gi')",
  "kubernetes.Semver": "semver('1.2.3')",
  "kubernetes.NamedFormat": "format.dns1123Label()",
};

/**
 * A compile's findings but the estimated-cost refusals, for the tests that run rules on unbounded schemas: the
 * API server would refuse such a CRD, and kunion still runs its rules, as a server runs the rules it stores.
 */
export const besidesEstimatedCost = (findings: readonly Finding[]): Finding[] =>
  findings.filter(
    (f) =>
      !(f.rule === "cel" && /^estimated (rule|messageExpression) cost exceeds budget|^estimated at /.test(f.detail)),
  );

/** An expression of type `t` (type parameters K as a string, others as an int); undefined when no literal has it. */
export function sampleOf(t: CelT): string | undefined {
  switch (t.k) {
    case "int":
      return "1";
    case "uint":
      return "1u";
    case "double":
      return "1.5";
    case "bool":
      return "true";
    case "string":
      return "'a'";
    case "bytes":
      return "b'a'";
    case "null":
      return "null";
    case "dyn":
      return "dyn(1)";
    case "timestamp":
      return "timestamp('2024-01-01T00:00:00Z')";
    case "duration":
      return "duration('1s')";
    case "list": {
      const e = sampleOf(t.elem);
      return e === undefined ? undefined : `[${e}]`;
    }
    case "map": {
      const k = sampleOf(t.key);
      const v = sampleOf(t.val);
      return k === undefined || v === undefined ? undefined : `{${k}: ${v}}`;
    }
    case "var":
      return t.name === "K" ? "'a'" : "1";
    case "opaque": {
      if (t.name !== "optional_type") return OPAQUE_SAMPLES[t.name];
      const inner = sampleOf(t.params[0] ?? DYN);
      return inner === undefined ? undefined : `optional.of(${inner})`;
    }
    default:
      return undefined;
  }
}

/** A call of overload `o` on sample arguments, operators as operators; undefined when no rule can write one. */
export function callOf(o: Overload): string | undefined {
  const samples = o.params.map(sampleOf);
  if (samples.some((a) => a === undefined)) return undefined;
  const args = samples.map((x) => `(${x})`);
  const op = OPERATOR_TOKENS[o.name];
  if (op !== undefined) return `${args[0]} ${op} ${args[1]}`;
  if (o.name === "!_" || o.name === "-_") return `${o.name.charAt(0)}${args[0]}`;
  if (o.name === "_[_]") return `${args[0]}[${args[1]}]`;
  if (o.name.includes("@")) return undefined; // an internal name no rule can write (a macro's, `cel.@mapInsert`)
  const call = `${o.name}(${args.join(", ")})`;
  if (o.target === undefined) return call;
  const target = sampleOf(o.target);
  return target === undefined ? undefined : `(${target}).${call}`;
}
