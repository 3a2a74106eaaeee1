/**
 * The Node server's worker threads: each runs the Hono app (createApp) on one request at a
 * time, so CPU-bound work never holds the main thread, which owns the sockets and answers
 * `/healthz` itself. A request past its budget gets a 503 and its worker is terminated and
 * replaced: a runaway (a slow CEL rule, a huge document) can never hold the server.
 *
 * A worker runs the same bundle as the server (dist/server.js, dist/kunion-cli.js, a bench
 * bundle), re-entered with `workerData` marking its role; the check below then serves the
 * parent and parks the rest of the bundle, so the entry's own code (listening, the CLI) never
 * runs in a worker. Run from TypeScript sources (vitest), pass a bundle as `entry`.
 *
 * The park would also stop modules a bundle places after this one, so what a worker needs
 * from module evaluation is imported here: every release's schema tables (the Node server
 * carries them all), registered before the check below whatever the entry's import order.
 */
// Evaluated before this module's body, so a parked worker has every release (a bundle's order cannot undo it).
import "../src/builtins/all-releases.js";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { TextFile } from "../src/index.js";
import { type AppOptions, createApp } from "./app.js";
import { BufferedRequest } from "./request.js";

const role = "kunion-http-worker";
/** Past its budget, a job has this long for the app's own Budget check to answer (naming the object) before its worker is ended. */
const answerGraceMs = 250;

/** What a worker needs to build the app: the deployed files and the app's options. */
export interface WorkerSetup {
  defaults: TextFile[];
  conversions: TextFile[];
  app: Omit<AppOptions, "defaults" | "conversions">;
}

/**
 * A request as the main thread read it: its raw headers (name, value, name, value, … as Node
 * read them: paired up in the worker, off the main thread), the body whole (bounded by the
 * server) in a buffer of its own, which is transferred to the worker.
 */
export interface ForwardedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Uint8Array;
}

/**
 * An answer: the app answers JSON, so its body travels back as text, which a worker posts at
 * half the cost of a buffer of the same size (measured: about 4 µs against 8 µs per message).
 */
export interface Answer {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

type FromWorker = { type: "ready" } | { type: "failed"; message: string } | ({ type: "answer"; id: number } & Answer);

if (!isMainThread && workerData?.role === role) {
  // A worker that could not build the app has told the parent why and ends now: parked with
  // nothing to wait on, Node would end it anyway, warning of an unsettled top-level await.
  if (!serveParent(workerData.setup as WorkerSetup)) process.exit(1);
  // Parks the rest of the bundle (the entry's code) for the worker's life; the parent terminates it.
  await new Promise<never>(() => {});
}

/** Serves the parent's requests; false when the app could not be built (the parent was sent why). */
function serveParent(setup: WorkerSetup): boolean {
  const port = parentPort;
  if (!port) return false;
  const post = (message: FromWorker) => port.postMessage(message);
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp({ ...setup.app, defaults: setup.defaults, conversions: setup.conversions });
  } catch (e) {
    post({ type: "failed", message: (e as Error).message });
    return false;
  }
  port.on("message", async ({ id, request }: { id: number; request: ForwardedRequest }) => {
    let answer: Answer;
    try {
      const hasBody = request.method !== "GET" && request.method !== "HEAD";
      const headers: Array<[string, string]> = [];
      const raw = request.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] as string, raw[i + 1] as string]);
      const res = await app.fetch(
        new BufferedRequest(
          request.url,
          { method: request.method, headers },
          hasBody ? request.body : new Uint8Array(0),
        ),
      );
      answer = { status: res.status, headers: [...res.headers], body: await res.text() };
    } catch {
      // A request the fetch API itself refuses (a header value it does not take, say).
      answer = jsonAnswer(400, { error: "malformed request", field: "headers" });
    }
    post({ type: "answer", id, ...answer });
  });
  post({ type: "ready" });
  return true;
}

export function jsonAnswer(status: number, value: unknown, headers: Array<[string, string]> = []): Answer {
  return {
    status,
    headers: [["content-type", "application/json"], ...headers],
    body: JSON.stringify(value),
  };
}

/** The 503 of a server with no room for a request now (no free worker in time, too many bodies held). */
export const busyAnswer = () =>
  jsonAnswer(503, { error: "the server is busy: try again", field: "body" }, [["retry-after", "1"]]);

interface Job {
  request: ForwardedRequest;
  done: (answer: Answer) => void;
  /** Set when the client went away before a worker took the job. */
  cancelled: boolean;
  queueTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  deadline?: NodeJS.Timeout;
}

export interface PoolOptions {
  size: number;
  /** The bundle a worker runs (see the header). */
  entry: URL | string;
  /** The app's per-request budget: a job running past it is answered 503 and its worker replaced. */
  budgetMs: number;
  /** A job waiting longer than this for a free worker is answered 503 (busy). */
  queueMs: number;
}

/** Worker threads running the app, one request each at a time; jobs wait in arrival order. */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  private readonly started: Promise<void>;

  constructor(
    private readonly setup: WorkerSetup,
    private readonly options: PoolOptions,
  ) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error("the worker pool needs at least 1 worker");
    const starting: Array<Promise<void>> = [];
    for (let i = 0; i < options.size; i++) starting.push(this.spawn(i));
    this.started = Promise.all(starting).then(() => {});
  }

  /** Resolves when every worker has built the app; rejects with the deployment's errors. */
  ready(): Promise<void> {
    return this.started;
  }

  /** The answer to a request: the app's, or a 503 when the budget or the queue time is up. */
  run(request: ForwardedRequest): { answer: Promise<Answer>; cancel: () => void } {
    let job!: Job;
    const answer = new Promise<Answer>((done) => {
      job = { request, done, cancelled: false };
    });
    job.queueTimer = setTimeout(() => {
      this.drop(job);
      job.done(busyAnswer());
    }, this.options.queueMs);
    this.queue.push(job);
    this.dispatch();
    return {
      answer,
      cancel: () => {
        if (!job.cancelled && this.drop(job)) clearTimeout(job.queueTimer);
        job.cancelled = true;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) clearTimeout(job.queueTimer);
    await Promise.all(
      this.slots.map((slot) => {
        clearTimeout(slot.deadline);
        return slot.worker.terminate();
      }),
    );
  }

  /** Takes a job off the queue; false when it was not waiting there. */
  private drop(job: Job): boolean {
    const at = this.queue.indexOf(job);
    if (at >= 0) this.queue.splice(at, 1);
    return at >= 0;
  }

  private spawn(index: number): Promise<void> {
    const worker = new Worker(this.options.entry, { workerData: { role, setup: this.setup } });
    const slot: Slot = { worker, ready: false };
    this.slots[index] = slot;
    return new Promise<void>((resolve, reject) => {
      worker.on("message", (message: FromWorker) => {
        if (message.type === "ready") {
          slot.ready = true;
          resolve();
          this.dispatch();
        } else if (message.type === "failed") {
          reject(new Error(message.message));
          void worker.terminate();
        } else {
          this.finish(slot, { status: message.status, headers: message.headers, body: message.body });
        }
      });
      worker.on("error", (e) => reject(e));
      worker.on("exit", () => {
        reject(new Error("a worker thread ended before it was ready"));
        if (this.slots[index] !== slot) return; // replaced on purpose
        // An unexpected end (out of memory, a crash): the job in flight fails, a new worker takes the place.
        if (slot.job) this.finish(slot, jsonAnswer(500, { error: "internal error" }));
        if (!this.closed && slot.ready) this.replace(index);
      });
    });
  }

  private replace(index: number): void {
    this.spawn(index).catch(() => {
      // The same setup started once; a replacement that fails is retried after a pause.
      if (!this.closed) setTimeout(() => this.replace(index), 1000).unref();
    });
  }

  private finish(slot: Slot, answer: Answer): void {
    const job = slot.job;
    clearTimeout(slot.deadline);
    slot.job = undefined;
    job?.done(answer);
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift() as Job;
      clearTimeout(job.queueTimer);
      slot.job = job;
      const id = this.nextId++;
      slot.deadline = setTimeout(() => this.overrun(slot), this.options.budgetMs + answerGraceMs);
      slot.worker.postMessage({ id, request: job.request }, [job.request.body.buffer as ArrayBuffer]);
    }
  }

  /** The job ran past its budget: 503, and its worker (still computing) is replaced. */
  private overrun(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    const job = slot.job;
    slot.job = undefined;
    slot.ready = false;
    void slot.worker.terminate();
    job?.done(
      jsonAnswer(503, {
        error: `the request needs more than its ${this.options.budgetMs} ms budget: send less work`,
        field: "body",
      }),
    );
    if (index >= 0 && !this.closed) this.replace(index);
  }
}
