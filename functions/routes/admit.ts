/**
 * `POST /v1/admit`: the mutating admission webhook. The pure part is the core's
 * handleAdmissionReview; this route gives it the deployed catalog as its lookup.
 */
import type { Hono } from "hono";
import {
  type AdmissionLookup,
  handleAdmissionReview,
  validateAdmissionReview,
  validateObject,
} from "../../src/index.js";
import type { RouteContext } from "../app.js";
import { checkShape, readBody } from "../request.js";

export function admitRoute(app: Hono, ctx: RouteContext): void {
  const lookup: AdmissionLookup = (apiVersion, kind) => ({
    schema: ctx.catalog.schemaFor(apiVersion, kind),
    validate: (object, oldObject) => validateObject(ctx.catalog, apiVersion, kind, object, { oldObject }),
  });
  app.post("/v1/admit", async (c) => {
    const body = await readBody(c.req.raw);
    checkShape(validateAdmissionReview, body);
    const answer = handleAdmissionReview(body, lookup);
    return c.json(answer.body, answer.status);
  });
}
