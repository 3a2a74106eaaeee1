/**
 * No false positive: a valid object of every common built-in kind, in the
 * shapes the Kubernetes documentation uses (testdata/valid.yaml), goes
 * through the whole pass (schema, unions, hand-written rules) without an
 * error or a warning.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { buildCatalog, validateObject } from "../../check/index.js";
import type { JsonObject } from "../../value/index.js";

const { catalog } = buildCatalog([], []);
const text = readFileSync(join(import.meta.dirname, "testdata", "valid.yaml"), "utf8");
const objects = parseAllDocuments(text).map((d) => d.toJS() as JsonObject);

describe("valid built-in objects pass clean", () => {
  it("covers every common built-in kind", () => {
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of ["Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", "Service"])
      expect(kinds).toContain(kind);
    expect(kinds.size).toBeGreaterThanOrEqual(30);
  });

  it.each(objects.map((o) => [`${o.kind} ${(o.metadata as JsonObject).name}`, o] as const))("%s", (_, object) => {
    const findings = validateObject(catalog, object.apiVersion as string, object.kind as string, object);
    expect(findings.map((f) => `${f.severity} ${f.message}`)).toEqual([]);
  });
});
