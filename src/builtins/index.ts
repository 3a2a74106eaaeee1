/**
 * Kubernetes' own kinds: schemas reduced to the paths that lead to a union,
 * with the union registry of unions.md §5, and the kinds' schemas (types,
 * required fields, enums) from kubernetes-models' precompiled validators, and
 * the API versions Kubernetes removed.
 * Imports schema, path, findings, value and kubernetes-models.
 */

export { nameRuleFor } from "./names.js";
export { type BuiltinKind, builtinKinds, builtinSchemaFor } from "./registry.js";
export {
  defaultRelease,
  isKubernetesRelease,
  type KubernetesRelease,
  kubernetesReleases,
  minorOf,
  releaseOf,
} from "./releases.js";
export { type RemovedApi, removedApi } from "./removed.js";
export { hasBuiltinSchema, validateBuiltin } from "./schemas.js";
