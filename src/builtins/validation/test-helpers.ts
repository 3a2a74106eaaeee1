/** Builders for the table tests: valid objects to break one field at a time. */
import type { JsonObject } from "../../value/index.js";
import { validateHandWritten } from "./index.js";

/** Every message the hand-written rules give (for release 1.`minor`), as `severity message`, sorted. */
export const said = (apiVersion: string, kind: string, object: JsonObject, minor = 36): string[] =>
  validateHandWritten(apiVersion, kind, object, minor)
    .map((f) => `${f.severity === "error" ? "" : `${f.severity} `}${f.message}`)
    .sort();

export const container = (extra: JsonObject = {}): JsonObject => ({ name: "app", image: "nginx", ...extra });

export const pod = (spec: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p" },
  spec: { containers: [container()], ...spec },
});

export const template = (spec: JsonObject = {}, labels: JsonObject = { app: "web" }): JsonObject => ({
  metadata: { labels },
  spec: { containers: [container()], ...spec },
});

export const deployment = (spec: JsonObject = {}): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { selector: { matchLabels: { app: "web" } }, template: template(), ...spec },
});
