/** Test support for src/validate: a CRD-like root schema around a `spec` schema. Not part of the module's API. */
import type { Finding } from "../findings/index.js";
import type { JsonObject, JsonValue } from "../value/index.js";
import { compileSchema, type ValidateOptions, validateWithSchema } from "./index.js";

/** A CRD root schema with `spec` described by `spec`. Test support only. */
export function resource(spec: unknown, extra: JsonObject = {}): JsonObject {
  return {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      spec: spec as JsonValue,
      ...extra,
    },
  };
}

export function object(spec: unknown, metadata: JsonObject = { name: "example" }): JsonObject {
  const o: JsonObject = { apiVersion: "example.com/v1", kind: "Example", metadata };
  if (spec !== undefined) o.spec = spec as JsonValue;
  return o;
}

/** Validates `spec` against `specSchema`; returns the findings. */
export function run(specSchema: unknown, spec: unknown, options?: ValidateOptions) {
  const { compiled, findings } = compileSchema(resource(specSchema));
  if (findings.length > 0) throw new Error(findings.map((f) => f.message).join("\n"));
  const old = options?.oldObject;
  return validateWithSchema(compiled, object(spec), {
    ...options,
    ...(old === undefined ? {} : { oldObject: object(old) }),
  });
}

/** `severity message` lines. */
export const lines = (findings: Finding[]) => findings.map((f) => `${f.severity} ${f.message}`);

/** The messages for `spec` against `specSchema`. */
export const messages = (specSchema: unknown, spec: unknown, options?: ValidateOptions) =>
  lines(run(specSchema, spec, options).findings);
