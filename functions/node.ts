/**
 * Serves the app on Node (`npm start`): the CRDs of `KUNION_CRDS` (default examples/crds) and the
 * Conversion declarations of `KUNION_CONVERSIONS` (default examples/conversions) are deployed;
 * `PORT` (8080), `HOST` (127.0.0.1), HTTPS with `TLS_CERT` and `TLS_KEY` (PEM files), and
 * `KUNION_WORKERS` worker threads (default one per available CPU). When the server cannot start
 * (the deployed files have errors, say), it prints why and exits with status 2.
 */
import { startServer, tlsFromEnv } from "./node-server.js";

const env = process.env;
try {
  const server = await startServer({
    port: Number(env.PORT ?? 8080),
    hostname: env.HOST ?? "127.0.0.1",
    crdsDir: env.KUNION_CRDS ?? "examples/crds",
    conversionsDir: env.KUNION_CONVERSIONS ?? "examples/conversions",
    tls: tlsFromEnv(env),
  });
  console.log(
    `kunion listening on ${server.url} with ${server.crds} CRD file(s) and ${server.conversions} conversion file(s)`,
  );
} catch (e) {
  // A deployment with errors (or a port in use, a missing certificate) is the operator's to fix:
  // its findings, not a stack trace; status 2 as `kunion serve`.
  process.stderr.write(`kunion: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
