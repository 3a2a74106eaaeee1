/**
 * Structural-schema validation of custom resources, as the API server does
 * it (validation.md §1): a CRD version's openAPIV3Schema compiled once into
 * closures (no code generation: Workers forbid it), cached by content; then
 * per object structural defaulting, null pruning, kube-openapi's value
 * validations in its own words, kubectl's strict unknown-field check, object
 * metadata, x-kubernetes-* extensions, and CEL rules through `cel/`, with
 * ratcheting against an old object. Patterns run on RE2 (`@bufbuild/re2`),
 * never on a backtracking RegExp. One file per keyword group under
 * `keywords/`, each with its messages. Imports value, path, findings, names,
 * go, cel and `@bufbuild/re2`.
 */
// kunion's work budget for one document, drawn on by the CEL rules validation runs; what an update keeps
export { type UpdateContext, WorkBudget, withWorkBudget } from "../cel/index.js";
export { type CompiledSchema, compileSchema, compileSchemaGraph } from "./compile.js";
export { customResourceFinalizerWarnings } from "./metadata.js";
export { type SchemaDefaultsOptions, validateSchemaDefaults } from "./schema-defaults.js";
export { type ValidateOptions, validateWithSchema } from "./validate.js";

import type { Finding } from "../findings/index.js";
import type { NameRule } from "../names/index.js";
import type { FieldPath } from "../path/index.js";
import { getKey, isObject, type JsonValue } from "../value/index.js";
import { invalidType } from "./keywords/type.js";
import { validateObjectMeta } from "./metadata.js";
import { childLoc, kindOf, type Loc } from "./types.js";

/**
 * `metadata` of an object whose schema is not a CRD's (Kubernetes' own kinds):
 * name or generateName, namespace, labels and annotations in apimachinery's
 * words. Unknown ObjectMeta fields are left to the kind's own schema.
 */
export function validateObjectMetadata(object: JsonValue, nameRule?: NameRule): Finding[] {
  const meta = isObject(object) ? getKey(object, "metadata") : undefined;
  return validateObjectMeta(meta, childLoc(undefined, "metadata"), { root: true, unknown: undefined, nameRule });
}

/** A value of the wrong JSON type at `path`, in the schema's words (`items in body must be of type array: "object"`). */
export function invalidTypeAt(path: FieldPath, typeName: string, value: JsonValue): Finding {
  const loc = path.reduce<Loc | undefined>((parent, seg) => childLoc(parent, seg), undefined);
  return invalidType(loc, typeName, kindOf(value));
}
