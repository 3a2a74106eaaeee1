/** `kunion check`'s baseline as README shows it, a baseline that cannot be written, and what the summary counts. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kunionIn } from "./run.js";

const example = (p: string) => readFileSync(join(import.meta.dirname, "../../examples", p), "utf8");

/** A kunion run in `dir`, as a user in that folder would start it. */

/** A repository whose Deployment, committed as live.yaml, now switches to Recreate: one union error. */
function repository(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "kunion-baseline-"));
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
  git("init", "-q");
  writeFileSync(join(dir, "app.yaml"), example("deployment/live.yaml"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git("add", ".");
  git("-c", "user.email=k@k", "-c", "user.name=k", "commit", "-qm", "x");
  writeFileSync(join(dir, "app.yaml"), example("deployment/recreate.yaml"));
  return dir;
}

describe("kunion check --write-baseline", () => {
  it("writes the baseline .kunion.yaml names before there is one, which then accepts its findings", () => {
    const dir = repository({ ".kunion.yaml": "baseline: kunion-baseline.json\n" });
    expect(kunionIn(dir, "check")).toMatchObject({
      code: 2,
      stderr: "kunion: baseline kunion-baseline.json: not found\n",
    });
    const written = kunionIn(dir, "check", "--write-baseline", "kunion-baseline.json");
    expect(written).toMatchObject({ code: 0, stderr: "1 finding(s) recorded in kunion-baseline.json\n" });
    expect(existsSync(join(dir, "kunion-baseline.json"))).toBe(true);
    const accepted = kunionIn(dir, "check");
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain("app.yaml:15:5: notice union: spec.strategy.rollingUpdate: Forbidden");
    expect(accepted.stdout).toContain("(in the baseline)");
  });
});

describe("kunion check's report", () => {
  it("a baseline that cannot be written is an input error naming the file, exit 2", () => {
    const dir = repository();
    const missing = join(dir, "no/such/folder/b.json");
    expect(kunionIn(dir, "check", "--write-baseline", missing)).toEqual({
      code: 2,
      stdout: "",
      stderr: `kunion: --write-baseline ${missing}: no such folder\n`,
    });
    expect(kunionIn(dir, "check", "--write-baseline", dir)).toMatchObject({
      code: 2,
      stderr: `kunion: --write-baseline ${dir}: cannot be written\n`,
    });
  });

  it("the summary counts the objects of the changed files", () => {
    const dir = repository();
    const list =
      "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n";
    writeFileSync(join(dir, "list.yaml"), list);
    expect(kunionIn(dir, "check").stderr).toBe("2 file(s), 3 object(s): 1 error(s), 0 warning(s), 0 notice(s)\n");
  });
});
