import {
  builtinSchemaFor,
  celLibrariesOf,
  defaultRelease,
  hasBuiltinSchema,
  type KubernetesRelease,
  minorOf,
} from "../builtins/index.js";
import { type Crd, type CrdVersion, isCrd, readCrd, schemaPlacements, validateVersionSchema } from "../crd/index.js";
import { type Finding, finding, reroot } from "../findings/index.js";
import { attachGoUnions, fromSMDSchema, type GoTypes, parseGoTypes, type SchemaNode } from "../schema/index.js";
import { locateFinding, type SourceDocument } from "../source/index.js";
import { type CompiledSchema, compileSchema, type UpdateContext, validateSchemaDefaults } from "../validate/index.js";
import { deepEqual, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { withListItems } from "./lists.js";

/** What an object's apiVersion and kind lead to. */
export type Resolved =
  | { kind: "crd"; crd: Crd; version: CrdVersion; compiled: CompiledSchema | undefined }
  /** The CRD is known, but not this version, or the version is not served. */
  | { kind: "unserved"; crd: Crd }
  | { kind: "builtin"; unions: SchemaNode | undefined }
  | { kind: "smd"; unions: SchemaNode };

/**
 * Where an object's schema comes from: the CRDs given (and found among the
 * inputs), SMD schema files, then Kubernetes' own kinds.
 */
export interface Catalog {
  crds: Crd[];
  resolve(apiVersion: string, kind: string): Resolved | undefined;
  /** The union model for an object (what normalization needs). */
  schemaFor(apiVersion: string, kind: string): SchemaNode | undefined;
}

export interface GoSource {
  path: string;
  text: string;
}

/** True for documents that declare schemas (or conversions) rather than objects to check. */
export function isSchemaDocument(value: JsonValue): boolean {
  return declaresSchema(value) || isConversionDeclaration(value);
}

/** True for the documents buildCatalog reads a schema from: a CRD or a structured-merge-diff schema. */
export const declaresSchema = (value: JsonValue): boolean => isCrd(value) || isSmdSchema(value);

/** kunion's own Conversion declarations (kunion.dev); an apiVersion that is not a string is no such thing. */
export function isConversionDeclaration(value: JsonValue): boolean {
  if (!isObject(value) || getKey(value, "kind") !== "Conversion") return false;
  const apiVersion = getKey(value, "apiVersion");
  return typeof apiVersion === "string" && apiVersion.startsWith("kunion.dev/");
}

/** structured-merge-diff schema YAML: a `types` list and no kind. */
const isSmdSchema = (value: JsonValue) =>
  isObject(value) && Array.isArray(getKey(value, "types")) && !getKey(value, "kind");

export interface CatalogOptions {
  /** The release the CRDs are for (default the newest): the CEL libraries their new rules may use. */
  kubernetesVersion?: KubernetesRelease;
  /** The CRDs as they were before (an update of them): what the API server keeps of each (updateContext). */
  old?: readonly SourceDocument[];
  /**
   * Files whose CRDs only give schemas (a repository's CRDs a change leaves as they were): what is wrong in them
   * is not reported, so each of their versions is compiled only when an object first needs it.
   */
  schemasOnly?: ReadonlySet<string>;
}

/** A CRD as it was before an update: its versions, and the rules and message expressions it had anywhere. */
interface OldCrd {
  crd: Crd;
  rules: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
}

/** Reads CRD `old` once for every version of its update (apiextensions validation.go preexistingExpressions). */
function readOldCrd(old: JsonObject): OldCrd {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const { crd } = readCrd(old);
  const stack: JsonValue[] = crd.versions.flatMap((v) => (v.openAPIV3Schema ? [v.openAPIV3Schema] : []));
  while (stack.length > 0) {
    const v = stack.pop() as JsonValue;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (isObject(v)) {
      for (const rule of arrayAt(v, "x-kubernetes-validations")) {
        if (!isObject(rule)) continue;
        const text = getKey(rule, "rule");
        const message = getKey(rule, "messageExpression");
        if (typeof text === "string") rules.add(text);
        if (typeof message === "string") messageExpressions.add(message);
      }
      for (const x of Object.values(v)) stack.push(x);
    }
  }
  return { crd, rules, messageExpressions };
}

/**
 * What the API server keeps of CRD `old` when a version's schema becomes `schema`: the expressions it had, and
 * whether this version's schema is as it was (versionsWithUnchangedSchemas).
 */
function updateContext(old: OldCrd, version: string, schema: JsonObject): UpdateContext {
  const before = old.crd.versions.find((v) => v.name === version)?.openAPIV3Schema;
  return {
    rules: old.rules,
    messageExpressions: old.messageExpressions,
    suppressPerExpressionCost: before !== undefined && deepEqual(before, schema),
  };
}

const arrayAt = (o: JsonObject, key: string): JsonValue[] => {
  const v = getKey(o, key);
  return Array.isArray(v) ? v : [];
};

/**
 * Reads every CRD and schema among the documents. Each CRD version's schema
 * is compiled here, once, so that a pattern RE2 refuses or a CEL rule that
 * does not compile is reported on the CRD's own line even with no object
 * (but those of `schemasOnly`, when first needed); its rules with the CEL
 * libraries `release`'s API server gives a new rule.
 */
export function buildCatalog(
  documents: readonly SourceDocument[],
  goSources: readonly GoSource[] = [],
  options: CatalogOptions = {},
): { catalog: Catalog; findings: Finding[] } {
  const minor = minorOf(options.kubernetesVersion ?? defaultRelease);
  const celLibraries = celLibrariesOf(minor);
  const olds = new Map<string, OldCrd>();
  for (const d of withListItems(options.old ?? []))
    if (isCrd(d.value)) {
      const old = readOldCrd(d.value as JsonObject);
      olds.set(old.crd.name, old);
    }
  const findings: Finding[] = [];
  const crds: Crd[] = [];
  const compiled = new Map<CrdVersion, CompiledSchema>();
  const deferred = new Map<CrdVersion, () => CompiledSchema>();
  const smd: Record<string, SchemaNode> = Object.create(null);
  const located = (doc: SourceDocument, found: Finding[]) => found.map((f) => locateFinding(doc, f));

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

  // A CRD may come as an item of a List (`kubectl get crd -o yaml` prints one).
  const declared = new Map<string, SourceDocument>();
  for (const doc of withListItems(documents)) {
    if (isCrd(doc.value)) {
      const { crd, findings: found } = readCrd(doc.value);
      findings.push(...located(doc, found));
      // Only a CRD with a schema declares one: a kustomize patch of it (kubebuilder's config/crd/patches) does not.
      if (crd.versions.some((v) => v.openAPIV3Schema)) {
        const first = declared.get(crd.name);
        if (first === undefined) declared.set(crd.name, doc);
        else if (!deepEqual(first.value, doc.value)) findings.push(declaredAgain(crd.name, first, doc));
      }
      const old = olds.get(crd.name);
      const schemasOnly = options.schemasOnly?.has(doc.file) === true;
      // what compiling each schema found, by schema (a schema all versions share is reported once)
      const compileFindings = new Map<JsonObject, Finding[]>();
      for (const version of crd.versions) {
        const schema = version.openAPIV3Schema;
        if (schema) {
          const compile = () => {
            const update = old === undefined ? undefined : updateContext(old, version.name, schema);
            return compileSchema(schema, { celLibraries, update });
          };
          if (schemasOnly) deferred.set(version, () => compile().compiled);
          else {
            const result = compile();
            compiled.set(version, result.compiled);
            if (!compileFindings.has(schema)) compileFindings.set(schema, result.findings);
          }
        }
        if (version.schema && goSources.length > 0) {
          findings.push(...attachGoUnions(version.schema, goTypesFor(version.name), crd.kind));
        }
      }
      if (!schemasOnly) findings.push(...located(doc, schemaFindings(doc.value, crd, compileFindings, minor)));
      crds.push(crd);
    } else if (isSmdSchema(doc.value)) {
      const { types, findings: found } = fromSMDSchema(doc.value);
      findings.push(...located(doc, found));
      for (const [name, node] of Object.entries(types)) smd[lastSegment(name)] = node;
    }
  }

  const compiledOf = (version: CrdVersion): CompiledSchema | undefined => {
    const compile = deferred.get(version);
    if (compile !== undefined) {
      deferred.delete(version);
      compiled.set(version, compile());
    }
    return compiled.get(version);
  };
  const resolve = (apiVersion: string, kind: string): Resolved | undefined => {
    const [group, version] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
    // Several CRDs may define one kind (two channels, two tutorials): the one serving this version wins.
    const candidates = crds.filter((c) => c.kind === kind && c.group === group);
    for (const crd of candidates) {
      const v = crd.versions.find((x) => x.name === version && x.served);
      if (v) return { kind: "crd", crd, version: v, compiled: compiledOf(v) };
    }
    if (candidates[0]) return { kind: "unserved", crd: candidates[0] };
    if (Object.hasOwn(smd, kind)) return { kind: "smd", unions: smd[kind] as SchemaNode };
    const unions = builtinSchemaFor(apiVersion, kind);
    if (unions || hasBuiltinSchema(apiVersion, kind)) return { kind: "builtin", unions };
    return undefined;
  };
  const schemaFor = (apiVersion: string, kind: string): SchemaNode | undefined => {
    const r = resolve(apiVersion, kind);
    if (!r || r.kind === "unserved") return undefined;
    return r.kind === "crd" ? r.version.schema : r.unions;
  };
  return { catalog: { crds, resolve, schemaFor }, findings };
}

/**
 * What the API server refuses in a CRD's schemas, each where the server validates it (crd
 * schemaPlacements: once at `spec.validation.openAPIV3Schema` when all versions share it) and placed where
 * it is written: the schema's own rules (ValidateCustomResourceDefinitionOpenAPISchema, the structural
 * rules), what compiling it found (RE2 patterns, CEL), and its defaults (defaulting.ValidateDefaults). As
 * the server does, the CEL rules are compiled and the defaults validated only in a structural schema.
 * A v1beta1 CRD (served until 1.22) keeps its versions' compile findings alone.
 */
function schemaFindings(
  value: JsonObject,
  crd: Crd,
  compileFindings: ReadonlyMap<JsonObject, Finding[]>,
  minor: number,
): Finding[] {
  const placements = schemaPlacements(value, minor);
  if (placements.length === 0)
    return crd.versions.flatMap((v) =>
      v.openAPIV3Schema ? (compileFindings.get(v.openAPIV3Schema) ?? []).map((f) => reroot(f, v.schemaPath)) : [],
    );
  const celBadValue = minor >= 35 ? "value" : "type";
  return placements.flatMap(({ schema, path, at, statusSubresource }) => {
    const compiled = (compileFindings.get(schema) ?? []).map((f) => reroot(f, path));
    const { findings, structural, openAPISchemaFindings } = validateVersionSchema(schema, path, {
      minor,
      statusSubresource,
    });
    const found = [
      ...findings,
      ...(structural
        ? withoutCelUnderSchemaErrors(compiled, [...openAPISchemaFindings, ...compiled])
        : compiled.filter((f) => f.rule !== "cel")),
      ...(structural ? validateSchemaDefaults(schema, path, { celLibraries: celLibrariesOf(minor), celBadValue }) : []),
    ];
    return at === path ? found : found.map((f) => ({ ...f, at: [...at, ...f.path.slice(path.length)] }));
  });
}

/**
 * apiextensions validateOpenAPISchema compiles a node's rules only when the node and the nodes below it have no
 * schema error (a rule's own fields, ValidateCustomResourceDefinitionOpenAPISchema's checks, not the root's own
 * rules): the CEL findings of the nodes above a schema error are not the server's.
 */
function withoutCelUnderSchemaErrors(compiled: readonly Finding[], all: readonly Finding[]): Finding[] {
  const schemaErrors = all.filter((f) => f.rule === "schema" && f.severity === "error").map((f) => f.field);
  if (schemaErrors.length === 0) return [...compiled];
  const below = (node: string) =>
    schemaErrors.some((e) => e === node || e.startsWith(`${node}.`) || e.startsWith(`${node}[`));
  return compiled.filter((f) => {
    if (f.rule !== "cel") return true;
    const at = f.field.indexOf(".x-kubernetes-validations");
    return at < 0 || !below(f.field.slice(0, at));
  });
}

/**
 * A CRD declared twice, differently (two channels of a project, a stale copy): a cluster holds one, the last
 * applied. The one that serves an object's version first is the one it is checked against, so say which.
 */
function declaredAgain(name: string, first: SourceDocument, again: SourceDocument): Finding {
  const at = first.locate([]);
  const detail = `the CustomResourceDefinition ${name} is declared again, differently (first in ${first.file}:${at.line}): objects are checked against the first that serves their version`;
  const f = finding({ type: "CrdChange", path: [], detail, rule: "crd-duplicate", severity: "notice" });
  return locateFinding(again, { ...f, message: detail });
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
