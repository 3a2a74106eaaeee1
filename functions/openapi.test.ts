/**
 * The OpenAPI document says what the routes do: a body its request schema refuses is the
 * route's 400, and one it accepts is not; every reference resolves. Ajv (2020-12, the
 * dialect of OpenAPI 3.1) reads the document as a client generator would.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { openapi } from "./openapi.js";

const root = join(import.meta.dirname, "..");
const text = (path: string) => readFileSync(join(root, path), "utf8");
const app = createApp({
  defaults: [{ path: "backups.yaml", text: text("examples/crds/backups.kunion.dev.yaml") }],
  conversions: [{ path: "cronjob.yaml", text: text("examples/conversions/cronjob.yaml") }],
});

const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" }, data: { a: "1" } };
const crd = text("examples/crds/backups.kunion.dev.yaml");
const admission = (operation: string) => ({
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  request: { uid: "705ab4f5", operation, object: null, oldObject: configMap },
});
const conversionReview = (apiVersion: string) => ({
  apiVersion,
  kind: "ConversionReview",
  request: { uid: "705ab4f5", desiredAPIVersion: "batch.tutorial.kubebuilder.io/v2", objects: [] },
});

type Route = "/v1/validate" | "/v1/normalize" | "/v1/convert" | "/v1/admit" | "/v1/crd-diff";
/** Bodies each route takes or refuses for their shape alone. */
const bodies: [route: Route, what: string, body: unknown][] = [
  ["/v1/validate", "one object", { object: configMap }],
  [
    "/v1/validate",
    "objects, null oldObject, options",
    { objects: [configMap], oldObject: null, options: { strict: false } },
  ],
  ["/v1/validate", "a release as a number", { object: configMap, options: { kubernetesVersion: 1.34 } }],
  ["/v1/validate", "neither object nor objects", {}],
  ["/v1/validate", "objects not a list", { objects: { a: 1 } }],
  ["/v1/validate", "an unknown option", { object: configMap, options: { ratchet: true } }],
  ["/v1/normalize", "mode and policy", { object: configMap, mode: "apply", policy: "smd" }],
  ["/v1/normalize", "an unknown mode", { object: configMap, mode: "merge" }],
  ["/v1/normalize", "an unknown field", { object: configMap, olObject: {} }],
  ["/v1/convert", "a ConversionReview", conversionReview("apiextensions.k8s.io/v1")],
  ["/v1/convert", "a review of an unknown apiVersion", conversionReview("apiextensions.k8s.io/v2")],
  ["/v1/convert", "the ad-hoc form without objects", { conversion: {}, desiredAPIVersion: "v2" }],
  ["/v1/convert", "a desiredAPIVersion not a string", { conversion: {}, objects: [], desiredAPIVersion: 2 }],
  ["/v1/admit", "an AdmissionReview", admission("DELETE")],
  ["/v1/admit", "an unknown operation", admission("PATCH")],
  ["/v1/admit", "a request without uid", { ...admission("CREATE"), request: { operation: "CREATE" } }],
  ["/v1/crd-diff", "two texts", { old: crd, new: crd }],
  ["/v1/crd-diff", "no new", { old: crd }],
  ["/v1/crd-diff", "a number for old", { old: 1, new: crd }],
];

describe("the OpenAPI document", () => {
  const ajv = new Ajv2020({ strict: false });

  it.each(bodies)(
    "%s, %s: refused by the request schema exactly when the route answers 400",
    async (route, _, body) => {
      const schema: object = openapi.paths[route].post.requestBody.content["application/json"].schema;
      const accepts = ajv.compile(schema);
      const res = await app.request(route, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expect(res.status === 400, `${res.status} ${await res.text()}`).toBe(!accepts(body));
    },
  );

  it("every reference names a component", () => {
    const refs = [...JSON.stringify(openapi).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(Object.keys(openapi.components.schemas)).toContain(name);
  });
});
