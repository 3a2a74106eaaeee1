/**
 * The public API is what docs/api.md says: every name src/index.ts exports is documented there,
 * and every name the document shows in its first column is exported.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

const root = join(import.meta.dirname, "..");
const index = readFileSync(join(root, "src/index.ts"), "utf8");
const docs = readFileSync(join(root, "docs/api.md"), "utf8");

/** The names src/index.ts exports, types included: `export {…} from`, `export type {…} from`, `export const`. */
const exported = new Set([
  ...[...index.matchAll(/^export (?:type )?\{([^}]*)\} from/gm)].flatMap((m) =>
    (m[1] as string)
      .split(",")
      .map((n) => n.trim().replace(/^type /, ""))
      .filter((n) => n !== ""),
  ),
  ...[...index.matchAll(/^export const (\w+)/gm)].map((m) => m[1] as string),
]);

/** The names in the first column of docs/api.md's tables: each backticked identifier, before `(` if a call. */
const documented = new Set(
  docs
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...(line.split(" | ")[0] as string).matchAll(/`(\w+)/g)].map((m) => m[1] as string)),
);

describe("the public API (docs/api.md)", () => {
  it("reads every runtime export of src/index.ts from its source", () => {
    for (const name of Object.keys(api)) expect(exported, name).toContain(name);
  });

  it("documents every exported name", () => {
    const missing = [...exported].filter((n) => !documented.has(n) && !new RegExp(`\\b${n}\\b`).test(docs));
    expect(missing).toEqual([]);
  });

  it("shows only exported names in its first column", () => {
    expect([...documented].filter((n) => !exported.has(n))).toEqual([]);
  });
});
