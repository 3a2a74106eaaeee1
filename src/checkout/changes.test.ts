/**
 * The selection `kunion check` and the Action share: which changed files of
 * a checkout are Kubernetes files, with their text at the base.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deletedFiles, selectFiles, workTreeChanges } from "./changes.js";
import { checkCheckout } from "./check.js";
import { gitRepository } from "./testing.js";

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: backups.kunion.dev }
spec:
  group: kunion.dev
  names: { kind: Backup, plural: backups }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object } }
`;

/** A repository whose base commit holds a CRD file and a file that is no Kubernetes file. */
function repository() {
  const { ws, git } = gitRepository("kunion-changes-");
  mkdirSync(join(ws, "crds"));
  writeFileSync(join(ws, "crds/backups.yaml"), crd);
  writeFileSync(join(ws, "settings.yaml"), "colour: blue\n");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  return { ws, base: git("rev-parse", "HEAD") };
}

function check(edits: Record<string, string>) {
  const { ws, base } = repository();
  for (const [path, text] of Object.entries(edits)) writeFileSync(join(ws, path), text);
  const { changes } = workTreeChanges(ws, base);
  const selection = selectFiles(ws, changes, { globs: [], ignore: [], base });
  const { findings } = checkCheckout(ws, { ...selection, config: {} });
  rmSync(ws, { recursive: true, force: true });
  return { selected: selection.changed.map((f) => [f.path, f.before !== undefined]), findings };
}

describe("the changed Kubernetes files of a checkout", () => {
  it.each([
    ["emptied", ""],
    ["left with no apiVersion", "foo: bar\n"],
  ])("take in a CRD file %s, so the removal of its CRD is reported (crd-removed)", (_, text) => {
    const { selected, findings } = check({ "crds/backups.yaml": text });
    expect(selected).toEqual([["crds/backups.yaml", true]]);
    expect(findings.filter((f) => f.rule === "crd-removed").map((f) => [f.file, f.line, f.severity])).toEqual([
      ["crds/backups.yaml", 1, "error"],
    ]);
  });

  it("take in a deleted List of CRDs (kubectl get crd -o yaml), so the removal of each is reported at its item", () => {
    const { ws, git } = gitRepository("kunion-changes-list-");
    const item = `  - ${crd.trimEnd().split("\n").join("\n    ")}\n`;
    writeFileSync(join(ws, "crds.yaml"), `apiVersion: v1\nkind: List\nitems:\n${item}`);
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    const base = git("rev-parse", "HEAD");
    git("rm", "-q", "crds.yaml");
    const { changes, deleted } = workTreeChanges(ws, base);
    const selection = selectFiles(ws, changes, { globs: [], ignore: [], base });
    const removed = deletedFiles(ws, deleted, { ignore: [], base });
    const { findings } = checkCheckout(ws, { ...selection, deleted: removed, config: {} });
    rmSync(ws, { recursive: true, force: true });
    // the CRD is the list's first item: line 4
    expect(findings.filter((f) => f.rule === "crd-removed").map((f) => [f.file, f.line])).toEqual([["crds.yaml", 4]]);
  });

  it("leave out a changed file that names no apiVersion, now or at the base", () => {
    expect(check({ "settings.yaml": "colour: red\n" }).selected).toEqual([]);
  });
});
