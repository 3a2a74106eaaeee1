/**
 * Validation throughput over the whole corpus (shared/corpus): every example
 * object with a CRD in its project, validated as `kunion validate` does
 * (defaults, structure, CEL, unions). Reported as objects per second and as a
 * ratio to parsing the same YAML in the same run (target: below 1); and, for
 * the keywords both understand, kunion's compiled closures against Ajv's
 * generated code (JIT) on the same schemas stripped to plain JSON Schema
 * (target: no slower). Run: npm run bench
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import {
  buildCatalog,
  compileSchema,
  isObject,
  type JsonObject,
  type JsonValue,
  objectsOf,
  parseSource,
  type SourceDocument,
  validateObject,
  validateWithSchema,
} from "../src/index.js";
import { median, medianPair, parseYaml } from "./measure.js";

const corpus = process.env.KUNION_CORPUS ?? join(process.cwd(), "../shared/corpus");
const projects: Record<string, string[]> = {
  "gateway-api": ["crds/experimental"],
  "cert-manager": ["crds"],
  "prometheus-operator": ["crds"],
  "kubebuilder-book": ["crds"],
  crossplane: ["crds"],
  "argo-workflows": ["crds/full", "crds/minimal"],
};
const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
const parse = (file: string) => parseSource(readFileSync(file, "utf8"), file, { maxDocumentBytes: 8 * 1024 * 1024 });

interface Item {
  catalog: ReturnType<typeof buildCatalog>["catalog"];
  apiVersion: string;
  kind: string;
  object: JsonObject;
  raw?: JsonObject; // the CRD version's openAPIV3Schema
}
const items: Item[] = [];
const exampleTexts: string[] = [];
for (const [project, dirs] of Object.entries(projects)) {
  const crdDocs: SourceDocument[] = dirs.flatMap((d) =>
    yamlFiles(join(corpus, project, d)).flatMap((f) => parse(f).documents),
  );
  const { catalog } = buildCatalog(crdDocs);
  for (const file of yamlFiles(join(corpus, project, "examples"))) {
    const text = readFileSync(file, "utf8");
    const { objects } = objectsOf(parseSource(text, file).documents);
    let used = false;
    for (const o of objects) {
      const target = catalog.resolve(o.apiVersion, o.kind);
      if (target?.kind !== "crd") continue;
      items.push({
        catalog,
        apiVersion: o.apiVersion,
        kind: o.kind,
        object: o.object,
        raw: target.version.openAPIV3Schema,
      });
      used = true;
    }
    if (used) exampleTexts.push(text);
  }
}

let sink = 0;
const yamlMs = median(() => {
  for (const t of exampleTexts) sink += parseYaml(t);
});
const validateMs = median(() => {
  for (const i of items) sink += validateObject(i.catalog, i.apiVersion, i.kind, i.object).length;
});

// The keywords both understand: drop Kubernetes extensions and CEL from each schema.
function plain(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(plain);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    // Patterns too: Go's RE2 syntax is not JavaScript's, and Ajv would run them on a backtracking RegExp.
    if (k.startsWith("x-kubernetes-") || ["nullable", "default", "format", "pattern"].includes(k)) continue;
    out[k] =
      k === "properties" && isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, plain(s)]))
        : plain(v);
  }
  return out;
}
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
const pairs = new Map<
  JsonObject,
  { ours: ReturnType<typeof compileSchema>["compiled"]; theirs: ReturnType<typeof ajv.compile> }
>();
for (const i of items) {
  if (!i.raw || pairs.has(i.raw)) continue;
  const stripped = plain(i.raw) as JsonObject;
  pairs.set(i.raw, { ours: compileSchema(stripped).compiled, theirs: ajv.compile(stripped) });
}
// Interleaved pass for pass, so garbage and CPU state weigh on both alike.
const plainOurs = () => {
  for (const i of items) {
    const pair = i.raw && pairs.get(i.raw);
    if (pair) sink += validateWithSchema(pair.ours, i.object, { unknownFields: "ignore" }).findings.length;
  }
};
const plainAjv = () => {
  for (const i of items) if (i.raw) sink += pairs.get(i.raw)?.theirs(i.object) ? 1 : 0;
};
const [oursMs, ajvMs] = medianPair(plainOurs, plainAjv);

const perSecond = (ms: number) => Math.round((items.length / ms) * 1000);
console.log(`${items.length} corpus objects with a CRD, ${exampleTexts.length} files, ${pairs.size} schemas`);
console.log(`baseline: parsing their YAML (yaml package) ${yamlMs.toFixed(1)} ms per pass`);
console.log(
  `kunion validate (defaults, structure, CEL, unions): ${validateMs.toFixed(1)} ms, ${perSecond(validateMs)} objects/s, ratio to YAML parsing ${(validateMs / yamlMs).toFixed(2)}`,
);
console.log(
  `plain JSON Schema keywords only: kunion ${oursMs.toFixed(1)} ms, Ajv (JIT) ${ajvMs.toFixed(1)} ms, ratio kunion/Ajv ${(oursMs / ajvMs).toFixed(2)}`,
);
if (sink < 0) console.log(sink);
