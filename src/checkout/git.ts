/**
 * git, run so that nothing from the repository it reads is executed: no
 * hooks, no fsmonitor, no pager, no external diff or textconv, no optional
 * locks; refs are checked before use and passed after `--end-of-options`;
 * paths are read NUL-separated. Every failure is a GitError with git's first
 * line of complaint.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class GitError extends Error {}

const safety = [
  "--no-pager",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "diff.external=",
  "-c",
  "core.pager=cat",
];

export function git(cwd: string, args: readonly string[], input?: string, okStatus: readonly number[] = []): Buffer {
  try {
    return execFileSync("git", [...safety, ...args], {
      cwd,
      maxBuffer: 1024 * 1024 * 1024,
      input,
      stdio: ["pipe", "pipe", "pipe"],
      env: {
        ...process.env,
        GIT_TERMINAL_PROMPT: "0",
        GIT_PAGER: "cat",
        GIT_OPTIONAL_LOCKS: "0",
        GIT_EXTERNAL_DIFF: "",
      },
    });
  } catch (e) {
    const err = e as { stderr?: Buffer; stdout?: Buffer; status?: number | null; message: string };
    // `git diff --no-index` says "the files differ" with status 1.
    if (err.status != null && okStatus.includes(err.status) && err.stdout) return err.stdout;
    const why = String(err.stderr ?? "")
      .split("\n")
      .find((l) => l.trim() !== "");
    throw new GitError(`git ${args.join(" ")}: ${why?.trim() ?? err.message}`);
  }
}

const text = (cwd: string, args: readonly string[]) => git(cwd, args).toString("utf8");

/**
 * A ref or sha as the user gave it, refused when git could read it as an
 * option (`--upload-pack=…`, `--output=…`) or it holds control characters.
 */
export function checkRef(ref: string): string {
  if (ref === "" || ref.startsWith("-") || /\p{Cc}/u.test(ref)) {
    throw new GitError(`not a revision: ${JSON.stringify(ref.slice(0, 40))}`);
  }
  return ref;
}

/** The commit a ref names, or undefined. */
export function resolveCommit(cwd: string, ref: string): string | undefined {
  checkRef(ref);
  try {
    return text(cwd, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`]).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `ref` available: as it is, as `origin/<ref>`, or fetched (depth 1)
 * from origin. Returns its sha; throws a GitError saying why when it cannot.
 */
export function ensureCommit(cwd: string, ref: string): string {
  const local = resolveCommit(cwd, ref) ?? resolveCommit(cwd, `origin/${ref}`);
  if (local) return local;
  git(cwd, ["fetch", "--no-tags", "--no-recurse-submodules", "--depth=1", "origin", "--end-of-options", ref]);
  const fetched = resolveCommit(cwd, ref) ?? resolveCommit(cwd, "FETCH_HEAD");
  if (!fetched) throw new GitError(`git fetch origin ${ref}: fetched, but no commit`);
  return fetched;
}

/** The top folder of the work tree `cwd` is in; a GitError outside one. */
export function topLevel(cwd: string): string {
  return text(cwd, ["rev-parse", "--show-toplevel"]).trim();
}

/** A file a change added, modified, renamed or deleted, by its path (its texts are read later). */
export interface ChangedPath {
  path: string;
  /** The path at the base when the file was renamed. */
  from?: string;
  /** Its blob at the base (git's object id), by which its text there is read; absent when the base has none. */
  baseBlob?: string;
}

/**
 * Files added, modified, renamed and deleted between two commits, with
 * their blobs at the base: from the merge base (`base...head`); when a
 * shallow checkout has no merge base, straight from `base` (right for the
 * merge commit actions/checkout makes).
 */
export function changedBetween(
  cwd: string,
  base: string,
  head: string,
): { changes: ChangedPath[]; deleted: ChangedPath[]; note?: string } {
  const diff = (range: string[]) =>
    text(cwd, ["diff", "--raw", "-z", "--no-abbrev", "-M", "--no-ext-diff", "--no-textconv", ...range, "--"]);
  let out: string;
  let note: string | undefined;
  try {
    out = diff([`${base}...${head}`]);
  } catch (e) {
    out = diff([base, head]);
    note = `no merge base with ${base.slice(0, 12)} (${(e as Error).message.split(": ").pop()}): compared with it directly`;
  }
  // Each entry: ":<old mode> <new mode> <old blob> <new blob> <status>", then its path (a rename's or copy's two).
  const tokens = out.split("\0");
  const changes: ChangedPath[] = [];
  const deleted: ChangedPath[] = [];
  for (let i = 0; i < tokens.length; ) {
    const [, , old = "", , status = ""] = (tokens[i++] ?? "").split(" ");
    if (status === "") continue;
    // An added file's old blob is all zeros.
    const baseBlob = /^0+$/.test(old) ? undefined : old;
    if (status.startsWith("R") || status.startsWith("C")) {
      const from = tokens[i++] ?? "";
      changes.push({ path: tokens[i++] ?? "", from, baseBlob });
    } else if (status === "D") deleted.push({ path: tokens[i++] ?? "", baseBlob });
    else changes.push({ path: tokens[i++] ?? "", baseBlob });
  }
  return { changes, deleted, note };
}

/** Blob ids of the files of a commit, by path. */
export function blobsAt(cwd: string, rev: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of text(cwd, ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev]).split("\0")) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m) out.set(m[2] as string, m[1] as string);
  }
  return out;
}

/** Tracked files and untracked files git does not ignore, as paths from the top folder. */
export function workTreeFiles(cwd: string): string[] {
  const listed = text(cwd, ["ls-files", "-z", "--full-name", "--cached", "--others", "--exclude-standard"]);
  return [...new Set(listed.split("\0").filter(Boolean))];
}

/** The repository's hash algorithm, to compute work-tree blob ids without git (and its filters). */
export function objectFormat(cwd: string): "sha1" | "sha256" {
  return text(cwd, ["rev-parse", "--show-object-format"]).trim() === "sha256" ? "sha256" : "sha1";
}

/**
 * The content of paths at a revision in one `git cat-file --batch` call:
 * undefined for a path the revision does not have (or larger than `maxBytes`).
 * Each path is looked up through the revision's trees, so a file of a large
 * folder costs a walk of that folder: blobs named by id (readBlobs) do not.
 */
export function readAt(
  cwd: string,
  rev: string,
  paths: readonly string[],
  maxBytes: number,
): Map<string, Buffer | undefined> {
  const out = new Map<string, Buffer | undefined>();
  checkRef(rev);
  // --batch reads one object name a line: a path with a newline is asked for on its own.
  for (const path of paths.filter((p) => p.includes("\n"))) {
    try {
      const bytes = git(cwd, ["cat-file", "blob", "--end-of-options", `${rev}:${path}`]);
      out.set(path, bytes.length <= maxBytes ? bytes : undefined);
    } catch {
      out.set(path, undefined);
    }
  }
  const asked = paths.filter((p) => !p.includes("\n"));
  const read = catFileBatch(
    cwd,
    asked.map((p) => `${rev}:${p}`),
    maxBytes,
  );
  asked.forEach((path, i) => {
    out.set(path, read[i]);
  });
  return out;
}

/** Blobs by their ids, in one `git cat-file --batch` call: undefined for one missing, not a blob, or larger than `maxBytes`. */
export function readBlobs(cwd: string, ids: readonly string[], maxBytes: number): Map<string, Buffer | undefined> {
  const asked = [...new Set(ids)];
  const read = catFileBatch(cwd, asked, maxBytes);
  return new Map(asked.map((id, i) => [id, read[i]]));
}

/** `git cat-file --batch` over object names (one a line, none holding a newline), in their order. */
function catFileBatch(cwd: string, names: readonly string[], maxBytes: number): (Buffer | undefined)[] {
  if (names.length === 0) return [];
  const data = git(cwd, ["cat-file", "--batch"], names.map((n) => `${n}\n`).join(""));
  const out: (Buffer | undefined)[] = [];
  let at = 0;
  for (const _ of names) {
    const eol = data.indexOf(10, at);
    if (eol < 0) break;
    const header = data.subarray(at, eol).toString("utf8");
    at = eol + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.push(undefined); // missing, ambiguous
      continue;
    }
    const size = Number(m[2]);
    out.push(m[1] === "blob" && size <= maxBytes ? data.subarray(at, at + size) : undefined);
    at += size + 1;
  }
  return out;
}

/** A hunk of `git diff --unified=0`: lines `oldStart…` of the old text became lines `newStart…` of the new. */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/**
 * The hunks between pairs of texts, from one `git diff --no-index
 * --unified=0` over two folders of numbered files (never the repository's
 * paths, so no name needs quoting and no attribute, filter or textconv of
 * the repository applies). `folder` is an empty scratch folder.
 */
export function hunksBetween(folder: string, pairs: readonly { before: string; after: string }[]): Hunk[][] {
  const out: Hunk[][] = pairs.map(() => []);
  if (pairs.length === 0) return out;
  mkdirSync(join(folder, "a"));
  mkdirSync(join(folder, "b"));
  pairs.forEach((p, i) => {
    writeFileSync(join(folder, "a", String(i)), p.before);
    writeFileSync(join(folder, "b", String(i)), p.after);
  });
  const diff = git(
    folder,
    [
      "diff",
      "--no-index",
      "--unified=0",
      "--no-ext-diff",
      "--no-textconv",
      "--no-color",
      "--no-renames",
      "--src-prefix=a/",
      "--dst-prefix=b/",
      "a",
      "b",
    ],
    undefined,
    [1],
  ).toString("utf8");
  let current: Hunk[] | undefined;
  for (const line of diff.split("\n")) {
    const file = /^diff --git a\/a\/(\d+) b\/b\/\d+$/.exec(line);
    if (file) {
      current = out[Number(file[1])];
      continue;
    }
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (h && current) {
      current.push({
        oldStart: Number(h[1]),
        oldCount: h[2] === undefined ? 1 : Number(h[2]),
        newStart: Number(h[3]),
        newCount: h[4] === undefined ? 1 : Number(h[4]),
      });
    }
  }
  return out;
}
