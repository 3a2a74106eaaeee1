/**
 * The schema model and every way a union can be declared (unions.md §2):
 * OpenAPI `x-kubernetes-unions` (both shapes), SMD schema YAML, Go markers,
 * and unions recognised in CRD schemas (CEL, discriminator pairs, oneOf).
 * All produce `SchemaNode` trees with `Union`s attached. Imports value, path, findings.
 */

export * from "./attach-go.js";
export * from "./check.js";
export * from "./gotypes.js";
export * from "./model.js";
export * from "./openapi.js";
export * from "./smd.js";
