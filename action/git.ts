/**
 * The git the Action needs, run in the workspace: no hooks, no aliases, no
 * pager, nothing from the pull request executed. Every failure is a GitError
 * carrying git's first line of complaint.
 */
import { execFileSync } from "node:child_process";

export class GitError extends Error {}

const buffer = 1024 * 1024 * 1024;

export function git(args: readonly string[], input?: string): string {
  return gitBuffer(args, input).toString("utf8");
}

function gitBuffer(args: readonly string[], input?: string): Buffer {
  try {
    return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args], {
      maxBuffer: buffer,
      input,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat" },
    });
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    const why = String(err.stderr ?? "")
      .trim()
      .split("\n")
      .find((l) => l.trim() !== "");
    throw new GitError(`git ${args.join(" ")}: ${why ?? err.message}`);
  }
}

/** Whether the commit is in the local repository. */
export function hasCommit(rev: string): boolean {
  try {
    git(["cat-file", "-e", `${rev}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** The sha of a ref or sha, or undefined. */
export function resolve(rev: string): string | undefined {
  try {
    return git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `rev` available: as it is, as `origin/<rev>`, or fetched (depth 1) from
 * origin. Returns its sha; throws a GitError saying why when it cannot.
 */
export function ensureCommit(rev: string): string {
  const local = resolve(rev) ?? resolve(`origin/${rev}`);
  if (local) return local;
  git(["fetch", "--no-tags", "--no-recurse-submodules", "--depth=1", "origin", rev]);
  const fetched = resolve(rev) ?? resolve("FETCH_HEAD");
  if (!fetched) throw new GitError(`git fetch origin ${rev}: fetched, but no commit`);
  return fetched;
}

export interface Change {
  path: string;
  /** The path at the base when the file was renamed. */
  from?: string;
}

/**
 * Files added, modified or renamed between `base` and HEAD (deletions left out):
 * from the merge base (`base...HEAD`); when a shallow checkout has no merge base,
 * straight from `base` (right for the merge commit actions/checkout makes).
 */
export function changedSince(base: string): { changes: Change[]; note?: string } {
  const diff = (range: string[]) => git(["diff", "--name-status", "-z", "-M", "--diff-filter=d", ...range, "--"]);
  let out: string;
  let note: string | undefined;
  try {
    out = diff([`${base}...HEAD`]);
  } catch (e) {
    out = diff([base, "HEAD"]);
    note = `no merge base with ${base.slice(0, 12)} (${(e as Error).message.split(": ").pop()}): compared with it directly`;
  }
  const tokens = out.split("\0");
  const changes: Change[] = [];
  for (let i = 0; i < tokens.length; ) {
    const status = tokens[i++] ?? "";
    if (status === "") continue;
    if (status.startsWith("R") || status.startsWith("C")) {
      const from = tokens[i++] ?? "";
      changes.push({ path: tokens[i++] ?? "", from });
    } else changes.push({ path: tokens[i++] ?? "" });
  }
  return { changes, note };
}

/** Tracked files of HEAD. */
export function trackedFiles(): string[] {
  return git(["ls-files", "-z"]).split("\0").filter(Boolean);
}

/**
 * The content of paths at a revision in one `git cat-file --batch` call:
 * undefined for a path the revision does not have (or larger than `maxBytes`).
 */
export function readAt(rev: string, paths: readonly string[], maxBytes: number): Map<string, Buffer | undefined> {
  const out = new Map<string, Buffer | undefined>();
  const asked = paths.filter((p) => !p.includes("\n"));
  if (asked.length === 0) return out;
  const data = gitBuffer(["cat-file", "--batch"], asked.map((p) => `${rev}:${p}\n`).join(""));
  let at = 0;
  for (const path of asked) {
    const eol = data.indexOf(10, at);
    if (eol < 0) break;
    const header = data.subarray(at, eol).toString("utf8");
    at = eol + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.set(path, undefined); // missing, ambiguous
      continue;
    }
    const size = Number(m[2]);
    out.set(path, m[1] === "blob" && size <= maxBytes ? data.subarray(at, at + size) : undefined);
    at += size + 1;
  }
  return out;
}
