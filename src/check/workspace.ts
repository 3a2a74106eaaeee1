import type { KubernetesRelease } from "../builtins/index.js";
import { type Finding, parseError } from "../findings/index.js";
import { type ParsedSource, parseSource, type SourceDocument } from "../source/index.js";
import type { JsonObject } from "../value/index.js";
import { buildCatalog, type Catalog, declaresSchema } from "./catalog.js";
import { withListItems } from "./lists.js";
import { indexByIdentity, objectsOf, type SourceObject } from "./objects.js";

export interface TextFile {
  path: string;
  text: string;
}

/** A file its caller has already parsed (`{path, text, ...parseSource(text, path)}`): it is not parsed again. */
export interface ParsedFile extends TextFile, ParsedSource {}

export interface WorkspaceInput {
  /** Manifests to check (CRDs among them count as declarations too). */
  inputs: readonly (TextFile | ParsedFile)[];
  crds?: readonly (TextFile | ParsedFile)[];
  /**
   * The paths among `crds` named one by one (`--crd widgets.yaml`), not gathered from a folder or by a glob
   * among other files: each must declare a CRD or a structured-merge-diff schema, and one that declares
   * neither (a manifest given in its place) is an error on the file.
   */
  namedCrds?: readonly string[];
  goTypes?: readonly TextFile[];
  /** Paths among `crds` that only give schemas: what compiling them finds is not wanted (CatalogOptions). */
  schemasOnly?: ReadonlySet<string>;
  /** The previous revision of the objects. */
  old?: readonly (TextFile | ParsedFile)[];
  /**
   * The release the objects are for (default the newest): the API versions it serves, the CEL libraries its
   * CRDs' rules may use.
   */
  kubernetesVersion?: KubernetesRelease;
}

/** Everything read and paired, ready for `validateObjects` or `normalizeObjects`. */
export interface Workspace {
  catalog: Catalog;
  objects: SourceObject[];
  old: Map<string, JsonObject>;
  /** Problems found while reading: syntax, limits, declarations, malformed objects. */
  findings: Finding[];
}

/**
 * Parses each text once: a file given both as a CRD and as an input (`--crd
 * dir dir/...`) yields the same documents, and its findings once; a file
 * that comes parsed is taken as it is.
 */
function parseAll(
  files: readonly (TextFile | ParsedFile)[],
  parsed = new Map<string, { text: string; documents: SourceDocument[] }>(),
): { documents: SourceDocument[]; findings: Finding[] } {
  const documents: SourceDocument[] = [];
  const findings: Finding[] = [];
  for (const f of files) {
    const known = parsed.get(f.path);
    if (known?.text === f.text) {
      for (const d of known.documents) documents.push(d);
      continue;
    }
    const source = "documents" in f ? f : parseSource(f.text, f.path);
    parsed.set(f.path, { text: f.text, documents: source.documents });
    // loops, not push(...): a file may hold more documents than a call takes arguments
    for (const d of source.documents) documents.push(d);
    for (const f of source.findings) findings.push(f);
  }
  return { documents, findings };
}

export function loadWorkspace(input: WorkspaceInput): Workspace {
  const parsed = new Map<string, { text: string; documents: SourceDocument[] }>();
  const crds = parseAll(input.crds ?? [], parsed);
  const inputs = parseAll(input.inputs, parsed);
  const old = parseAll(input.old ?? []);
  const declarations = new Set([...crds.documents, ...inputs.documents]);
  const { catalog, findings: declared } = buildCatalog([...declarations], input.goTypes ?? [], {
    kubernetesVersion: input.kubernetesVersion,
    old: old.documents,
    schemasOnly: input.schemasOnly,
  });
  const { objects, findings: malformed } = objectsOf(inputs.documents, input.kubernetesVersion);
  return {
    catalog,
    objects,
    old: indexByIdentity(objectsOf(old.documents).objects),
    findings: [
      ...crds.findings,
      ...declaringNothing(input.namedCrds ?? [], crds),
      ...inputs.findings,
      ...old.findings,
      ...declared,
      ...malformed,
    ],
  };
}

/** An error on each named file that declares no schema; one that did not parse has its syntax findings already. */
function declaringNothing(named: readonly string[], crds: { documents: SourceDocument[]; findings: Finding[] }) {
  const declaring = new Set(
    withListItems(crds.documents)
      .filter((d) => declaresSchema(d.value))
      .map((d) => d.file),
  );
  const unparsed = new Set(crds.findings.filter((f) => f.severity === "error").map((f) => f.file));
  return named
    .filter((file) => !declaring.has(file) && !unparsed.has(file))
    .map(
      (file): Finding => ({
        ...parseError("the file holds no CustomResourceDefinition or structured-merge-diff schema", { rule: "input" }),
        file,
        line: 1,
        column: 1,
      }),
    );
}
