import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The import directions of docs/architecture.md, checked by a machine: the table there is the
// rule, read here, so the document and the check cannot drift apart.
const root = join(import.meta.dirname, "..");
const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");

interface Rule {
  /** What the folder may import (module names for src/, paths and packages for the rest); undefined: anything. */
  allowed: string[] | undefined;
}

/** The rows of the table `| folder | its job | may import |`: a folder in backticks, then the backticked names. */
function readTable(text: string): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const folder = /^`([^`]+\/)`$/.exec(cells[1] ?? "")?.[1];
    if (cells.length !== 5 || !folder) continue;
    const imports = cells[3] as string;
    const names = [...imports.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    rules.set(folder, { allowed: imports === "anything" ? undefined : names });
  }
  return rules;
}
const table = readTable(doc);

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" || e.name === "node_modules" ? [] : sources(path);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}
const importsOf = (file: string) =>
  [
    ...readFileSync(join(root, file), "utf8").matchAll(/^(?:import|export)[^;]*? from "([^"]+)"|^import "([^"]+)"/gms),
  ].map((m) => (m[1] ?? m[2]) as string);

/** The folder of the table a file belongs to: `src/cel/` for src/cel/language/checker.ts, `functions/`… */
function folderOf(file: string): string {
  const [top, sub] = file.split("/");
  return top === "src" ? `src/${sub}/` : `${top}/`;
}

/**
 * What an import lands in, as the table names it: `node:*`; a package's name; from src/, a module
 * of src/ by name through its index.ts (`index` for src/index.ts), else the exact file; from
 * elsewhere, `src/index.ts`, a module by its folder through its index.ts (`src/checkout/`), else
 * the exact file; outside src/, the file in a folder of the table, else the top folder.
 */
function target(file: string, spec: string): string {
  if (spec.startsWith("node:")) return "node:*";
  if (!spec.startsWith("."))
    return spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] as string);
  const to = relative(root, join(root, file, "..", spec)).replace(/\.js$/, ".ts");
  const parts = to.split("/");
  if (parts[0] !== "src") return table.has(`${parts[0]}/`) ? to : `${parts[0]}/`;
  if (to === "src/index.ts") return file.startsWith("src/") ? "index" : to;
  const throughIndex = parts.length === 3 && parts[2] === "index.ts";
  if (file.startsWith("src/")) return throughIndex || folderOf(file) === `src/${parts[1]}/` ? (parts[1] as string) : to;
  return throughIndex ? `src/${parts[1]}/` : to;
}

describe("architecture (docs/architecture.md)", () => {
  it("the document's table has a row for every folder of src/ and every face", () => {
    const folders = readdirSync(join(root, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`);
    for (const folder of [...folders, "functions/", "action/", "bench/", "test/", ".ci/"]) {
      expect(table.has(folder), `docs/architecture.md has no row for ${folder}`).toBe(true);
    }
    // What a src/ row names is a module of src/, `index`, a package kunion depends on, or a path (a typo would allow nothing).
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const packages = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
    for (const [folder, rule] of table) {
      for (const name of rule.allowed ?? []) {
        const known =
          packages.has(name) ||
          name === "node:*" ||
          name === "index" ||
          folders.includes(`src/${name}/`) ||
          (name.includes("/") && existsSync(join(root, name)));
        expect(known, `${folder} may import ${name}: no such module, package or path`).toBe(true);
      }
    }
  });

  const files = [...sources("src"), ...sources("functions"), ...sources("action")].filter((f) => f !== "src/index.ts");
  it.each(files)("%s imports only what its folder may", (file) => {
    const own = folderOf(file);
    const allowed = table.get(own)?.allowed;
    expect(allowed, `no rule for ${own} in docs/architecture.md`).toBeDefined();
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      if (`src/${to}/` === own || to === own || (!file.startsWith("src/") && to.startsWith(own))) continue;
      expect(allowed, `${file} imports ${spec} (${to})`).toContain(to);
      // The CLI's entry runs the HTTP functions' Node server (`kunion serve`); the rest of the CLI stays off the faces.
      if (to.startsWith("functions/")) expect(file, `${file} imports ${spec}`).toBe("src/cli/bin.ts");
      // Throwaway git repositories are for tests: the Action's test support takes them, its code does not.
      if (to === "src/checkout/testing.ts") expect(file, `${file} imports ${spec}`).toBe("action/testing.ts");
    }
  });

  // A module's header says what it imports ("Imports value, path and `yaml`."): the sentence
  // must name exactly the modules and packages its files import, so it cannot go stale.
  const modules = readdirSync(join(root, "src"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "cli" && e.name !== "checkout")
    .map((e) => e.name);
  it.each(modules)("src/%s/index.ts's header names what the module imports", (name) => {
    const header = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(join(root, "src", name, "index.ts"), "utf8"))?.[1] ?? "";
    const sentence = /\b[Ii]mports ([^.]*(?:\.(?:js|ts)[^.]*)*)\./.exec(header.replace(/\s*\n\s*\*\s?/g, " "))?.[1];
    expect(sentence, `src/${name}/index.ts's header has no "Imports …" sentence`).toBeDefined();
    const claimed = new Set(
      (sentence as string)
        .replaceAll("`", "")
        .split(/,\s*|\s+and\s+|\s+/)
        .filter((w) => /^[a-z@][\w@./-]*$/.test(w) && !["only", "nothing", "the", "packages", "package"].includes(w)),
    );
    const imported = new Set(
      sources(`src/${name}`)
        .flatMap((file) => importsOf(file).map((spec) => target(file, spec)))
        .filter((to) => to !== name && to !== "node:*" && !to.startsWith("src/")),
    );
    expect([...claimed].sort()).toEqual([...imported].sort());
  });

  it("src/index.ts exports the modules through their index.ts", () => {
    for (const spec of importsOf("src/index.ts")) {
      expect(spec).toMatch(/^\.\/[a-z]+\/index\.js$|^\.\.\/package\.json$/);
    }
  });

  it("the core never generates code (Cloudflare Workers forbid it)", () => {
    for (const file of sources("src")) {
      const text = readFileSync(join(root, file), "utf8");
      expect(text, file).not.toMatch(/\beval\s*\(|new\s+Function\s*\(|\bFunction\s*\(\s*["'`]/);
    }
  });
});
