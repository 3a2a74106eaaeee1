/**
 * Serves the app on Node (`npm start`): the CRDs of `KUNION_CRDS` (default examples/crds) and the
 * Conversion declarations of `KUNION_CONVERSIONS` (default examples/conversions) are deployed;
 * `PORT` (8080), `HOST` (127.0.0.1), HTTPS with `TLS_CERT` and `TLS_KEY` (PEM files), and
 * `KUNION_WORKERS` worker threads (default one per available CPU).
 */
import { startServer, tlsFromEnv } from "./node-server.js";

const env = process.env;
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
