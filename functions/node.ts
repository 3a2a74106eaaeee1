/** Serves the app on Node (`npm start`): the examples' CRDs are the deployed default. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";

const folder = process.env.KUNION_CRDS ?? "examples/crds";
const defaults = readdirSync(folder)
  .filter((name) => /\.(ya?ml|json)$/.test(name))
  .map((name) => ({ path: join(folder, name), text: readFileSync(join(folder, name), "utf8") }));
const port = Number(process.env.PORT ?? 8080);

serve({ fetch: createApp({ defaults }).fetch, port, hostname: process.env.HOST ?? "127.0.0.1" }, (info) => {
  console.log(`kunion listening on http://${info.address}:${info.port} with ${defaults.length} deployed CRD file(s)`);
});
