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

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const radixPrefix = { 2: "0b", 8: "0o", 16: "0x" } as const;

/**
 * Whether Go's strconv reads the integer `text` (base 2, 8 or 16, its prefix or leading 0 in `text`):
 * ParseInt takes an int64, ParseUint a uint64 written without a sign.
 */
function goParsesInt(text: string, radix: 2 | 8 | 16): boolean {
  const sign = text.startsWith("-") || text.startsWith("+") ? text.slice(0, 1) : "";
  const digits = text
    .slice(sign.length)
    .replace(/^0[xXoObB]?/, "")
    .replaceAll("_", "");
  if (digits === "") return true;
  const magnitude = BigInt(radixPrefix[radix] + digits);
  const v = sign === "-" ? -magnitude : magnitude;
  return (v >= INT64_MIN && v <= INT64_MAX) || (sign === "" && v <= UINT64_MAX);
}

/**
 * An integer past int64 and uint64, which go-yaml's resolve.go reads otherwise: after ParseInt and ParseUint
 * fail, a text of digits alone (a YAML 1.1 octal, `0777…`) is a float as written in decimal (yamlStyleFloat),
 * and one with a prefix (`0x`, `0o`, `0b`) is a string.
 */
function goInt<T>(t: T, radix: 2 | 8 | 16, digitsAlone: boolean): T {
  const { resolve } = facts(t);
  if (resolve === undefined) return t;
  return {
    ...t,
    resolve: (text: string, ...rest: unknown[]) => {
      if (goParsesInt(text, radix)) return resolve(text, ...rest);
      return digitsAlone ? Number.parseFloat(text.replaceAll("_", "")) : text;
    },
  };
}

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
      if (tag === "tag:yaml.org,2002:int" && format === "HEX") return goInt({ ...t, test: goHex }, 16, false);
      if (tag === "tag:yaml.org,2002:int" && format === "BIN") return goInt({ ...t, test: goBin }, 2, false);
      if (tag === "tag:yaml.org,2002:int" && format === "OCT") return goInt(t, 8, true);
      if (tag !== "tag:yaml.org,2002:float" || !(test instanceof RegExp) || test.source.includes("inf")) return t;
      return { ...t, test: format === "EXP" ? goFloatExp : goFloat };
    });
  return [...read, goInt(goOctal, 8, false) as T].map(inRange);
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
