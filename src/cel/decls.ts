/**
 * Function declarations for the type checker, written as one-line signatures:
 * `name(int, string) -> bool` for functions, `list<A>.indexOf(A) -> int` for
 * methods; single capital letters are type parameters. The standard library
 * and the strings extension are declared here; each Kubernetes library file
 * declares its own.
 */
import {
  BOOL,
  BYTES,
  type CelT,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  listOf,
  mapOf,
  NULL,
  opaque,
  optionalOf,
  STRING,
  TIMESTAMP,
  typeOf,
  UINT,
} from "./types.js";

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
  Format: "kubernetes.NamedFormat",
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
    const args: CelT[] = [];
    if (this.peek() === "<") {
      this.eat("<");
      args.push(this.typeExpr());
      while (this.peek() === ",") {
        this.eat(",");
        args.push(this.typeExpr());
      }
      this.eat(">");
    }
    return namedType(name, args);
  }
  done(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }
}

function namedType(name: string, args: CelT[]): CelT {
  switch (name) {
    case "int":
      return INT;
    case "uint":
      return UINT;
    case "double":
      return DOUBLE;
    case "bool":
      return BOOL;
    case "string":
      return STRING;
    case "bytes":
      return BYTES;
    case "null":
      return NULL;
    case "dyn":
      return DYN;
    case "duration":
      return DURATION;
    case "timestamp":
      return TIMESTAMP;
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

/** Parses `name(T, …) -> R` or `T.name(T, …) -> R`. */
export function parseDecl(line: string): Overload {
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
  if (
    dot > 0 &&
    /^((list|map|optional)<.*>|string|int|uint|double|bool|bytes|duration|timestamp|dyn|[A-Z]|URL|IP|CIDR|Quantity|Format)$/.test(
      head.slice(0, dot),
    )
  ) {
    target = new TypeParser(head.slice(0, dot)).typeExpr();
    name = head.slice(dot + 1);
  }
  const params: CelT[] = [];
  const p = new TypeParser(argText);
  if (!p.done()) {
    params.push(p.typeExpr());
    while (p.peek() === ",") {
      p.eat(",");
      params.push(p.typeExpr());
    }
  }
  return { name, target, params, result };
}

export function decls(lines: string): Overload[] {
  return lines
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map(parseDecl);
}

const cmpTypes = ["bool", "int", "uint", "double", "string", "bytes", "timestamp", "duration"];
const crossNumeric = [
  ["int", "uint"],
  ["uint", "int"],
  ["int", "double"],
  ["double", "int"],
  ["uint", "double"],
  ["double", "uint"],
];
const comparisons = ["_<_", "_<=_", "_>_", "_>=_"]
  .flatMap((op) => [...cmpTypes.map((t) => [t, t]), ...crossNumeric].map(([a, b]) => `${op}(${a}, ${b}) -> bool`))
  .join("\n");
const timeGetters = [
  "getFullYear",
  "getMonth",
  "getDate",
  "getDayOfMonth",
  "getDayOfWeek",
  "getDayOfYear",
  "getHours",
  "getMinutes",
  "getSeconds",
  "getMilliseconds",
]
  .flatMap((g) => [`timestamp.${g}() -> int`, `timestamp.${g}(string) -> int`])
  .join("\n");

/** The CEL standard library (cel-go `checker/decls` standard declarations). */
export const STANDARD = decls(`
!_(bool) -> bool
-_(int) -> int
-_(double) -> double
_==_(A, A) -> bool
_!=_(A, A) -> bool
${comparisons}
_+_(int, int) -> int
_+_(uint, uint) -> uint
_+_(double, double) -> double
_+_(string, string) -> string
_+_(bytes, bytes) -> bytes
_+_(list<A>, list<A>) -> list<A>
_+_(timestamp, duration) -> timestamp
_+_(duration, timestamp) -> timestamp
_+_(duration, duration) -> duration
_-_(int, int) -> int
_-_(uint, uint) -> uint
_-_(double, double) -> double
_-_(timestamp, timestamp) -> duration
_-_(timestamp, duration) -> timestamp
_-_(duration, duration) -> duration
_*_(int, int) -> int
_*_(uint, uint) -> uint
_*_(double, double) -> double
_/_(int, int) -> int
_/_(uint, uint) -> uint
_/_(double, double) -> double
_%_(int, int) -> int
_%_(uint, uint) -> uint
_[_](list<A>, int) -> A
_[_](map<K, V>, K) -> V
@in(A, list<A>) -> bool
@in(K, map<K, V>) -> bool
size(string) -> int
size(bytes) -> int
size(list<A>) -> int
size(map<K, V>) -> int
string.size() -> int
bytes.size() -> int
list<A>.size() -> int
map<K, V>.size() -> int
int(int) -> int
int(uint) -> int
int(double) -> int
int(string) -> int
int(timestamp) -> int
int(duration) -> int
uint(uint) -> uint
uint(int) -> uint
uint(double) -> uint
uint(string) -> uint
double(double) -> double
double(int) -> double
double(uint) -> double
double(string) -> double
string(string) -> string
string(int) -> string
string(uint) -> string
string(double) -> string
string(bool) -> string
string(bytes) -> string
string(timestamp) -> string
string(duration) -> string
bytes(bytes) -> bytes
bytes(string) -> bytes
bool(bool) -> bool
bool(string) -> bool
timestamp(timestamp) -> timestamp
timestamp(string) -> timestamp
timestamp(int) -> timestamp
duration(duration) -> duration
duration(string) -> duration
dyn(A) -> dyn
type(A) -> type<A>
string.contains(string) -> bool
string.startsWith(string) -> bool
string.endsWith(string) -> bool
string.matches(string) -> bool
matches(string, string) -> bool
${timeGetters}
duration.getHours() -> int
duration.getMinutes() -> int
duration.getSeconds() -> int
duration.getMilliseconds() -> int
`);

/** cel-go `ext.Strings` (the version the API server enables). */
export const STRINGS_EXT = decls(`
string.charAt(int) -> string
string.indexOf(string) -> int
string.indexOf(string, int) -> int
string.lastIndexOf(string) -> int
string.lastIndexOf(string, int) -> int
string.lowerAscii() -> string
string.upperAscii() -> string
string.replace(string, string) -> string
string.replace(string, string, int) -> string
string.split(string) -> list<string>
string.split(string, int) -> list<string>
string.substring(int) -> string
string.substring(int, int) -> string
string.trim() -> string
string.reverse() -> string
list<string>.join() -> string
list<string>.join(string) -> string
string.format(list<dyn>) -> string
strings.quote(string) -> string
`);
