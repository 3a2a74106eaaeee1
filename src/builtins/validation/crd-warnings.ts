/**
 * The warnings the API server sends back when it accepts a CRD whose schema names a `format` it
 * does not recognize (since Kubernetes 1.34): `unrecognized format "<format>"`, one per distinct
 * format, as `kubectl apply` prints them after `Warning: `.
 *
 * Where it comes from (apiextensions-apiserver):
 * - pkg/registry/customresourcedefinition/strategy.go, `WarningsOnCreate`: every schema node of
 *   `spec.validation.openAPIV3Schema` (v1beta1's shared schema) and then of each
 *   `spec.versions[*].schema.openAPIV3Schema` is visited by `validation.SchemaHas`, and each
 *   format `GetUnrecognizedFormats` reports becomes `fmt.Sprintf("unrecognized format %q", f)`,
 *   judged at `environment.DefaultCompatibilityVersion()`: one minor below the server's own.
 * - pkg/apiserver/validation/formats.go, `GetUnrecognizedFormats` and `supportedVersionedFormats`.
 * - apiserver's warning recorder (endpoints/filters/warning.go) drops a text it has already sent,
 *   so a format used many times warns once.
 *
 * What each minor judges (its latest patch: kunion models minors, so 1.34.0's regression, which
 * warned on `int32`, `int64`, `float` and `double` because the node's type was not passed, fixed
 * in 1.34.1 by kubernetes#133896/#133901, is not modelled):
 * - before 1.34: no warning.
 * - 1.34 and 1.35: only a node of `type: string` is judged; its format, dashes removed, must be
 *   one of the supported set at the compatibility version (`k8s-short-name` and `k8s-long-name`
 *   only from compatibility version 1.34, so they warn on 1.34 and not on 1.35).
 * - 1.36 (kubernetes#136582): an untyped or string node as above; `integer` takes `int32` or
 *   `int64`, `number` takes `float` or `double`; any format on another type (array, object,
 *   boolean) warns.
 *
 * WarningsOnUpdate warns only for formats the stored CRD did not already report: a caller
 * modelling an update filters these by the old CRD's texts.
 */
import type { Finding } from "../../findings/index.js";
import { quote } from "../../go/index.js";
import { type FieldPath, type PathSegment, schemaProperty } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { wholeWarning } from "./node-labels.js";

/** formats.go `supportedVersionedFormats`, normalized (dashes removed), by the minor that introduced them. */
const supportedFormats: readonly { since: number; formats: readonly string[] }[] = [
  {
    since: 0,
    formats: [
      "bsonobjectid",
      "uri",
      "email",
      "hostname",
      "ipv4",
      "ipv6",
      "cidr",
      "mac",
      "uuid",
      "uuid3",
      "uuid4",
      "uuid5",
      "isbn",
      "isbn10",
      "isbn13",
      "creditcard",
      "ssn",
      "hexcolor",
      "rgbcolor",
      "byte",
      "password",
      "date",
      "duration",
      "datetime",
    ],
  },
  { since: 34, formats: ["k8sshortname", "k8slongname"] },
];

const stringFormatsAt = (compatibility: number): Set<string> =>
  new Set(supportedFormats.filter((v) => compatibility >= v.since).flatMap((v) => v.formats));

/** Whether GetUnrecognizedFormats (as the given minor has it) reports this node's format. */
function unrecognized(type: string, format: string, minor: number, strings: Set<string>): boolean {
  const asString = () => !strings.has(format.replaceAll("-", ""));
  if (minor < 36) return type === "string" && asString();
  switch (type) {
    case "":
    case "string":
      return asString();
    case "integer":
      return format !== "int32" && format !== "int64";
    case "number":
      return format !== "float" && format !== "double";
    default:
      return true;
  }
}

/** A schema node in the walk: its path is its parent's and then `segments`, built only for a warning. */
interface Frame {
  node: JsonObject;
  up: Frame | undefined;
  segments: readonly PathSegment[];
}

function pathOf(frame: Frame): FieldPath {
  const parts: (readonly PathSegment[])[] = [];
  for (let f: Frame | undefined = frame; f !== undefined; f = f.up) parts.push(f.segments);
  return parts.reverse().flat();
}

/**
 * The schema nodes below `frame`'s, in the order apiextensions validation.go `SchemaHas` visits
 * them: items (one schema or a list), allOf, anyOf, oneOf, not, properties,
 * additionalProperties, patternProperties, additionalItems, definitions, dependencies. Go
 * visits a map in random order; here a map's entries come in the order they were written.
 */
function children(frame: Frame): Frame[] {
  const { node } = frame;
  const out: Frame[] = [];
  const add = (child: JsonValue | undefined, segments: readonly PathSegment[]) => {
    if (isObject(child)) out.push({ node: child, up: frame, segments });
  };
  const list = (key: string) => {
    const v = getKey(node, key);
    if (Array.isArray(v))
      v.forEach((s, i) => {
        add(s, [key, i]);
      });
  };
  const map = (key: string, segments: (name: string) => PathSegment[]) => {
    const v = getKey(node, key);
    if (isObject(v)) for (const name of Object.keys(v)) add(getKey(v, name), segments(name));
  };
  const keyed = (key: string) => (name: string) => [key, { key: name }];
  add(getKey(node, "items"), ["items"]);
  list("items");
  list("allOf");
  list("anyOf");
  list("oneOf");
  add(getKey(node, "not"), ["not"]);
  map("properties", schemaProperty);
  add(getKey(node, "additionalProperties"), ["additionalProperties"]);
  map("patternProperties", keyed("patternProperties"));
  add(getKey(node, "additionalItems"), ["additionalItems"]);
  map("definitions", keyed("definitions"));
  // A dependency is a schema or a list of property names; only schemas are visited.
  map("dependencies", keyed("dependencies"));
  return out;
}

/**
 * The warnings the API server of release 1.`minor` sends when `crd` (the CRD document's value)
 * is created: `unrecognized format "<format>"`, the whole text as the server sends it, placed at
 * the first `format` key that brings it (`spec.versions[0].schema.openAPIV3Schema.properties[x].format`).
 */
export function unrecognizedFormatWarnings(crd: JsonObject, minor: number): Finding[] {
  if (minor < 34) return [];
  const strings = stringFormatsAt(minor - 1);
  const spec = getKey(crd, "spec");
  if (!isObject(spec)) return [];
  const roots: [JsonValue | undefined, FieldPath][] = [];
  const validation = getKey(spec, "validation");
  if (isObject(validation))
    roots.push([getKey(validation, "openAPIV3Schema"), ["spec", "validation", "openAPIV3Schema"]]);
  const versions = getKey(spec, "versions");
  if (Array.isArray(versions))
    versions.forEach((v, i) => {
      const schema = isObject(v) ? getKey(v, "schema") : undefined;
      if (isObject(schema))
        roots.push([getKey(schema, "openAPIV3Schema"), ["spec", "versions", i, "schema", "openAPIV3Schema"]]);
    });

  const out: Finding[] = [];
  const sent = new Set<string>();
  for (const [root, rootPath] of roots) {
    if (!isObject(root)) continue;
    // Depth first, a node before its children, as SchemaHas; a stack rather than recursion.
    const stack: Frame[] = [{ node: root, up: undefined, segments: rootPath }];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const { node } = next;
      const format = getKey(node, "format");
      // A null type decodes as no type at all.
      const type = getKey(node, "type") ?? "";
      if (typeof format === "string" && format !== "" && typeof type === "string") {
        const text = `unrecognized format ${quote(format)}`;
        if (!sent.has(text) && unrecognized(type, format, minor, strings)) {
          sent.add(text);
          out.push(wholeWarning([...pathOf(next), "format"], text));
        }
      }
      const below = children(next);
      for (let i = below.length - 1; i >= 0; i--) stack.push(below[i] as Frame);
    }
  }
  return out;
}
