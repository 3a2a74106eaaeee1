/**
 * `.kunion.yaml`: rule severities, where CRDs and manifests are, policy and
 * strictness, read and checked with clear findings (an unknown key is an
 * error with its line, never silently ignored; so are a rule id or a release
 * the face does not know). The schema is in schema.ts; Ajv compiled it ahead
 * of time (validate-config.generated.js).
 * Imports source, findings, path, value.
 */
import { type Finding, finding, notSupported, parseError, type Severity, unknownField } from "../findings/index.js";
import { fromJsonPointer, type PathSegment } from "../path/index.js";
import { parseSource } from "../source/index.js";
import { isObject, type JsonValue } from "../value/index.js";
import { type AjvError, validate } from "./validate-config.generated.js";

export interface KunionConfig {
  rules?: Record<string, Severity | "off">;
  crds?: string[];
  manifests?: string[];
  goTypes?: string[];
  conversions?: string[];
  ignore?: string[];
  policy?: "kep" | "smd";
  strict?: boolean;
  failOn?: Severity | "never";
  /** Checked against the known releases when a face reads the file: unquoted, YAML reads 1.35 as a number. */
  kubernetesVersion?: JsonValue;
  /** Findings accepted on purpose (checked against the known rule ids by src/checkout). */
  waivers?: Waiver[];
  /** A baseline file of accepted findings. */
  baseline?: string;
}

export interface Waiver {
  rule?: string;
  /** The CRD's metadata.name. */
  crd?: string;
  /** The object's kind (a CRD's own: spec.names.kind). */
  kind?: string;
  /** A glob over the field path: `*` within a segment, `**` across them. */
  path?: string;
  /** A glob over the file's path. */
  file?: string;
  reason?: string;
  /** YYYY-MM-DD: from the day after, the waiver no longer applies. */
  expires?: string;
}

/** What only a face knows, to check a configuration's rule ids and release against. */
export interface KnownSettings {
  /** Every rule id kunion reports: a key under `rules:` must be one. */
  rules: readonly string[];
  /** The Kubernetes releases kunion validates for: `kubernetesVersion` must be one. */
  releases: readonly string[];
}

/**
 * Reads a configuration file; with findings, the configuration is empty.
 * With `known`, a key under `rules:` that is no rule id and a
 * `kubernetesVersion` that is no known release are errors with their line too.
 */
export function readConfig(
  text: string,
  file: string,
  known?: KnownSettings,
): { config: KunionConfig; findings: Finding[] } {
  const parsed = parseSource(text, file);
  const located = (f: Finding, path: PathSegment[]) => ({
    ...f,
    file,
    ...(parsed.documents[0]?.locate(path) ?? { line: 1, column: 1 }),
  });
  const errors = parsed.findings.filter((f) => f.severity === "error");
  if (errors.length > 0) return { config: {}, findings: parsed.findings };
  if (parsed.documents.length > 1) {
    return {
      config: {},
      findings: [located(parseError("a configuration file holds one document", { rule: "config" }), [])],
    };
  }
  const value: JsonValue = parsed.documents[0]?.value ?? {};
  if (validate(value)) {
    const config = value as KunionConfig;
    const unknown = known === undefined ? [] : unknownSettings(config, known).map((u) => located(u.finding, u.at));
    if (unknown.length > 0) return { config: {}, findings: unknown };
    return { config: withOff(config), findings: parsed.findings };
  }
  const findings = (validate.errors ?? []).map((e) => {
    const path = fromJsonPointer(e.instancePath);
    return located(
      toFinding(e, path, value),
      e.keyword === "additionalProperties" ? [...path, String(e.params.additionalProperty)] : path,
    );
  });
  return { config: {}, findings };
}

/** Rule ids and a release the schema cannot know, each with the path of its line (a key's own, for a rule id). */
function unknownSettings(config: KunionConfig, known: KnownSettings): { finding: Finding; at: PathSegment[] }[] {
  const extra = { rule: "config" } as const;
  const out: { finding: Finding; at: PathSegment[] }[] = [];
  for (const id of Object.keys(config.rules ?? {})) {
    if (known.rules.includes(id)) continue;
    // As for a waiver's rule id: the ids that share its first word, if any (enum-restricted for enum-restrictd).
    const near = known.rules.filter((r) => r.split("-")[0] === id.split("-")[0]);
    out.push({ finding: notSupported(["rules", shownKey(id)], shownKey(id), near, extra), at: ["rules", id] });
  }
  const version = config.kubernetesVersion;
  // Unquoted, YAML reads 1.35 as a number.
  const release = typeof version === "number" ? String(version) : version;
  if (version !== undefined && (typeof release !== "string" || !known.releases.includes(release))) {
    const path = ["kubernetesVersion"];
    out.push({ finding: notSupported(path, shown(version), known.releases, extra), at: path });
  }
  return out;
}

/** `rule: off` arrives as false from YAML 1.1. */
function withOff(config: KunionConfig): KunionConfig {
  if (!config.rules) return config;
  const rules: Record<string, Severity | "off"> = {};
  for (const [k, v] of Object.entries(config.rules)) rules[k] = (v as unknown) === false ? "off" : v;
  return { ...config, rules };
}

function toFinding(e: AjvError, path: PathSegment[], value: JsonValue): Finding {
  const rule = { rule: "config" } as const;
  switch (e.keyword) {
    case "additionalProperties":
      return unknownField([...path, shownKey(String(e.params.additionalProperty))], rule);
    case "enum": {
      const allowed = (e.params.allowedValues as unknown[]).filter((v) => typeof v === "string");
      return notSupported(path, shown(valueAt(value, path)), allowed, rule);
    }
    default: {
      const expected = String(e.params.type ?? e.keyword);
      return finding({
        type: "FieldValueTypeInvalid",
        path,
        badValue: shown(valueAt(value, path)),
        detail: `must be ${expected}`,
        ...rule,
      });
    }
  }
}

/**
 * A configuration value as a finding may print it: a short word as it is,
 * anything else described. A configuration that is really another file (a
 * pull request's link to /etc/passwd or a credentials file) is never echoed
 * into a public annotation.
 */
const shownKey = (key: string) => (isWord(key) ? key : `<a key of ${key.length} characters>`);
const isWord = (text: string) => /^[A-Za-z0-9_.*/-]{0,32}$/.test(text);

function shown(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value === "string") {
    return isWord(value) ? value : `<a string of ${value.length} characters>`;
  }
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "<a list>" : "<an object>";
  return value;
}

function valueAt(value: JsonValue, path: readonly PathSegment[]): JsonValue | undefined {
  let node: JsonValue | undefined = value;
  for (const seg of path) {
    if (typeof seg === "number") node = Array.isArray(node) ? node[seg] : undefined;
    else node = isObject(node) && typeof seg === "string" && Object.hasOwn(node, seg) ? node[seg] : undefined;
  }
  return node;
}

/** Findings with the configured severities; a rule set to `off` is dropped. */
export function applySeverities(findings: readonly Finding[], rules: KunionConfig["rules"] = {}): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const s = Object.hasOwn(rules, f.rule) ? rules[f.rule] : undefined;
    if (s === "off") continue;
    out.push(s ? { ...f, severity: s } : f);
  }
  return out;
}
