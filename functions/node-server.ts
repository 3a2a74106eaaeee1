/**
 * The Node server (`npm start`, `kunion serve`): the app with the CRDs and Conversion
 * declarations of two folders, over HTTP, or HTTPS when a certificate and key are given
 * (a webhook behind a cluster must be served over TLS).
 *
 * The main thread owns the sockets: it cuts off slow clients (header, request and keep-alive
 * timeouts), reads each body up to 3 MiB (413 as soon as a streamed body passes it), answers
 * `/healthz` itself, and hands every other request to a worker thread running the app
 * (node-pool.ts), so no request's CPU work ever delays another's answer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { type AppOptions, defaultBudgetMs } from "./app.js";
import { type Answer, busyAnswer, type ForwardedRequest, jsonAnswer, WorkerPool } from "./node-pool.js";
import { bodyTooLarge, maxBodyBytes } from "./request.js";

/** How long a client may take; past it Node answers 408 (or closes an idle connection). */
export interface Timeouts {
  /** From the connection (or the previous request) to the end of the request's headers. */
  headersMs: number;
  /** From the first byte to the end of the request's body. */
  requestMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
}

export const defaultTimeouts: Timeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

export interface ServerOptions {
  /** 0 picks a free port (tests, benchmarks). */
  port: number;
  /** Default 127.0.0.1; 0.0.0.0 in a container behind a Service. */
  hostname?: string;
  /** CRD and schema files (default examples/crds). */
  crdsDir?: string;
  /** Conversion declarations (default examples/conversions). */
  conversionsDir?: string;
  /** PEM certificate chain and key: serve HTTPS. */
  tls?: { cert: string; key: string };
  /** Passed to createApp (benchEcho, budgetMs, runawayRoute). */
  app?: Omit<AppOptions, "defaults" | "conversions">;
  /** Slow clients' bounds (defaultTimeouts). */
  timeouts?: Partial<Timeouts>;
  /** Worker threads running the app: default `KUNION_WORKERS`, else os.availableParallelism(). */
  workers?: number;
  /** The bundle the workers run: default the bundle this module is in (see node-pool.ts). */
  workerEntry?: URL | string;
  /** How long a request may wait for a free worker (default the budget); past it, 503. */
  queueMs?: number;
  /** Body bytes held at once, all connections together (default 128 MiB); past it, 503. */
  maxBufferedBytes?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  crds: number;
  conversions: number;
  workers: number;
  close(): Promise<void>;
}

/** The YAML and JSON files of a folder (not recursive); none when the folder does not exist. */
function filesOf(folder: string): Array<{ path: string; text: string }> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  return names
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .sort()
    .map((name) => ({ path: join(folder, name), text: readFileSync(join(folder, name), "utf8") }));
}

/** The worker count: the option, else `KUNION_WORKERS`, else one per CPU the process may use. */
export function workerCount(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const n = option ?? (env.KUNION_WORKERS ? Number(env.KUNION_WORKERS) : availableParallelism());
  if (!Number.isInteger(n) || n < 1) throw new Error(`the worker count must be a whole number ≥ 1, not ${n}`);
  return n;
}

/** After a 413, how long the rest of the body is read and dropped, so the client sees the answer, before the connection is closed. */
const lingerMs = 1_000;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const defaults = filesOf(options.crdsDir ?? "examples/crds");
  const conversions = filesOf(options.conversionsDir ?? "examples/conversions");
  const entry = options.workerEntry ?? new URL(import.meta.url);
  if (String(entry).endsWith(".ts")) {
    throw new Error("the worker threads need a bundle: run a bundle (npm start) or pass workerEntry");
  }
  const workers = workerCount(options.workers);
  const budgetMs = options.app?.budgetMs ?? defaultBudgetMs;
  const pool = new WorkerPool(
    { defaults, conversions, app: options.app ?? {} },
    { size: workers, entry, budgetMs, queueMs: options.queueMs ?? budgetMs },
  );
  try {
    await pool.ready();
  } catch (e) {
    await pool.close();
    throw e;
  }
  const timeouts = { ...defaultTimeouts, ...options.timeouts };
  const maxBuffered = options.maxBufferedBytes ?? 128 * 1024 * 1024;
  let buffered = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    if ((req.method === "GET" || req.method === "HEAD") && path.split("?")[0] === "/healthz") {
      send(res, jsonAnswer(200, { status: "ok" }));
      return;
    }
    if (Number(req.headers["content-length"] ?? 0) > maxBodyBytes) {
      refuse(req, res, tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    const release = () => {
      buffered -= held;
      held = 0;
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) return stop(tooLarge());
      if (buffered + chunk.length > maxBuffered) {
        return stop(busyAnswer());
      }
      buffered += chunk.length;
      held += chunk.length;
      chunks.push(chunk);
    };
    const stop = (answer: Answer) => {
      req.off("data", onData).off("end", onEnd);
      chunks.length = 0;
      release();
      refuse(req, res, answer);
    };
    const onEnd = () => {
      // A buffer of its own: it is transferred to the worker (Node's small buffers share a pool).
      const body = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        body.set(c, at);
        at += c.length;
      }
      chunks.length = 0;
      const forwarded: ForwardedRequest = {
        method: req.method ?? "GET",
        url: `http://kunion.local${path.startsWith("/") ? path : `/${path}`}`,
        rawHeaders: req.rawHeaders,
        body,
      };
      const job = pool.run(forwarded);
      res.once("close", job.cancel);
      void job.answer.then((answer) => {
        release();
        send(res, answer);
      });
    };
    req.on("data", onData).on("end", onEnd);
    // A client that goes away mid-body: nothing to answer, its bytes no longer held.
    req.once("error", release).once("close", release);
  };

  const serverOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // How often Node looks for connections past their header or request timeout (its default is 30 s).
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, timeouts.headersMs / 4)),
  };
  const server = options.tls
    ? createHttpsServer({ ...serverOptions, ...options.tls }, handle)
    : createHttpServer(serverOptions, handle);
  const hostname = options.hostname ?? "127.0.0.1";
  const scheme = options.tls ? "https" : "http";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, hostname, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    await pool.close();
    throw e;
  }
  const info = server.address() as AddressInfo;
  const host = info.address.includes(":") ? `[${info.address}]` : info.address;
  return {
    url: `${scheme}://${host}:${info.port}`,
    port: info.port,
    crds: defaults.length,
    conversions: conversions.length,
    workers,
    close: async () => {
      const closed = new Promise<void>((done, fail) => server.close((err) => (err ? fail(err) : done())));
      server.closeAllConnections();
      await Promise.all([closed, pool.close()]);
    },
  };
}

const tooLarge = () => {
  const e = bodyTooLarge();
  return jsonAnswer(e.status, { error: e.message, field: e.field });
};

function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = answer.status;
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.setHeader("content-length", Buffer.byteLength(answer.body));
  res.end(res.req.method === "HEAD" ? undefined : answer.body);
}

/**
 * Answers before the body is read whole: the rest of it is read and dropped for a moment (a
 * client still sending would otherwise lose the answer to a reset), then the connection is closed.
 */
function refuse(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  send(res, answer);
  if (req.readableEnded) return;
  req.resume();
  const linger = setTimeout(() => req.socket.destroy(), lingerMs);
  linger.unref();
  req.once("end", () => clearTimeout(linger));
}

/** TLS from `TLS_CERT` and `TLS_KEY` (paths of PEM files), when both are set. */
export function tlsFromEnv(env: NodeJS.ProcessEnv = process.env): { cert: string; key: string } | undefined {
  if (!env.TLS_CERT && !env.TLS_KEY) return undefined;
  if (!env.TLS_CERT || !env.TLS_KEY) throw new Error("HTTPS needs both TLS_CERT and TLS_KEY");
  return { cert: readFileSync(env.TLS_CERT, "utf8"), key: readFileSync(env.TLS_KEY, "utf8") };
}
