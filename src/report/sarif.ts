/**
 * Findings → SARIF 2.1.0 (the format GitHub code scanning and most CI
 * dashboards read): one run, one reportingDescriptor per rule id found, one
 * result per finding with its file, line and column. Pure: returns the text.
 */
import { compareFindings, type Finding, type Severity } from "../findings/index.js";

export const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
/** Where users learn about the tool (SARIF `tool.driver.informationUri`). */
export const defaultInformationUri = "https://github.com/kunion/kunion";

/** Short descriptions of kunion's rule ids; an id not listed gets a generic one. */
export const ruleDescriptions: Readonly<Record<string, string>> = {
  union: "An object breaks a union (one-of) rule of its schema.",
  "union-declaration": "A union declaration in a schema contradicts itself.",
  schema: "An object does not match its structural schema.",
  cel: "An object breaks a CEL validation rule (x-kubernetes-validations).",
  parse: "An input cannot be read as YAML or JSON objects.",
  object: "A document is not a Kubernetes object (apiVersion or kind missing).",
  "schema-missing": "No schema is known for an object's kind, so it was not checked.",
};

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
  properties: { type: string; field: string; document?: number };
}

export interface SarifReportingDescriptor {
  id: string;
  name: string;
  shortDescription: { text: string };
  helpUri: string;
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
  /** The tool's version (`tool.driver.version`), when known. */
  version?: string;
  informationUri?: string;
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

function descriptor(id: string, informationUri: string): SarifReportingDescriptor {
  return {
    id,
    name: id
      .split("-")
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(""),
    shortDescription: { text: ruleDescriptions[id] ?? `kunion rule ${id}.` },
    helpUri: informationUri,
  };
}

function result(f: Finding, ruleIndex: number): SarifResult {
  const out: SarifResult = {
    ruleId: f.rule,
    ruleIndex,
    level: levels[f.severity],
    message: { text: f.message },
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
  const sorted = [...findings].sort(compareFindings);
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
            rules: ids.map((id) => descriptor(id, informationUri)),
          },
        },
        columnKind: "utf16CodeUnits",
        results: sorted.map((f) => result(f, index.get(f.rule) as number)),
      },
    ],
  };
}

/** SARIF 2.1.0 text, indented. */
export function formatSarif(findings: readonly Finding[], options: SarifOptions = {}): string {
  return JSON.stringify(toSarif(findings, options), null, 2);
}
