/**
 * Fuzzing the YAML reader (parseSource) and everything behind a file read
 * from text (loadWorkspace, then validate and normalize): arbitrary strings,
 * soups of YAML tokens, and generated YAML trees with anchors, aliases, merge
 * keys, tags and duplicate keys, corrupted at random.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { checksFiles, readsText } from "./faces.js";
import { params, testTimeout } from "./harness.js";

/** The text read, and read as a manifest: validated and normalized, as `kunion validate` and `normalize` do. */
function holds(text: string): void {
  readsText(text, "fuzz.yaml");
  checksFiles({ inputs: [{ path: "fuzz.yaml", text }] });
}

// Characters and fragments that mean something to a YAML reader.
const fragments = [
  ...": - ? , [ ] { } & * ! | > ' \" % @ ` # ~ \\ = < . 0 1 a x".split(" "),
  " ",
  "  ",
  "\n",
  "\r\n",
  "\r",
  "\t",
  "\uFEFF",
  "\u0000",
  "\u0085",
  "\u2028",
  "\uD800",
  "é",
  "💥",
  "a: ",
  "- ",
  "&a ",
  "*a",
  "&b ",
  "*b",
  "<<: ",
  "<<: *a",
  "!!binary ",
  "!!set ",
  "!!omap ",
  "!!pairs ",
  "!!str ",
  "!!int ",
  "!!float ",
  "!!null ",
  "!!bool ",
  "!!timestamp ",
  "!!merge ",
  "!custom ",
  "!<tag:yaml.org,2002:str> ",
  "!e! ",
  "'q'",
  "'it''s'",
  '"d\\u0041\\x00"',
  '"\\',
  "|\n",
  "|-\n",
  ">+2\n",
  "? ",
  "---\n",
  "--- ",
  "...\n",
  "%YAML 1.1\n",
  "%YAML 1.2\n",
  "%TAG !e! tag:e.com,2000:\n",
  "# c\n",
  "yes",
  "no",
  "on",
  "off",
  "0x1F",
  "0o17",
  "017",
  "1_000",
  "1:30",
  ".inf",
  "-.inf",
  ".nan",
  "1e5",
  ".5",
  "2001-01-01",
  "2001-12-14t21:59:43.10-05:00",
  "null",
  "~",
  "R0lGODlhDAAMAIQAAP",
  "apiVersion: v1\n",
  "kind: ConfigMap\n",
  "metadata:\n  name: x\n",
  "__proto__: ",
  "constructor: ",
  "{{ .Values.x }}",
];

const soup = fc.array(fc.constantFrom(...fragments), { maxLength: 60 }).map((parts) => parts.join(""));

// A YAML tree, rendered in block or flow style.
type Node =
  | { t: "scalar"; text: string }
  | { t: "seq"; items: Node[]; flow: boolean }
  | { t: "map"; entries: Array<[string, Node]>; flow: boolean }
  | { t: "alias"; name: string }
  | { t: "anchor"; name: string; node: Node }
  | { t: "tag"; tag: string; node: Node };

const anchorName = fc.constantFrom("a", "b", "c");
const scalarText = fc.oneof(
  fc.constantFrom("x", "1", "-1", "0.5", "1e3", "true", "yes", "No", "~", "null", "0x10", "012", ".inf", "12:30"),
  fc.constantFrom("''", '""', "'a b'", '"x\\ty"', '"\\u00e9"', "'#'", "2001-01-01", "R0lGODlhAQ==", "|"),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.stringMatching(/^[a-z][a-z0-9 ]{0,7}$/),
);
// Few keys, so duplicates happen; `<<` merges what an alias or a list of aliases names.
const mapKey = fc.constantFrom("a", "b", "k", "name", "apiVersion", "kind", "__proto__", "<<", "? x", '"a"', "1", "");
const tag = fc.constantFrom("!!str", "!!int", "!!binary", "!!set", "!!omap", "!!map", "!!seq", "!!merge", "!x", "!");

const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalarText.map((text): Node => ({ t: "scalar", text })),
    anchorName.map((name): Node => ({ t: "alias", name })),
    fc
      .record({ items: fc.array(tie("node"), { maxLength: 4 }), flow: fc.boolean() })
      .map((r): Node => ({ t: "seq", ...r })),
    fc
      .record({ entries: fc.array(fc.tuple(mapKey, tie("node")), { maxLength: 4 }), flow: fc.boolean() })
      .map((r): Node => ({ t: "map", ...r })),
    fc.record({ name: anchorName, node: tie("node") }).map((r): Node => ({ t: "anchor", ...r })),
    fc.record({ tag, node: tie("node") }).map((r): Node => ({ t: "tag", ...r })),
  ),
})).node;

function flow(n: Node): string {
  switch (n.t) {
    case "scalar":
      return n.text;
    case "alias":
      return `*${n.name}`;
    case "anchor":
      return `&${n.name} ${flow(n.node)}`;
    case "tag":
      return `${n.tag} ${flow(n.node)}`;
    case "seq":
      return `[${n.items.map(flow).join(", ")}]`;
    case "map":
      return `{${n.entries.map(([k, v]) => `${k}: ${flow(v)}`).join(", ")}}`;
  }
}

/** What follows `key:` or `- ` at `indent`: a block collection on the next lines, anything else inline. */
function block(n: Node, indent: number): string {
  const pad = " ".repeat(indent);
  if ((n.t === "anchor" || n.t === "tag") && (n.node.t === "seq" || n.node.t === "map") && !n.node.flow)
    return ` ${n.t === "anchor" ? `&${n.name}` : n.tag}${block(n.node, indent)}`;
  if (n.t === "seq" && !n.flow && n.items.length > 0)
    return n.items.map((item) => `\n${pad}-${block(item, indent + 2)}`).join("");
  if (n.t === "map" && !n.flow && n.entries.length > 0)
    return n.entries.map(([k, v]) => `\n${pad}${k}:${block(v, indent + 2)}`).join("");
  return ` ${flow(n)}`;
}

/** Where and what to corrupt: a fragment inserted at a fraction of the text, or a slice cut out. */
const corruption = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  cut: fc.nat({ max: 5 }),
  insert: fc.constantFrom(...fragments, ""),
});

const documents = fc
  .record({
    roots: fc.array(tree, { minLength: 1, maxLength: 3 }),
    prefix: fc.constantFrom("", "\uFEFF", "%YAML 1.1\n---\n", "--- ", "# head\n"),
    lineEnd: fc.constantFrom("\n", "\r\n"),
    tabs: fc.boolean(),
    corrupt: fc.array(corruption, { maxLength: 2 }),
  })
  .map(({ roots, prefix, lineEnd, tabs, corrupt }) => {
    let text = prefix + roots.map((r) => block(r, 0).replace(/^\n/, "").trimStart()).join("\n---\n");
    if (tabs) text = text.replace(/\n {2}/g, "\n\t");
    text = text.replace(/\n/g, lineEnd);
    for (const c of corrupt) {
      const i = Math.floor(c.at * text.length);
      text = text.slice(0, i) + c.insert + text.slice(i + c.cut);
    }
    return text;
  });

/** A manifest with a generated value under `data`: an alias there is what the ConfigMap bombs did. */
const manifests = fc.tuple(tree, fc.boolean()).map(([n, blockStyle]) => {
  const head = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fuzz\n";
  return `${head}data:${blockStyle ? block(n, 2) : ` ${flow(n)}`}\n`;
});

/**
 * Nesting around the 512 levels a document may have and far past them, where the `yaml` package's
 * composer would overflow the stack, in flow and block styles, closed or not.
 */
const nesting = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 1, max: 650 }), fc.integer({ min: 650, max: 5_000 })),
    style: fc.constantFrom("[", "{a: ", "- ", "a:\n"),
    closed: fc.boolean(),
    prefix: fc.constantFrom("", "a: ", "apiVersion: v1\nkind: ConfigMap\ndata:\n  x: "),
  })
  .map(({ depth, style, closed, prefix }) => {
    if (style === "a:\n") return prefix + Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}a:`).join("\n");
    const close = closed && style === "[" ? "]" : closed && style === "{a: " ? "}" : "";
    return `${prefix}${style.repeat(depth)}x${close.repeat(depth)}\n`;
  });

describe("fuzz: YAML reading", () => {
  it(
    "arbitrary strings",
    () => fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }), holds), params(400)),
    testTimeout,
  );

  it("soups of YAML tokens", () => fc.assert(fc.property(soup, holds), params(600)), testTimeout);

  it(
    "generated YAML trees with anchors, aliases, merges, tags, corrupted",
    () => {
      fc.assert(fc.property(documents, holds), params(600));
    },
    testTimeout,
  );

  it("deep nesting", () => fc.assert(fc.property(nesting, holds), params(60)), testTimeout);

  it(
    "generated manifests through validate and normalize",
    () => {
      fc.assert(fc.property(manifests, holds), params(300));
    },
    testTimeout,
  );
});
