import { type Finding, finding, required } from "../findings/index.js";
import type { SourceDocument } from "../source/index.js";
import { type NormalizeOptions, type NormalizeResult, normalize, validateUnions } from "../unions/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { type Catalog, isSchemaDocument } from "./catalog.js";

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
export function objectsOf(documents: readonly SourceDocument[]): { objects: SourceObject[]; findings: Finding[] } {
  const objects: SourceObject[] = [];
  const findings: Finding[] = [];
  for (const doc of documents) {
    if (isSchemaDocument(doc.value)) continue;
    if (!isObject(doc.value)) {
      const f = finding({
        type: "ParseError",
        path: [],
        detail: "a Kubernetes object must be a mapping",
        rule: "object",
      });
      findings.push(at(doc, f));
      continue;
    }
    const apiVersion = getKey(doc.value, "apiVersion");
    const kind = getKey(doc.value, "kind");
    // kubectl refuses these before anything else: "apiVersion not set, kind not set".
    if (typeof apiVersion !== "string" || apiVersion === "")
      findings.push(at(doc, required(["apiVersion"], "", { rule: "object" })));
    if (typeof kind !== "string" || kind === "") findings.push(at(doc, required(["kind"], "", { rule: "object" })));
    if (typeof apiVersion !== "string" || typeof kind !== "string" || !apiVersion || !kind) continue;
    objects.push({ doc, object: doc.value, apiVersion, kind, identity: identityOf(doc.value, apiVersion, kind) });
  }
  return { objects, findings };
}

function identityOf(object: JsonObject, apiVersion: string, kind: string): string {
  const meta = getKey(object, "metadata");
  const name = isObject(meta) ? getKey(meta, "name") : undefined;
  if (typeof name !== "string" || name === "") return "";
  const namespace = isObject(meta) ? getKey(meta, "namespace") : undefined;
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  return `${group}/${kind}/${typeof namespace === "string" ? namespace : ""}/${name}`;
}

/** Old objects by identity, to pair each object with its previous revision. */
export function indexByIdentity(objects: readonly SourceObject[]): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  for (const o of objects) if (o.identity) map.set(o.identity, o.object);
  return map;
}

export function at(doc: SourceDocument, f: Finding): Finding {
  return { ...f, file: doc.file, document: doc.index, ...doc.locate(f.path) };
}

export interface ValidateObjectsOptions {
  old?: ReadonlyMap<string, JsonObject>;
  ratcheting?: boolean;
}

export function validateObjects(
  objects: readonly SourceObject[],
  catalog: Catalog,
  options: ValidateObjectsOptions = {},
): Finding[] {
  const findings: Finding[] = [];
  for (const o of objects) {
    const schema = catalog.schemaFor(o.apiVersion, o.kind);
    if (!schema) {
      const detail = `${o.apiVersion}, Kind=${o.kind} (give its CRD to check it)`;
      findings.push(
        at(
          o.doc,
          finding({ type: "SchemaMissing", path: ["kind"], detail, rule: "schema-missing", severity: "notice" }),
        ),
      );
      continue;
    }
    const oldObject = o.identity ? options.old?.get(o.identity) : undefined;
    const ratcheting = options.ratcheting ?? true;
    for (const f of validateUnions({ object: o.object, oldObject, schema }, { ratcheting }))
      findings.push(at(o.doc, f));
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
    return { file: o.doc.file, index: o.doc.index, ...result, errors: result.errors.map((f) => at(o.doc, f)) };
  });
}
