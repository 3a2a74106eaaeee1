/**
 * The sizes the API server's static cost estimate knows of a CRD schema node, as the `DeclType` of that node
 * holds them: the least number of bytes a value takes in a JSON request (`MinSerializedSize`) and the most
 * characters, bytes, items or entries it can have (`MaxElements`), from maxLength, maxItems and maxProperties
 * where the schema sets them, else from what fits into one request of MaxRequestSizeBytes. Then the size
 * estimator that answers cel-go's estimator from those numbers, and the cardinality of a rule's node (how many
 * times it can occur in one object), by which a rule's estimated cost is multiplied.
 *
 * Sources: k8s.io/apiserver pkg/cel/common/schemas.go (`SchemaDeclType` and its estimate… helpers),
 * pkg/cel/types.go (NewListType, NewMapType, NewObjectType and the shared scalar types), pkg/cel/limits.go
 * (the size constants), pkg/apis/cel/config.go (MaxRequestSizeBytes); apiextensions-apiserver
 * pkg/apiserver/schema/cel/model/schemas.go (`WithTypeAndObjectMeta`), pkg/apiserver/schema/cel/compilation.go
 * (`sizeEstimator`, `maxCardinality`), pkg/apis/apiextensions/validation/cel_validation.go (`extractMaxElements`).
 *
 * Only the bounds written on the node itself count: maxLength, maxItems or maxProperties inside allOf, anyOf or
 * oneOf are not read, as the structural schema keeps them apart from the node's own.
 */
import { byteLength } from "../../names/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { escapeName } from "../language/escape.js";
import type { Range, SizeEstimator } from "./estimate-types.js";

/** apiserver pkg/apis/cel config.go: the largest request the API server takes, 3 MiB. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** A string's most characters when nothing bounds it: a request holding nothing but the string and its quotes. */
const UNBOUNDED_STRING_LENGTH = MAX_REQUEST_SIZE_BYTES - 2;

/** pkg/cel/limits.go: the least JSON of each scalar (`""`, `true`, `0`, `"0"`, `"YYYY-MM-DD"`, …). */
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
/** pkg/cel/limits.go: the longest duration and date-time strings, with their quotes. */
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
/** An int-or-string's least JSON is one digit. */
const MIN_INT_OR_STRING_SIZE = 1;

/**
 * The first release whose int-or-string nodes take their maxLength (× 4, as strings) as their MaxElements
 * (kubernetes#132837, in 1.34.0); before it they were always as long as a request.
 */
const INT_OR_STRING_MAX_LENGTH_SINCE = 34;

/** What a schema node's DeclType holds of sizes, and the DeclTypes it leads to. */
interface DeclSize {
  minSerializedSize: number;
  /** DeclType.MaxElements as Go leaves it: 0 for booleans, numbers and objects, which set none. */
  maxElements: number;
  /** Whether the DeclType sets MaxElements at all (strings, bytes, durations, timestamps, dyn, lists, maps). */
  bounded: boolean;
  /** A list's items or a map's values (ElemType). */
  elem?: DeclSize;
  /** A map's keys (KeyType). */
  key?: DeclSize;
  /** An object's fields (Fields), by their escaped CEL names. */
  fields?: ReadonlyMap<string, DeclSize>;
}

/**
 * A map's keys: the shared `StringType` of types.go, whose MaxElements is never set, so the estimator answers
 * 0 for `@keys`.
 */
const MAP_KEY: DeclSize = { minSerializedSize: MIN_STRING_SIZE, maxElements: 0, bounded: false };

const PLAIN_STRING: JsonObject = { type: "string" };
/** The metadata `WithTypeAndObjectMeta` puts at a resource's root when the schema's own lacks name or generateName. */
const RESOURCE_METADATA: JsonObject = {
  type: "object",
  properties: { name: PLAIN_STRING, generateName: PLAIN_STRING },
};

interface CacheEntry {
  root?: DeclSize | null;
  plain?: DeclSize | null;
}

/** One cache per estimator behaviour: int-or-string with maxLength read (1.34 on), and without (1.32, 1.33). */
const caches = { current: new WeakMap<JsonObject, CacheEntry>(), legacy: new WeakMap<JsonObject, CacheEntry>() };

const zeroIfNegative = (n: number): number => (n < 0 ? 0 : n);

/** A bound as the structural schema reads it (an int64), or undefined when the node does not set it. */
function boundOf(node: JsonObject, key: string): number | undefined {
  const v = getKey(node, key);
  return typeof v === "number" ? Math.trunc(v) : undefined;
}

const isEmbeddedResource = (node: JsonObject): boolean => getKey(node, "x-kubernetes-embedded-resource") === true;

/**
 * `SchemaDeclType(node, resourceRoot)`'s sizes, or undefined where it gives no DeclType. An embedded resource is
 * always a resource root, as every caller of SchemaDeclType passes it (and as `schemaType` builds it).
 */
function declSize(node: JsonObject, resourceRoot: boolean, legacy: boolean): DeclSize | undefined {
  resourceRoot ||= isEmbeddedResource(node);
  const cache = legacy ? caches.legacy : caches.current;
  let entry = cache.get(node);
  if (entry === undefined) {
    entry = {};
    cache.set(node, entry);
  }
  const slot = resourceRoot ? "root" : "plain";
  const cached = entry[slot];
  if (cached !== undefined) return cached ?? undefined;
  const built = build(node, resourceRoot, legacy);
  entry[slot] = built ?? null;
  return built;
}

/** A child schema's sizes (items, additionalProperties): a resource root only when embedded. */
function childSize(v: JsonValue | undefined, legacy: boolean): DeclSize | undefined {
  return isObject(v) ? declSize(v, false, legacy) : undefined;
}

function build(node: JsonObject, resourceRoot: boolean, legacy: boolean): DeclSize | undefined {
  if (getKey(node, "x-kubernetes-int-or-string") === true) {
    const maxLength = legacy ? undefined : boundOf(node, "maxLength");
    return {
      minSerializedSize: MIN_INT_OR_STRING_SIZE,
      maxElements: maxLength === undefined ? UNBOUNDED_STRING_LENGTH : zeroIfNegative(maxLength) * 4,
      bounded: true,
    };
  }
  switch (getKey(node, "type")) {
    case "array":
      return arraySize(node, legacy);
    case "object":
      return objectSize(node, resourceRoot, legacy);
    case "string":
      return stringSize(node);
    case "boolean":
      return { minSerializedSize: MIN_BOOL_SIZE, maxElements: 0, bounded: false };
    case "number":
    case "integer":
      return { minSerializedSize: MIN_NUMBER_SIZE, maxElements: 0, bounded: false };
    default:
      return undefined;
  }
}

/** A list is at least `[]`; without maxItems, as many of its smallest items, each with a comma, as fit in a request. */
function arraySize(node: JsonObject, legacy: boolean): DeclSize | undefined {
  const elem = childSize(getKey(node, "items"), legacy);
  if (elem === undefined) return undefined;
  const maxItems = boundOf(node, "maxItems");
  return {
    minSerializedSize: 2,
    maxElements:
      maxItems === undefined
        ? Math.floor(UNBOUNDED_STRING_LENGTH / (elem.minSerializedSize + 1))
        : zeroIfNegative(maxItems),
    bounded: true,
    elem,
  };
}

function objectSize(node: JsonObject, resourceRoot: boolean, legacy: boolean): DeclSize | undefined {
  const additional = getKey(node, "additionalProperties");
  if (isObject(additional)) {
    const elem = childSize(additional, legacy);
    if (elem === undefined) return undefined;
    const maxProperties = boundOf(node, "maxProperties");
    // besides its value, each entry takes a key of (as Go reckons) 2 bytes, its quotes, a colon and a comma: 6
    return {
      minSerializedSize: 2,
      maxElements:
        maxProperties === undefined
          ? Math.floor(UNBOUNDED_STRING_LENGTH / (elem.minSerializedSize + 6))
          : zeroIfNegative(maxProperties),
      bounded: true,
      elem,
      key: MAP_KEY,
    };
  }
  const required = new Set<string>();
  const requiredList = getKey(node, "required");
  if (Array.isArray(requiredList)) for (const r of requiredList) if (typeof r === "string") required.add(r);
  const fields = new Map<string, DeclSize>();
  // an object is at least `{}`, plus `"name":` and a comma around each required property's least value
  let minSerializedSize = 2;
  for (const [name, prop] of propertiesOf(node, resourceRoot)) {
    const size = declSize(prop, false, legacy);
    if (size === undefined) continue;
    const escaped = escapeName(name);
    if (escaped !== undefined) fields.set(escaped, size);
    // an unescapable property is no field, yet still takes its bytes; a default is filled in by the server
    if (required.has(name) && !hasDefault(prop)) minSerializedSize += byteLength(name) + size.minSerializedSize + 4;
  }
  return { minSerializedSize, maxElements: 0, bounded: false, fields };
}

/** A default of `null` is no default to the structural schema. */
function hasDefault(prop: JsonObject): boolean {
  const d = getKey(prop, "default");
  return d !== undefined && d !== null;
}

/**
 * The node's properties, with `WithTypeAndObjectMeta` applied at a resource's root: unless the schema itself
 * declares kind and apiVersion as strings and metadata as an object with string name and generateName, those
 * three are replaced by plain strings and a metadata of just name and generateName (so their own bounds are lost).
 */
function propertiesOf(node: JsonObject, resourceRoot: boolean): Array<[string, JsonObject]> {
  const props = getKey(node, "properties");
  const entries: Array<[string, JsonObject]> = [];
  if (isObject(props))
    for (const name of Object.keys(props)) {
      const prop = getKey(props, name);
      if (isObject(prop)) entries.push([name, prop]);
    }
  if (!resourceRoot || hasTypeAndObjectMeta(props)) return entries;
  const replaced = new Set(["kind", "apiVersion", "metadata"]);
  return [
    ...entries.filter(([name]) => !replaced.has(name)),
    ["kind", PLAIN_STRING],
    ["apiVersion", PLAIN_STRING],
    ["metadata", RESOURCE_METADATA],
  ];
}

function hasTypeAndObjectMeta(props: JsonValue | undefined): boolean {
  if (!isObject(props)) return false;
  const typeOf = (parent: JsonObject, name: string): JsonValue | undefined => {
    const p = getKey(parent, name);
    return isObject(p) ? getKey(p, "type") : undefined;
  };
  const metadata = getKey(props, "metadata");
  const metaProps = isObject(metadata) ? getKey(metadata, "properties") : undefined;
  return (
    typeOf(props, "kind") === "string" &&
    typeOf(props, "apiVersion") === "string" &&
    typeOf(props, "metadata") === "object" &&
    isObject(metaProps) &&
    typeOf(metaProps, "name") === "string" &&
    typeOf(metaProps, "generateName") === "string"
  );
}

/**
 * Strings by format: bytes count bytes (maxLength as is), durations and timestamps have fixed longest forms
 * (their maxLength is not read), other strings count up to 4 bytes a character (maxLength × 4), else the
 * longest enum value's bytes, else a whole request.
 */
function stringSize(node: JsonObject): DeclSize {
  const maxLength = boundOf(node, "maxLength");
  switch (getKey(node, "format")) {
    case "byte":
      return {
        minSerializedSize: MIN_STRING_SIZE,
        maxElements: maxLength === undefined ? UNBOUNDED_STRING_LENGTH : zeroIfNegative(maxLength),
        bounded: true,
      };
    case "duration":
      return { minSerializedSize: MIN_DURATION_SIZE_JSON, maxElements: MAX_DURATION_SIZE_JSON, bounded: true };
    case "date":
      return { minSerializedSize: JSON_DATE_SIZE, maxElements: JSON_DATE_SIZE, bounded: true };
    case "date-time":
      return { minSerializedSize: MIN_DATETIME_SIZE_JSON, maxElements: MAX_DATETIME_SIZE_JSON, bounded: true };
  }
  let maxElements = UNBOUNDED_STRING_LENGTH;
  const enumValues = getKey(node, "enum");
  if (maxLength !== undefined) maxElements = zeroIfNegative(maxLength) * 4;
  else if (Array.isArray(enumValues) && enumValues.length > 0) {
    // the enum check has already refused any other value when rules run; non-string values count for nothing
    maxElements = 0;
    for (const v of enumValues) if (typeof v === "string") maxElements = Math.max(maxElements, byteLength(v));
  }
  return { minSerializedSize: MIN_STRING_SIZE, maxElements, bounded: true };
}

const isLegacy = (minor: number): boolean => minor < INT_OR_STRING_MAX_LENGTH_SINCE;

/**
 * DeclType.MinSerializedSize of `node` (a resource's root when `resourceRoot`): the least bytes its value takes
 * in a JSON request. Undefined where `SchemaDeclType` gives no type (no `type`, not int-or-string, an array
 * without typed items, a map of untyped values).
 */
export function minSerializedSize(node: JsonObject, resourceRoot = false): number | undefined {
  return declSize(node, resourceRoot, false)?.minSerializedSize;
}

/**
 * DeclType.MaxElements of `node`: a string's most bytes, bytes' most bytes, a list's most items, a map's most
 * entries, an int-or-string's most bytes. Undefined for booleans, numbers and objects, whose DeclType sets
 * none (Go leaves it 0, and the size estimator answers 0 for them), and where there is no DeclType.
 * `minor`: the API server's release (Infinity: the newest).
 */
export function maxElements(
  node: JsonObject,
  resourceRoot = false,
  minor = Number.POSITIVE_INFINITY,
): number | undefined {
  const size = declSize(node, resourceRoot, isLegacy(minor));
  return size?.bounded ? size.maxElements : undefined;
}

/**
 * compilation.go's `sizeEstimator` for the rules on `node`: the path's first element (`self`, `oldSelf`) is the
 * node; `@items` and `@values` step to a list's items or a map's values, `@keys` to a map's keys, any other name
 * to the object field of that escaped name. The answer is `{min: 0, max: MaxElements}` of the node reached
 * (0 for booleans, numbers, objects and map keys), undefined for an empty path or one leading nowhere.
 */
export function sizeEstimator(
  node: JsonObject,
  resourceRoot: boolean,
  minor = Number.POSITIVE_INFINITY,
): SizeEstimator {
  const root = declSize(node, resourceRoot, isLegacy(minor));
  return (path: readonly string[]): Range | undefined => {
    if (root === undefined || path.length === 0) return undefined;
    let current: DeclSize | undefined = root;
    for (let i = 1; i < path.length && current !== undefined; i++) {
      const step = path[i]!;
      if (step === "@items" || step === "@values") current = current.elem;
      else if (step === "@keys") current = current.key;
      else current = current.fields?.get(step);
    }
    return current === undefined ? undefined : { min: 0, max: current.maxElements };
  };
}

/**
 * compilation.go's `maxCardinality`: how many times a value of at least `minSize` bytes, each followed by a
 * comma, fits into one request; a rule's cost is multiplied by it when a list or map above its node is unbounded.
 */
export function maxCardinality(minSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));
}

/**
 * cel_validation.go's `extractMaxElements`: the factor by which `node` multiplies the number of times its
 * children can occur. A list's maxItems, a map's maxProperties (any object with additionalProperties, even a
 * boolean one), undefined (unbounded) for a list or map without them, 1 for objects and everything else.
 * A rule's node's cardinality is the product of its ancestors' factors, unbounded when any is.
 */
export function cardinalityFactor(node: JsonObject): number | undefined {
  switch (getKey(node, "type")) {
    case "object": {
      const additional = getKey(node, "additionalProperties");
      if (additional === undefined || additional === null) return 1;
      const maxProperties = boundOf(node, "maxProperties");
      return maxProperties === undefined ? undefined : zeroIfNegative(maxProperties);
    }
    case "array": {
      const maxItems = boundOf(node, "maxItems");
      return maxItems === undefined ? undefined : zeroIfNegative(maxItems);
    }
    default:
      return 1;
  }
}
