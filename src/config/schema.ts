/**
 * The JSON Schema of `.kunion.yaml`, the one configuration file every face
 * reads (interfaces.md). Ajv compiles it ahead of time into
 * validate-config.generated.js (`npm run build:validators`), so validating a
 * configuration needs no code generation at run time. Imports nothing: the
 * generator loads this file directly.
 */
// YAML 1.1 reads an unquoted `off` as false (as kubectl's reader does): both mean off.
const severity = { enum: ["error", "warning", "notice", "off", false] };
const globs = { type: "array", items: { type: "string" } };

export const configSchema = {
  $id: "https://kunion.dev/schemas/config.json",
  type: "object",
  additionalProperties: false,
  properties: {
    /** Severity per rule id (`union`, `schema`, `cel`, `version-removed`, …), or `off`; readConfig checks the ids. */
    rules: { type: "object", additionalProperties: severity },
    /** Where CRDs, manifests, Go API types and conversions are (globs). */
    crds: globs,
    manifests: globs,
    goTypes: globs,
    conversions: globs,
    /** Paths never checked (globs). */
    ignore: globs,
    /** Normalization policy. */
    policy: { enum: ["kep", "smd"] },
    /** Unknown fields are errors (true, kubectl --validate=strict) or warnings. */
    strict: { type: "boolean" },
    /** The severity that fails a run. */
    failOn: { enum: ["error", "warning", "notice", "never"] },
    /**
     * The Kubernetes release to validate for ("1.35"). Unquoted, YAML reads it as a number;
     * which releases kunion knows is checked by readConfig, with the face's list.
     */
    kubernetesVersion: {},
    /**
     * Findings accepted on purpose, each with its reason: by rule id, and optionally the CRD
     * (metadata.name) or kind and a field-path glob; past `expires` (YYYY-MM-DD) a waiver no
     * longer applies. Rule ids, the reason and the date are checked where rule ids are known
     * (src/checkout), each with its line.
     */
    waivers: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        properties: {
          rule: { type: "string" },
          crd: { type: "string" },
          kind: { type: "string" },
          path: { type: "string" },
          file: { type: "string" },
          reason: { type: "string" },
          expires: { type: "string" },
        },
      },
    },
    /** A baseline file of accepted findings (`kunion check --write-baseline`): only new findings fail. */
    baseline: { type: "string" },
  },
} as const;
