import { globSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, matchesGlob, relative, sep } from "node:path";
import type { TextFile } from "../index.js";

/** An input that cannot be read at all: exit code 2. */
export class InputError extends Error {}

const manifestExtensions = [".yaml", ".yml", ".json"];

/**
 * Files given or found in folders (sorted, recursively), read as UTF-8; `-`
 * is standard input. Files an `ignore` glob matches are left out, unread.
 */
export function readInputs(
  paths: readonly string[],
  accept: (name: string) => boolean = isManifest,
  ignore: readonly string[] = [],
): TextFile[] {
  const out: TextFile[] = [];
  for (const p of paths) {
    if (p === "-") {
      out.push({ path: "<stdin>", text: readFileSync(0, "utf8") });
      continue;
    }
    for (const file of expand(p, accept)) if (!isIgnored(file, ignore)) out.push({ path: file, text: read(file) });
  }
  return out;
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

function expand(path: string, accept: (name: string) => boolean): string[] {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path);
  } catch {
    throw new InputError(`${path}: no such file or folder`);
  }
  if (!info.isDirectory()) return [path];
  const found: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const full = join(path, entry.name);
    if (entry.isDirectory()) found.push(...expand(full, accept));
    else if (accept(entry.name)) found.push(full);
  }
  return found;
}

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(
      `${file}: ${(e as NodeJS.ErrnoException).code === "EISDIR" ? "is a folder" : "cannot be read"}`,
    );
  }
}

/** The files configured globs match (`.kunion.yaml`'s crds, goTypes), sorted. */
export function expandGlobs(patterns: readonly string[] | undefined): string[] {
  return [...new Set((patterns ?? []).flatMap((p) => globSync(p)))].sort();
}
