/**
 * The HTTP face: one Hono app over the core, the same on Node and Workers
 * (docs/http.md). Routes are in routes/, one file each; CRDs and conversions
 * come from the deployment (read once, here) or inline in the request.
 */
import { Hono } from "hono";
import type { TextFile } from "../src/index.js";
import { type Deployment, deploy } from "./deployment.js";
import { openapi } from "./openapi.js";
import { RequestError } from "./request.js";
import { admitRoute } from "./routes/admit.js";
import { convertRoute } from "./routes/convert.js";
import { crdDiffRoute } from "./routes/crd-diff.js";
import { normalizeRoute, validateRoute } from "./routes/objects.js";

export interface AppOptions {
  /** CRD and schema files deployed with the function: the default catalog. */
  defaults: readonly TextFile[];
  /** Conversion declarations deployed with the function: what /v1/convert serves to the API server. */
  conversions?: readonly TextFile[];
  /** CPU-bound work allowed per request, checked between objects (default 10 s): past it, 503. */
  budgetMs?: number;
  /** `POST /v1/echo`, the body sent back: the baseline of bench/http.ts only, never deployed. */
  benchEcho?: boolean;
  /** `POST /v1/runaway`, a loop that never ends nor checks its budget: for the worker pool's tests only, never deployed. */
  runawayRoute?: boolean;
}

export const defaultBudgetMs = 10_000;

/** What every route gets: the deployment and the per-request budget. */
export interface RouteContext extends Deployment {
  budgetMs: number;
}

export function createApp(options: AppOptions): Hono {
  const ctx: RouteContext = {
    ...deploy(options.defaults, options.conversions ?? []),
    budgetMs: options.budgetMs ?? defaultBudgetMs,
  };
  const app = new Hono();

  app.onError((err, c) => {
    if (err instanceof RequestError) return c.json({ error: err.message, field: err.field }, err.status);
    // Never a stack trace or an internal message in a response.
    return c.json({ error: "internal error" }, 500);
  });
  // Where a browser or `curl http://127.0.0.1:8080/` lands first: say where the routes are.
  app.notFound((c) =>
    c.json(
      { error: `no route ${c.req.method} ${c.req.path}: the routes are in GET /openapi.json`, field: "path" },
      404,
    ),
  );

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/openapi.json", (c) => c.json(openapi));
  validateRoute(app, ctx);
  normalizeRoute(app, ctx);
  convertRoute(app, ctx);
  admitRoute(app, ctx);
  crdDiffRoute(app);
  if (options.benchEcho) app.post("/v1/echo", async (c) => c.json(await c.req.json()));
  if (options.runawayRoute) {
    app.post("/v1/runaway", () => {
      for (;;) {}
    });
  }
  return app;
}
