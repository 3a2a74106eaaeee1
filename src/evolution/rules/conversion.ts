import { isAcceptedConversionReviewVersion } from "../../crd/index.js";
import { type FieldPath, formatPath } from "../../path/index.js";
import { deepEqual, getKey, hasKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import { compareVersionPriority, type Revision, type RevisionVersion } from "../revision.js";
import { type CrdContext, fieldOf, type RuleDescriptor, type RuleHit } from "../rule.js";
import { stringList } from "./keywords.js";

/** Keywords that only document: versions differing in these alone need no conversion. */
const docs = new Set(["description", "title", "example", "externalDocs"]);
const schemaMaps = new Set(["properties", "patternProperties", "definitions"]);
const schemaLists = new Set(["allOf", "anyOf", "oneOf"]);
const schemaOne = new Set(["items", "additionalProperties", "not"]);

/** Two schemas accept and default the same objects (documentation aside). Iterative. */
export function sameSchema(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const stack: Array<[JsonValue | undefined, JsonValue | undefined]> = [[a, b]];
  // A budget instead of a visited set: object graphs from YAML aliases may even be cyclic.
  for (let budget = 1_000_000; stack.length > 0; budget--) {
    if (budget === 0) return false;
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (!isObject(x) || !isObject(y)) {
      if (!deepEqual(x, y)) return false;
      continue;
    }
    const keys = new Set([...Object.keys(x), ...Object.keys(y)].filter((k) => !docs.has(k)));
    for (const k of keys) {
      const xv = getKey(x, k);
      const yv = getKey(y, k);
      if (schemaOne.has(k)) stack.push([xv, yv]);
      else if (schemaLists.has(k) && Array.isArray(xv) && Array.isArray(yv) && xv.length === yv.length) {
        xv.forEach((v, i) => {
          stack.push([v, yv[i]]);
        });
      } else if (schemaMaps.has(k) && isObject(xv) && isObject(yv)) {
        const names = new Set([...Object.keys(xv), ...Object.keys(yv)]);
        for (const n of names) {
          if (!hasKey(xv, n) || !hasKey(yv, n)) return false;
          stack.push([getKey(xv, n), getKey(yv, n)]);
        }
      } else if (!deepEqual(xv, yv)) return false;
    }
  }
  return true;
}

const served = (rev: Revision) => rev.versions.filter((v) => v.served && v.schema);
const conversionPath = (rev: Revision): FieldPath => (rev.conversion ? ["spec", "conversion"] : ["spec"]);

export const conversionMissing: RuleDescriptor = {
  id: "conversion-missing",
  severity: "error",
  description: "several served versions with different schemas and strategy: None (or no conversion)",
  state(rev) {
    if (rev.webhook) return [];
    const versions = served(rev);
    const first = versions[0];
    if (!first || versions.every((v) => sameSchema(first.schema, v.schema))) return [];
    const path = conversionPath(rev);
    return [
      {
        path,
        field: formatPath(path),
        detail: `served versions ${versions.map((v) => v.name).join(", ")} have different schemas but no webhook conversion: the API server only rewrites apiVersion, so objects read or written through one version break the others' schemas`,
        key: "conversion-missing",
      },
    ];
  },
};

export const conversionInvalid: RuleDescriptor = {
  id: "conversion-invalid",
  refusedByServer: true,
  severity: "error",
  description:
    "webhook strategy without exactly one of url/service, without conversionReviewVersions containing v1 or v1beta1, or with preserveUnknownFields: true",
  state(rev) {
    const c = rev.conversion;
    if (!c) return [];
    const out: RuleHit[] = [];
    const report = (path: FieldPath, detail: string, value?: JsonValue) =>
      out.push({ path, field: formatPath(path), detail, newValue: value, key: `${formatPath(path)}|${detail}` });
    const strategy = getKey(c, "strategy");
    const webhook = getKey(c, "webhook");
    const base: FieldPath = ["spec", "conversion"];
    if (strategy !== undefined && strategy !== "None" && strategy !== "Webhook") {
      report([...base, "strategy"], `strategy must be None or Webhook, not ${JSON.stringify(strategy)}`, strategy);
    }
    if (strategy !== "Webhook") {
      if (webhook !== undefined || hasKey(c, "webhookClientConfig")) {
        report(base, "webhook settings must not be set unless strategy is Webhook");
      }
      return out;
    }
    // apiextensions.k8s.io/v1 nests the webhook; v1beta1 has its settings on spec.conversion.
    const v1 = isObject(webhook);
    const at: FieldPath = v1 ? [...base, "webhook"] : base;
    const holder: JsonObject = v1 ? webhook : c;
    const client = getKey(holder, v1 ? "clientConfig" : "webhookClientConfig");
    const ways = isObject(client) ? ["url", "service"].filter((k) => hasKey(client, k)) : [];
    if (ways.length !== 1) {
      report(
        [...at, v1 ? "clientConfig" : "webhookClientConfig"],
        ways.length === 0
          ? "a webhook needs a clientConfig with url or service"
          : "clientConfig must set only one of url and service",
      );
    }
    const reviews = getKey(holder, "conversionReviewVersions");
    const v1beta1Default = !v1 && reviews === undefined; // v1beta1 defaults it to [v1beta1]
    // the ConversionReview versions the API server sends (the CRD validation's acceptedConversionReviewVersions)
    if (!v1beta1Default && !stringList(reviews).some(isAcceptedConversionReviewVersion)) {
      report(
        [...at, "conversionReviewVersions"],
        "conversionReviewVersions must include v1 or v1beta1",
        reviews ?? null,
      );
    }
    if (getKey(rev.spec, "preserveUnknownFields") === true) {
      report(
        ["spec", "preserveUnknownFields"],
        "preserveUnknownFields: true is not allowed with webhook conversion",
        true,
      );
    }
    return out;
  },
};

/**
 * Without a webhook, an object written through one served version is read
 * through the others as is. Each pair is compared both ways (a field only one
 * of them has is lost through the other), and a divergence counts only when
 * the old revision did not already serve the same pair with the same one.
 */
export const servedVersionsDiverge: RuleDescriptor = {
  id: "served-versions-diverge",
  severity: "error",
  description:
    "without webhook conversion, the schema diff between each pair of served versions of the new revision (reported only when new in this revision)",
  crd(ctx) {
    if (ctx.new.webhook) return [];
    // Lowest priority first: each pair reads older → newer (v1alpha2 → v1), then back.
    const versions = served(ctx.new).sort((a, b) => compareVersionPriority(b.name, a.name));
    const out: RuleHit[] = [];
    for (let i = 0; i < versions.length; i++) {
      for (let j = i + 1; j < versions.length; j++) {
        const a = versions[i]!;
        const b = versions[j]!;
        if (unchangedPair(ctx.old, a, b)) continue;
        const before = divergence(ctx, ctx.old, a.name, b.name);
        const known = new Set(before.map((d) => d.key));
        out.push(...divergence(ctx, ctx.new, a.name, b.name).filter((d) => !known.has(d.key)));
      }
    }
    return out;
  },
};

/**
 * Whether the old revision served both versions, without a webhook, with the
 * same schemas: then every divergence of the pair is an old one, and walking
 * both revisions (the costliest rule on a CRD with many versions) is skipped.
 */
function unchangedPair(old: Revision, a: RevisionVersion, b: RevisionVersion): boolean {
  if (old.webhook) return false;
  const sameIn = (v: RevisionVersion) => {
    const before = served(old).find((o) => o.name === v.name);
    return before !== undefined && deepEqual(before.schema, v.schema);
  };
  return sameIn(a) && sameIn(b);
}

/** Rules that report a difference the same way from either side (one finding per pair, not two). */
const symmetric = new Set([
  "type-changed",
  "pattern-changed",
  "format-changed",
  "default-changed",
  "list-type-changed",
  "validation-rule-changed",
]);

/** The divergences of two served versions of one revision (none when it has a webhook or does not serve both). */
function divergence(ctx: CrdContext, rev: Revision, a: string, b: string): RuleHit[] {
  if (rev.webhook) return [];
  const va = served(rev).find((v) => v.name === a);
  const vb = served(rev).find((v) => v.name === b);
  if (!va || !vb) return [];
  const out: RuleHit[] = [];
  const seen = new Set<string>();
  for (const [from, to] of [
    [va, vb],
    [vb, va],
  ] as Array<[RevisionVersion, RevisionVersion]>) {
    for (const { rule, hit } of ctx.diffVersions(from, to)) {
      const severity = ctx.severityOf(rule.id);
      if (severity !== "error" && severity !== "warning") continue;
      const data = hit.data ?? [];
      // The same change seen from both sides (a type, a default) is one divergence.
      const what = symmetric.has(rule.id) ? "" : hit.detail;
      const key = `${a}|${b}|${rule.id}|${formatPath(data)}|${what}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        path: hit.path,
        version: to.name,
        field: fieldOf(to.name, data),
        data,
        detail: `${from.name} → ${to.name} ${rule.id}: ${hit.detail}`,
        oldValue: hit.oldValue,
        newValue: hit.newValue,
        key,
      });
    }
  }
  return out;
}
