/**
 * Reading a request: the body (JSON or YAML, size and depth limits), its shape checked by
 * the validators Ajv compiled ahead of time from requests.ts, and the errors that become
 * `{error, field}` answers. Nothing here echoes an internal message.
 */
import type { ErrorObject } from "ajv";
import {
  decodeText,
  depthOf,
  type FieldPath,
  formatPath,
  fromJsonPointer,
  isObject,
  type JsonObject,
  type JsonValue,
  type Position,
  parseSource,
} from "../src/index.js";
import type { RequestValidator } from "./requests.js";

export const maxBodyBytes = 3 * 1024 * 1024; // the API server's request limit
export const maxDepth = 512;

/** A request the function refuses: answered with `status` and `{error, field}`. */
export class RequestError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422 | 503,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The 413 of a body over maxBodyBytes (also answered by the Node server before a worker sees the body). */
export const bodyTooLarge = () => new RequestError(413, "body", `request body is larger than ${maxBodyBytes} bytes`);

/**
 * The bytes of a body, read chunk by chunk and abandoned (413) as soon as they pass `max`:
 * a body without Content-Length (chunked) is never buffered whole.
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Let go rather than cancel: workerd drops the connection, answer and all, when a request body is cancelled.
      reader.releaseLock();
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

type BodyReaders = "body" | "text" | "json" | "arrayBuffer" | "bytes";
// The DOM types declare Request's body readers as properties, which a subclass may not redefine as methods.
const RequestBase: new (url: string, init: RequestInit) => Omit<Request, BodyReaders> = Request;

/**
 * A request whose body is already in memory (the Node server reads it on its main thread and
 * hands the bytes to a worker): readLocated and Hono's `c.req.json()`/`text()`/`arrayBuffer()`
 * take the bytes as they are, and a stream is made only if something asks for `body`. Building
 * and draining a Request's body stream was most of the worker's cost of a small request.
 */
export class BufferedRequest extends RequestBase implements Request {
  readonly #bytes: Uint8Array;
  #stream: ReadableStream<Uint8Array> | undefined;
  constructor(url: string, init: { method: string; headers: Array<[string, string]> }, bytes: Uint8Array) {
    super(url, init);
    this.#bytes = bytes;
  }
  /** The body's bytes, without copying them. */
  get buffered(): Uint8Array {
    return this.#bytes;
  }
  get body(): ReadableStream<Uint8Array> {
    const bytes = this.#bytes;
    this.#stream ??= new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
    return this.#stream;
  }
  async text(): Promise<string> {
    return new TextDecoder().decode(this.#bytes); // as fetch's text(): a BOM dropped, bad bytes replaced
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#bytes.slice();
  }
}

/** A body, and for YAML where each of its fields is: the line and column findings carry. */
export interface ReadBody {
  body: JsonObject;
  /** The line and column of the field at a path of `body` (undefined for JSON bodies). */
  locate?: (path: FieldPath) => Position;
}

/** The body as a JSON object: JSON or YAML by Content-Type, at most 3 MiB and 512 levels deep. */
export async function readBody(req: Request): Promise<JsonObject> {
  return (await readLocated(req)).body;
}

/**
 * The body with the positions of its fields. With `manyDocuments`, a YAML body of several
 * documents is read as `{objects: [one per document]}`, as `kubectl apply -f` reads a file.
 */
export async function readLocated(req: Request, options: { manyDocuments?: boolean } = {}): Promise<ReadBody> {
  const type = req.headers.get("content-type") ?? "application/json";
  const yaml = /^(application|text)\/(x-)?yaml\b/i.test(type);
  if (!yaml && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new RequestError(415, "Content-Type", `unsupported content type "${type}": send JSON or YAML`);
  }
  if (Number(req.headers.get("content-length") ?? 0) > maxBodyBytes) throw bodyTooLarge();
  const bytes = req instanceof BufferedRequest ? req.buffered : await readLimited(req.body, maxBodyBytes);
  if (bytes.byteLength > maxBodyBytes) throw bodyTooLarge();
  // As the CLI reads a file: bytes that are not UTF-8 are refused at the first of them, in go-yaml's words.
  const { text, notUtf8 } = decodeText(bytes, "body");
  if (notUtf8) {
    const at = `line ${notUtf8.line}, column ${notUtf8.column}`;
    throw new RequestError(400, "body", `the body is not UTF-8 text: ${at}: ${notUtf8.detail}`);
  }
  // JSON is YAML: one reader for both, so a JSON body's duplicate key is refused as a YAML body's is (JSON.parse
  // keeps the last, the API server's strict decoding refuses it); every valid JSON text reads as JSON.parse reads it.
  const parsed = parseSource(text, "body", { maxInputBytes: maxBodyBytes });
  const [first] = parsed.findings.filter((f) => f.severity === "error");
  if (first) {
    throw new RequestError(400, "body", `malformed ${yaml ? "YAML" : "JSON"}: line ${first.line}: ${first.message}`);
  }
  const documents = parsed.documents.filter((d) => d.value !== null);
  let value: JsonValue;
  let locate: ReadBody["locate"];
  if (documents.length > 1) {
    if (!options.manyDocuments)
      throw new RequestError(400, "body", "the body must be one YAML document (several: POST them to /v1/validate)");
    value = { objects: documents.map((d) => d.value) };
    locate = (path) => {
      const [field, index, ...rest] = path;
      const document = field === "objects" && typeof index === "number" ? documents[index] : undefined;
      return document ? document.locate(rest) : { line: 1, column: 1 };
    };
  } else {
    const document = documents[0];
    value = document?.value ?? null;
    locate = document && ((path) => document.locate(path));
  }
  if (!isObject(value)) throw new RequestError(400, "body", "the body must be a JSON or YAML object");
  if (depthOf(value) > maxDepth) throw new RequestError(400, "body", `the body nests deeper than ${maxDepth} levels`);
  // A JSON body is read as values: its findings name their field, with no line (docs/http.md).
  return locate && yaml ? { body: value, locate } : { body: value };
}

/**
 * A bare manifest posted as the body (a string apiVersion and kind at its top, which no request
 * body has): read as `{object: body}`, its positions moved under `object`. Its other top-level
 * fields are its own (an OpenShift Template's `objects`), never the request's.
 */
export function wrapManifest(read: ReadBody): ReadBody {
  const { body, locate } = read;
  if (typeof body.apiVersion !== "string" || typeof body.kind !== "string") return read;
  const wrapped: ReadBody = { body: { object: body } };
  if (locate) wrapped.locate = (path) => locate(path.slice(1));
  return wrapped;
}

/** The body as its route's schema describes it; else the first error is a 400 naming the field. */
export function checkShape<Body>(validate: RequestValidator<Body>, body: JsonObject): Body {
  if (validate(body)) return body;
  const e = validate.errors?.[0];
  if (!e) throw new RequestError(400, "body", "the body does not have the expected shape");
  const [field, message] = describe(e);
  throw new RequestError(400, field, message);
}

/** `/request/objects/3` → `request.objects[3]`; the root is `body`. */
function fieldOf(instancePath: string, last?: string): string {
  const out = formatPath([...fromJsonPointer(instancePath), ...(last === undefined ? [] : [last])]);
  return out === "" ? "body" : out;
}

function describe(e: ErrorObject): [string, string] {
  const p = e.params;
  switch (e.keyword) {
    case "required":
      return [fieldOf(e.instancePath, String(p.missingProperty)), "Required value"];
    case "additionalProperties":
      return [fieldOf(e.instancePath, String(p.additionalProperty)), "unknown field"];
    case "type": {
      const types = String(p.type).split(",");
      return [
        fieldOf(e.instancePath),
        `must be ${types.map((t) => (t === "null" ? "null" : `a${/^[aeiou]/.test(t) ? "n" : ""} ${t}`)).join(" or ")}`,
      ];
    }
    case "enum":
      return [
        fieldOf(e.instancePath),
        `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      ];
    case "const":
      return [fieldOf(e.instancePath), `must be ${JSON.stringify(p.allowedValue)}`];
    case "pattern":
      return [fieldOf(e.instancePath), "must not be empty"];
    default:
      return [fieldOf(e.instancePath), "is not valid here"];
  }
}

/**
 * The per-request time budget: checked between objects (no timers), so a request of many
 * objects stops with 503 instead of running on. On Workers the clock only advances on I/O,
 * so there the platform's own CPU limit is what stops a request; CEL has its cost limits.
 */
export class Budget {
  private readonly deadline: number;
  exceeded = false;
  constructor(readonly ms: number) {
    this.deadline = Date.now() + ms;
  }
  /** Throws a 503 naming `field` when the time is up. */
  check(field: string): void {
    if (Date.now() <= this.deadline) return;
    this.exceeded = true;
    throw new RequestError(503, field, `the request needs more than its ${this.ms} ms budget: send fewer objects`);
  }
}
