/** `POST /v1/validate` and `POST /v1/normalize`: objects against the deployed or an inline CRD. */
import type { Hono } from "hono";
import {
  buildCatalog,
  type Catalog,
  documentOf,
  type FieldPath,
  type Finding,
  findingToJson,
  isCrd,
  type JsonObject,
  normalize,
  refusedCrdStructure,
  releaseOf,
  type SourceDocument,
  validateObject,
} from "../../src/index.js";
import type { RouteContext } from "../app.js";
import { Budget, checkShape, type ReadBody, RequestError, readLocated, wrapManifest } from "../request.js";
import { validateNormalizeRequest, validateValidateRequest } from "../validate-requests.generated.js";

export function validateRoute(app: Hono, ctx: RouteContext): void {
  app.post("/v1/validate", async (c) => {
    const { body: sent, locate } = wrapManifest(await readLocated(c.req.raw, { manyDocuments: true }));
    const body = checkShape(validateValidateRequest, sent);
    const catalog = catalogFor(body, ctx.catalog);
    // The schema asks for one of them: `objects` when given, else `object`.
    const many = body.objects !== undefined;
    const objects = body.objects ?? (body.object ? [body.object] : []);
    const oldObject = body.oldObject ?? undefined;
    const options = body.options ?? {};
    const unknownFields = options.strict === false ? "warning" : "error";
    const release = options.kubernetesVersion === undefined ? undefined : releaseOf(options.kubernetesVersion);
    if (release && "error" in release) {
      throw new RequestError(422, "options.kubernetesVersion", `kubernetesVersion ${release.error}`);
    }
    const budget = new Budget(ctx.budgetMs);
    const findings: Finding[] = [];
    objects.forEach((object, i) => {
      const field = many ? `objects[${i}]` : "object";
      budget.check(field);
      const { apiVersion, kind } = typeMeta(object, field);
      const old = objects.length === 1 ? oldObject : undefined;
      const found = validateObject(catalog, apiVersion, kind, object, {
        oldObject: old,
        ratcheting: options.ratcheting !== false,
        unknownFields,
        kubernetesVersion: release?.release,
      });
      const prefix = many ? ["objects", i] : ["object"];
      findings.push(...found.map((f) => located(many ? { ...f, document: i } : f, prefix, locate)));
    });
    return c.json({ valid: !findings.some((f) => f.severity === "error"), findings: findings.map(findingToJson) });
  });
}

export function normalizeRoute(app: Hono, ctx: RouteContext): void {
  app.post("/v1/normalize", async (c) => {
    const { body: sent, locate } = wrapManifest(await readLocated(c.req.raw));
    const body = checkShape(validateNormalizeRequest, sent);
    const { object } = body;
    const { apiVersion, kind } = typeMeta(object, "object");
    const schema = catalogFor(body, ctx.catalog).schemaFor(apiVersion, kind);
    const oldObject = body.oldObject ?? undefined;
    const result = normalize({ object, oldObject, schema }, { mode: body.mode, policy: body.policy });
    return c.json({
      object: result.object,
      changes: result.changes,
      notes: result.notes,
      findings: result.errors.map((f) => findingToJson(located(f, ["object"], locate))),
    });
  });
}

/** A finding with the line and column of its field in a YAML body. */
function located(f: Finding, prefix: FieldPath, locate: ReadBody["locate"]): Finding {
  return locate ? { ...f, ...locate([...prefix, ...f.path]) } : f;
}

/** The deployed catalog, or one built from the request's `crd` and `schema` (422 naming the field when invalid). */
export function catalogFor(body: { crd?: JsonObject; schema?: JsonObject }, deployed: Catalog): Catalog {
  const inline = (["crd", "schema"] as const).flatMap((f) => {
    const value = body[f];
    if (value === undefined) return [];
    return [f === "crd" ? crdDocument(value) : documentOf(value, f)];
  });
  if (inline.length === 0) return deployed;
  const { catalog, findings } = buildCatalog(inline);
  const [bad] = findings.filter((f) => f.severity === "error");
  if (bad) throw new RequestError(422, bad.file === "schema" ? "schema" : "crd", bad.message);
  return catalog;
}

/**
 * The request's `crd` as a document to build a catalog from; 422 when it is no CRD (a catalog would pass it
 * over) or one the API server refuses whole (a catalog reads partial CRDs, kustomize patches, without a word).
 */
export function crdDocument(value: JsonObject): SourceDocument {
  if (!isCrd(value)) throw new RequestError(422, "crd", "not a CustomResourceDefinition (apiextensions.k8s.io)");
  const [refused] = refusedCrdStructure(value);
  if (refused) throw new RequestError(422, "crd", refused.message);
  return documentOf(value, "crd");
}

export function typeMeta(object: JsonObject, field: string): { apiVersion: string; kind: string } {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== "string" || apiVersion === "" || typeof kind !== "string" || kind === "") {
    throw new RequestError(422, field, "the object needs a string apiVersion and kind");
  }
  return { apiVersion, kind };
}
