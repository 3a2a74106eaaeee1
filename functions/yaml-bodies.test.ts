/**
 * Bodies as people post them: YAML with the lines of its findings, several YAML documents
 * where a list of objects is taken, and a bare manifest where `{object}` is.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createApp } from "./app.js";

const root = join(import.meta.dirname, "..");
const text = (path: string) => readFileSync(join(root, path), "utf8");
const app = createApp({
  defaults: [{ path: "examples/crds/backups.kunion.dev.yaml", text: text("examples/crds/backups.kunion.dev.yaml") }],
});
const post = (path: string, body: string, type: string) =>
  app.request(path, { method: "POST", body, headers: { "content-type": type } });
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
const json = (res: Response): Promise<any> => res.json();
const yaml = "application/yaml";
const where = (findings: { field: string; line?: number; column?: number; document?: number }[]) =>
  findings.map((f) => [f.document, f.field, f.line, f.column]);

describe("YAML bodies", () => {
  it("a finding of {object} carries the line and column of its field in the body", async () => {
    const body = "object:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: Bad_Name\n  data: {a: 1}\n";
    const res = await post("/v1/validate", body, yaml);
    expect(res.status).toBe(200);
    expect(where((await json(res)).findings)).toEqual([
      [undefined, "data.a", 6, 10],
      [undefined, "metadata.name", 5, 5],
    ]);
  });

  it("a JSON body's findings carry no line: JSON is read as values", async () => {
    const res = await post(
      "/v1/validate",
      JSON.stringify({ object: parse(text("examples/deployment/recreate.yaml")) }),
      "application/json",
    );
    const [finding] = (await json(res)).findings;
    expect(finding).toMatchObject({ field: "spec.strategy.rollingUpdate" });
    expect(finding.line).toBeUndefined();
  });

  it("several documents are {objects: […]}, each finding with its document and line", async () => {
    const res = await post("/v1/validate", text("examples/manifests/backups-invalid.yaml"), yaml);
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect(answer.valid).toBe(false);
    // The lines kunion validate prints for the same file (test/cli/cli.test.ts).
    expect(where(answer.findings)).toEqual([
      [0, "spec.destination", 8, 3],
      [0, "spec.destination", 8, 3],
      [0, "spec.schedule", 12, 3],
      [1, "spec.schedule", 24, 3],
    ]);
  });

  it("empty documents (a leading ---, a trailing ---) are no objects", async () => {
    const body =
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: B}\n---\n";
    const answer = await json(await post("/v1/validate", body, yaml));
    expect(where(answer.findings)).toEqual([[1, "metadata.name", 8, 12]]);
  });

  it("a document of several that is not an object is named with its index", async () => {
    const res = await post(
      "/v1/validate",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n- a list\n",
      yaml,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ error: "must be an object", field: "objects[1]" });
  });

  it("routes that take one object say so for several documents", async () => {
    const res = await post("/v1/normalize", text("examples/manifests/backups-invalid.yaml"), yaml);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: "the body must be one YAML document (several: POST them to /v1/validate)",
      field: "body",
    });
  });
});

describe("a bare manifest as the body", () => {
  it("is validated as {object: body}, YAML with its lines", async () => {
    const res = await post("/v1/validate", text("examples/deployment/recreate.yaml"), yaml);
    const answer = await json(res);
    expect(answer.valid).toBe(false);
    expect(answer.findings).toContainEqual(
      expect.objectContaining({ field: "spec.strategy.rollingUpdate", rule: "union", line: 15, column: 5 }),
    );
  });

  it("is validated as {object: body} from JSON too", async () => {
    const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "ok" } });
    expect(await json(await post("/v1/validate", body, "application/json"))).toEqual({ valid: true, findings: [] });
  });

  it("is normalized as {object: body} (without an old object nothing is cleared)", async () => {
    const res = await post("/v1/normalize", text("examples/deployment/recreate.yaml"), yaml);
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect([answer.object, answer.changes]).toEqual([parse(text("examples/deployment/recreate.yaml")), []]);
  });

  // An OpenShift Template lists its objects at its top: a field of the manifest, not the request's `objects`.
  const template = "apiVersion: template.openshift.io/v1\nkind: Template\nmetadata: {name: t}\nobjects: []\n";

  it("is validated as {object: body} when it has a top-level objects field of its own", async () => {
    const res = await post("/v1/validate", template, yaml);
    expect(res.status).toBe(200);
    expect((await json(res)).valid).toBe(true);
  });

  it("is normalized as {object: body} when it has a top-level objects field of its own", async () => {
    const res = await post("/v1/normalize", template, yaml);
    expect(res.status).toBe(200);
    expect((await json(res)).object).toEqual(parse(template));
  });

  it("a body with neither object nor apiVersion and kind still names the missing object", async () => {
    const res = await post("/v1/validate", JSON.stringify({ metadata: { name: "x" } }), "application/json");
    expect(res.status).toBe(400);
    expect((await json(res)).field).toBe("object");
  });
});
