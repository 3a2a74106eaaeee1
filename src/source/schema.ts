/**
 * The `yaml` package set up to read scalars as go-yaml v2 (sigs.k8s.io/yaml)
 * does: YAML 1.1, merge keys, and go-yaml's exceptions below. Reading and
 * printing share it, so that what is printed is judged by the rules it will
 * be read with.
 */
import type { DocumentOptions, ParseOptions, SchemaOptions } from "yaml";

// go-yaml v2 reads YAML 1.1 scalars, but a float needs a digit (`.` and `e5`
// are strings), and there are no sexagesimal numbers (`12:30` is a string)
// nor timestamps (kept as written).
const goFloat = /^[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*\.[0-9_]*)$/;
const goFloatExp = /^[-+]?(?:\.[0-9][0-9_]*|[0-9][0-9_]*(?:\.[0-9_]*)?)[eE][-+]?[0-9]+$/;

function asGoYaml<T>(tags: T[]): T[] {
  const facts = (t: T) =>
    typeof t === "object" && t !== null ? (t as { tag?: string; format?: string; test?: unknown }) : {};
  return tags
    .filter((t) => facts(t).format !== "TIME" && facts(t).tag !== "tag:yaml.org,2002:timestamp")
    .map((t) => {
      const { tag, format, test } = facts(t);
      if (tag !== "tag:yaml.org,2002:float" || !(test instanceof RegExp) || test.source.includes("inf")) return t;
      return { ...t, test: format === "EXP" ? goFloatExp : goFloat };
    });
}

export const goYaml: DocumentOptions & ParseOptions & SchemaOptions = {
  schema: "yaml-1.1",
  customTags: asGoYaml,
  merge: true,
  // readTree finds duplicate keys in one pass: the package's own check is quadratic.
  uniqueKeys: false,
};
