/**
 * The JSON Schemas of the HTTP API's request bodies (docs/http.md), one per route: the one
 * definition of each body. Ajv compiles them ahead of time into validate-requests.generated.js
 * (`npm run build:validators`), so the functions check their input with no code generation at
 * run time (Workers forbid it); openapi.ts publishes them as the request bodies; and the routes
 * read a checked body through the type each schema describes (BodyOf), with no casts. Only
 * keywords Ajv's standalone output needs no runtime for: no minLength/maxLength, no uniqueItems.
 * The generator loads this file directly, so it imports types only.
 */
import type { ErrorObject } from "ajv";
import type { JsonObject, JsonValue } from "../src/index.js";

const object = { type: "object", description: "A Kubernetes object (apiVersion, kind, metadata, …)." } as const;
/** An object, or null (the API server sends `oldObject: null` on CREATE). */
const objectOrNull = { type: ["object", "null"] } as const;
const objects = { type: "array", items: object } as const;
/** A CRD (or any YAML document) as an object, or as YAML/JSON text. */
const objectOrText = { type: ["object", "string"] } as const;
const inlineCrd = { type: "object", description: "A CRD to use instead of the deployed ones." } as const;
const inlineSchema = { type: "object", description: "A structured-merge-diff schema document." } as const;

/** `POST /v1/validate`: `{crd?, schema?, object | objects, oldObject?, options?}`. */
export const validateRequestSchema = {
  $id: "https://kunion.dev/schemas/requests/validate.json",
  type: "object",
  additionalProperties: false,
  properties: {
    crd: inlineCrd,
    schema: inlineSchema,
    object,
    objects,
    oldObject: { ...objectOrNull, description: "The stored object (update; union ratcheting)." },
    options: {
      type: "object",
      additionalProperties: false,
      properties: {
        ratcheting: { type: "boolean" },
        strict: { type: "boolean" },
        // A release as "1.34"; a YAML body's unquoted 1.34 reads as a number.
        kubernetesVersion: {
          type: ["string", "number"],
          description: "The Kubernetes release to validate for (1.32 to 1.36; default the newest).",
        },
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
    crd: inlineCrd,
    schema: inlineSchema,
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
    crd: inlineCrd,
    conversion: { type: "object", description: "A kunion.dev/v1alpha1 Conversion declaration." },
    objects,
    desiredAPIVersion: { type: "string", examples: ["batch.tutorial.kubebuilder.io/v2"] },
  },
} as const;

/** The envelope of the API server's reviews: their apiVersions, their kind, and the request. */
const review = <const Kind extends string, const Versions extends readonly string[], const Request>(
  kind: Kind,
  apiVersions: Versions,
  request: Request,
) =>
  ({
    type: "object",
    required: ["apiVersion", "kind", "request"],
    properties: { apiVersion: { enum: apiVersions }, kind: { const: kind }, request },
  }) as const;

/**
 * `POST /v1/convert`, the webhook form: the envelope of a ConversionReview.
 * The request itself is read by handleConversionReview, which names the field at fault.
 */
export const conversionReviewSchema = {
  $id: "https://kunion.dev/schemas/requests/conversion-review.json",
  ...review("ConversionReview", ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"], {
    type: "object",
    description: "{uid, desiredAPIVersion, objects}: read by the handler, which names the field at fault.",
  }),
} as const;

/** `POST /v1/admit`: an AdmissionReview (admission.k8s.io/v1) as the API server sends it. */
export const admissionReviewSchema = {
  $id: "https://kunion.dev/schemas/requests/admission-review.json",
  ...review("AdmissionReview", ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"], {
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
  }),
} as const;

/** `POST /v1/crd-diff`: `{old, new}`, each a CRD object or YAML text. */
export const crdDiffRequestSchema = {
  $id: "https://kunion.dev/schemas/requests/crd-diff.json",
  type: "object",
  additionalProperties: false,
  required: ["old", "new"],
  properties: { old: objectOrText, new: objectOrText },
} as const;

/**
 * The value a schema of this file accepts, as a TypeScript type: for the keywords used here
 * (type, properties, required, items, enum, const). An object the schema leaves open
 * (no additionalProperties: false) keeps its other fields as JSON.
 */
export type BodyOf<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: infer T }
      ? OfType<T extends readonly (infer U)[] ? U : T, S>
      : JsonValue;
type OfType<T, S> = T extends "object"
  ? ObjectOf<S>
  : T extends "array"
    ? S extends { items: infer I }
      ? BodyOf<I>[]
      : JsonValue[]
    : T extends "string"
      ? string
      : T extends "number"
        ? number
        : T extends "boolean"
          ? boolean
          : T extends "null"
            ? null
            : never;
type ObjectOf<S> = S extends { properties: infer P }
  ? { [K in keyof P as K extends RequiredOf<S> ? K : never]: BodyOf<P[K]> } & {
      [K in keyof P as K extends RequiredOf<S> ? never : K]?: BodyOf<P[K]>;
    } & (S extends { additionalProperties: false } ? unknown : JsonObject)
  : JsonObject;
type RequiredOf<S> = S extends { required: readonly (infer R)[] } ? R : never;

export type ValidateRequest = BodyOf<typeof validateRequestSchema>;
export type NormalizeRequest = BodyOf<typeof normalizeRequestSchema>;
export type ConvertRequest = BodyOf<typeof convertRequestSchema>;
export type ConversionReviewRequest = BodyOf<typeof conversionReviewSchema>;
export type AdmissionReviewRequest = BodyOf<typeof admissionReviewSchema>;
export type CrdDiffRequest = BodyOf<typeof crdDiffRequestSchema>;

/** A generated validator: true when `data` is a `Body`, else its errors in Ajv's form. */
export type RequestValidator<Body> = ((data: unknown) => data is Body) & { errors?: ErrorObject[] | null };
