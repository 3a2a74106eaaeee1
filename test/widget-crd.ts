/**
 * The CustomResourceDefinition the tests and benchmarks deploy (src/, functions/, test/, bench/):
 * a namespaced kind of example.com, `Widget` unless told otherwise, written once so each caller
 * says only what its CRD changes. The layout is fixed, as the callers' line numbers count on it:
 * with one version, the properties start on line 16 and the text ends with their last line.
 */

export interface WidgetCrd {
  /** The kind; its plural (and the CRD's name, `<plural>.example.com`) is its lowercase name and an s. */
  kind?: string;
  /** The version names, each served and with the same schema; the first is the storage version. */
  versions?: string[];
  /** Each version has the status subresource. */
  statusSubresource?: boolean;
  /** The openAPIV3Schema's properties (`spec`, `status`) as YAML lines without indent. */
  properties?: string;
}

export function widgetCrd({
  kind = "Widget",
  versions = ["v1"],
  statusSubresource = false,
  properties = "spec: {type: object, properties: {size: {type: integer}}}",
}: WidgetCrd = {}): string {
  const plural = `${kind.toLowerCase()}s`;
  const schema = properties
    .trimEnd()
    .split("\n")
    .map((line) => `          ${line}\n`)
    .join("");
  const subresources = statusSubresource ? "    subresources: {status: {}}\n" : "";
  const version = (name: string, i: number) => `  - name: ${name}
    served: true
    storage: ${i === 0}
${subresources}    schema:
      openAPIV3Schema:
        type: object
        properties:
${schema}`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.example.com}
spec:
  group: example.com
  names: {kind: ${kind}, plural: ${plural}}
  scope: Namespaced
  versions:
${versions.map(version).join("")}`;
}
