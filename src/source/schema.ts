/**
 * The `yaml` package set up to read scalars as go-yaml v2 (sigs.k8s.io/yaml)
 * does: YAML 1.1, merge keys, and go-yaml's exceptions below. Reading and
 * printing share it, so that what is printed is judged by the rules it will
 * be read with.
 */
import { type DocumentOptions, isScalar, type ParseOptions, type SchemaOptions } from "yaml";

// go-yaml v2 reads YAML 1.1 scalars, but a float needs a digit (`.` and `e5`
// are strings), and there are no sexagesimal numbers (`12:30` is a string)
// nor timestamps (kept as written).
const goFloat = /^[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*\.[0-9_]*)$/;
const goFloatExp = /^[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*(?:\.[0-9_]*)?)[eE][-+]?[0-9]+$/;

// go-yaml v2 reads an integer with Go's strconv.ParseInt(s, 0, 64) once every `_` is dropped: it
// takes prefixes in either case (0X1F, 0B101) and YAML 1.2's 0o17, which YAML 1.1 has not.
const goHex = /^[-+]?0[xX][0-9a-fA-F_]+$/;
const goBin = /^[-+]?0[bB][01_]+$/;
const goOctal = {
  default: true,
  tag: "tag:yaml.org,2002:int",
  test: /^[-+]?0[oO][0-7_]+$/,
  resolve: (text: string) => {
    const n = Number.parseInt(text.replace(/^[-+]?0[oO]/, "").replaceAll("_", ""), 8);
    return text.startsWith("-") ? -n : n;
  },
};

interface TagFacts {
  tag?: string;
  format?: string;
  test?: unknown;
  resolve?: (text: string, ...rest: unknown[]) => unknown;
}
const facts = (t: unknown): TagFacts => (typeof t === "object" && t !== null ? (t as TagFacts) : {});

function asGoYaml<T>(tags: T[]): T[] {
  const read = tags
    .filter((t) => facts(t).format !== "TIME" && facts(t).tag !== "tag:yaml.org,2002:timestamp")
    .map((t) => {
      const { tag, format, test } = facts(t);
      if (tag === "tag:yaml.org,2002:int" && (format === "HEX" || format === "BIN"))
        return { ...t, test: format === "HEX" ? goHex : goBin };
      if (tag !== "tag:yaml.org,2002:float" || !(test instanceof RegExp) || test.source.includes("inf")) return t;
      return { ...t, test: format === "EXP" ? goFloatExp : goFloat };
    });
  return [...read, goOctal as T].map(inRange);
}

/**
 * go-yaml v2 takes a number only where Go's strconv parses it without error:
 * one past float64's range (`1e400`, 400 digits) is a string, as written.
 * `.inf` and `.nan` stay numbers, as go-yaml reads them (no JSON has them).
 */
function inRange<T>(t: T): T {
  const { tag, test, resolve } = facts(t);
  const numeric = tag === "tag:yaml.org,2002:int" || tag === "tag:yaml.org,2002:float";
  if (!numeric || !(test instanceof RegExp) || test.source.includes("inf") || resolve === undefined) return t;
  return {
    ...t,
    resolve: (text: string, ...rest: unknown[]) => {
      const read = resolve(text, ...rest);
      const n = isScalar(read) ? read.value : read;
      return typeof n === "number" && !Number.isFinite(n) ? text : read;
    },
  };
}

export const goYaml: DocumentOptions & ParseOptions & SchemaOptions = {
  schema: "yaml-1.1",
  customTags: asGoYaml,
  merge: true,
  // readTree finds duplicate keys in one pass: the package's own check is quadratic.
  uniqueKeys: false,
};
