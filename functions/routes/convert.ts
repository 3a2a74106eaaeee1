/**
 * `POST /v1/convert`: a ConversionReview (the API server's conversion webhook) answered with
 * the deployed conversions, or the ad-hoc form `{crd?, conversion, objects, desiredAPIVersion}`
 * with the conversion inline. CEL in conversions runs only from deployed declarations or from
 * the caller's own inline declaration, which is checked before it runs (no eval, cost-limited).
 */
import type { Hono } from "hono";
import {
  buildCatalog,
  type Converters,
  convert,
  documentOf,
  handleConversionReview,
  type JsonObject,
  loadConversions,
} from "../../src/index.js";
import type { RouteContext } from "../app.js";
import { Budget, checkShape, RequestError, readBody } from "../request.js";
import type { ConvertRequest } from "../requests.js";
import { validateConversionReview, validateConvertRequest } from "../validate-requests.generated.js";
import { crdDocument } from "./objects.js";

export function convertRoute(app: Hono, ctx: RouteContext): void {
  app.post("/v1/convert", async (c) => {
    const body = await readBody(c.req.raw);
    const budget = new Budget(ctx.budgetMs);
    if (body.kind === "ConversionReview" || body.request !== undefined) {
      const review = checkShape(validateConversionReview, body);
      const answer = handleConversionReview(review, budgeted(ctx.converters, budget));
      if (budget.exceeded) budget.check("request.objects");
      return c.json(answer.body, answer.status);
    }
    return c.json({ objects: convertAdHoc(checkShape(validateConvertRequest, body), budget) });
  });
}

/** The deployed converters, each call first checking the request's time budget. */
function budgeted(converters: Converters, budget: Budget): Converters {
  return {
    forKind(group, kind) {
      const found = converters.forKind(group, kind);
      if (!found) return undefined;
      return {
        versions: found.versions,
        leavesInputAlone: found.leavesInputAlone,
        convert: (object, to) => {
          budget.check("request.objects"); // throws: the review fails, and the route answers 503
          return found.convert(object, to);
        },
      };
    },
  };
}

function convertAdHoc(body: ConvertRequest, budget: Budget): JsonObject[] {
  let crds: ReturnType<typeof buildCatalog>["catalog"]["crds"] = [];
  if (body.crd !== undefined) {
    const built = buildCatalog([crdDocument(body.crd)]);
    const [bad] = built.findings.filter((f) => f.severity === "error");
    if (bad) throw new RequestError(422, "crd", bad.message);
    crds = built.catalog.crds;
  }
  const declaration = {
    path: "conversion",
    text: "",
    documents: [documentOf(body.conversion, "conversion")],
    findings: [],
  };
  const loaded = loadConversions([declaration], crds);
  const [bad] = loaded.findings.filter((f) => f.severity === "error");
  const [conversion] = loaded.conversions;
  if (bad || !conversion) throw new RequestError(422, "conversion", bad?.message ?? "not a Conversion declaration");
  const desired = body.desiredAPIVersion;
  // A bare version ("v2") is in the conversion's group.
  const to = desired.includes("/") ? desired : `${conversion.group}/${desired}`;
  return body.objects.map((object, i) => {
    budget.check(`objects[${i}]`);
    const out = convert(object, to, conversion, { share: true });
    if (!out.object) throw new RequestError(422, `objects[${i}]`, out.error ?? "the object could not be converted");
    return out.object;
  });
}
