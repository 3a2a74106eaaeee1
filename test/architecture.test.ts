import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The import direction of architecture.md, checked by a machine: each module
// of src/ may import only the modules listed here (and itself).
const allowed: Record<string, string[]> = {
  value: [],
  path: [],
  findings: ["path"],
  names: [],
  // Go's parsing rules (durations, RFC 3339, net/url, quantities), one home each.
  go: [],
  schema: ["value", "path", "findings"],
  source: ["value", "path", "findings", "yaml", "js-yaml"],
  crd: ["schema", "value", "path", "findings"],
  builtins: ["schema", "path", "findings", "value", "names", "go"],
  report: ["findings", "path"],
  config: ["source", "findings", "path", "value"],
  unions: ["schema", "value", "path", "findings"],
  cel: ["schema", "value", "path", "findings", "names", "go", "@bufbuild/cel", "@bufbuild/re2"],
  validate: ["schema", "value", "path", "findings", "names", "go", "cel", "@bufbuild/re2"],
  evolution: ["crd", "schema", "names", "unions", "findings", "value", "path"],
  convert: ["crd", "schema", "cel", "validate", "source", "findings", "names", "value", "path"],
  webhooks: ["convert", "unions", "validate", "findings", "names", "value", "path"],
  check: [
    "source",
    "crd",
    "builtins",
    "schema",
    "unions",
    "validate",
    "evolution",
    "convert",
    "findings",
    "names",
    "value",
    "path",
  ],
  // The Node side shared by the CLI and the Action: a checkout on disk.
  checkout: ["index"],
  cli: ["index", "checkout", "yaml"],
};

/** The modules of src/ that may use Node APIs. */
const nodeModules = ["cli", "checkout"];

const root = join(import.meta.dirname, "..");
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" ? [] : sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}
const importsOf = (file: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/^(?:import|export)[^;]*? from "([^"]+)"/gms)].map(
    (m) => m[1] as string,
  );

/** The module an import lands in: a folder of src/, `index` for src/index.ts, or the package name. */
function target(file: string, spec: string): string {
  if (spec.startsWith("node:")) return "node:";
  if (!spec.startsWith("."))
    return spec
      .split("/")
      .slice(0, spec.startsWith("@") ? 2 : 1)
      .join("/");
  const resolved = relative(join(root, "src"), join(root, file, "..", spec));
  return resolved.startsWith("..") ? `face:${resolved}` : (resolved.split("/")[0] as string).replace(/\.js$/, "");
}

describe("architecture", () => {
  const files = sources("src");

  it.each(files.filter((f) => f !== "src/index.ts"))("%s imports only what its layer may", (file) => {
    const own = file.split("/")[1] as string;
    const rules = allowed[own];
    expect(rules, `no layer rule for src/${own}`).toBeDefined();
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      if (to === own) continue;
      // The one exception: the CLI's entry runs the HTTP functions' Node server (`kunion serve`).
      // Only src/cli/bin.ts, and only functions/node-server.ts: the rest of the CLI stays off the faces.
      if (file === "src/cli/bin.ts" && to === "face:../functions/node-server.js") continue;
      if (to === "node:") {
        expect(nodeModules, `${file} imports ${spec}: only the CLI and checkout/ may use Node APIs`).toContain(own);
        continue;
      }
      expect(rules, `${file} imports ${spec} (${to})`).toContain(to);
    }
  });

  it("the core never generates code (Cloudflare Workers forbid it)", () => {
    for (const file of files) {
      const text = readFileSync(join(root, file), "utf8");
      expect(text, file).not.toMatch(/\beval\s*\(|new\s+Function\s*\(|\bFunction\s*\(\s*["'`]/);
    }
  });

  it("the faces import the core only through src/index.ts (and the Action the checkout's index)", () => {
    for (const file of [...sources("functions"), ...sources("action")]) {
      for (const spec of importsOf(file).filter((s) => s.includes("src/"))) {
        // builtins/all-releases.js only registers the non-default releases' tables: the Node faces
        // import it for its effect, the Worker leaves it out (its 1 MiB bundle limit).
        const allowedHere = file.startsWith("action/")
          ? /\/src\/(index|checkout\/index|builtins\/all-releases)\.js$/
          : /\/src\/(index|builtins\/all-releases)\.js$/;
        expect(spec, file).toMatch(allowedHere);
      }
    }
  });
});
