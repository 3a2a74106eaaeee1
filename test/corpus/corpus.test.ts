import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadWorkspace, normalizeObjects, type TextFile, validateObjects } from "../../src/index.js";

// Real CRDs and manifests from six projects (shared/corpus, beside the checkout in CI).
const corpus = join(import.meta.dirname, "../../../shared/corpus");

function files(dir: string): TextFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ya?ml|json)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

// Gateway API's experimental channel is a superset of the standard one: load one channel.
const projects: Array<[string, string]> = [
  ["gateway-api", "crds/experimental"],
  ["cert-manager", "crds"],
  ["prometheus-operator", "crds"],
  ["kubebuilder-book", "crds"],
  ["crossplane", "crds"],
  ["argo-workflows", "crds/full"],
];

describe.skipIf(!existsSync(corpus))("corpus: every known-valid example passes union validation", () => {
  it.each(projects)("%s", (project, crdDir) => {
    const workspace = loadWorkspace({
      inputs: files(join(corpus, project, "examples")),
      crds: files(join(corpus, project, crdDir)),
    });
    expect(workspace.findings.filter((f) => f.severity === "error")).toEqual([]);
    const findings = validateObjects(workspace.objects, workspace.catalog).filter((f) => f.severity !== "notice");
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([]);
    expect(workspace.objects.length).toBeGreaterThan(0);

    // normalize(x, x) changes nothing in a valid object, on real data.
    const old = new Map(workspace.objects.filter((o) => o.identity).map((o) => [o.identity, o.object]));
    const results = normalizeObjects(workspace.objects, workspace.catalog, { old });
    expect(results.flatMap((r) => r.changes.map((c) => `${r.file}: ${c.op} ${c.path}`))).toEqual([]);
  });
});
