/** For the tests and benchmarks: empty git repositories, and git run in one as a committer that signs nothing. */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** git run in the folder `ws`: its output, trimmed. */
export const gitIn =
  (ws: string) =>
  (...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
      cwd: ws,
      encoding: "utf8",
    }).trim();

/** Makes the folder `ws` an empty repository (branch main); git run there. */
export function initRepository(ws: string): (...args: string[]) => string {
  const git = gitIn(ws);
  git("init", "-q", "-b", "main");
  return git;
}

/** An empty repository in a new folder named after `prefix`. */
export function gitRepository(prefix: string): { ws: string; git: (...args: string[]) => string } {
  const ws = mkdtempSync(join(tmpdir(), prefix));
  return { ws, git: initRepository(ws) };
}
