/**
 * The CEL standard library as the checker declares it, run by @bufbuild/cel's
 * except where Kubernetes differs: equality and `in` are Kubernetes equality
 * (set and map lists compare as sets and maps), and list `+` unions set
 * lists and merges map lists (language/values.ts).
 */
import type { CelValue } from "@bufbuild/cel";
import { celEquals, celNotEquals, listAdd } from "../language/values.js";
import { builtin, type Declaration, declare } from "./declaration.js";

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

/** The CEL standard library (cel-go `checker/decls` standard declarations); `matches` is the regex library's. */
export const STANDARD: readonly Declaration[] = [
  builtin(`
!_(bool) -> bool
-_(int) -> int
-_(double) -> double
${comparisons}
_+_(int, int) -> int
_+_(uint, uint) -> uint
_+_(double, double) -> double
_+_(string, string) -> string
_+_(bytes, bytes) -> bytes
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
${timeGetters}
duration.getHours() -> int
duration.getMinutes() -> int
duration.getSeconds() -> int
duration.getMilliseconds() -> int
`),
  declare("_==_(A, A) -> bool", celEquals),
  declare("_!=_(A, A) -> bool", celNotEquals),
  declare("@in(A, list<A>) -> bool", (v: CelValue, l: Iterable<CelValue>) => {
    for (const x of l) if (celEquals(x, v)) return true;
    return false;
  }),
  declare("_+_(list<A>, list<A>) -> list<A>", listAdd),
];
