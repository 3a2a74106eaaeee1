/**
 * The mutating admission webhook: an `AdmissionReview` (admission.k8s.io/v1) in, the
 * answer the API server expects out. The object is normalized (KEP-1027 unions, against
 * `request.oldObject` on UPDATE) and the normalized object validated: when it validates,
 * the answer allows it with a base64 JSONPatch (RFC 6902) of the normalization (no patch
 * when nothing changed); when it does not, the answer denies it with the findings as a
 * Kubernetes `Status` (422 Invalid, one cause per finding). DELETE and CONNECT are allowed
 * unchanged. The schemas come in as a parameter (`AdmissionLookup`), so this module does
 * not depend on how CRDs are read or catalogued. Pure and total: inputs are never mutated,
 * nothing from the request is executed, every outcome is an answer, never an exception.
 */
import type { Finding } from "../findings/index.js";
import { fromJsonPointer } from "../path/index.js";
import { type Change, describeChange, type NormalizeInput, normalize } from "../unions/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import type { ReviewAnswer } from "./conversion-review.js";

/** What the webhook needs to know of a kind: its union schema, and a validator. */
export interface AdmissionTarget {
  /** The schema whose unions normalize the object; undefined when none is known (nothing is normalized). */
  schema: NormalizeInput["schema"];
  /** Everything the API server would say about the (normalized) object; errors deny it. */
  validate(object: JsonObject, oldObject: JsonObject | undefined): Finding[];
}

/** The deployed catalog, as the webhook sees it. */
export type AdmissionLookup = (apiVersion: string, kind: string) => AdmissionTarget;

export interface AdmissionOptions {
  /** Normalization policy (default kep). */
  policy?: "kep" | "smd";
}

/** One operation of a JSON Patch (RFC 6902), as the webhook emits them. */
export interface PatchOperation {
  op: "add" | "replace" | "remove";
  path: string;
  value?: JsonValue;
}

const reviewApiVersions = new Set(["admission.k8s.io/v1", "admission.k8s.io/v1beta1"]);
const operations = new Set(["CREATE", "UPDATE", "DELETE", "CONNECT"]);

class Malformed {
  constructor(
    readonly field: string,
    readonly error: string,
  ) {}
}

/**
 * An AdmissionReview in, the answer out: HTTP 200 with `{apiVersion, kind, response}` for a
 * well-formed review, HTTP 400 with `{error, field}` naming the part at fault otherwise.
 *
 * `request.dryRun` does not change the answer: the webhook has no side effects at all
 * (it only computes a patch or a denial), so a dry run is answered as a real request.
 */
export function handleAdmissionReview(
  review: unknown,
  lookup: AdmissionLookup,
  options: AdmissionOptions = {},
): ReviewAnswer {
  let read: ReturnType<typeof readReview>;
  try {
    read = readReview(review);
  } catch (e) {
    if (e instanceof Malformed) return { status: 400, body: { error: e.error, field: e.field } };
    return { status: 400, body: { error: "the review could not be read", field: "" } };
  }
  const { apiVersion, uid, operation, object, oldObject, typeMeta } = read;
  const answer = (response: JsonObject): ReviewAnswer => ({
    status: 200,
    body: { apiVersion, kind: "AdmissionReview", response: { uid, ...response } },
  });
  if (operation === "DELETE" || operation === "CONNECT" || !object) return answer({ allowed: true });

  const target = lookup(typeMeta.apiVersion, typeMeta.kind);
  const old = operation === "UPDATE" ? oldObject : undefined;
  const normalized = normalize({ object, oldObject: old, schema: target.schema }, { policy: options.policy ?? "kep" });
  const result = isObject(normalized.object) ? normalized.object : object;
  const findings = [...normalized.errors, ...target.validate(result, old)];
  const errors = findings.filter((f) => f.severity === "error");
  if (errors.length > 0) return answer({ allowed: false, status: deniedStatus(errors) });

  // A webhook that changes an object says what it changed: the API server passes warnings on to the client.
  const warnings = [
    ...normalized.changes.map((c) => `kunion normalized the object: ${describeChange(c)}`),
    ...findings.filter((f) => f.severity === "warning").map((f) => f.message),
  ];
  const response: JsonObject = { allowed: true };
  if (normalized.changes.length > 0) {
    response.patchType = "JSONPatch";
    response.patch = base64(JSON.stringify(jsonPatch(object, normalized.changes)));
  }
  if (warnings.length > 0) response.warnings = warnings;
  return answer(response);
}

/** A Kubernetes `Status` for an invalid object, as the API server writes one (`StatusReasonInvalid`). */
function deniedStatus(errors: readonly Finding[]): JsonObject {
  return {
    status: "Failure",
    code: 422,
    reason: "Invalid",
    message: errors.map((f) => f.message).join("; "),
    details: { causes: errors.map((f) => ({ reason: f.type, message: f.message, field: f.field })) },
  };
}

/**
 * The JSON Patch of normalize's changes, against the object as the API server sent it:
 * `clear` removes; `set` and `restore` add the value, or replace it when the field is there.
 */
export function jsonPatch(object: JsonValue, changes: readonly Change[]): PatchOperation[] {
  const removed = new Set<string>();
  return changes.map((c): PatchOperation => {
    if (c.op === "clear") {
      removed.add(c.pointer);
      return { op: "remove", path: c.pointer };
    }
    const present = !removed.has(c.pointer) && resolve(object, c.pointer) !== undefined;
    return { op: present ? "replace" : "add", path: c.pointer, value: c.value ?? null };
  });
}

/** The value at a JSON Pointer (RFC 6901), or undefined. Own properties only. */
function resolve(value: JsonValue, pointer: string): JsonValue | undefined {
  let node: JsonValue | undefined = value;
  for (const seg of fromJsonPointer(pointer)) {
    if (Array.isArray(node)) node = typeof seg === "number" ? node[seg] : undefined;
    else if (isObject(node)) node = getKey(node, String(seg));
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function readReview(review: unknown) {
  if (!isObject(review)) throw new Malformed("", "the body must be a JSON object (an AdmissionReview)");
  const apiVersion = getKey(review, "apiVersion");
  if (typeof apiVersion !== "string" || !reviewApiVersions.has(apiVersion))
    throw new Malformed("apiVersion", `must be "admission.k8s.io/v1", not ${show(apiVersion)}`);
  const kind = getKey(review, "kind");
  if (kind !== "AdmissionReview") throw new Malformed("kind", `must be "AdmissionReview", not ${show(kind)}`);
  const request = getKey(review, "request");
  if (!isObject(request)) throw new Malformed("request", "must be an object");
  const uid = getKey(request, "uid");
  if (typeof uid !== "string" || uid === "")
    throw new Malformed("request.uid", `must be a non-empty string, not ${show(uid)}`);
  const operation = getKey(request, "operation");
  if (typeof operation !== "string" || !operations.has(operation))
    throw new Malformed("request.operation", `must be CREATE, UPDATE, DELETE or CONNECT, not ${show(operation)}`);
  const object = optionalObject(request, "object");
  const oldObject = optionalObject(request, "oldObject");
  if ((operation === "CREATE" || operation === "UPDATE") && !object)
    throw new Malformed("request.object", `must be an object on ${operation}`);
  return { apiVersion, uid, operation, object, oldObject, typeMeta: typeMetaOf(request, object) };
}

function optionalObject(request: JsonObject, name: string): JsonObject | undefined {
  const v = getKey(request, name);
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new Malformed(`request.${name}`, "must be an object or null");
  return v;
}

/** The object's apiVersion and kind; else `request.kind` ({group, version, kind}) says them. */
function typeMetaOf(request: JsonObject, object: JsonObject | undefined): { apiVersion: string; kind: string } {
  const apiVersion = object ? getKey(object, "apiVersion") : undefined;
  const kind = object ? getKey(object, "kind") : undefined;
  if (typeof apiVersion === "string" && apiVersion !== "" && typeof kind === "string" && kind !== "")
    return { apiVersion, kind };
  const gvk = getKey(request, "kind");
  if (!isObject(gvk)) return { apiVersion: "", kind: "" };
  const group = getKey(gvk, "group");
  const version = String(getKey(gvk, "version") ?? "");
  return {
    apiVersion: typeof group === "string" && group !== "" ? `${group}/${version}` : version,
    kind: String(getKey(gvk, "kind") ?? ""),
  };
}

function show(v: unknown): string {
  return v === undefined ? "nothing" : JSON.stringify(v);
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 (RFC 4648, padded) of a string's UTF-8 bytes; the same in every runtime. */
export function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i] as number, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += b === undefined ? "=" : alphabet[(n >> 6) & 63];
    out += c === undefined ? "=" : alphabet[n & 63];
  }
  return out;
}
