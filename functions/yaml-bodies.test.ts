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

// kubectl applies each item of a List on its own (`kubectl get -o yaml` prints one), as `kunion validate` reads it.
describe("a kind: List is its items", () => {
  const list =
    "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data: {x: 1}\n";

  it("each item is validated, its findings on the item's lines (as kunion validate prints them)", async () => {
    const answer = await json(await post("/v1/validate", list, yaml));
    expect(answer.valid).toBe(false);
    expect(where(answer.findings)).toEqual([[undefined, "data.x", 7, 10]]);
    expect(answer.findings[0].message).toBe(
      'data.x: Invalid value: "integer": data.x in body must be of type string: "integer"',
    );
  });

  it("in objects of a JSON body, with the List's index and no line", async () => {
    const ok = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "ok" } };
    const res = await post("/v1/validate", JSON.stringify({ objects: [ok, parse(list)] }), "application/json");
    const answer = await json(res);
    expect(answer.valid).toBe(false);
    expect(where(answer.findings)).toEqual([[1, "data.x", undefined, undefined]]);
    // With no line, `item` says which of the List's items the finding is about.
    expect(answer.findings[0].item).toBe("items[0]");
  });

  it("a typed list's items take its apiVersion and kind; a List in a List and items that are no objects", async () => {
    const body = [
      "apiVersion: v1",
      "kind: List",
      "items:",
      "- just a string",
      "- apiVersion: v1",
      "  metadata: {name: b}",
      "- apiVersion: v1",
      "  kind: ConfigMapList",
      "  items:",
      "  - metadata: {name: c}",
      "    data: {z: true}",
      "",
    ].join("\n");
    const answer = await json(await post("/v1/validate", body, yaml));
    expect(answer.valid).toBe(false);
    // What kunion validate prints for the same file.
    expect(
      answer.findings.map((f: { line: number; column: number; message: string }) => [f.line, f.column, f.message]),
    ).toEqual([
      [4, 3, "Invalid document: a Kubernetes object must be a mapping"],
      [5, 3, "kind: Required value"],
      [11, 12, 'data.z: Invalid value: "boolean": data.z in body must be of type string: "boolean"'],
    ]);
    expect(answer.findings.map((f: { item: string }) => f.item)).toEqual(["items[0]", "items[1]", "items[2].items[0]"]);
  });

  it("a List whose items are no list is refused, as kubectl cannot decode it", async () => {
    const answer = await json(await post("/v1/validate", "apiVersion: v1\nkind: List\nitems: {a: b}\n", yaml));
    expect(answer.valid).toBe(false);
    expect(answer.findings.map((f: { message: string }) => f.message)).toEqual([
      'items: Invalid value: "object": items in body must be of type array: "object"',
    ]);
  });

  const live = parse(text("examples/deployment/live.yaml"));
  const recreate = parse(text("examples/deployment/recreate.yaml"));

  it("is normalized item by item: changes and notes name the item in the List answered", async () => {
    const object = { apiVersion: "v1", kind: "List", items: [recreate] };
    const answer = await json(
      await post("/v1/normalize", JSON.stringify({ object, oldObject: live }), "application/json"),
    );
    const cleared = { ...recreate, spec: { ...recreate.spec, strategy: { type: "Recreate" } } };
    expect(answer.object).toEqual({ ...object, items: [cleared] });
    expect(answer.changes).toEqual([
      { op: "clear", path: "items[0].spec.strategy.rollingUpdate", pointer: "/items/0/spec/strategy/rollingUpdate" },
    ]);
  });

  it("a typed list's item is given back as sent, without the apiVersion and kind it takes from the list", async () => {
    const { apiVersion: _apiVersion, kind: _kind, ...item } = recreate;
    const object = { apiVersion: "apps/v1", kind: "DeploymentList", metadata: {}, items: [item] };
    const answer = await json(
      await post("/v1/normalize", JSON.stringify({ object, oldObject: live }), "application/json"),
    );
    const { rollingUpdate: _cleared, ...strategy } = item.spec.strategy;
    expect(answer.object).toEqual({ ...object, items: [{ ...item, spec: { ...item.spec, strategy } }] });
  });
});
