/**
 * What each rule id means, for reports that explain their rules (SARIF's
 * `fullDescription`, `help` and `helpUri`) and for configurations that name
 * them (waivers: an unknown id is an error). The ids of docs/messages.md are
 * listed here; the evolution rules of docs/evolution.md keep their catalog in
 * src/evolution and are added by {@link ruleDocsOf}. Tests hold both tables
 * to the docs, row for row.
 */

/** Where the docs are published: each rule's row has an anchor named by its id. */
export const docsUri = "https://github.com/kunion/kunion/blob/main/docs/";

export interface RuleDoc {
  id: string;
  /** One sentence (SARIF `shortDescription`). */
  summary: string;
  /** What the rule reports, as the docs' table says it (SARIF `fullDescription`). */
  description: string;
  /** The default severity, or off. */
  severity: "error" | "warning" | "notice" | "off";
  /** The rule's own anchor in the docs. */
  uri: string;
}

const messages = (id: string, severity: RuleDoc["severity"], summary: string, description: string): RuleDoc => ({
  id,
  summary,
  description,
  severity,
  uri: `${docsUri}messages.md#${id}`,
});

/** The rules of docs/messages.md ("Rule ids"), in its order. */
export const messageRules: readonly RuleDoc[] = [
  messages(
    "schema",
    "error",
    "An object does not match its structural schema.",
    "an object breaks its CRD's structural schema or a built-in kind's OpenAPI schema: types, required fields, enums, formats, bounds, patterns, list types, unknown fields, object metadata",
  ),
  messages(
    "cel",
    "error",
    "An object breaks a CEL validation rule (x-kubernetes-validations).",
    "an object breaks a CEL rule of its schema (x-kubernetes-validations), or a rule does not compile or runs out of cost budget",
  ),
  messages(
    "union",
    "error",
    "An object breaks a union (one-of) rule of its schema.",
    "an object breaks a union (one-of) rule: a generic union of apimachinery, or a built-in kind's hand-written one (a Deployment's strategy, a volume's source, a probe's handler)",
  ),
  messages(
    "union-declaration",
    "error",
    "A union declaration in a schema contradicts itself.",
    "a union declaration in a schema or Go type contradicts itself",
  ),
  messages(
    "parse",
    "error",
    "An input cannot be read as YAML or JSON objects.",
    "a file cannot be read as YAML or JSON objects: syntax, duplicate keys, aliases, size and nesting limits, binary input, bytes that are not UTF-8, infinity and NaN, text after the values of a JSON stream",
  ),
  messages(
    "object",
    "error",
    "A document is not a Kubernetes object (apiVersion or kind missing).",
    "a document is not a Kubernetes object: not a mapping, or apiVersion or kind missing",
  ),
  messages(
    "schema-missing",
    "notice",
    "No schema is known for an object's kind, so it was not checked.",
    "no CRD, SMD type or built-in schema is known for an object's kind, or its CRD does not serve the version: the object is not checked",
  ),
  messages(
    "crd-duplicate",
    "notice",
    "A CRD is declared twice, differently.",
    "a CustomResourceDefinition is declared again with other contents (two channels of a project, a stale copy): objects are checked against the first that serves their version, named with its file",
  ),
  messages(
    "api-removed",
    "error",
    "An object uses an API version Kubernetes removed or deprecated.",
    "an object uses an API version the chosen Kubernetes release no longer serves, named with the release and the replacement; a version it still serves but has deprecated is a warning naming the release that removes it",
  ),
  messages(
    "work-budget",
    "error",
    "A document needs more work than kunion spends on one document.",
    "a document's validation rules need more work than kunion's bound on one document (2e7 cost units, twice the API server's per-object budget): its remaining rules are not checked",
  ),
  messages(
    "status-ignored",
    "notice",
    "The status of a custom resource is ignored by the API server.",
    "an object's status is not validated: its CRD has the status subresource, so the API server drops status on create and update",
  ),
  messages(
    "conversion",
    "error",
    "A Conversion declaration cannot be used.",
    "a Conversion declaration does not compile, names no CRD, or an object has no declared conversion",
  ),
  messages(
    "round-trip",
    "error",
    "An object does not survive conversion to another version and back.",
    "a sample object converted to another version and back through a Conversion declaration comes back different",
  ),
  messages(
    "input",
    "error",
    "A file of the checkout cannot be read.",
    "a file cannot be read: outside the checkout, a symbolic link (a notice), over 10 MiB, or unreadable; or a file named as CRDs (`--crd`) holds none",
  ),
  messages(
    "skipped",
    "notice",
    "Files were not checked.",
    "files that hold templates (`{{ … }}`) are not checked, and findings past `--max-per-file` are not shown",
  ),
  messages(
    "reject",
    "error",
    "An object is of a rejected kind.",
    "an object is of a kind `kunion validate --reject` names",
  ),
  messages(
    "config",
    "error",
    "The configuration file is not valid.",
    "`.kunion.yaml` is not valid: an unknown key, a wrong type, an unknown rule id in a waiver (with its line)",
  ),
  messages(
    "waiver",
    "notice",
    "A waiver or baseline entry accepted a finding, or no longer applies.",
    "a waiver of `.kunion.yaml` is past its expiry date and no longer applies, or a baseline entry matches no finding any more",
  ),
];

/** A rule of docs/evolution.md's table, as src/evolution's catalog describes it. */
export interface CatalogRule {
  id: string;
  severity: RuleDoc["severity"];
  description: string;
}

/** `crd-removed` is kunion's own id beside the evolution catalog (a file's CRD gone). */
const crdRemoved: CatalogRule = {
  id: "crd-removed",
  severity: "error",
  description:
    "kunion's own id: a CustomResourceDefinition of the old file is gone from the new one, or a deleted file held a CRD that was served or stored",
};

/** Every rule kunion reports: the message rules, then the evolution catalog's, then `crd-removed`. */
export function ruleDocsOf(evolution: readonly CatalogRule[]): RuleDoc[] {
  const evolutionDoc = (r: CatalogRule): RuleDoc => ({
    id: r.id,
    summary: sentence(r.description.replace(/^kunion's own id[^:]*: /, "").split(": ")[0] ?? r.description),
    description: r.description,
    severity: r.severity,
    uri: `${docsUri}evolution.md#${r.id}`,
  });
  return [...messageRules, ...evolution.map(evolutionDoc), evolutionDoc(crdRemoved)];
}

const sentence = (text: string) => {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${t.endsWith(".") ? "" : "."}`;
};

/** The help of a rule, as Markdown: what it reports, its default, how to accept an intended break, the docs. */
export function ruleHelpMarkdown(rule: RuleDoc): string {
  return [
    `**${rule.id}** (default: ${rule.severity}): ${rule.description}.`,
    "",
    `To accept an intended finding, add a waiver to \`.kunion.yaml\` (\`waivers: [{rule: ${rule.id}, path: "…", reason: "…"}]\`) or record it in a baseline (\`kunion check --write-baseline\`).`,
    "",
    `[Documentation](${rule.uri})`,
  ].join("\n");
}

/** The same help as plain text. */
export function ruleHelpText(rule: RuleDoc): string {
  return `${rule.id} (default: ${rule.severity}): ${rule.description}. To accept an intended finding, add a waiver to .kunion.yaml or record it in a baseline. ${rule.uri}`;
}
