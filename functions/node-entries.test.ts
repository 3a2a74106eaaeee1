/**
 * The server's entries as users run them: bundled as the package's scripts bundle them and
 * started as processes (`kunion serve`, the CLI's bundle; `npm start`, functions/node.ts). What a bundle's module order
 * decides (which release tables a worker thread has) only shows here.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { widgetCrd } from "../test/widget-crd.js";
import { cliBundle, nodeEntryBundle } from "./test-bundle.js";

const root = join(import.meta.dirname, "..");
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill();
});

/** Starts a bundle; resolves with the URL it listens on, or with its exit code and output when it ends first. */
function start(
  bundle: URL,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url?: string; code?: number | null; stderr: string }> {
  const child = spawn(process.execPath, [fileURLToPath(bundle), ...args], {
    cwd: root,
    env: { ...process.env, PORT: "0", KUNION_WORKERS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let output = "";
  let stderr = "";
  return new Promise((resolve) => {
    const listening = () => {
      const url = /kunion listening on (\S+)/.exec(output)?.[1];
      if (url) resolve({ url, stderr });
    };
    child.stdout?.on("data", (d) => {
      output += d;
      listening();
    });
    child.stderr?.on("data", (d) => {
      output += d;
      stderr += d;
      listening();
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

// A kind 1.34 does not serve (MutatingAdmissionPolicy is v1 from 1.36): checked against 1.34, it is refused.
const at134 = {
  object: {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    metadata: { name: "m" },
    spec: {},
  },
  options: { kubernetesVersion: "1.34" },
};

describe("kunion serve (the CLI's bundle)", () => {
  it("validates against the release a request names: the worker threads have every release's tables", async () => {
    const server = await start(await cliBundle(), ["serve", "--port", "0"]);
    expect(server.url, server.stderr).toBeDefined();
    const res = await fetch(`${server.url}/v1/validate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(at134),
    });
    const body = (await res.json()) as { valid: boolean; findings: Array<{ message: string }> };
    // With 1.36's tables alone the object passed, with a notice that 1.34 is not in the build.
    expect(body).toMatchObject({ valid: false });
    expect(body.findings.map((f) => f.message)).toEqual([
      'apiVersion: No schema known: no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1": served from Kubernetes 1.36',
    ]);
  }, 60_000);
});

/** A folder holding one file. */
function folderWith(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "kunion-deploy-"));
  writeFileSync(join(dir, name), text);
  return dir;
}

const brokenCrd = widgetCrd({ kind: "Thing", properties: "spec: {type: strin}" });
const brokenConversion = "apiVersion: kunion.dev/v1alpha1\nkind: Conversion\nmetadata: {name: x}\nspec: {hub: 3}\n";

describe("npm start (functions/node.ts's bundle) with a broken deployment", () => {
  it.each([
    ["CRD", { KUNION_CRDS: folderWith("bad.yaml", brokenCrd) }, 'Unsupported value: "strin"'],
    ["Conversion", { KUNION_CONVERSIONS: folderWith("c.yaml", brokenConversion) }, "spec.hub"],
  ])(
    "prints the %s's findings and exits 2, with no stack trace",
    async (_, env, finding) => {
      const ended = await start(await nodeEntryBundle(), [], env);
      expect(ended.url).toBeUndefined();
      expect(ended.code).toBe(2);
      expect(ended.stderr).toMatch(/^kunion: the deployed configuration has errors:\n/);
      expect(ended.stderr).toContain(finding);
      // Neither a stack frame nor the warning of a worker thread left parked.
      expect(ended.stderr).not.toMatch(/^\s+at |unsettled top-level await/m);
    },
    60_000,
  );
});
