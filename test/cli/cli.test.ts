import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { run } from "../../src/cli/main.js";

const examples = join(import.meta.dirname, "../../examples");
const ex = (p: string) => join(examples, p);

function kunion(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false });
  return { code, stdout, stderr };
}

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "kunion-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("kunion validate", () => {
  it("reports each union error of the examples at its line, and exits 1", () => {
    const { code, stdout } = kunion("validate", "--crd", ex("crds"), ex("manifests"));
    expect(code).toBe(1);
    const file = ex("manifests/backups-invalid.yaml");
    expect(stdout.trim().split("\n")).toEqual([
      `${file}:8:3: error union: spec.destination.s3: Invalid value: "": must be specified when \`type\` is "S3"`,
      `${file}:10:5: error union: spec.destination.gcs: Invalid value: "": may only be specified when \`type\` is "GCS"`,
      `${file}:12:3: error union: spec.schedule: Invalid value: "{cron, interval}": must specify exactly one of: \`cron\`, \`interval\``,
      `${file}:24:3: error union: spec.schedule: Invalid value: "": must specify one of: \`cron\`, \`interval\``,
    ]);
  });

  it("exits 0 on valid objects and counts them in the JSON summary", () => {
    const { code, stdout } = kunion("validate", "-o", "json", "--crd", ex("crds"), ex("manifests/backups.yaml"));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      findings: [],
      summary: { files: 1, objects: 2, errors: 0, warnings: 0, notices: 0 },
    });
  });

  it("reads unions from Go types as well, without reporting them twice", () => {
    const withGo = kunion("validate", "--crd", ex("crds"), "--go-types", ex("go"), ex("manifests"));
    const without = kunion("validate", "--crd", ex("crds"), ex("manifests"));
    expect(withGo.stdout).toBe(without.stdout);
  });

  it("reports the Deployment switched to Recreate exactly as the API server words it (kubernetes#34292)", () => {
    const { code, stdout } = kunion("validate", ex("deployment/recreate.yaml"));
    expect(code).toBe(1);
    expect(stdout).toContain(
      "recreate.yaml:15:5: error union: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
  });

  it("--fail-on never exits 0 even with errors", () => {
    expect(kunion("validate", "--fail-on", "never", ex("deployment/recreate.yaml")).code).toBe(0);
  });

  it("ratchets on update unless told not to", () => {
    const old = tempFile(
      "old.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  strategy: {type: Recreate, rollingUpdate: {}}\n",
    );
    const now = tempFile(
      "new.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: 3\n  strategy: {type: Recreate, rollingUpdate: {}}\n",
    );
    expect(kunion("validate", "--old", old, now).code).toBe(0);
    expect(kunion("validate", "--no-ratcheting", "--old", old, now).code).toBe(1);
  });

  it("notes objects whose kind it has no schema for", () => {
    const file = tempFile("x.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
    const { code, stdout } = kunion("validate", file);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "x.yaml:2:1: notice schema-missing: kind: No schema known: example.com/v1, Kind=Widget (give its CRD to check it)",
    );
  });
});

describe("kunion normalize", () => {
  it("clears rollingUpdate from the Deployment switched to Recreate, and says where", () => {
    const { code, stdout, stderr } = kunion(
      "normalize",
      "--old",
      ex("deployment/live.yaml"),
      ex("deployment/recreate.yaml"),
    );
    expect(code).toBe(0);
    const [object] = parseAllDocuments(stdout).map((d) => d.toJS());
    expect(object.spec.strategy).toEqual({ type: "Recreate" });
    expect(object.spec.template.spec.containers[0].image).toBe("nginx:1.27");
    expect(stderr).toContain("recreate.yaml:15:5: cleared spec.strategy.rollingUpdate");
  });

  it("keeps comments and layout, and prints unchanged objects byte for byte", () => {
    const text =
      "# keep me\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  strategy:\n    type: Recreate # why\n    rollingUpdate: {maxSurge: 1}\n";
    const untouched = "apiVersion: v1\nkind: ConfigMap   # odd   spacing\ndata: {a: b}\n";
    const file = tempFile("c.yaml", `${text}---\n${untouched}`);
    const live = tempFile("live.yaml", text.replace("Recreate", "RollingUpdate"));
    const { stdout } = kunion("normalize", "--old", live, file);
    expect(stdout).toBe(
      `# keep me\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  strategy:\n    type: Recreate # why\n---\n${untouched}`,
    );
  });

  it("prints objects, changes and notes as JSON", () => {
    const { stdout } = kunion(
      "normalize",
      "-o",
      "json",
      "--old",
      ex("deployment/live.yaml"),
      ex("deployment/recreate.yaml"),
    );
    const [result] = JSON.parse(stdout);
    expect(result).toMatchObject({
      index: 0,
      changes: [{ op: "clear", path: "spec.strategy.rollingUpdate" }],
      notes: [],
    });
    expect(result.file).toMatch(/recreate\.yaml$/);
  });

  it("applies an applied configuration over the live object (--mode apply)", () => {
    const applied = tempFile(
      "applied.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\nspec:\n  strategy: {type: Recreate}\n",
    );
    const { stdout } = kunion("normalize", "--mode", "apply", "--old", ex("deployment/live.yaml"), applied);
    expect(parse(stdout).spec.strategy).toEqual({ type: "Recreate" });
    expect(parse(stdout).spec.replicas).toBe(2);
  });

  it("returns SMD's error under --policy smd", () => {
    const file = tempFile(
      "s.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        env:\n        - {name: A, value: x, valueFrom: {fieldRef: {fieldPath: metadata.name}}}\n",
    );
    const { code, stderr } = kunion("normalize", "--policy", "smd", file);
    expect(code).toBe(1);
    expect(stderr).toContain(
      "spec.template.spec.containers[0].env[0]: Invalid value: multiple fields set without discriminator change: value, valueFrom",
    );
  });
});

describe("usage and unreadable input", () => {
  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["validate"], /needs at least one path/],
    [["validate", "-o", "xml", "x"], /--output must be one of text, json/],
    [["normalize", "--policy", "ssa", "x"], /--policy must be one of kep, smd/],
    [["validate", "--bogus", "x"], /Unknown option '--bogus'/],
  ])("%j is a usage error (exit 2)", (argv, message) => {
    const { code, stderr } = kunion(...argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("Usage: kunion");
  });

  it("a missing file exits 2 naming it", () => {
    const { code, stderr } = kunion("validate", "/nonexistent/m.yaml");
    expect(code).toBe(2);
    expect(stderr).toBe("kunion: /nonexistent/m.yaml: no such file or folder\n");
  });

  it("--help prints the usage and exits 0", () => {
    expect(kunion("--help")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: kunion <command>") });
  });
});
