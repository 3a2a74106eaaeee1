/**
 * The pre-commit hooks (.pre-commit-hooks.yaml) on an ordinary repository:
 * kunion-crd-diff selects CRDs, not kustomize's files beside them, and
 * kunion-validate passes when every staged file is one .kunion.yaml ignores.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { kunionIn } from "./run.js";

interface Hook {
  id: string;
  files: string;
  exclude?: string;
}
const hooks: Hook[] = parse(readFileSync(join(import.meta.dirname, "../../.pre-commit-hooks.yaml"), "utf8"));

/** Whether pre-commit passes the file to the hook: `files` and `exclude` are searched (Python's re.search). */
function selects(id: string, path: string): boolean {
  const hook = hooks.find((h) => h.id === id) as Hook;
  return new RegExp(hook.files).test(path) && !(hook.exclude !== undefined && new RegExp(hook.exclude).test(path));
}

describe("kunion-crd-diff", () => {
  it("selects the CRDs of a kubebuilder layout, not kustomization.yaml, kustomizeconfig.yaml or patches", () => {
    const tree = [
      "config/crd/bases/batch.example.com_cronjobs.yaml",
      "config/crd/kustomization.yaml",
      "config/crd/kustomizeconfig.yaml",
      "config/crd/patches/webhook_in_cronjobs.yaml",
      "config/crd/patches/cainjection_in_cronjobs.yaml",
      "crds/widgets.yaml",
      "deploy/widgets-crd.yaml",
      "config/samples/batch_v1_cronjob.yaml",
    ];
    expect(tree.filter((f) => selects("kunion-crd-diff", f))).toEqual([
      "config/crd/bases/batch.example.com_cronjobs.yaml",
      "crds/widgets.yaml",
      "deploy/widgets-crd.yaml",
    ]);
  });
});

describe("kunion-validate", () => {
  const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
  function repository(): string {
    const dir = mkdtempSync(join(tmpdir(), "kunion-hook-"));
    mkdirSync(join(dir, "charts"));
    writeFileSync(join(dir, ".kunion.yaml"), "ignore: [charts/**]\n");
    writeFileSync(join(dir, "charts/values.yaml"), "replicas: 3\n");
    writeFileSync(join(dir, "charts/a.yaml"), "{{ .Values }}\n");
    writeFileSync(join(dir, "app.yaml"), configMap.replace("name: c", "name: Bad"));
    return dir;
  }

  it("passes, with one notice, when every staged file is one .kunion.yaml ignores", () => {
    const dir = repository();
    const staged = ["charts/values.yaml", "charts/a.yaml"].filter((f) => selects("kunion-validate", f));
    expect(staged).toHaveLength(2);
    const { code, stdout, stderr } = kunionIn(dir, "validate", ...staged);
    expect(code).toBe(0);
    expect(stdout).toBe(
      "charts/values.yaml:1:1: notice skipped: 2 file(s) named match an ignore glob (--ignore, .kunion.yaml's ignore): not checked\n",
    );
    expect(stderr).toBe("0 file(s), 0 object(s): 0 error(s), 0 warning(s), 1 notice(s)\n");
  });

  it("checks the other files named beside an ignored one, and still refuses a folder with nothing left", () => {
    const dir = repository();
    const mixed = kunionIn(dir, "validate", "charts/values.yaml", "app.yaml");
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain("notice skipped: 1 file(s) named match an ignore glob");
    expect(mixed.stdout).toContain('app.yaml:3:12: error schema: metadata.name: Invalid value: "Bad"');
    expect(kunionIn(dir, "validate", "charts")).toMatchObject({
      code: 2,
      stderr: "kunion: no YAML or JSON file (*.yaml, *.yml, *.json) in charts that is not ignored\n",
    });
  });
});
