import { type Finding, finding, invalid, required, type Severity, tooLong, unknownField } from "../findings/index.js";
import {
  annotationErrors,
  isDNS1035Label,
  isDNS1123Label,
  isQualifiedName,
  isValidPathSegmentName,
  labelErrors,
  type NameRule,
  nameIsDNSSubdomain,
  splitApiVersion,
  totalAnnotationSizeLimit,
} from "../names/index.js";
import type { FieldPath } from "../path/index.js";
import { getKey, hasKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { invalidType } from "./keywords/type.js";
import { childLoc, type FormatDecoder, kindOf, type Loc, openAPIPath, toPath } from "./types.js";

/**
 * ObjectMeta and TypeMeta of a resource: at the root (apimachinery's
 * ValidateObjectMetaAccessor with NameIsDNSSubdomain, as the custom resource
 * strategy calls it) and in `x-kubernetes-embedded-resource` objects
 * (apiextensions' objectmeta.Validate: apiVersion and kind required, names
 * checked as path segments). Messages are apimachinery's.
 */

/** ObjectMeta's JSON fields and the kind each must have. */
const objectMeta: Record<string, "string" | "integer" | "map" | "array"> = {
  name: "string",
  generateName: "string",
  namespace: "string",
  selfLink: "string",
  uid: "string",
  resourceVersion: "string",
  generation: "integer",
  creationTimestamp: "string",
  deletionTimestamp: "string",
  deletionGracePeriodSeconds: "integer",
  labels: "map",
  annotations: "map",
  ownerReferences: "array",
  finalizers: "array",
  managedFields: "array",
};

export interface MetaOptions {
  /** The object root (names are DNS subdomains) or an embedded resource (path segments). */
  root: boolean;
  /** The kind's own rule for names at the root, where it has one (Services, Namespaces, RBAC). */
  nameRule?: NameRule;
  /** Severity of unknown ObjectMeta fields, or undefined to ignore them. */
  unknown: Severity | undefined;
  /**
   * How creationTimestamp and deletionTimestamp decode: a built-in kind's
   * metav1.Time. A custom resource's malformed metadata fields are dropped
   * instead (apiextensions' objectmeta.GetObjectMetaWithOptions).
   */
  decodeTime?: FormatDecoder;
}

/** The unknown-field finding of kubectl's strict field validation, for the field at `loc`. */
export function unknownFieldAtLoc(loc: Loc, severity: Severity): Finding {
  return unknownField(toPath(loc), { rule: "schema", severity });
}

/**
 * Validates `metadata` (absent is allowed for embedded resources only) into
 * `out`, which it returns: a validation run passes its own list.
 */
export function validateObjectMeta(
  meta: JsonValue | undefined,
  loc: Loc,
  opts: MetaOptions,
  out: Finding[] = [],
): Finding[] {
  if (meta !== undefined && meta !== null && !isObject(meta)) {
    out.push(invalidType(loc, "object", kindOf(meta)));
    return out;
  }
  const m: JsonObject = meta ?? {};
  for (const key of Object.keys(m)) {
    const v = getKey(m, key) as JsonValue;
    const want = Object.hasOwn(objectMeta, key) ? objectMeta[key] : undefined;
    if (!want) {
      if (opts.unknown) out.push(unknownFieldAtLoc(childLoc(loc, key), opts.unknown));
      continue;
    }
    if (v === null) continue;
    const kind = kindOf(v);
    if (want === "map" && kind === "object") stringValues(v as JsonObject, childLoc(loc, key), out);
    else if (kind !== (want === "map" ? "object" : want))
      out.push(invalidType(childLoc(loc, key), want === "map" ? "object" : want, kind));
  }
  const str = (k: string) => {
    const v = getKey(m, k);
    return typeof v === "string" ? v : "";
  };
  for (const key of opts.decodeTime ? ["creationTimestamp", "deletionTimestamp"] : []) {
    const value = getKey(m, key);
    const error = typeof value === "string" ? opts.decodeTime?.(value) : undefined;
    if (error !== undefined) out.push(invalid(toPath(childLoc(loc, key)), value, error));
  }
  const name = str("name");
  const generateName = str("generateName");
  const nameRule = opts.root ? (opts.nameRule ?? nameIsDNSSubdomain) : isValidPathSegmentName;
  if (generateName !== "") {
    for (const msg of nameRule(generateName, true))
      out.push(invalid(toPath(childLoc(loc, "generateName")), generateName, msg));
  }
  if (name === "") {
    // The API server generates a name from generateName before validating; embedded resources need none.
    if (opts.root && generateName === "")
      out.push(required(toPath(childLoc(loc, "name")), "name or generateName is required"));
  } else {
    for (const msg of nameRule(name, false)) out.push(invalid(toPath(childLoc(loc, "name")), name, msg));
  }
  const namespace = str("namespace");
  if (namespace !== "") {
    for (const msg of isDNS1123Label(namespace)) out.push(invalid(toPath(childLoc(loc, "namespace")), namespace, msg));
  }
  const generation = getKey(m, "generation");
  if (typeof generation === "number" && generation < 0) {
    out.push(invalid(toPath(childLoc(loc, "generation")), generation, "must be greater than or equal to 0"));
  }
  const labels = getKey(m, "labels");
  if (isObject(labels)) {
    const path = toPath(childLoc(loc, "labels"));
    for (const e of labelErrors(Object.entries(labels)))
      for (const msg of e.messages) out.push(invalid(path, e.value, msg));
  }
  const annotations = getKey(m, "annotations");
  if (isObject(annotations)) {
    const path = toPath(childLoc(loc, "annotations"));
    const { keys, bytes } = annotationErrors(Object.entries(annotations));
    for (const e of keys) for (const msg of e.messages) out.push(invalid(path, e.value, msg));
    if (bytes > totalAnnotationSizeLimit)
      out.push(tooLong(openAPIPath(childLoc(loc, "annotations")), "", totalAnnotationSizeLimit));
  }
  const finalizers = getKey(m, "finalizers");
  if (Array.isArray(finalizers)) validateFinalizers(finalizers, toPath(childLoc(loc, "finalizers")), out);
  const owners = getKey(m, "ownerReferences");
  if (Array.isArray(owners)) validateOwnerReferences(owners, childLoc(loc, "ownerReferences"), out);
  return out;
}

/**
 * apimachinery's ValidateFinalizers: each a qualified name, and not both of the garbage collector's
 * opposite policies (metav1.FinalizerOrphanDependents and FinalizerDeleteDependents).
 */
function validateFinalizers(finalizers: JsonValue[], path: FieldPath, out: Finding[]): void {
  for (const f of finalizers)
    if (typeof f === "string") for (const msg of isQualifiedName(f)) out.push(invalid(path, f, msg));
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion"))
    out.push(invalid(path, finalizers, "finalizer orphan and foregroundDeletion cannot be both set"));
}

/** The finalizers of the API server's own controllers, which need no domain (metav1 and core). */
const standardFinalizers: ReadonlySet<string> = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/**
 * What apiextensions-apiserver's customresource strategy warns on creating a custom resource
 * (WarningsOnCreate, generateWarningsFromObj, validateKubeFinalizerName): each finalizer without a `/` that is
 * no standard one, in kubernetes#127303's words (1.32 on); on an update (`old`), only the finalizers the object
 * adds. Go takes them from a string set, sorted and each once. The same function warns of a finalizer that is
 * no qualified name, which ValidateObjectMeta has refused already: that error is the finding, not a warning too.
 */
export function customResourceFinalizerWarnings(object: JsonObject, old?: JsonObject): Finding[] {
  const finalizersOf = (o: JsonObject | undefined) => {
    const meta = o === undefined ? undefined : getKey(o, "metadata");
    const list = isObject(meta) ? getKey(meta, "finalizers") : undefined;
    return Array.isArray(list) ? list : [];
  };
  const list = finalizersOf(object);
  const before = new Set(finalizersOf(old));
  const added = [...new Set(list)].filter((f): f is string => typeof f === "string" && !before.has(f)).sort();
  return added
    .filter((f) => !f.includes("/") && !standardFinalizers.has(f) && isQualifiedName(f).length === 0)
    .map((f) => {
      const text = `metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`;
      const at = ["metadata", "finalizers", list.indexOf(f)];
      return {
        ...finding({ type: "FieldValueInvalid", path: at, detail: text, rule: "schema", severity: "warning" }),
        message: text,
      };
    });
}

/**
 * apimachinery's ValidateOwnerReferences: each reference names a version, kind, name and uid, and is not an
 * Event (BannedOwners); at most one is the controller. The paths are the list's, unindexed, as the server's.
 */
function validateOwnerReferences(owners: JsonValue[], ownersLoc: Loc, out: Finding[]): void {
  const path = toPath(ownersLoc);
  let firstController: string | undefined;
  for (const ref of owners) {
    if (!isObject(ref)) continue;
    const field = (k: string) => {
      const v = getKey(ref, k);
      return typeof v === "string" ? v : "";
    };
    const apiVersion = field("apiVersion");
    // schema.FromAPIVersionAndKind: an apiVersion ParseGroupVersion refuses (two slashes) has no group or version
    const { group, version } =
      apiVersion.split("/").length > 2 ? { group: "", version: "" } : splitApiVersion(apiVersion);
    if (version === "")
      out.push(invalid(toPath(childLoc(ownersLoc, "apiVersion")), apiVersion, "version must not be empty"));
    for (const k of ["kind", "name", "uid"]) {
      if (field(k) === "") out.push(invalid(toPath(childLoc(ownersLoc, k)), field(k), "must not be empty"));
    }
    // schema.GroupVersionKind's String(): "/v1, Kind=Event" for the core group
    if (group === "" && version === "v1" && field("kind") === "Event")
      out.push(invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner"));
    if (getKey(ref, "controller") !== true) continue;
    const controller = `${field("kind")}/${field("name")}`;
    if (firstController === undefined) firstController = controller;
    else
      out.push(
        invalid(
          path,
          owners,
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${controller}`,
        ),
      );
  }
}

/**
 * Labels and annotations are map[string]string: a value of another type is
 * named by its own entry (`metadata.labels.x`), where the server's decoding
 * fails. A null decodes as "", as Go's encoding/json does.
 */
function stringValues(map: JsonObject, loc: Loc, out: Finding[]): void {
  for (const key of Object.keys(map)) {
    const v = getKey(map, key) as JsonValue;
    if (v !== null && typeof v !== "string") out.push(invalidType(childLoc(loc, { key }), "string", kindOf(v)));
  }
}

/** apiextensions' validateEmbeddedResource: apiVersion and kind of an embedded object, into `out`. */
export function validateTypeMeta(obj: JsonObject, loc: Loc | undefined, out: Finding[]): void {
  for (const key of ["apiVersion", "kind"]) {
    const path = toPath(childLoc(loc, key));
    if (!hasKey(obj, key)) {
      out.push(required(path));
      continue;
    }
    const v = getKey(obj, key) as JsonValue;
    if (typeof v !== "string") out.push(invalid(path, v, "must be a string"));
    else if (v === "") out.push(invalid(path, v, "must not be empty"));
    else if (key === "apiVersion" && v !== "/" && (v.match(/\//g)?.length ?? 0) > 1) {
      out.push(invalid(path, v, `unexpected GroupVersion string: ${v}`));
    } else if (key === "kind") {
      const errs = isDNS1035Label(v.toLowerCase());
      if (errs.length > 0)
        out.push(invalid(path, v, `may have mixed case, but should otherwise match: ${errs.join(",")}`));
    }
  }
}
