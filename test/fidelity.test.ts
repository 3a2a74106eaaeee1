import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../src/cli/main.js";

// Where kunion claims the API server's behaviour, each case here names the
// Kubernetes source it follows.

function kunion(files: Record<string, string>, ...argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "kunion-fidelity-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  let stdout = "";
  let stderr = "";
  const code = run(
    argv.map((a) => (a.startsWith("@") ? join(dir, a.slice(1)) : a)),
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false },
  );
  return { code, stdout: stdout.replaceAll(`${dir}/`, ""), stderr: stderr.replaceAll(`${dir}/`, "") };
}

const deployment = (strategy: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  selector: {matchLabels: {app: w}}\n  strategy:\n${strategy}  template:\n    metadata: {labels: {app: w}}\n    spec: {containers: [{name: w, image: nginx}]}\n`;

describe("a discriminator of the wrong type", () => {
  // go-yaml v2 (sigs.k8s.io/yaml) reads an unquoted Off or y as a YAML 1.1 boolean; the API server
  // then refuses the type (kube-openapi validate/type.go: "in body must be of type string").
  const text = deployment("    type: Off\n    rollingUpdate: {maxSurge: 1}\n");

  it("is reported once", () => {
    const { code, stdout } = kunion({ "d.yaml": text }, "validate", "@d.yaml");
    expect(code).toBe(1);
    expect(stdout.trim().split("\n")).toEqual([
      'd.yaml:7:5: error schema: spec.strategy.type: Invalid value: "boolean": spec.strategy.type in body must be of type string: "boolean"',
    ]);
  });

  it("is left alone by normalization, with a note saying why", () => {
    const { stdout, stderr } = kunion({ "d.yaml": text }, "normalize", "@d.yaml");
    expect(stdout).toBe(text);
    expect(stderr).toContain("note: spec.strategy: `type` is a boolean, not a string: left as is");
  });
});
