/**
 * Files in memory → findings: builds the schema catalog from CRDs, SMD
 * schemas and Go types, pairs objects with their previous revision, and runs
 * union normalization and validation on each. The CLI, the Action and the
 * HTTP functions all go through here.
 * Imports source, crd, builtins, schema, unions, findings, value.
 */
export { buildCatalog, type Catalog, type GoSource, isSchemaDocument } from "./catalog.js";
export {
  indexByIdentity,
  type NormalizedObject,
  normalizeObjects,
  objectsOf,
  type SourceObject,
  type ValidateObjectsOptions,
  validateObjects,
} from "./objects.js";
export { loadWorkspace, type TextFile, type Workspace, type WorkspaceInput } from "./workspace.js";
