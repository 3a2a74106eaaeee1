/**
 * `union {path, discriminator, members: {field: Value}}`: a non-discriminated union in the spoke becomes a
 * discriminated one in the hub (KEP-1027 "migrating existing unions"): the discriminator is set from the member
 * that is set, and dropped on the way back.
 */
import { deleteKey, getKey, isObject, type JsonObject, setKey } from "../../value/index.js";
import { getAt } from "../paths.js";
import { ConvertError } from "../types.js";
import type { ConversionRuleKind } from "./rule.js";

export const union: ConversionRuleKind = {
  kind: "union",
  required: ["path", "discriminator", "members"],
  optional: [],
  summary: "set the hub's discriminator from the member set in the spoke",
  compile(ctx) {
    const path = ctx.path("path", "both");
    const disc = ctx.string("discriminator");
    const raw = ctx.args.members;
    const members = new Map<string, string>();
    if (!isObject(raw) || Object.keys(raw).length === 0)
      ctx.error("members", "must map member fields to discriminator values", raw ?? null);
    else
      for (const [field, value] of Object.entries(raw)) {
        if (typeof value !== "string") ctx.error("members", `discriminator value of ${field} must be a string`, value);
        else if ([...members.values()].includes(value))
          ctx.error("members", `not one-to-one: ${JSON.stringify(value)} names two members`);
        else members.set(field, value);
      }
    if (path === undefined || disc === undefined) return undefined;
    if (members.has(disc)) ctx.error("discriminator", "must not be one of the members", disc);
    return {
      toHub(w: JsonObject) {
        const u = getAt(w, path);
        if (!isObject(u)) return;
        const set = [...members.keys()].filter((m) => getKey(u, m) !== undefined && getKey(u, m) !== null);
        if (set.length > 1) throw new ConvertError(path, `more than one member of the union is set: ${set.join(", ")}`);
        if (set.length === 1) setKey(u, disc, members.get(set[0] as string) as string);
      },
      fromHub(w: JsonObject) {
        const u = getAt(w, path);
        if (isObject(u)) deleteKey(u, disc);
      },
    };
  },
};
