/** `POST /v1/crd-diff`: `{old, new}`, each a CRD object or YAML text → `{findings}`. */
import type { Hono } from "hono";
import { diffCrdFiles, findingToJson, type JsonObject } from "../../src/index.js";
import { checkShape, RequestError, readBody } from "../request.js";
import { validateCrdDiffRequest } from "../validate-requests.generated.js";

export function crdDiffRoute(app: Hono): void {
  app.post("/v1/crd-diff", async (c) => {
    const body = await readBody(c.req.raw);
    checkShape(validateCrdDiffRequest, body);
    const file = (field: "old" | "new") => {
      const v = body[field] as JsonObject | string;
      return { path: field, text: typeof v === "string" ? v : JSON.stringify(v, null, 2) };
    };
    const findings = diffCrdFiles(file("old"), file("new"));
    // Text that is not YAML is the request's fault, not a finding about the CRD.
    const unreadable = findings.find((f) => f.type === "ParseError");
    if (unreadable) throw new RequestError(422, unreadable.file ?? "new", unreadable.message);
    return c.json({ findings: findings.map(findingToJson) });
  });
}
