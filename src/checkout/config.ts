/**
 * The configuration of a checkout: `.kunion.yaml` at its top (or a path the
 * workflow or the user names inside it), read as every other file of the
 * checkout is: inside it, never through a symbolic link.
 */
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { type Finding, type KunionConfig, readConfig } from "../index.js";
import { fileProblem, readInside } from "./files.js";

export const configFileName = ".kunion.yaml";

export interface LoadedConfig {
  config: KunionConfig;
  /** Errors mean the configuration is broken: nothing is checked. */
  findings: Finding[];
}

/** `path` relative to `root`; by default `.kunion.yaml` when there is one (a link counts). */
export function loadConfig(root: string, path?: string): LoadedConfig {
  const file =
    path ?? (existsSync(join(root, configFileName)) || isLink(join(root, configFileName)) ? configFileName : undefined);
  if (file === undefined) return { config: {}, findings: [] };
  const read = readInside(root, file);
  if (read === undefined) return { config: {}, findings: [fileProblem(file, "configuration file not found")] };
  if ("problem" in read) return { config: {}, findings: [{ ...read.problem, severity: "error" }] };
  return readConfig(read.text, file);
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
