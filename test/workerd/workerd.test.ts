/**
 * The workerd lane: the Worker as Cloudflare runs it, where code generation
 * from strings (`eval`, `new Function`) is forbidden. Two `wrangler dev`
 * servers on loopback, bundled by wrangler as `wrangler deploy` would:
 * - the real entry, functions/worker.ts with the repository's wrangler.toml
 *   (the example CRD bundled through the Text rule), driven over HTTP;
 * - test/workerd/core.worker.ts, which runs the core's entry points inside
 *   workerd at request time and answers with their results, compared with
 *   the same calls in Node.
 * Both run with `disallow_eval_during_startup`, so code generation fails at
 * startup too; `/probe` shows it does. Nothing leaves 127.0.0.1: wrangler's
 * metrics, error reports, `request.cf` fetch and banner are off, and its
 * HTTP proxy is a closed loopback port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { createApp } from "../../functions/app.js";
import { runawayReplace, selfAnchor, yamlRoutes } from "../hostile-bodies.js";
import { coreScenarios, type ExampleTexts, examplePaths } from "./scenarios.js";

const root = join(import.meta.dirname, "../..");
const wrangler = join(root, "node_modules/wrangler/bin/wrangler.js");
const startupTimeout = 45_000;
const requestTimeout = 10_000;

const texts = Object.fromEntries(
  Object.entries(examplePaths).map(([key, path]) => [key, readFileSync(join(root, path), "utf8")]),
) as ExampleTexts;

interface Dev {
  url: string;
  stop: () => Promise<void>;
  log: () => string;
}

/** The compatibility flags a wrangler.toml sets, so the lane's flag adds to them instead of replacing them. */
function flagsOf(config: string): string[] {
  const m = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(readFileSync(config, "utf8"));
  return m ? [...(m[1] as string).matchAll(/"([^"]+)"/g)].map((f) => f[1] as string) : [];
}

/** Starts `wrangler dev` on a free loopback port; resolves once it is ready, rejects (with its log) if it is not in time. */
function wranglerDev(config: string): Promise<Dev> {
  const home = mkdtempSync(join(tmpdir(), "kunion-workerd-"));
  const flags = [...new Set([...flagsOf(config), "disallow_eval_during_startup"])];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      wrangler,
      "dev",
      "--config",
      config,
      "--ip",
      "127.0.0.1",
      "--port",
      "0",
      "--inspector-port",
      "0",
      "--persist-to",
      join(home, "state"),
      "--compatibility-flags",
      ...flags,
      "--show-interactive-dev-session=false",
      "--log-level",
      "info",
    ],
    {
      cwd: root,
      detached: true, // its own process group: stopping it stops workerd too
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        WRANGLER_SEND_ERROR_REPORTS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_HIDE_BANNER: "true", // the banner checks the npm registry for a newer wrangler
        WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
        // Wrangler still checks for a newer version when it fails; that request, and any
        // other outside request, goes to a closed loopback port instead of the internet.
        ...Object.fromEntries(
          ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].map((name) => [name, "http://127.0.0.1:9"]),
        ),
        NO_PROXY: "localhost,127.0.0.1,::1",
        no_proxy: "localhost,127.0.0.1,::1",
        XDG_CONFIG_HOME: join(home, "config"),
        NO_COLOR: "1",
        FORCE_COLOR: "0",
      },
    },
  );
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      const killed = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {}
      }, 5_000);
      await exited;
      clearTimeout(killed);
    }
    rmSync(home, { recursive: true, force: true });
  };
  return new Promise<Dev>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`wrangler dev --config ${config}: ${why}\n${output}`)));
    };
    const timer = setTimeout(() => fail(`not ready after ${startupTimeout} ms`), startupTimeout);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(stripVTControlCharacters(output));
      if (ready && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ url: ready[1] as string, stop, log: () => output });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code, signal) => fail(`exited (${signal ?? code}) before it was ready`));
  });
}

let app: Dev | undefined;
let core: Dev | undefined;

beforeAll(async () => {
  const started = await Promise.allSettled([
    wranglerDev(join(root, "wrangler.toml")),
    wranglerDev(join(root, "test/workerd/wrangler.toml")),
  ]);
  [app, core] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined));
  const failed = started.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, startupTimeout + 10_000);

afterAll(async () => {
  await Promise.all([app?.stop(), core?.stop()]);
}, 15_000);

/** A request to one of the servers, bounded in time; a failed one says what wrangler logged. */
async function call(dev: Dev | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  if (!dev) throw new Error("wrangler dev did not start");
  try {
    return await fetch(`${dev.url}${path}`, { ...init, signal: AbortSignal.timeout(requestTimeout) });
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}\n${dev.log()}`);
  }
}

const post = (path: string, body: string, type = "application/json") =>
  call(app, path, { method: "POST", body, headers: { "content-type": type } });

/** The same request answered by the same app in Node (functions/app.ts with the same deployed CRD and conversion). */
const cronjobConversion = "examples/conversions/cronjob.yaml";
const nodeApp = createApp({
  defaults: [{ path: examplePaths.crd, text: texts.crd }],
  conversions: [{ path: cronjobConversion, text: readFileSync(join(root, cronjobConversion), "utf8") }],
});
async function inNode(path: string, body: string, type = "application/json") {
  const res = await nodeApp.request(path, { method: "POST", body, headers: { "content-type": type } });
  return { status: res.status, body: await read(res) };
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value));
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
const read = (res: Response): Promise<any> => res.json();
const [live, recreate] = [parse(texts.live), parse(texts.recreate)];
const backups = parseAllDocuments(texts.invalid).map((d) => d.toJS());

describe("workerd: code generation is forbidden here", () => {
  it("eval, new Function and every function constructor throw EvalError at startup and per request", async () => {
    const res = await call(core, "/probe");
    expect(res.status).toBe(200);
    const probe: Record<string, Record<string, { ok: boolean; error?: string }>> = await read(res);
    for (const phase of ["startup", "request"]) {
      const attempts = Object.entries(probe[phase] ?? {});
      expect(attempts.map(([name]) => name)).toEqual([
        "eval",
        "newFunction",
        "callFunction",
        "functionConstructor",
        "asyncFunction",
        "generatorFunction",
      ]);
      for (const [name, a] of attempts) {
        expect(a, `${phase} ${name}`).toEqual({
          ok: false,
          error: "EvalError: Code generation from strings disallowed for this context",
        });
      }
    }
  });
});

describe("workerd: the real Worker entry (functions/worker.ts, wrangler.toml)", () => {
  it("answers /healthz", async () => {
    const res = await call(app, "/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("normalizes the Deployment switched to Recreate: rollingUpdate cleared, as in Node", async () => {
    const body = JSON.stringify({ object: recreate, oldObject: live });
    const res = await post("/v1/normalize", body);
    expect(res.status).toBe(200);
    const answer = await read(res);
    expect(answer.object.spec.strategy).toEqual({ type: "Recreate" });
    expect(answer.object.spec.template).toEqual(recreate.spec.template);
    expect(answer.changes).toEqual([
      { op: "clear", path: "spec.strategy.rollingUpdate", pointer: "/spec/strategy/rollingUpdate" },
    ]);
    expect(answer.findings).toEqual([]);
    expect({ status: res.status, body: answer }).toEqual(await inNode("/v1/normalize", body));
  });

  it("validates backups-invalid.yaml against the bundled CRD, as in Node", async () => {
    const body = JSON.stringify({ objects: backups });
    const res = await post("/v1/validate", body);
    expect(res.status).toBe(200);
    const answer = await read(res);
    expect(answer.valid).toBe(false);
    expect(answer.findings.map((f: { document: number; field: string }) => [f.document, f.field])).toEqual([
      [0, "spec.destination"],
      [0, "spec.destination"],
      [0, "spec.schedule"],
      [1, "spec.schedule"],
    ]);
    // The CRD writes its unions as CEL rules: the rules report them, in workerd as in Node.
    expect(answer.findings[1].message).toBe("spec.destination: Invalid value: gcs must be nil if the type is not GCS");
    expect({ status: res.status, body: answer }).toEqual(await inNode("/v1/validate", body));
  });

  it("builds a catalog from an inline CRD at request time, from a YAML body", async () => {
    const body = `crd:\n${texts.crd.replace(/^(?!#)/gm, "  ")}\nobject: ${JSON.stringify(backups[1])}\n`;
    const res = await post("/v1/validate", body, "application/yaml");
    const answer = await read(res);
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.findings.map((f: { message: string }) => f.message)).toEqual([
      "spec.schedule: Invalid value: exactly one of the fields in [cron interval] must be set",
    ]);
    expect({ status: res.status, body: answer }).toEqual(await inNode("/v1/validate", body, "application/yaml"));
  });

  it("serves /openapi.json, as in Node", async () => {
    const res = await call(app, "/openapi.json");
    expect(res.status).toBe(200);
    const doc = await read(res);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/v1/admit");
    expect(doc).toEqual(await read(await nodeApp.request("/openapi.json")));
  });

  it("answers a ConversionReview through the bundled CronJob conversion, as in Node", async () => {
    const group = "batch.tutorial.kubebuilder.io";
    const cronJob = (name: string, schedule: string) => ({
      apiVersion: `${group}/v1`,
      kind: "CronJob",
      metadata: { name, namespace: "default", uid: `uid-${name}`, resourceVersion: "1", generation: 1 },
      spec: { schedule, jobTemplate: { spec: {} } },
    });
    const body = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "0f2c5a3e-5e1b-4b8e-9a57-3c1d2b7e8f90",
        desiredAPIVersion: `${group}/v2`,
        objects: [cronJob("every-minute", "*/1 * * * *"), cronJob("hourly", "@hourly")],
      },
    });
    const res = await post("/v1/convert", body);
    const answer = await read(res);
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.response.uid).toBe("0f2c5a3e-5e1b-4b8e-9a57-3c1d2b7e8f90");
    expect(answer.response.result).toEqual({ status: "Success" });
    expect(answer.response.convertedObjects.map((o: { spec: unknown }) => o.spec)).toEqual([
      { schedule: { minute: "*/1" }, jobTemplate: { spec: {} } },
      { schedule: { minute: "0" }, jobTemplate: { spec: {} } },
    ]);
    expect({ status: res.status, body: answer }).toEqual(await inNode("/v1/convert", body));
  });

  it("admits the Deployment switched to Recreate with a patch removing rollingUpdate, as in Node", async () => {
    const body = JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid: "d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34",
        kind: { group: "apps", version: "v1", kind: "Deployment" },
        resource: { group: "apps", version: "v1", resource: "deployments" },
        operation: "UPDATE",
        object: recreate,
        oldObject: live,
        dryRun: false,
      },
    });
    const res = await post("/v1/admit", body);
    const answer = await read(res);
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.response).toMatchObject({
      uid: "d4b2e7a1-9c3f-4e6b-8a21-5f0c7d9e1b34",
      allowed: true,
      patchType: "JSONPatch",
    });
    expect(JSON.parse(Buffer.from(answer.response.patch, "base64").toString("utf8"))).toEqual([
      { op: "remove", path: "/spec/strategy/rollingUpdate" },
    ]);
    expect({ status: res.status, body: answer }).toEqual(await inNode("/v1/admit", body));
  });

  it("a body streamed without Content-Length is refused with 413 once it passes 3 MiB", async () => {
    if (!app) throw new Error("wrangler dev did not start");
    // node:http, not fetch: fetch drops an answer that comes while the body is still being sent.
    // One piece past the limit, and then no more: the Worker answers while the body is still open. A client
    // whose last piece is still on its way when the answer comes may see wrangler dev's proxy reset the
    // connection first (EPIPE, ECONNRESET): that attempt says nothing of the Worker, and is made again.
    const piece = Buffer.alloc(256 * 1024, 0x20);
    const total = 3 * 1024 * 1024 + piece.length;
    const attempt = () =>
      new Promise<{ status: number; body: string } | "reset">((resolve, reject) => {
        let sent = 0;
        let answered = false;
        const req = request(`${app?.url}/v1/validate`, {
          method: "POST",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
          timeout: requestTimeout,
        });
        req.on("response", (res) => {
          answered = true;
          let body = "";
          res.on("data", (d: Buffer) => {
            body += d;
          });
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        });
        req.on("timeout", () => req.destroy(new Error("no answer in time")));
        req.on("error", (e: NodeJS.ErrnoException) => {
          if (answered) return;
          if (e.code === "EPIPE" || e.code === "ECONNRESET") resolve("reset");
          else reject(e);
        });
        const pump = () => {
          while (!answered && sent < total) {
            sent += piece.length;
            if (!req.write(piece)) return void req.once("drain", pump);
          }
        };
        pump();
      });
    let answer = await attempt();
    for (let tries = 1; answer === "reset" && tries < 3; tries++) answer = await attempt();
    if (answer === "reset") throw new Error("the connection was reset before an answer, three times");
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: "request body is larger than 3145728 bytes", field: "body" });
  });

  it("refuses an anchor that refers to itself on every route, and keeps serving", async () => {
    for (const route of yamlRoutes) {
      const res = await post(route, selfAnchor, "application/yaml");
      expect(res.status, route).toBe(400);
      expect(((await res.json()) as { error: string }).error, route).toContain("anchor 'a' value contains itself");
    }
    expect((await call(app, "/healthz")).status).toBe(200);
  });

  it("answers CEL replace() growing a 40,000-character string as Node does", async () => {
    const body = JSON.stringify(runawayReplace);
    const res = await post("/v1/validate", body);
    expect({ status: res.status, body: await read(res) }).toEqual(await inNode("/v1/validate", body));
  });

  it("answers a malformed request with 400, not 500", async () => {
    const res = await post("/v1/validate", "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "body" });
  });
});

describe("workerd: the core's entry points, called directly inside the Worker", () => {
  it("validateUnions, normalize, the workspace and every report agree with Node", async () => {
    const res = await call(core, "/core");
    const inWorkerd = await read(res);
    expect(res.status, JSON.stringify(inWorkerd)).toBe(200);
    expect(inWorkerd).toEqual(json(coreScenarios(texts)));

    expect(inWorkerd.validateDirect.map((fs: Array<{ field: string }>) => fs.map((f) => f.field))).toEqual([
      ["spec.destination.s3", "spec.destination.gcs", "spec.schedule"],
      ["spec.schedule"],
    ]);
    const [kep] = inWorkerd.normalizeDirect;
    expect(kep.object.spec.strategy).toEqual({ type: "Recreate" });
    expect(kep.changes.map((c: { path: string }) => c.path)).toEqual(["spec.strategy.rollingUpdate"]);
    expect(inWorkerd.applied.object.spec).toMatchObject({ replicas: 2, strategy: { type: "Recreate" } });
    expect(inWorkerd.workspace.text).toContain(
      `${examplePaths.invalid}:8:3: error cel: spec.destination: Invalid value: gcs must be nil if the type is not GCS`,
    );
    expect(inWorkerd.workspace.github).toContain(
      `::error file=${examplePaths.invalid},line=8,col=3,title=kunion cel::`,
    );
    expect(inWorkerd.workspace.sarif.runs[0].results.length).toBe(inWorkerd.workspace.findings.length);
  });
});
