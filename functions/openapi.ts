/** The OpenAPI 3.1 document of the HTTP API, served at `GET /openapi.json` (docs/http.md). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = { type: "object", description: "A Kubernetes object (apiVersion, kind, metadata, …)." };
const json = (schema: unknown) => ({
  "application/json": { schema },
  "application/yaml": { schema },
});
const errors = {
  "400": {
    description: "Malformed body, or a field of the wrong shape",
    content: { "application/json": { schema: ref("Error") } },
  },
  "413": { description: "Body larger than 3 MiB", content: { "application/json": { schema: ref("Error") } } },
  "415": {
    description: "Content-Type neither JSON nor YAML",
    content: { "application/json": { schema: ref("Error") } },
  },
  "422": {
    description: "Semantically invalid input (an invalid CRD or declaration, an object without kind)",
    content: { "application/json": { schema: ref("Error") } },
  },
  "503": {
    description: "The request exceeded its time budget",
    content: { "application/json": { schema: ref("Error") } },
  },
};
const post = (summary: string, body: unknown, answer: unknown, description?: string) => ({
  post: {
    summary,
    ...(description ? { description } : {}),
    requestBody: { required: true, content: json(body) },
    responses: { "200": { description: "The answer", content: { "application/json": { schema: answer } } }, ...errors },
  },
});

export const openapi = {
  openapi: "3.1.0",
  info: {
    title: "kunion",
    version: "0.1.0",
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
      {
        type: "object",
        properties: {
          crd: { ...object, description: "A CRD to validate against instead of the deployed ones." },
          schema: { type: "object", description: "A structured-merge-diff schema document." },
          object,
          objects: { type: "array", items: object },
          oldObject: { type: ["object", "null"], description: "The stored object (update; union ratcheting)." },
          options: {
            type: "object",
            properties: {
              ratcheting: { type: "boolean" },
              strict: { type: "boolean" },
              kubernetesVersion: {
                type: ["string", "number"],
                description: "The Kubernetes release to validate for (1.32 to 1.36; default the newest).",
              },
            },
          },
        },
        anyOf: [{ required: ["object"] }, { required: ["objects"] }],
      },
      {
        type: "object",
        required: ["valid", "findings"],
        properties: { valid: { type: "boolean" }, findings: { type: "array", items: ref("Finding") } },
      },
      "A bare manifest as the body (apiVersion and kind at its top) is read as {object: body}; a YAML body of several documents as {objects: [one per document]}. Findings for a YAML body carry the line and column of their field in it.",
    ),
    "/v1/normalize": post(
      "Normalize an object's unions (KEP-1027)",
      {
        type: "object",
        required: ["object"],
        properties: {
          crd: object,
          schema: { type: "object" },
          object,
          oldObject: { type: ["object", "null"] },
          mode: { enum: ["update", "apply"] },
          policy: { enum: ["kep", "smd"] },
        },
      },
      {
        type: "object",
        properties: {
          object,
          changes: { type: "array", items: ref("Change") },
          notes: { type: "array", items: { type: "object" } },
          findings: { type: "array", items: ref("Finding") },
        },
      },
    ),
    "/v1/convert": post(
      "Convert objects between versions through the hub",
      {
        oneOf: [
          ref("ConversionReview"),
          {
            type: "object",
            required: ["conversion", "objects", "desiredAPIVersion"],
            properties: {
              crd: object,
              conversion: { type: "object", description: "A kunion.dev/v1alpha1 Conversion declaration." },
              objects: { type: "array", items: object },
              desiredAPIVersion: { type: "string", examples: ["batch.tutorial.kubebuilder.io/v2"] },
            },
          },
        ],
      },
      {
        oneOf: [ref("ConversionReview"), { type: "object", properties: { objects: { type: "array", items: object } } }],
      },
      "A ConversionReview (apiextensions.k8s.io/v1 or v1beta1) is answered with the conversions deployed with the function; a malformed review is a 400 naming the request field.",
    ),
    "/v1/admit": post(
      "Mutating admission webhook: normalize, then validate",
      ref("AdmissionReview"),
      ref("AdmissionReview"),
      "Allowed with a base64 JSONPatch of the normalization, or denied with the findings as a Status (code 422, reason Invalid, one cause per finding). DELETE and CONNECT are allowed unchanged; dryRun changes nothing (there are no side effects).",
    ),
    "/v1/crd-diff": post(
      "Compare two revisions of a CRD",
      {
        type: "object",
        required: ["old", "new"],
        properties: { old: { type: ["object", "string"] }, new: { type: ["object", "string"] } },
      },
      { type: "object", properties: { findings: { type: "array", items: ref("Finding") } } },
    ),
  },
  components: {
    schemas: {
      Error: {
        type: "object",
        required: ["error", "field"],
        properties: {
          error: { type: "string" },
          field: { type: "string", description: "The request field at fault." },
        },
      },
      Finding: {
        type: "object",
        required: ["type", "rule", "severity", "field", "message"],
        properties: {
          type: { type: "string", examples: ["FieldValueInvalid"] },
          rule: { type: "string" },
          severity: { enum: ["error", "warning", "notice"] },
          field: { type: "string", examples: ["spec.strategy.rollingUpdate"] },
          detail: { type: "string" },
          message: { type: "string" },
          document: { type: "integer" },
        },
      },
      Change: {
        type: "object",
        required: ["op", "path", "pointer"],
        properties: {
          op: { enum: ["clear", "set", "restore"] },
          path: { type: "string" },
          pointer: { type: "string" },
          value: {},
        },
      },
      ConversionReview: {
        type: "object",
        required: ["apiVersion", "kind"],
        properties: {
          apiVersion: { enum: ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"] },
          kind: { const: "ConversionReview" },
          request: {
            type: "object",
            required: ["uid", "desiredAPIVersion", "objects"],
            properties: {
              uid: { type: "string" },
              desiredAPIVersion: { type: "string" },
              objects: { type: "array", items: object },
            },
          },
          response: {
            type: "object",
            properties: {
              uid: { type: "string" },
              convertedObjects: { type: "array", items: object },
              result: {
                type: "object",
                properties: { status: { enum: ["Success", "Failure"] }, message: { type: "string" } },
              },
            },
          },
        },
      },
      AdmissionReview: {
        type: "object",
        required: ["apiVersion", "kind"],
        properties: {
          apiVersion: { const: "admission.k8s.io/v1" },
          kind: { const: "AdmissionReview" },
          request: {
            type: "object",
            required: ["uid", "operation"],
            properties: {
              uid: { type: "string" },
              operation: { enum: ["CREATE", "UPDATE", "DELETE", "CONNECT"] },
              object: { type: ["object", "null"] },
              oldObject: { type: ["object", "null"] },
              dryRun: { type: "boolean" },
            },
          },
          response: {
            type: "object",
            properties: {
              uid: { type: "string" },
              allowed: { type: "boolean" },
              patchType: { const: "JSONPatch" },
              patch: { type: "string", contentEncoding: "base64" },
              warnings: { type: "array", items: { type: "string" } },
              status: {
                type: "object",
                properties: {
                  code: { type: "integer" },
                  reason: { type: "string" },
                  message: { type: "string" },
                  details: {
                    type: "object",
                    properties: {
                      causes: {
                        type: "array",
                        items: {
                          type: "object",
                          properties: {
                            reason: { type: "string" },
                            message: { type: "string" },
                            field: { type: "string" },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;
