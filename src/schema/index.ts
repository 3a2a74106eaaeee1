/**
 * The schema model and every way a union can be declared (unions.md §2):
 * OpenAPI `x-kubernetes-unions` (both shapes), SMD schema YAML, Go markers,
 * and unions recognised in CRD schemas (CEL, discriminator pairs, oneOf).
 * All produce `SchemaNode` trees with `Union`s attached. Imports value, path, findings.
 */
export * from "./model.js";
