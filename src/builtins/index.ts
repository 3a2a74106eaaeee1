/**
 * Kubernetes' own kinds: schemas reduced to the paths that lead to a union,
 * and the union registry of unions.md §5. Imports schema.
 */
export { type BuiltinKind, builtinKinds, builtinSchemaFor } from "./registry.js";
