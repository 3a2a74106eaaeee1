/**
 * Findings → SARIF 2.1.0 (the format GitHub code scanning and most CI
 * dashboards read): one run, one reportingDescriptor per rule id found (with
 * its description, help and the anchor of its row in the docs), one result
 * per cause with its file, line and column, and a partial fingerprint that
 * code scanning (and kunion's baseline) use to follow a finding across
 * commits. Pure: returns the text.
 */
import { compareFindings, type Finding, type Severity } from "../findings/index.js";
import { messageRules, type RuleDoc, ruleHelpMarkdown, ruleHelpText } from "./rules.js";

export const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
/** Where users learn about the tool (SARIF `tool.driver.informationUri`). */
export const defaultInformationUri = "https://github.com/kunion/kunion";

export type SarifLevel = "error" | "warning" | "note";

export interface SarifRegion {
  startLine: number;
  startColumn?: number;
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations?: Array<{
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId?: string };
      region?: SarifRegion;
    };
  }>;
  /** `kunion/v1`: see {@link fingerprints}. */
  partialFingerprints: Record<string, string>;
  properties: { type: string; field: string; document?: number };
}

export interface SarifReportingDescriptor {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri: string;
  defaultConfiguration: { level: SarifLevel | "none"; enabled?: boolean };
}

export interface SarifLog {
  $schema: string;
  version: "2.1.0";
  runs: [
    {
      tool: {
        driver: {
          name: "kunion";
          informationUri: string;
          version?: string;
          rules: SarifReportingDescriptor[];
        };
      };
      columnKind: "utf16CodeUnits";
      results: SarifResult[];
    },
  ];
}

export interface SarifOptions {
  /** The tool's version (`tool.driver.version`): the face knows it (package.json). */
  version?: string;
  informationUri?: string;
  /** What each rule id means (default: the message rules); an id not listed gets a generic description. */
  rules?: readonly RuleDoc[];
}

const levels: Record<Severity, SarifLevel> = { error: "error", warning: "warning", notice: "note" };

/**
 * A file path as a SARIF URI reference. Relative paths stay relative (each
 * segment percent-encoded, so spaces, `#`, `?` and `%` survive); absolute
 * paths become `file:` URIs, since a bare `/x` has no base to resolve from.
 */
export function pathToUri(path: string): string {
  const slashed = path.replaceAll("\\", "/");
  const drive = /^[A-Za-z]:\//.test(slashed);
  const segments = slashed.split("/").map((s, i) => (drive && i === 0 ? s : encodeURIComponent(s)));
  const encoded = segments.join("/");
  if (drive) return `file:///${encoded}`;
  if (slashed.startsWith("/")) return `file://${encoded}`;
  return encoded;
}

const isAbsolute = (uri: string) => uri.startsWith("file:");

/** The partial fingerprint's name in SARIF: bump the version if what it hashes changes. */
export const fingerprintKey = "kunion/v1";

/**
 * FNV-1a, 64 bits, over the UTF-8 bytes: a stable hash without Node's
 * crypto (the core runs on Workers). Not a security measure: it only tells
 * findings apart across commits.
 */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

/**
 * What identifies a finding across commits: its rule, file, field path and
 * message, never its line, so an edit above it keeps it the same. Line
 * numbers quoted inside a message (`already defined at line 4`) are left out
 * for the same reason, and so is why an accepted finding was accepted.
 */
function identity(f: Finding): string {
  // What accepting a finding appends (a waiver's or an allow comment's reason, the baseline) is not part of it either.
  const message = f.message
    .replace(/ \((waived: .*|allowed: .*|in the baseline)\)$/s, "")
    .replace(/\bline \d+/g, "line N");
  return fnv1a64([f.rule, f.file ?? "", f.field, message].join("\0"));
}

/**
 * Each finding's partial fingerprint, in the order given: the hash of its
 * identity, and `:n` for the n-th finding with the same identity in file
 * order (the same mistake in several objects of one file stays several
 * results).
 */
export function fingerprints(findings: readonly Finding[]): string[] {
  const order = findings.map((f, i) => ({ f, i })).sort((a, b) => compareFindings(a.f, b.f));
  const seen = new Map<string, number>();
  const out: string[] = new Array(findings.length);
  for (const { f, i } of order) {
    const id = identity(f);
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    out[i] = `${id}:${n}`;
  }
  return out;
}

/** One result per cause: the same rule, place and message reported twice is one result. */
function distinct(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = [f.rule, f.file ?? "", f.line ?? 0, f.column ?? 0, f.field, f.message].join("\0");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const defaultLevel = (s: RuleDoc["severity"]) => (s === "off" ? "none" : levels[s]);

function descriptor(id: string, doc: RuleDoc | undefined, informationUri: string): SarifReportingDescriptor {
  const rule: RuleDoc = doc ?? {
    id,
    summary: `kunion rule ${id}.`,
    description: `kunion rule ${id}`,
    severity: "error",
    uri: informationUri,
  };
  return {
    id,
    name: id
      .split("-")
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(""),
    shortDescription: { text: rule.summary },
    fullDescription: { text: rule.description },
    help: { text: ruleHelpText(rule), markdown: ruleHelpMarkdown(rule) },
    helpUri: rule.uri,
    defaultConfiguration:
      rule.severity === "off" ? { level: "none", enabled: false } : { level: defaultLevel(rule.severity) },
  };
}

function result(f: Finding, ruleIndex: number, fingerprint: string): SarifResult {
  const out: SarifResult = {
    ruleId: f.rule,
    ruleIndex,
    level: levels[f.severity],
    message: { text: f.message },
    partialFingerprints: { [fingerprintKey]: fingerprint },
    properties: { type: f.type, field: f.field },
  };
  if (f.document !== undefined) out.properties.document = f.document;
  if (f.file !== undefined && f.file !== "") {
    const uri = pathToUri(f.file);
    const artifactLocation = isAbsolute(uri) ? { uri } : { uri, uriBaseId: "%SRCROOT%" };
    const region: SarifRegion | undefined =
      f.line !== undefined && f.line >= 1
        ? f.column !== undefined && f.column >= 1
          ? { startLine: f.line, startColumn: f.column }
          : { startLine: f.line }
        : undefined;
    out.locations = [{ physicalLocation: region ? { artifactLocation, region } : { artifactLocation } }];
  }
  return out;
}

/** The SARIF log as an object (for callers that add to it before writing). */
export function toSarif(findings: readonly Finding[], options: SarifOptions = {}): SarifLog {
  const informationUri = options.informationUri ?? defaultInformationUri;
  const docs = new Map((options.rules ?? messageRules).map((r) => [r.id, r]));
  const sorted = distinct([...findings].sort(compareFindings));
  const prints = fingerprints(sorted);
  const ids = [...new Set(sorted.map((f) => f.rule))].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  return {
    $schema: sarifSchema,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "kunion",
            informationUri,
            ...(options.version !== undefined ? { version: options.version } : {}),
            rules: ids.map((id) => descriptor(id, docs.get(id), informationUri)),
          },
        },
        columnKind: "utf16CodeUnits",
        results: sorted.map((f, i) => result(f, index.get(f.rule) as number, prints[i] as string)),
      },
    ],
  };
}

/** SARIF 2.1.0 text, indented. */
export function formatSarif(findings: readonly Finding[], options: SarifOptions = {}): string {
  return JSON.stringify(toSarif(findings, options), null, 2);
}
