/**
 * Property-name escaping for CEL, as apiserver/pkg/cel/escaping.go does it:
 * `__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`,
 * CEL reserved words → `__{word}__`. Names that cannot be escaped (leading digit,
 * other characters) are not accessible from rules.
 */

/** RESERVED symbols of the CEL lexer (cel-spec langdef), as Kubernetes lists them. */
export const celReservedSymbols: ReadonlySet<string> = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

/** apiserver's isCELIdentifier: CEL's IDENT (`[_a-zA-Z][_a-zA-Z0-9]*`), no reserved word. */
export const isCelIdentifier = (name: string): boolean =>
  /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !celReservedSymbols.has(name);

const isAlnum = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9");

/** The CEL identifier of a property name, or undefined when the name is not accessible. */
export function escapeName(ident: string): string | undefined {
  if (ident.length === 0) return undefined;
  const first = ident.charAt(0);
  if (first >= "0" && first <= "9") return undefined;
  if (celReservedSymbols.has(ident)) return `__${ident}__`;
  let out = "";
  for (let i = 0; i < ident.length; i++) {
    const c = ident.charAt(i);
    if (c === "_" && ident.charAt(i + 1) === "_") {
      out += "__underscores__";
      i++;
    } else if (c === ".") out += "__dot__";
    else if (c === "-") out += "__dash__";
    else if (c === "/") out += "__slash__";
    else if (c === "_" || isAlnum(c)) out += c;
    else return undefined;
  }
  return out;
}

/** The property name of an escaped CEL identifier (inverse of `escapeName`), or undefined. */
export function unescapeName(escaped: string): string | undefined {
  if (escaped.length > 4 && escaped.startsWith("__") && escaped.endsWith("__")) {
    const inner = escaped.slice(2, -2);
    if (celReservedSymbols.has(inner)) return inner;
  }
  let out = "";
  let i = 0;
  while (i < escaped.length) {
    if (escaped.startsWith("__", i)) {
      const end = escaped.indexOf("__", i + 2);
      const word = end < 0 ? "" : escaped.slice(i + 2, end);
      const rep =
        word === "underscores" ? "__" : word === "dot" ? "." : word === "dash" ? "-" : word === "slash" ? "/" : "";
      if (rep === "") return undefined;
      out += rep;
      i = end + 2;
    } else {
      out += escaped.charAt(i);
      i++;
    }
  }
  return out;
}
