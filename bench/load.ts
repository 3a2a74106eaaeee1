/**
 * The Node server under a hostile mixed load (issue 16): KUNION_LOAD_CONNECTIONS connections
 * (default 1,000) for KUNION_LOAD_SECONDS seconds (default 60) over 127.0.0.1, each a client
 * looping on one kind of request: valid objects, malformed bodies, oversized bodies (4 MiB with
 * Content-Length), chunked bodies without length (32 MiB), hostile YAML (an anchor that refers
 * to itself, a billion-laughs alias bomb), slow clients (headers or body trickled) and a CEL rule
 * that runs away. The server runs in a child process (startServer, default options: worker
 * threads, timeouts, budget); its memory (RSS, main-thread heap) is sampled every 5 s, and a
 * probe on a thread of its own asks `/healthz` every second. Prints errors, statuses and p50/p99
 * per kind, memory at start and end, and the worst `/healthz` latency. Stops by itself.
 * Run: npm run bench:load (KUNION_LOAD_SECONDS=10 KUNION_LOAD_CONNECTIONS=100 for a short run).
 */
import { type ChildProcess, fork } from "node:child_process";
import { Agent, type Agent as HttpAgent, request } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { startServer } from "../functions/node-server.js";
import { crdWithRule, selfAnchor, thing } from "../test/hostile-bodies.js";

interface Memory {
  rss: number;
  heapUsed: number;
}

async function main(): Promise<void> {
  const seconds = Number(process.env.KUNION_LOAD_SECONDS ?? 60);
  const connections = Number(process.env.KUNION_LOAD_CONNECTIONS ?? 1000);
  const child = fork(fileURLToPath(import.meta.url), ["serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { url, workers } = await new Promise<{ url: string; workers: number }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; workers: number }));
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before it listened`)));
  });
  const port = Number(new URL(url).port);
  console.log(`load on ${url} (${workers} worker threads): ${connections} connections for ${seconds} s`);

  const memory: Array<{ at: number; sample: Memory }> = [];
  const sampleMemory = async (at: number) => memory.push({ at, sample: await memoryOf(child) });
  await sampleMemory(0);
  const started = Date.now();
  const sampler = setInterval(() => void sampleMemory(Math.round((Date.now() - started) / 1000)), 5_000);
  const probe = healthProbe(url, seconds);

  const deadline = started + seconds * 1000;
  const stats = new Map<string, Stats>();
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const clients = mix(connections).map((kind) => loop(kind, deadline, port, agent, stats));
  await Promise.all(clients);
  clearInterval(sampler);
  await sampleMemory(Math.round((Date.now() - started) / 1000));
  const health = await probe;
  agent.destroy();
  child.send("stop");
  await new Promise((r) => child.once("exit", r));
  report(stats, memory, health, seconds);
}

type Kind =
  | "valid"
  | "malformed"
  | "oversized"
  | "chunked"
  | "self-anchor"
  | "alias-bomb"
  | "runaway-cel"
  | "slow-headers"
  | "slow-body";

/** How many of the connections loop on each kind: mostly valid objects, a few of each hostile kind. */
function mix(connections: number): Kind[] {
  const share: Array<[Kind, number]> = [
    ["malformed", 0.04],
    ["oversized", 0.01],
    ["chunked", 0.01],
    ["self-anchor", 0.02],
    ["alias-bomb", 0.02],
    ["runaway-cel", 0.002],
    ["slow-headers", 0.01],
    ["slow-body", 0.01],
  ];
  const kinds: Kind[] = [];
  for (const [kind, part] of share)
    for (let i = 0; i < Math.max(1, Math.round(connections * part)); i++) kinds.push(kind);
  while (kinds.length < connections) kinds.push("valid");
  return kinds.slice(0, connections);
}

interface Stats {
  statuses: Map<string, number>;
  latencies: number[];
}

async function loop(
  kind: Kind,
  deadline: number,
  port: number,
  agent: HttpAgent,
  stats: Map<string, Stats>,
): Promise<void> {
  const s: Stats = stats.get(kind) ?? { statuses: new Map(), latencies: [] };
  stats.set(kind, s);
  // Spread the clients' first requests over the first second.
  await new Promise((r) => setTimeout(r, Math.random() * 1000));
  while (Date.now() < deadline) {
    const begun = performance.now();
    const outcome = await once(kind, port, agent, deadline);
    s.latencies.push(performance.now() - begun);
    s.statuses.set(outcome, (s.statuses.get(outcome) ?? 0) + 1);
  }
}

const objectBody = JSON.stringify({
  object: {
    apiVersion: "kunion.dev/v1",
    kind: "Backup",
    metadata: { name: "b", namespace: "default" },
    spec: { destination: { type: "S3", s3: { bucket: "x" } }, schedule: { cron: "0 3 * * *" } },
  },
});
const aliasBomb = `${["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
  .concat("bcdefghi".split("").map((k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`))
  .join("\n")}\n`;
/** A CRD whose rule compares every character with every other: stopped by CEL's cost limit. */
const runawayBody = JSON.stringify({
  crd: crdWithRule("self.s.split('').all(x, self.s.split('').all(y, x == y))"),
  object: thing(20_000),
});
const oversized = Buffer.alloc(4 * 1024 * 1024, 0x20);
const chunk = Buffer.alloc(64 * 1024, 0x20);

/** One request of a kind; resolves with its status, or what went wrong. */
function once(kind: Kind, port: number, agent: HttpAgent, deadline: number): Promise<string> {
  switch (kind) {
    case "valid":
      return post(port, agent, "application/json", objectBody);
    case "malformed":
      return post(port, agent, "application/json", '{"object": {"apiVersion": "v1", "kind": ');
    case "self-anchor":
      return post(port, agent, "application/yaml", selfAnchor);
    case "alias-bomb":
      return post(port, agent, "application/yaml", aliasBomb);
    case "runaway-cel":
      return post(port, agent, "application/json", runawayBody);
    case "oversized":
      return post(port, false, "application/json", oversized);
    case "chunked":
      return streamed(port, 32 * 1024 * 1024);
    case "slow-headers":
      return slow(port, "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", "a", deadline);
    case "slow-body":
      return slow(
        port,
        `POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${objectBody.length}\r\n\r\n`,
        objectBody,
        deadline,
      );
  }
}

const answerTimeoutMs = 60_000;

function post(port: number, agent: HttpAgent | false, type: string, body: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/v1/validate",
      method: "POST",
      agent,
      headers: { "content-type": type, "content-length": Buffer.byteLength(body) },
      timeout: answerTimeoutMs,
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
      res.on("error", () => resolve(String(res.statusCode)));
      if (agent === false) res.on("end", () => req.destroy());
    });
    req.on("timeout", () => req.destroy(new Error("no answer")));
    req.on("error", (e) => {
      if (!answered) resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`);
    });
    req.end(body);
  });
}

/** A chunked body of `total` bytes without Content-Length; stops sending once answered. */
function streamed(port: number, total: number): Promise<string> {
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/v1/validate",
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      timeout: answerTimeoutMs,
    });
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => {
        req.destroy();
        resolve(String(res.statusCode));
      });
    });
    req.on("timeout", () => req.destroy(new Error("no answer")));
    req.on("error", (e) => {
      if (!answered) resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`);
    });
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/**
 * Sends `head` at once, then a byte of `trickled` every 500 ms (over and over); resolves with
 * how the server ended it, or "still open at the end" when the run ended first.
 */
function slow(port: number, head: string, trickled: string, deadline: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    let reply = "";
    let i = 0;
    let stopped = false;
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(trickled[i++ % trickled.length] as string);
    }, 500);
    const giveUp = setTimeout(
      () => {
        stopped = true;
        socket.destroy();
      },
      Math.max(0, deadline - Date.now()),
    );
    socket.on("data", (d) => {
      reply += d.toString();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1];
      resolve(stopped ? "still open at the end" : status ? `${status} (cut off)` : "closed by the server");
    });
  });
}

function memoryOf(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      const memory = (m as { memory?: Memory }).memory;
      if (!memory) return;
      child.off("message", on);
      resolve(memory);
    };
    child.on("message", on);
    child.send("memory");
  });
}

/** `/healthz` every second from a thread of its own, so the load's clients do not delay the probe's clock. */
function healthProbe(url: string, seconds: number): Promise<{ latencies: number[]; failures: string[] }> {
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    const { get } = require("node:http");
    const latencies = [], failures = [];
    let left = workerData.seconds;
    const tick = () => {
      const begun = performance.now();
      const req = get(workerData.url + "/healthz", { agent: false, timeout: 30000 }, (res) => {
        res.resume();
        res.on("end", () => {
          latencies.push(performance.now() - begun);
          if (res.statusCode !== 200) failures.push("status " + res.statusCode);
        });
      });
      req.on("timeout", () => req.destroy(new Error("no answer in 30 s")));
      req.on("error", (e) => { latencies.push(performance.now() - begun); failures.push(e.message); });
      if (--left > 0) setTimeout(tick, 1000);
      else setTimeout(() => parentPort.postMessage({ latencies, failures }), 2000);
    };
    tick();`;
  const worker = new Worker(code, { eval: true, workerData: { url, seconds } });
  return new Promise((resolve) => worker.once("message", (m) => void worker.terminate().then(() => resolve(m))));
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

function report(
  stats: Map<string, Stats>,
  memory: Array<{ at: number; sample: Memory }>,
  health: { latencies: number[]; failures: string[] },
  seconds: number,
): void {
  let total = 0;
  const errors = new Map<string, number>();
  console.log(
    `\n${"kind".padEnd(13)} ${"requests".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}  answers`,
  );
  for (const [kind, s] of stats) {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    total += sorted.length;
    for (const [outcome, n] of s.statuses)
      if (outcome.startsWith("error")) errors.set(outcome, (errors.get(outcome) ?? 0) + n);
    const answers = [...s.statuses].map(([outcome, n]) => `${outcome}: ${n}`).join(", ");
    console.log(
      `${kind.padEnd(13)} ${String(sorted.length).padStart(8)} ${percentile(sorted, 50).toFixed(0).padStart(8)} ${percentile(sorted, 99).toFixed(0).padStart(8)}  ${answers}`,
    );
  }
  console.log(`\n${total} requests in ${seconds} s (${(total / seconds).toFixed(0)}/s)`);
  console.log(`client errors: ${errors.size === 0 ? "none" : [...errors].map(([e, n]) => `${e}: ${n}`).join(", ")}`);
  const first = memory[0]?.sample;
  const last = memory[memory.length - 1]?.sample;
  const peak = Math.max(...memory.map((m) => m.sample.rss));
  if (first && last) {
    console.log(
      `server memory: RSS ${mib(first.rss)} at start, ${mib(last.rss)} at the end, ${mib(peak)} at most; main-thread heap ${mib(first.heapUsed)} → ${mib(last.heapUsed)}`,
    );
    console.log(`  every 5 s: ${memory.map((m) => `${m.at}s ${mib(m.sample.rss)}`).join(", ")}`);
  }
  const probes = [...health.latencies].sort((a, b) => a - b);
  console.log(
    `/healthz: ${probes.length} probes, p50 ${percentile(probes, 50).toFixed(0)} ms, worst ${(probes[probes.length - 1] ?? 0).toFixed(0)} ms, ${health.failures.length} failed${health.failures.length ? ` (${[...new Set(health.failures)].join("; ")})` : ""}`,
  );
}

// The child: the server, answering memory samples over the IPC channel, ending with its parent.
if (process.argv[2] === "serve") {
  const server = await startServer({ port: 0 });
  process.on("message", (m) => {
    if (m === "memory") {
      const { rss, heapUsed } = process.memoryUsage();
      process.send?.({ memory: { rss, heapUsed } });
    } else if (m === "stop") void server.close().then(() => process.exit(0));
  });
  process.on("disconnect", () => process.exit(1));
  process.send?.({ url: server.url, workers: server.workers });
} else {
  await main();
}
