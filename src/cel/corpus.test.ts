import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseAllDocuments } from "yaml";
import type { FieldPath } from "../path/index.js";
import { clone, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { type CelBudget, type CelRules, compileRules, evaluateRules } from "./index.js";

const CORPUS = "/work/shared/corpus";
const RULE_COUNTS: Record<string, number> = {
  "gateway-api": 657,
  "cert-manager": 2,
  "prometheus-operator": 27,
  "kubebuilder-book": 0,
  crossplane: 56,
  "argo-workflows": 116,
};

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

/** Every schema node holding x-kubernetes-validations, with its path. */
function nodesWithRules(schema: JsonValue, path: FieldPath, out: Array<[JsonObject, FieldPath]>): void {
  if (Array.isArray(schema)) {
    schema.forEach((v, i) => {
      nodesWithRules(v, [...path, i], out);
    });
    return;
  }
  if (!isObject(schema)) return;
  if (Array.isArray(schema["x-kubernetes-validations"])) out.push([schema, path]);
  for (const [k, v] of Object.entries(schema))
    if (k !== "x-kubernetes-validations") nodesWithRules(v, [...path, k], out);
}

let projects: string[] = [];
try {
  projects = readdirSync(CORPUS).filter((p) =>
    statSync(join(CORPUS, p, "crds"), { throwIfNoEntry: false })?.isDirectory(),
  );
} catch {
  projects = [];
}

describe.skipIf(projects.length === 0)("corpus CRDs", () => {
  test.each(projects)("every x-kubernetes-validations rule of %s compiles", (project) => {
    const problems: string[] = [];
    let rules = 0;
    for (const file of yamlFiles(join(CORPUS, project, "crds"))) {
      for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
        const crd = doc.toJS() as JsonValue;
        if (!isObject(crd) || crd.kind !== "CustomResourceDefinition") continue;
        const versions = (crd.spec as JsonObject | undefined)?.versions;
        if (!Array.isArray(versions)) continue;
        versions.forEach((v, i) => {
          if (!isObject(v)) return;
          const schema = (v.schema as JsonObject | undefined)?.openAPIV3Schema;
          const found: Array<[JsonObject, FieldPath]> = [];
          nodesWithRules(schema ?? null, ["spec", "versions", i, "schema", "openAPIV3Schema"], found);
          for (const [node, path] of found) {
            rules += (node["x-kubernetes-validations"] as JsonValue[]).length;
            const { rules: compiled, findings } = compileRules(node, path);
            for (const f of findings) problems.push(`${file}: ${f.message}`);
            if (compiled === undefined) problems.push(`${file}: ${path.join(".")}: nothing compiled`);
          }
        });
      }
    }
    expect(problems).toEqual([]);
    // the per-project counts of corpus/README.md
    expect(rules).toBe(RULE_COUNTS[project]);
  });
});

// ---- CEL over the corpus examples (a minimal walker: defaults, then every node's rules) ----

interface Crd {
  group: string;
  kind: string;
  versions: Map<string, JsonObject>;
}

function loadCrds(files: string[]): Crd[] {
  const out: Crd[] = [];
  for (const file of files)
    for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
      const crd = doc.toJS() as JsonValue;
      if (!isObject(crd) || crd.kind !== "CustomResourceDefinition") continue;
      const spec = crd.spec as JsonObject;
      const versions = new Map<string, JsonObject>();
      for (const v of (spec.versions as JsonObject[]) ?? []) {
        const schema = (v.schema as JsonObject | undefined)?.openAPIV3Schema;
        if (isObject(schema)) versions.set(v.name as string, schema);
      }
      out.push({ group: spec.group as string, kind: (spec.names as JsonObject).kind as string, versions });
    }
  return out;
}

/** Structural defaulting (apiextensions `Default`): fills missing properties that have a default. */
function applyDefaults(schema: JsonObject, value: JsonValue): JsonValue {
  if (isObject(value)) {
    const props = getKey(schema, "properties");
    if (isObject(props))
      for (const [name, sub] of Object.entries(props)) {
        if (!isObject(sub)) continue;
        if (value[name] === undefined && sub.default !== undefined) value[name] = clone(sub.default as JsonValue);
        if (value[name] !== undefined) value[name] = applyDefaults(sub, value[name] as JsonValue);
      }
    const ap = getKey(schema, "additionalProperties");
    if (isObject(ap)) for (const k of Object.keys(value)) value[k] = applyDefaults(ap, value[k] as JsonValue);
  } else if (Array.isArray(value)) {
    const items = getKey(schema, "items");
    if (isObject(items))
      value.forEach((v, i) => {
        value[i] = applyDefaults(items, v);
      });
  }
  return value;
}

const compiledCache = new Map<JsonObject, CelRules | undefined>();

/** Evaluates every node's rules (old values correlated through properties, map keys and list-type=map keys). */
function celWalk(
  schema: JsonObject,
  value: JsonValue | undefined,
  old: JsonValue | undefined,
  path: FieldPath,
  budget: CelBudget,
  out: string[],
): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(schema["x-kubernetes-validations"])) {
    if (!compiledCache.has(schema)) compiledCache.set(schema, compileRules(schema, []).rules);
    const rules = compiledCache.get(schema);
    if (rules) for (const f of evaluateRules(rules, value, old, path, budget)) out.push(f.message);
  }
  if (isObject(value)) {
    const props = getKey(schema, "properties");
    const ap = getKey(schema, "additionalProperties");
    for (const [k, v] of Object.entries(value)) {
      const sub = isObject(props) ? getKey(props, k) : isObject(ap) ? ap : undefined;
      if (isObject(sub))
        celWalk(
          sub,
          v,
          isObject(old) ? getKey(old, k) : undefined,
          [...path, isObject(props) ? k : { key: k }],
          budget,
          out,
        );
    }
  } else if (Array.isArray(value)) {
    const items = getKey(schema, "items");
    if (!isObject(items)) return;
    const keys =
      schema["x-kubernetes-list-type"] === "map" ? (schema["x-kubernetes-list-map-keys"] as string[]) : undefined;
    value.forEach((v, i) => {
      let o: JsonValue | undefined;
      if (keys && Array.isArray(old) && isObject(v))
        o = old.find((x) => isObject(x) && keys.every((k) => JSON.stringify(x[k]) === JSON.stringify(v[k])));
      celWalk(items, v, o, [...path, i], budget, out);
    });
  }
}

function validateCel(crds: Crd[], obj: JsonValue, old?: JsonValue): string[] | undefined {
  if (!isObject(obj) || typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") return undefined;
  const [group, version] = obj.apiVersion.includes("/") ? obj.apiVersion.split("/") : ["", obj.apiVersion];
  const crd = crds.find((c) => c.group === group && c.kind === obj.kind && c.versions.has(version as string));
  const schema = crd?.versions.get(version as string);
  if (schema === undefined) return undefined;
  const out: string[] = [];
  const value = applyDefaults(schema, clone(obj));
  const oldValue = old === undefined ? undefined : applyDefaults(schema, clone(old));
  celWalk(schema, value, oldValue, [], { remaining: 10_000_000 }, out);
  return out;
}

function objectsOf(file: string): JsonValue[] {
  return parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS() as JsonValue);
}

const exampleProjects = projects.filter((p) => statSync(join(CORPUS, p, "examples"), { throwIfNoEntry: false }));

describe.skipIf(exampleProjects.length === 0)("corpus examples pass their CRDs' CEL rules", () => {
  test.each(exampleProjects)("%s", (project) => {
    const crdFiles = yamlFiles(join(CORPUS, project, "crds"));
    const channels = new Map<string, Crd[]>();
    const crdsFor = (file: string): Crd[] => {
      const channel =
        project === "gateway-api" ? (file.includes("/experimental/") ? "experimental" : "standard") : "all";
      let crds = channels.get(channel);
      if (crds === undefined) {
        crds = loadCrds(channel === "all" ? crdFiles : crdFiles.filter((f) => f.includes(`/crds/${channel}/`)));
        channels.set(channel, crds);
      }
      return crds;
    };
    const failures: string[] = [];
    let checked = 0;
    for (const file of yamlFiles(join(CORPUS, project, "examples"))) {
      for (const obj of objectsOf(file)) {
        let out = validateCel(crdsFor(file), obj);
        if (out === undefined && project === "gateway-api") out = validateCel(crdsFor("/experimental/"), obj);
        if (out === undefined) continue;
        checked++;
        for (const m of out) failures.push(`${file.slice(CORPUS.length + 1)}: ${m}`);
      }
    }
    expect(failures).toEqual([]);
    if (project !== "kubebuilder-book") expect(checked).toBeGreaterThan(0);
  });
});

const XP = join(CORPUS, "crossplane");
const VC = join(XP, "validation-cases/test/e2e/manifests");

describe.skipIf(!statSync(VC, { throwIfNoEntry: false }))(
  "crossplane validation cases (CEL part of EXPECTED.md)",
  () => {
    let loaded: Crd[] | undefined;
    const crds = () => {
      loaded ??= loadCrds(yamlFiles(join(XP, "crds")));
      return loaded;
    };
    const one = (file: string) => objectsOf(file)[0] as JsonValue;
    const cel = (file: string, oldFile?: string) =>
      validateCel(crds(), one(join(VC, file)), oldFile === undefined ? undefined : one(join(VC, oldFile))) ?? [
        "no CRD",
      ];
    const xrd = (f: string) => `apiextensions/xrd/validation/${f}.yaml`;
    const mrd = (f: string) => `apiextensions/mrd/validation/${f}.yaml`;
    const comp = (f: string) => `apiextensions/composition/validation/${f}.yaml`;
    const immutable = (field: string, type = "object") => `spec.${field}: Invalid value: "${type}": Value is immutable`;
    const lowercase = (field: string) => `spec.${field}: Invalid value: "object": Plural name must be lowercase`;
    const activeState = 'spec.state: Invalid value: "string": state cannot be changed once it becomes Active';

    test("XRD", () => {
      expect(cel(xrd("xrd-valid"))).toEqual([]);
      expect(cel(xrd("xrd-valid-updated"), xrd("xrd-valid"))).toEqual([]);
      expect(cel(xrd("xrd-valid-updated-invalid"), xrd("xrd-valid-updated"))).toEqual(
        expect.arrayContaining([lowercase("claimNames"), immutable("claimNames")]),
      );
      expect(cel(xrd("xrd-immutable-updated"), xrd("xrd-valid-updated"))).toEqual([immutable("group", "string")]);
      expect(cel(xrd("xrd-invalid"))).toEqual([lowercase("claimNames")]);
    });
    test("MRD", () => {
      expect(cel(mrd("mrd-defaulted"))).toEqual([]);
      expect(cel(mrd("mrd-valid"), mrd("mrd-defaulted"))).toEqual([]);
      expect(cel(mrd("mrd-valid-updated"), mrd("mrd-valid"))).toEqual([]);
      expect(cel(mrd("mrd-valid-updated-invalid"), mrd("mrd-valid-updated"))).toEqual(
        expect.arrayContaining([lowercase("names"), immutable("names"), activeState]),
      );
      expect(cel(mrd("mrd-immutable-updated"), mrd("mrd-valid-updated"))).toEqual(
        expect.arrayContaining([immutable("group", "string"), activeState]),
      );
      expect(cel(mrd("mrd-invalid"), mrd("mrd-valid-updated"))).toEqual(
        expect.arrayContaining([lowercase("names"), immutable("names"), activeState]),
      );
      expect(cel(mrd("mrd-active-to-inactive"), mrd("mrd-valid-updated"))).toEqual([activeState]);
    });
    test("Composition", () => {
      expect(cel(comp("composition-invalid-missing-pipeline"))).toEqual([
        'spec: Invalid value: "object": an array of pipeline steps is required in Pipeline mode',
      ]);
      // minItems and list-map key duplicates are structural, not CEL
      expect(cel(comp("composition-invalid-empty-pipeline"))).toEqual([]);
      expect(cel(comp("composition-invalid-duplicate-pipeline-steps"))).toEqual([]);
      expect(cel(comp("composition-invalid-missing-secretref"))).toEqual([
        'spec.pipeline[0].credentials[0]: Invalid value: "object": the Secret source requires a secretRef',
      ]);
    });
    test("Usage", () => {
      const msg = 'spec: Invalid value: "object": cross-namespace "spec.of" is not allowed without "spec.by" resource.';
      expect(cel("protection/usage/standalone-namespaced/ref-without-by-cross-namespace-invalid/usage.yaml")).toEqual([
        msg,
      ]);
      expect(
        cel("protection/usage/standalone-namespaced/selector-without-by-cross-namespace-invalid/usage.yaml"),
      ).toEqual([msg]);
    });
  },
);
