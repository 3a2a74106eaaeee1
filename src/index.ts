/**
 * kunion's public API: everything the CLI, the GitHub Action and the HTTP
 * functions use, exported by name. Runtime-neutral: no Node APIs, no eval.
 */

import manifest from "../package.json" with { type: "json" };

/** kunion's version (package.json): the faces put it in their reports (SARIF's tool version). */
export const kunionVersion: string = manifest.version;

export * from "./builtins/index.js";
export * from "./check/index.js";
export * from "./config/index.js";
export * from "./convert/index.js";
export * from "./crd/index.js";
export * from "./evolution/index.js";
export * from "./findings/index.js";
export { splitApiVersion } from "./names/index.js";
export * from "./path/index.js";
export * from "./report/index.js";
export * from "./schema/index.js";
export * from "./source/index.js";
export * from "./unions/index.js";
export * from "./validate/index.js";
export * from "./value/index.js";
export * from "./webhooks/index.js";
