import type { CelRules } from "../cel/index.js";
import { type Finding, finding } from "../findings/index.js";
import { type FieldPath, formatOpenAPIName, type PathSegment } from "../path/index.js";
import type { JsonObject, JsonValue } from "../value/index.js";

/**
 * Where a value sits, as a linked list built while walking: a path array is
 * materialised only when a finding needs it, so a clean object allocates none.
 */
export interface Loc {
  readonly parent: Loc | undefined;
  readonly seg: PathSegment;
}

/** The location of `seg` inside `parent`. */
export const childLoc = (parent: Loc | undefined, seg: PathSegment): Loc => ({ parent, seg });

export function toPath(loc: Loc | undefined): PathSegment[] {
  const out: PathSegment[] = [];
  for (let l = loc; l; l = l.parent) out.push(l.seg);
  return out.reverse();
}

/**
 * The field of a kube-openapi finding. apiextensions makes the error's name
 * the field (`fldPath.Child(name)` in kubeOpenAPIResultToFieldErrors), and
 * kube-openapi joins a map key to that name with a dot (object_validator.go):
 * `spec.labels.key`, where a field.Path of the API server's own would print
 * `spec.labels[key]`.
 */
export const openAPIPath = (loc: Loc | undefined): PathSegment[] =>
  toPath(loc).map((seg) => (typeof seg === "object" ? seg.key : seg));

/** The name kube-openapi prints in its messages (`spec.replicas in body must …`). */
export const nameOf = (loc: Loc | undefined): string => formatOpenAPIName(toPath(loc));

/**
 * One validation run over one value. `sink` takes the OpenAPI value
 * validations (the findings the API server ratchets); `extras` takes the
 * rest (unknown fields, list types, object metadata), which it does not.
 */
export interface Run {
  sink: Finding[];
  extras: Finding[];
  /** kube-openapi's MatchCount, approximated: node visits plus checks run. */
  matches: number;
  /** The structural tree (defaults, unknown fields, extensions, CEL) or a value-only branch. */
  readonly main: boolean;
  /** Evaluates a value-only schema (allOf/anyOf/oneOf/not branch) against the same value. */
  evaluate(node: Node, value: JsonValue, loc: Loc | undefined): { findings: Finding[]; matches: number };
}

/**
 * A compiled keyword: guards its own value kind, reports into the run.
 * Returning `false` stops the validation of the node's children
 * (kube-openapi returns early after a min/maxProperties failure).
 */
export type Check = (value: JsonValue, loc: Loc | undefined, run: Run) => undefined | boolean;

/** One schema node compiled into closures. Properties are a Map: `__proto__` is a plain name there. */
export interface Node {
  /** Value validations in kube-openapi's order: type, composition, string, format, number, array, enum. */
  checks: Check[];
  /** The checks kube-openapi runs on null: type (nullable) and enum. */
  nullChecks: Check[];
  /** min/maxProperties; `false` skips the children. */
  sizeCheck?: Check;
  /** `required`, run after the properties as kube-openapi does. */
  required?: Check;
  /** Structural tree only: x-kubernetes-list-type. */
  mainChecks: Check[];
  properties?: Map<string, Node>;
  /** `additionalProperties` as a schema. */
  additional?: Node;
  /** `additionalProperties: true`: other keys are allowed and unchecked. */
  additionalAllowed: boolean;
  /** `additionalProperties: false`. */
  additionalFalse: boolean;
  items?: Node;
  nullable: boolean;
  hasDefault: boolean;
  default?: JsonValue;
  /** Properties with a `default`, for the defaulting pass. */
  defaulted?: Array<[string, Node]>;
  preserveUnknown: boolean;
  embedded: boolean;
  listType?: "atomic" | "set" | "map";
  listMapKeys?: string[];
  /** Compiled x-kubernetes-validations. */
  cel?: CelRules;
}

export function emptyNode(): Node {
  return {
    checks: [],
    nullChecks: [],
    mainChecks: [],
    additionalAllowed: false,
    additionalFalse: false,
    nullable: false,
    hasDefault: false,
    preserveUnknown: false,
    embedded: false,
  };
}

/**
 * How one of Kubernetes' own kinds decodes a string of some format (metav1.Time,
 * `[]byte`): Go's error message, or undefined when the value decodes.
 */
export type FormatDecoder = (s: string) => string | undefined;

/** Format name → its decoder, in place of the strfmt check custom resources get. */
export type FormatDecoders = Readonly<Record<string, FormatDecoder>>;

export interface CompileContext {
  /** Schema path of the node being compiled. */
  readonly path: readonly PathSegment[];
  readonly findings: Finding[];
  /** A built-in kind's decoders (compileSchemaGraph); custom resources have none. */
  readonly decoders?: FormatDecoders;
  /** Compiles a value-only sub-schema (a composition branch). */
  branch(raw: JsonValue, path: readonly PathSegment[]): Node;
}

/**
 * A keyword group in the style of Ajv's vocabularies: the schema keys it
 * reads, the phase it runs in, and a compile step producing a closure.
 */
export interface Keyword {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly phase: "value" | "size" | "required" | "main";
  /** Also run on null values (kube-openapi runs only type and enum there). */
  readonly nulls?: boolean;
  compile(schema: JsonObject, ctx: CompileContext): Check | undefined;
}

/** A schema mistake: the CRD would be rejected; we skip the keyword and go on. */
export function schemaFinding(path: FieldPath, detail: string): Finding {
  return finding({ type: "SchemaError", path, detail, rule: "schema" });
}

/** Go's `%v` of a float64: shortest digits, exponent form below 1e-4 and from 1e6 (strconv 'g' with precision -1). */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN";
  if (n === 0) return Object.is(n, -0) ? "-0" : "0";
  const [mantissa, expText] = n.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return String(n);
}

/** The JSON kind kube-openapi infers from a decoded value (integers are int64 in Go). */
export type Kind = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

export function kindOf(v: JsonValue): Kind {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "string":
      return "string";
    case "number":
      // Go decodes integral JSON numbers that fit int64 as int64, others as float64.
      return Number.isInteger(v) && Math.abs(v) < 9.223372036854776e18 ? "integer" : "number";
    default:
      return Array.isArray(v) ? "array" : "object";
  }
}

/** Non-negative integer keyword values (`maxLength: 3`), else undefined. */
export function count(v: JsonValue | undefined): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined;
}
