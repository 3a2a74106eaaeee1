/**
 * Kubernetes' own kinds through the engine custom resources go through: a
 * kind's table entry (an embedded release's, or a cluster's own OpenAPI
 * documents) becomes a structural schema, compiled once per kind on first
 * use and validated by `validate/` — closed objects with kubectl's
 * `unknown field "spec.replica"`, int-or-string, formats, map keys in
 * brackets, list-map keys where the table has them, the same messages and
 * severities as for custom resources. Formats are decoded as the kind's Go
 * types decode them (`builtins/decoders.ts`).
 */
import {
  type BuiltinTable,
  builtinDecoders,
  defaultRelease,
  hasSpecStruct,
  type KubernetesRelease,
  kindSchema,
  kubernetesReleases,
  minorOf,
  nameRuleFor,
  type OpenAPIDocument,
  releaseTable,
  tableFromOpenAPI,
  tableRelease,
} from "../builtins/index.js";
import { type Finding, finding } from "../findings/index.js";
import { type CompiledSchema, compileSchemaGraph, validateWithSchema } from "../validate/index.js";
import type { JsonObject, JsonValue } from "../value/index.js";
import type { TextFile } from "./workspace.js";

/** Schemas of Kubernetes' own kinds, from one table, compiled per kind on demand. */
export interface BuiltinSchemas {
  /** Where the schemas come from, for messages: "Kubernetes 1.34", "--openapi". */
  readonly source: string;
  has(apiVersion: string, kind: string): boolean;
  compiled(apiVersion: string, kind: string): CompiledSchema | undefined;
  /** Whether the kind's Go type has a `spec` struct, which Go decodes as its zero value when left out. */
  hasSpecStruct(apiVersion: string, kind: string): boolean;
}

export function schemasOfTable(table: BuiltinTable, source: string): BuiltinSchemas {
  const cache = new Map<string, CompiledSchema | undefined>();
  return {
    source,
    has: (apiVersion, kind) => Object.hasOwn(table.kinds, `${apiVersion}/${kind}`),
    hasSpecStruct: (apiVersion, kind) => hasSpecStruct(table, apiVersion, kind),
    compiled(apiVersion, kind) {
      const key = `${apiVersion}/${kind}`;
      if (cache.has(key)) return cache.get(key);
      const schema = kindSchema(table, apiVersion, kind);
      const compiled = schema && compileSchemaGraph(schema, { decoders: builtinDecoders }).compiled;
      cache.set(key, compiled);
      return compiled;
    },
  };
}

const byRelease = new Map<KubernetesRelease, BuiltinSchemas | undefined>();

/** The embedded schemas of a release; the default release's when this build does not carry it. */
export function releaseSchemas(release: KubernetesRelease): { schemas: BuiltinSchemas; carried: boolean } {
  if (!byRelease.has(release)) {
    const table = releaseTable(release);
    byRelease.set(release, table && schemasOfTable(table, `Kubernetes ${tableRelease(release)}`));
  }
  const own = byRelease.get(release);
  if (own) return { schemas: own, carried: true };
  return { schemas: releaseSchemas(defaultRelease).schemas, carried: false };
}

/**
 * A built-in kind the chosen release does not serve but a later one does
 * (MutatingAdmissionPolicy in admissionregistration.k8s.io/v1 before 1.36):
 * kubectl's `no matches for kind`, naming the first release that serves it.
 * Only releases this build carries are looked at.
 */
export function servedLater(apiVersion: string, kind: string, release: KubernetesRelease): Finding | undefined {
  const later = kubernetesReleases.find(
    (r) =>
      minorOf(r) > minorOf(release) && releaseSchemas(r).carried && releaseSchemas(r).schemas.has(apiVersion, kind),
  );
  if (later === undefined) return undefined;
  const detail = `no matches for kind "${kind}" in version "${apiVersion}": served from Kubernetes ${tableRelease(later)}`;
  return finding({ type: "SchemaMissing", path: ["apiVersion"], detail, rule: "schema" });
}

export interface BuiltinValidateOptions {
  unknownFields: "error" | "warning" | "ignore";
  /** The release's minor version: a kind's name rule may change with it (a Service's, in 1.36). */
  minor: number;
}

/**
 * Schema findings for an object of a built-in kind, metadata included (with
 * the kind's own name rule); undefined when the schemas lack the kind.
 */
export function validateBuiltinObject(
  schemas: BuiltinSchemas,
  apiVersion: string,
  kind: string,
  object: JsonObject,
  options: BuiltinValidateOptions,
): Finding[] | undefined {
  const compiled = schemas.compiled(apiVersion, kind);
  if (!compiled) return undefined;
  const nameRule = nameRuleFor(apiVersion, kind, options.minor);
  return validateWithSchema(compiled, object, { unknownFields: options.unknownFields, nameRule }).findings;
}

/** A notice that the chosen release's tables are not in this build (the Worker carries the default's alone). */
export function notCarried(release: KubernetesRelease): Finding {
  const detail = `Kubernetes ${release}'s schemas are not in this build: checked against ${defaultRelease}'s`;
  return finding({ type: "SchemaMissing", path: ["kind"], detail, rule: "schema-missing", severity: "notice" });
}

/**
 * A cluster's own schemas from its OpenAPI v3 documents (`--openapi DIR`):
 * files named by their path in the folder (`api/v1.json`,
 * `apis/apps/v1.json`). Unreadable files become findings; the rest is used.
 */
export function openApiSchemas(files: readonly TextFile[]): { schemas: BuiltinSchemas; findings: Finding[] } {
  const documents: OpenAPIDocument[] = [];
  const findings: Finding[] = [];
  for (const file of files) {
    try {
      documents.push({ path: file.path, value: JSON.parse(file.text) as JsonValue });
    } catch (e) {
      const detail = `${file.path}: not JSON: ${(e as Error).message}`;
      findings.push({ ...finding({ type: "ParseError", path: [], detail, rule: "openapi" }), file: file.path });
    }
  }
  const read = tableFromOpenAPI(documents);
  return { schemas: schemasOfTable(read.table, "--openapi"), findings: [...findings, ...read.findings] };
}
