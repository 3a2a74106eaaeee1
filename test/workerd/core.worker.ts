/**
 * A test-only Worker for the workerd lane (test/workerd/wrangler.toml): runs
 * the core's entry points inside workerd while serving a request, where
 * Cloudflare forbids code generation. `/probe` shows that it really is
 * forbidden here, at request time and (with the lane's
 * `disallow_eval_during_startup`) at startup, so a core that generated code
 * anywhere would fail `/core` instead of passing.
 */
import crd from "../../examples/crds/backups.kunion.dev.yaml";
import live from "../../examples/deployment/live.yaml";
import recreate from "../../examples/deployment/recreate.yaml";
import goTypes from "../../examples/go/v1/backup_types.go";
import valid from "../../examples/manifests/backups.yaml";
import invalid from "../../examples/manifests/backups-invalid.yaml";
import { coreScenarios } from "./scenarios.js";

type Attempt = { ok: true; value: unknown } | { ok: false; error: string };

function attempt(run: () => unknown): Attempt {
  try {
    return { ok: true, value: run() };
  } catch (e) {
    return { ok: false, error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/** Every way JavaScript compiles a string into code. */
function probeCodeGeneration(): Record<string, Attempt> {
  const intrinsic = (f: object) => Object.getPrototypeOf(f).constructor as FunctionConstructor;
  return {
    // The global eval, called indirectly (a direct call would make esbuild warn).
    // biome-ignore lint/security/noGlobalEval: the probe checks that eval is forbidden
    eval: attempt(() => globalThis.eval("1 + 1")),
    newFunction: attempt(() => new Function("return 1")()),
    callFunction: attempt(() => Function("return 1")()),
    functionConstructor: attempt(() => intrinsic(() => 0)("return 1")()),
    asyncFunction: attempt(() => typeof intrinsic(async () => 0)("return 1")),
    generatorFunction: attempt(() => typeof intrinsic(function* () {})("yield 1")),
  };
}

const atStartup = probeCodeGeneration();

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/probe") return Response.json({ startup: atStartup, request: probeCodeGeneration() });
    if (pathname === "/core") {
      try {
        return Response.json(coreScenarios({ crd, invalid, valid, live, recreate, goTypes }));
      } catch (e) {
        // The stack tells the lane where code generation (or anything else) was attempted.
        return Response.json(
          { error: `${(e as Error).name}: ${(e as Error).message}`, stack: (e as Error).stack },
          { status: 500 },
        );
      }
    }
    return new Response("not found", { status: 404 });
  },
};
