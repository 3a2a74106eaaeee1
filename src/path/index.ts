/**
 * Kubernetes field paths as the API server prints them:
 * `spec.template.spec.containers[0].env[2].valueFrom`, map keys in brackets
 * (`metadata.labels[app.kubernetes.io/name]`). A path is a list of segments;
 * `formatPath` renders it. Imports nothing.
 */

/** A property name (string) or a list index (number); `{ key }` is a map key. */
export type PathSegment = string | number | { key: string };
export type FieldPath = readonly PathSegment[];

export function child(path: FieldPath, ...segments: PathSegment[]): FieldPath {
  return [...path, ...segments];
}

/** `field.Path.String()` of apimachinery: dots between names, brackets for indexes and keys. */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (typeof seg === "string") out += out === "" ? seg : `.${seg}`;
    else out += `[${seg.key}]`;
  }
  return out;
}

/**
 * The name kube-openapi prints inside its messages (`spec.labels.key in body
 * should match …`): it joins a map key with a dot, as it joins a property
 * (validate/object_validator.go builds `path + "." + key`), while the field
 * before the message prints it in brackets.
 */
export function formatOpenAPIName(path: FieldPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const name = typeof seg === "string" ? seg : seg.key;
      out += out === "" ? name : `.${name}`;
    }
  }
  return out;
}

/**
 * A property of a schema inside a CRD document, named as the API server names
 * it in CRD validation (apiextensions validation.go: `Child("properties").Key(name)`):
 * `openAPIV3Schema.properties[spec].properties[replicas]`.
 */
export const schemaProperty = (name: string): PathSegment[] => ["properties", { key: name }];

/** RFC 6901 JSON Pointer of a path (map keys are plain tokens there). */
export function toJsonPointer(path: FieldPath): string {
  return path
    .map(
      (seg) =>
        `/${String(typeof seg === "object" ? seg.key : seg)
          .replaceAll("~", "~0")
          .replaceAll("/", "~1")}`,
    )
    .join("");
}

/**
 * The path an RFC 6901 JSON Pointer names: `~1` and `~0` decoded, tokens of
 * digits read as list indexes (a pointer does not say whether a token is an
 * index; every caller here walks objects where digits name list items).
 */
export function fromJsonPointer(pointer: string): PathSegment[] {
  if (pointer === "") return [];
  return pointer
    .split("/")
    .slice(1)
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((t) => (/^(0|[1-9][0-9]*)$/.test(t) ? Number(t) : t));
}
