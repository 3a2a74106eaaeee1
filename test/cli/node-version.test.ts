/**
 * The `kunion` executable on a Node.js older than package.json's `engines`: one line and exit
 * code 2, not the CLI bundle's link error. `npm run build:cli`'s own command builds the two
 * files into a temporary folder (the tree's dist/ is left to the package test's `npm pack`);
 * the launcher then runs under this Node, told it is an older one by a preload. Its bound is a
 * constant (launcher.ts); running it just below and at engines' bound keeps the two equal.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  bin: { kunion: string };
  engines: { node: string };
  scripts: Record<string, string>;
};
const needed = Number(/^>=(\d+)$/.exec(manifest.engines.node)?.[1]);
const temp = mkdtempSync(join(tmpdir(), "kunion-node-version-"));
const launcher = join(temp, "kunion.js");
const configMap = "configmap.yaml";
afterAll(() => rmSync(temp, { recursive: true, force: true }));

beforeAll(() => {
  const script = manifest.scripts["build:cli"] as string;
  // The package's bin is the launcher; the script's outputs all go to dist/.
  expect(script).toContain(`--outfile=${manifest.bin.kunion}`);
  const built = spawnSync("sh", ["-c", script.replaceAll("--outfile=dist/", `--outfile=${temp}/`)], {
    cwd: root,
    env: { ...process.env, PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH}` },
    encoding: "utf8",
  });
  expect(built.stderr).toBe("");
  expect(built.status).toBe(0);
  writeFileSync(join(temp, configMap), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n");
}, 120_000);

/** The launcher run by this Node; `pretend` is the version `process.versions.node` reports. */
function kunion(args: string[], pretend?: string, env: NodeJS.ProcessEnv = {}) {
  const preload = pretend
    ? [
        "--import",
        `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"${pretend}"}})`,
      ]
    : [];
  return spawnSync(process.execPath, [...preload, launcher, ...args], {
    cwd: temp,
    env: { ...process.env, NO_COLOR: "1", ...env },
    encoding: "utf8",
  });
}

describe("kunion on a Node.js older than engines", () => {
  it("engines.node is '>=MAJOR', the form the launcher's bound follows", () => {
    expect(manifest.engines.node).toMatch(/^>=\d+$/);
    expect(needed).toBeGreaterThanOrEqual(24);
  });

  it.each(["20.20.2", "22.12.0", `${needed - 1}.99.99`])(
    "Node.js %s: one line naming both versions, exit code 2, nothing on stdout",
    (version) => {
      const r = kunion(["validate", configMap], version);
      expect(r.stderr).toBe(`kunion needs Node.js ${needed} or later; this is Node.js ${version}\n`);
      expect(r.stdout).toBe("");
      expect(r.status).toBe(2);
    },
  );

  it("Node.js at engines' bound runs the CLI", () => {
    const r = kunion(["validate", configMap], `${needed}.0.0`);
    expect(r.stderr).toBe("1 file(s), 1 object(s): 0 error(s), 0 warning(s), 0 notice(s)\n");
    expect(r.status).toBe(0);
  });

  it("the bundled launcher has no static import or export: an older Node has nothing to link before the check", async () => {
    const analysed = await build({
      entryPoints: [launcher],
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      external: ["*"],
      logLevel: "silent",
    });
    const input = Object.values(analysed.metafile.inputs)[0];
    expect(input?.imports).toEqual([]);
    expect(input?.format).toBe("esm");
    // The CLI is loaded at run time, after the check.
    expect(readFileSync(launcher, "utf8")).toMatch(/await import\(\w+\)/);
  });
});

describe("kunion on this Node.js, through the launcher", () => {
  it("--help prints the usage, exit code 0", () => {
    const r = kunion(["--help"]);
    expect(r.stdout).toMatch(/^Usage: kunion <command>/);
    expect(r.status).toBe(0);
  });

  it("validates a file: findings on stdout, exit code 1 on an error", () => {
    writeFileSync(join(temp, "bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n");
    const r = kunion(["validate", "bad.yaml"]);
    expect(r.stdout).toMatch(/^bad\.yaml:4:8: error schema: data\.a: /);
    expect(r.status).toBe(1);
  });

  it("keeps V8's code cache under the temporary folder, unless NODE_DISABLE_COMPILE_CACHE", () => {
    const cached = (env: NodeJS.ProcessEnv) => {
      const tmp = mkdtempSync(join(temp, "tmp-"));
      const unset = { NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
      expect(kunion(["--version"], undefined, { ...unset, TMPDIR: tmp, ...env }).status).toBe(0);
      return readdirSync(tmp, { recursive: true }).map(String);
    };
    const kept = cached({});
    expect(kept).toContain("node-compile-cache");
    // one cache entry per module compiled: the CLI bundle at least
    expect(kept.length).toBeGreaterThan(2);
    expect(cached({ NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual([]);
  });
});
