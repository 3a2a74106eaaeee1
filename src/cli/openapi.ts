/**
 * `--openapi DIR`: the cluster's OpenAPI v3 documents, saved in the layout
 * the API server serves them (DIR/api/v1.json, DIR/apis/<group>/<version>.json).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type BuiltinSchemas, type Finding, groupVersionOf, openApiSchemas, type TextFile } from "../index.js";
import { InputError } from "./files.js";

export function readOpenAPI(dir: string): { schemas: BuiltinSchemas; findings: Finding[] } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`--openapi: ${dir} is not a folder`);
  const files: TextFile[] = [];
  if (existsSync(join(dir, "api", "v1.json"))) files.push(read(dir, "api/v1.json"));
  const apis = join(dir, "apis");
  if (existsSync(apis)) {
    for (const group of readdirSync(apis, { withFileTypes: true })) {
      if (!group.isDirectory()) continue;
      for (const name of readdirSync(join(apis, group.name))) {
        const path = `apis/${group.name}/${name}`;
        if (groupVersionOf(path)) files.push(read(dir, path));
      }
    }
  }
  if (files.length === 0) throw new InputError(`--openapi: ${dir} has no api/v1.json nor apis/<group>/<version>.json`);
  return openApiSchemas(files);
}

function read(dir: string, path: string): TextFile {
  return { path, text: readFileSync(join(dir, path), "utf8") };
}
