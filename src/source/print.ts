/**
 * Values → YAML text that reads back as the same value: by kunion's reader
 * (parseSource), by kubectl and the API server (go-yaml v2 through
 * sigs.k8s.io/yaml), and by YAML 1.1 and 1.2 readers generally. The one home
 * of kunion's YAML printing options: `kunion convert`, `normalize` and the
 * edits SourceDocument.render makes all print through here.
 */
import { Document, isScalar, type Node, Scalar, type ToStringOptions, visit } from "yaml";
import type { JsonValue } from "../value/index.js";
import { goYaml } from "./schema.js";

/**
 * No folding and no line width: the `yaml` package folds long plain and
 * quoted strings at 80 columns, and past some indentation it folded a string
 * into different text (regressions.yaml, "a string 19 levels deep").
 */
export const printOptions: ToStringOptions = {
  lineWidth: 0,
  minContentWidth: 0,
  flowCollectionPadding: false,
  blockQuote: "literal",
};

// go-yaml v2 resolve.go: these words are booleans or null in YAML 1.1 (y, Yes, OFF ...), and
// `<<` a merge key. Matched in any case: a reader more lenient than go-yaml costs only quotes.
const words = /^(?:y|yes|n|no|true|false|on|off|null|~|<<)$/i;
// After go-yaml's `strings.Replace(in, "_", "", -1)`: what strconv.ParseInt(s, 0, 64) reads
// (0x1F, 0o17, 0b101, 017, +1), yamlStyleFloat (1e3, 1., .5), YAML 1.1's looser floats (`.`,
// `e5`), `.inf` and `.nan`, and Go's hexadecimal floats.
const numbers =
  /^[-+]?(?:0x[0-9a-f]+|0o[0-7]+|0b[01]+|[0-9]*\.?[0-9]*(?:e[-+]?[0-9]+)?|\.(?:inf|nan)|0x[0-9a-f]*\.?[0-9a-f]*p[-+]?[0-9]+)$/i;
// YAML 1.1 sexagesimal numbers (1:20) and timestamps (2001-12-14, 2001-12-14t21:59:43.10-05:00).
const sexagesimal = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const timestamp = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:$|[Tt \t])/;
// Characters some readers take as line breaks (YAML 1.1: NEL, LS, PS) or drop (a BOM):
// only escaped, in double quotes, do they survive every reader.
const breaks = /[\u0085\u2028\u2029\uFEFF\r]/;
// Leading or trailing blanks on a line of a multi-line string: a block scalar keeps them
// only with indentation indicators some readers get wrong; double quotes keep them.
const edgeBlanks = /^[ \t\n]|[ \t]\n|[ \t]$/;

/**
 * A string that a YAML 1.1 reader would not read back as this string if it
 * were printed plain: a boolean, null, a number, a timestamp or a merge key.
 */
export function readsAsNonString(s: string): boolean {
  if (s === "" || words.test(s) || sexagesimal.test(s) || timestamp.test(s)) return true;
  const plain = s.replaceAll("_", "");
  return /[0-9.]/.test(plain) && numbers.test(plain);
}

/** The quoting a string needs, or undefined to let the `yaml` package choose. */
function forcedQuote(s: string): Scalar.Type | undefined {
  if (readsAsNonString(s) || breaks.test(s)) return Scalar.QUOTE_DOUBLE;
  if (s.includes("\n") && edgeBlanks.test(s)) return Scalar.QUOTE_DOUBLE;
  return undefined;
}

/**
 * Marks every string scalar of a node built from a value (keys included: `on:`
 * is the key `true` to go-yaml) that must be quoted to read back as a string.
 */
function quoteStrings(node: Node): void {
  const quote = (scalar: Scalar) => {
    if (typeof scalar.value !== "string") return;
    const type = forcedQuote(scalar.value);
    if (type) scalar.type = type;
    // With merge keys on, the `yaml` package prints the string `<<` as a merge key, quotes or not.
    if (scalar.value === "<<") scalar.tag = "tag:yaml.org,2002:str";
  };
  if (isScalar(node)) quote(node);
  else visit(node, { Scalar: (_, scalar) => quote(scalar) });
}

/** A YAML node for `value` in `doc`: every object printed in full (no anchors), strings quoted as needed. */
export function nodeFor(doc: Document, value: unknown): Node {
  const node = doc.createNode(value, { aliasDuplicateObjects: false });
  quoteStrings(node);
  return node;
}

/** A value as one YAML document (no `---`), ending with a newline. */
export function printYaml(value: JsonValue): string {
  const doc = new Document(null, goYaml);
  doc.contents = nodeFor(doc, value);
  return doc.toString(printOptions);
}
