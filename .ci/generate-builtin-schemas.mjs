// Writes the schema tables of Kubernetes' own kinds, one per release, from
// the models of @kubernetes/client-node, which is generated from each
// release's OpenAPI document (one client minor per Kubernetes minor):
// every property of every definition, its type and format, and (from the
// TypeScript declarations) which properties are required. Quantities are
// plain strings there; kubernetes-models names them (one release suffices:
// a field is a Quantity in every release that has it).
//
// The client packages are fetched with `npm pack` at pinned versions and
// integrity, not installed: only their model files are read, so `npm ci`
// does not get 4 × 60 MB of HTTP client for a build step. Run by
// `npm run build:builtins`; .ci/run fails when the output is stale.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Kubernetes minor → the client-node release generated from it (its README's compatibility table; models say `OpenAPI spec version`). */
const sources = {
  1.32: { version: "1.1.3", spec: "v1.32.0" },
  1.33: { version: "1.3.0", spec: "v1.33.0" },
  1.34: { version: "1.4.0", spec: "v1.34.0" },
  1.36: { version: "2.0.1", spec: "release-1.36" },
};

function unpacked(version) {
  const dir = join(root, "node_modules", ".cache", "kunion-builtin-sources", version);
  const models = join(dir, "package", "dist", "gen", "models");
  if (existsSync(models)) return join(dir, "package", "dist", "gen");
  mkdirSync(dir, { recursive: true });
  const out = execFileSync(
    "npm",
    ["pack", `@kubernetes/client-node@${version}`, "--json", "--silent", "--pack-destination", dir],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const [{ filename }] = JSON.parse(out);
  execFileSync("tar", ["xzf", join(dir, filename), "-C", dir, "package/dist/gen/models", "package/dist/gen/apis"]);
  return join(dir, "package", "dist", "gen");
}

/** Quantity-typed properties by definition (`v1/ResourceRequirements` → limits, requests), from kubernetes-models. */
function quantities() {
  const base = join(root, "node_modules", "kubernetes-models");
  const out = new Map();
  const walk = (dir, rel) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith("_")) walk(join(dir, entry.name), [...rel, entry.name]);
      else if (entry.name.endsWith(".d.ts") && rel.length > 0) {
        const text = readFileSync(join(dir, entry.name), "utf8");
        // By name alone: kubernetes-models has one release, whose beta versions may be gone.
        const key = entry.name.slice(0, -".d.ts".length);
        for (const m of text.matchAll(
          /"(\w+)"\??: (?:\{\s*\[key: string\]: |Array<)?IIoK8sApimachineryPkgApiResourceQuantity/g,
        )) {
          if (!out.has(key)) out.set(key, new Set());
          out.get(key).add(m[1]);
        }
      }
    }
  };
  walk(base, []);
  return out;
}

/** `V1beta1DeviceCapacity` → `DeviceCapacity`; group-prefixed names (`CoreV1Event`) likewise. */
function modelKey(name) {
  return /^(?:[A-Z][a-z]+)*?V\d+(?:(?:alpha|beta)\d+)?([A-Z]\w*)$/.exec(name)?.[1];
}

/** The type grammar of src/builtins/table.ts, from client-node's attribute type and format. */
function typeOf(type, format, isQuantity) {
  const list = /^Array<(.+)>$/.exec(type);
  // The attribute's format is its elements' (`Array<number>` int32, `{ [key: string]: string; }` byte).
  if (list) return `[${typeOf(list[1], format, isQuantity)}]`;
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return `{${typeOf(map[1], format, isQuantity)}}`;
  switch (type) {
    case "string":
      if (isQuantity) return "q";
      return format === "byte" ? "s/byte" : format === "date-time" ? "s/date-time" : "s";
    case "Date":
      return "s/date-time";
    case "V1MicroTime":
      // client-node's own format name: MicroTime decodes with apimachinery's RFC3339Micro layout.
      return "s/date-time-micro";
    case "number":
      if (format === "int32" || format === "int64") return `i/${format}`;
      return format === "double" ? "n/double" : "n";
    case "boolean":
      return "b";
    case "IntOrString":
      return "x";
    case "any":
    case "object":
      return "*";
    default:
      if (!/^[A-Z]\w+$/.test(type)) throw new Error(`unexpected client-node type ${type}`);
      return `#${type}`;
  }
}

/** Properties a model's declaration does not mark optional (`'name': string;`). */
function requiredOf(dts) {
  const klass = dts.slice(dts.indexOf("export declare class"));
  return [...klass.matchAll(/^ {4}'(\w+)': /gm)].map((m) => m[1]);
}

/** Kinds a user creates: the body type of each POST to a collection, with the group/version of its path. */
function kindsOf(apis, defs) {
  const kinds = {};
  for (const file of readdirSync(apis).filter((f) => f.endsWith("Api.js"))) {
    const text = readFileSync(join(apis, file), "utf8");
    for (const m of text.matchAll(
      /localVarPath = '\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(\/namespaces\/\{namespace\})?\/([a-z0-9]+)'[\s\S]*?HttpMethod\.(\w+)\)[\s\S]*?ObjectSerializer\.serialize\(body, "(\w+)"/g,
    )) {
      const [, core, group, version, , , method, model] = m;
      // Left-over API files of older releases name models this release no longer has.
      if (method !== "POST" || !defs[model]) continue;
      const apiVersion = core ? "v1" : `${group}/${version}`;
      const kind = model.replace(/^(?:[A-Z][a-z]+)*?V\d+(?:(?:alpha|beta)\d+)?(?=[A-Z])/, "");
      kinds[`${apiVersion}/${kind}`] = model;
    }
  }
  return kinds;
}

async function table(release, { version, spec }, quantity) {
  const gen = unpacked(version);
  const models = join(gen, "models");
  const defs = {};
  for (const file of readdirSync(models).filter((f) => f.endsWith(".js") && !/^(ObjectSerializer|all)\.js$/.test(f))) {
    const text = readFileSync(join(models, file), "utf8");
    // A package may still carry models of older releases left in its tree: only this release's count.
    if (!text.includes(`OpenAPI spec version: ${spec}`)) continue;
    const start = text.indexOf(".attributeTypeMap = [");
    if (start < 0) continue;
    const name = file.slice(0, -3);
    const attrs = JSON.parse(text.slice(text.indexOf("[", start), text.indexOf("];", start) + 1));
    const key = modelKey(name);
    const quantityProps = (key && quantity.get(key)) ?? new Set();
    const p = {};
    for (const a of attrs) p[a.baseName] = typeOf(a.type, a.format, quantityProps.has(a.baseName));
    const required = requiredOf(readFileSync(join(models, `${name}.d.ts`), "utf8"));
    defs[name] = required.length > 0 ? { p, r: required } : { p };
  }
  for (const [name, def] of Object.entries(defs))
    for (const t of Object.values(def.p))
      for (const [, ref] of t.matchAll(/#(\w+)/g)) if (!defs[ref]) throw new Error(`${name}: no model ${ref}`);
  const kinds = kindsOf(join(gen, "apis"), defs);
  return { release, source: `@kubernetes/client-node@${version}`, kinds: sortKeys(kinds), defs: sortKeys(defs) };
}

const sortKeys = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const quantity = quantities();
const outDir = join(root, "src", "builtins", "tables");
mkdirSync(outDir, { recursive: true });
for (const [release, source] of Object.entries(sources)) {
  const data = await table(release, source, quantity);
  const file = join(outDir, `k8s-${release.replace(".", "-")}.generated.ts`);
  const text =
    `// Generated by .ci/generate-builtin-schemas.mjs from ${data.source}. Do not edit.\n` +
    `export default ${JSON.stringify(JSON.stringify(data))};\n`;
  writeFileSync(file, text);
}
