/**
 * Every route of the HTTP API (interfaces.md, HTTP) through `app.request()`, with the
 * deployment the Worker bundles: the Backup CRD and the CronJob conversion. Reviews are
 * shaped as the API server sends them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import "../src/builtins/all-releases.js";
import { runawayReplace, selfAnchor, yamlRoutes } from "../test/hostile-bodies.js";
import { createApp } from "./app.js";
import { startServer } from "./node-server.js";
import { serverBundle } from "./test-bundle.js";

const root = join(import.meta.dirname, "..");
const text = (path: string) => readFileSync(join(root, path), "utf8");
const deployment = {
  defaults: [{ path: "examples/crds/backups.kunion.dev.yaml", text: text("examples/crds/backups.kunion.dev.yaml") }],
  conversions: [{ path: "examples/conversions/cronjob.yaml", text: text("examples/conversions/cronjob.yaml") }],
};
const app = createApp(deployment);
const post = (path: string, body: unknown, type = "application/json") =>
  app.request(path, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": type },
  });
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
const json = (res: Response): Promise<any> => res.json();

const live = parse(text("examples/deployment/live.yaml"));
const recreate = parse(text("examples/deployment/recreate.yaml"));
const [invalidBackup] = parseAllDocuments(text("examples/manifests/backups-invalid.yaml")).map((d) => d.toJS());

const group = "batch.tutorial.kubebuilder.io";
/** A CronJob as the API server stores it: server-set metadata and managedFields included. */
const cronJob = (version: "v1" | "v2", name: string) => ({
  apiVersion: `${group}/${version}`,
  kind: "CronJob",
  metadata: {
    name,
    namespace: "default",
    uid: `6a3c9a52-1b7e-4d2a-9c1e-${name.padStart(12, "0")}`,
    resourceVersion: "1234",
    generation: 1,
    creationTimestamp: "2026-11-02T10:00:00Z",
    labels: { "app.kubernetes.io/name": "project" },
    managedFields: [
      {
        manager: "kubectl-client-side-apply",
        operation: "Update",
        apiVersion: `${group}/v1`, // the manager's version: conversion leaves managedFields alone
        time: "2026-11-02T10:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:spec": { ".": {}, "f:schedule": {} } },
      },
    ],
  },
  spec: {
    schedule: version === "v1" ? "*/1 * * * *" : { minute: "*/1" },
    startingDeadlineSeconds: 60,
    concurrencyPolicy: "Allow",
    jobTemplate: { spec: { template: { spec: { containers: [{ name: "hello", image: "busybox" }] } } } },
  },
});
const conversionReview = (apiVersion: string, desired: string, objects: unknown[]) => ({
  kind: "ConversionReview",
  apiVersion,
  request: { uid: "0f2c5a3e-5e1b-4b8e-9a57-3c1d2b7e8f90", desiredAPIVersion: desired, objects },
});

const admissionReview = (operation: string, object: unknown, oldObject: unknown = null, extra = {}) => ({
  kind: "AdmissionReview",
  apiVersion: "admission.k8s.io/v1",
  request: {
    uid: "d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34",
    kind: { group: "apps", version: "v1", kind: "Deployment" },
    resource: { group: "apps", version: "v1", resource: "deployments" },
    requestKind: { group: "apps", version: "v1", kind: "Deployment" },
    requestResource: { group: "apps", version: "v1", resource: "deployments" },
    name: "web",
    namespace: "default",
    operation,
    userInfo: { username: "kubernetes-admin", groups: ["system:masters", "system:authenticated"] },
    object,
    oldObject,
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: operation === "CREATE" ? "CreateOptions" : "UpdateOptions" },
    ...extra,
  },
});
const decodePatch = (patch: string) => JSON.parse(Buffer.from(patch, "base64").toString("utf8"));

describe("GET routes", () => {
  it("/healthz", async () => {
    expect(await json(await app.request("/healthz"))).toEqual({ status: "ok" });
  });

  it("/openapi.json is an OpenAPI 3.1 document of every route", async () => {
    const res = await app.request("/openapi.json");
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/healthz",
      "/openapi.json",
      "/v1/admit",
      "/v1/convert",
      "/v1/crd-diff",
      "/v1/normalize",
      "/v1/validate",
    ]);
  });

  it("an unknown route is a JSON 404, and /v1/echo exists only for the benchmark", async () => {
    const res = await post("/v1/echo", { a: 1 });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ field: "path" });
    const root = await app.request("/");
    expect(root.status).toBe(404);
    expect(await json(root)).toEqual({ error: "no route GET /: the routes are in GET /openapi.json", field: "path" });
    const bench = createApp({ ...deployment, benchEcho: true });
    const echoed = await bench.request("/v1/echo", { method: "POST", body: '{"a":1}' });
    expect(await json(echoed)).toEqual({ a: 1 });
  });
});

describe("POST /v1/convert: the conversion webhook with the deployed CronJob conversion", () => {
  it.each(["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"])(
    "a %s review v1 → v2, and back",
    async (apiVersion) => {
      const res = await post(
        "/v1/convert",
        conversionReview(apiVersion, `${group}/v2`, [cronJob("v1", "a"), cronJob("v1", "b")]),
      );
      expect(res.status).toBe(200);
      const answer = await json(res);
      expect(answer.apiVersion).toBe(apiVersion);
      expect(answer.kind).toBe("ConversionReview");
      expect(answer.response.uid).toBe("0f2c5a3e-5e1b-4b8e-9a57-3c1d2b7e8f90");
      expect(answer.response.result).toEqual({ status: "Success" });
      expect(answer.response.convertedObjects).toEqual([cronJob("v2", "a"), cronJob("v2", "b")]);

      const back = await json(
        await post("/v1/convert", conversionReview(apiVersion, `${group}/v1`, answer.response.convertedObjects)),
      );
      expect(back.response.convertedObjects).toEqual([cronJob("v1", "a"), cronJob("v1", "b")]);
    },
  );

  it("a schedule that does not convert fails the review, naming the object", async () => {
    const bad = cronJob("v1", "bad");
    bad.spec.schedule = "* * *";
    const answer = await json(
      await post("/v1/convert", conversionReview("apiextensions.k8s.io/v1", `${group}/v2`, [bad])),
    );
    expect(answer.response.result.status).toBe("Failure");
    expect(answer.response.result.message).toContain("CronJob default/bad");
    expect(answer.response.result.message).toContain("spec.schedule is not a standard 5-field schedule");
    expect(answer.response.convertedObjects).toEqual([]);
  });

  it("a malformed review is a 400 naming the request field", async () => {
    const review = conversionReview("apiextensions.k8s.io/v1", `${group}/v2`, [cronJob("v1", "a")]);
    delete (review.request as { uid?: string }).uid;
    const res = await post("/v1/convert", review);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ field: "request.uid" });
  });

  it("the ad-hoc form converts with an inline declaration", async () => {
    const conversion = parse(text("examples/conversions/cronjob.yaml"));
    const res = await post("/v1/convert", { conversion, objects: [cronJob("v1", "a")], desiredAPIVersion: "v2" });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ objects: [cronJob("v2", "a")] });
  });

  it("the ad-hoc form: an invalid declaration or object is a 422 naming the field", async () => {
    const conversion = parse(text("examples/conversions/cronjob.yaml"));
    const broken = { ...conversion, spec: { ...conversion.spec, hub: 3 } };
    const res = await post("/v1/convert", { conversion: broken, objects: [], desiredAPIVersion: "v2" });
    expect(res.status).toBe(422);
    expect((await json(res)).field).toBe("conversion");
    const bad = cronJob("v1", "bad");
    bad.spec.schedule = "@every 5m";
    const res2 = await post("/v1/convert", { conversion, objects: [cronJob("v1", "a"), bad], desiredAPIVersion: "v2" });
    expect(res2.status).toBe(422);
    expect((await json(res2)).field).toBe("objects[1]");
  });

  it("a review past the time budget is a 503", async () => {
    const slow = createApp({ ...deployment, budgetMs: -1 });
    const res = await slow.request("/v1/convert", {
      method: "POST",
      body: JSON.stringify(conversionReview("apiextensions.k8s.io/v1", `${group}/v2`, [cronJob("v1", "a")])),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(503);
    expect(await json(res)).toMatchObject({ field: "request.objects" });
  });
});

describe("POST /v1/admit: the mutating admission webhook", () => {
  it("UPDATE: the Deployment switched to Recreate is allowed with a patch removing rollingUpdate", async () => {
    const res = await post("/v1/admit", admissionReview("UPDATE", recreate, live));
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect(answer.apiVersion).toBe("admission.k8s.io/v1");
    expect(answer.kind).toBe("AdmissionReview");
    expect(answer.response).toMatchObject({
      uid: "d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34",
      allowed: true,
      patchType: "JSONPatch",
    });
    expect(decodePatch(answer.response.patch)).toEqual([{ op: "remove", path: "/spec/strategy/rollingUpdate" }]);
    // The client learns what the webhook changed: the API server passes warnings on (kubectl prints them).
    expect(answer.response.warnings).toEqual(["kunion normalized the object: cleared spec.strategy.rollingUpdate"]);
  });

  it("a discriminator of the wrong type (an unquoted Off read as false) is not overwritten: denied once for its type", async () => {
    // An unquoted `Off` is a YAML 1.1 boolean: deducing "RollingUpdate" from the member would patch the
    // user's field silently and hide the type error the API server reports.
    const wrong = structuredClone(live);
    wrong.spec.strategy.type = false;
    const answer = await json(await post("/v1/admit", admissionReview("CREATE", wrong)));
    expect(answer.response.patch).toBeUndefined();
    expect(answer.response.allowed).toBe(false);
    const causes = answer.response.status.details.causes.filter(
      (c: { field: string }) => c.field === "spec.strategy.type",
    );
    expect(causes).toHaveLength(1);
    expect(causes[0].message).toContain("must be of type string");
  });

  it("dryRun does not change the answer", async () => {
    const wet = await json(await post("/v1/admit", admissionReview("UPDATE", recreate, live)));
    const dry = await json(await post("/v1/admit", admissionReview("UPDATE", recreate, live, { dryRun: true })));
    expect(dry).toEqual(wet);
  });

  it("CREATE: an object that needs no change is allowed without a patch", async () => {
    const answer = await json(await post("/v1/admit", admissionReview("CREATE", live)));
    expect(answer.response).toEqual({ uid: "d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34", allowed: true });
  });

  it("CREATE: the Recreate Deployment with rollingUpdate and no old object is denied with causes", async () => {
    const answer = await json(await post("/v1/admit", admissionReview("CREATE", recreate)));
    expect(answer.response.allowed).toBe(false);
    expect(answer.response.status.code).toBe(422);
    expect(answer.response.status.reason).toBe("Invalid");
    expect(answer.response.status.details.causes.length).toBeGreaterThan(0);
    expect(answer.response.status.details.causes[0].field).toBe("spec.strategy.rollingUpdate");
  });

  it("CREATE: an invalid Backup is denied with a Status naming each field", async () => {
    const review = admissionReview("CREATE", invalidBackup);
    review.request.kind = { group: "kunion.dev", version: "v1", kind: "Backup" };
    const answer = await json(await post("/v1/admit", review));
    expect(answer.response.uid).toBe("d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34");
    expect(answer.response.allowed).toBe(false);
    expect(answer.response.patch).toBeUndefined();
    const { status } = answer.response;
    expect(status).toMatchObject({ code: 422, reason: "Invalid" });
    expect(status.details.causes).toContainEqual({
      reason: "FieldValueInvalid",
      field: "spec.destination",
      message: "spec.destination: Invalid value: gcs must be nil if the type is not GCS",
    });
    expect(status.details.causes.map((c: { field: string }) => c.field)).toContain("spec.schedule");
    expect(status.message).toBe(status.details.causes.map((c: { message: string }) => c.message).join("; "));
  });

  // docs/http.md, Admission: what each warning of an allowed answer comes from.
  it("warns of an API version the release has deprecated, and of a null the API server drops", async () => {
    const claim = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceClaim",
      metadata: { name: "c", namespace: "d" },
      spec: {},
    };
    const review = admissionReview("CREATE", claim);
    review.request.kind = { group: "resource.k8s.io", version: "v1beta1", kind: "ResourceClaim" };
    const deprecated = (await json(await post("/v1/admit", review))).response;
    expect([deprecated.allowed, deprecated.warnings]).toEqual([
      true,
      ["resource.k8s.io/v1beta1 ResourceClaim is deprecated in v1.35+, unavailable in v1.38+"],
    ]);
    const backup = {
      apiVersion: "kunion.dev/v1",
      kind: "Backup",
      metadata: { name: "b", namespace: "d" },
      spec: { destination: { type: "Disabled" }, schedule: { cron: "x" }, retention: null },
    };
    const nulled = (await json(await post("/v1/admit", admissionReview("CREATE", backup)))).response;
    expect(nulled.allowed).toBe(true);
    expect(nulled.warnings).toEqual([
      expect.stringMatching(/^spec\.retention: Invalid value: null: the field is not nullable/),
    ]);
  });

  it("denies a built-in kind at an API version Kubernetes removed", async () => {
    const old = { ...live, apiVersion: "apps/v1beta1" };
    const review = admissionReview("CREATE", old);
    review.request.kind = { group: "apps", version: "v1beta1", kind: "Deployment" };
    const { response } = await json(await post("/v1/admit", review));
    expect(response.allowed).toBe(false);
    expect(response.status.code).toBe(422);
    expect(response.status.message).toMatch(/removed in Kubernetes 1\.16; use apps\/v1/);
  });

  it.each(["DELETE", "CONNECT"])("%s is allowed unchanged", async (operation) => {
    const answer = await json(await post("/v1/admit", admissionReview(operation, null, recreate)));
    expect(answer.response).toEqual({ uid: "d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34", allowed: true });
  });

  it("a review without uid, or of another kind, is a 400 naming the field", async () => {
    const review = admissionReview("CREATE", live);
    delete (review.request as { uid?: string }).uid;
    const res = await post("/v1/admit", review);
    expect(res.status).toBe(400);
    expect((await json(res)).field).toBe("request.uid");
    const other = await post("/v1/admit", { ...admissionReview("CREATE", live), kind: "ConversionReview" });
    expect(other.status).toBe(400);
    expect((await json(other)).field).toBe("kind");
  });
});

describe("POST /v1/validate: the Kubernetes release", () => {
  // MutatingAdmissionPolicy is served in admissionregistration.k8s.io/v1 from 1.36 on; a whole one, which 1.36 accepts.
  const policy = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    metadata: { name: "m" },
    spec: {
      reinvocationPolicy: "Never",
      matchConstraints: {
        resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"] }],
      },
      mutations: [{ patchType: "JSONPatch", jsonPatch: { expression: "[JSONPatch{op: 'remove', path: '/x'}]" } }],
    },
  };
  it("options.kubernetesVersion chooses the release, as --kubernetes-version does", async () => {
    const newest = await json(await post("/v1/validate", { object: policy }));
    expect(newest.valid).toBe(true);
    // Registered above, as functions/node-pool.ts does for the Node server's workers.
    const older = await json(await post("/v1/validate", { object: policy, options: { kubernetesVersion: "1.34" } }));
    expect(older.valid).toBe(false);
    expect(older.findings.map((f: { message: string }) => f.message)).toEqual([
      'apiVersion: No schema known: no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1": served from Kubernetes 1.36',
    ]);
  });
  it("a release kunion does not know is a 422 naming the field", async () => {
    const res = await post("/v1/validate", { object: policy, options: { kubernetesVersion: "1.20" } });
    expect(res.status).toBe(422);
    expect(await json(res)).toEqual({
      error: 'kubernetesVersion must be one of 1.32, 1.33, 1.34, 1.35, 1.36, not "1.20"',
      field: "options.kubernetesVersion",
    });
  });
});

describe("an inline crd the API server would refuse is a 422 naming crd", () => {
  const crd = (spec: object) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.example.com" },
    spec,
  });
  const v1 = (storage: boolean) => ({
    name: "v1",
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: "object" } },
  });
  const named = { group: "example.com", scope: "Namespaced", names: { kind: "Thing", plural: "things" } };
  const object = { apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t" } };
  const cases: Array<[string, object, string]> = [
    [
      "spec: {}",
      crd({}),
      'metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group',
    ],
    [
      "no storage version",
      crd({ ...named, versions: [v1(false)] }),
      'spec.versions: Invalid value: ["v1"]: must have exactly one version marked as storage version',
    ],
    [
      "a ConfigMap",
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } },
      "not a CustomResourceDefinition (apiextensions.k8s.io)",
    ],
  ];

  it.each(cases)("%s, to /v1/validate and /v1/normalize", async (_, bad, error) => {
    for (const route of ["/v1/validate", "/v1/normalize"]) {
      const res = await post(route, { crd: bad, object });
      expect([route, res.status, await json(res)]).toEqual([route, 422, { error, field: "crd" }]);
    }
  });

  it("to the ad-hoc /v1/convert", async () => {
    const conversion = parse(text("examples/conversions/cronjob.yaml"));
    const [, bad, error] = cases[2] as [string, object, string];
    const res = await post("/v1/convert", { crd: bad, conversion, objects: [], desiredAPIVersion: "v2" });
    expect([res.status, await json(res)]).toEqual([422, { error, field: "crd" }]);
  });

  it("a complete one is used", async () => {
    const res = await post("/v1/validate", { crd: crd({ ...named, versions: [v1(true)] }), object });
    expect([res.status, await json(res)]).toEqual([200, { valid: true, findings: [] }]);
  });

  // a CRD sent is a new one: its rules get the CEL libraries of options.kubernetesVersion's API server
  // (apiserver cel/environment: the compatibility version's, one minor below; two-variable comprehensions at 1.32)
  it("its rules are compiled with the release's libraries", async () => {
    const labelled = {
      ...v1(true),
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              additionalProperties: { type: "string" },
              "x-kubernetes-validations": [{ rule: "self.all(k, v, v != '')" }],
            },
          },
        },
      },
    };
    const sent = (kubernetesVersion: string) =>
      post("/v1/validate", { crd: crd({ ...named, versions: [labelled] }), object, options: { kubernetesVersion } });
    const refused = await sent("1.32");
    expect(refused.status).toBe(422);
    expect((await json(refused)).error).toContain("undeclared reference to 'all' (in container '')");
    expect([(await sent("1.33")).status]).toEqual([200]);
  });
});

describe("POST /v1/crd-diff", () => {
  const crdText = text("examples/crds/backups.kunion.dev.yaml");
  const crd = parse(crdText);
  /** The CRD with the PVC destination gone: its enum value (line 41) and its property (line 51, under `destination:` on line 35). */
  const nextText = crdText
    .replace("enum: [S3, GCS, PVC, Disabled]", "enum: [S3, GCS, Disabled]")
    .replace(/ {20}pvc:\n.*\n.*\n.*claimName.*\n/, "");
  const next = parse(nextText);
  const lineOf = (body: string, needle: string) => body.split("\n").findIndex((l) => l.includes(needle)) + 1;
  const brief = (findings: Record<string, unknown>[]) =>
    findings.map(({ rule, field, file, line, column, oldFile, oldLine }) => ({
      rule,
      field,
      file,
      line,
      column,
      oldFile,
      oldLine,
    }));

  it("two texts: findings on their lines in the texts sent, a removal also in the old one", async () => {
    const res = await post("/v1/crd-diff", { old: crdText, new: nextText });
    expect(res.status).toBe(200);
    const { findings } = await json(res);
    expect(brief(findings)).toEqual([
      {
        rule: "field-removed",
        field: "v1 spec.destination.pvc",
        file: "new",
        line: 35,
        column: 17,
        oldFile: "old",
        oldLine: 51,
      },
      { rule: "enum-restricted", field: "v1 spec.destination.type", file: "new", line: 41, column: 23 },
    ]);
    expect(findings[1]).toMatchObject({ severity: "error", oldValue: ["S3", "GCS", "PVC", "Disabled"] });
    // The text's own comments are read: an allowed change stays, as a notice.
    const allowed = nextText.replace(
      "enum: [S3, GCS, Disabled]",
      "$& # kunion:allow enum-restricted PVC was never released",
    );
    const accepted = (await json(await post("/v1/crd-diff", { old: crdText, new: allowed }))).findings[1];
    expect(accepted).toMatchObject({ rule: "enum-restricted", severity: "notice", line: 41 });
    expect(accepted.message).toMatch(/\(allowed: PVC was never released\)$/);
  });

  it("CRDs sent as JSON objects have fields, not lines: no line is made up for them", async () => {
    const { findings } = await json(await post("/v1/crd-diff", { old: crd, new: next }));
    expect(brief(findings)).toEqual([
      { rule: "field-removed", field: "v1 spec.destination.pvc", file: "new", oldFile: "old" },
      { rule: "enum-restricted", field: "v1 spec.destination.type", file: "new" },
    ]);
    // Each side on its own: the text keeps its lines, the object has none.
    const mixed = await json(await post("/v1/crd-diff", { old: crdText, new: next }));
    expect(brief(mixed.findings)[0]).toEqual({
      rule: "field-removed",
      field: "v1 spec.destination.pvc",
      file: "new",
      oldFile: "old",
      oldLine: 51,
    });
    const other = await json(await post("/v1/crd-diff", { old: crd, new: nextText }));
    expect(brief(other.findings)[1]).toEqual({
      rule: "enum-restricted",
      field: "v1 spec.destination.type",
      file: "new",
      line: 41,
      column: 23,
    });
  });

  it("CRDs as objects of a YAML body: findings on their lines in the body", async () => {
    const indent = (t: string) => t.replace(/^(?=.)/gm, "  ");
    const body = `old:\n${indent(crdText)}new:\n${indent(nextText)}`;
    const { findings } = await json(await post("/v1/crd-diff", body, "application/yaml"));
    const newStart = lineOf(body, "new:");
    expect(brief(findings)).toEqual([
      {
        rule: "field-removed",
        field: "v1 spec.destination.pvc",
        file: "new",
        line: newStart + 35,
        column: 19,
        oldFile: "old",
        oldLine: 1 + 51,
      },
      {
        rule: "enum-restricted",
        field: "v1 spec.destination.type",
        file: "new",
        line: lineOf(body, "enum: [S3, GCS, Disabled]"),
        column: 25,
      },
    ]);
  });

  it("no change, no findings", async () => {
    expect(await json(await post("/v1/crd-diff", { old: crdText, new: crdText }))).toEqual({ findings: [] });
    expect(await json(await post("/v1/crd-diff", { old: crd, new: crdText }))).toEqual({ findings: [] });
  });

  it("text that is not YAML is a 422 naming the field", async () => {
    const res = await post("/v1/crd-diff", { old: crdText, new: "a: [1,\n" });
    expect(res.status).toBe(422);
    expect((await json(res)).field).toBe("new");
  });
});

describe("bad input", () => {
  it.each([
    ["malformed JSON", "/v1/validate", '{"object": {', "application/json", 400, "body"],
    ["malformed YAML", "/v1/admit", "request: {uid: [\n", "application/yaml", 400, "body"],
    ["wrong content type", "/v1/convert", "<xml/>", "application/xml", 415, "Content-Type"],
  ])("%s", async (_name, path, body, type, status, field) => {
    const res = await post(path, body, type);
    expect(res.status).toBe(status);
    expect(await answered(res)).toBe(field);
  });

  // JSON.parse keeps the last of two equal keys; the API server's strict decoding refuses them, and so does
  // kunion validate in a file: a JSON body's duplicate key is refused as a YAML body's is, wherever it stands.
  it("a duplicate key in a JSON body is a 400, as in a YAML body, not the last one taken", async () => {
    const configMap = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"x":"1","x":"2"}}';
    const res = await post("/v1/validate", configMap);
    expect([res.status, await json(res)]).toEqual([
      400,
      { error: 'malformed JSON: line 1: Invalid document: mapping key "x" already defined at line 1', field: "body" },
    ]);
    const asYaml = await post("/v1/validate", configMap, "application/yaml");
    expect([asYaml.status, (await json(asYaml)).error]).toEqual([
      400,
      'malformed YAML: line 1: Invalid document: mapping key "x" already defined at line 1',
    ]);
  });

  it("a body that is not UTF-8 is a 400 naming the first bad byte's line and column, as kunion validate does", async () => {
    const head = new TextEncoder().encode('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: "a');
    const body = new Uint8Array([...head, 0xff, 0xfe, 0x62, 0x22, 0x0a]);
    const res = await app.request("/v1/validate", {
      method: "POST",
      body,
      headers: { "content-type": "application/yaml" },
    });
    expect([res.status, await json(res)]).toEqual([
      400,
      {
        error:
          "the body is not UTF-8 text: line 5, column 8: input is not UTF-8 text: invalid leading UTF-8 octet 0xff",
        field: "body",
      },
    ]);
  });

  it("an AdmissionReview with two uids is a 400, not answered for the last one", async () => {
    const uid = '"uid":"d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34"';
    const review = JSON.stringify(admissionReview("CREATE", live)).replace(uid, `${uid},"uid":"someone-else"`);
    const res = await post("/v1/admit", review);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'malformed JSON: line 1: Invalid document: mapping key "uid" already defined at line 1',
      field: "body",
    });
  });

  it.each([
    ["objects not a list", "/v1/validate", { objects: { a: 1 } }, "objects"],
    ["neither object nor objects", "/v1/validate", {}, "object"],
    ["an unknown request field", "/v1/normalize", { object: {}, olObject: {} }, "olObject"],
    ["a wrong type deep in a list", "/v1/validate", { objects: [{}, 3] }, "objects[1]"],
    ["crd-diff without new", "/v1/crd-diff", { old: "a: 1" }, "new"],
    ["an ad-hoc conversion without objects", "/v1/convert", { conversion: {}, desiredAPIVersion: "v2" }, "objects"],
    ["an admission review with an unknown operation", "/v1/admit", admissionReview("PATCH", live), "request.operation"],
  ])("the wrong shape, %s: a 400 naming the field", async (_name, path, body, field) => {
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect(await answered(res)).toBe(field);
  });

  /** The field an error answer names; its message a string, with no stack trace. */
  async function answered(res: Response): Promise<string> {
    const answer = await json(res);
    expect(typeof answer.error).toBe("string");
    expect(JSON.stringify(answer)).not.toMatch(/at .*\.(ts|js):\d+/);
    return answer.field;
  }

  it("a 4 MiB body is a 413", async () => {
    const res = await post("/v1/validate", JSON.stringify({ object: { pad: "x".repeat(4 * 1024 * 1024) } }));
    expect(res.status).toBe(413);
    expect((await json(res)).field).toBe("body");
  });

  it("a body nested deeper than the limit is a 400", async () => {
    const deep = `{"object": ${"[".repeat(600)}${"]".repeat(600)}}`;
    const res = await post("/v1/validate", deep);
    expect(res.status).toBe(400);
  });

  it("CEL replace() growing a 40,000-character string is answered at once (it once held the server 67 s)", async () => {
    // The API server charges replace by its input (apiserver/pkg/cel/library/cost.go): valid there, valid here.
    const start = performance.now();
    const res = await post("/v1/validate", runawayReplace);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ valid: true, findings: [] });
  });

  it("a CRD whose CEL rule would run away: a clear finding, fast", async () => {
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "lists.example.com" },
      spec: {
        group: "example.com",
        scope: "Namespaced",
        names: { kind: "List", plural: "lists" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: {
                    type: "object",
                    properties: {
                      items: {
                        type: "array",
                        items: { type: "string" },
                        "x-kubernetes-validations": [{ rule: 'self.all(x, self.all(y, self.all(z, z != "")))' }],
                      },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    const object = {
      apiVersion: "example.com/v1",
      kind: "List",
      metadata: { name: "l" },
      spec: { items: Array.from({ length: 5000 }, (_, i) => `item-${i}`) },
    };
    const start = performance.now();
    const res = await post("/v1/validate", { crd, object });
    expect(performance.now() - start).toBeLessThan(3000);
    const answer = await json(res);
    if (res.status === 422) {
      expect(answer.field).toBe("crd");
      expect(answer.error).toMatch(/cost/);
    } else {
      expect(res.status).toBe(200);
      expect(answer.valid).toBe(false);
      expect(answer.findings.map((f: { message: string }) => f.message).join("\n")).toMatch(/cost limit exceeded/);
    }
  });
});

describe("a real Node server on 127.0.0.1", () => {
  it("answers 1,000 concurrent requests, all 200, and keeps serving", async () => {
    const server = await startServer({ port: 0, workerEntry: await serverBundle() });
    try {
      const body = JSON.stringify({ object: live });
      const answers = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          i % 2 === 0
            ? fetch(`${server.url}/healthz`).then(async (r) => [r.status, await r.text()] as const)
            : fetch(`${server.url}/v1/validate`, {
                method: "POST",
                body,
                headers: { "content-type": "application/json" },
              }).then(async (r) => [r.status, await r.text()] as const),
        ),
      );
      expect(answers.filter(([status]) => status !== 200)).toEqual([]);
      expect(JSON.parse(answers[1]?.[1] ?? "")).toEqual({ valid: true, findings: [] });
      const after = await fetch(`${server.url}/healthz`);
      expect(after.status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("an anchor that refers to itself, posted to every route, is refused and the server keeps serving", async () => {
    const server = await startServer({ port: 0, workerEntry: await serverBundle() });
    const loop = selfAnchor;
    try {
      for (const route of yamlRoutes) {
        const res = await fetch(`${server.url}${route}`, {
          method: "POST",
          body: loop,
          headers: { "content-type": "application/yaml" },
        });
        expect(res.status, route).toBe(400);
        expect(((await res.json()) as { error: string }).error, route).toContain("anchor 'a' value contains itself");
      }
      const inside = await fetch(`${server.url}/v1/crd-diff`, {
        method: "POST",
        body: JSON.stringify({ old: loop, new: loop }),
        headers: { "content-type": "application/json" },
      });
      expect(inside.status).toBe(422);
      expect(((await inside.json()) as { error: string }).error).toContain("anchor 'a' value contains itself");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);
});
