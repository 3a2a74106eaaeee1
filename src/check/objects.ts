import {
  defaultRelease,
  deprecationWarning,
  type KubernetesRelease,
  minorOf,
  nameRuleFor,
  removedApi,
  validateHandWritten,
} from "../builtins/index.js";
import { isCrd } from "../crd/index.js";
import { type Finding, finding, required } from "../findings/index.js";
import { splitApiVersion } from "../names/index.js";
import type { FieldPath } from "../path/index.js";
import { propertyOf, type SchemaNode } from "../schema/index.js";
import { locateFinding, type SourceDocument } from "../source/index.js";
import { type NormalizeOptions, type NormalizeResult, normalize, validateUnions } from "../unions/index.js";
import {
  customResourceFinalizerWarnings,
  validateObjectMetadata,
  validateWithSchema,
  WorkBudget,
  withWorkBudget,
} from "../validate/index.js";
import { displayText, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { type BuiltinSchemas, notCarried, releaseSchemas, servedLater, validateBuiltinObject } from "./builtins.js";
import { type Catalog, isSchemaDocument } from "./catalog.js";
import { listItemsOf, undecodableList } from "./lists.js";

/** A Kubernetes object read from a document, with what identifies it across revisions. */
export interface SourceObject {
  doc: SourceDocument;
  object: JsonObject;
  apiVersion: string;
  kind: string;
  /** group/kind/namespace/name; empty when the object has no name (generateName). */
  identity: string;
}

/** The objects among documents: CRDs and schema files are declarations, not objects. */
export function objectsOf(
  documents: readonly SourceDocument[],
  release: KubernetesRelease = defaultRelease,
): { objects: SourceObject[]; findings: Finding[] } {
  const objects: SourceObject[] = [];
  const findings: Finding[] = [];
  for (const doc of documents) {
    if (isSchemaDocument(doc.value)) {
      // A CRD among the inputs is read as a schema, but is also an object to apply: checked as the built-in kind
      // it is (kubectl refuses `spec.bogus` or a misspelt x-kubernetes-* key), unless its API version is gone.
      const removed =
        isObject(doc.value) &&
        removedApiFinding(displayText(doc.value.apiVersion), displayText(doc.value.kind), release);
      if (removed) findings.push(locateFinding(doc, removed));
      if (removed || !isCrd(doc.value)) continue;
    }
    if (!isObject(doc.value)) {
      const f = finding({
        type: "ParseError",
        path: [],
        detail: "a Kubernetes object must be a mapping",
        rule: "object",
      });
      findings.push(locateFinding(doc, f));
      continue;
    }
    const apiVersion = getKey(doc.value, "apiVersion");
    const kind = getKey(doc.value, "kind");
    // kubectl refuses these before anything else: "apiVersion not set, kind not set".
    if (typeof apiVersion !== "string" || apiVersion === "")
      findings.push(locateFinding(doc, required(["apiVersion"], "", { rule: "object" })));
    if (typeof kind !== "string" || kind === "")
      findings.push(locateFinding(doc, required(["kind"], "", { rule: "object" })));
    if (typeof apiVersion !== "string" || typeof kind !== "string" || !apiVersion || !kind) continue;
    const items = listItemsOf(doc);
    const undecodable = undecodableList(doc);
    if (undecodable) {
      findings.push(undecodable);
      continue;
    }
    if (items !== undefined) {
      // a loop, not push(...): a list may hold more items than a call takes arguments
      const listed = objectsOf(items, release);
      for (const o of listed.objects) objects.push(o);
      for (const f of listed.findings) findings.push(f);
      continue;
    }
    objects.push({ doc, object: doc.value, apiVersion, kind, identity: identityOf(doc.value, apiVersion, kind) });
  }
  return { objects, findings };
}

/** kubectl's words for a kind the cluster no longer serves, with the release and what to use instead. */
function removedApiFinding(apiVersion: string, kind: string, release: KubernetesRelease): Finding | undefined {
  const removal = removedApi(apiVersion, kind, minorOf(release));
  if (!removal) return undefined;
  const instead = removal.replacement ? `; use ${removal.replacement}` : "";
  const detail = `no matches for kind "${kind}" in version "${apiVersion}": removed in Kubernetes 1.${removal.removedIn}${instead}`;
  return finding({ type: "SchemaMissing", path: ["apiVersion"], detail, rule: "api-removed" });
}

/** The API server's deprecation warning for a kind the release still serves, in its words. */
function deprecatedApiFinding(apiVersion: string, kind: string, release: KubernetesRelease): Finding | undefined {
  const text = deprecationWarning(apiVersion, kind, minorOf(release));
  if (text === undefined) return undefined;
  const f = finding({
    type: "FieldValueInvalid",
    path: ["apiVersion"],
    detail: text,
    rule: "api-removed",
    severity: "warning",
  });
  return { ...f, message: text };
}

function identityOf(object: JsonObject, apiVersion: string, kind: string): string {
  const meta = getKey(object, "metadata");
  const name = isObject(meta) ? getKey(meta, "name") : undefined;
  if (typeof name !== "string" || name === "") return "";
  const namespace = isObject(meta) ? getKey(meta, "namespace") : undefined;
  const { group } = splitApiVersion(apiVersion);
  return `${group}/${kind}/${typeof namespace === "string" ? namespace : ""}/${name}`;
}

/** Old objects by identity, to pair each object with its previous revision. */
export function indexByIdentity(objects: readonly SourceObject[]): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  for (const o of objects) if (o.identity) map.set(o.identity, o.object);
  return map;
}

export interface ValidateObjectsOptions {
  old?: ReadonlyMap<string, JsonObject>;
  /** Union ratcheting on update (default true). */
  ratcheting?: boolean;
  /** The release to validate for (default the newest): the API versions it serves. */
  kubernetesVersion?: KubernetesRelease;
  /** Fields no schema declares: errors (kubectl --validate=strict, the default), warnings, or ignored. */
  unknownFields?: "error" | "warning" | "ignore";
  /** Schemas of Kubernetes' own kinds in place of the release's embedded ones (a cluster's, `--openapi`). */
  builtinSchemas?: BuiltinSchemas;
}

export interface ValidateObjectOptions extends Omit<ValidateObjectsOptions, "old"> {
  oldObject?: JsonObject;
}

/**
 * Everything the API server would say about one object, in one pass: its
 * schema (structural, defaults first, then CEL) and its unions. Unions the
 * schema checks itself (recognised from CEL or oneOf) are left to the schema,
 * and built-in discriminators with the API server's own wording are not
 * reported twice. An API version the release removed is that error alone;
 * one it deprecated is the API server's warning, then the rest. Findings
 * carry paths; the caller locates them.
 */
export function validateObject(
  catalog: Catalog,
  apiVersion: string,
  kind: string,
  object: JsonObject,
  options: ValidateObjectOptions = {},
): Finding[] {
  const release = options.kubernetesVersion ?? defaultRelease;
  // A cluster's own documents (--openapi) that still list the kind are the cluster serving it.
  const clusterServes = options.builtinSchemas?.has(apiVersion, kind) === true;
  const lifecycle =
    (clusterServes ? undefined : removedApiFinding(apiVersion, kind, release)) ??
    deprecatedApiFinding(apiVersion, kind, release);
  // A CRD serving this group, version and kind is what the cluster answers with.
  if (!lifecycle || catalog.resolve(apiVersion, kind)?.kind === "crd")
    return validateServedObject(catalog, apiVersion, kind, object, options);
  if (lifecycle.severity === "error") return [lifecycle];
  return [lifecycle, ...validateServedObject(catalog, apiVersion, kind, object, options)];
}

/** validateObject for an apiVersion/kind the release still serves. */
function validateServedObject(
  catalog: Catalog,
  apiVersion: string,
  kind: string,
  object: JsonObject,
  options: ValidateObjectOptions,
): Finding[] {
  const { oldObject } = options;
  const ratcheting = options.ratcheting ?? true;
  const release = options.kubernetesVersion ?? defaultRelease;
  const builtin = options.builtinSchemas ? { schemas: options.builtinSchemas, carried: true } : releaseSchemas(release);
  // Every kind the schemas have is Kubernetes' own, with or without unions in the registry.
  const target =
    catalog.resolve(apiVersion, kind) ??
    (builtin.schemas.has(apiVersion, kind) ? { kind: "builtin" as const, unions: undefined } : undefined);
  const notYet =
    target?.kind !== "crd" && builtin.carried && !options.builtinSchemas && !builtin.schemas.has(apiVersion, kind)
      ? servedLater(apiVersion, kind, release)
      : undefined;
  if (notYet) return [notYet];
  if (!target) {
    const detail = `${apiVersion}, Kind=${kind} (give its CRD to check it)`;
    return [finding({ type: "SchemaMissing", path: ["kind"], detail, rule: "schema-missing", severity: "notice" })];
  }
  switch (target.kind) {
    case "unserved": {
      // kubectl: `no matches for kind "X" in version "g/v9"`; name the versions that would work.
      const served = target.crd.versions.filter((v) => v.served).map((v) => `"${target.crd.group}/${v.name}"`);
      const also = served.length > 0 ? `; served versions: ${served.join(", ")}` : "";
      const detail = `no matches for kind "${kind}" in version "${apiVersion}"${also}`;
      return [finding({ type: "SchemaMissing", path: ["apiVersion"], detail, rule: "schema" })];
    }
    case "crd": {
      const unknownFields = options.unknownFields ?? "error";
      const { checked, ignored } = withoutIgnoredStatus(object, target.version.statusSubresource);
      const oldChecked = oldObject && withoutIgnoredStatus(oldObject, target.version.statusSubresource).checked;
      const schema = target.compiled
        ? validateWithSchema(target.compiled, checked, {
            oldObject: oldChecked,
            unknownFields,
            celBadValue: minorOf(release) >= 35 ? "value" : "type",
            jsonValues: minorOf(release) >= 34,
          })
        : { object: checked, findings: [] };
      const unions = validateUnions(
        { object: schema.object, oldObject: oldChecked, schema: target.version.schema },
        { ratcheting, schemaValidated: true },
      );
      return [...ignored, ...schema.findings, ...unions, ...customResourceFinalizerWarnings(object, oldObject)];
    }
    case "builtin": {
      // A spec left out (or null) is decoded as the zero struct, and validated as `spec: {}` is: a Pod without
      // one has no containers, a Deployment no selector.
      const spec = getKey(object, "spec");
      const decoded =
        (spec === undefined || spec === null) && builtin.schemas.hasSpecStruct(apiVersion, kind)
          ? { ...object, spec: {} }
          : object;
      const unions = validateUnions(
        { object: decoded, oldObject, schema: target.unions },
        { ratcheting, schemaValidated: true },
      );
      const unknownFields = options.unknownFields ?? "error";
      // The kind's schema checks metadata too; a kind it lacks still has apimachinery's metadata rules.
      const own =
        validateBuiltinObject(builtin.schemas, apiVersion, kind, decoded, { unknownFields, minor: minorOf(release) }) ??
        validateObjectMetadata(decoded, nameRuleFor(apiVersion, kind, minorOf(release)));
      const notes = builtin.carried ? [] : [notCarried(release)];
      const schema = own.filter(
        (f) =>
          !(
            (f.type === "FieldValueNotSupported" || f.type === "FieldValueRequired") &&
            isWordedDiscriminator(target.unions, f.path)
          ),
      );
      return [
        ...notes,
        ...schema,
        ...validateHandWritten(apiVersion, kind, decoded, minorOf(release), oldObject),
        ...unions,
      ];
    }
    case "smd":
      return validateUnions({ object, oldObject, schema: target.unions }, { ratcheting });
  }
}

/**
 * With the status subresource, the API server drops `status` from a create
 * and from an update of the main resource before validating
 * (apiextensions-apiserver customresource/strategy.go, PrepareForCreate and
 * PrepareForUpdate): what a manifest says there is never applied, so it is
 * not validated, and a notice says so.
 */
function withoutIgnoredStatus(
  object: JsonObject,
  statusSubresource: boolean,
): { checked: JsonObject; ignored: Finding[] } {
  if (!statusSubresource || !Object.hasOwn(object, "status")) return { checked: object, ignored: [] };
  const { status: _dropped, ...checked } = object;
  const detail = "the CRD has the status subresource: the API server ignores status on create and update";
  return {
    checked,
    ignored: [
      finding({ type: "FieldValueForbidden", path: ["status"], detail, rule: "status-ignored", severity: "notice" }),
    ],
  };
}

/**
 * A discriminator of a built-in union that the API server validates by hand:
 * its own message (in `unions/wording.ts`) replaces the OpenAPI enum's.
 */
function isWordedDiscriminator(schema: SchemaNode | undefined, path: FieldPath): boolean {
  let node = schema;
  for (const seg of path.slice(0, -1)) {
    if (typeof seg === "number") node = node?.items;
    else node = typeof seg === "string" ? propertyOf(node, seg) : node?.additionalProperties;
  }
  const last = path[path.length - 1];
  return node?.unions?.some((u) => u.wording !== undefined && u.discriminator === last) ?? false;
}

export function validateObjects(
  objects: readonly SourceObject[],
  catalog: Catalog,
  options: ValidateObjectsOptions = {},
): Finding[] {
  const findings: Finding[] = [];
  // One work budget per document: the items of a `kind: List` share their document's.
  const budgets = new Map<string, WorkBudget>();
  for (const o of objects) {
    const oldObject = o.identity ? options.old?.get(o.identity) : undefined;
    const key = `${o.doc.file}\u0000${o.doc.index}`;
    const work = budgets.get(key) ?? new WorkBudget();
    budgets.set(key, work);
    const found = withWorkBudget(work, () =>
      validateObject(catalog, o.apiVersion, o.kind, o.object, { ...options, oldObject }),
    );
    for (const f of found) findings.push(locateFinding(o.doc, f));
  }
  return findings;
}

export interface NormalizedObject extends NormalizeResult {
  file: string;
  index: number;
}

export function normalizeObjects(
  objects: readonly SourceObject[],
  catalog: Catalog,
  options: NormalizeOptions & { old?: ReadonlyMap<string, JsonObject> } = {},
): NormalizedObject[] {
  return objects.map((o) => {
    const oldObject: JsonValue | undefined = o.identity ? options.old?.get(o.identity) : undefined;
    const schema = catalog.schemaFor(o.apiVersion, o.kind);
    const result = normalize({ object: o.object, oldObject, schema }, options);
    return {
      file: o.doc.file,
      index: o.doc.index,
      ...result,
      errors: result.errors.map((f) => locateFinding(o.doc, f)),
    };
  });
}
