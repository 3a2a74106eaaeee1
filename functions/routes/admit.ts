/**
 * `POST /v1/admit`: the mutating admission webhook. The pure part is the core's
 * handleAdmissionReview; this route gives it the deployed catalog as its lookup.
 */
import type { Hono } from "hono";
import { type AdmissionLookup, handleAdmissionReview, validateObject } from "../../src/index.js";
import type { RouteContext } from "../app.js";
import { checkShape, readBody } from "../request.js";
import { validateAdmissionReview } from "../validate-requests.generated.js";

export function admitRoute(app: Hono, ctx: RouteContext): void {
  const lookup: AdmissionLookup = (apiVersion, kind) => ({
    schema: ctx.catalog.schemaFor(apiVersion, kind),
    validate: (object, oldObject) => validateObject(ctx.catalog, apiVersion, kind, object, { oldObject }),
  });
  app.post("/v1/admit", async (c) => {
    const review = checkShape(validateAdmissionReview, await readBody(c.req.raw));
    const answer = handleAdmissionReview(review, lookup);
    return c.json(answer.body, answer.status);
  });
}
