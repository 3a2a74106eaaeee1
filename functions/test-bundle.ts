/**
 * For tests only: the worker threads of the Node server run a bundle (node-pool.ts), and
 * vitest runs TypeScript sources, so tests bundle functions/node-server.ts once per process,
 * as `npm run build:server` bundles the server, and pass it as `workerEntry`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
let bundled: Promise<URL> | undefined;

export function serverBundle(): Promise<URL> {
  bundled ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "kunion-server-")), "server.js");
    await build({
      entryPoints: [join(root, "functions/node-server.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node24",
      outfile,
      logLevel: "warning",
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    return pathToFileURL(outfile);
  })();
  return bundled;
}
