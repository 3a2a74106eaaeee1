/**
 * HTTP throughput of the Node server: requests per second and p99 latency per route, and
 * their ratio to a trivial echo route (`POST /v1/echo`, enabled for this benchmark only) sent
 * the same body in the same run, so the figures say what the core costs over Hono, node:http
 * and the worker pool. The server runs in this process on 127.0.0.1 (port 0); autocannon
 * drives each route for KUNION_BENCH_SECONDS seconds (default 30) in all, split into rounds
 * that take the routes in turn, so a route and its echo meet the same load on a shared
 * machine; a route's figure is its median round. Nothing leaves loopback.
 *
 * autocannon runs in a child process of its own (its CLI, once per round and route). Run in
 * this process, it shared the server's main thread, the one that reads every request and hands
 * it to a worker: each route's figure then carried the load generator's work on the server's
 * critical path (echo most), which measured the generator as much as the server and moved
 * with whatever else loaded that thread. Apart, the two meet only as a deployed server meets
 * its clients on a shared machine: as processes taking turns on the CPUs.
 * Run: npx esbuild bench/http.ts \
 *   --bundle --platform=node --format=esm --target=node24 \
 *   --outfile=dist/bench/http.js --banner:js="import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" \
 *   && KUNION_BENCH_SECONDS=5 node dist/bench/http.js
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer } from "../functions/node-server.js";
import { parseSource } from "../src/index.js";

/** The fields of autocannon's JSON report (`-j`) read here. */
interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}

const autocannonCli = fileURLToPath(import.meta.resolve("autocannon"));

/** POSTs `body` to `url` over `connections` connections for `seconds`, from a child process. */
function autocannon(url: string, body: string, seconds: number, connections: number): Promise<AutocannonResult> {
  const args = [autocannonCli, "-j", "-n", "-c", String(connections), "-d", String(seconds)];
  args.push("-m", "POST", "-H", "content-type=application/json", "-b", body, url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as AutocannonResult),
    );
  });
}

const seconds = Number(process.env.KUNION_BENCH_SECONDS ?? 30);
const connections = Number(process.env.KUNION_BENCH_CONNECTIONS ?? 32);

// A typical Deployment: examples/deployment/recreate.yaml made valid (rollingUpdate dropped).
const deployment = parseSource(readFileSync("examples/deployment/recreate.yaml", "utf8"), "recreate.yaml").documents[0]
  ?.value as { spec: { strategy: Record<string, unknown> } };
delete deployment.spec.strategy.rollingUpdate;
const validateBody = JSON.stringify({ object: deployment });

// A ConversionReview of a few CronJobs, v1 → v2, as the API server sends it.
const group = "batch.tutorial.kubebuilder.io";
const schedules = ["*/1 * * * *", "0 3 * * *", "@hourly", "15 */2 1 * 1-5", "0 0 1 1 *"];
const convertBody = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: {
    uid: "0f2c5a3e-5e1b-4b8e-9a57-3c1d2b7e8f90",
    desiredAPIVersion: `${group}/v2`,
    objects: schedules.map((schedule, i) => ({
      apiVersion: `${group}/v1`,
      kind: "CronJob",
      metadata: { name: `cronjob-${i}`, namespace: "default", uid: `uid-${i}`, resourceVersion: "1", generation: 1 },
      spec: {
        schedule,
        startingDeadlineSeconds: 60,
        concurrencyPolicy: "Allow",
        jobTemplate: { spec: { template: { spec: { containers: [{ name: "hello", image: "busybox" }] } } } },
      },
    })),
  },
});

// Each route with the echo of its own body as its baseline.
const routes = [
  { name: "/v1/echo", body: validateBody, baseline: "/v1/echo" },
  { name: "/v1/validate", body: validateBody, baseline: "/v1/echo" },
  { name: "/v1/echo (review)", path: "/v1/echo", body: convertBody, baseline: "/v1/echo (review)" },
  { name: "/v1/convert", body: convertBody, baseline: "/v1/echo (review)" },
];
const rounds = Math.max(1, Math.min(5, Math.floor(seconds / 2)));

const sortedMedian = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const server = await startServer({ port: 0, app: { benchEcho: true } });
try {
  console.log(
    `HTTP on ${server.url}: ${seconds} s per route in ${rounds} rounds, ${connections} connections, ${server.workers} workers`,
  );
  const runs = new Map<string, Array<{ rps: number; p99: number }>>(routes.map((r) => [r.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const route of routes) {
      const r = await autocannon(`${server.url}${route.path ?? route.name}`, route.body, seconds / rounds, connections);
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${route.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      runs.get(route.name)?.push({ rps: r.requests.average, p99: r.latency.p99 });
    }
  }
  const figures = new Map(
    [...runs].map(([name, rs]) => [
      name,
      { rps: sortedMedian(rs.map((r) => r.rps)), p99: sortedMedian(rs.map((r) => r.p99)) },
    ]),
  );
  for (const route of routes) {
    const r = figures.get(route.name) as { rps: number; p99: number };
    const echo = figures.get(route.baseline) as { rps: number; p99: number };
    const ratio = `${(r.rps / echo.rps).toFixed(2)}× echo req/s, ${(r.p99 / Math.max(echo.p99, 1)).toFixed(1)}× echo p99`;
    console.log(
      `${route.name.padEnd(18)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  (${ratio})`,
    );
  }
} finally {
  await server.close();
}
