/**
 * A cluster's own schemas: OpenAPI v3 documents in the layout the API server
 * serves them (`/openapi/v3/api/v1`, `/openapi/v3/apis/<group>/<version>`,
 * saved as `api/v1.json`, `apis/<group>/<version>.json`), read into the
 * same table as the embedded releases (`table.ts`), list semantics included.
 * A document's kinds are those of its own group-version
 * (`x-kubernetes-group-version-kind`); it also carries the definitions of
 * other groups it refers to.
 */
import { type Finding, finding } from "../findings/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import type { BuiltinTable, Definition } from "./table.js";

export interface OpenAPIDocument {
  /** Path inside the folder: `api/v1.json`, `apis/apps/v1.json`. */
  path: string;
  value: JsonValue;
}

/** The group-version a document's path names: "v1", "apps/v1"; undefined outside the layout. */
export function groupVersionOf(path: string): string | undefined {
  const p = path.replaceAll("\\", "/");
  if (p === "api/v1.json") return "v1";
  const m = /^apis\/([^/]+)\/([^/]+)\.json$/.exec(p);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

export function tableFromOpenAPI(documents: readonly OpenAPIDocument[]): { table: BuiltinTable; findings: Finding[] } {
  const table: BuiltinTable = { kinds: {}, defs: {} };
  const findings: Finding[] = [];
  for (const doc of documents) {
    const groupVersion = groupVersionOf(doc.path);
    const components = isObject(doc.value) ? getKey(doc.value, "components") : undefined;
    const schemas = isObject(components) ? getKey(components, "schemas") : undefined;
    if (groupVersion === undefined || !isObject(schemas)) {
      const detail = `${doc.path}: not an OpenAPI v3 document of the API server (api/v1.json, apis/<group>/<version>.json)`;
      findings.push(finding({ type: "ParseError", path: [], detail, rule: "openapi", severity: "warning" }));
      continue;
    }
    const reader = new Reader(schemas);
    for (const [name, schema] of Object.entries(schemas)) {
      if (!isObject(schema) || !reader.isStruct(schema)) continue;
      table.defs[name] ??= reader.definition(schema);
      for (const gvk of arrayOf(getKey(schema, "x-kubernetes-group-version-kind"))) {
        if (!isObject(gvk)) continue;
        const group = getKey(gvk, "group");
        const version = getKey(gvk, "version");
        const kind = getKey(gvk, "kind");
        const apiVersion = group ? `${String(group)}/${String(version)}` : String(version);
        if (apiVersion === groupVersion && typeof kind === "string") table.kinds[`${apiVersion}/${kind}`] = name;
      }
    }
  }
  return { table, findings };
}

const arrayOf = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);

class Reader {
  constructor(private readonly schemas: JsonObject) {}

  /** A definition with fields of its own; scalars such as Time and Quantity are written inline instead. */
  isStruct(schema: JsonObject): boolean {
    return isObject(getKey(schema, "properties"));
  }

  definition(schema: JsonObject): Definition {
    const p: Record<string, string> = {};
    const props = getKey(schema, "properties") as JsonObject;
    for (const [name, prop] of Object.entries(props)) p[name] = this.type(prop, 0);
    const required = arrayOf(getKey(schema, "required")).filter((r): r is string => typeof r === "string");
    return required.length > 0 ? { p, r: required } : { p };
  }

  private type(schema: JsonValue, depth: number): string {
    if (!isObject(schema) || depth > 64) return "*";
    const ref = refOf(schema);
    if (ref !== undefined) {
      // Both are `date-time` in the document; MicroTime decodes with its own layout (builtins/decoders.ts).
      if (ref === "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime") return "s/date-time-micro";
      const target = getKey(this.schemas, ref);
      if (!isObject(target)) return "*";
      return this.isStruct(target) ? `#${ref}` : this.type(target, depth + 1);
    }
    if (getKey(schema, "x-kubernetes-preserve-unknown-fields") === true) return "*";
    if (getKey(schema, "x-kubernetes-int-or-string") === true || getKey(schema, "format") === "int-or-string")
      return "x";
    const oneOf = arrayOf(getKey(schema, "oneOf")).map((b) => (isObject(b) ? getKey(b, "type") : undefined));
    if (oneOf.includes("string") && oneOf.includes("number")) return "q";
    const format = getKey(schema, "format");
    const withFormat = (t: string) => (typeof format === "string" && format !== "" ? `${t}/${format}` : t);
    switch (getKey(schema, "type")) {
      case "string":
        return withFormat("s");
      case "integer":
        return withFormat("i");
      case "number":
        return withFormat("n");
      case "boolean":
        return "b";
      case "array": {
        const listType = getKey(schema, "x-kubernetes-list-type");
        const keys = arrayOf(getKey(schema, "x-kubernetes-list-map-keys")).filter((k) => typeof k === "string");
        const semantics =
          typeof listType === "string" ? `~${listType}${keys.length > 0 ? `:${keys.join(",")}` : ""}` : "";
        return `[${this.type(getKey(schema, "items") as JsonValue, depth + 1)}]${semantics}`;
      }
      case "object": {
        const values = getKey(schema, "additionalProperties");
        return isObject(values) ? `{${this.type(values, depth + 1)}}` : "*";
      }
      default:
        return "*";
    }
  }
}

/** `$ref`, or kube-openapi's `allOf: [{$ref}]` wrapper: the definition's name. */
function refOf(schema: JsonObject): string | undefined {
  const direct = getKey(schema, "$ref");
  const allOf = arrayOf(getKey(schema, "allOf"));
  const wrapped = allOf.length === 1 && isObject(allOf[0]) ? getKey(allOf[0], "$ref") : undefined;
  const ref = typeof direct === "string" ? direct : typeof wrapped === "string" ? wrapped : undefined;
  return ref?.startsWith("#/components/schemas/") ? ref.slice("#/components/schemas/".length) : undefined;
}
