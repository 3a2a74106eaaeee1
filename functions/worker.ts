/**
 * Cloudflare Workers entry: the same app, with the example CRDs and Conversion declarations
 * bundled as text at build time (wrangler's Text rule), so the Worker needs no storage.
 */
import cronjob from "../examples/conversions/cronjob.yaml";
import backups from "../examples/crds/backups.kunion.dev.yaml";
import { createApp } from "./app.js";

export default createApp({
  defaults: [{ path: "examples/crds/backups.kunion.dev.yaml", text: backups }],
  conversions: [{ path: "examples/conversions/cronjob.yaml", text: cronjob }],
});
