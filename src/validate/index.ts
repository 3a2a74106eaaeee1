/**
 * Structural-schema validation of custom resources, as the API server does
 * it (validation.md §1): a CRD version's openAPIV3Schema compiled once into
 * closures (no code generation: Workers forbid it), cached by content; then
 * per object structural defaulting, null pruning, kube-openapi's value
 * validations in its own words, kubectl's strict unknown-field check, object
 * metadata, x-kubernetes-* extensions, and CEL rules through `cel/`, with
 * ratcheting against an old object. Patterns run on RE2 (`@bufbuild/re2`),
 * never on a backtracking RegExp. One file per keyword group under
 * `keywords/`, each with its messages. May import value, path, findings,
 * schema, cel and `@bufbuild/re2`.
 */
export { type CompiledSchema, compileSchema } from "./compile.js";
export { type ValidateOptions, validateWithSchema } from "./validate.js";
