/** `POST /v1/validate` and `POST /v1/normalize`: objects against the deployed or an inline CRD. */
import type { Hono } from "hono";
import {
  buildCatalog,
  type Catalog,
  type Change,
  defaultRelease,
  documentOf,
  type FieldPath,
  type Finding,
  findingToJson,
  formatPath,
  isCrd,
  isObject,
  type JsonObject,
  type JsonValue,
  type KubernetesRelease,
  minorOf,
  type Note,
  normalize,
  objectsOf,
  refusedCrdStructure,
  releaseOf,
  type SourceDocument,
  undecodableList,
  validateObject,
  withListItems,
} from "../../src/index.js";
import type { RouteContext } from "../app.js";
import { Budget, checkShape, type ReadBody, RequestError, readLocated, wrapManifest } from "../request.js";
import { validateNormalizeRequest, validateValidateRequest } from "../validate-requests.generated.js";

export function validateRoute(app: Hono, ctx: RouteContext): void {
  app.post("/v1/validate", async (c) => {
    const { body: sent, locate } = wrapManifest(await readLocated(c.req.raw, { manyDocuments: true }));
    const body = checkShape(validateValidateRequest, sent);
    const options = body.options ?? {};
    const release = options.kubernetesVersion === undefined ? undefined : releaseOf(options.kubernetesVersion);
    if (release && "error" in release) {
      throw new RequestError(422, "options.kubernetesVersion", `kubernetesVersion ${release.error}`);
    }
    const catalog = catalogFor(body, ctx.catalog, release?.release);
    // The schema asks for one of them: `objects` when given, else `object`.
    const many = body.objects !== undefined;
    const objects = body.objects ?? (body.object ? [body.object] : []);
    const unknownFields = options.strict === false ? "warning" : "error";
    const unpacked = objects.map((object, i) => objectsIn(object, many ? ["objects", i] : ["object"], locate));
    // The stored revision of the body's one object (a List's one item too); of none among several.
    const oldObject = unpacked.flat().length === 1 ? (body.oldObject ?? undefined) : undefined;
    const budget = new Budget(ctx.budgetMs);
    let valid = true;
    const findings: Record<string, unknown>[] = [];
    for (const [i, items] of unpacked.entries()) {
      for (const item of items) {
        budget.check(many ? `objects[${i}]` : "object");
        const type = typeOf(item.value);
        // An item is checked as an object sent alone is (objectsOf would take a CRD item for a declaration, unchecked).
        const undecodable = undecodableList(item);
        const found = undecodable
          ? [undecodable]
          : type
            ? validateObject(catalog, type.apiVersion, type.kind, type.object, {
                oldObject,
                ratcheting: options.ratcheting !== false,
                unknownFields,
                kubernetesVersion: release?.release,
              }).map((f) => ({ ...f, ...item.locate(f.path) }))
            : notAnObject(item);
        valid &&= !found.some((f) => f.severity === "error");
        // a loop, not push(...): an object may have more findings than a call takes arguments
        for (const f of found) findings.push(answer(f, locate !== undefined, many ? i : undefined, placeOf(item)));
      }
    }
    return c.json({ valid, findings });
  });
}

export function normalizeRoute(app: Hono, ctx: RouteContext): void {
  app.post("/v1/normalize", async (c) => {
    const { body: sent, locate } = wrapManifest(await readLocated(c.req.raw));
    const body = checkShape(validateNormalizeRequest, sent);
    const catalog = catalogFor(body, ctx.catalog);
    const items = objectsIn(body.object, ["object"], locate);
    const oldObject = items.length === 1 ? (body.oldObject ?? undefined) : undefined;
    // The object sent with each of its objects normalized in place: itself, or each item of a List.
    let object: JsonValue = body.object;
    const changes: Change[] = [];
    const notes: Note[] = [];
    const findings: Record<string, unknown>[] = [];
    const lines = locate !== undefined;
    for (const item of items) {
      const type = typeOf(item.value);
      const place = placeOf(item);
      if (!type) {
        for (const f of notAnObject(item)) findings.push(answer(f, lines, undefined, place));
        continue;
      }
      // As sent: a typed list's item leaves its apiVersion and kind to the list, and is given back so.
      const sentItem = valueAt(body.object, place);
      const schema = catalog.schemaFor(type.apiVersion, type.kind);
      const result = normalize({ object: sentItem, oldObject, schema }, { mode: body.mode, policy: body.policy });
      if (result.object !== sentItem) object = replaced(object, place, result.object);
      changes.push(...result.changes.map((change) => placed(change, place)));
      notes.push(...result.notes.map((note) => placed(note, place)));
      for (const f of result.errors) findings.push(answer({ ...f, ...item.locate(f.path) }, lines, undefined, place));
    }
    return c.json({ object, changes, notes, findings });
  });
}

/**
 * The objects an object of the body (at `at`) stands for, as documents located in the body: itself, or the
 * items of a List (`kubectl get -o yaml` prints one), which kubectl applies one by one: the core reads them as
 * it reads a file's for the CLI.
 */
function objectsIn(object: JsonObject, at: FieldPath, locate: ReadBody["locate"]): SourceDocument[] {
  typeMeta(object, formatPath(at));
  const doc = documentOf(object, "body");
  return withListItems([locate ? { ...doc, locate: (path: FieldPath) => locate([...at, ...path]) } : doc]);
}

/** An object's apiVersion and kind, when it is an object that has both. */
function typeOf(value: JsonValue): { object: JsonObject; apiVersion: string; kind: string } | undefined {
  if (!isObject(value)) return undefined;
  const { apiVersion, kind } = value;
  if (typeof apiVersion !== "string" || apiVersion === "" || typeof kind !== "string" || kind === "") return undefined;
  return { object: value, apiVersion, kind };
}

/** A List's item that is no object with an apiVersion and kind: the findings the CLI gives for it in a file. */
const notAnObject = (item: SourceDocument): Finding[] => objectsOf([item]).findings;

/** Where a List's item stands in the object sent (`items[2]`, `items[0].items[1]`); the object itself is at []. */
const placeOf = (doc: SourceDocument): FieldPath =>
  doc.within ? [...placeOf(doc.within.document), ...doc.within.path] : [];

/** What stands at `place` (a List's `items[i]…`) in `value`. */
function valueAt(value: JsonValue, place: FieldPath): JsonValue {
  const [, index, ...rest] = place;
  if (typeof index !== "number") return value;
  return valueAt(((value as JsonObject).items as JsonValue[])[index] as JsonValue, rest);
}

/** `value` with what stands at `place` (a List's `items[i]…`) replaced, copying only the Lists on the way. */
function replaced(value: JsonValue, place: FieldPath, by: JsonValue): JsonValue {
  const [, index, ...rest] = place;
  if (typeof index !== "number") return by;
  const list = value as JsonObject;
  const items = [...(list.items as JsonValue[])];
  items[index] = replaced(items[index] as JsonValue, rest, by);
  return { ...list, items };
}

/** A change or note of a List's item, placed in the object sent: `items[1].spec…`, `/items/1/spec…`. */
function placed<T extends { path: string; pointer: string }>(x: T, place: FieldPath): T {
  if (place.length === 0) return x;
  const dot = x.path === "" || x.path.startsWith("[") ? "" : ".";
  // A place is `items` and indexes only: nothing in it needs a JSON Pointer's escapes.
  return { ...x, path: `${formatPath(place)}${dot}${x.path}`, pointer: `/${place.join("/")}${x.pointer}` };
}

/**
 * A finding as the routes answer it: the line and column of its field in a YAML body, none in a JSON body;
 * `document`, its object's index in `objects`, when the body sent several; `item`, where a List's item is in its
 * object (`items[2]`), as a finding's `field` is the item's own, as kubectl applies it alone.
 */
function answer(f: Finding, lines: boolean, document?: number, item: FieldPath = []): Record<string, unknown> {
  const { file: _file, document: _document, line, column, ...rest } = f;
  return findingToJson({
    ...rest,
    ...(document === undefined ? {} : { document }),
    ...(item.length === 0 ? {} : { item: formatPath(item) }),
    ...(lines ? { line, column } : {}),
  });
}

/**
 * The deployed catalog, or one built from the request's `crd` and `schema` (422 naming the field when invalid):
 * a CRD sent is a new one, its rules compiled with the libraries `release`'s API server gives a new rule.
 */
export function catalogFor(
  body: { crd?: JsonObject; schema?: JsonObject },
  deployed: Catalog,
  release?: KubernetesRelease,
): Catalog {
  const inline = (["crd", "schema"] as const).flatMap((f) => {
    const value = body[f];
    if (value === undefined) return [];
    return [f === "crd" ? crdDocument(value, release) : documentOf(value, f)];
  });
  if (inline.length === 0) return deployed;
  const { catalog, findings } = buildCatalog(inline, [], { kubernetesVersion: release });
  const [bad] = findings.filter((f) => f.severity === "error");
  if (bad) throw new RequestError(422, bad.file === "schema" ? "schema" : "crd", bad.message);
  return catalog;
}

/**
 * The request's `crd` as a document to build a catalog from; 422 when it is no CRD (a catalog would pass it
 * over) or one the API server of `release` refuses to create (a catalog reads partial CRDs, kustomize patches,
 * without a word), with the first of the server's reasons.
 */
export function crdDocument(value: JsonObject, release: KubernetesRelease = defaultRelease): SourceDocument {
  if (!isCrd(value)) throw new RequestError(422, "crd", "not a CustomResourceDefinition (apiextensions.k8s.io)");
  const [refused] = refusedCrdStructure(value, minorOf(release));
  if (refused) throw new RequestError(422, "crd", refused.message);
  return documentOf(value, "crd");
}

export function typeMeta(object: JsonObject, field: string): { apiVersion: string; kind: string } {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== "string" || apiVersion === "" || typeof kind !== "string" || kind === "") {
    throw new RequestError(422, field, "the object needs a string apiVersion and kind");
  }
  return { apiVersion, kind };
}
