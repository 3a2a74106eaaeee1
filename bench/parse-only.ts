/**
 * The baseline of bench/cold.ts: a process that only reads the YAML and JSON
 * files under its arguments and parses every document with the `yaml`
 * package, as any tool that checks them must at least do.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";

function* files(path: string): Generator<string> {
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    const child = join(path, name);
    if (statSync(child).isDirectory()) yield* files(child);
    else if (/\.(ya?ml|json)$/.test(name)) yield child;
  }
}

let documents = 0;
for (const arg of process.argv.slice(2)) {
  for (const file of files(arg)) {
    for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
      if ("toJS" in doc) doc.toJS({ maxAliasCount: -1 });
      documents++;
    }
  }
}
process.stdout.write(`${documents} documents\n`);
