/**
 * Kubernetes 1.36, the default, chosen on every face: `.kunion.yaml`'s
 * `kubernetesVersion` (quoted, or the number YAML reads from an unquoted
 * 1.36) goes through releaseOf like the flag and the Action input; the
 * kinds only 1.36 serves (admissionregistration.k8s.io/v1
 * MutatingAdmissionPolicy went GA in 1.36) are checked against its table.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../cli/main.js";
import { readConfig } from "../config/index.js";
import { defaultRelease, releaseOf } from "./releases.js";

describe("releaseOf 1.36", () => {
  it("is the default and reads from text or a YAML number", () => {
    expect(defaultRelease).toBe("1.36");
    expect(releaseOf("1.36")).toEqual({ release: "1.36" });
    expect(releaseOf(1.36)).toEqual({ release: "1.36" });
    expect(releaseOf("1.37")).toEqual({ error: 'must be one of 1.32, 1.33, 1.34, 1.35, 1.36, not "1.37"' });
  });

  it.each(['kubernetesVersion: "1.36"\n', "kubernetesVersion: 1.36\n"])(".kunion.yaml %j", (text) => {
    const { config, findings } = readConfig(text, ".kunion.yaml");
    expect(findings).toEqual([]);
    expect(releaseOf(config.kubernetesVersion)).toEqual({ release: "1.36" });
  });
});

describe("kubernetesVersion 1.36 in .kunion.yaml, through the CLI", () => {
  const policy =
    "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  failurePolicy: Fail\n  reinvocationPolicy: Never\n  mutations: []\n  matchConstraint: {}\n";
  const validate = (config: string) => {
    const dir = mkdtempSync(join(tmpdir(), "kunion-release-"));
    writeFileSync(join(dir, ".kunion.yaml"), config);
    writeFileSync(join(dir, "p.yaml"), policy);
    let stdout = "";
    const code = run(["validate", "--config", join(dir, ".kunion.yaml"), join(dir, "p.yaml")], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
      color: false,
    });
    return { code, lines: stdout.replaceAll(`${dir}/`, "").trim().split("\n") };
  };

  it("checks a kind only 1.36 serves against 1.36's table", () => {
    expect(validate('kubernetesVersion: "1.36"\n')).toEqual({
      code: 1,
      // the schema's unknown field, and the hand-written rules (ValidateMutatingAdmissionPolicy) of the kind
      lines: [
        "p.yaml:4:1: error schema: spec.matchConstraints: Required value",
        "p.yaml:7:3: error schema: spec.mutations: Required value: mutations must contain at least one item",
        'p.yaml:8:3: error schema: unknown field "spec.matchConstraint"',
      ],
    });
  });

  it("while 1.34, which does not serve it, refuses the kind and not its fields", () => {
    expect(validate("kubernetesVersion: 1.34\n")).toEqual({
      code: 1,
      lines: [
        'p.yaml:1:1: error schema: apiVersion: No schema known: no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1": served from Kubernetes 1.36',
      ],
    });
  });
});
