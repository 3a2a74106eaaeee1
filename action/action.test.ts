import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Runs the committed bundle the way the runner does: INPUT_* variables, a
// step summary file and an output file, in a workspace of its own.
const root = join(import.meta.dirname, "..");

function runAction(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "kunion-action-"));
  cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true });
  writeFileSync(join(dir, "summary.md"), "");
  writeFileSync(join(dir, "output.txt"), "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_OUTPUT: join(dir, "output.txt"),
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  let stdout = "";
  let status = 0;
  try {
    stdout = execFileSync(process.execPath, [join(root, "action/dist/index.js")], { cwd: dir, env, encoding: "utf8" });
  } catch (e) {
    const err = e as { stdout: string; status: number };
    stdout = err.stdout;
    status = err.status;
  }
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return { stdout, status, summary: read("summary.md"), output: read("output.txt") };
}

describe("the bundled Action", () => {
  it("annotates errors on their lines, writes the summary and outputs, and fails the step", () => {
    const { stdout, status, summary, output } = runAction({
      manifests: "examples/manifests/*.yaml\nexamples/deployment/recreate.yaml",
      crds: "examples/crds/*.yaml",
    });
    expect(status).toBe(1);
    expect(stdout).toContain(
      "::error title=kunion union,file=examples/deployment/recreate.yaml,line=15,col=5::spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
    expect(stdout.match(/^::error title=/gm)).toHaveLength(5);
    expect(summary).toContain("3 file(s), 5 object(s): 5 error(s), 0 warning(s)");
    expect(summary).toContain("<td>examples/manifests/backups-invalid.yaml:12</td>");
    expect(output).toMatch(/^errors<<(\S+)\n5\n\1$/m);
  });

  it("passes on valid manifests and respects fail-on: never", () => {
    expect(runAction({ manifests: "examples/manifests/backups.yaml", crds: "examples/crds/*.yaml" }).status).toBe(0);
    expect(runAction({ manifests: "examples/deployment/recreate.yaml", "fail-on": "never" }).status).toBe(0);
  });

  it("names a bad input instead of crashing", () => {
    const { stdout, status } = runAction({ manifests: "examples/**/*.yaml", "fail-on": "sometimes" });
    expect(status).toBe(1);
    expect(stdout).toContain('::error::fail-on must be error, warning, notice or never, not "sometimes"');
  });
});
