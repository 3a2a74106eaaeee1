/**
 * The OpenAPI 3.1 document of the HTTP API, served at `GET /openapi.json` (docs/http.md). The
 * request bodies are the schemas the routes check them with (requests.ts); the answers are
 * described here.
 */
import { kunionVersion } from "../src/index.js";
import * as requests from "./requests.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = { type: "object", description: "A Kubernetes object (apiVersion, kind, metadata, …)." };
/** A request schema as an OpenAPI schema: its `$id` would set a base URI for the document's references. */
const body = <S extends { $id: string }>({ $id: _, ...schema }: S) => schema;
const json = <Schema>(schema: Schema) => ({
  "application/json": { schema },
  "application/yaml": { schema },
});
const error = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
const errors = {
  "400": error("Malformed body, or a field of the wrong shape"),
  "413": error("Body larger than 3 MiB"),
  "415": error("Content-Type neither JSON nor YAML"),
  "422": error("Semantically invalid input (an invalid CRD or declaration, an object without kind)"),
  "503": error("The request exceeded its time budget"),
};
const post = <Request, Answer>(summary: string, request: Request, answer: Answer, description?: string) => ({
  post: {
    summary,
    ...(description ? { description } : {}),
    requestBody: { required: true, content: json(request) },
    responses: { "200": { description: "The answer", content: { "application/json": { schema: answer } } }, ...errors },
  },
});
const list = <Items>(items: Items) => ({ type: "array", items });
/** The answer to a review: its apiVersion and kind as the request's, a response in place of the request. */
const answerTo = <Review extends { properties: { apiVersion: unknown; kind: unknown } }, Response>(
  review: Review,
  response: Response,
) => ({
  type: "object",
  required: ["apiVersion", "kind", "response"],
  properties: {
    apiVersion: review.properties.apiVersion,
    kind: review.properties.kind,
    response: { type: "object", properties: response },
  },
});
const string = { type: "string" };

export const openapi = {
  openapi: "3.1.0",
  info: {
    title: "kunion",
    version: kunionVersion,
    description:
      "Kubernetes API unions and multi-version CRDs: validate, normalize, convert, admit, compare CRD revisions. Bodies are JSON or YAML (Content-Type: application/yaml), at most 3 MiB.",
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
  },
  paths: {
    "/healthz": {
      get: {
        summary: "Liveness",
        responses: {
          "200": {
            description: "Alive",
            content: { "application/json": { schema: { type: "object", properties: { status: { const: "ok" } } } } },
          },
        },
      },
    },
    "/openapi.json": {
      get: {
        summary: "This document",
        responses: {
          "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
    "/v1/validate": post(
      "Validate objects as the API server would: schema, CEL, unions, built-in kinds",
      body(requests.validateRequestSchema),
      {
        type: "object",
        required: ["valid", "findings"],
        properties: { valid: { type: "boolean" }, findings: list(ref("Finding")) },
      },
      "A bare manifest as the body (apiVersion and kind at its top) is read as {object: body}; a YAML body of several documents as {objects: [one per document]}. A kind: List (or a typed list) is its items, each validated on its own as kubectl applies them, its findings naming the item's own field. Findings for a YAML body carry the line and column of their field in it.",
    ),
    "/v1/normalize": post(
      "Normalize an object's unions (KEP-1027)",
      body(requests.normalizeRequestSchema),
      {
        type: "object",
        properties: {
          object,
          changes: list(ref("Change")),
          notes: list({ type: "object" }),
          findings: list(ref("Finding")),
        },
      },
      "A kind: List (or a typed list) is normalized item by item and answered whole; its changes and notes name the item (items[0].spec…, /items/0/spec…).",
    ),
    "/v1/convert": post(
      "Convert objects between versions through the hub",
      { oneOf: [body(requests.conversionReviewSchema), body(requests.convertRequestSchema)] },
      { oneOf: [ref("ConversionReview"), { type: "object", properties: { objects: list(object) } }] },
      "A ConversionReview (apiextensions.k8s.io/v1 or v1beta1) is answered with the conversions deployed with the function; a malformed review is a 400 naming the request field.",
    ),
    "/v1/admit": post(
      "Mutating admission webhook: normalize, then validate",
      body(requests.admissionReviewSchema),
      ref("AdmissionReview"),
      "Allowed with a base64 JSONPatch of the normalization, or denied with the findings as a Status (code 422, reason Invalid, one cause per finding). DELETE and CONNECT are allowed unchanged; dryRun changes nothing (there are no side effects).",
    ),
    "/v1/crd-diff": post("Compare two revisions of a CRD", body(requests.crdDiffRequestSchema), {
      type: "object",
      properties: { findings: list(ref("Finding")) },
    }),
  },
  components: {
    schemas: {
      Error: {
        type: "object",
        required: ["error", "field"],
        properties: { error: string, field: { type: "string", description: "The request field at fault." } },
      },
      Finding: {
        type: "object",
        required: ["type", "rule", "severity", "field", "message"],
        properties: {
          type: { type: "string", examples: ["FieldValueInvalid"] },
          rule: string,
          severity: { enum: ["error", "warning", "notice"] },
          field: { type: "string", examples: ["spec.strategy.rollingUpdate"] },
          detail: string,
          message: string,
          document: { type: "integer" },
          item: { type: "string", description: "The List item the finding is about.", examples: ["items[2]"] },
          line: { type: "integer" },
          column: { type: "integer" },
        },
      },
      Change: {
        type: "object",
        required: ["op", "path", "pointer"],
        properties: { op: { enum: ["clear", "set", "restore"] }, path: string, pointer: string, value: {} },
      },
      ConversionReview: answerTo(requests.conversionReviewSchema, {
        uid: string,
        convertedObjects: list(object),
        result: { type: "object", properties: { status: { enum: ["Success", "Failure"] }, message: string } },
      }),
      AdmissionReview: answerTo(requests.admissionReviewSchema, {
        uid: string,
        allowed: { type: "boolean" },
        patchType: { const: "JSONPatch" },
        patch: { type: "string", contentEncoding: "base64" },
        warnings: list(string),
        status: ref("Status"),
      }),
      /** A denial in the API server's form: one cause per finding. */
      Status: {
        type: "object",
        properties: {
          code: { type: "integer" },
          reason: string,
          message: string,
          details: {
            type: "object",
            properties: {
              causes: list({ type: "object", properties: { reason: string, message: string, field: string } }),
            },
          },
        },
      },
    },
  },
} as const;
