/**
 * apiserver's util/webhook rules for a webhook's client config, shared by a CRD's conversion webhook
 * (validation.ts) and the admission webhooks (builtins/validation/admissionregistration.ts): its URL
 * (https, a host, no user, fragment or query) and its service (name, namespace, port, path).
 */
import { type Finding, invalid, required } from "../findings/index.js";
import { GoError, parse } from "../go/index.js";
import { isDNS1123Subdomain } from "../names/index.js";
import type { FieldPath } from "../path/index.js";
import { getKey, type JsonObject } from "../value/index.js";

/** The bytes Go's url.Userinfo.String() keeps as they are (escape in encodeUserPassword mode). */
const userPasswordSafe = /^[A-Za-z0-9\-_.~$&+,;=]$/;

function escapeUserPassword(s: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    out += userPasswordSafe.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const urlForm = "; desired format: https://host[/path]";

/** webhook.ValidateWebhookURL, https forced. */
export function validateWebhookURL(raw: string, at: FieldPath): Finding[] {
  const u = parse(raw);
  if (u instanceof GoError) return [required(at, `url must be a valid URL: ${u.message}${urlForm}`)];
  const out: Finding[] = [];
  if (u.scheme !== "https") out.push(invalid(at, u.scheme, `'https' is the only allowed URL scheme${urlForm}`));
  if (u.host === "") out.push(invalid(at, u.host, `host must be provided${urlForm}`));
  if (u.user !== undefined) {
    const { username, password } = u.user;
    const user = escapeUserPassword(username) + (password === undefined ? "" : `:${escapeUserPassword(password)}`);
    out.push(invalid(at, user, "user information is not permitted in the URL"));
  }
  if (u.fragment !== "") out.push(invalid(at, u.fragment, "fragments are not permitted in the URL"));
  if (u.rawQuery !== "") out.push(invalid(at, u.rawQuery, "query parameters are not permitted in the URL"));
  return out;
}

/**
 * webhook.ValidateWebhookService; the port defaults to 443. `swapped`: the function is declared
 * (namespace, name) and apiextensions calls it with (Name, Namespace), so an empty namespace is
 * reported as the service's name and an empty name as its namespace (kubernetes#141353); the admission
 * webhooks' own validateWebhookService reads them in place.
 */
export function validateWebhookService(service: JsonObject, at: FieldPath, swapped: boolean): Finding[] {
  const out: Finding[] = [];
  const empty = (key: string) => {
    const v = getKey(service, key);
    return v === undefined || v === null || v === "";
  };
  const [name, namespace] = swapped ? ["namespace", "name"] : ["name", "namespace"];
  if (empty(name)) out.push(required([...at, "name"], "service name is required"));
  if (empty(namespace)) out.push(required([...at, "namespace"], "service namespace is required"));
  const given = getKey(service, "port");
  const port = given === undefined || given === null ? 443 : given;
  if (typeof port === "number" && Number.isInteger(port) && (port < 1 || port > 65535))
    out.push(invalid([...at, "port"], port, "port is not valid: must be between 1 and 65535, inclusive"));
  const path = getKey(service, "path");
  if (typeof path !== "string" || path === "" || path === "/") return out;
  const pathAt = [...at, "path"];
  if (path === "//") return [...out, invalid(pathAt, path, "segment[0] may not be empty")];
  if (!path.startsWith("/")) out.push(invalid(pathAt, path, "must start with a '/'"));
  // As in Go, the first character is dropped whatever it is, then one trailing slash.
  let rest = path.slice(1);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  rest.split("/").forEach((step, i) => {
    if (step === "") out.push(invalid(pathAt, path, `segment[${i}] may not be empty`));
    else for (const m of isDNS1123Subdomain(step)) out.push(invalid(pathAt, path, `segment[${i}]: ${m}`));
  });
  return out;
}
