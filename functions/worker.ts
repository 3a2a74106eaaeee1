/**
 * Cloudflare Workers entry: the same app, with the example CRDs bundled as
 * text at build time (wrangler's Text rule), so the Worker needs no storage.
 */
import backups from "../examples/crds/backups.kunion.dev.yaml";
import { createApp } from "./app.js";

export default createApp({ defaults: [{ path: "examples/crds/backups.kunion.dev.yaml", text: backups }] });
