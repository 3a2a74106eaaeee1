/**
 * kunion's public API, by name: what the faces use (the CLI, src/checkout, the GitHub Action,
 * the HTTP functions, the benchmarks) and the library API for programs that embed kunion
 * (docs/api.md). Everything else stays behind its module's index. Runtime-neutral: no Node
 * APIs, no eval.
 */

import manifest from "../package.json" with { type: "json" };

/** kunion's version (package.json): the faces put it in their reports (SARIF's tool version). */
export const kunionVersion: string = manifest.version;

// Kubernetes releases and built-in kinds: which release's tables apply; a kind's group and version.
export {
  defaultRelease,
  groupVersionOf,
  type KubernetesRelease,
  kubernetesReleases,
  minorOf,
  releaseOf,
  releaseTable,
} from "./builtins/index.js";
// Files in memory checked: the catalog, objects validated and normalized, conversions, CRD revisions, a change as CI sees it.
export {
  type BuiltinSchemas,
  buildCatalog,
  type Catalog,
  type ChangedFile,
  type ChangeFinding,
  type CheckOptions,
  type CrdRevision,
  checkChanges,
  checkRoundTrips,
  diffCrdDocuments,
  diffCrdFiles,
  holdsTemplates,
  isConversion,
  loadConversions,
  loadWorkspace,
  looksLikeTemplate,
  type NormalizedObject,
  normalizeObjects,
  objectsOf,
  openApiSchemas,
  type ParsedFile,
  type SourceObject,
  type TextFile,
  undecodableList,
  type ValidateObjectOptions,
  type ValidateObjectsOptions,
  validateObject,
  validateObjects,
  type Workspace,
  type WorkspaceInput,
  withListItems,
} from "./check/index.js";
// Configuration: `.kunion.yaml` read and checked, severities applied.
export { applySeverities, type KunionConfig, readConfig, type Waiver } from "./config/index.js";
// Conversion: a Conversion declaration read, and an object converted through the hub.
export { type Conversion, type ConvertOptions, convert, readConversion } from "./convert/index.js";
// CRDs: a CRD document read into its versions and schemas.
export { type Crd, isCrd, readCrd, refusedCrdStructure } from "./crd/index.js";
// CRD evolution: the rules two revisions are compared by, and their options.
export { type DiffOptions, evolutionRules } from "./evolution/index.js";
// Findings: what every check returns, in field.Error's words; the constructors the faces use for their own.
export {
  compareFindings,
  type Finding,
  type FindingType,
  finding,
  notSupported,
  required,
  type Severity,
  skippedNotice,
} from "./findings/index.js";
// Names: an apiVersion split into group and version.
export { splitApiVersion } from "./names/index.js";
// Field paths: Kubernetes' `spec.items[0].name` form and JSON Pointers.
export { type FieldPath, formatPath, fromJsonPointer, type PathSegment } from "./path/index.js";
// Reports: findings as text, JSON, SARIF or GitHub workflow commands, and their summary.
export {
  failsAt,
  findingToJson,
  fingerprints,
  formatGithub,
  formatJson,
  formatSarif,
  formatText,
  type RuleDoc,
  ruleDocsOf,
  type SarifOptions,
  type Summary,
  summarize,
} from "./report/index.js";
// Schemas: the schema model a union is declared in.
export type { SchemaNode } from "./schema/index.js";
// Parsing: YAML or JSON text into documents with lines and columns, under the input limits; edits that keep comments.
export {
  type DecodedText,
  type DocumentChunk,
  decodeText,
  documentChunks,
  documentOf,
  type Edit,
  editsBetween,
  type ParsedSource,
  type Position,
  parseSource,
  printYaml,
  type SourceDocument,
  type SourceLimits,
} from "./source/index.js";
// Unions: an object's unions normalized (KEP-1027) or validated, and a change described.
export {
  type Change,
  describeChange,
  type NormalizeInput,
  type NormalizeOptions,
  type NormalizeResult,
  type Note,
  normalize,
  type ValidateUnionsInput,
  type ValidateUnionsOptions,
  validateUnions,
} from "./unions/index.js";
// Structural schemas: a schema compiled once, then values validated against it.
export { type CompiledSchema, compileSchema, type ValidateOptions, validateWithSchema } from "./validate/index.js";
// JSON values: the type every document is read into, and helpers safe against `__proto__`.
export {
  clone,
  deepEqual,
  depthOf,
  displayText,
  getKey,
  isObject,
  type JsonObject,
  type JsonValue,
} from "./value/index.js";
// Webhooks: a ConversionReview or an AdmissionReview in, the API server's answer out.
export {
  type AdmissionLookup,
  type AdmissionOptions,
  type Converters,
  convertersFor,
  handleAdmissionReview,
  handleConversionReview,
  type ReviewAnswer,
} from "./webhooks/index.js";
