/**
 * Files in memory → findings: builds the schema catalog from CRDs, SMD
 * schemas, Go types and Kubernetes' own kinds, pairs objects with their
 * previous revision, and runs normalization, or validation (schema, CEL and
 * unions in one pass), on each; compares two revisions of a CRD (the
 * evolution rules) and checks conversion declarations round trip. The CLI,
 * the Action and the HTTP functions all go through here.
 * Imports source, crd, builtins, schema, unions, validate, evolution, convert,
 * findings, names, value, path.
 */
export { type BuiltinSchemas, openApiSchemas } from "./builtins.js";
export { buildCatalog, type Catalog, type GoSource, isSchemaDocument, type Resolved } from "./catalog.js";
export { type ChangedFile, type CheckOptions, checkChanges } from "./changes.js";
export { checkRoundTrips, isConversion, loadConversions } from "./conversions.js";
export { type ChangeFinding, type CrdRevision, diffCrdDocuments, diffCrdFiles } from "./crd-diff.js";
export { undecodableList, withListItems } from "./lists.js";
export {
  indexByIdentity,
  type NormalizedObject,
  normalizeObjects,
  objectsOf,
  type SourceObject,
  type ValidateObjectOptions,
  type ValidateObjectsOptions,
  validateObject,
  validateObjects,
} from "./objects.js";
export { holdsTemplates, looksLikeTemplate } from "./templates.js";
export {
  loadWorkspace,
  type ParsedFile,
  type TextFile,
  type Workspace,
  type WorkspaceInput,
} from "./workspace.js";
