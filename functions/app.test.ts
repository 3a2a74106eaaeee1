/** The app with a CRD deployed from inline text: normalize against an old object, validate a YAML body. */
import { describe, expect, it } from "vitest";
import { widgetCrd } from "../test/widget-crd.js";
import { createApp } from "./app.js";

const crd = widgetCrd({
  kind: "Thing",
  properties: `spec:
  type: object
  properties:
    a: {type: string}
    b: {type: string}
  x-kubernetes-validations:
  - rule: "[has(self.a),has(self.b)].filter(x,x==true).size() <= 1"`,
});
const app = createApp({ defaults: [{ path: "things.yaml", text: crd }] });
const post = (path: string, body: string, type = "application/json") =>
  app.request(path, { method: "POST", body, headers: { "content-type": type } });
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
const json = (res: Response): Promise<any> => res.json();

const recreate = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  spec: { strategy: { type: "Recreate", rollingUpdate: { maxSurge: 1 } } },
};

// Malformed bodies, content types, size and the GET routes are covered in routes.test.ts.
describe("HTTP app with an inline-deployed CRD", () => {
  it("normalizes against the old object", async () => {
    const oldObject = { ...recreate, spec: { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } } } };
    const res = await post("/v1/normalize", JSON.stringify({ object: recreate, oldObject }));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.object.spec.strategy).toEqual({ type: "Recreate" });
    expect(body.changes).toEqual([
      { op: "clear", path: "spec.strategy.rollingUpdate", pointer: "/spec/strategy/rollingUpdate" },
    ]);
  });

  it("validates with a deployed CRD, from a YAML body", async () => {
    const res = await post(
      "/v1/validate",
      "object: {apiVersion: example.com/v1, kind: Thing, metadata: {name: t}, spec: {a: one, b: two}}\n",
      "application/yaml",
    );
    const body = await json(res);
    expect(body.valid).toBe(false);
    expect(body.findings.map((f: { message: string }) => f.message)).toEqual([
      "spec: Invalid value: failed rule: [has(self.a),has(self.b)].filter(x,x==true).size() <= 1",
    ]);
  });

  it.each([
    ["a body that is not an object", "[1]", "application/json", 400, "body"],
    ["an object that is not an object", '{"object": 3}', "application/json", 400, "object"],
    ["an unknown policy", JSON.stringify({ object: recreate, policy: "ssa" }), "application/json", 400, "policy"],
    ["an object without kind", '{"object": {"apiVersion": "v1"}}', "application/json", 422, "object"],
  ])("refuses %s with a status naming the field", async (_name, body, type, status, field) => {
    const res = await post("/v1/normalize", body, type);
    expect(res.status).toBe(status);
    expect((await json(res)).field).toBe(field);
  });
});
