/**
 * One parse per text for the steps of one check of a checkout (moved CRDs
 * paired, removals, the core's checkChanges, waivers): a memo each check
 * makes for itself, so nothing parsed outlives the check or passes between
 * checks, and a text several steps read is parsed once.
 */
import { type ParsedSource, parseSource } from "../index.js";

/** A text as `parseSource(text, path)` reads it; the result is shared, so never changed by its readers. */
export type Parse = (text: string, path: string) => ParsedSource;

/** A parser that parses a text (at a path: documents and findings carry it) on first asking and remembers it. */
export function parseOnce(): Parse {
  const read = new Map<string, Map<string, ParsedSource>>();
  return (text, path) => {
    let byPath = read.get(text);
    if (byPath === undefined) {
      byPath = new Map();
      read.set(text, byPath);
    }
    let parsed = byPath.get(path);
    if (parsed === undefined) {
      parsed = parseSource(text, path);
      byPath.set(path, parsed);
    }
    return parsed;
  };
}
