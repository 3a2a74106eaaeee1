/**
 * Kubernetes' own kinds are closed objects, as kubectl's strict field
 * validation decodes them (apimachinery's strict decoding through
 * sigs.k8s.io/json: `strict decoding error: unknown field "spec.replica"`),
 * through the engine custom resources go through; a cluster's own OpenAPI
 * documents (`--openapi`) in place of the embedded tables.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildCatalog, openApiSchemas, validateObject } from "../check/index.js";
import type { JsonObject } from "../value/index.js";

const { catalog } = buildCatalog([], []);
const deployment = (spec: JsonObject, extra: JsonObject = {}): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } },
    ...spec,
  },
  ...extra,
});
const said = (object: JsonObject, options = {}) =>
  validateObject(catalog, "apps/v1", "Deployment", object, options).map((f) => `${f.severity} ${f.message}`);

describe("Kubernetes' own kinds are closed objects", () => {
  it("reports a misspelled field in kubectl's words, an error by default and a warning with --no-strict", () => {
    const object = deployment({ replica: 3 }, { specs: {} });
    expect(said(object)).toEqual(['error unknown field "spec.replica"', 'error unknown field "specs"']);
    expect(said(object, { unknownFields: "warning" })).toEqual([
      'warning unknown field "spec.replica"',
      'warning unknown field "specs"',
    ]);
  });

  it("finds a misspelled field deep in the pod template, and a map key in brackets", () => {
    const spec = {
      template: {
        spec: {
          containers: [{ name: "web", image: "nginx", imagePullPolice: "Always", resources: { limits: { cpu: {} } } }],
        },
      },
    };
    const messages = said(deployment(spec));
    expect(messages).toContain('error unknown field "spec.template.spec.containers[0].imagePullPolice"');
    expect(messages.some((m) => m.startsWith("error spec.template.spec.containers[0].resources.limits[cpu]:"))).toBe(
      true,
    );
  });

  it("accepts int-or-string and quantities in both forms and a valid Deployment clean", () => {
    const spec = {
      strategy: { rollingUpdate: { maxSurge: "25%", maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "web", image: "nginx", resources: { limits: { cpu: 0.5, memory: "1Gi" } } }] },
      },
    };
    expect(said(deployment(spec))).toEqual([]);
    expect(said(deployment({ replicas: "3" }))).toEqual([
      'error spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });

  it("checks a kind beyond the unions registry (every kind of the release)", () => {
    const driver = { apiVersion: "storage.k8s.io/v1", kind: "CSIDriver", metadata: { name: "a.b" }, spec: { x: 1 } };
    const found = validateObject(catalog, "storage.k8s.io/v1", "CSIDriver", driver).map((f) => f.message);
    expect(found).toEqual(['unknown field "spec.x"']);
  });
});

const shared = join(import.meta.dirname, "../../../shared/k8s-openapi/1.30");

describe.skipIf(!existsSync(shared))("--openapi: a cluster's own documents (Kubernetes 1.30, not embedded)", () => {
  const files = [{ path: "api/v1.json", text: readFileSync(join(shared, "api/v1.json"), "utf8") }];
  for (const group of readdirSync(join(shared, "apis")))
    for (const file of readdirSync(join(shared, "apis", group)))
      files.push({ path: `apis/${group}/${file}`, text: readFileSync(join(shared, "apis", group, file), "utf8") });
  const { schemas, findings } = openApiSchemas(files);

  it("reads every document of the layout", () => {
    expect(findings).toEqual([]);
    expect(schemas.has("apps/v1", "Deployment")).toBe(true);
  });

  it("validates a kind with the cluster's schema, list-map keys included", () => {
    const found = validateObject(catalog, "apps/v1", "Deployment", deployment({ replica: 3 }), {
      builtinSchemas: schemas,
    });
    expect(found.map((f) => f.message)).toEqual(['unknown field "spec.replica"']);
  });

  it("validates an alpha kind the release serves only behind a feature gate", () => {
    const kind = "ValidatingAdmissionPolicy";
    expect(schemas.has("admissionregistration.k8s.io/v1alpha1", kind)).toBe(true);
    const policy = {
      apiVersion: "admissionregistration.k8s.io/v1alpha1",
      kind,
      metadata: { name: "p" },
      spec: { validations: [{ expresion: "true" }] },
    };
    const found = validateObject(catalog, "admissionregistration.k8s.io/v1alpha1", kind, policy, {
      builtinSchemas: schemas,
    });
    // and by the hand-written rules of the internal type every version converts to
    expect(found.map((f) => f.message)).toEqual([
      'unknown field "spec.validations[0].expresion"',
      "spec.matchConstraints: Required value",
      "spec.validations[0].expression: Required value: expression is not specified",
    ]);
  });
});
