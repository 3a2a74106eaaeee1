/**
 * What the API server refuses in one CRD version's openAPIV3Schema, as its
 * field errors at its paths (apiextensions-apiserver, 1.32–1.36):
 *
 * - the structural-schema rules, `structuralViolations` (pkg/apiserver/schema
 *   validation.go ValidateStructural: validateStructuralInvariants,
 *   validateStructuralMetadataInvariants, validateExtensions,
 *   validateNestedValueValidation; complete.go validateStructuralCompleteness);
 *   the evolution rule `schema-not-structural` reports the same violations;
 * - the schema checks of pkg/apis/apiextensions/validation/validation.go:
 *   validateCustomResourceDefinitionValidation (the root: not nullable; with the
 *   status subresource, an object with allowedFieldsAtRootSchema only),
 *   ValidateCustomResourceDefinitionOpenAPISchema,
 *   validateMapListKeysMapSet and specStandardValidatorV3.validate.
 *
 * As on create: an update relaxes some of these where the stored CRD already
 * broke them (requireStructuralSchema, requireAtomicSetType,
 * requireMapListKeysMapSetValidation); not modelled. Said elsewhere, not
 * here: an unknown `type` and an invalid `pattern` (validate/compile.ts), the
 * x-kubernetes-validations rules (cel), unknown formats (a warning,
 * builtins/validation/warnings.ts), the defaults (ValidateDefaults).
 */
import { type Finding, forbidden, invalid, notSupported, required } from "../findings/index.js";
import { quote } from "../go/index.js";
import { type FieldPath, formatPath, schemaProperty } from "../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";

/** Schema nesting followed; deeper parts are not checked (the CRD's other checks say it is too deep). */
const maxDepth = 1000;

export interface VersionSchemaOptions {
  /** The Kubernetes minor (32–36): before 1.34 the API server prints a list bad value as Go's `[]string{"a"}`. */
  minor?: number;
  /** The version has the status subresource, whose schema the server cuts out of the root's properties. */
  statusSubresource?: boolean;
  /** False for apiextensions.k8s.io/v1beta1, whose servers (up to 1.21, when it was removed) refused every default. */
  allowDefaults?: boolean;
}

/**
 * The API server's errors for one version's openAPIV3Schema, placed under
 * `at` (`spec.versions[0].schema.openAPIV3Schema`): the structural ones
 * first, sorted as the server sorts them, then the others in schema order;
 * whether the schema is structural, which the server's CEL compilation
 * and defaults validation wait for; and, of the findings,
 * ValidateCustomResourceDefinitionOpenAPISchema's, the ones that keep the
 * server from compiling the rules of their node and the nodes above it
 * (the root's own rules and the structural ones are checked apart).
 */
export function validateVersionSchema(
  schema: JsonValue,
  at: FieldPath,
  options: VersionSchemaOptions = {},
): { findings: Finding[]; structural: boolean; openAPISchemaFindings: Finding[] } {
  if (!isObject(schema)) return { findings: [], structural: false, openAPISchemaFindings: [] };
  // A schema NewStructural cannot convert (an id, a $ref, items as a list…) is not checked for structure: the
  // server reports the offending keyword instead.
  const violations = convertible(schema) ? structuralViolations(schema, at).map((v) => v.error) : undefined;
  const openAPISchemaFindings = openAPISchemaErrors(schema, at, options.minor ?? 36, options.allowDefaults !== false);
  const findings = [
    ...(violations ?? []),
    ...rootErrors(schema, at, options.statusSubresource === true),
    ...openAPISchemaFindings,
  ];
  return { findings, structural: violations !== undefined && violations.length === 0, openAPISchemaFindings };
}

// ---------------------------------------------------------------------------
// Structural schemas (pkg/apiserver/schema)

/** A structural-schema violation: the server's field error, and where it is for readers of a single node. */
export interface StructuralViolation {
  /** The API server's field error, under `at`. */
  error: Finding;
  /** The node whose rule it breaks, from the schema's root, and the data path of the values it describes. */
  node: FieldPath;
  data: FieldPath;
  /** The part of the node at fault: `type`, `anyOf[0].type`, `properties[metadata]`. */
  where: FieldPath;
  /** Root metadata: what it specifies beyond name and generateName (`properties.labels`, `description`). */
  implicit?: string[];
  /** Completeness: the junctor branch `where` names a field the schema's structure lacks (the error is at that field). */
  incomplete?: boolean;
}

type Level = "root" | "item" | "field";

const emptyType: Record<Level, string> = {
  root: "must not be empty at the root",
  item: "must not be empty for specified array items",
  field: "must not be empty for specified object fields",
};

interface Place {
  path: FieldPath;
  data: FieldPath;
}

/** ValidateStructural: the violations of a version's openAPIV3Schema, sorted by message as the server sorts them. */
export function structuralViolations(schema: JsonObject, at: FieldPath): StructuralViolation[] {
  const out: StructuralViolation[] = [];
  const seen = new Set<JsonObject>();
  const seenBranches = new Set<JsonObject>();
  const add = (
    node: Place,
    where: FieldPath,
    error: (path: FieldPath) => Finding,
    extra: Partial<StructuralViolation> = {},
  ) => out.push({ error: error([...at, ...node.path, ...where]), node: node.path, data: node.data, where, ...extra });

  /** validateStructuralInvariants: one node of the structure, then its items, properties and additionalProperties. */
  const invariants = (s: JsonObject, level: Level, node: Place, depth: number): void => {
    if (seen.has(s) || depth > maxDepth) return;
    seen.add(s);
    const type = typeOf(s);
    const props = propertiesOf(s);
    const items = getKey(s, "items");
    const extra = present(getKey(s, "additionalProperties"));
    const intOrString = getKey(s, "x-kubernetes-int-or-string") === true;
    const preserve = getKey(s, "x-kubernetes-preserve-unknown-fields") === true;
    const embedded = getKey(s, "x-kubernetes-embedded-resource") === true;

    if (type === "array" && !isObject(items)) add(node, ["items"], (p) => required(p, "must be specified"));
    if (isObject(items)) {
      invariants(items, "item", { path: [...node.path, "items"], data: [...node.data, { key: "*" }] }, depth + 1);
    }
    for (const [k, p] of props) {
      invariants(p, "field", { path: [...node.path, ...schemaProperty(k)], data: [...node.data, k] }, depth + 1);
    }
    if (extra !== undefined && level === "root") {
      add(node, ["additionalProperties"], (p) => forbidden(p, "must not be used at the root"));
    }
    if (isObject(extra)) {
      const place = { path: [...node.path, "additionalProperties"], data: [...node.data, { key: "*" }] };
      invariants(extra, "field", place, depth + 1);
    }
    // validateExtensions
    const notWithIntOrString = "must be false if x-kubernetes-int-or-string is true";
    if (intOrString && preserve) {
      add(node, ["x-kubernetes-preserve-unknown-fields"], (p) => invalid(p, true, notWithIntOrString));
    }
    if (intOrString && embedded)
      add(node, ["x-kubernetes-embedded-resource"], (p) => invalid(p, true, notWithIntOrString));
    junctors(s, node, [], intOrStringAnyOf(s), intOrStringAllOf(s), depth);

    if (embedded && type !== "object") {
      const detail = "must be object if x-kubernetes-embedded-resource is true";
      add(node, ["type"], (p) => (type === "" ? required(p, detail) : invalid(p, type, detail)));
    } else if (type === "" && !intOrString && !preserve) {
      add(node, ["type"], (p) => required(p, emptyType[level]));
    }
    if (embedded && extra !== undefined) {
      const detail = "must not be used if x-kubernetes-embedded-resource is set";
      add(node, ["additionalProperties"], (p) => forbidden(p, detail));
    }
    if (level === "root" && type !== "" && type !== "object") {
      add(node, ["type"], (p) => invalid(p, type, "must be object at the root"));
    }
    // A resource (the root, an embedded one) has the type and object meta of every Kubernetes object.
    const resource = level === "root" || embedded;
    for (const k of ["kind", "apiVersion"]) {
      const typeMeta = props.get(k);
      if (typeMeta && resource && typeOf(typeMeta) !== "string") {
        add(node, [...schemaProperty(k), "type"], (p) => invalid(p, typeOf(typeMeta), "must be string"));
      }
    }
    const metadata = props.get("metadata");
    if (metadata && resource && typeOf(metadata) !== "object") {
      add(node, [...schemaProperty("metadata"), "type"], (p) => invalid(p, typeOf(metadata), "must be object"));
    }
    const implicit = metadata && level === "root" ? beyondNameAndGenerateName(metadata) : [];
    if (implicit.length > 0) {
      const detail = "must not specify anything other than name and generateName, but metadata is implicitly specified";
      add(node, schemaProperty("metadata"), (p) => forbidden(p, detail), { implicit });
    }
    if (embedded && !preserve && props.size === 0) {
      const detail =
        "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields";
      add(node, ["properties"], (p) => required(p, detail));
    }
  };

  /** validateValueValidation: the branches of allOf/anyOf/oneOf/not of `v`, at `where` under the node. */
  const junctors = (
    v: JsonObject,
    node: Place,
    where: FieldPath,
    skipAnyOf: boolean,
    skipFirstAllOfAnyOf: boolean,
    depth: number,
  ): void => {
    const branch = (b: JsonValue | undefined, at: FieldPath, skipOwnAnyOf: boolean) => {
      if (isObject(b) && depth < maxDepth) nested(b, node, at, skipOwnAnyOf, depth + 1);
    };
    const list = (kw: string) => {
      const l = getKey(v, kw);
      return Array.isArray(l) ? l : [];
    };
    if (!skipAnyOf)
      list("anyOf").forEach((b, i) => {
        branch(b, [...where, "anyOf", i], false);
      });
    list("allOf").forEach((b, i) => {
      branch(b, [...where, "allOf", i], skipFirstAllOfAnyOf && i === 0);
    });
    list("oneOf").forEach((b, i) => {
      branch(b, [...where, "oneOf", i], false);
    });
    branch(getKey(v, "not"), [...where, "not"], false);
  };

  /** validateNestedValueValidation: a junctor branch only restricts values, so it may not shape them. */
  const nested = (v: JsonObject, node: Place, where: FieldPath, skipAnyOf: boolean, depth: number): void => {
    // Each branch once: YAML aliases may share one, or contain it in itself.
    if (seenBranches.has(v)) return;
    seenBranches.add(v);
    junctors(v, node, where, skipAnyOf, false, depth);
    const items = getKey(v, "items");
    if (isObject(items) && depth < maxDepth) nested(items, node, [...where, "items"], false, depth + 1);
    const props = propertiesOf(v, true);
    for (const [k, p] of props) {
      if (depth < maxDepth) nested(p, node, [...where, ...schemaProperty(k)], false, depth + 1);
    }
    for (const [key, bad, detail] of forbiddenInJunctors) {
      const value = getKey(v, key);
      if (value !== undefined && bad(value)) add(node, [...where, key], (p) => forbidden(p, detail));
    }
    // Reasoning about metadata in a junctor could restrict it beyond name and generateName.
    if (props.has("metadata")) {
      add(node, [...where, ...schemaProperty("metadata")], (p) =>
        forbidden(p, "must not be specified in a nested context"),
      );
    }
  };

  invariants(schema, "root", { path: [], data: [] }, 0);
  completeness(schema, at, (where, error) => out.push({ error, node: [], data: [], where, incomplete: true }));
  return out.sort((a, b) => (a.error.message < b.error.message ? -1 : a.error.message > b.error.message ? 1 : 0));
}

/** What a branch of allOf/anyOf/oneOf/not must not set (validateNestedValueValidation), in the server's words. */
const forbiddenInJunctors: Array<[string, (v: JsonValue) => boolean, string]> = [
  ["type", (v) => v !== "" && v !== null, "must be empty to be structural"],
  // Only a schema: since AllowNestedAdditionalProperties (1.30) the server converts no boolean here, and how it
  // treats one was not confirmed from its source.
  ["additionalProperties", (v) => isObject(v), "must be undefined to be structural"],
  ["default", (v) => v !== null, "must be undefined to be structural"],
  ["title", (v) => v !== "" && v !== null, "must be empty to be structural"],
  ["description", (v) => v !== "" && v !== null, "must be empty to be structural"],
  ["nullable", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-preserve-unknown-fields", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-embedded-resource", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-int-or-string", (v) => v === true, "must be false to be structural"],
  ["x-kubernetes-list-map-keys", (v) => Array.isArray(v) && v.length > 0, "must be empty to be structural"],
  ["x-kubernetes-list-type", (v) => v !== null, "must be undefined to be structural"],
  ["x-kubernetes-map-type", (v) => v !== null, "must be undefined to be structural"],
  ["x-kubernetes-validations", (v) => Array.isArray(v) && v.length > 0, "must be empty to be structural"],
];

/**
 * validateStructuralCompleteness: a field or items a junctor of the root names must be specified by the
 * structure too. The server checks the root's junctors only, following their properties and items down.
 */
function completeness(root: JsonObject, at: FieldPath, report: (where: FieldPath, error: Finding) => void): void {
  const seen = new Set<JsonObject>();
  const junctors = (v: JsonObject, s: JsonObject, sPath: FieldPath, vPath: FieldPath, depth: number) => {
    const each = (list: JsonValue | undefined, kw: string) => {
      if (Array.isArray(list))
        list.forEach((b, i) => {
          branch(b, s, sPath, [...vPath, kw, i], depth + 1);
        });
    };
    branch(getKey(v, "not"), s, sPath, [...vPath, "not"], depth + 1);
    each(getKey(v, "allOf"), "allOf");
    each(getKey(v, "anyOf"), "anyOf");
    each(getKey(v, "oneOf"), "oneOf");
  };
  const branch = (
    v: JsonValue | undefined,
    s: JsonObject | undefined,
    sPath: FieldPath,
    vPath: FieldPath,
    depth: number,
  ) => {
    if (!isObject(v) || depth > maxDepth || seen.has(v)) return;
    seen.add(v);
    if (!s) {
      report(vPath, required([...at, ...sPath], `because it is defined in ${formatPath([...at, ...vPath])}`));
      return;
    }
    junctors(v, s, sPath, vPath, depth);
    const items = getKey(s, "items");
    branch(
      getKey(v, "items"),
      isObject(items) ? items : undefined,
      [...sPath, "items"],
      [...vPath, "items"],
      depth + 1,
    );
    const own = propertiesOf(s);
    for (const [k, p] of propertiesOf(v, true)) {
      branch(p, own.get(k), [...sPath, ...schemaProperty(k)], [...vPath, ...schemaProperty(k)], depth + 1);
    }
  };
  junctors(root, root, [], [], 0);
}

/** `type` as the server reads it: a string, else empty. */
const typeOf = (s: JsonObject): string => {
  const t = getKey(s, "type");
  return typeof t === "string" ? t : "";
};

/** The schemas of `properties` (NewStructural keeps a map only when it has entries; a junctor's keeps any). */
function propertiesOf(s: JsonObject, nested = false): Map<string, JsonObject> {
  const props = getKey(s, "properties");
  const out = new Map<string, JsonObject>();
  if (!isObject(props) || (!nested && Object.keys(props).length === 0)) return out;
  for (const k of Object.keys(props)) {
    const p = getKey(props, k);
    if (isObject(p)) out.set(k, p);
  }
  return out;
}

/** A JSON null decodes to Go's nil: absent. */
const present = (v: JsonValue | undefined): JsonValue | undefined => (v === null ? undefined : v);

/** The two int-or-string spellings the server lets name types: `anyOf: [integer, string]`, alone or first in allOf. */
const isIntOrStringPair = (list: JsonValue | undefined): boolean =>
  Array.isArray(list) && list.length === 2 && onlyType(list[0], "integer") && onlyType(list[1], "string");
const intOrStringAnyOf = (s: JsonObject) => isIntOrStringPair(getKey(s, "anyOf"));
const intOrStringAllOf = (s: JsonObject) => {
  const allOf = getKey(s, "allOf");
  return Array.isArray(allOf) && isObject(allOf[0]) && isIntOrStringPair(getKey(allOf[0], "anyOf"));
};

/** A schema that sets nothing the structural schema keeps but this `type`. */
function onlyType(b: JsonValue | undefined, type: string): boolean {
  if (!isObject(b) || getKey(b, "type") !== type) return false;
  return Object.keys(b).every((k) => k === "type" || !structuralKeys.has(k) || !setInGo(getKey(b, k) as JsonValue));
}

/**
 * The keywords NewStructural keeps (Generic, Extensions, ValueValidation, the
 * x-kubernetes-validations, items, properties); `example` and `externalDocs`
 * are dropped, so they never make a schema non-structural.
 */
const structuralKeys = new Set([
  "description",
  "type",
  "title",
  "default",
  "additionalProperties",
  "nullable",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-list-type",
  "x-kubernetes-map-type",
  "x-kubernetes-validations",
  "format",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "multipleOf",
  "enum",
  "maxProperties",
  "minProperties",
  "required",
  "allOf",
  "oneOf",
  "anyOf",
  "not",
  "items",
  "properties",
]);

/** A value that is not Go's zero value once decoded (empty lists and maps are taken as unset: the lenient side). */
function setInGo(v: JsonValue): boolean {
  if (v === null || v === "" || v === false) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

/**
 * validateStructuralMetadataInvariants at the root: metadata may restrict
 * name and generateName only. What else it specifies, as `properties.labels`
 * or the keyword; type and default are checked elsewhere.
 */
function beyondNameAndGenerateName(metadata: JsonObject): string[] {
  const props = [...propertiesOf(metadata).keys()];
  const onlyNames = props.every((k) => k === "name" || k === "generateName");
  const others = onlyNames
    ? []
    : props.filter((k) => k !== "name" && k !== "generateName").map((k) => `properties.${k}`);
  const keys = Object.keys(metadata).filter(
    (k) =>
      k !== "type" &&
      k !== "default" &&
      k !== "properties" &&
      structuralKeys.has(k) &&
      setInGo(getKey(metadata, k) as JsonValue),
  );
  return [...others, ...keys];
}

/**
 * NewStructural's refusals (validateUnsupportedFields, items as a list, x-kubernetes-preserve-unknown-fields:
 * false), which the server reports through ValidateCustomResourceDefinitionOpenAPISchema instead.
 */
function convertible(s: JsonObject, seen = new Set<JsonObject>()): boolean {
  // A schema seen before is judged where it was first met.
  if (seen.has(s)) return true;
  seen.add(s);
  const nonEmpty = (k: string) => {
    const v = getKey(s, k);
    return isObject(v) ? Object.keys(v).length > 0 : false;
  };
  const text = (k: string) => {
    const v = getKey(s, k);
    return typeof v === "string" && v !== "";
  };
  if (text("id") || text("$schema") || text("$ref") || nonEmpty("patternProperties") || nonEmpty("dependencies")) {
    return false;
  }
  if (present(getKey(s, "additionalItems")) !== undefined || nonEmpty("definitions")) return false;
  if (getKey(s, "x-kubernetes-preserve-unknown-fields") === false) return false;
  const items = getKey(s, "items");
  if (Array.isArray(items) && items.length > 0) return false;
  const children: JsonValue[] = [...propertiesOf(s, true).values()];
  for (const k of ["items", "additionalProperties", "not"]) {
    const v = getKey(s, k);
    if (isObject(v)) children.push(v);
  }
  for (const k of ["allOf", "anyOf", "oneOf"]) {
    const v = getKey(s, k);
    if (Array.isArray(v)) children.push(...v);
  }
  return children.every((c) => !isObject(c) || convertible(c, seen));
}

// ---------------------------------------------------------------------------
// ValidateCustomResourceDefinitionOpenAPISchema (pkg/apis/apiextensions/validation)

interface Context {
  root: boolean;
  /** Inside the schema of a resource's metadata, kind or apiVersion (the root's, or an embedded resource's). */
  insideMeta: boolean;
  /** Why defaults are forbidden here (withForbiddenDefaults; empty: no reason given), if they are. */
  noDefaults?: string;
}

const metaFields = new Set(["metadata", "kind", "apiVersion"]);

/**
 * JSONSchemaProps' fields in the order of the internal Go struct (apiextensions types_jsonschema.go), by their JSON
 * names, with how Go decodes each: "pointer" fields are unset only when absent or null; "collection" fields (slices
 * and maps) likewise, since `[]` and `{}` decode to empty but non-nil values; "scalar" fields (strings and bools) are
 * unset as their zero value too.
 */
const schemaFieldsInGoOrder: ReadonlyArray<readonly [string, string, "scalar" | "pointer" | "collection"]> = [
  ["id", "ID", "scalar"],
  ["$schema", "Schema", "scalar"],
  ["$ref", "Ref", "pointer"],
  ["description", "Description", "scalar"],
  ["type", "Type", "scalar"],
  ["nullable", "Nullable", "scalar"],
  ["format", "Format", "scalar"],
  ["title", "Title", "scalar"],
  ["default", "Default", "pointer"],
  ["maximum", "Maximum", "pointer"],
  ["exclusiveMaximum", "ExclusiveMaximum", "scalar"],
  ["minimum", "Minimum", "pointer"],
  ["exclusiveMinimum", "ExclusiveMinimum", "scalar"],
  ["maxLength", "MaxLength", "pointer"],
  ["minLength", "MinLength", "pointer"],
  ["pattern", "Pattern", "scalar"],
  ["maxItems", "MaxItems", "pointer"],
  ["minItems", "MinItems", "pointer"],
  ["uniqueItems", "UniqueItems", "scalar"],
  ["multipleOf", "MultipleOf", "pointer"],
  ["enum", "Enum", "collection"],
  ["maxProperties", "MaxProperties", "pointer"],
  ["minProperties", "MinProperties", "pointer"],
  ["required", "Required", "collection"],
  ["items", "Items", "pointer"],
  ["allOf", "AllOf", "collection"],
  ["oneOf", "OneOf", "collection"],
  ["anyOf", "AnyOf", "collection"],
  ["not", "Not", "pointer"],
  ["properties", "Properties", "collection"],
  ["additionalProperties", "AdditionalProperties", "pointer"],
  ["patternProperties", "PatternProperties", "collection"],
  ["dependencies", "Dependencies", "collection"],
  ["additionalItems", "AdditionalItems", "pointer"],
  ["definitions", "Definitions", "collection"],
  ["externalDocs", "ExternalDocs", "pointer"],
  ["example", "Example", "pointer"],
  ["x-kubernetes-preserve-unknown-fields", "XPreserveUnknownFields", "pointer"],
  ["x-kubernetes-embedded-resource", "XEmbeddedResource", "scalar"],
  ["x-kubernetes-int-or-string", "XIntOrString", "scalar"],
  ["x-kubernetes-list-map-keys", "XListMapKeys", "collection"],
  ["x-kubernetes-list-type", "XListType", "pointer"],
  ["x-kubernetes-map-type", "XMapType", "pointer"],
  ["x-kubernetes-validations", "XValidations", "collection"],
];

/** The fields validation.go's allowedFieldsAtRootSchema lets a root with the status subresource have, as Go prints it. */
const allowedFieldsAtRootSchema = [
  "Description",
  "Type",
  "Format",
  "Title",
  "Maximum",
  "ExclusiveMaximum",
  "Minimum",
  "ExclusiveMinimum",
  "MaxLength",
  "MinLength",
  "Pattern",
  "MaxItems",
  "MinItems",
  "UniqueItems",
  "MultipleOf",
  "Required",
  "Items",
  "Properties",
  "ExternalDocs",
  "Example",
  "XPreserveUnknownFields",
  "XValidations",
];

/**
 * validateCustomResourceDefinitionValidation's rules for the root. With the status subresource it walks the root's
 * fields in JSONSchemaProps' order, skipping those Go decodes as zero, and stops at the first it refuses: a type
 * other than "object", or a field outside allowedFieldsAtRootSchema. The server prints the whole root schema as
 * the bad value of the latter (a Go struct); kunion prints it as JSON.
 */
function rootErrors(schema: JsonObject, at: FieldPath, statusSubresource: boolean): Finding[] {
  const out: Finding[] = [];
  if (statusSubresource) {
    for (const [key, goName, kind] of schemaFieldsInGoOrder) {
      const v = getKey(schema, key);
      if (v === undefined || v === null || (kind === "scalar" && (v === "" || v === false))) continue;
      if (goName === "Type") {
        // a type that is not a string fails the decoding, said elsewhere
        if (v === "object" || typeof v !== "string") continue;
        const detail =
          'only "object" is allowed as the type at the root of the schema if the status subresource is enabled';
        out.push(invalid([...at, "type"], v, detail));
        break;
      }
      if (!allowedFieldsAtRootSchema.includes(goName)) {
        const detail = `only [${allowedFieldsAtRootSchema.join(" ")}] fields are allowed at the root of the schema if the status subresource is enabled`;
        out.push(invalid(at, schema, detail));
        break;
      }
    }
  }
  if (getKey(schema, "nullable") === true)
    out.push(forbidden([...at, "nullable"], "nullable cannot be true at the root"));
  return out;
}

/** ValidateCustomResourceDefinitionOpenAPISchema: each schema of the tree, junctor branches included, in schema order. */
function openAPISchemaErrors(schema: JsonObject, at: FieldPath, minor: number, allowDefaults: boolean): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<JsonObject>();
  const visit = (s: JsonObject, path: FieldPath, ctx: Context, depth: number): void => {
    if (seen.has(s) || depth > maxDepth) return;
    seen.add(s);
    out.push(...standardErrors(s, path, ctx));
    if (getKey(s, "uniqueItems") === true) {
      out.push(
        forbidden(
          [...path, "uniqueItems"],
          "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ),
      );
    }
    const child = (v: JsonValue | undefined, p: FieldPath, c: Context) => {
      if (isObject(v)) visit(v, p, c, depth + 1);
    };
    const plain: Context = { ...ctx, root: false };
    const props = getKey(s, "properties");
    const hasProps = isObject(props) && Object.keys(props).length > 0;
    const extra = present(getKey(s, "additionalProperties"));
    if (extra !== undefined) {
      if (hasProps && (extra === false || isObject(extra))) {
        out.push(
          forbidden([...path, "additionalProperties"], "additionalProperties and properties are mutual exclusive"),
        );
      }
      // Defaults under a map of resource metadata (labels, annotations) would be ambiguous to prune.
      const noDefaults = ctx.insideMeta ? "inside additionalProperties applying to object metadata" : ctx.noDefaults;
      child(extra, [...path, "additionalProperties"], { ...plain, noDefaults });
    }
    if (isObject(props)) {
      const embedded = getKey(s, "x-kubernetes-embedded-resource") === true;
      for (const k of Object.keys(props)) {
        let c = plain;
        if ((ctx.root || embedded) && metaFields.has(k)) {
          c = { ...c, insideMeta: true, noDefaults: ctx.root ? `in top-level ${k}` : c.noDefaults };
        }
        child(getKey(props, k), [...path, ...schemaProperty(k)], c);
      }
    }
    child(getKey(s, "not"), [...path, "not"], plain);
    for (const kw of ["allOf", "oneOf", "anyOf"]) {
      const list = getKey(s, kw);
      if (Array.isArray(list))
        list.forEach((b, i) => {
          child(b, [...path, kw, i], plain);
        });
    }
    const named = (kw: string) => {
      const map = getKey(s, kw);
      if (isObject(map)) for (const k of Object.keys(map)) child(getKey(map, k), [...path, kw, { key: k }], plain);
    };
    named("definitions");
    const items = getKey(s, "items");
    if (Array.isArray(items)) {
      items.forEach((b, i) => {
        child(b, [...path, "items", i], plain);
      });
    } else child(items, [...path, "items"], plain);
    named("dependencies");
    out.push(...extensionErrors(s, path, minor));
  };
  visit(schema, at, { root: true, insideMeta: false, noDefaults: allowDefaults ? undefined : "" }, 0);
  return out;
}

/** specStandardValidatorV3.validate: keywords CRDs do not support. */
function standardErrors(s: JsonObject, path: FieldPath, ctx: Context): Finding[] {
  const out: Finding[] = [];
  const at = (k: string) => [...path, k];
  if (ctx.noDefaults !== undefined && present(getKey(s, "default")) !== undefined) {
    out.push(forbidden(at("default"), ctx.noDefaults === "" ? "must not be set" : `must not be set ${ctx.noDefaults}`));
  }
  const id = getKey(s, "id");
  if (typeof id === "string" && id !== "") out.push(forbidden(at("id"), "id is not supported"));
  if (present(getKey(s, "additionalItems")) !== undefined) {
    out.push(forbidden(at("additionalItems"), "additionalItems is not supported"));
  }
  for (const k of ["patternProperties", "definitions"]) {
    const v = getKey(s, k);
    if (isObject(v) && Object.keys(v).length > 0) out.push(forbidden(at(k), `${k} is not supported`));
  }
  if (present(getKey(s, "dependencies")) !== undefined)
    out.push(forbidden(at("dependencies"), "dependencies is not supported"));
  if (typeof getKey(s, "$ref") === "string") out.push(forbidden(at("$ref"), "$ref is not supported"));
  if (getKey(s, "type") === "null") {
    out.push(forbidden(at("type"), "type cannot be set to null, use nullable as an alternative"));
  }
  const items = getKey(s, "items");
  if (Array.isArray(items) && items.length > 0) {
    out.push(forbidden(at("items"), "items must be a schema object and not an array"));
  }
  if (ctx.insideMeta && getKey(s, "x-kubernetes-embedded-resource") === true) {
    out.push(forbidden(at("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"));
  }
  return out;
}

/** The x-kubernetes-* checks of ValidateCustomResourceDefinitionOpenAPISchema and validateMapListKeysMapSet. */
function extensionErrors(s: JsonObject, path: FieldPath, minor: number): Finding[] {
  const out: Finding[] = [];
  const at = (...segments: FieldPath) => [...path, ...segments];
  const type = typeOf(s);
  const mustBe = (detail: string) =>
    out.push(type === "" ? required(at("type"), detail) : invalid(at("type"), type, detail));

  if (getKey(s, "x-kubernetes-preserve-unknown-fields") === false) {
    out.push(invalid(at("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"));
  }
  const mapType = getKey(s, "x-kubernetes-map-type");
  if (typeof mapType === "string") {
    if (type !== "object") mustBe("must be object if x-kubernetes-map-type is specified");
    if (mapType !== "atomic" && mapType !== "granular") {
      out.push(notSupported(at("x-kubernetes-map-type"), mapType, ["atomic", "granular"]));
    }
  }

  const listType = getKey(s, "x-kubernetes-list-type");
  const items = getKey(s, "items");
  if (typeof listType === "string" && type !== "array") {
    mustBe("must be array if x-kubernetes-list-type is specified");
  } else if (listType === "set" && isObject(items)) {
    // Set items are compared whole: a nested list or map must be atomic too.
    const detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
    const itemsListType = getKey(items, "x-kubernetes-list-type");
    if (typeOf(items) === "array" && typeof itemsListType === "string" && itemsListType !== "atomic") {
      out.push(invalid(at("items", "x-kubernetes-list-type"), itemsListType, detail));
    }
    if (typeOf(items) === "object" && getKey(items, "x-kubernetes-map-type") !== "atomic") {
      // The server prints the items' x-kubernetes-list-type here, not the map type: "null" when unset.
      const shown = typeof itemsListType === "string" ? itemsListType : "null";
      out.push(invalid(at("items", "x-kubernetes-map-type"), shown, detail));
    }
  }
  if (typeof listType === "string" && listType !== "atomic" && listType !== "set" && listType !== "map") {
    out.push(notSupported(at("x-kubernetes-list-type"), listType, ["atomic", "set", "map"]));
  }

  // A list of anything but strings does not decode: the CRD's own schema reports it.
  const rawKeys = getKey(s, "x-kubernetes-list-map-keys");
  if (Array.isArray(rawKeys) && !rawKeys.every((k) => typeof k === "string")) return out;
  const keys = Array.isArray(rawKeys) ? (rawKeys as string[]) : [];
  if (keys.length > 0 && listType !== "map") {
    const detail = "must be map if x-kubernetes-list-map-keys is non-empty";
    if (typeof listType === "string") out.push(invalid(at("x-kubernetes-list-type"), listType, detail));
    else out.push(required(at("x-kubernetes-list-type"), detail));
  }
  if (listType === "map") {
    if (keys.length === 0) {
      out.push(required(at("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"));
    }
    if (present(items) === undefined) {
      out.push(required(at("items"), "must have a schema if x-kubernetes-list-type is map"));
    } else if (isObject(items) && typeOf(items) !== "object") {
      const detail = "must be object if parent array's x-kubernetes-list-type is map";
      out.push(invalid(at("items", "type"), typeOf(items), detail));
    } else if (isObject(items)) {
      out.push(...mapKeyErrors(items, keys, at, minor));
    }
  }
  if ((listType === "set" || listType === "map") && isObject(items))
    out.push(...mapSetItemErrors(items, listType, keys, at));
  return out;
}

/** The keys of a list-type map must name scalar properties of its items, once each. */
function mapKeyErrors(items: JsonObject, keys: string[], at: (...s: FieldPath) => FieldPath, minor: number): Finding[] {
  const out: Finding[] = [];
  const props = getKey(items, "properties");
  const seen = new Set<string>();
  for (const k of keys) {
    const p = isObject(props) ? getKey(props, k) : undefined;
    if (!isObject(p)) {
      out.push(
        listInvalid(at("x-kubernetes-list-map-keys"), keys, "entries must all be names of item properties", minor),
      );
    } else if (typeOf(p) === "array" || typeOf(p) === "object") {
      // The server prints the items' type, "object", as the bad value.
      const detail = "must be a scalar type if parent array's x-kubernetes-list-type is map";
      out.push(invalid(at("items", ...schemaProperty(k), "type"), "object", detail));
    }
    if (seen.has(k)) {
      out.push(listInvalid(at("x-kubernetes-list-map-keys"), keys, "must not contain duplicate entries", minor));
    }
    seen.add(k);
  }
  return out;
}

/** validateMapListKeysMapSet: set and map items, and map keys, are never null; map keys are always present. */
function mapSetItemErrors(
  items: JsonObject,
  listType: string,
  keys: string[],
  at: (...s: FieldPath) => FieldPath,
): Finding[] {
  const out: Finding[] = [];
  if (getKey(items, "nullable") === true) {
    out.push(forbidden(at("items", "nullable"), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  }
  if (listType !== "map") return out;
  const requiredList = getKey(items, "required");
  const isRequired = new Set(Array.isArray(requiredList) ? requiredList : []);
  const props = getKey(items, "properties");
  for (const k of keys) {
    const p = isObject(props) ? getKey(props, k) : undefined;
    if (!isObject(p)) continue;
    if (!isRequired.has(k) && present(getKey(p, "default")) === undefined) {
      const detail =
        "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property";
      out.push(required(at("items", ...schemaProperty(k), "default"), detail));
    }
    if (getKey(p, "nullable") === true) {
      const detail = "this property is in x-kubernetes-list-map-keys, so it cannot be nullable";
      out.push(forbidden(at("items", ...schemaProperty(k), "nullable"), detail));
    }
  }
  return out;
}

/** field.Invalid with a []string bad value: Go's `%#v` (`[]string{"a", "b"}`) before 1.34, JSON from 1.34 (kubernetes#132314). */
function listInvalid(path: FieldPath, list: string[], detail: string, minor: number): Finding {
  const f = invalid(path, list, detail);
  if (minor >= 34) return f;
  const shown = `[]string{${list.map(quote).join(", ")}}`;
  return { ...f, message: `${f.field}: Invalid value: ${shown}: ${detail}` };
}
