/**
 * A small scanner for Go API types (`*_types.go`): struct and named types,
 * string constants, and the `// +marker` comments above types and fields.
 * Not a Go parser: it tokenizes, recognises the few declaration shapes unions
 * need and skips everything else (functions, methods, interfaces, generics).
 * Pure: the caller passes file contents in.
 */

/** Where a declaration is: the file path as given and a 1-based line. */
export interface GoLocation {
  file: string;
  line: number;
}

/** A `// +name…` comment line; `args` is the raw text after the name (`=ALPHA,optional`, `(union: "u1")`). */
export interface GoMarker extends GoLocation {
  name: string;
  args: string;
}

export interface GoField extends GoLocation {
  /** Go field name; for an embedded field, the type's name without package or `*`. */
  name: string;
  /** The type expression as written, without spaces: `*Foo`, `[]Foo`, `map[string]Foo`, `metav1.ObjectMeta`. */
  type: string;
  /** JSON name from the tag, or the Go name when the tag gives none (encoding/json's rule). */
  jsonName: string;
  embedded: boolean;
  /** Embedded without a JSON name, or tagged `,inline`: its fields appear in this object. */
  inline: boolean;
  /** Tagged `omitempty` or `omitzero`. */
  omitEmpty: boolean;
  markers: GoMarker[];
}

interface DeclBase extends GoLocation {
  name: string;
  markers: GoMarker[];
  /** The file's `package` clause. */
  pkg: string;
}
export interface GoStruct extends DeclBase {
  kind: "struct";
  fields: GoField[];
}
/** `type X string`, `type X []Y`, `type X = Y`: a named type with its underlying type expression. */
export interface GoNamed extends DeclBase {
  kind: "named";
  underlying: string;
}
export type GoTypeDecl = GoStruct | GoNamed;

/** A string constant of a named type (the values of an enum). */
export interface GoConst extends GoLocation {
  name: string;
  type: string;
  value: string;
}

export interface GoFile {
  path: string;
  pkg: string;
  /** Import name (alias or last path element) → import path. */
  imports: Map<string, string>;
}

export interface GoTypes {
  files: GoFile[];
  decls: GoTypeDecl[];
  consts: GoConst[];
  byName: Map<string, GoTypeDecl[]>;
}

type TokKind = "ident" | "string" | "number" | "op" | "nl";
interface Tok {
  kind: TokKind;
  text: string;
  line: number;
}

// One alternative per token: newline, blanks, line comment, block comment, "string", 'rune', `raw`, word, number, any other character.
const tokenRe =
  /(\n)|[ \t\r\f]+|\/\/([^\n]*)|(\/\*[\s\S]*?(?:\*\/|$))|"((?:[^"\\\n]|\\.)*)"?|('(?:[^'\\\n]|\\.)*'?)|`([^`]*)`?|([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)|(\.?[0-9][\w.]*)|([\s\S])/g;
const newlines = (s: string) => s.split("\n").length - 1;

/**
 * Go tokens with line numbers; newlines are tokens (Go ends statements there).
 * Own-line `//` comments go to `comments` by line, for markers; `code` holds the lines with code.
 */
function tokenize(src: string): { toks: Tok[]; comments: Map<number, string>; code: Set<number> } {
  const toks: Tok[] = [];
  const comments = new Map<number, string>();
  const code = new Set<number>();
  let line = 1;
  const push = (kind: TokKind, text: string, at = line) => {
    toks.push({ kind, text, line: at });
    if (kind !== "nl") code.add(at);
  };
  for (const [, nl, comment, block, str, rune, raw, word, num, op] of src.matchAll(tokenRe)) {
    if (nl) {
      push("nl", "\n");
      line++;
    } else if (comment !== undefined) {
      if (!code.has(line)) comments.set(line, comment.trim());
    } else if (block !== undefined && newlines(block) > 0) {
      line += newlines(block);
      push("nl", "\n", line - 1); // a block comment spanning lines ends a statement
    } else if (str !== undefined) push("string", goUnquote(str));
    else if (rune !== undefined) push("op", "'x'");
    else if (raw !== undefined) {
      push("string", raw.replaceAll("\r", ""));
      line += newlines(raw);
    } else if (word) push("ident", word);
    else if (num) push("number", num);
    else if (op) push("op", op);
  }
  return { toks, comments, code };
}

/** A Go interpreted string literal's value (the escapes struct tags and enum values use). */
export function goUnquote(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body.replace(/\\(.)/g, "$1");
  }
}

const isGoScalar = (t: string) => /^(bool|byte|rune|u?int(8|16|32|64|ptr)?|float(32|64)|complex(64|128))$/.test(t);

const typeStart = new Set(["struct", "interface", "map", "chan", "func"]);

const opens = (t: Tok) => t.kind === "op" && "([{".includes(t.text);
const closes = (t: Tok) => t.kind === "op" && ")]}".includes(t.text);

class FileScanner {
  private i = 0;
  readonly out: { decls: GoTypeDecl[]; consts: GoConst[]; file: GoFile };
  private readonly toks: Tok[];
  private readonly comments: Map<number, string>;
  private readonly code: Set<number>;
  constructor(
    private readonly path: string,
    text: string,
  ) {
    ({ toks: this.toks, comments: this.comments, code: this.code } = tokenize(text));
    this.out = { decls: [], consts: [], file: { path, pkg: "", imports: new Map() } };
  }

  private peek(k = 0): Tok | undefined {
    return this.toks[this.i + k];
  }
  private is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t !== undefined && t.kind !== "string" && t.text === text;
  }

  /** Markers of the comment block right above `line`; a type also takes the group one blank line higher (controller-tools). */
  private markersAbove(line: number, isType: boolean): GoMarker[] {
    const found: GoMarker[] = [];
    let l = line - 1;
    const block = () => {
      for (; this.comments.has(l); l--) {
        const m = /^\+([A-Za-z][\w.\-/]*(?::[\w.\-/]+)*)(.*)$/.exec(this.comments.get(l) as string);
        if (m) found.push({ name: m[1] as string, args: (m[2] as string).trim(), file: this.path, line: l });
      }
    };
    block();
    if (isType && l > 0 && !this.code.has(l) && this.comments.has(l - 1)) {
      l--;
      block();
    }
    return found.reverse();
  }

  run(): void {
    while (this.i < this.toks.length) {
      const kw = (this.peek() as Tok).text;
      if (kw === "package" && this.peek(1)?.kind === "ident") this.out.file.pkg = (this.peek(1) as Tok).text;
      if (kw !== "import" && kw !== "type" && kw !== "const") {
        this.skipStatement();
        continue;
      }
      this.i++;
      let lastType = "";
      this.group((line) => {
        if (kw === "import") this.importSpec();
        else if (kw === "type") this.typeSpec(line);
        else lastType = this.constSpec(line, lastType);
      });
    }
  }

  /** `kw ( spec; spec )` or `kw spec`; calls `spec` with the line of the spec's first token. */
  private group(spec: (line: number) => void): void {
    const grouped = this.is("(");
    if (grouped) this.i++;
    do {
      while (grouped && (this.peek()?.kind === "nl" || this.is(";"))) this.i++;
      const t = this.peek();
      if (!t || (grouped && this.is(")"))) break;
      const start = this.i;
      spec(t.line);
      if (this.i === start && grouped) this.i++;
      this.skipStatement(grouped);
    } while (grouped);
    if (grouped) {
      this.i++;
      this.skipStatement();
    }
  }

  /** Skips past the end of the statement (newline or `;` outside brackets); in a group, stops before its `)`. */
  private skipStatement(inGroup = false): void {
    for (let depth = 0; this.i < this.toks.length; this.i++) {
      const t = this.peek() as Tok;
      if (opens(t)) depth++;
      else if (closes(t)) {
        if (depth === 0 && inGroup && t.text === ")") return;
        depth = Math.max(0, depth - 1);
      } else if (depth === 0 && (t.kind === "nl" || t.text === ";")) {
        this.i++;
        return;
      }
    }
  }

  private importSpec(): void {
    const named = this.peek()?.kind === "ident" || this.is(".");
    const path = this.peek(named ? 1 : 0);
    if (path?.kind !== "string") return;
    const name = named ? (this.peek() as Tok).text : (path.text.split("/").pop() ?? "");
    this.out.file.imports.set(name, path.text);
  }

  /** Tokens up to the end of the line, a string (struct tag, const value) or a closing bracket, outside brackets. */
  private typeTokens(): Tok[] {
    const got: Tok[] = [];
    for (let depth = 0; this.i < this.toks.length; this.i++) {
      const t = this.peek() as Tok;
      if (depth === 0 && (t.kind === "nl" || t.kind === "string" || t.text === ";" || closes(t))) break;
      if (opens(t)) depth++;
      else if (closes(t)) depth--;
      if (t.kind !== "nl") got.push(t);
    }
    return got;
  }

  private typeSpec(line: number): void {
    const name = this.peek();
    if (name?.kind !== "ident") return;
    this.i++;
    // Type parameters `[T any]` (not an array length `[N]`): skip them.
    if (this.is("[") && this.peek(1)?.kind === "ident" && !this.is("]", 2)) {
      for (let depth = 0; this.i < this.toks.length; ) {
        const t = this.toks[this.i++] as Tok;
        depth += opens(t) ? 1 : closes(t) ? -1 : 0;
        if (depth === 0) break;
      }
    }
    if (this.is("=")) this.i++;
    const markers = this.markersAbove(line, true);
    const base = { name: name.text, markers, file: this.path, line, pkg: this.out.file.pkg };
    if (this.is("struct") && this.is("{", 1)) {
      this.i++;
      this.out.decls.push({ ...base, kind: "struct", fields: this.structBody() });
    } else {
      const toks = this.typeTokens();
      if (toks.length > 0) this.out.decls.push({ ...base, kind: "named", underlying: render(toks) });
    }
  }

  /** Fields of `{ … }` (positioned on `{`); leaves the position after `}`. */
  private structBody(): GoField[] {
    const fields: GoField[] = [];
    for (this.i++; this.i < this.toks.length && !this.is("}"); ) {
      const t = this.peek() as Tok;
      const start = this.i;
      const toks = this.typeTokens();
      const tag = this.peek()?.kind === "string" ? (this.toks[this.i++] as Tok).text : "";
      if (this.i === start) this.i++; // a newline, `;` or stray `)`
      if (toks.length > 0) fields.push(...this.fieldsOf(toks, tag, t.line));
    }
    this.i++;
    return fields;
  }

  private fieldsOf(toks: Tok[], tag: string, line: number): GoField[] {
    const json = parseGoJsonTag(tag);
    if (json.skip) return [];
    const markers = this.markersAbove(line, false);
    const plain = toks.filter((t) => t.text !== "*");
    const embedded =
      plain[0]?.kind === "ident" &&
      (plain.length === 1 || (plain.length === 3 && plain[1]?.text === "." && plain[2]?.kind === "ident"));
    const make = (name: string, type: string): GoField => ({
      name,
      type,
      jsonName: json.name || name,
      embedded,
      inline: json.inline || (embedded && !json.name),
      omitEmpty: json.omitEmpty,
      markers,
      file: this.path,
      line,
    });
    if (embedded) return [make((plain[plain.length - 1] as Tok).text, render(toks))];
    const names: string[] = [];
    let k = 0;
    for (; toks[k]?.kind === "ident" && !typeStart.has((toks[k] as Tok).text); k += 2) {
      names.push((toks[k] as Tok).text);
      if (toks[k + 1]?.text !== ",") break;
    }
    const type = render(toks.slice(k + 1));
    return type === "" ? [] : names.map((n) => make(n, type));
  }

  /** `A, B T = "a", "b"` or `A = T("a")`; returns the type an untyped string constant after it takes. */
  private constSpec(line: number, lastType: string): string {
    const toks = this.typeTokens(); // stops at a string literal outside brackets
    const names: string[] = [];
    let k = 0;
    for (; toks[k]?.kind === "ident"; k += 2) {
      names.push((toks[k] as Tok).text);
      if (toks[k + 1]?.text !== ",") break;
    }
    const eq = toks.findIndex((t) => t.text === "=");
    if (eq < 0 || names.length === 0) return lastType;
    let type = render(toks.slice(k + 1, eq));
    const values: string[] = [];
    const rhs = toks.slice(eq + 1);
    if (rhs.length === 4 && rhs[0]?.kind === "ident" && rhs[1]?.text === "(" && rhs[2]?.kind === "string") {
      type ||= (rhs[0] as Tok).text;
      values.push((rhs[2] as Tok).text);
    } else if (rhs.length === 0) {
      while (this.peek()?.kind === "string") {
        values.push((this.toks[this.i++] as Tok).text);
        if (!this.is(",")) break;
        this.i++;
      }
    }
    // An untyped string constant right after typed ones takes their type: KEP-1027's own example
    // (`Alpha Union2Type = "ALPHA"` then `Beta = "BETA"`) means both as enum values.
    const builtin = isGoScalar(type) || type === "string";
    const effective = builtin ? "" : type || (names.length === 1 ? lastType : "");
    names.forEach((name, j) => {
      const value = values[j];
      if (value !== undefined && effective !== "")
        this.out.consts.push({ name, type: effective, value, file: this.path, line });
    });
    return builtin ? "" : type || lastType;
  }
}

/** Joins tokens, with a space only between two words (`chan int`). */
function render(toks: Tok[]): string {
  const wordLike = (t: Tok) => t.kind === "ident" || t.kind === "number";
  let s = "";
  toks.forEach((t, k) => {
    const prev = toks[k - 1];
    if (prev && wordLike(prev) && wordLike(t)) s += " ";
    s += t.kind === "string" ? JSON.stringify(t.text) : t.text;
  });
  return s;
}

/** The `json:"…"` part of a struct tag; `skip` for `json:"-"`. */
export function parseGoJsonTag(tag: string): { name: string; inline: boolean; omitEmpty: boolean; skip: boolean } {
  const [name = "", ...opts] = (/(?:^|\s)json:"((?:[^"\\]|\\.)*)"/.exec(tag)?.[1] ?? "").split(",");
  const omitEmpty = opts.includes("omitempty") || opts.includes("omitzero");
  return { name, inline: opts.includes("inline"), omitEmpty, skip: name === "-" && opts.length === 0 };
}

/** Scans Go files; never throws, whatever the input. */
export function parseGoTypes(files: ReadonlyArray<{ path: string; text: string }>): GoTypes {
  const out: GoTypes = { files: [], decls: [], consts: [], byName: new Map() };
  for (const f of files) {
    const s = new FileScanner(f.path.replaceAll("\\", "/"), f.text);
    s.run();
    out.files.push(s.out.file);
    out.decls.push(...s.out.decls);
    out.consts.push(...s.out.consts);
  }
  for (const d of out.decls) out.byName.set(d.name, [...(out.byName.get(d.name) ?? []), d]);
  return out;
}

const dirOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));

/**
 * The declaration a type name refers to from `fromFile`: a bare name in the
 * same directory first; `pkg.Name` by the import path (whose tail is a given
 * directory) or the package clause. Qualified names of packages not given are undefined.
 */
export function findGoType(types: GoTypes, name: string, fromFile = ""): GoTypeDecl | undefined {
  const dot = name.lastIndexOf(".");
  const bare = name.slice(dot + 1);
  const candidates = types.byName.get(bare);
  if (!candidates) return undefined;
  const dir = dirOf(fromFile);
  if (dot < 0) return candidates.find((d) => dirOf(d.file) === dir) ?? candidates[0];
  const qual = name.slice(0, dot);
  const importPath = types.files.find((f) => f.path === fromFile)?.imports.get(qual);
  const others = candidates.filter((d) => dirOf(d.file) !== dir || fromFile === "");
  const imported = (dd: string) => dd !== "" && (importPath === dd || !!importPath?.endsWith(`/${dd}`));
  return others.find((d) => imported(dirOf(d.file))) ?? others.find((d) => d.pkg === qual);
}

export const findGoMarker = (markers: readonly GoMarker[], name: string) => markers.find((m) => m.name === name);

/**
 * The allowed values of a string type: its constants when it is `+enum`, or a
 * `+kubebuilder:validation:Enum=a;b` marker; undefined when it has no enum.
 */
export function goEnumValues(types: GoTypes, typeName: string, fromFile = ""): string[] | undefined {
  const decl = findGoType(types, typeName.replace(/^\*/, ""), fromFile);
  if (!decl) return undefined;
  const kb = findGoMarker(decl.markers, "kubebuilder:validation:Enum");
  if (kb) return splitMarkerList(kb.args.replace(/^=/, ""));
  if (!findGoMarker(decl.markers, "enum")) return undefined;
  const same = types.consts.filter((c) => c.type === decl.name && dirOf(c.file) === dirOf(decl.file));
  const pool = same.length > 0 ? same : types.consts.filter((c) => c.type === decl.name);
  return [...new Set(pool.map((c) => c.value))];
}

/** `a;b;"c"` → `["a", "b", "c"]` (kubebuilder list markers). */
export function splitMarkerList(s: string): string[] {
  return s
    .split(";")
    .map((x) => x.trim().replace(/^"(.*)"$/, "$1"))
    .filter((x) => x !== "");
}

export type GoKind = "string" | "scalar" | "struct" | "list" | "map" | "pointer" | "other" | "unknown";

/** What a type expression is underneath its names (`type X string` is a string). */
export function goKindOf(types: GoTypes, expr: string, fromFile = "", depth = 0): GoKind {
  if (expr.startsWith("*")) return "pointer";
  if (expr === "[]byte") return "string"; // base64 in JSON
  if (expr.startsWith("[")) return "list";
  if (expr.startsWith("map[")) return "map";
  if (expr === "string") return "string";
  if (isGoScalar(expr)) return "scalar";
  if (expr.startsWith("struct{")) return "struct";
  if (/^(interface|func|chan)\b/.test(expr) || expr === "any") return "other";
  const decl = depth < 32 ? findGoType(types, expr, fromFile) : undefined;
  if (!decl) return "unknown";
  return decl.kind === "struct" ? "struct" : goKindOf(types, decl.underlying, decl.file, depth + 1);
}
