import type { KubernetesRelease } from "../builtins/index.js";
import { isCrd } from "../crd/index.js";
import type { DiffOptions } from "../evolution/index.js";
import { type Finding, skippedNotice } from "../findings/index.js";
import { type ParsedSource, parseSource } from "../source/index.js";
import { checkRoundTrips, isConversion } from "./conversions.js";
import { diffCrdDocuments } from "./crd-diff.js";
import { withListItems } from "./lists.js";
import { validateObjects } from "./objects.js";
import { holdsTemplates } from "./templates.js";
import { loadWorkspace, type ParsedFile, type TextFile } from "./workspace.js";

/** A file the change touched: its text at the base (absent when new) and now. */
export interface ChangedFile {
  path: string;
  before?: string;
  after: string;
  /**
   * The sides as the caller has already parsed them (`parseSource(text,
   * path)` of `before` and of `after`), taken as they are instead of being
   * parsed again; a side left out is parsed here.
   */
  parsed?: { before?: ParsedSource; after?: ParsedSource };
}

export interface CheckOptions extends DiffOptions {
  /** CRDs of the repository beyond the changed ones (configured globs), as text or already parsed. */
  crds?: readonly (TextFile | ParsedFile)[];
  goTypes?: readonly TextFile[];
  /**
   * Files the change deletes, with their text at the base: their objects are
   * old objects too, so an object moved into a new file that git did not pair
   * with the deleted one still has its base revision.
   */
  deleted?: readonly (TextFile | ParsedFile)[];
  unknownFields?: "error" | "warning" | "ignore";
  /** The release to validate for (default the newest). */
  kubernetesVersion?: KubernetesRelease;
}

/**
 * What a pull request changes, checked as `kunion check` and the Action do:
 * a changed CRD against its base revision (the evolution rules), and every
 * changed manifest validated in full with its base revision (same kind,
 * namespace and name, in a changed or a deleted file) as the old object, so
 * an update the API server would refuse is caught; a changed
 * conversion declaration gets the round-trip check. Each side of each changed
 * file is parsed once (here, or by the caller, who hands the result in), and
 * the CRD comparison, the workspace and the round-trip check read the same
 * documents, so what parsing found is reported once (by the workspace).
 * Templates (templates.ts) are read only to tell them from manifests, never
 * checked as manifests: one notice says how many were skipped.
 */
export function checkChanges(changed: readonly ChangedFile[], options: CheckOptions = {}): Finding[] {
  const findings: Finding[] = [];
  const read = (path: string, text: string, parsed: ParsedSource | undefined): ParsedFile => ({
    path,
    text,
    ...(parsed ?? parseSource(text, path)),
  });
  const afters = changed.map((f) => ({ f, after: read(f.path, f.after, f.parsed?.after) }));
  const templates = afters.filter(({ after }) => holdsTemplates(after.text, after));
  if (templates.length > 0) {
    const detail = `${templates.length} changed file(s) hold templates ({{ … }}), not manifests: not checked`;
    findings.push(skippedNotice(detail, templates[0]?.f.path));
  }
  const files = afters
    .filter((a) => !templates.includes(a))
    .map(({ f, after }) => ({
      after,
      before: f.before === undefined ? undefined : read(f.path, f.before, f.parsed?.before),
    }));
  for (const { before, after } of files) {
    if (before !== undefined && withListItems(after.documents).some((d) => isCrd(d.value))) {
      // the CRD is validated as an object below, in the API server's words
      const diffOptions = { ...options, validatedAsObject: true };
      findings.push(...diffCrdDocuments({ ...before, file: before.path }, { ...after, file: after.path }, diffOptions));
    }
  }
  // The repository's other CRDs only give schemas: what is wrong in them (or between two of them) was there
  // before the change and is not its to answer for. A changed CRD that another declares differently comes
  // after them in the workspace, so that notice stays on the changed file.
  const changedPaths = new Set(changed.map((f) => f.path));
  const context = new Set((options.crds ?? []).map((f) => f.path).filter((p) => !changedPaths.has(p)));
  const workspace = loadWorkspace({
    inputs: files.map((f) => f.after),
    crds: options.crds ?? [],
    schemasOnly: context,
    goTypes: options.goTypes ?? [],
    // A changed file's base revision comes last, so it wins over a deleted file's copy of the same object.
    old: [
      ...(options.deleted ?? []).map(quiet).filter((f) => !holdsTemplates(f.text, f)),
      ...files.flatMap((f) => (f.before === undefined ? [] : [f.before])),
    ],
    kubernetesVersion: options.kubernetesVersion,
  });
  const validated = validateObjects(workspace.objects, workspace.catalog, {
    old: workspace.old,
    unknownFields: options.unknownFields ?? "error",
    kubernetesVersion: options.kubernetesVersion,
  });
  // A changed conversion declaration: the round-trip check over samples of every version.
  for (const { after } of files) {
    if (after.documents.some(isConversion)) findings.push(...checkRoundTrips(after, workspace.catalog.crds));
  }
  const ours = workspace.findings.filter((f) => f.file === undefined || !context.has(f.file));
  return [...findings, ...ours, ...validated];
}

/** A deleted file, read for its objects only: what parsing its old text finds is no finding on the change. */
function quiet(file: TextFile | ParsedFile): ParsedFile {
  const parsed = "documents" in file ? file : { ...file, ...parseSource(file.text, file.path) };
  return { ...parsed, findings: [] };
}
