/**
 * The JSON Schemas of the HTTP API's request bodies (docs/http.md), one per
 * route. Ajv compiles them ahead of time into validate-requests.generated.js
 * (`npm run build:validators`), as it does the configuration's schema, so the
 * functions check their input with no code generation at run time (Workers
 * forbid it). Only keywords Ajv's standalone output needs no runtime for:
 * no minLength/maxLength, no uniqueItems. Imports nothing: the generator
 * loads this file directly.
 */
const object = { type: "object" } as const;
/** An object, or null (the API server sends `oldObject: null` on CREATE). */
const objectOrNull = { type: ["object", "null"] } as const;
const objects = { type: "array", items: object } as const;
/** A CRD (or any YAML document) as an object, or as YAML/JSON text. */
const objectOrText = { type: ["object", "string"] } as const;

/** `POST /v1/validate`: `{crd?, schema?, object | objects, oldObject?, options?}`. */
export const validateRequestSchema = {
  $id: "https://kunion.dev/schemas/requests/validate.json",
  type: "object",
  additionalProperties: false,
  properties: {
    crd: object,
    schema: object,
    object,
    objects,
    oldObject: objectOrNull,
    options: {
      type: "object",
      additionalProperties: false,
      properties: {
        ratcheting: { type: "boolean" },
        strict: { type: "boolean" },
        // A release as "1.34"; a YAML body's unquoted 1.34 reads as a number.
        kubernetesVersion: { type: ["string", "number"] },
      },
    },
  },
  anyOf: [{ required: ["object"] }, { required: ["objects"] }],
} as const;

/** `POST /v1/normalize`: `{crd?, schema?, object, oldObject?, mode?, policy?}`. */
export const normalizeRequestSchema = {
  $id: "https://kunion.dev/schemas/requests/normalize.json",
  type: "object",
  additionalProperties: false,
  required: ["object"],
  properties: {
    crd: object,
    schema: object,
    object,
    oldObject: objectOrNull,
    mode: { enum: ["update", "apply"] },
    policy: { enum: ["kep", "smd"] },
  },
} as const;

/** `POST /v1/convert`, the ad-hoc form: `{crd?, conversion, objects, desiredAPIVersion}`. */
export const convertRequestSchema = {
  $id: "https://kunion.dev/schemas/requests/convert.json",
  type: "object",
  additionalProperties: false,
  required: ["conversion", "objects", "desiredAPIVersion"],
  properties: {
    crd: object,
    conversion: object,
    objects,
    desiredAPIVersion: { type: "string" },
  },
} as const;

/**
 * `POST /v1/convert`, the webhook form: the envelope of a ConversionReview.
 * The request itself is read by handleConversionReview, which names the field at fault.
 */
export const conversionReviewSchema = {
  $id: "https://kunion.dev/schemas/requests/conversion-review.json",
  type: "object",
  required: ["apiVersion", "kind", "request"],
  properties: {
    apiVersion: { enum: ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"] },
    kind: { const: "ConversionReview" },
    request: object,
  },
} as const;

/** `POST /v1/admit`: an AdmissionReview (admission.k8s.io/v1) as the API server sends it. */
export const admissionReviewSchema = {
  $id: "https://kunion.dev/schemas/requests/admission-review.json",
  type: "object",
  required: ["apiVersion", "kind", "request"],
  properties: {
    apiVersion: { enum: ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"] },
    kind: { const: "AdmissionReview" },
    request: {
      type: "object",
      required: ["uid", "operation"],
      properties: {
        uid: { type: "string", pattern: "." },
        kind: {
          type: "object",
          properties: { group: { type: "string" }, version: { type: "string" }, kind: { type: "string" } },
        },
        operation: { enum: ["CREATE", "UPDATE", "DELETE", "CONNECT"] },
        object: objectOrNull,
        oldObject: objectOrNull,
        dryRun: { type: "boolean" },
      },
    },
  },
} as const;

/** `POST /v1/crd-diff`: `{old, new}`, each a CRD object or YAML text. */
export const crdDiffRequestSchema = {
  $id: "https://kunion.dev/schemas/requests/crd-diff.json",
  type: "object",
  additionalProperties: false,
  required: ["old", "new"],
  properties: { old: objectOrText, new: objectOrText },
} as const;
