import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { indexByIdentity } from "../../src/check/index.js";
import {
  buildCatalog,
  type Catalog,
  type Finding,
  normalizeObjects,
  objectsOf,
  parseSource,
  type SourceDocument,
  validateObjects,
} from "../../src/index.js";

// Real CRDs and manifests from six projects (shared/corpus, beside the checkout in CI),
// with what kunion must say about them in expected.yaml.
const corpus = join(import.meta.dirname, "../../../shared/corpus");
const expected = parse(readFileSync(join(import.meta.dirname, "expected.yaml"), "utf8"));

function yamlFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function read(file: string): { documents: SourceDocument[]; findings: Finding[] } {
  return parseSource(readFileSync(file, "utf8"), relative(corpus, file));
}

const catalogs = new Map<string, { catalog: Catalog; findings: Finding[] }>();
function catalogOf(project: string) {
  let entry = catalogs.get(project);
  if (!entry) {
    const dirs = String(expected.crds[project]).split(" ");
    const docs = dirs.flatMap((d) => yamlFiles(join(corpus, project, d))).flatMap((f) => read(f).documents);
    entry = buildCatalog(docs);
    catalogs.set(project, entry);
  }
  return entry;
}

/** Error messages for the objects of some files, as `file: message`. */
function errors(project: string, files: string[], oldFiles: string[] = []): string[] {
  const { catalog } = catalogOf(project);
  const parsed = files.map(read);
  const { objects, findings } = objectsOf(parsed.flatMap((p) => p.documents));
  const old = indexByIdentity(objectsOf(oldFiles.flatMap((f) => read(f).documents)).objects);
  return [...parsed.flatMap((p) => p.findings), ...findings, ...validateObjects(objects, catalog, { old })]
    .filter((f) => f.severity === "error")
    .map((f) => `${f.file}: ${f.message}`);
}

type Expectation = { file?: string; dir?: string; match?: string; errors: string[] };
const projectOf = (path: string) => path.split("/")[0] as string;

describe.skipIf(!existsSync(corpus))("corpus", () => {
  const projects = Object.keys(expected.crds);

  it.each(projects)("%s: every CRD reads and compiles without an error", (project) => {
    expect(catalogOf(project).findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(catalogOf(project).catalog.crds.length).toBeGreaterThan(0);
  });

  it.each(projects)("%s: every example validates clean but the invalid ones recorded", (project) => {
    const files = yamlFiles(join(corpus, project, "examples"));
    const found = errors(project, files);
    const invalid: Expectation[] = expected.invalidExamples.filter(
      (e: Expectation) => projectOf(e.file as string) === project,
    );
    const allowed = (line: string) =>
      invalid.some((e) => line.startsWith(`${e.file}: `) && e.errors.some((m) => line.includes(m)));
    expect(found.filter((line) => !allowed(line))).toEqual([]);
    for (const e of invalid) {
      for (const m of e.errors)
        expect(
          found.some((line) => line.startsWith(`${e.file}: `) && line.includes(m)),
          m,
        ).toBe(true);
    }
  });

  it.each(projects)("%s: normalize(x, x) changes no example", (project) => {
    const { catalog } = catalogOf(project);
    const { objects } = objectsOf(yamlFiles(join(corpus, project, "examples")).flatMap((f) => read(f).documents));
    const results = normalizeObjects(objects, catalog, { old: indexByIdentity(objects) });
    expect(results.flatMap((r) => r.changes.map((c) => `${r.file}: ${c.op} ${c.path}`))).toEqual([]);
  });

  const notValid: Array<[string, Expectation]> = expected.notValidAsIs.map((e: Expectation) => [e.file ?? e.dir, e]);
  it.each(notValid)("not valid as is: %s", (target, e) => {
    const files = yamlFiles(join(corpus, target)).filter((f) => !e.match || f.endsWith(e.match));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const found = errors(projectOf(target), [file]);
      for (const m of e.errors)
        expect(
          found.some((line) => line.includes(m)),
          `${file}: ${m}\n${found.join("\n")}`,
        ).toBe(true);
    }
  });

  type Step = { file: string; old?: string; errors?: string[] };
  it.each<{ dir: string; steps: Step[] }>(expected.crossplaneCases)(
    "crossplane validation cases: $dir",
    ({ dir, steps }) => {
      const at = (f: string) => {
        const inCases = join(corpus, "crossplane/validation-cases/test/e2e/manifests", dir, f);
        return existsSync(inCases) ? inCases : join(corpus, "crossplane/examples/test/e2e/manifests", dir, f);
      };
      for (const step of steps) {
        const found = errors("crossplane", [at(step.file)], step.old ? [at(step.old)] : []);
        const label = `${step.file}${step.old ? ` over ${step.old}` : ""}`;
        if (!step.errors) expect(found, label).toEqual([]);
        for (const m of step.errors ?? [])
          expect(
            found.some((line) => line.includes(m)),
            `${label}: ${m}\n${found.join("\n")}`,
          ).toBe(true);
      }
    },
  );
});
