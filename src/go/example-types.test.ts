/**
 * The example Go API types (examples/go) give the example Backup CRD its
 * unions: with the CRD's own CEL rules taken out, `--go-types examples/go`
 * alone must report what examples/manifests/backups-invalid.yaml breaks,
 * the schedule's ExactlyOneOf (a type-level marker) included.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadWorkspace, validateObjects } from "../index.js";

const root = join(import.meta.dirname, "../..");
const read = (path: string) => ({ path, text: readFileSync(join(root, path), "utf8") });

/** The CRD without its `x-kubernetes-validations` blocks (each key with the lines indented under it). */
function withoutCel(text: string): string {
  const out: string[] = [];
  let inside: number | undefined;
  for (const line of text.split("\n")) {
    const indent = line.search(/\S/);
    if (inside !== undefined && (indent === -1 || indent > inside)) continue;
    inside = /^\s*x-kubernetes-validations:/.test(line) ? indent : undefined;
    if (inside === undefined) out.push(line);
  }
  return out.join("\n");
}

function validate(goTypes: boolean) {
  const crd = read("examples/crds/backups.kunion.dev.yaml");
  const workspace = loadWorkspace({
    inputs: [read("examples/manifests/backups-invalid.yaml")],
    crds: [{ ...crd, text: withoutCel(crd.text) }],
    goTypes: goTypes ? [read("examples/go/v1/backup_types.go")] : [],
  });
  const found = [...workspace.findings, ...validateObjects(workspace.objects, workspace.catalog)];
  return found.map((f) => `${f.line}:${f.column} ${f.severity} ${f.rule}: ${f.message}`);
}

describe("the example Go types", () => {
  it("attach the destination and the schedule unions to the example CRD without its CEL rules", () => {
    expect(withoutCel(read("examples/crds/backups.kunion.dev.yaml").text)).not.toContain("x-kubernetes-validations");
    // Without the Go types, the stripped CRD declares no union: nothing is found.
    expect(validate(false)).toEqual([]);
    expect(validate(true)).toEqual([
      '8:3 error union: spec.destination.s3: Invalid value: "": must be specified when `type` is "S3"',
      '10:5 error union: spec.destination.gcs: Invalid value: "": may only be specified when `type` is "GCS"',
      '12:3 error union: spec.schedule: Invalid value: "{cron, interval}": must specify exactly one of: `cron`, `interval`',
      '24:3 error union: spec.schedule: Invalid value: "": must specify one of: `cron`, `interval`',
    ]);
  });
});
