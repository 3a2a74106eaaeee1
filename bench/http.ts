/**
 * HTTP throughput of the Node server: requests per second and p99 latency per route, and
 * their ratio to a trivial echo route (`POST /v1/echo`, enabled for this benchmark only) sent
 * the same body in the same run, so the figures say what the core costs over Hono, node:http
 * and the worker pool. The server runs in this process on 127.0.0.1 (port 0); autocannon
 * drives each route for KUNION_BENCH_SECONDS seconds (default 30) in all, split into rounds
 * that take the routes in turn, so a route and its echo meet the same load on a shared
 * machine; a route's figure is its median round. Nothing leaves loopback.
 *
 * autocannon runs in a child process of its own (its CLI, once per round and route), so the
 * server's CPU is told apart from the load generator's: the server's process time (main
 * thread and workers) over the requests it answered is each route's cost per request, and
 * echo's cost over the route's is printed beside the throughput ratio. That one does not
 * depend on how the two processes share the cores; throughput does: on the 2-core machine
 * the figures come from, autocannon in the server's own process (as this bench ran before)
 * ran on the main thread in its idle gaps, gave echo more requests per second and convert the
 * same, and so lower throughput ratios (/v1/convert 0.44× against 0.59× at one commit).
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
  requests: { average: number; total: number };
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
  type Figure = { rps: number; p99: number; cpuUs: number };
  const runs = new Map<string, Figure[]>(routes.map((r) => [r.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const route of routes) {
      const cpu = process.cpuUsage();
      const r = await autocannon(`${server.url}${route.path ?? route.name}`, route.body, seconds / rounds, connections);
      const used = process.cpuUsage(cpu);
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${route.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      const cpuUs = (used.user + used.system) / Math.max(r.requests.total, 1);
      runs.get(route.name)?.push({ rps: r.requests.average, p99: r.latency.p99, cpuUs });
    }
  }
  const median = (rs: Figure[], key: keyof Figure) => sortedMedian(rs.map((r) => r[key]));
  const figures = new Map(
    [...runs].map(([name, rs]) => [
      name,
      { rps: median(rs, "rps"), p99: median(rs, "p99"), cpuUs: median(rs, "cpuUs") },
    ]),
  );
  for (const route of routes) {
    const r = figures.get(route.name) as Figure;
    const echo = figures.get(route.baseline) as Figure;
    const ratio = `${(r.rps / echo.rps).toFixed(2)}× echo req/s, ${(r.p99 / Math.max(echo.p99, 1)).toFixed(1)}× echo p99`;
    const cost = `server CPU ${r.cpuUs.toFixed(0).padStart(4)} µs/req, echo's ÷ this ${(echo.cpuUs / r.cpuUs).toFixed(2)}`;
    console.log(
      `${route.name.padEnd(18)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  (${ratio}; ${cost})`,
    );
  }
} finally {
  await server.close();
}
