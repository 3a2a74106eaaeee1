import { getKey, isObject, type JsonObject } from "../../value/index.js";
import { hitAt, onChange, type RuleDescriptor, type RuleHit, show } from "../rule.js";
import { readKeyword, stringList, typeOf } from "./keywords.js";

/** The merge strategy of a node with the API server's defaults filled in (atomic lists, granular maps). */
function mergeOf(json: JsonObject): Record<string, string> {
  const type = typeOf(json);
  const listType = getKey(json, "x-kubernetes-list-type");
  const mapType = getKey(json, "x-kubernetes-map-type");
  return {
    "x-kubernetes-list-type": typeof listType === "string" ? listType : type === "array" ? "atomic" : "",
    // Key order does not change the merge.
    "x-kubernetes-list-map-keys": stringList(getKey(json, "x-kubernetes-list-map-keys")).sort().join(", "),
    "x-kubernetes-map-type": typeof mapType === "string" ? mapType : type === "object" ? "granular" : "",
  };
}

export const listTypeChanged = onChange(
  {
    id: "list-type-changed",
    severity: "error",
    description: "x-kubernetes-list-type, list-map-keys or map-type changed (server-side apply merge changes)",
  },
  mergeOf,
  (from, to, pair) => {
    const changed = Object.keys(from).filter((kw) => from[kw] !== to[kw]);
    const shown = (v: string | undefined) => (v ? v : "unset");
    const what = changed.map((kw) => `${kw} ${shown(from[kw])} → ${shown(to[kw])}`).join(", ");
    const pick = (m: Record<string, string>) => Object.fromEntries(changed.map((kw) => [kw, m[kw] ?? ""]));
    return [
      hitAt(pair, `${what}; server-side apply merges it differently and field ownership changes`, {
        oldValue: pick(from),
        newValue: pick(to),
        keyword: changed.find((kw) => getKey(pair.new, kw) !== undefined || getKey(pair.old, kw) !== undefined),
      }),
    ];
  },
);

export const unknownFieldsPruned: RuleDescriptor = {
  id: "unknown-fields-pruned",
  severity: "error",
  description:
    "x-kubernetes-preserve-unknown-fields removed or additionalProperties tightened: stored data would be pruned",
  node(pair) {
    const out: RuleHit[] = [];
    const preserve = "x-kubernetes-preserve-unknown-fields";
    if (getKey(pair.old, preserve) === true && getKey(pair.new, preserve) !== true) {
      out.push(
        hitAt(pair, `${preserve} removed; fields the schema does not name are pruned from stored objects`, {
          oldValue: true,
          keyword: preserve,
        }),
      );
    }
    const from = getKey(pair.old, "additionalProperties");
    const to = getKey(pair.new, "additionalProperties");
    if ((from === true || isObject(from)) && to !== true && !isObject(to)) {
      out.push(
        hitAt(
          pair,
          `additionalProperties ${to === false ? "set to false" : "removed"}; map entries in stored objects are pruned`,
          {
            oldValue: from,
            newValue: to,
            keyword: "additionalProperties",
          },
        ),
      );
    }
    return out;
  },
};

export const descriptionChanged = onChange(
  { id: "description-changed", severity: "off", description: "description edits" },
  readKeyword("description"),
  (from, to, pair) => [
    hitAt(pair, `description changed to ${show(to)}`, { oldValue: from, newValue: to, keyword: "description" }),
  ],
);
