/**
 * The check of a checkout's change, one for `kunion check` and the Action:
 * the repository's CRDs and Go types read, the core's checkChanges run on
 * the changed files (the deleted files' objects among the old objects), the
 * configured severities applied, and each removal's finding placed on the
 * hunk that removed it. Every step reads a text through one parser made for
 * the check, so each text is parsed once. Both faces print what this
 * returns, so they give the same findings for the same change.
 */
import {
  applySeverities,
  type ChangedFile,
  checkChanges,
  type Finding,
  holdsTemplates,
  type KubernetesRelease,
  type KunionConfig,
  objectsOf,
  type ParsedFile,
  type TextFile,
} from "../index.js";
import { readGlobbed, repositoryConversions, repositoryCrds } from "./changes.js";
import { pairMoves, removalFindings } from "./deleted.js";
import { type ChangedLines, changedLines, placeRemovals } from "./lines.js";
import { type Parse, parseOnce } from "./parse.js";
import { type Acceptance, accept } from "./waivers.js";

export interface CheckoutChange {
  /** The changed files, each with its text at the base. */
  changed: readonly ChangedFile[];
  /** Files that could not be read, as findings. */
  problems: readonly Finding[];
  /** Deleted files, with their text at the base. */
  deleted?: readonly TextFile[];
  config: KunionConfig;
  /** CRD globs given beside the configuration (the Action's `crds`); default the configuration's. */
  crds?: readonly string[];
  /** Undefined: the configuration's, else strict. */
  strict?: boolean;
  kubernetesVersion?: KubernetesRelease;
  /** Waivers and the baseline: without it, nothing is accepted. */
  acceptance?: Omit<Acceptance, "config" | "files">;
}

export interface CheckoutResult {
  /** What was found, waivers and baseline applied. */
  findings: Finding[];
  /** What was found, before: what a baseline records. */
  found: Finding[];
  /**
   * The changed lines of each changed file with a finding: only a finding
   * asks for its file's lines, so the others' hunks are never computed.
   */
  lines: ChangedLines;
  /**
   * The changed files as checked (a CRD file git did not pair with its old
   * file paired), each side checkChanges read parsed: the Action's fixes
   * read them without parsing them again.
   */
  changed: ChangedFile[];
  /** The repository's CRDs, parsed, and Go types that gave the changed files their schemas. */
  crds: ParsedFile[];
  goTypes: TextFile[];
  /** What the summary line counts: the files checked (changed ones not templates, deleted ones) and their objects. */
  checkedFiles: number;
  objects: number;
}

export function checkCheckout(root: string, change: CheckoutChange): CheckoutResult {
  const { config } = change;
  const parse = parseOnce();
  const { changed, deleted } = pairMoves(change.changed, change.deleted ?? [], parse);
  const linesOf = (found: readonly Finding[]): ChangedLines => {
    const withFindings = new Set(found.map((f) => f.file));
    const lines = new Map(changedLines(changed.filter((f) => withFindings.has(f.path))));
    // A changed file that could not be read is changed as a whole.
    for (const p of change.problems) if (p.file !== undefined && !lines.has(p.file)) lines.set(p.file, "all");
    return lines;
  };
  const accepted = (
    found: Finding[],
    crds: ParsedFile[],
    goTypes: TextFile[],
    checked: ChangedFile[],
  ): CheckoutResult => {
    const lines = linesOf(found);
    const files = [
      ...changed.map((f) => ({ path: f.path, text: f.after })),
      ...deleted.filter((d) => !changed.some((c) => c.path === d.path)),
    ];
    const placed = placeRemovals(found, lines);
    const findings = change.acceptance ? accept(placed, { ...change.acceptance, config, files, parse }) : placed;
    const parsed = checked.flatMap((f) =>
      f.parsed?.after === undefined || holdsTemplates(f.after, f.parsed.after) ? [] : [f.parsed.after],
    );
    const objects = parsed.reduce((n, p) => n + objectsOf(p.documents, change.kubernetesVersion).objects.length, 0);
    const checkedFiles = parsed.length + deleted.length;
    return { findings, found: placed, lines, changed: checked, crds, goTypes, checkedFiles, objects };
  };
  if (changed.length === 0 && deleted.length === 0) {
    return accepted(applySeverities([...change.problems], config.rules), [], [], []);
  }
  const crdGlobs = change.crds !== undefined && change.crds.length > 0 ? change.crds : (config.crds ?? []);
  const crds = repositoryCrds(root, crdGlobs, new Set(changed.map((c) => c.path)));
  const goTypes = readGlobbed(root, config.goTypes ?? []);
  const strict = change.strict ?? config.strict ?? true;
  const removed = removalFindings({
    deleted,
    changed,
    crds: crds.files,
    conversions: () =>
      repositoryConversions(root, config.conversions ?? [], new Set([...changed, ...deleted].map((f) => f.path))),
    parse,
  });
  const checked = changed.map(parsedSides(parse));
  const parsedCrds = crds.files.map((f) => ({ ...f, ...parse(f.text, f.path) }));
  const found = [
    ...change.problems,
    ...crds.problems,
    ...goTypes.problems,
    ...checkChanges(checked, {
      severities: config.rules,
      crds: parsedCrds,
      goTypes: goTypes.files,
      deleted: deleted.map((f) => ({ ...f, ...parse(f.text, f.path) })),
      unknownFields: strict ? "error" : "warning",
      kubernetesVersion: change.kubernetesVersion,
    }),
    ...removed,
  ];
  return accepted(applySeverities(found, config.rules), parsedCrds, goTypes.files, checked);
}

/** A changed file with the sides checkChanges reads (a template's new side only) parsed by the check's parser. */
const parsedSides =
  (parse: Parse) =>
  (f: ChangedFile): ChangedFile => {
    const after = parse(f.after, f.path);
    if (holdsTemplates(f.after, after)) return { ...f, parsed: { after } };
    return { ...f, parsed: { after, before: f.before === undefined ? undefined : parse(f.before, f.path) } };
  };
