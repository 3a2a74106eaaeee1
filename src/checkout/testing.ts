/** For the tests: an empty git repository in a new folder, and git run in it as a committer that signs nothing. */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function gitRepository(prefix: string): { ws: string; git: (...args: string[]) => string } {
  const ws = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
      cwd: ws,
      encoding: "utf8",
    }).trim();
  git("init", "-q", "-b", "main");
  return { ws, git };
}
