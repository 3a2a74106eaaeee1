/**
 * Accepting intended findings durably, outside the generated files they are
 * about: `.kunion.yaml` waivers (by rule id, CRD or kind, field-path glob,
 * each with a reason and an optional expiry date) and a baseline file of
 * accepted findings, matched by their SARIF partial fingerprints. An
 * accepted finding stays in the report as a notice saying why.
 */
import { matchesGlob } from "node:path";
import {
  type Finding,
  finding,
  fingerprints,
  getKey,
  isCrd,
  isObject,
  type KunionConfig,
  notSupported,
  parseSource,
  required,
  type SourceDocument,
  type TextFile,
  type Waiver,
  withListItems,
} from "../index.js";
import { type Parse, parseOnce } from "./parse.js";

const configProblem = (f: Finding, file: string, doc: SourceDocument | undefined) => ({
  ...f,
  file,
  ...(doc?.locate(f.at ?? f.path) ?? { line: 1, column: 1 }),
});

/** A day of the calendar, YYYY-MM-DD: Date.parse alone would take 2026-02-30, so the day must read back the same. */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/**
 * What a configuration's waivers get wrong, each with its line: an unknown
 * rule id, no reason, a date that is no day of the calendar (YYYY-MM-DD), a
 * waiver that names nothing. (Unknown keys are the configuration schema's to report.)
 */
export function waiverProblems(
  config: KunionConfig,
  text: string,
  file: string,
  knownRules: readonly string[],
): Finding[] {
  const waivers = config.waivers ?? [];
  if (waivers.length === 0) return [];
  const doc = parseSource(text, file).documents[0];
  const out: Finding[] = [];
  const extra = { rule: "config" } as const;
  waivers.forEach((w, i) => {
    const at = ["waivers", i];
    if (w.rule !== undefined && !knownRules.includes(w.rule)) {
      const near = knownRules.filter((r) => r.split("-")[0] === w.rule?.split("-")[0]);
      out.push(configProblem(notSupported([...at, "rule"], w.rule, near.length > 0 ? near : [], extra), file, doc));
    }
    if (w.rule === undefined && w.crd === undefined && w.kind === undefined && w.path === undefined) {
      out.push(
        configProblem(required([...at, "rule"], "a waiver names a rule id, a CRD, a kind or a path", extra), file, doc),
      );
    }
    if (w.reason === undefined || w.reason.trim() === "") {
      out.push(configProblem(required([...at, "reason"], "say why the findings are accepted", extra), file, doc));
    }
    if (w.expires !== undefined && !isDate(w.expires)) {
      out.push(
        configProblem(
          finding({
            type: "FieldValueInvalid",
            path: [...at, "expires"],
            badValue: w.expires.length <= 32 ? w.expires : `<a string of ${w.expires.length} characters>`,
            detail: "must be a date, YYYY-MM-DD",
            ...extra,
          }),
          file,
          doc,
        ),
      );
    }
  });
  return out;
}

/** A field-path glob: `*` within a segment, `**` across segments; brackets are literal. */
function pathGlob(glob: string): RegExp {
  const body = glob
    .split("**")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^.]*"))
    .join(".*");
  return new RegExp(`^${body}$`);
}

/** The kind and CRD name of the document a finding is in. */
type Subject = { kind?: string; crd?: string; crdKind?: string };

function subjects(files: readonly TextFile[], parse: Parse): (f: Finding) => Subject {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  return (f) => {
    if (f.file === undefined || f.document === undefined) return {};
    const text = texts.get(f.file);
    const parsed = text === undefined ? [] : withListItems(parse(text, f.file).documents);
    const value = documentAt(
      parsed.filter((d) => d.index === f.document),
      f,
    )?.value;
    if (!isObject(value)) return {};
    const kind = getKey(value, "kind");
    const out: Subject = typeof kind === "string" ? { kind } : {};
    if (isCrd(value)) {
      const meta = getKey(value, "metadata");
      const spec = getKey(value, "spec");
      const names = isObject(spec) ? getKey(spec, "names") : undefined;
      const name = isObject(meta) ? getKey(meta, "name") : undefined;
      const crdKind = isObject(names) ? getKey(names, "kind") : undefined;
      if (typeof name === "string") out.crd = name;
      if (typeof crdKind === "string") out.crdKind = crdKind;
    }
    return out;
  };
}

/**
 * Of a document's parts, the one a finding is in: the document itself, or, for a List, whose items share
 * its index, the last item that starts at or before the finding's line and column.
 */
function documentAt(parts: readonly SourceDocument[], f: Finding): SourceDocument | undefined {
  if (parts.length <= 1) return parts[0];
  const before = (p: SourceDocument) => {
    const { line, column } = p.locate([]);
    return line < (f.line ?? 0) || (line === f.line && column <= (f.column ?? 0));
  };
  return parts.filter(before).at(-1) ?? parts[0];
}

function matches(w: Waiver, f: Finding, subject: Subject): boolean {
  if (w.rule !== undefined && w.rule !== f.rule) return false;
  if (w.crd !== undefined && w.crd !== subject.crd) return false;
  if (w.kind !== undefined && w.kind !== subject.kind && w.kind !== subject.crdKind) return false;
  if (w.file !== undefined && (f.file === undefined || !matchesGlob(f.file, w.file))) return false;
  if (w.path !== undefined) {
    // An evolution finding's field starts with its version (`v1 spec.x`): the glob may leave it out.
    const glob = pathGlob(w.path);
    const bare = f.type === "CrdChange" ? f.field.replace(/^\S+ /, "") : f.field;
    if (!glob.test(f.field) && !glob.test(bare)) return false;
  }
  return true;
}

const accepted = (f: Finding, why: string): Finding => ({
  ...f,
  severity: "notice",
  detail: `${f.detail} (${why})`,
  message: `${f.message} (${why})`,
});

export interface Acceptance {
  config: KunionConfig;
  configFile?: string;
  configText?: string;
  /** The texts findings point into (the changed files now, deleted ones at the base), to know each one's kind and CRD. */
  files: readonly TextFile[];
  /** How those texts are parsed: the check's parser, which has most of them already (default: each parsed here, once). */
  parse?: Parse;
  /** Today, YYYY-MM-DD (the face's clock). */
  today: string;
  /** The fingerprints of the baseline's findings. */
  baseline?: ReadonlySet<string>;
  baselineFile?: string;
}

/**
 * The findings with the waivers and the baseline applied: an accepted
 * finding becomes a notice with the reason; an expired waiver applies no
 * more and says so once; baseline entries no finding matches any more are
 * counted in one notice.
 */
export function accept(findings: readonly Finding[], input: Acceptance): Finding[] {
  const waivers = input.config.waivers ?? [];
  // Nothing to accept: no finding is fingerprinted, no file parsed (validate's run over a whole tree).
  if (waivers.length === 0 && input.baseline === undefined) return [...findings];
  const prints = fingerprints(findings);
  const subjectOf = subjects(input.files, input.parse ?? parseOnce());
  const doc =
    input.configText !== undefined && waivers.length > 0
      ? parseSource(input.configText, input.configFile ?? ".kunion.yaml").documents[0]
      : undefined;
  const expired = new Set<number>();
  const used = new Set<string>();
  const out = findings.map((f, i) => {
    for (const [n, w] of waivers.entries()) {
      if (!matches(w, f, subjectOf(f))) continue;
      if (w.expires !== undefined && w.expires < input.today) {
        expired.add(n);
        continue;
      }
      return accepted(f, `waived: ${w.reason ?? ""}`);
    }
    const print = prints[i] as string;
    if (input.baseline?.has(print)) {
      used.add(print);
      return accepted(f, "in the baseline");
    }
    return f;
  });
  for (const n of [...expired].sort((a, b) => a - b)) {
    const w = waivers[n] as Waiver;
    const detail = `the waiver expired on ${w.expires}: its findings count again (reason given: ${w.reason ?? ""})`;
    out.push({
      ...finding({
        type: "FieldValueInvalid",
        path: ["waivers", n, "expires"],
        detail,
        rule: "waiver",
        severity: "notice",
      }),
      message: `waivers[${n}]: ${detail}`,
      file: input.configFile ?? ".kunion.yaml",
      ...(doc?.locate(["waivers", n, "expires"]) ?? { line: 1, column: 1 }),
    });
  }
  const stale = input.baseline ? input.baseline.size - used.size : 0;
  if (stale > 0) {
    const detail = `${stale} finding(s) of the baseline are gone: record it again with kunion check --write-baseline`;
    out.push({
      ...finding({ type: "FieldValueInvalid", path: [], detail, rule: "waiver", severity: "notice" }),
      message: detail,
      ...(input.baselineFile ? { file: input.baselineFile, line: 1, column: 1 } : {}),
    });
  }
  return out;
}

/** A baseline file: the fingerprints of the findings it accepts, with what they said (for a reader). */
export function baselineText(findings: readonly Finding[]): string {
  const prints = fingerprints(findings);
  const rows = findings
    .map((f, i) => ({ fingerprint: prints[i] as string, rule: f.rule, file: f.file, message: f.message }))
    .sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || a.fingerprint.localeCompare(b.fingerprint));
  return `${JSON.stringify({ kunionBaseline: 1, findings: rows }, null, 2)}\n`;
}

/** A baseline file read back: its fingerprints, or why it cannot be used. */
export function readBaseline(text: string, file: string): { fingerprints: Set<string> } | { problem: Finding } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { problem: baselineProblem(file, `not JSON: ${(e as Error).message}`) };
  }
  const rows = isObject(data as never) ? (data as { findings?: unknown }).findings : undefined;
  if ((data as { kunionBaseline?: unknown })?.kunionBaseline !== 1 || !Array.isArray(rows)) {
    return { problem: baselineProblem(file, "not a kunion baseline (kunion check --write-baseline writes one)") };
  }
  const prints = rows.flatMap((r) =>
    isObject(r) && typeof getKey(r, "fingerprint") === "string" ? [getKey(r, "fingerprint") as string] : [],
  );
  return { fingerprints: new Set(prints) };
}

const baselineProblem = (file: string, detail: string): Finding => ({
  ...finding({ type: "ParseError", path: [], detail, rule: "config" }),
  file,
  line: 1,
  column: 1,
});
