/**
 * Which files of a checkout to check, with their text now and at the base:
 * one selection for `kunion check` and the Action, so both check the same
 * files of the same change. A changed YAML or JSON file is a Kubernetes file
 * when it names an `apiVersion` (or cannot say: binary), now or at the base;
 * the configured globs add files to that discovery, they never replace it;
 * `ignore` takes files out.
 */
import { createHash } from "node:crypto";
import { lstatSync, readlinkSync } from "node:fs";
import { join, matchesGlob } from "node:path";
import { type ChangedFile, decodeText, type Finding, type KunionConfig, type TextFile } from "../index.js";
import { fileProblem, globInside, isKubernetesFileName, maxFileBytes, readInside } from "./files.js";
import { blobsAt, type ChangedPath, objectFormat, readBlobs, workTreeFiles } from "./git.js";

/** The changed files, each with its blob at the base when there is one (a base text is read by its blob id). */
export interface Candidates {
  changes: ChangedPath[];
  /** Files of the base that are gone. */
  deleted: ChangedPath[];
  notes: string[];
}

export interface Selection {
  changed: ChangedFile[];
  /** Files that could not be checked, as findings on the file. */
  problems: Finding[];
  notes: string[];
}

/** Globs that say a file is a Kubernetes file, beyond discovery. */
export function configuredGlobs(config: KunionConfig, extra: readonly string[] = []): string[] {
  return [...extra, ...(config.manifests ?? []), ...(config.crds ?? []), ...(config.conversions ?? [])];
}

/**
 * The YAML and JSON files of the work tree (tracked, and untracked ones git
 * does not ignore) that differ from `base`. Content is compared by blob id,
 * computed here: asking git to diff the work tree would run the repository's
 * clean filters and fsmonitor.
 */
export function workTreeChanges(root: string, base: string): Candidates {
  const before = blobsAt(root, base);
  const blob = blobHasher(objectFormat(root));
  const changes: ChangedPath[] = [];
  const present = new Set<string>();
  for (const path of workTreeFiles(root)) {
    if (!isKubernetesFileName(path)) continue;
    const id = workTreeBlob(root, path, blob);
    if (id === null) continue; // gone from the work tree
    present.add(path);
    const baseBlob = before.get(path);
    if (id !== baseBlob) changes.push({ path, baseBlob });
  }
  const deleted = [...before.keys()].filter((p) => isKubernetesFileName(p) && !present.has(p));
  // A file moved unchanged is a rename: its checks pair the old path with the new.
  const byBlob = new Map(deleted.map((p) => [before.get(p), p]));
  for (const c of changes) {
    const from = before.has(c.path) ? undefined : byBlob.get(workTreeBlob(root, c.path, blob) ?? "");
    if (from === undefined) continue;
    c.from = from;
    c.baseBlob = before.get(from);
  }
  const renamed = new Set(changes.flatMap((c) => (c.from ? [c.from] : [])));
  const gone = deleted.filter((p) => !renamed.has(p)).map((path) => ({ path, baseBlob: before.get(path) }));
  return { changes, deleted: gone, notes: [] };
}

function blobHasher(algorithm: "sha1" | "sha256") {
  return (bytes: Buffer) => createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** A work-tree file's blob id (a link's is its target's text), null when it is gone; undefined when unreadable. */
function workTreeBlob(root: string, path: string, blob: (b: Buffer) => string): string | null | undefined {
  const full = join(root, path);
  try {
    const info = lstatSync(full);
    if (info.isSymbolicLink()) return blob(Buffer.from(readlinkSync(full)));
    if (!info.isFile()) return null;
  } catch {
    return null;
  }
  const bytes = readInside(root, path)?.bytes;
  return bytes === undefined ? undefined : blob(bytes);
}

/**
 * Every file the globs match, or every YAML and JSON file git lists (tracked,
 * and untracked ones it does not ignore): `changed-only: false`; with their
 * blobs at `base`.
 */
export function allFiles(root: string, globs: readonly string[], base?: string): Candidates {
  const paths = globs.length > 0 ? globInside(root, globs).paths : workTreeFiles(root);
  const before = base === undefined ? new Map<string, string>() : blobsAt(root, base);
  return { changes: paths.map((path) => ({ path, baseBlob: before.get(path) })), deleted: [], notes: [] };
}

/**
 * The Kubernetes files among the candidates, read from the work tree (never
 * through a link, never outside it), each with its text at `base` (read by
 * its blob id there; none without a base).
 */
export function selectFiles(
  root: string,
  candidates: readonly ChangedPath[],
  options: { globs: readonly string[]; ignore: readonly string[]; base?: string },
): Selection {
  const { globs, ignore } = options;
  const notes: string[] = [];
  const problems: Finding[] = [];
  const matched = (p: string) => globs.some((g) => matchesGlob(p, g));
  const wanted = candidates.filter(
    (c) => !ignore.some((g) => matchesGlob(c.path, g)) && (isKubernetesFileName(c.path) || matched(c.path)),
  );
  const nonYaml = wanted.filter((c) => !isKubernetesFileName(c.path));
  if (nonYaml.length > 0) {
    notes.push(
      `${nonYaml.length} matched file(s) are not YAML or JSON (${nonYaml[0]?.path}${nonYaml.length > 1 ? ", …" : ""}): not checked`,
    );
  }
  // Discovery: a YAML file is a Kubernetes file when it says so (or cannot say anything: binary), now or at
  // the base: a file emptied of its objects is checked too, so what it no longer holds is reported.
  const kubernetes = (text: string) => /apiVersion|\0/.test(text);
  const now: { change: ChangedPath; text: string; discovered: boolean }[] = [];
  for (const c of wanted.filter((w) => isKubernetesFileName(w.path))) {
    const read = readInside(root, c.path);
    if (read === undefined) continue;
    if ("problem" in read) {
      // Bytes that are not UTF-8 are a problem of a Kubernetes file only: `apiVersion` reads the same in any decoding.
      if (read.bytes === undefined || matched(c.path) || kubernetes(read.bytes.toString("latin1")))
        problems.push(read.problem);
      continue;
    }
    const discovered = matched(c.path) || kubernetes(read.text);
    if (discovered || c.baseBlob !== undefined) now.push({ change: c, text: read.text, discovered });
  }
  const before = baseTexts(
    root,
    options.base,
    now.map((n) => n.change),
  );
  const changed = now.flatMap(({ change, text, discovered }): ChangedFile[] => {
    const old = change.baseBlob === undefined ? undefined : baseText(before.get(change.baseBlob), change.path);
    if (!discovered && (old === undefined || !kubernetes(old))) return [];
    return [old === undefined ? { path: change.path, after: text } : { path: change.path, before: old, after: text }];
  });
  return { changed, problems, notes };
}

/** A base revision's text; one that is not UTF-8 held nothing kubectl could apply, so it reads as none. */
function baseText(bytes: Buffer | undefined, path: string): string | undefined {
  if (bytes === undefined) return undefined;
  const { text, notUtf8 } = decodeText(bytes, path);
  return notUtf8 ? undefined : text;
}

/** The texts of the base's blobs of some files, by blob id: none without a base. */
function baseTexts(root: string, base: string | undefined, files: readonly ChangedPath[]) {
  const ids = files.flatMap((f) => (f.baseBlob === undefined ? [] : [f.baseBlob]));
  return base === undefined ? new Map<string, Buffer | undefined>() : readBlobs(root, ids, maxFileBytes);
}

/** The deleted Kubernetes files (not ignored) with their text at the base. */
export function deletedFiles(
  root: string,
  deleted: readonly ChangedPath[],
  options: { ignore: readonly string[]; base?: string },
): TextFile[] {
  const wanted = deleted.filter(
    (f) => isKubernetesFileName(f.path) && !options.ignore.some((g) => matchesGlob(f.path, g)),
  );
  const read = baseTexts(root, options.base, wanted);
  return wanted.flatMap(({ path, baseBlob }) => {
    const text = baseBlob === undefined ? undefined : baseText(read.get(baseBlob), path);
    return text === undefined ? [] : [{ path, text }];
  });
}

/**
 * The repository's Conversion declarations (kunion.dev) beyond some files: the
 * globs' files, or every file git lists (tracked, and untracked ones it does
 * not ignore) naming one.
 */
export function repositoryConversions(root: string, globs: readonly string[], except: ReadonlySet<string>): TextFile[] {
  const paths = globs.length > 0 ? globInside(root, globs).paths : workTreeFiles(root);
  return paths
    .filter((p) => isKubernetesFileName(p) && !except.has(p))
    .flatMap((path) => {
      const read = readInside(root, path);
      return read && "text" in read && read.text.includes("kunion.dev") && read.text.includes("Conversion")
        ? [{ path, text: read.text }]
        : [];
    });
}

/**
 * The repository's CRDs beyond the changed files: the globs' files, or else
 * every YAML and JSON file git lists (as above) that mentions
 * CustomResourceDefinition (a cheap test before any parsing).
 */
export function repositoryCrds(
  root: string,
  globs: readonly string[],
  changed: ReadonlySet<string>,
): { files: TextFile[]; problems: Finding[] } {
  if (globs.length > 0) {
    const { files, problems } = readGlobbed(root, globs);
    return { files: files.filter((f) => !changed.has(f.path)), problems };
  }
  const files = workTreeFiles(root)
    .filter((p) => isKubernetesFileName(p) && !changed.has(p))
    .flatMap((path) => {
      const read = readInside(root, path);
      return read && "text" in read && read.text.includes("CustomResourceDefinition")
        ? [{ path, text: read.text }]
        : [];
    });
  return { files, problems: [] };
}

/** Files the globs match, read safely (Go API types, CRDs): unreadable ones are problems. */
export function readGlobbed(root: string, globs: readonly string[]): { files: TextFile[]; problems: Finding[] } {
  const { paths, refused } = globInside(root, globs);
  const problems = refused.map((g) => fileProblem(g, "a glob must stay inside the checkout: not used"));
  const files: TextFile[] = [];
  for (const path of paths) {
    const read = readInside(root, path);
    if (read === undefined) continue;
    if ("problem" in read) problems.push(read.problem);
    else files.push({ path, text: read.text });
  }
  return { files, problems };
}
