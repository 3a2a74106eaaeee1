/**
 * Telling a template (a Helm chart's file, not a manifest until rendered) from a manifest whose strings
 * hold `{{ … }}` of their own: Argo Workflows' `{{inputs.parameters.message}}`, a PrometheusRule's
 * `{{ $labels.instance }}`, an Alertmanager template kept in a ConfigMap. Those are checked; templates are
 * left out with one notice.
 */
import type { ParsedSource } from "../source/index.js";
import type { JsonValue } from "../value/index.js";

/** Whether a text may hold templates at all: `{{` outside a comment line. Cheap, so it runs before parsing. */
export function looksLikeTemplate(text: string): boolean {
  // The line scan runs only where a `{{` is at all: most files have none, and the scan is costly on large ones.
  return text.includes("{{") && /^(?!\s*#).*\{\{/m.test(text);
}

/** An action that names Helm's own objects or functions: a chart's, never a manifest's. */
const helmAction =
  /\{\{-?[^}]*?(?:\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|\b(?:include|tpl|toYaml|nindent|required)\b)/;

/**
 * Whether `text`, read as `parsed`, holds templates: an action names Helm's objects or functions, or a
 * `{{` stands where the YAML has neither a string nor a comment (a `{{- if … }}` line, an unquoted `{{ .x }}`
 * value, a document that did not parse). Every other `{{` is inside a string of a manifest, or a comment.
 */
export function holdsTemplates(text: string, parsed: ParsedSource): boolean {
  if (!looksLikeTemplate(text)) return false;
  if (helmAction.test(text)) return true;
  let inStrings = 0;
  for (const d of parsed.documents) inStrings += opensIn(d.value);
  // Comments are no strings: a `#` after a blank starts one, here as in YAML (inside a string it may not,
  // and that `{{` is then left out of the text's count only, which errs towards a manifest).
  let inText = 0;
  for (const line of text.split("\n")) inText += opens(line.replace(/(?:^|\s)#.*$/, ""));
  return inStrings < inText;
}

const opens = (s: string) => s.split("{{").length - 1;

/** The `{{` in the strings of a value, its keys included (an alias's strings count again: never fewer). */
function opensIn(value: JsonValue): number {
  let n = 0;
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as JsonValue;
    if (typeof v === "string") n += opens(v);
    else if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (v !== null && typeof v === "object")
      for (const [k, item] of Object.entries(v)) {
        n += opens(k);
        stack.push(item);
      }
  }
  return n;
}
