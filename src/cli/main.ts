/**
 * The `kunion` command line: argv → files → core → printed report and exit
 * code. The only part of src/ that touches Node (files, streams, process).
 */

import { realpathSync, writeFileSync } from "node:fs";
import {
  accept,
  baselineText,
  checkCheckout,
  checkRef,
  configuredGlobs,
  deletedFiles,
  knownRules,
  type LoadedConfig,
  loadConfig as loadCheckoutConfig,
  readAt,
  readBaseline,
  readConfigFile,
  readGlobbed,
  readInside,
  resolveCommit,
  selectFiles,
  topLevel,
  workTreeChanges,
} from "../checkout/index.js";
import {
  applySeverities,
  convert,
  defaultRelease,
  describeChange,
  diffCrdFiles,
  documentChunks,
  type Edit,
  editsBetween,
  type Finding,
  failsAt,
  finding,
  formatGithub,
  formatJson,
  formatSarif,
  formatText,
  fromJsonPointer,
  holdsTemplates,
  type JsonValue,
  type KubernetesRelease,
  type KunionConfig,
  kunionVersion,
  loadConversions,
  loadWorkspace,
  looksLikeTemplate,
  type NormalizedObject,
  normalizeObjects,
  type ParsedFile,
  parseSource,
  printYaml,
  releaseOf,
  type SourceDocument,
  type SourceObject,
  type Summary,
  skippedNotice,
  splitApiVersion,
  summarize,
  type TextFile,
  validateObjects,
} from "../index.js";
import {
  type Args,
  type CheckArgs,
  type ConvertArgs,
  type CrdDiffArgs,
  type NormalizeArgs,
  parseCommandLine,
  UsageError,
  usage,
  type ValidateArgs,
} from "./args.js";
import {
  expandGlobs,
  InputError,
  ignoredNames,
  isGoTypes,
  namedFiles,
  readInputs,
  readText,
  textFile,
} from "./files.js";
import { readOpenAPI } from "./openapi.js";
import { formatLimited } from "./present.js";
import { Progress } from "./progress.js";

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** stderr is a terminal: a long run shows its progress there, on one line it rewrites. */
  progress?: boolean;
}

/**
 * Runs one command; returns the exit code (0 clean, 1 findings, 2 usage or unreadable input). A file found
 * in a folder that cannot be read is a finding on it: the others are checked, and the exit code is 2.
 */
export function run(argv: readonly string[], io: Io): number {
  let args: Args;
  try {
    args = parseCommandLine(argv);
    if (args.command === "help") {
      io.stdout(`${usage}\n`);
      return 0;
    }
    if (args.command === "version") {
      io.stdout(`kunion ${kunionVersion}\n`);
      return 0;
    }
    // `check` reads the checkout's configuration, from its top folder.
    const root = args.command === "check" ? checkoutRoot() : process.cwd();
    const loaded = loadConfig(root, args.config, io);
    if (loaded === undefined) return 2;
    const { config } = loaded;
    if (args.command === "crd-diff") return crdDiff(args, io, loaded);
    if (args.command === "check") return check(root, args, io, loaded);
    if (args.command === "convert") return convertCommand(args, io, config);
    return args.command === "validate" ? validate(args, io, loaded) : normalizeCommand(args, io, config);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`kunion: ${e.message}\n\n${usage}\n`);
      return 2;
    }
    if (e instanceof InputError) {
      io.stderr(`kunion: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * The configuration, or undefined (after printing why) when it is broken: a
 * usage error. `--config` is read where the user points; the `.kunion.yaml`
 * found in `root` is read as a checkout's file: never through a link.
 */
function loadConfig(root: string, file: string | undefined, io: Io): LoadedConfig | undefined {
  const loaded = file === undefined ? loadCheckoutConfig(root) : readConfigFile(readText(file), file);
  const errors = loaded.findings.filter((f) => f.severity === "error");
  if (errors.length === 0) return loaded;
  io.stderr(`${formatText(errors)}\n`);
  return undefined;
}

/** The top folder of the git checkout the working folder is in. */
function checkoutRoot(): string {
  try {
    return realpathSync(topLevel(process.cwd()));
  } catch (e) {
    throw new InputError(`check needs a git checkout: ${(e as Error).message}`);
  }
}

/**
 * The files a configuration's globs name. The configuration may come with the
 * files it checks (a repository's `.kunion.yaml`), so its globs are read as a
 * checkout's files: inside the working folder, never through a link.
 */
const configured = (globs: readonly string[] | undefined) => readGlobbed(process.cwd(), globs ?? []);

function load(args: ValidateArgs | NormalizeArgs, config: KunionConfig, kubernetesVersion?: KubernetesRelease) {
  const { files: found, ignored, problems } = manifests(args.paths, [...args.ignore, ...(config.ignore ?? [])]);
  // Helm and other templates are not manifests until rendered: left out, with one notice (as kunion check does).
  // A file with `{{` is read here, once, to tell a template from a manifest whose strings hold `{{`.
  const read = found.map((f): TextFile | ParsedFile =>
    looksLikeTemplate(f.text) ? { ...f, ...parseSource(f.text, f.path) } : f,
  );
  const templates = read.filter((f) => "findings" in f && holdsTemplates(f.text, f));
  const inputs = read.filter((f) => !templates.includes(f));
  const skipped = [
    ...ignored,
    ...skippedFiles(
      templates.map((f) => f.path),
      "hold templates ({{ … }}), not manifests: not checked (render them first, e.g. helm template)",
    ),
  ];
  const crds = configured(config.crds);
  const goTypes = configured(config.goTypes);
  const crdFiles = readInputs(args.crd);
  const goFiles = readInputs(args.goTypes, isGoTypes);
  const old = readInputs(args.old ? [args.old] : []);
  // A file given both ways (`--crd dir dir`) and read above is not read again.
  const readHere = new Map(read.flatMap((f) => ("findings" in f ? [[f.path, f] as const] : [])));
  const declarations = [...crdFiles.files, ...crds.files].map((f) => {
    const known = readHere.get(f.path);
    return known?.text === f.text ? known : f;
  });
  // A Go file that is not UTF-8 comes parsed, as its parse error: it is not read as Go.
  const unreadGo = goFiles.files.flatMap((f) => ("findings" in f ? f.findings : []));
  const workspace = loadWorkspace({
    inputs,
    crds: declarations,
    namedCrds: namedFiles(args.crd),
    goTypes: [...goFiles.files.filter((f) => !("findings" in f)), ...goTypes.files],
    old: old.files,
    kubernetesVersion,
  });
  const unread = [...problems, ...crdFiles.problems, ...goFiles.problems, ...old.problems];
  return {
    ...workspace,
    findings: [...skipped, ...unread, ...unreadGo, ...crds.problems, ...goTypes.problems, ...workspace.findings],
    unreadable: isUnreadable(unread),
    files: found.length,
    inputs,
    declarations,
  };
}

/** Some file found in a folder could not be read: exit code 2, once the others are checked. */
const isUnreadable = (problems: readonly Finding[]) => problems.some((f) => f.severity === "error");

/** One notice for files left out unread, on the first of them: `N file(s) <why>`. */
function skippedFiles(files: readonly string[], why: string): Finding[] {
  if (files.length === 0) return [];
  return [skippedNotice(`${files.length} file(s) ${why}`, files[0])];
}

/**
 * The manifests of the paths given, less the ignored ones. A file named by
 * itself that an ignore glob matches is left out with a notice (pre-commit
 * names every staged file, the ignored ones too); a path without any YAML or
 * JSON file at all, or a folder whose files are all ignored, is an input
 * error (exit 2).
 */
function manifests(
  paths: readonly string[],
  ignore: readonly string[],
): { files: TextFile[]; ignored: Finding[]; problems: Finding[] } {
  const { files, problems } = readInputs(paths, undefined, ignore);
  const named = ignoredNames(paths, ignore);
  const ignored = skippedFiles(named, "named match an ignore glob (--ignore, .kunion.yaml's ignore): not checked");
  if (files.length > 0 || named.length > 0 || problems.length > 0) return { files, ignored, problems };
  const which = ignore.length > 0 ? " that is not ignored" : "";
  throw new InputError(`no YAML or JSON file (*.yaml, *.yml, *.json) in ${paths.join(", ")}${which}`);
}

/** The release chosen on the command line, else in the configuration, else the newest. */
function release(args: ValidateArgs | CheckArgs, config: KunionConfig): KubernetesRelease {
  const given = args.kubernetesVersion ?? config.kubernetesVersion;
  if (given === undefined) return defaultRelease;
  const parsed = releaseOf(given);
  if ("release" in parsed) return parsed.release;
  // The configuration's release was checked, with its line, when the file was read.
  throw new UsageError(`--kubernetes-version ${parsed.error}`);
}

function validate(args: ValidateArgs, io: Io, configured: LoadedConfig): number {
  const { config } = configured;
  const kubernetesVersion = release(args, config);
  // From the start: reading and parsing count towards the second before progress shows.
  const started = Date.now();
  const {
    catalog,
    objects: loaded,
    old,
    files,
    findings,
    inputs,
    declarations,
    unreadable,
  } = load(args, config, kubernetesVersion);
  const objects = loaded.filter((o) => !isKindOf(o, args.skip));
  const rejected = new Set(objects.filter((o) => isKindOf(o, args.reject)));
  const strict = args.strict ?? config.strict ?? true;
  const openapi = args.openapi === undefined ? undefined : readOpenAPI(args.openapi);
  const options = {
    old,
    ratcheting: args.ratcheting,
    unknownFields: strict ? ("error" as const) : ("warning" as const),
    kubernetesVersion,
    builtinSchemas: openapi?.schemas,
  };
  // Document by document, so that a long run can say how far it is (each keeps its own work budget).
  const progress = new Progress(io.progress ? io.stderr : undefined, objects.length - rejected.size, "validating", {
    start: started,
  });
  const found: Finding[] = [];
  for (const batch of byDocument(objects.filter((o) => !rejected.has(o)))) {
    // a loop, not push(...): one object may have more findings than a call takes arguments
    for (const f of validateObjects(batch, catalog, options)) found.push(f);
    progress.advance(batch.length);
  }
  progress.clear();
  const all = waived(
    missingSchemas(
      applySeverities(
        [...findings, ...(openapi?.findings ?? []), ...[...rejected].map(rejection), ...found],
        config.rules,
      ),
      args.missingSchemas,
    ),
    configured,
    [...inputs, ...declarations],
  );
  const failOn = args.failOn ?? config.failOn ?? "error";
  const summary = summarize(all, files, objects.length);
  report(all, args.output, summary, io, {
    maxPerFile: args.maxPerFile,
    summary: args.summary,
    skipped: loaded.length - objects.length,
  });
  return unreadable ? 2 : failsAt(all, failOn) ? 1 : 0;
}

/** `--skip`/`--reject`: `Kind` or `apiVersion/Kind` (kubeconform's spelling of a GVK). */
const isKindOf = (o: SourceObject, kinds: readonly string[]) =>
  kinds.some((k) => k === o.kind || k === `${o.apiVersion}/${o.kind}`);

function rejection(o: SourceObject): Finding {
  const detail = `${o.apiVersion}/${o.kind} is rejected (--reject)`;
  return {
    ...finding({ type: "FieldValueForbidden", path: ["kind"], detail, rule: "reject" }),
    file: o.doc.file,
    ...o.doc.locate(["kind"]),
  };
}

/** Objects grouped by their document (the items of a List share one), in order. */
function byDocument(objects: readonly SourceObject[]): SourceObject[][] {
  const documents = new Map<string, SourceObject[]>();
  for (const o of objects) {
    const key = `${o.doc.file}\u0000${o.doc.index}`;
    const list = documents.get(key);
    if (list) list.push(o);
    else documents.set(key, [o]);
  }
  return [...documents.values()];
}

/** `--ignore-missing-schemas` drops the notices of objects without a schema; `--reject-missing-schemas` makes them errors. */
function missingSchemas(findings: Finding[], how: ValidateArgs["missingSchemas"]): Finding[] {
  if (how === undefined) return findings;
  const missing = (f: Finding) => f.rule === "schema-missing";
  if (how === "ignore") return findings.filter((f) => !missing(f));
  return findings.map((f) => (missing(f) ? { ...f, severity: "error" } : f));
}

function crdDiff(args: CrdDiffArgs, io: Io, loaded: LoadedConfig): number {
  const { config } = loaded;
  const before = readRevision(args.old);
  const after = readRevision(args.new);
  // The new revision last: when both have one path (git:HEAD:F and F), a finding's document is the new one's.
  const found = waived(diffCrdFiles(before, after, { severities: config.rules }), loaded, [before, after]);
  report(found, args.output, summarize(found, 2, 0), io);
  return failsAt(found, args.failOn ?? config.failOn ?? "error") ? 1 : 0;
}

/**
 * The configuration's waivers applied as kunion check applies them, so a
 * waived finding reads the same in every command: a notice with its reason.
 * `files` are the texts the findings point into (for each one's kind and CRD).
 */
function waived(found: Finding[], loaded: LoadedConfig, files: readonly TextFile[]): Finding[] {
  return accept(found, {
    config: loaded.config,
    configFile: loaded.file,
    configText: loaded.text,
    files,
    today: today(),
  });
}

/** Today in UTC, YYYY-MM-DD: the day a waiver's `expires` is compared with. */
const today = () => new Date().toISOString().slice(0, 10);

function check(root: string, args: CheckArgs, io: Io, loaded: LoadedConfig): number {
  const { config } = loaded;
  const kubernetesVersion = release(args, config);
  let base: string | undefined;
  try {
    base = resolveCommit(root, checkRef(args.base));
  } catch (e) {
    throw new InputError(`--base: ${(e as Error).message}`);
  }
  if (base === undefined) throw new InputError(`--base: ${args.base} is not a commit of this repository`);
  const candidates = workTreeChanges(root, base);
  const selection = selectFiles(root, candidates.changes, {
    globs: configuredGlobs(config),
    ignore: config.ignore ?? [],
    base,
  });
  const { changed } = selection;
  const deleted = deletedFiles(root, candidates.deleted, { ignore: config.ignore ?? [], base });
  for (const note of selection.notes) io.stderr(`${note}\n`);
  if (changed.length === 0 && deleted.length === 0 && selection.problems.length === 0) {
    io.stderr(`no Kubernetes YAML or JSON changed since ${args.base}\n`);
    return 0;
  }
  const baselineFile = args.baseline ?? config.baseline;
  const {
    findings: found,
    found: recorded,
    checkedFiles,
    objects,
  } = checkCheckout(root, {
    changed,
    deleted,
    problems: selection.problems,
    config,
    kubernetesVersion,
    acceptance: {
      configFile: loaded.file,
      configText: loaded.text,
      today: today(),
      // Writing one records the findings before acceptance: the one configured may not exist yet.
      baseline:
        baselineFile === undefined || args.writeBaseline !== undefined
          ? undefined
          : readBaselineFile(root, baselineFile, args.baseline !== undefined),
      baselineFile,
    },
  });
  if (args.writeBaseline !== undefined) {
    try {
      writeFileSync(args.writeBaseline, baselineText(recorded));
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : "cannot be written";
      throw new InputError(`--write-baseline ${args.writeBaseline}: ${why}`);
    }
    io.stderr(`${recorded.length} finding(s) recorded in ${args.writeBaseline}\n`);
    return 0;
  }
  report(found, args.output, summarize(found, checkedFiles, objects), io);
  return failsAt(found, args.failOn ?? config.failOn ?? "error") ? 1 : 0;
}

function convertCommand(args: ConvertArgs, io: Io, config: KunionConfig): number {
  const inputs = manifests(args.paths, config.ignore ?? []);
  const crds = readInputs([...args.crd, ...expandGlobs(config.crds)]);
  const declarations = readInputs(args.conversion);
  const { catalog, objects, findings } = loadWorkspace({
    inputs: inputs.files,
    crds: crds.files,
    namedCrds: namedFiles(args.crd),
  });
  const declared = loadConversions(declarations.files, catalog.crds);
  const unread = [...inputs.problems, ...crds.problems, ...declarations.problems];
  const problems = [...inputs.ignored, ...unread, ...findings, ...declared.findings];
  const converted: JsonValue[] = [];
  for (const o of objects) {
    const { group } = splitApiVersion(o.apiVersion);
    const conversion = declared.conversions.find((c) => c.group === group && c.kind === o.kind);
    const where = o.doc.locate([]);
    if (!conversion) {
      problems.push({
        ...finding({
          type: "SchemaMissing",
          path: ["kind"],
          detail: `no Conversion declared for ${group}/${o.kind}`,
          rule: "conversion",
        }),
        file: o.doc.file,
        ...where,
      });
      continue;
    }
    // `--to v2`, or the whole apiVersion as kubectl convert's --output-version takes it
    const target = args.to.includes("/") ? args.to : `${group}/${args.to}`;
    const result = convert(o.object, target, conversion, { share: true });
    if (result.object) converted.push(result.object);
    else
      problems.push({
        ...finding({
          type: "FieldValueInvalid",
          path: [],
          detail: result.error ?? "conversion failed",
          rule: "conversion",
        }),
        file: o.doc.file,
        ...where,
      });
  }
  io.stdout(
    args.output === "json" ? `${JSON.stringify(converted, null, 2)}\n` : converted.map(printYaml).join("---\n"),
  );
  const errors = problems.filter((f) => f.severity === "error");
  if (problems.length > 0) io.stderr(`${formatText(problems)}\n`);
  return isUnreadable(unread) ? 2 : errors.length > 0 ? 1 : 0;
}

/** A file, or `git:REF:PATH`: the file as it is at a commit of the repository in the working folder. */
function readRevision(spec: string): TextFile {
  const m = /^git:([^:]+):(.+)$/.exec(spec);
  if (!m) return readInputs([spec], () => true).files[0] as TextFile;
  const path = m[2] as string;
  let bytes: Buffer | undefined;
  try {
    const ref = checkRef(m[1] as string);
    bytes = readAt(process.cwd(), ref, [path], 64 * 1024 * 1024).get(path);
  } catch (e) {
    throw new InputError(`${spec}: ${(e as Error).message}`);
  }
  if (bytes === undefined) throw new InputError(`${spec}: no such file at that revision`);
  return textFile(path, bytes);
}

/**
 * A baseline's fingerprints: `--baseline` is read where the user points, the
 * configuration's `baseline` as a checkout's file. A missing or broken
 * baseline is an input error: without it, accepted findings would fail.
 */
function readBaselineFile(root: string, file: string, given: boolean): Set<string> {
  const text = given
    ? readText(file)
    : (() => {
        const read = readInside(root, file);
        if (read && "problem" in read) throw new InputError(`baseline ${file}: ${read.problem.detail}`);
        return read?.text;
      })();
  if (text === undefined) throw new InputError(`baseline ${file}: not found`);
  const read = readBaseline(text, file);
  if ("problem" in read) throw new InputError(`baseline ${file}: ${read.problem.detail}`);
  return read.fingerprints;
}

interface ReportOptions {
  /** Text and github: at most this many findings per file (0: all), identical parse errors grouped. */
  maxPerFile?: number;
  /** The summary line on stdout, after the findings (kubeconform's -summary), rather than on stderr. */
  summary?: boolean;
  /** Objects left out by --skip, for the summary. */
  skipped?: number;
}

/** Prints findings in the chosen format; the summary goes to stderr for the human formats. */
function report(
  all: Finding[],
  output: string | undefined,
  summary: Summary,
  io: Io,
  options: ReportOptions = {},
): void {
  if (output === "json") io.stdout(`${formatJson(all, summary)}\n`);
  else if (output === "sarif") io.stdout(`${formatSarif(all, { version: kunionVersion, rules: knownRules })}\n`);
  else {
    // `github`: workflow commands the runner turns into annotations; never coloured.
    const format = output === "github" ? "github" : "text";
    const text =
      options.maxPerFile === undefined
        ? format === "github"
          ? formatGithub(all)
          : formatText(all)
        : formatLimited(all, format, options.maxPerFile);
    if (text) io.stdout(`${io.color && output !== "github" ? colorize(text) : text}\n`);
    const skipped = options.skipped ? `, ${options.skipped} skipped (--skip)` : "";
    const line = `${summary.files} file(s), ${summary.objects} object(s)${skipped}: ${summary.errors} error(s), ${summary.warnings} warning(s), ${summary.notices} notice(s)\n`;
    if (options.summary) io.stdout(line);
    else io.stderr(line);
  }
}

function normalizeCommand(args: NormalizeArgs, io: Io, config: KunionConfig): number {
  const { catalog, objects, old, findings, inputs, unreadable } = load(args, config);
  const policy = args.policy ?? config.policy ?? "kep";
  const results = normalizeObjects(objects, catalog, { mode: args.mode, policy, old });
  const errors = [...findings, ...results.flatMap((r) => r.errors)];
  if (args.output === "json") {
    const out = results.map(({ file, index, object, changes, notes, errors: e }) => ({
      file,
      index,
      object,
      changes: changes.map(({ op, path, value }) => (value === undefined ? { op, path } : { op, path, value })),
      notes,
      ...(e.length > 0 ? { errors: e.map((f) => f.message) } : {}),
    }));
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    io.stdout(normalizedFiles(inputs, objects, results, args.mode, io));
    // What changed goes to stderr, so stdout stays a clean stream of objects.
    results.forEach((r, i) => {
      const doc = objects[i]?.doc;
      const where = (pointer: string) => {
        const p = doc?.locate(fromJsonPointer(pointer)) ?? { line: 1, column: 1 };
        return `${r.file}:${p.line}:${p.column}`;
      };
      for (const c of r.changes) io.stderr(`${where(c.pointer)}: ${describeChange(c)}\n`);
      for (const n of r.notes) io.stderr(`${where(n.pointer)}: note: ${n.path}: ${n.message} (${n.union})\n`);
    });
  }
  if (errors.length > 0) io.stderr(`${formatText(errors)}\n`);
  return unreadable ? 2 : errors.some((f) => f.severity === "error") ? 1 : 0;
}

/**
 * The input files as they are, but for the documents of objects that changed,
 * edited in their syntax trees (comments and layout kept where that is
 * possible; stderr says where and why it is not). Every other document (CRDs,
 * empty documents, documents that could not be read) and every `---` line is
 * printed byte for byte, so that the output can replace the input.
 */
function normalizedFiles(
  inputs: readonly TextFile[],
  objects: readonly SourceObject[],
  results: readonly NormalizedObject[],
  mode: "update" | "apply",
  io: Io,
): string {
  // The edits of each document, by file and index: a List's items share their List's document.
  const edited = new Map<string, { document: SourceDocument; edits: Edit[] }>();
  results.forEach((r, i) => {
    const o = objects[i];
    if (o === undefined || (r.object === o.object && r.changes.length === 0)) return;
    const document = o.doc.within?.document ?? o.doc;
    const prefix = o.doc.within?.path ?? [];
    // On apply the result is the live object merged with the applied one: what differs is written.
    const edits: Edit[] =
      mode === "apply"
        ? editsBetween(o.object, r.object).map((e) => ({ ...e, path: [...prefix, ...e.path] }))
        : r.changes.map((c) => ({
            path: [...prefix, ...fromJsonPointer(c.pointer)],
            value: c.op === "clear" ? undefined : c.value,
          }));
    const key = `${document.index}:${document.file}`;
    const entry = edited.get(key) ?? { document, edits: [] };
    entry.edits.push(...edits);
    edited.set(key, entry);
  });
  const files = inputs.map((file) => {
    let out = "";
    let end = 0;
    for (const chunk of documentChunks(file.text)) {
      out += file.text.slice(end, chunk.offset); // the `---` line before it
      end = chunk.offset + chunk.text.length;
      const entry = edited.get(`${chunk.index}:${file.path}`);
      const text = entry?.document.render(entry.edits, (why) => {
        const { line } = entry.document.locate([]);
        io.stderr(`${file.path}:${line}: note: comments and layout of this document were not kept: ${why}\n`);
      });
      out += text === undefined ? chunk.text : text;
      if (text !== undefined && !text.endsWith("\n") && end < file.text.length) out += "\n";
    }
    return out;
  });
  return files.map((f, i) => (i < files.length - 1 && f !== "" && !f.endsWith("\n") ? `${f}\n` : f)).join("---\n");
}

const colors = { error: "\u001b[31m", warning: "\u001b[33m", notice: "\u001b[36m" } as const;
function colorize(text: string): string {
  return text.replace(/: (error|warning|notice) /g, (_, s: keyof typeof colors) => `: ${colors[s]}${s}\u001b[0m `);
}

/**
 * Colour on a terminal, unless NO_COLOR is set (no-color.org); FORCE_COLOR
 * (other than 0 or false) turns it on where stdout is not a terminal.
 */
export function colorWanted(env: Readonly<Record<string, string | undefined>>, terminal: boolean): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false") return true;
  return terminal;
}
