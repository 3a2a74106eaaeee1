/**
 * The HTTP face: one Hono app over the core, the same on Node and Workers.
 * This first cut serves /healthz, /v1/normalize and /v1/validate;
 * CRDs come from the deployment (`defaults`) or inline in the request.
 */
import { Hono } from "hono";
import {
  buildCatalog,
  type Catalog,
  depthOf,
  documentOf,
  type Finding,
  findingToJson,
  isObject,
  type JsonObject,
  type JsonValue,
  normalize,
  parseSource,
  validateObject,
} from "../src/index.js";

export interface AppOptions {
  /** CRD and schema files deployed with the function: the default catalog. */
  defaults: ReadonlyArray<{ path: string; text: string }>;
}

const maxBodyBytes = 3 * 1024 * 1024; // the API server's request limit
const maxDepth = 512;

class RequestError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export function createApp({ defaults }: AppOptions): Hono {
  const documents = defaults.flatMap((f) => parseSource(f.text, f.path).documents);
  const deployed = buildCatalog(documents).catalog;
  const app = new Hono();

  app.onError((err, c) => {
    if (err instanceof RequestError) return c.json({ error: err.message, field: err.field }, err.status);
    // Never a stack trace in a response.
    return c.json({ error: "internal error" }, 500);
  });

  app.get("/healthz", (c) => c.json({ status: "ok" }));

  app.post("/v1/normalize", async (c) => {
    const body = await readBody(c.req.raw);
    const object = objectField(body, "object");
    const oldObject = optionalObject(body, "oldObject");
    const mode = enumField(body, "mode", ["update", "apply"], "update");
    const policy = enumField(body, "policy", ["kep", "smd"], "kep");
    const schema = schemaOf(catalogFor(body, deployed), object);
    const result = normalize({ object, oldObject, schema }, { mode, policy });
    return c.json({
      object: result.object,
      changes: result.changes,
      notes: result.notes,
      findings: result.errors.map(findingToJson),
    });
  });

  app.post("/v1/validate", async (c) => {
    const body = await readBody(c.req.raw);
    const catalog = catalogFor(body, deployed);
    const objects = Object.hasOwn(body, "objects") ? listField(body, "objects") : [objectField(body, "object")];
    const oldObject = optionalObject(body, "oldObject");
    const options = optionalObject(body, "options");
    const ratcheting = options?.ratcheting !== false;
    const unknownFields = options?.strict === false ? "warning" : "error";
    const findings: Finding[] = [];
    objects.forEach((object, i) => {
      const { apiVersion, kind } = typeMeta(object);
      const old = objects.length === 1 ? oldObject : undefined;
      const found = validateObject(catalog, apiVersion, kind, object, { oldObject: old, ratcheting, unknownFields });
      findings.push(...found.map((f) => (objects.length > 1 ? { ...f, document: i } : f)));
    });
    return c.json({ valid: !findings.some((f) => f.severity === "error"), findings: findings.map(findingToJson) });
  });

  return app;
}

async function readBody(req: Request): Promise<JsonObject> {
  const type = req.headers.get("content-type") ?? "application/json";
  const yaml = /^(application|text)\/(x-)?yaml/.test(type);
  if (!yaml && !type.startsWith("application/json")) {
    throw new RequestError(415, "Content-Type", `unsupported content type "${type}": send JSON or YAML`);
  }
  const text = await req.text();
  if (text.length > maxBodyBytes)
    throw new RequestError(413, "body", `request body is larger than ${maxBodyBytes} bytes`);
  let value: JsonValue;
  if (yaml) {
    const parsed = parseSource(text, "body");
    const [first] = parsed.findings;
    if (first) throw new RequestError(400, "body", `line ${first.line}: ${first.message}`);
    value = parsed.documents[0]?.value ?? null;
  } else {
    try {
      value = JSON.parse(text) as JsonValue;
    } catch (e) {
      throw new RequestError(400, "body", `malformed JSON: ${(e as Error).message}`);
    }
  }
  if (!isObject(value)) throw new RequestError(400, "body", "the body must be a JSON or YAML object");
  if (depthOf(value) > maxDepth) throw new RequestError(400, "body", `the body nests deeper than ${maxDepth} levels`);
  return value;
}

function objectField(body: JsonObject, name: string): JsonObject {
  const v = Object.hasOwn(body, name) ? body[name] : undefined;
  if (!isObject(v)) throw new RequestError(400, name, `${name} must be an object`);
  return v;
}

function optionalObject(body: JsonObject, name: string): JsonObject | undefined {
  return Object.hasOwn(body, name) && body[name] !== null ? objectField(body, name) : undefined;
}

function listField(body: JsonObject, name: string): JsonObject[] {
  const v = body[name];
  if (!Array.isArray(v) || !v.every(isObject)) throw new RequestError(400, name, `${name} must be a list of objects`);
  return v;
}

function enumField<T extends string>(body: JsonObject, name: string, allowed: readonly T[], fallback: T): T {
  const v = Object.hasOwn(body, name) ? body[name] : undefined;
  if (v === undefined || v === null) return fallback;
  if (typeof v === "string" && (allowed as readonly string[]).includes(v)) return v as T;
  throw new RequestError(400, name, `${name} must be one of ${allowed.join(", ")}`);
}

function catalogFor(body: JsonObject, deployed: Catalog): Catalog {
  const crd = optionalObject(body, "crd");
  if (!crd) return deployed;
  const { catalog, findings } = buildCatalog([documentOf(crd, "crd")]);
  const [bad] = findings.filter((f) => f.severity === "error");
  if (bad) throw new RequestError(422, "crd", bad.message);
  return catalog;
}

function typeMeta(object: JsonObject): { apiVersion: string; kind: string } {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    throw new RequestError(422, "object", "the object needs a string apiVersion and kind");
  }
  return { apiVersion, kind };
}

function schemaOf(catalog: Catalog, object: JsonObject) {
  const { apiVersion, kind } = typeMeta(object);
  return catalog.schemaFor(apiVersion, kind);
}
