/**
 * `.kunion.yaml` as the commands read it: where each finds it (as --help and
 * README say), and an unknown rule id or release as an error with its line.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usage } from "../../src/cli/args.js";
import { kunion, kunionIn } from "./run.js";

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

describe("where the commands find .kunion.yaml", () => {
  const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8").replace(/\s+/g, " ");

  it("validate reads the working folder's; check the checkout's top one, wherever in it it runs", () => {
    expect(usage).toContain("check reads the one at the top of the git checkout; serve reads none");
    expect(readme).toContain("`kunion check` reads the one at the top of the git checkout, wherever in it it runs");
    expect(readme).toContain("`kunion serve` reads none");
    const dir = mkdtempSync(join(tmpdir(), "kunion-where-"));
    const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
    git("init", "-q");
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, ".kunion.yaml"), "rules: {union: warning}\n");
    writeFileSync(join(dir, "sub/.kunion.yaml"), "rules: {union: notice}\n");
    writeFileSync(join(dir, "sub/app.yaml"), readFileSync(join(examples, "deployment/live.yaml"), "utf8"));
    git("add", ".");
    git("-c", "user.email=k@k", "-c", "user.name=k", "commit", "-qm", "x");
    writeFileSync(join(dir, "sub/app.yaml"), readFileSync(join(examples, "deployment/recreate.yaml"), "utf8"));
    const checked = kunionIn(join(dir, "sub"), "check");
    expect(checked.stdout).toContain("sub/app.yaml:15:5: warning union:");
    const validated = kunionIn(join(dir, "sub"), "validate", "app.yaml");
    expect(validated.stdout).toContain("app.yaml:15:5: notice union:");
  });
});
