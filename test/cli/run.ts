/** The CLI run in-process for the tests: its exit status and what it printed, in this folder or another; their input files. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../src/cli/main.js";

export function kunion(...argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const code = run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false });
  return { code, stdout, stderr };
}

/** `kunion` with `dir` as the working folder, as a user runs it in a checkout. */
export function kunionIn(dir: string, ...argv: string[]): ReturnType<typeof kunion> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return kunion(...argv);
  } finally {
    process.chdir(cwd);
  }
}

/** A new folder holding `files` (paths may name subfolders). */
export function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "kunion-cli-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** The documents as the items of a `kind: List`, as `kubectl get … -o yaml` prints them: each 3 lines further down. */
export const listOf = (...documents: string[]) =>
  `apiVersion: v1\nkind: List\nitems:\n${documents.map((d) => `  - ${d.trimEnd().split("\n").join("\n    ")}\n`).join("")}`;
