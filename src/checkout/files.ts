/**
 * Files of a checkout, read defensively: only inside its top folder, never
 * through a symbolic link (a pull request can add one that points at
 * /etc/passwd or ~/.git-credentials), never a huge or binary surprise.
 * A file that cannot be read becomes a finding on the file, never a crash.
 */
import { globSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { decodeText, type Finding, finding } from "../index.js";

/** Larger files are not read (the API server takes 3 MiB per object). */
export const maxFileBytes = 10 * 1024 * 1024;

export const isKubernetesFileName = (p: string) => /\.(ya?ml|json)$/i.test(p);

export function fileProblem(file: string, detail: string, severity: Finding["severity"] = "error"): Finding {
  return { ...finding({ type: "ParseError", path: [], detail, rule: "input", severity }), file, line: 1, column: 1 };
}

/** A file read: its text, or a problem (with its bytes when it is not UTF-8 text, to hash and to tell what it is). */
export type Read = { text: string; bytes: Buffer } | { problem: Finding; bytes?: Buffer } | undefined;

/**
 * A file of the checkout at `root` (an absolute, resolved path) by its path
 * from there; undefined when it is gone or a folder. A path that leaves the
 * checkout, or passes through a symbolic link, is a problem, not a read.
 */
export function readInside(root: string, path: string): Read {
  const outside = !isInside(root, path);
  if (outside) return { problem: fileProblem(path, "is outside the checkout: not read") };
  const full = join(root, path);
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(full);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) return { problem: fileProblem(path, "is a symbolic link: not followed", "notice") };
  if (!info.isFile()) return undefined;
  // A folder on the way may be a link that leads out of the checkout.
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return undefined;
  }
  if (real !== join(root, path)) {
    return { problem: fileProblem(path, "is reached through a symbolic link: not followed", "notice") };
  }
  if (info.size > maxFileBytes) {
    const mb = (info.size / 1024 / 1024).toFixed(1);
    const detail = `the file is ${mb} MiB, over the ${maxFileBytes / 1024 / 1024} MiB kunion reads: not checked`;
    return { problem: fileProblem(path, detail) };
  }
  try {
    const bytes = readFileSync(full);
    const { text, notUtf8 } = decodeText(bytes, path);
    return notUtf8 ? { problem: notUtf8, bytes } : { text, bytes };
  } catch (e) {
    return {
      problem: fileProblem(path, `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`),
    };
  }
}

/** Whether a relative path stays below the root: no absolute path, no `..` out of it. */
function isInside(root: string, path: string): boolean {
  if (path === "" || isAbsolute(path) || path.includes("\0")) return false;
  const rel = relative(root, join(root, normalize(path)));
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * The files globs match inside the checkout, as paths from its top folder,
 * sorted. A pattern that is absolute or climbs out with `..` matches nothing
 * (and is named in `refused`); matches through symbolic links are dropped.
 */
export function globInside(root: string, patterns: readonly string[]): { paths: string[]; refused: string[] } {
  const refused = patterns.filter((p) => isAbsolute(p) || p.split(/[\\/]/).includes(".."));
  const usable = patterns.filter((p) => !refused.includes(p));
  const found = new Set<string>();
  for (const p of usable) {
    for (const match of globSync(p, { cwd: root })) {
      if (isInside(root, match) && !throughLink(root, match)) found.add(match.split(sep).join("/"));
    }
  }
  return { paths: [...found].sort(), refused };
}

function throughLink(root: string, path: string): boolean {
  try {
    return lstatSync(join(root, path)).isSymbolicLink() || realpathSync(join(root, path)) !== join(root, path);
  } catch {
    return true;
  }
}
