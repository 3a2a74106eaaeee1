import { type Dirent, globSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, matchesGlob, relative, sep } from "node:path";
import { fileProblem } from "../checkout/index.js";
import { decodeText, type Finding, type ParsedFile, skippedNotice, type TextFile } from "../index.js";

/** An input that cannot be read at all: exit code 2. */
export class InputError extends Error {}

const manifestExtensions = [".yaml", ".yml", ".json"];

export interface Inputs {
  /** The files read; one that is not UTF-8 comes parsed, as a parse error and no documents. */
  files: (TextFile | ParsedFile)[];
  /**
   * Files found in folders and not read: an error on each one that cannot be read (a broken link, no
   * permission), which makes the exit code 2 once the others are checked, and one notice for those that
   * are not regular files (a FIFO would hold the run forever).
   */
  problems: Finding[];
}

/**
 * Files given or found in folders (sorted, recursively), read as UTF-8; `-`
 * is standard input. Files an `ignore` glob matches are left out, unread. A
 * path given that cannot be read is an InputError; it is read whatever it is
 * (a FIFO too, as `-` is).
 */
export function readInputs(
  paths: readonly string[],
  accept: (name: string) => boolean = isManifest,
  ignore: readonly string[] = [],
): Inputs {
  const found: Found = { files: [], problems: [], notRegular: [] };
  for (const p of paths) {
    if (p === "-") found.files.push(textFile("<stdin>", readFileSync(0)));
    else if (isFolder(p)) walk(p, accept, ignore, found);
    else if (!isIgnored(p, ignore)) found.files.push(readNamed(p));
  }
  const { files, problems, notRegular } = found;
  if (notRegular.length > 0) {
    const detail = `${notRegular.length} file(s) found in folders are not regular files (a FIFO, a socket, a device, a link to a folder): not read`;
    problems.push(skippedNotice(detail, notRegular[0]));
  }
  return { files, problems };
}

/** A file's bytes as text; bytes that are not UTF-8 are its parse error, and it has no documents. */
export function textFile(path: string, bytes: Uint8Array): TextFile | ParsedFile {
  const { text, notUtf8 } = decodeText(bytes, path);
  return notUtf8 ? { path, text, documents: [], findings: [notUtf8] } : { path, text };
}

/**
 * A file on disk as text, read as such: bytes that are not UTF-8 come back as U+FFFD, and only then are the bytes
 * read again to say where. Reading every file as bytes first held them all until a collection: 40 MiB more at the
 * peak over the corpus.
 */
function fileText(path: string): TextFile | ParsedFile {
  const text = readFileSync(path, "utf8");
  return text.includes("\ufffd") ? textFile(path, readFileSync(path)) : { path, text };
}

/**
 * Whether a glob matches the file, as written or from the working folder
 * (`charts/**` matches `./charts/a.yaml` and an absolute path under it).
 */
export function isIgnored(file: string, ignore: readonly string[]): boolean {
  if (ignore.length === 0) return false;
  const fromHere = relative(process.cwd(), file).split(sep).join("/");
  const given = file.split(sep).join("/");
  return ignore.some((g) => matchesGlob(fromHere, g) || matchesGlob(given, g));
}

/** The paths given that name a file (not a folder, not `-`) an ignore glob matches. */
export function ignoredNames(paths: readonly string[], ignore: readonly string[]): string[] {
  return namedFiles(paths).filter((p) => isIgnored(p, ignore));
}

/** The paths given that name a file, not a folder (nor `-`): read after readInputs, which has found them all. */
export const namedFiles = (paths: readonly string[]): string[] =>
  paths.filter((p) => p !== "-" && !statSync(p).isDirectory());

export const isManifest = (name: string) => manifestExtensions.some((ext) => name.endsWith(ext));
export const isGoTypes = (name: string) => name.endsWith("_types.go");

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    throw new InputError(`${path}: no such file or folder`);
  }
}

interface Found extends Inputs {
  notRegular: string[];
}

/** The accepted files of a folder and its folders, but hidden ones and node_modules, read in sorted order. */
function walk(folder: string, accept: (name: string) => boolean, ignore: readonly string[], found: Found): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch (e) {
    found.problems.push(fileProblem(folder, `cannot be read: ${(e as NodeJS.ErrnoException).code}`));
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const full = join(folder, entry.name);
    if (entry.isDirectory()) walk(full, accept, ignore, found);
    else if (!accept(entry.name) || isIgnored(full, ignore)) continue;
    else {
      const kind = kindOf(entry, full);
      if (kind === "regular") {
        try {
          found.files.push(fileText(full));
        } catch (e) {
          found.problems.push(fileProblem(full, `cannot be read: ${(e as NodeJS.ErrnoException).code}`));
        }
      } else if (kind === "other") found.notRegular.push(full);
      else found.problems.push(fileProblem(full, kind.problem));
    }
  }
}

/** A regular file (or a link to one), anything else, or why a link cannot be followed. */
function kindOf(entry: Dirent, full: string): "regular" | "other" | { problem: string } {
  if (!entry.isSymbolicLink()) return entry.isFile() ? "regular" : "other";
  try {
    return statSync(full).isFile() ? "regular" : "other";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      problem:
        code === "ENOENT" || code === "ELOOP" ? "is a broken symbolic link: not read" : `cannot be read: ${code}`,
    };
  }
}

/** A file named alone for its text (a configuration, a baseline): bytes that are not UTF-8 make it unreadable. */
export function readText(file: string): string {
  const read = readNamed(file);
  const notUtf8 = "findings" in read ? read.findings[0] : undefined;
  if (notUtf8) throw new InputError(`${file}:${notUtf8.line}:${notUtf8.column}: ${notUtf8.detail}`);
  return read.text;
}

/** A file named on the command line or in a configuration; one that cannot be read is an InputError. */
function readNamed(file: string): TextFile | ParsedFile {
  try {
    return fileText(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "EISDIR" ? "is a folder" : code === "ENOENT" ? "no such file or folder" : "cannot be read";
    throw new InputError(`${file}: ${why}`);
  }
}

/** The files configured globs match (`.kunion.yaml`'s crds, goTypes), sorted. */
export function expandGlobs(patterns: readonly string[] | undefined): string[] {
  return [...new Set((patterns ?? []).flatMap((p) => globSync(p)))].sort();
}
