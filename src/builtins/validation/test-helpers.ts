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

/** apimachinery util/validation's words for the name rules the tables expect, once. */
export const dns1123SubdomainError =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const dns1123LabelError =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const dns1035LabelError =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
export const qualifiedNamePartError =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const labelValueError =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
