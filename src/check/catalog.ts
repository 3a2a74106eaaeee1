import { builtinSchemaFor } from "../builtins/index.js";
import { type Crd, isCrd, readCrd } from "../crd/index.js";
import type { Finding } from "../findings/index.js";
import { attachGoUnions, fromSMDSchema, type GoTypes, parseGoTypes, type SchemaNode } from "../schema/index.js";
import type { SourceDocument } from "../source/index.js";
import { getKey, isObject, type JsonValue } from "../value/index.js";

/**
 * Where an object's schema comes from: the CRDs given (and found among the
 * inputs), SMD schema files, then the built-in registry of Kubernetes kinds.
 */
export interface Catalog {
  crds: Crd[];
  schemaFor(apiVersion: string, kind: string): SchemaNode | undefined;
}

export interface GoSource {
  path: string;
  text: string;
}

/** True for documents that declare schemas rather than objects to check. */
export function isSchemaDocument(value: JsonValue): boolean {
  return isCrd(value) || (isObject(value) && Array.isArray(getKey(value, "types")) && !getKey(value, "kind"));
}

export function buildCatalog(
  documents: readonly SourceDocument[],
  goSources: readonly GoSource[] = [],
): {
  catalog: Catalog;
  findings: Finding[];
} {
  const findings: Finding[] = [];
  const crds: Crd[] = [];
  const smd: Record<string, SchemaNode> = Object.create(null);
  const located = (doc: SourceDocument, found: Finding[]) =>
    found.map((f) => ({ ...f, file: doc.file, document: doc.index, ...doc.locate(f.path) }));

  // Go files are parsed once per version folder, however many CRDs use them.
  const parsedGo = new Map<string, GoTypes>();
  const goTypesFor = (version: string): GoTypes => {
    let types = parsedGo.get(version);
    if (!types) {
      types = parseGoTypes(goFilesFor(goSources, version));
      parsedGo.set(version, types);
    }
    return types;
  };

  for (const doc of documents) {
    if (isCrd(doc.value)) {
      const { crd, findings: found } = readCrd(doc.value);
      findings.push(...located(doc, found));
      for (const version of crd.versions) {
        if (!version.schema || goSources.length === 0) continue;
        findings.push(...attachGoUnions(version.schema, goTypesFor(version.name), crd.kind));
      }
      crds.push(crd);
    } else if (isSchemaDocument(doc.value)) {
      const { types, findings: found } = fromSMDSchema(doc.value);
      findings.push(...located(doc, found));
      for (const [name, node] of Object.entries(types)) smd[lastSegment(name)] = node;
    }
  }

  const schemaFor = (apiVersion: string, kind: string): SchemaNode | undefined => {
    const [group, version] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
    const crd = crds.find((c) => c.kind === kind && c.group === group);
    if (crd) return crd.versions.find((v) => v.name === version)?.schema;
    return (Object.hasOwn(smd, kind) ? smd[kind] : undefined) ?? builtinSchemaFor(apiVersion, kind);
  };
  return { catalog: { crds, schemaFor }, findings };
}

/**
 * Go API packages are laid out by version (`api/v1/…_types.go`): a CRD
 * version takes the files of its own version folder when there are any.
 */
function goFilesFor(sources: readonly GoSource[], version: string): GoSource[] {
  const own = sources.filter((s) => s.path.split("/").includes(version));
  return own.length > 0 ? own : [...sources];
}

const lastSegment = (name: string) => name.slice(name.lastIndexOf(".") + 1);
