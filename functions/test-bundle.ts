/**
 * For tests only: the worker threads of the Node server run a bundle (node-pool.ts), and
 * vitest runs TypeScript sources, so tests bundle an entry once per process, as the
 * package's scripts do: functions/node-server.ts for `workerEntry`, and the two entries users
 * run, the CLI (`kunion serve`, `npm run build:cli`) and functions/node.ts (`npm start`).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const bundled = new Map<string, Promise<URL>>();

/** The bundle of an entry (a path from the repository's root), built once per process. */
function bundle(entry: string): Promise<URL> {
  let made = bundled.get(entry);
  if (!made) {
    made = (async () => {
      const outfile = join(mkdtempSync(join(tmpdir(), "kunion-bundle-")), "bundle.js");
      await build({
        entryPoints: [join(root, entry)],
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
    bundled.set(entry, made);
  }
  return made;
}

export const serverBundle = () => bundle("functions/node-server.ts");
/** dist/kunion-cli.js as `npm run build:cli` builds it (dist/kunion.js, the launcher, imports it). */
export const cliBundle = () => bundle("src/cli/bin.ts");
/** dist/server.js as `npm start` builds it. */
export const nodeEntryBundle = () => bundle("functions/node.ts");
