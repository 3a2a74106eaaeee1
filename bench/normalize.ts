/**
 * Normalization cost on real objects, as a ratio to JSON.parse of the same
 * documents measured in the same run (target: below 0.2). Objects: every
 * Gateway API example in shared/corpus, with its CRD (experimental channel)
 * or built-in schema. Run: npm run bench
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type JsonValue,
  loadWorkspace,
  normalize,
  type SchemaNode,
  type TextFile,
  validateUnions,
} from "../src/index.js";
import { median } from "./measure.js";

const corpus = process.env.KUNION_CORPUS ?? join(process.cwd(), "../shared/corpus");
const files = (dir: string): TextFile[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));

const workspace = loadWorkspace({
  inputs: files(join(corpus, "gateway-api/examples")),
  crds: files(join(corpus, "gateway-api/crds/experimental")),
});
// The old revision is a separate copy, as when it is read from a cluster or a base commit.
const items: Array<{ text: string; object: JsonValue; old: JsonValue; schema: SchemaNode | undefined }> =
  workspace.objects.map((o) => ({
    text: JSON.stringify(o.object),
    object: o.object,
    old: JSON.parse(JSON.stringify(o.object)),
    schema: workspace.catalog.schemaFor(o.apiVersion, o.kind),
  }));
const bytes = items.reduce((n, i) => n + i.text.length, 0);

let sink = 0;
const parse = median(() => {
  for (const i of items) sink += (JSON.parse(i.text) as object) ? 1 : 0;
});
const cases: Array<[string, () => void]> = [
  [
    "normalize, create",
    () => {
      for (const i of items) sink += normalize({ object: i.object, schema: i.schema }).changes.length;
    },
  ],
  [
    "normalize, update",
    () => {
      for (const i of items) sink += normalize({ object: i.object, oldObject: i.old, schema: i.schema }).changes.length;
    },
  ],
  [
    "validate unions, create",
    () => {
      for (const i of items) sink += validateUnions({ object: i.object, schema: i.schema }).length;
    },
  ],
  [
    "validate unions, update",
    () => {
      for (const i of items) sink += validateUnions({ object: i.object, oldObject: i.old, schema: i.schema }).length;
    },
  ],
];

console.log(`${items.length} Gateway API objects, ${(bytes / 1024).toFixed(0)} KiB of JSON`);
console.log(
  `baseline JSON.parse: ${parse.toFixed(3)} ms per pass (${(bytes / 1024 / 1024 / (parse / 1000)).toFixed(0)} MiB/s)`,
);
for (const [name, run] of cases) {
  const ms = median(run);
  console.log(`${name}: ${ms.toFixed(3)} ms per pass, ratio to JSON.parse ${(ms / parse).toFixed(3)}`);
}
if (sink < 0) console.log(sink); // keep the work observable
