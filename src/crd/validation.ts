/**
 * The API server's hand-written validation of a CustomResourceDefinition, in its words:
 * apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * (ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate, less the schema's
 * own rules: ValidateCustomResourceDefinitionOpenAPISchema, the structural-schema rules and the
 * defaults are schema-validation.ts's), run on the object the server has by then:
 *
 * - the v1 defaults first (pkg/apis/apiextensions/v1/defaults.go): `names.singular` is the
 *   lower-cased kind, `names.listKind` the kind + "List", `conversion` {strategy: None}, a
 *   webhook service's port 443 (v1beta1's, for the HTTP routes' inline CRDs: scope
 *   Namespaced, `versions` from `version` and back, preserveUnknownFields true, conversion
 *   review versions [v1beta1]);
 * - then the conversion to the internal type (v1/conversion.go): `spec.version` is the first
 *   version's name, and a per-version schema, subresources, printer columns (and selectable
 *   fields, with the schema) that every version has alike are moved to the top level. The
 *   server's errors name the internal type's fields, and so do these: a one-version CRD's bad
 *   column is `spec.additionalPrinterColumns[0].type`, its jsonPath `…[0].JSONPath`, a webhook's
 *   client config `spec.conversion.webhookClientConfig`, its review versions
 *   `spec.conversion.conversionReviewVersions` (the lines kubectl prints; a finding whose field
 *   the document lacks is placed at its nearest parent). Columns, selectable fields and
 *   subresources compare as Go's structs; schemas as JSON values (`false` and none, or an empty
 *   list and none, are alike only to Go): where that differs, the same errors are reported at
 *   the per-version path;
 * - then the create strategy (registry/customresourcedefinition/strategy.go PrepareForCreate):
 *   the status is dropped and `status.storedVersions` is the first storage version, so two
 *   storage versions, or none, are also refused there; selectable fields are dropped before
 *   1.31, where CustomResourceFieldSelectors was off by default (beta in 1.31, GA in 1.32).
 *
 * An update (`old` given) checks what ValidateCustomResourceDefinitionUpdate checks: the same
 * rules with its relaxations where the stored CRD already broke them (a conversion review version
 * list without v1 or v1beta1; versions without a schema; preserveUnknownFields: true; an API
 * approval state unchanged; more than 8 selectable fields, unchanged, from 1.34), then group and
 * plural immutable, and scope and kind too once the CRD is established. A manifest carries no
 * status: the old CRD is taken as applied, established (unless its status says it is not) and
 * with its storage version stored (unless its status lists the stored versions). The metadata
 * name rule is create-only, as in the server.
 *
 * Not here: apimachinery's ObjectMeta rules (the name a DNS subdomain, name or generateName
 * required: the metadata check all kinds share); the schema's rules (above), and the root-schema
 * rules with the status subresource; a webhook's caBundle (checked only on an update of an
 * established CRD whose bundle parsed, as PEM certificates); the name a generateName would
 * produce (never `<plural>.<group>`: refused here at metadata.generateName, unless the
 * generateName is that name itself).
 * Two spec-level rules read the schemas: a schema for every version (v1), and no `default` in
 * them with preserveUnknownFields: true.
 * Go decodes absent and null as the zero value; a value of the wrong JSON type never decodes
 * (the schema reports it), so the rule reading it is skipped.
 */
import { duplicate, type Finding, forbidden, invalid, notSupported, required, tooMany } from "../findings/index.js";
import { GoError, parseRequestURI } from "../go/index.js";
import { byteLength, isDNS1035Label, isDNS1123Subdomain } from "../names/index.js";
import { type FieldPath, formatPath, type PathSegment } from "../path/index.js";
import { deepEqual, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { validateWebhookService, validateWebhookURL } from "./webhook.js";

// ---------------------------------------------------------------------------
// Reading fields as Go decodes them

/** A string field: "" when absent or null, undefined when not a string (it does not decode). */
function strAt(o: JsonObject | undefined, key: string): string | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : undefined;
}

/** A `*string` that is set (non-null string), else undefined. */
function setStrAt(o: JsonObject | undefined, key: string): string | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  return typeof v === "string" ? v : undefined;
}

const boolAt = (o: JsonObject | undefined, key: string): boolean =>
  (o === undefined ? undefined : getKey(o, key)) === true;

const objAt = (o: JsonObject | undefined, key: string): JsonObject | undefined => {
  const v = o === undefined ? undefined : getKey(o, key);
  return isObject(v) ? v : undefined;
};

const listAt = (o: JsonObject | undefined, key: string): JsonValue[] => {
  const v = o === undefined ? undefined : getKey(o, key);
  return Array.isArray(v) ? v : [];
};

const isSet = (o: JsonObject | undefined, key: string): boolean => {
  const v = o === undefined ? undefined : getKey(o, key);
  return v !== undefined && v !== null;
};

/** An object field: {} when absent or null (Go's zero struct), undefined when not an object. */
function structAt(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o === undefined ? undefined : getKey(o, key);
  if (v === undefined || v === null) return {};
  return isObject(v) ? v : undefined;
}

const strings = (list: readonly JsonValue[]): string[] => list.filter((v): v is string => typeof v === "string");

// ---------------------------------------------------------------------------
// The CRD as the validation sees it: defaulted, then in the internal type's shape

interface VersionView {
  /** `spec.versions[i]`. */
  at: FieldPath;
  name: string | undefined;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  /** `deprecationWarning` when set (a *string). */
  deprecationWarning: string | undefined;
  /** `schema` (the CustomResourceValidation) when set and not moved to the top level. */
  schema: JsonObject | undefined;
  subresources: JsonObject | undefined;
  columns: JsonValue[];
  selectableFields: JsonValue[];
}

interface ConversionView {
  strategy: string | undefined;
  /** The webhook's client config is set (v1 `webhook.clientConfig`, v1beta1 `webhookClientConfig`). */
  clientConfigSet: boolean;
  clientConfig: JsonObject | undefined;
  reviewVersions: JsonValue[];
}

interface View {
  v1: boolean;
  group: string | undefined;
  scope: string | undefined;
  /** `spec.names`, undefined when it does not decode. */
  names: JsonObject | undefined;
  plural: string | undefined;
  singular: string | undefined;
  kind: string | undefined;
  listKind: string | undefined;
  /** The internal `spec.version`. */
  version: string | undefined;
  versions: VersionView[];
  /** The top-level (internal) schema, subresources, columns and selectable fields. */
  validation: JsonObject | undefined;
  subresources: JsonObject | undefined;
  columns: JsonValue[];
  selectableFields: JsonValue[];
  /** The key a column's JSON path is written under: v1 `jsonPath`, v1beta1 `JSONPath`. */
  columnPathKey: string;
  preserveUnknownFields: boolean;
  conversion: ConversionView | undefined;
  /** The schemas as written, for the rules that look into them. */
  schemas: JsonObject[];
}

const pointerEqual = (a: JsonValue | undefined, b: JsonValue | undefined) =>
  a === undefined || b === undefined ? a === b : deepEqual(a, b);
/** apiequality.Semantic.DeepEqual of two slices: an empty slice equals a nil one. */
const sliceEqual = (a: JsonValue[], b: JsonValue[]) => (a.length === 0 && b.length === 0) || deepEqual(a, b);

/**
 * Columns, selectable fields and subresources as the Go structs hold them (their fields, zero for
 * absent), so that versions compare as Go compares them; anything else is compared as written.
 */
const goColumn = (c: JsonValue, pathKey: string): JsonValue => {
  if (!isObject(c)) return c;
  const priority = getKey(c, "priority");
  const fields = ["name", "type", "format", "description", pathKey].map((k) => strAt(c, k) ?? getKey(c, k) ?? "");
  return [...fields, priority === undefined || priority === null ? 0 : priority];
};
const goSelectable = (f: JsonValue): JsonValue =>
  isObject(f) ? (strAt(f, "jsonPath") ?? getKey(f, "jsonPath") ?? "") : f;
function goSubresources(sub: JsonObject | undefined): JsonValue | undefined {
  if (sub === undefined) return undefined;
  const scale = getKey(sub, "scale");
  const fields = isObject(scale)
    ? ["specReplicasPath", "statusReplicasPath", "labelSelectorPath"].map((k) => getKey(scale, k) ?? null)
    : (scale ?? null);
  return [isSet(sub, "status"), fields];
}

/** The document as the server validates it: defaulted, converted, and (on create) its status reset. */
function viewOf(doc: JsonObject, minor: number, keepSelectable: boolean): View | undefined {
  const spec = structAt(doc, "spec");
  if (spec === undefined) return undefined;
  const v1 = getKey(doc, "apiVersion") !== "apiextensions.k8s.io/v1beta1";
  const names = structAt(spec, "names");
  const kind = strAt(names, "kind");
  let singular = strAt(names, "singular");
  let listKind = strAt(names, "listKind");
  if (singular === "" && kind !== undefined) singular = kind.toLowerCase();
  if (listKind === "" && kind !== undefined && kind !== "") listKind = `${kind}List`;
  const selectable = (o: JsonObject) => (minor >= 31 || keepSelectable ? listAt(o, "selectableFields") : []);
  const versions: VersionView[] = [];
  listAt(spec, "versions").forEach((raw, i) => {
    if (!isObject(raw)) return;
    versions.push({
      at: ["spec", "versions", i],
      name: strAt(raw, "name"),
      served: boolAt(raw, "served"),
      storage: boolAt(raw, "storage"),
      deprecated: boolAt(raw, "deprecated"),
      deprecationWarning: setStrAt(raw, "deprecationWarning"),
      schema: objAt(raw, "schema"),
      subresources: objAt(raw, "subresources"),
      columns: listAt(raw, "additionalPrinterColumns"),
      selectableFields: selectable(raw),
    });
  });
  const schemas = versions.flatMap((v) => {
    const s = objAt(v.schema, "openAPIV3Schema");
    return s ? [s] : [];
  });
  const view: View = {
    v1,
    group: strAt(spec, "group"),
    scope: strAt(spec, "scope"),
    names,
    plural: strAt(names, "plural"),
    singular,
    kind,
    listKind,
    version: "",
    versions,
    validation: undefined,
    subresources: undefined,
    columns: [],
    selectableFields: [],
    columnPathKey: v1 ? "jsonPath" : "JSONPath",
    preserveUnknownFields: boolAt(spec, "preserveUnknownFields"),
    conversion: undefined,
    schemas,
  };
  const conversion = getKey(spec, "conversion");
  if (v1) {
    // SetDefaults_CustomResourceDefinitionSpec: no conversion is {strategy: None}.
    if (conversion === undefined || conversion === null) view.conversion = conversionOf({}, "None");
    else if (isObject(conversion)) {
      const webhook = objAt(conversion, "webhook");
      view.conversion = {
        strategy: strAt(conversion, "strategy"),
        clientConfigSet: objAt(webhook, "clientConfig") !== undefined,
        clientConfig: objAt(webhook, "clientConfig"),
        reviewVersions: listAt(webhook, "conversionReviewVersions"),
      };
    }
    hoist(view);
  } else {
    readV1beta1(view, spec, conversion, selectable);
  }
  return view;
}

const conversionOf = (c: JsonObject, strategy: string | undefined): ConversionView => ({
  strategy,
  clientConfigSet: isSet(c, "webhookClientConfig"),
  clientConfig: objAt(c, "webhookClientConfig"),
  reviewVersions: listAt(c, "conversionReviewVersions"),
});

/**
 * Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec: the first
 * version's name is `spec.version`; what every version has alike moves to the top level.
 */
function hoist(view: View): void {
  const [first, ...rest] = view.versions;
  if (first === undefined) return;
  view.version = first.name;
  const alike = (same: (v: VersionView) => boolean) => rest.every(same);
  const column = (c: JsonValue) => goColumn(c, view.columnPathKey);
  const subresources = alike((v) => pointerEqual(goSubresources(v.subresources), goSubresources(first.subresources)));
  const schema = alike((v) => pointerEqual(v.schema, first.schema));
  const columns = alike((v) => sliceEqual(v.columns.map(column), first.columns.map(column)));
  const selectable =
    schema && alike((v) => sliceEqual(v.selectableFields.map(goSelectable), first.selectableFields.map(goSelectable)));
  if (subresources) view.subresources = first.subresources;
  if (schema) view.validation = first.schema;
  if (columns) view.columns = first.columns;
  if (selectable) view.selectableFields = first.selectableFields;
  for (const v of view.versions) {
    if (subresources) v.subresources = undefined;
    if (schema) v.schema = undefined;
    if (columns) v.columns = [];
    if (selectable) v.selectableFields = [];
  }
}

/** v1beta1 (pkg/apis/apiextensions/v1beta1/defaults.go): its top-level fields are the internal type's. */
function readV1beta1(
  view: View,
  spec: JsonObject,
  conversion: JsonValue | undefined,
  selectable: (o: JsonObject) => JsonValue[],
): void {
  if (view.scope === "") view.scope = "Namespaced";
  view.version = strAt(spec, "version");
  if (view.versions.length === 0 && view.version !== undefined && view.version !== "") {
    view.versions.push({
      at: ["spec", "versions", 0],
      name: view.version,
      served: true,
      storage: true,
      deprecated: false,
      deprecationWarning: undefined,
      schema: undefined,
      subresources: undefined,
      columns: [],
      selectableFields: [],
    });
  }
  if (view.version === "" && view.versions[0] !== undefined) view.version = view.versions[0].name;
  view.validation = objAt(spec, "validation");
  view.subresources = objAt(spec, "subresources");
  view.columns = listAt(spec, "additionalPrinterColumns");
  view.selectableFields = selectable(spec);
  const shared = objAt(view.validation, "openAPIV3Schema");
  if (shared) view.schemas.unshift(shared);
  view.preserveUnknownFields = getKey(spec, "preserveUnknownFields") !== false;
  if (conversion === undefined || conversion === null) view.conversion = conversionOf({}, "None");
  else if (isObject(conversion)) {
    const c = conversionOf(conversion, strAt(conversion, "strategy"));
    if (c.strategy === "Webhook" && c.reviewVersions.length === 0) c.reviewVersions = ["v1beta1"];
    view.conversion = c;
  }
}

// ---------------------------------------------------------------------------
// Small validators of the file

/** validateEnumStrings: Required when empty, NotSupported when not one of `accepted`. */
function enumString(at: FieldPath, value: string | undefined, accepted: readonly string[]): Finding[] {
  if (value === undefined) return [];
  if (value === "") return [required(at)];
  return accepted.includes(value) ? [] : [notSupported(at, value, accepted)];
}

/** `strings.Join(errs, ",")` of a name check, as one Invalid. */
const joined = (at: FieldPath, value: string, errs: readonly string[], prefix = ""): Finding[] =>
  errs.length > 0 ? [invalid(at, value, prefix + errs.join(","))] : [];

/** validateSimpleJSONPath: non-empty and starting with a dot (a split of the rest always has an element). */
function simpleJSONPath(s: string, at: FieldPath): Finding[] {
  if (s === "") return [invalid(at, s, "must not be empty")];
  if (!s.startsWith(".")) return [invalid(at, s, "must be a simple json path starting with .")];
  return [];
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** validateDeprecationWarning (unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space). */
function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ["can only be set for deprecated versions"];
  if (warning === undefined) return [];
  const errs: string[] = [];
  if (byteLength(warning) > 256) errs.push("must be <= 256 characters long");
  if (warning.length === 0) errs.push("must not be an empty string");
  let index = 0;
  for (const ch of warning) {
    if (!printable.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    index += byteLength(ch);
  }
  return errs;
}

// ---------------------------------------------------------------------------
// Names, subresources, columns, selectable fields

/** ValidateCustomResourceDefinitionNames. */
function validateNames(view: View, at: FieldPath): Finding[] {
  const { plural, singular, kind, listKind, names } = view;
  const out: Finding[] = [];
  const mixedCase = "may have mixed case, but should otherwise match: ";
  if (plural) out.push(...joined([...at, "plural"], plural, isDNS1035Label(plural)));
  if (singular) out.push(...joined([...at, "singular"], singular, isDNS1035Label(singular)));
  if (kind) out.push(...joined([...at, "kind"], kind, isDNS1035Label(kind.toLowerCase()), mixedCase));
  if (listKind) out.push(...joined([...at, "listKind"], listKind, isDNS1035Label(listKind.toLowerCase()), mixedCase));
  listAt(names, "shortNames").forEach((s, i) => {
    if (typeof s === "string") out.push(...joined([...at, "shortNames", i], s, isDNS1035Label(s)));
  });
  // kind and listKind may not be the same or parsing become ambiguous
  if (kind && kind === listKind)
    out.push(invalid([...at, "listKind"], listKind, "kind and listKind may not be the same"));
  listAt(names, "categories").forEach((c, i) => {
    if (typeof c === "string") out.push(...joined([...at, "categories", i], c, isDNS1035Label(c)));
  });
  return out;
}

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's paths. */
function validateSubresources(subresources: JsonObject | undefined, at: FieldPath): Finding[] {
  const scale = objAt(subresources, "scale");
  if (scale === undefined) return [];
  const out: Finding[] = [];
  const under = (key: string, prefix: string) => {
    const value = strAt(scale, key);
    const path = [...at, "scale", key];
    if (value === undefined) return;
    if (value === "") out.push(required(path));
    else {
      const errs = simpleJSONPath(value, path);
      if (errs.length > 0) out.push(...errs);
      else if (!value.startsWith(`.${prefix}.`))
        out.push(invalid(path, value, `should be a json path under .${prefix}`));
    }
  };
  under("specReplicasPath", "spec");
  under("statusReplicasPath", "status");
  const selector = setStrAt(scale, "labelSelectorPath");
  if (selector) {
    const path = [...at, "scale", "labelSelectorPath"];
    const errs = simpleJSONPath(selector, path);
    if (errs.length > 0) out.push(...errs);
    else if (!selector.startsWith(".spec.") && !selector.startsWith(".status."))
      out.push(invalid(path, selector, "should be a json path under either .spec or .status"));
  }
  return out;
}

/** printerColumnDatatypes and customResourceColumnDefinitionFormats, as sets.List prints them (sorted). */
const PRINTER_COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"] as const;
const PRINTER_COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"] as const;

/** ValidateCustomResourceColumnDefinition; the JSON path at the internal type's `JSONPath`. */
function validateColumn(column: JsonValue, at: FieldPath, pathKey: string): Finding[] {
  if (!isObject(column)) return [];
  const out: Finding[] = [];
  if (strAt(column, "name") === "") out.push(required([...at, "name"]));
  const types: readonly string[] = PRINTER_COLUMN_TYPES;
  const mustBe = `must be one of ${types.join(",")}`;
  const type = strAt(column, "type");
  if (type === "") out.push(required([...at, "type"], mustBe));
  else if (type !== undefined && !types.includes(type)) out.push(invalid([...at, "type"], type, mustBe));
  const formats: readonly string[] = PRINTER_COLUMN_FORMATS;
  const format = strAt(column, "format");
  if (format && !formats.includes(format))
    out.push(invalid([...at, "format"], format, `must be one of ${formats.join(",")}`));
  const jsonPath = strAt(column, pathKey);
  if (jsonPath === "") out.push(required([...at, "JSONPath"]));
  else if (jsonPath !== undefined) out.push(...simpleJSONPath(jsonPath, [...at, "JSONPath"]));
  return out;
}

/** apiextensions validation.go MaxSelectableFields. */
const MAX_SELECTABLE_FIELDS = 8;

/**
 * The tokens of schema/cel ValidFieldPath's scanner: `.`, `[` and `]` alone, a token that starts
 * with a quote runs to the next unescaped quote (or the end), any other to the next delimiter.
 */
function fieldPathTokens(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s.charAt(i);
    if (c === "'") {
      let j = i + 1;
      while (j < s.length && !(s.charAt(j) === "'" && s.charAt(j - 1) !== "\\")) j++;
      out.push(s.slice(i, j + 1));
      i = j + 1;
    } else if (c === "." || c === "[" || c === "]") {
      out.push(c);
      i++;
    } else {
      let j = i;
      while (j < s.length && !".[]".includes(s.charAt(j))) j++;
      out.push(s.slice(i, j));
      i = j;
    }
  }
  return out;
}

/**
 * schema/cel ValidFieldPath with array notation refused, as selectable fields check it, over the
 * structural schema (`properties` first, else `additionalProperties`): the path and the schema it
 * names, or Go's error text. A step below an `additionalProperties: true` (no schema, where Go
 * would dereference nil) does not refer to a valid field.
 */
export function selectableFieldPath(
  jsonPath: string,
  root: JsonObject,
): { path: PathSegment[]; schema: JsonObject | undefined } | string {
  const tokens = fieldPathTokens(jsonPath);
  const path: PathSegment[] = [];
  let schema: JsonObject | undefined = root;
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k] as string;
    if (tok === "[") return "array notation is not allowed";
    if (tok !== ".") return `expected [ or . but got: ${tok}`;
    const name = tokens[++k];
    if (name === undefined) return "unexpected end of JSON path";
    const props = objAt(schema, "properties");
    if (props !== undefined && Object.keys(props).length > 0) {
      const next = objAt(props, name);
      if (next === undefined) return "does not refer to a valid field";
      path.push(name);
      schema = next;
    } else if (isSet(schema, "additionalProperties")) {
      path.push({ key: name });
      schema = objAt(schema, "additionalProperties");
    } else return "does not refer to a valid field";
  }
  return { path, schema };
}

/** ValidateCustomResourceSelectableFields. */
function validateSelectableFields(
  fields: readonly JsonValue[],
  schema: JsonObject,
  at: FieldPath,
  allowTooMany: boolean,
): Finding[] {
  const out: Finding[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    if (!isObject(f)) return;
    const pathAt = [...at, i, "jsonPath"];
    const jsonPath = strAt(f, "jsonPath");
    if (jsonPath === undefined) return;
    if (jsonPath === "") {
      out.push(required(pathAt));
      return;
    }
    const found = selectableFieldPath(jsonPath, schema);
    if (typeof found === "string") {
      out.push(invalid(pathAt, jsonPath, `is an invalid path: ${found}`));
      return;
    }
    if (found.path[0] === "metadata") out.push(invalid(pathAt, jsonPath, "must not point to fields in metadata"));
    const type = found.schema === undefined ? undefined : getKey(found.schema, "type");
    if (type !== "string" && type !== "boolean" && type !== "integer")
      out.push(
        invalid(
          pathAt,
          jsonPath,
          "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
        ),
      );
    const key = formatPath(found.path);
    if (unique.has(key)) out.push(duplicate(pathAt, jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany) out.push(tooMany(at, unique.size, MAX_SELECTABLE_FIELDS));
  return out;
}

// ---------------------------------------------------------------------------
// Conversion (validateCustomResourceConversion) and the webhook's client config (apiserver util/webhook)

/**
 * acceptedConversionReviewVersions: the ConversionReview versions the API server sends, as sets.List
 * prints them; a webhook must accept one of them.
 */
const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ["v1", "v1beta1"] as const;

export const isAcceptedConversionReviewVersion = (v: JsonValue | undefined): boolean =>
  typeof v === "string" && (ACCEPTED_CONVERSION_REVIEW_VERSIONS as readonly string[]).includes(v);

/** validateConversionReviewVersions. */
function validateReviewVersions(versions: readonly JsonValue[], requireRecognized: boolean, at: FieldPath): Finding[] {
  if (versions.length < 1) return [required(at)];
  const out: Finding[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (typeof v !== "string") return;
    if (seen.has(v)) {
      out.push(invalid([...at, i], v, "duplicate version"));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) out.push(invalid([...at, i], v, e));
    if (isAcceptedConversionReviewVersion(v)) accepted = true;
  });
  if (requireRecognized && !accepted && strings(versions).length === versions.length)
    out.push(invalid(at, versions, `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(", ")}`));
  return out;
}

/** validateCustomResourceConversion (the caBundle is not checked on create; see the file's notes). */
function validateConversion(c: ConversionView | undefined, requireRecognized: boolean): Finding[] {
  if (c === undefined) return [];
  const at: FieldPath = ["spec", "conversion"];
  const clientAt: FieldPath = [...at, "webhookClientConfig"];
  const reviewAt: FieldPath = [...at, "conversionReviewVersions"];
  const out = enumString([...at, "strategy"], c.strategy, ["None", "Webhook"]);
  if (c.strategy === "Webhook") {
    if (!c.clientConfigSet) out.push(required(clientAt, "required when strategy is set to Webhook"));
    else if (c.clientConfig !== undefined) {
      const cc = c.clientConfig;
      const hasURL = isSet(cc, "url");
      if (hasURL === isSet(cc, "service")) out.push(required(clientAt, "exactly one of url or service is required"));
      else if (hasURL) {
        const url = setStrAt(cc, "url");
        if (url !== undefined) out.push(...validateWebhookURL(url, [...clientAt, "url"]));
      } else {
        const service = objAt(cc, "service");
        if (service !== undefined) out.push(...validateWebhookService(service, [...clientAt, "service"], true));
      }
    }
    out.push(...validateReviewVersions(c.reviewVersions, requireRecognized, reviewAt));
  } else {
    const notWebhook = "should not be set when strategy is not set to Webhook";
    if (c.clientConfigSet) out.push(forbidden(clientAt, notWebhook));
    if (c.reviewVersions.length > 0) out.push(forbidden(reviewAt, notWebhook));
  }
  return out;
}

// ---------------------------------------------------------------------------
// The spec

/** What ValidateCustomResourceDefinitionUpdate relaxes for a stored CRD that already broke a rule. */
interface Options {
  requireRecognizedConversionReviewVersion: boolean;
  requireOpenAPISchema: boolean;
  /** Version names ("" for the top level) whose selectable fields may stay above the maximum. */
  allowTooManySelectableFields: Set<string>;
}

/** On create everything is required; a schema for every version only of v1 (v1beta1 let it prune instead). */
const createOptions = (view: View): Options => ({
  requireRecognizedConversionReviewVersion: true,
  requireOpenAPISchema: view.v1,
  allowTooManySelectableFields: new Set(),
});

/** The keys of a schema node whose values are schemas (validation.go SchemaHas), and those holding maps or lists of them. */
const ONE_SCHEMA = ["not", "additionalProperties", "additionalItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "dependencies"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf"];

/** SchemaHas with `default` set: a walk over the schema's nodes, iterative. */
function hasDefaults(schema: JsonObject): boolean {
  const stack: JsonValue[] = [schema];
  for (let budget = 1_000_000; stack.length > 0 && budget > 0; budget--) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    if (isSet(node, "default")) return true;
    const items = getKey(node, "items");
    if (Array.isArray(items)) stack.push(...items);
    else if (items !== undefined) stack.push(items);
    for (const k of ONE_SCHEMA) stack.push(getKey(node, k) ?? null);
    for (const k of SCHEMA_MAPS) stack.push(...Object.values(objAt(node, k) ?? {}));
    for (const k of SCHEMA_LISTS) stack.push(...listAt(node, k));
  }
  return false;
}

const hasSchema = (validation: JsonObject | undefined) => objAt(validation, "openAPIV3Schema") !== undefined;
const versionNames = (view: View) => view.versions.map((v) => v.name ?? null);

/** validateCustomResourceDefinitionVersion, less the schema's validation. */
function validateVersion(v: VersionView, view: View, opts: Options): Finding[] {
  const out: Finding[] = [];
  for (const e of deprecationWarningErrors(v.deprecated, v.deprecationWarning))
    out.push(invalid([...v.at, "deprecationWarning"], v.deprecationWarning ?? null, e));
  out.push(...validateSubresources(v.subresources, [...v.at, "subresources"]));
  v.columns.forEach((c, j) => {
    out.push(...validateColumn(c, [...v.at, "additionalPrinterColumns", j], view.columnPathKey));
  });
  if (v.selectableFields.length > 0) {
    const schema = objAt(v.schema, "openAPIV3Schema");
    if (schema === undefined)
      out.push(
        invalid(
          [...v.at, "selectableFields"],
          "",
          "selectableFields may only be set when version.schema.openAPIV3Schema is not included",
        ),
      );
    else
      out.push(
        ...validateSelectableFields(
          v.selectableFields,
          schema,
          [...v.at, "selectableFields"],
          opts.allowTooManySelectableFields.has(v.name ?? ""),
        ),
      );
  }
  return out;
}

/** validateCustomResourceDefinitionSpec, less the schemas' validation, in its order. */
function validateSpec(view: View, opts: Options): Finding[] {
  const out: Finding[] = [];
  const { group } = view;
  if (group === "") out.push(required(["spec", "group"]));
  else if (group !== undefined) {
    const errs = isDNS1123Subdomain(group);
    if (errs.length > 0) out.push(invalid(["spec", "group"], group, errs.join(",")));
    else if (group.split(".").length < 2)
      out.push(invalid(["spec", "group"], group, "should be a domain with at least one dot"));
  }
  out.push(...enumString(["spec", "scope"], view.scope, ["Cluster", "Namespaced"]));

  const schemaAt = (v: VersionView): FieldPath => [...v.at, "schema", "openAPIV3Schema"];
  if (opts.requireOpenAPISchema) {
    // either a global schema or versioned schemas in all versions
    if (!hasSchema(view.validation))
      for (const v of view.versions) if (!hasSchema(v.schema)) out.push(required(schemaAt(v), "schemas are required"));
  } else if (!view.preserveUnknownFields && !hasSchema(view.validation)) {
    for (const v of view.versions)
      if (v.served && !hasSchema(v.schema)) out.push(required(schemaAt(v), "because otherwise all fields are pruned"));
  }
  // allowDefaults is v1's: v1beta1 refuses defaults in the schema itself (schema-validation.ts)
  if (view.v1 && view.preserveUnknownFields && view.schemas.some(hasDefaults))
    out.push(invalid(["spec", "preserveUnknownFields"], true, "must be false in order to use defaults in the schema"));

  let storage = 0;
  const seen = new Set<string | undefined>();
  let unique = true;
  for (const v of view.versions) {
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    if (v.name !== undefined) out.push(...joined([...v.at, "name"], v.name, isDNS1035Label(v.name)));
    out.push(...validateVersion(v, view, opts));
  }

  // The top-level and per-version fields are mutually exclusive, and per-version ones may not all be
  // alike (only v1beta1 can break either: v1's conversion moves fields every version has alike up).
  const perVersion: Array<[string, string, JsonValue | undefined, (v: VersionView) => JsonValue | undefined]> = [
    ["schemas", "validation", view.validation, (v) => v.schema],
    ["subresources", "subresources", view.subresources, (v) => v.subresources],
    [
      "additionalPrinterColumns",
      "additionalPrinterColumns",
      view.columns.length > 0 ? view.columns : undefined,
      (v) => (v.columns.length > 0 ? v.columns : undefined),
    ],
  ];
  for (const [what, top, value, of] of perVersion)
    if (value !== undefined && view.versions.some((v) => of(v) !== undefined))
      out.push(forbidden(["spec", top], `top-level and per-version ${what} are mutually exclusive`));
  for (const [what, top, , of] of perVersion) {
    const [first, ...rest] = view.versions.map(of);
    if (first !== undefined && rest.every((v) => v !== undefined && deepEqual(v, first)))
      out.push(
        invalid(
          ["spec", "versions"],
          versionNames(view),
          `per-version ${what} may not all be set to identical values (top-level ${top} should be used instead)`,
        ),
      );
  }

  // The server prints the whole list; the names say which versions are meant without the schemas.
  if (!unique) out.push(invalid(["spec", "versions"], versionNames(view), "must contain unique version names"));
  if (storage !== 1)
    out.push(
      invalid(["spec", "versions"], versionNames(view), "must have exactly one version marked as storage version"),
    );
  const { version } = view;
  if (version) {
    out.push(...joined(["spec", "version"], version, isDNS1035Label(version)));
    if (view.versions.length >= 1 && view.versions[0]?.name !== version)
      out.push(invalid(["spec", "version"], version, "must match the first version in spec.versions"));
  }

  // in addition to the basic name restrictions, some names are required for spec, but not for status
  if (view.names !== undefined) {
    for (const key of ["plural", "singular", "kind", "listKind"] as const)
      if (view[key] === "") out.push(required(["spec", "names", key]));
    out.push(...validateNames(view, ["spec", "names"]));
  }
  out.push(...validateSubresources(view.subresources, ["spec", "subresources"]));
  view.columns.forEach((c, j) => {
    out.push(...validateColumn(c, ["spec", "additionalPrinterColumns", j], view.columnPathKey));
  });
  if (view.selectableFields.length > 0) {
    if (view.validation === undefined)
      out.push(
        invalid(
          ["spec", "selectableFields"],
          "",
          "selectableFields may only be set when validations.schema is included",
        ),
      );
    else {
      const schema = objAt(view.validation, "openAPIV3Schema");
      if (schema !== undefined)
        out.push(
          ...validateSelectableFields(
            view.selectableFields,
            schema,
            ["spec", "selectableFields"],
            opts.allowTooManySelectableFields.has(""),
          ),
        );
    }
  }

  const c = view.conversion;
  if (c !== undefined && c.strategy !== undefined && c.strategy !== "None" && view.preserveUnknownFields)
    out.push(
      invalid(["spec", "conversion", "strategy"], c.strategy, "must be None if spec.preserveUnknownFields is true"),
    );
  out.push(...validateConversion(c, opts.requireRecognizedConversionReviewVersion));
  return out;
}

// ---------------------------------------------------------------------------
// Metadata, status, API approval, preserveUnknownFields

const APPROVAL_ANNOTATION = "api-approved.kubernetes.io";

/** apihelpers.IsProtectedCommunityGroup: groups under k8s.io and kubernetes.io need an API approval. */
const isProtectedCommunityGroup = (group: string): boolean =>
  group === "k8s.io" || group.endsWith(".k8s.io") || group === "kubernetes.io" || group.endsWith(".kubernetes.io");

type Approval = "invalid" | "approved" | "bypassed" | "missing";

/** apihelpers.GetAPIApprovalState. */
function approvalState(doc: JsonObject): { state: Approval; reason: string; value: string } {
  const value = strAt(objAt(objAt(doc, "metadata"), "annotations"), APPROVAL_ANNOTATION) ?? "";
  const see = "see https://github.com/kubernetes/enhancements/pull/1111";
  if (value === "")
    return {
      state: "missing",
      value,
      reason: `protected groups must have approval annotation "${APPROVAL_ANNOTATION}", ${see}`,
    };
  if (value.startsWith("unapproved")) return { state: "bypassed", value, reason: "" };
  const u = parseRequestURI(value);
  if (!(u instanceof GoError) && u.host !== "" && u.scheme !== "") return { state: "approved", value, reason: "" };
  return {
    state: "invalid",
    value,
    reason: `protected groups must have approval annotation "${APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", ${see}`,
  };
}

/** validateAPIApproval: an update that keeps the approval state is never refused for it. */
function validateAPIApproval(doc: JsonObject, group: string | undefined, old: JsonObject | undefined): Finding[] {
  if (group === undefined || !isProtectedCommunityGroup(group)) return [];
  const now = approvalState(doc);
  if (old !== undefined && approvalState(old).state === now.state) return [];
  const at: FieldPath = ["metadata", "annotations", { key: APPROVAL_ANNOTATION }];
  if (now.state === "missing") return [required(at, now.reason)];
  if (now.state === "invalid") return [invalid(at, now.value, now.reason)];
  return [];
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(stored: readonly string[], view: View): Finding[] {
  const at: FieldPath = ["status", "storedVersions"];
  if (stored.length === 0) return [invalid(at, [], "must have at least one stored version")];
  const out: Finding[] = [];
  const left = new Map<string, number>();
  stored.forEach((v, i) => {
    left.set(v, i);
  });
  for (const v of view.versions) {
    const name = v.name ?? "";
    const ok = left.has(name);
    if (v.storage && !ok) out.push(invalid(at, stored, `must have the storage version ${name}`));
    if (ok) left.delete(name);
  }
  // Go ranges over a map here: in no set order; by index here.
  for (const [v, i] of [...left].sort((a, b) => a[1] - b[1]))
    out.push(
      invalid(
        [...at, i],
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  return out;
}

/** PrepareForCreate and PrepareForUpdate: the storage version is added to the stored versions. */
function storedVersionsOf(view: View, before: readonly string[]): string[] {
  const stored = [...before];
  const storage = view.versions.find((v) => v.storage);
  if (storage !== undefined && !stored.includes(storage.name ?? "")) stored.push(storage.name ?? "");
  return stored;
}

/**
 * The stored versions an old CRD had: its status's. A manifest has no status: which of its versions may
 * hold objects is the CRD evolution rules' to say (stored-version-removed reads the old storage version),
 * which say it once, with their waivers.
 */
function oldStoredVersions(old: JsonObject): string[] {
  return strings(listAt(objAt(old, "status"), "storedVersions"));
}

/** Established, unless the status says otherwise (a manifest has no status: as applied, it is). */
function isEstablished(doc: JsonObject): boolean {
  const conditions = listAt(objAt(doc, "status"), "conditions");
  const established = conditions.find((c) => isObject(c) && getKey(c, "type") === "Established");
  if (conditions.length === 0) return true;
  return isObject(established) && getKey(established, "status") === "True";
}

// ---------------------------------------------------------------------------
// Entry points

/** The name rule of ValidateCustomResourceDefinition's ObjectMeta check: `<plural>.<group>`. */
function validateName(doc: JsonObject, view: View): Finding[] {
  const meta = structAt(doc, "metadata");
  const wanted = `${view.plural ?? ""}.${view.group ?? ""}`;
  const rule = 'must be spec.names.plural+"."+spec.group';
  const out: Finding[] = [];
  const generateName = strAt(meta, "generateName");
  if (generateName && generateName !== wanted) out.push(invalid(["metadata", "generateName"], generateName, rule));
  const name = strAt(meta, "name");
  if (name && name !== wanted) out.push(invalid(["metadata", "name"], name, rule));
  return out;
}

function updateOptions(old: View, now: View, minor: number): Options {
  const oldReviews = old.conversion?.reviewVersions ?? [];
  const allowTooMany = new Set<string>();
  if (minor >= 34) {
    // findTooManySelectableFieldsAllowed: more than the maximum before, and unchanged.
    const same = (a: JsonValue[], b: JsonValue[]) => sliceEqual(a.map(goSelectable), b.map(goSelectable));
    if (old.selectableFields.length > MAX_SELECTABLE_FIELDS && same(now.selectableFields, old.selectableFields))
      allowTooMany.add("");
    for (const v of now.versions) {
      const before = old.versions.find((o) => o.name === v.name);
      if (
        before !== undefined &&
        before.selectableFields.length > MAX_SELECTABLE_FIELDS &&
        same(v.selectableFields, before.selectableFields)
      )
        allowTooMany.add(v.name ?? "");
    }
  }
  return {
    requireRecognizedConversionReviewVersion:
      old.conversion === undefined || oldReviews.length === 0 || oldReviews.some(isAcceptedConversionReviewVersion),
    // allVersionsSpecifyOpenAPISchema
    requireOpenAPISchema: hasSchema(old.validation) || old.versions.every((v) => hasSchema(v.schema)),
    allowTooManySelectableFields: allowTooMany,
  };
}

/** validateCustomResourceDefinitionSpecUpdate's immutable fields. */
function validateImmutable(now: View, old: View, established: boolean): Finding[] {
  const out: Finding[] = [];
  const immutable = (at: FieldPath, a: string | undefined, b: string | undefined) => {
    if (a !== undefined && b !== undefined && a !== b) out.push(invalid(at, a, "field is immutable"));
  };
  if (established) {
    immutable(["spec", "scope"], now.scope, old.scope);
    immutable(["spec", "names", "kind"], now.kind, old.kind);
  }
  immutable(["spec", "group"], now.group, old.group);
  immutable(["spec", "names", "plural"], now.plural, old.plural);
  return out;
}

/**
 * Where a v1 CRD writes the field the server names `path` after the conversion to the internal type,
 * when they differ: what every version has alike (schema, subresources, columns, selectable fields) is
 * written in the first version, a column's `JSONPath` is `jsonPath`, the webhook's settings are under
 * `conversion.webhook`, `spec.version` is the first version's name. Undefined: written as named.
 */
function writtenAt(path: FieldPath): FieldPath | undefined {
  const [spec, key, ...rest] = path;
  let out: PathSegment[] | undefined;
  if (spec === "spec") {
    if (key === "validation") out = ["spec", "versions", 0, "schema", ...rest];
    else if (key === "subresources" || key === "additionalPrinterColumns" || key === "selectableFields")
      out = ["spec", "versions", 0, key, ...rest];
    else if (key === "version") out = ["spec", "versions", 0, "name"];
    else if (key === "conversion" && rest[0] === "webhookClientConfig")
      out = ["spec", "conversion", "webhook", "clientConfig", ...rest.slice(1)];
    else if (key === "conversion" && rest[0] === "conversionReviewVersions")
      out = ["spec", "conversion", "webhook", ...rest];
  }
  const columns = (out ?? path).indexOf("additionalPrinterColumns");
  if (columns >= 0 && (out ?? path)[columns + 2] === "JSONPath") {
    out = [...(out ?? path)];
    out[columns + 2] = "jsonPath";
  }
  return out;
}

/** A finding placed where a v1 CRD writes its field (writtenAt). */
function placed(f: Finding): Finding {
  const at = writtenAt(f.path);
  return at === undefined ? f : { ...f, at };
}

/** A version schema as the server validates it: the schema, the server's path for it, where it is written. */
export interface SchemaPlacement {
  schema: JsonObject;
  /** `spec.validation.openAPIV3Schema` when every version has it alike, else `spec.versions[i].schema.openAPIV3Schema`. */
  path: FieldPath;
  at: FieldPath;
  /** The status subresource is on for it (for a schema common to all versions: on for any version). */
  statusSubresource: boolean;
}

/**
 * The openAPIV3Schemas of a v1 CRD as the server validates them after the conversion to the internal
 * type: once, at `spec.validation`, when every version has the same (written in the first), else each
 * version's own.
 */
export function schemaPlacements(doc: JsonObject, minor: number): SchemaPlacement[] {
  const view = viewOf(doc, minor, true);
  if (view === undefined || !view.v1) return [];
  const withStatus = (sub: JsonObject | undefined) => objAt(sub, "status") !== undefined;
  const common = objAt(view.validation, "openAPIV3Schema");
  if (common !== undefined) {
    const status = withStatus(view.subresources) || view.versions.some((v) => withStatus(v.subresources));
    const path = ["spec", "validation", "openAPIV3Schema"];
    return [{ schema: common, path, at: writtenAt(path) as FieldPath, statusSubresource: status }];
  }
  return view.versions.flatMap((v) => {
    const schema = objAt(v.schema, "openAPIV3Schema");
    if (schema === undefined) return [];
    const path = [...v.at, "schema", "openAPIV3Schema"];
    const status = withStatus(view.subresources) || withStatus(v.subresources);
    return [{ schema, path, at: path, statusSubresource: status }];
  });
}

/**
 * The CRD validation of a CRD document (apiextensions.k8s.io/v1, or v1beta1 for the routes'
 * inline CRDs) for release 1.`minor`; an update when `old` is given. A v1 CRD's findings are
 * placed where it writes their fields (writtenAt).
 */
export function validateCustomResourceDefinition(doc: JsonObject, minor: number, old?: JsonObject): Finding[] {
  const findings = validateCrdFields(doc, minor, old);
  return getKey(doc, "apiVersion") === "apiextensions.k8s.io/v1beta1" ? findings : findings.map(placed);
}

function validateCrdFields(doc: JsonObject, minor: number, old?: JsonObject): Finding[] {
  const oldView = old === undefined ? undefined : viewOf(old, minor, true);
  // dropDisabledFields keeps the selectable fields of an update when the stored CRD has some
  const keepSelectable = [oldView, ...(oldView?.versions ?? [])].some((v) => (v?.selectableFields.length ?? 0) > 0);
  const view = viewOf(doc, minor, keepSelectable);
  if (view === undefined) return [];
  if (old === undefined || oldView === undefined) {
    return [
      ...validateName(doc, view),
      ...validateSpec(view, createOptions(view)),
      ...validateStoredVersions(storedVersionsOf(view, []), view),
      ...(view.v1 ? validateAPIApproval(doc, view.group, undefined) : []),
      ...(view.v1 && view.preserveUnknownFields ? [preserveUnknownFieldsRefused()] : []),
    ];
  }
  const oldPreserves = oldView.preserveUnknownFields;
  return [
    ...validateSpec(view, updateOptions(oldView, view, minor)),
    ...validateImmutable(view, oldView, isEstablished(old)),
    ...validateStoredVersions(storedVersionsOf(view, oldStoredVersions(old)), view),
    ...(view.v1 ? validateAPIApproval(doc, view.group, old) : []),
    ...(view.v1 && view.preserveUnknownFields && !oldPreserves ? [preserveUnknownFieldsRefused()] : []),
  ];
}

/** validatePreserveUnknownFields. */
const preserveUnknownFieldsRefused = () =>
  invalid(
    ["spec", "preserveUnknownFields"],
    true,
    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
  );
