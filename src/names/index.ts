/**
 * apimachinery's name and label syntax (pkg/util/validation and
 * pkg/api/validation/path), each returning the messages Go returns, word for
 * word, the name rules of kinds (NameRule), and apiVersion splitting
 * (schema.ParseGroupVersion). Object metadata (validate/), the built-in kinds'
 * validation (builtins/), CEL's format library (cel/) and the CRD checks use
 * them. Each regexp is written once, as the text Go prints in its messages,
 * and compiled from it (ours and fixed: anchored, linear, never user input).
 * Imports nothing.
 */

const dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const labelValueFmt = `(${qualifiedNameFmt})?`;

const anchored = (fmt: string) => new RegExp(`^${fmt}$`);
const dns1123Label = anchored(dns1123LabelFmt);
const dns1035Label = anchored(dns1035LabelFmt);
const qualifiedName = anchored(qualifiedNameFmt);

/** Byte length as Go's len(string) (UTF-8). */
export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** validation.RegexError: each example is written `'x', ` and joined by ` or `, hence the double space. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

export const maxLenError = (n: number) => `must be no more than ${n} characters`;
export const emptyError = () => "must be non-empty";

/** Subdomain: labels joined by dots (split first, so the check stays linear). */
function matchesSubdomain(value: string): boolean {
  return value !== "" && value.split(".").every((l) => dns1123Label.test(l));
}

/**
 * The shape of apimachinery's syntax checks: too long (in bytes, as Go's
 * len), then not well formed, each with its own message, both when both.
 */
function lengthAndSyntax(value: string, maxBytes: number, wellFormed: boolean, syntaxError: () => string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > maxBytes) errs.push(maxLenError(maxBytes));
  if (!wellFormed) errs.push(syntaxError());
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  return lengthAndSyntax(value, 253, matchesSubdomain(value), () =>
    regexError(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      dns1123SubdomainFmt,
      "example.com",
    ),
  );
}

// validation.IsDNS1123SubdomainWithUnderscore: a label may start with one underscore and hold underscores
// inside. Checked label by label, as subdomains are, so the match stays linear.
const underscoreLabelFmt = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const underscoreLabel = new RegExp(`^${underscoreLabelFmt}$`);

/** What a search domain of a pod's DNS config may be once RelaxedDNSSearchValidation is on. */
export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  return lengthAndSyntax(
    value,
    253,
    value.split(".").every((label) => underscoreLabel.test(label)),
    () =>
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
        `${underscoreLabelFmt}(\\.${underscoreLabelFmt})*`,
        "example.com",
      ),
  );
}

export function isDNS1123Label(value: string): string[] {
  return lengthAndSyntax(value, 63, dns1123Label.test(value), () =>
    matchesSubdomain(value)
      ? "must not contain dots"
      : regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          dns1123LabelFmt,
          "my-name",
          "123-abc",
        ),
  );
}

export function isDNS1035Label(value: string): string[] {
  return lengthAndSyntax(value, 63, dns1035Label.test(value), () =>
    regexError(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
      dns1035LabelFmt,
      "my-name",
      "abc-123",
    ),
  );
}

const qualifiedNameErr =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) name = parts[0] as string;
  else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix === "") errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErr, qualifiedNameFmt, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name === "") errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!qualifiedName.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErr, qualifiedNameFmt, "MyName", "my.name", "123-abc")}`);
  }
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  return lengthAndSyntax(value, 63, value === "" || qualifiedName.test(value), () =>
    regexError(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      labelValueFmt,
      "MyValue",
      "my_value",
      "12345",
    ),
  );
}

/** A map's entry that breaks its rule, and the rule's messages for it: the API server reports each at the map. */
export interface EntryErrors {
  value: string;
  messages: string[];
}

/** apimachinery's ValidateLabels: each key a qualified name, each value a label value (other values are no labels). */
export function labelErrors(labels: Iterable<readonly [string, unknown]>): EntryErrors[] {
  const out: EntryErrors[] = [];
  for (const [k, v] of labels) {
    const keyErrors = isQualifiedName(k);
    if (keyErrors.length > 0) out.push({ value: k, messages: keyErrors });
    const valueErrors = typeof v === "string" ? isValidLabelValue(v) : [];
    if (valueErrors.length > 0) out.push({ value: v as string, messages: valueErrors });
  }
  return out;
}

/** apimachinery's TotalAnnotationSizeLimitB. */
export const totalAnnotationSizeLimit = 256 * 1024;

/**
 * ValidateAnnotations: each key a qualified name whatever its case, and the keys and values together
 * (`bytes`) within totalAnnotationSizeLimit.
 */
export function annotationErrors(annotations: Iterable<readonly [string, unknown]>): {
  keys: EntryErrors[];
  bytes: number;
} {
  const keys: EntryErrors[] = [];
  let bytes = 0;
  for (const [k, v] of annotations) {
    const messages = isQualifiedName(k.toLowerCase());
    if (messages.length > 0) keys.push({ value: k, messages });
    bytes += byteLength(k) + (typeof v === "string" ? byteLength(v) : 0);
  }
  return { keys, bytes };
}

/** validation.IsConfigMapKey: the key of a ConfigMap's or a Secret's data, and what a key selector names. */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (byteLength(key) > 253) errs.push(maxLenError(253));
  if (!/^[-._a-zA-Z0-9]+$/.test(key))
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        "[-._a-zA-Z0-9]+",
        "key.name",
        "KEY_NAME",
        "key-name",
      ),
    );
  if (key === ".") errs.push("must not be '.'");
  else if (key === "..") errs.push("must not be '..'");
  else if (key.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}

/**
 * validation.IsRelaxedEnvVarName, what the API server asks of an environment variable's name (and an envFrom
 * prefix) since RelaxedEnvironmentVariableValidation (on by default from 1.32, GA in 1.34): printable ASCII but '='.
 */
export function isRelaxedEnvVarName(value: string): string[] {
  if (value === "") return [`environment variable name ${emptyError()}`];
  return /^[\x20-\x3c\x3e-\x7e]*$/.test(value)
    ? []
    : ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
}

/** generateName is checked as a name with its trailing dash masked (apimachinery's maskTrailingDash). */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

/** path.ValidatePathSegmentName: the rule for names of embedded resources. */
export function isValidPathSegmentName(name: string, prefix: boolean): string[] {
  if (!prefix && (name === "." || name === "..")) return [`may not be '${name}'`];
  return ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** A kind's rule for `metadata.name` (`prefix`: checking a generateName). */
export type NameRule = (name: string, prefix: boolean) => string[];

/** apimachinery NameIsDNSSubdomain: most kinds. */
export const nameIsDNSSubdomain: NameRule = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
/** apimachinery NameIsDNSLabel: Namespace. */
export const nameIsDNSLabel: NameRule = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
/** apimachinery NameIsDNS1035Label: Service. */
export const nameIsDNS1035Label: NameRule = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/**
 * An apiVersion's group and version, split at its first slash as
 * apimachinery's `schema.ParseGroupVersion` does; a bare version is the core
 * group's. Whether either part is well formed is the caller's question.
 */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
