/**
 * The configuration of a checkout: `.kunion.yaml` at its top (or a path the
 * workflow or the user names inside it), read as every other file of the
 * checkout is: inside it, never through a symbolic link.
 */
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import {
  type Finding,
  getKey,
  isObject,
  type KunionConfig,
  kubernetesReleases,
  parseSource,
  readConfig,
  type Waiver,
} from "../index.js";
import { fileProblem, readInside } from "./files.js";
import { knownRules } from "./product.js";
import { waiverProblems } from "./waivers.js";

export const configFileName = ".kunion.yaml";

export interface LoadedConfig {
  config: KunionConfig;
  /** Errors mean the configuration is broken: nothing is checked. */
  findings: Finding[];
  /** The file and its text, to place findings about it (an expired waiver). */
  file?: string;
  text?: string;
}

/** A configuration file's text read and checked: rule ids (under `rules:`, in waivers) and the release included. */
export function readConfigFile(text: string, file: string): LoadedConfig {
  const ids = knownRules.map((r) => r.id);
  const read = readConfig(text, file, { rules: ids, releases: kubernetesReleases });
  // With other errors the configuration is empty: its waivers are read from the text as written.
  const written = read.findings.some((f) => f.severity === "error")
    ? { waivers: writtenWaivers(text, file) }
    : read.config;
  const problems = waiverProblems(written, text, file, ids);
  return problems.length > 0 ? { config: {}, findings: [...read.findings, ...problems] } : { ...read, file, text };
}

/** `path` relative to `root`; by default `.kunion.yaml` when there is one (a link counts). */
export function loadConfig(root: string, path?: string): LoadedConfig {
  const file =
    path ?? (existsSync(join(root, configFileName)) || isLink(join(root, configFileName)) ? configFileName : undefined);
  if (file === undefined) return { config: {}, findings: [] };
  const read = readInside(root, file);
  if (read === undefined) return { config: {}, findings: [fileProblem(file, "configuration file not found")] };
  if ("problem" in read) return { config: {}, findings: [{ ...read.problem, severity: "error" }] };
  return readConfigFile(read.text, file);
}

function writtenWaivers(text: string, file: string): Waiver[] {
  const value = parseSource(text, file).documents[0]?.value;
  const listed = isObject(value) ? getKey(value, "waivers") : undefined;
  if (!Array.isArray(listed)) return [];
  return listed.map((w) => {
    const out: Record<string, string> = {};
    if (isObject(w)) for (const [k, v] of Object.entries(w)) if (typeof v === "string") out[k] = v;
    return out as Waiver;
  });
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
