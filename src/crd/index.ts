/**
 * A CustomResourceDefinition → its group, kind and versions, each version's
 * schema as a `SchemaNode` with unions attached. Declaration errors point into
 * the CRD document (`spec.versions[0].schema.openAPIV3Schema.properties…`).
 * What the API server's validation refuses in a CRD, which readCrd does not
 * report (a CRD read for its schemas may be a partial one, a kustomize patch):
 * `validateCustomResourceDefinition` (validation.ts) its names, versions,
 * subresources, printer columns, selectable fields and conversion, for the CRD
 * validated as an object; `validateVersionSchema` (schema-validation.ts) a
 * schema's own rules, the structural ones among them, where
 * `schemaPlacements` says the server reads each schema; `refusedCrdStructure`,
 * the routes' verdict on an inline CRD.
 * Imports schema, value, path, findings, names, go.
 */
import { type Finding, required } from "../findings/index.js";
import { type FieldPath, type PathSegment, schemaProperty } from "../path/index.js";
import { fromOpenAPI, type SchemaNode } from "../schema/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { validateCustomResourceDefinition } from "./validation.js";

export {
  type StructuralViolation,
  structuralViolations,
  type VersionSchemaOptions,
  validateVersionSchema,
} from "./schema-validation.js";
export {
  isAcceptedConversionReviewVersion,
  type SchemaPlacement,
  schemaPlacements,
  validateCustomResourceDefinition,
} from "./validation.js";
export { validateWebhookService, validateWebhookURL } from "./webhook.js";

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** The union model of the version's schema. */
  schema: SchemaNode | undefined;
  /** The version's openAPIV3Schema as written, and where it sits in the CRD document. */
  openAPIV3Schema: JsonObject | undefined;
  schemaPath: FieldPath;
  /** The version has the status subresource: the API server drops `status` on create and update. */
  statusSubresource: boolean;
}

export interface Crd {
  name: string;
  group: string;
  kind: string;
  versions: CrdVersion[];
}

export function isCrd(value: JsonValue): value is JsonObject {
  return (
    isObject(value) &&
    getKey(value, "kind") === "CustomResourceDefinition" &&
    typeof getKey(value, "apiVersion") === "string" &&
    String(getKey(value, "apiVersion")).startsWith("apiextensions.k8s.io/")
  );
}

const str = (v: JsonValue | undefined) => (typeof v === "string" ? v : "");

/** Reads a CRD (apiextensions.k8s.io/v1, or v1beta1's single top-level schema). */
export function readCrd(doc: JsonObject): { crd: Crd; findings: Finding[] } {
  const spec = getKey(doc, "spec");
  const meta = getKey(doc, "metadata");
  const s = isObject(spec) ? spec : {};
  const names = getKey(s, "names");
  const crd: Crd = {
    name: isObject(meta) ? str(getKey(meta, "name")) : "",
    group: str(getKey(s, "group")),
    kind: isObject(names) ? str(getKey(names, "kind")) : "",
    versions: [],
  };
  const findings: Finding[] = [];
  const read = (raw: JsonValue | undefined, at: FieldPath): SchemaNode | undefined => {
    if (!isObject(raw)) return undefined;
    const { root, findings: found } = fromOpenAPI(raw);
    // fromOpenAPI speaks in data paths; users need the place in the CRD file.
    findings.push(...found.map((f) => ({ ...f, path: [...at, ...schemaPathOf(raw, f.path)] })));
    return root;
  };
  const versions = getKey(s, "versions");
  const sharedPath: FieldPath = ["spec", "validation", "openAPIV3Schema"];
  const shared = getKey(s, "validation");
  const sharedRaw = isObject(shared) ? getKey(shared, "openAPIV3Schema") : undefined;
  const sharedSchema = read(sharedRaw, sharedPath);
  // v1 declares subresources per version, v1beta1 once for all.
  const hasStatus = (holder: JsonObject) => {
    const sub = getKey(holder, "subresources");
    return isObject(sub) && isObject(getKey(sub, "status"));
  };
  const version = (v: JsonObject, raw: JsonValue | undefined, at: FieldPath, schema = read(raw, at)): CrdVersion => ({
    name: str(getKey(v, "name")),
    served: getKey(v, "served") !== false,
    storage: getKey(v, "storage") === true,
    schema,
    openAPIV3Schema: isObject(raw) ? raw : undefined,
    schemaPath: at,
    statusSubresource: hasStatus(v) || hasStatus(s),
  });
  if (Array.isArray(versions)) {
    versions.forEach((v, i) => {
      if (!isObject(v)) return;
      const own = getKey(v, "schema");
      if (isObject(own))
        crd.versions.push(
          version(v, getKey(own, "openAPIV3Schema"), ["spec", "versions", i, "schema", "openAPIV3Schema"]),
        );
      else crd.versions.push(version(v, sharedRaw, sharedPath, sharedSchema));
    });
  } else if (typeof getKey(s, "version") === "string") {
    crd.versions.push({
      ...version(s, sharedRaw, sharedPath, sharedSchema),
      name: str(getKey(s, "version")),
      served: true,
      storage: true,
    });
  }
  return { crd, findings };
}

/**
 * What the API server refuses in a CRD given whole, created on release 1.`minor`, in its words: the
 * CRD validation (validation.ts: apiextensions.k8s.io/v1, and v1beta1 with its own defaults and
 * without the rules only v1 has, for the routes that still read it), after apimachinery's
 * ValidateObjectMeta's own first word on a CRD without a name. The routes refuse an inline CRD
 * with the first.
 */
export function refusedCrdStructure(doc: JsonObject, minor: number): Finding[] {
  const meta = getKey(doc, "metadata");
  const named = (key: string) => isObject(meta) && str(getKey(meta, key)) !== "";
  const nameless = !named("name") && !named("generateName");
  return [
    ...(nameless ? [required(["metadata", "name"], "name or generateName is required")] : []),
    ...validateCustomResourceDefinition(doc, minor),
  ];
}

/** The schema path (`properties.spec.items.properties.x`) of a data path (`spec.x`). */
export function schemaPathOf(schema: JsonObject, dataPath: FieldPath): PathSegment[] {
  const out: PathSegment[] = [];
  let node: JsonValue | undefined = schema;
  for (const seg of dataPath) {
    const name = typeof seg === "object" ? seg.key : seg;
    // Lists and maps sit between a property and the next name in a data path.
    for (let hops = 0; isObject(node) && hops < 64; hops++) {
      const props = getKey(node, "properties");
      if (isObject(props) && typeof name === "string" && Object.hasOwn(props, name)) break;
      const items = getKey(node, "items");
      const values = getKey(node, "additionalProperties");
      if (isObject(items)) {
        out.push("items");
        node = items;
      } else if (isObject(values)) {
        out.push("additionalProperties");
        node = values;
      } else break;
    }
    const props = isObject(node) ? getKey(node, "properties") : undefined;
    if (!isObject(props) || typeof name !== "string" || !Object.hasOwn(props, name)) break;
    out.push(...schemaProperty(name));
    node = getKey(props, name);
  }
  return out;
}
