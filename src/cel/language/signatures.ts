/**
 * The one-line signatures functions are declared in, parsed into the
 * checker's overloads: `name(int, string) -> bool` for functions,
 * `list<A>.indexOf(A) -> int` for methods; single capital letters are type
 * parameters, and the Kubernetes library types go by short names (`URL`,
 * `IP`, `CIDR`, `Quantity`, `Semver`, `Format`, the authorizer's `Authorizer`, `PathCheck`,
 * `GroupCheck`, `ResourceCheck`, `Decision`).
 */
import { type CelT, DYN, listOf, mapOf, opaque, optionalOf, type ScalarKind, scalar, typeOf } from "./types.js";

export interface Overload {
  name: string;
  /** Receiver type for methods (`x.f()`), undefined for functions. */
  target: CelT | undefined;
  params: readonly CelT[];
  result: CelT;
}

/** Names of the Kubernetes library types, as cel-go prints them. */
export const OPAQUE_NAMES: Record<string, string> = {
  URL: "kubernetes.URL",
  IP: "net.IP",
  CIDR: "net.CIDR",
  Quantity: "kubernetes.Quantity",
  Semver: "kubernetes.Semver",
  Format: "kubernetes.NamedFormat",
  Authorizer: "kubernetes.authorization.Authorizer",
  PathCheck: "kubernetes.authorization.PathCheck",
  GroupCheck: "kubernetes.authorization.GroupCheck",
  ResourceCheck: "kubernetes.authorization.ResourceCheck",
  Decision: "kubernetes.authorization.Decision",
};

class TypeParser {
  private i = 0;
  constructor(private readonly s: string) {}
  private ws() {
    while (this.s.charAt(this.i) === " ") this.i++;
  }
  peek(): string {
    this.ws();
    return this.s.charAt(this.i);
  }
  eat(c: string) {
    this.ws();
    if (this.s.charAt(this.i) !== c) throw new Error(`decl: expected ${c} at ${this.i} in ${this.s}`);
    this.i++;
  }
  typeExpr(): CelT {
    this.ws();
    const start = this.i;
    while (/[A-Za-z0-9_]/.test(this.s.charAt(this.i))) this.i++;
    const name = this.s.slice(start, this.i);
    let args: CelT[] = [];
    if (this.peek() === "<") {
      this.eat("<");
      args = this.typeList();
      this.eat(">");
    }
    return namedType(name, args);
  }
  /** `T, T, …` (at least one). */
  typeList(): CelT[] {
    const out = [this.typeExpr()];
    while (this.peek() === ",") {
      this.eat(",");
      out.push(this.typeExpr());
    }
    return out;
  }
  done(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }
}

/** The scalar types by the names signatures give them (their kinds). */
const SCALARS: ReadonlySet<string> = new Set<ScalarKind>([
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "null",
  "dyn",
  "duration",
  "timestamp",
]);

function namedType(name: string, args: CelT[]): CelT {
  if (SCALARS.has(name)) return scalar(name as ScalarKind);
  switch (name) {
    case "type":
      return typeOf(args[0]);
    case "list":
      return listOf(args[0] ?? DYN);
    case "map":
      return mapOf(args[0] ?? DYN, args[1] ?? DYN);
    case "optional":
      return optionalOf(args[0] ?? DYN);
    default:
      break;
  }
  if (/^[A-Z]$/.test(name)) return { k: "var", name };
  const opaqueName = OPAQUE_NAMES[name];
  if (opaqueName !== undefined) return opaque(opaqueName);
  throw new Error(`decl: unknown type ${name}`);
}

/** A receiver type, as opposed to the namespace of a qualified function name (`sets.contains`). */
const RECEIVER = new RegExp(
  `^((list|map|optional)<.*>|string|int|uint|double|bool|bytes|duration|timestamp|dyn|[A-Z]|${Object.keys(OPAQUE_NAMES).join("|")})$`,
);

/** Parses `name(T, …) -> R` or `T.name(T, …) -> R`. */
export function parseSignature(line: string): Overload {
  const arrow = line.lastIndexOf("->");
  if (arrow < 0) throw new Error(`decl: no result in ${line}`);
  const result = new TypeParser(line.slice(arrow + 2).trim()).typeExpr();
  const sig = line.slice(0, arrow).trim();
  const open = sig.indexOf("(");
  const head = sig.slice(0, open);
  const argText = sig.slice(open + 1, sig.lastIndexOf(")"));
  let target: CelT | undefined;
  let name = head;
  // a method when the head is `<type>.<name>` and the type part parses as a type
  const dot = head.lastIndexOf(".");
  if (dot > 0 && RECEIVER.test(head.slice(0, dot))) {
    target = new TypeParser(head.slice(0, dot)).typeExpr();
    name = head.slice(dot + 1);
  }
  const p = new TypeParser(argText);
  const params = p.done() ? [] : p.typeList();
  return { name, target, params, result };
}

/** The overloads of a block of signatures, one a line (blank lines and `#` comments skipped). */
export function parseSignatures(lines: string): Overload[] {
  return lines
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map(parseSignature);
}
