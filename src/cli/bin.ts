/**
 * The CLI's entry, bundled to dist/kunion-cli.js: process in, exit code out. The `kunion`
 * executable (launcher.ts, dist/kunion.js) imports it once the Node.js version suffices.
 */
// The one import from the CLI into a face: `kunion serve` runs the HTTP functions' Node
// server (test/architecture.test.ts allows it for this file only).
import { startServer, tlsFromEnv } from "../../functions/node-server.js";
import { parseServeArgs, UsageError, usage } from "./args.js";
import { colorWanted, run } from "./main.js";

const argv = process.argv.slice(2);
if (argv[0] === "serve") {
  try {
    const args = parseServeArgs(argv.slice(1));
    if (args.command === "help") {
      process.stdout.write(`${usage}\n`);
    } else {
      const env = process.env;
      const server = await startServer({
        port: args.port ?? Number(env.PORT ?? 8080),
        hostname: env.HOST ?? "127.0.0.1",
        crdsDir: env.KUNION_CRDS ?? "examples/crds",
        conversionsDir: env.KUNION_CONVERSIONS ?? "examples/conversions",
        tls: tlsFromEnv(env),
      });
      process.stderr.write(
        `kunion listening on ${server.url} with ${server.crds} CRD file(s) and ${server.conversions} conversion file(s)\n`,
      );
    }
  } catch (e) {
    const usageError = e instanceof UsageError;
    process.stderr.write(`kunion serve: ${(e as Error).message}\n${usageError ? `\n${usage}\n` : ""}`);
    process.exitCode = 2;
  }
} else {
  process.exitCode = run(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: colorWanted(process.env, Boolean(process.stdout.isTTY)),
    progress: Boolean(process.stderr.isTTY),
  });
}
