/**
 * `POST /v1/crd-diff`: `{old, new}`, each a CRD object or YAML text → `{findings}`. Each side is
 * compared as it came, read once: text as text (findings carry its lines), an object as the value
 * the body held (findings carry its lines in a YAML body; in a JSON body, which has none, only
 * their field).
 */
import type { Hono } from "hono";
import {
  type ChangeFinding,
  type CrdRevision,
  diffCrdDocuments,
  documentOf,
  type FieldPath,
  findingToJson,
  parseSource,
} from "../../src/index.js";
import { checkShape, type ReadBody, RequestError, readLocated } from "../request.js";
import type { CrdDiffRequest } from "../requests.js";
import { validateCrdDiffRequest } from "../validate-requests.generated.js";

export function crdDiffRoute(app: Hono): void {
  app.post("/v1/crd-diff", async (c) => {
    const read = await readLocated(c.req.raw);
    const { locate } = read;
    const body = checkShape(validateCrdDiffRequest, read.body);
    const findings = diffCrdDocuments(revision(body, "old", locate), revision(body, "new", locate));
    // A CRD sent as JSON has no lines: its side of a finding keeps only the field.
    const hasLines = (field: "old" | "new") => locate !== undefined || typeof body[field] === "string";
    const placed = findings.map((f) => withLinesOf(f, hasLines("old"), hasLines("new")));
    return c.json({ findings: placed.map(findingToJson) });
  });
}

/** One side of the request: YAML text parsed, an object taken as the body held it. */
function revision(body: CrdDiffRequest, field: "old" | "new", locate: ReadBody["locate"]): CrdRevision {
  const value = body[field];
  if (typeof value === "string") {
    const read = parseSource(value, field);
    // Text that is not YAML is the request's fault, not a finding about the CRD.
    const unreadable = read.findings.find((f) => f.type === "ParseError");
    if (unreadable) throw new RequestError(422, field, unreadable.message);
    return { file: field, text: value, ...read };
  }
  const doc = documentOf(value, field);
  const inBody = locate && { ...doc, locate: (path: FieldPath) => locate([field, ...path]) };
  return { file: field, documents: [inBody ?? doc], findings: [] };
}

/** The finding with the lines of the sides that have them (`line`, `column`: new; `oldLine`: old). */
function withLinesOf(f: ChangeFinding, old: boolean, next: boolean): ChangeFinding {
  const { line, column, oldLine, ...rest } = f;
  return { ...rest, ...(next ? { line, column } : {}), ...(old && oldLine !== undefined ? { oldLine } : {}) };
}
