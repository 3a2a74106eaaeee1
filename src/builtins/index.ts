/**
 * Kubernetes' own kinds: schemas reduced to the paths that lead to a union,
 * with the union registry of unions.md §5; the releases kunion knows, each
 * release's schema table of every kind (generated from npm data, `table.ts`)
 * and a cluster's own OpenAPI documents read into the same table; how the API
 * server decodes its kinds' string formats (`decoders.ts`); the API versions
 * Kubernetes removed, and the warning the server sends for a deprecated one;
 * each kind's name rule; the hand-written validation (`validation/`), whose
 * admission kinds' expressions cel compiles.
 * Imports schema, path, findings, names, value, go, cel and crd.
 */

export { builtinDecoders } from "./decoders.js";
export { nameRuleFor } from "./names.js";
export { groupVersionOf, type OpenAPIDocument, tableFromOpenAPI } from "./openapi.js";
export { type BuiltinKind, builtinKinds, builtinSchemaFor } from "./registry.js";
export {
  celLibrariesOf,
  defaultRelease,
  isKubernetesRelease,
  type KubernetesRelease,
  kubernetesReleases,
  minorOf,
  releaseOf,
} from "./releases.js";
export { deprecationWarning, type RemovedApi, removedApi } from "./removed.js";
export { hasBuiltinSchema, registerTable, releaseTable, tableRelease } from "./schemas.js";
export { type BuiltinTable, type Definition, hasSpecStruct, kindKey, kindSchema } from "./table.js";
export { validateHandWritten } from "./validation/index.js";
