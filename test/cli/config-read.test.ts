/** `.kunion.yaml` as every command reads it: an unknown rule id or release is an error with its line, exit 2. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";

function kunion(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false });
  return { code, stdout, stderr };
}

const examples = join(import.meta.dirname, "../../examples");

function config(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "kunion-config-")), ".kunion.yaml");
  writeFileSync(file, text);
  return file;
}

describe("the configuration's rule ids and release", () => {
  const crd = join(examples, "crds/backups.kunion.dev.yaml");
  const manifest = join(examples, "deployment/recreate.yaml");

  it.each([
    ["validate", manifest],
    ["crd-diff", crd, crd],
    ["normalize", manifest],
  ])("%s: a misspelled rule id under rules: is an error with its line", (command, ...paths) => {
    const file = config("rules:\n  union: warning\n  unoin: off\n  enum-restrictd: warning\n");
    const { code, stdout, stderr } = kunion(command, "--config", file, ...paths);
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toContain(`${file}:3:3: error config: rules.unoin: Unsupported value: "unoin"`);
    expect(stderr).toContain(
      `${file}:4:3: error config: rules.enum-restrictd: Unsupported value: "enum-restrictd": supported values: "enum-`,
    );
  });

  it.each([
    ["crd-diff", crd, crd],
    ["normalize", manifest],
    ["convert", "--conversion", join(examples, "conversions"), "--to", "v2", manifest],
  ])("%s: an unknown kubernetesVersion is an error with its line, though the command uses none", (command, ...rest) => {
    const file = config('policy: kep\nkubernetesVersion: "1.37"\n');
    const { code, stderr } = kunion(command, "--config", file, ...rest);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${file}:2:1: error config: kubernetesVersion: Unsupported value: "1.37": supported values: "1.32"`,
    );
  });

  it("a known rule id and release read, quoted or not", () => {
    const file = config("rules: {union: warning, enum-restricted: notice}\nkubernetesVersion: 1.35\n");
    expect(kunion("validate", "--config", file, manifest)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("warning union"),
    });
  });
});
