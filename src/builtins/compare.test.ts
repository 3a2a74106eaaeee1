/**
 * kunion's embedded tables against Kubernetes' own OpenAPI v3 documents of
 * the same release (../shared/k8s-openapi, reference data never bundled):
 * every kind, every field reachable from it, its type, format, required
 * fields; differences are listed below, each with its reason.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import "./all-releases.js";
import { type OpenAPIDocument, tableFromOpenAPI } from "./openapi.js";
import { releaseTable } from "./schemas.js";
import type { BuiltinTable } from "./table.js";

const shared = join(import.meta.dirname, "../../../shared/k8s-openapi");

export function readDocuments(dir: string): OpenAPIDocument[] {
  const docs: OpenAPIDocument[] = [
    { path: "api/v1.json", value: JSON.parse(readFileSync(join(dir, "api/v1.json"), "utf8")) },
  ];
  for (const group of readdirSync(join(dir, "apis"))) {
    for (const file of readdirSync(join(dir, "apis", group))) {
      const path = `apis/${group}/${file}`;
      docs.push({ path, value: JSON.parse(readFileSync(join(dir, path), "utf8")) });
    }
  }
  return docs;
}

/**
 * Known differences, by what they concern, with why. List semantics
 * (x-kubernetes-list-type and map keys) are not in client-node's models,
 * so the embedded tables drop them from the comparison: the API server does
 * not validate them for its own kinds either (hand-written validation does).
 */
const withoutListSemantics = (t: string) => t.replace(/~[a-z]+(:[\w,]+)?/g, "");

/** Each release's differences from its document, and why (expected to stay empty but for these). */
const known: Record<string, { difference: string; why: string }[]> = {
  "1.32": [
    {
      difference: "v1/ComponentStatus: kind missing",
      why: "read-only (deprecated): the API server has no create for it, so no client-node model is a request body",
    },
    {
      difference: "resource.k8s.io/v1alpha3/ResourceSlice.spec.devices.basic.capacity: {s} vs {q}",
      why: "kubernetes-models (1.36), which names Quantity fields, no longer has v1alpha3's BasicDevice capacity map",
    },
  ],
  "1.33": [
    {
      difference: "resource.k8s.io/v1alpha3/ResourceSlice.spec.devices.basic.capacity: {s} vs {q}",
      why: "kubernetes-models (1.36), which names Quantity fields, no longer has v1alpha3's BasicDevice capacity map",
    },
    {
      difference: "v1/ComponentStatus: kind missing",
      why: "read-only (deprecated): the API server has no create for it, so no client-node model is a request body",
    },
  ],
  "1.34": [
    {
      difference: "v1/ComponentStatus: kind missing",
      why: "read-only (deprecated): the API server has no create for it, so no client-node model is a request body",
    },
  ],
};

function differences(ours: BuiltinTable, theirs: BuiltinTable): string[] {
  const out: string[] = [];
  for (const key of Object.keys(theirs.kinds)) {
    // Lists are checked item by item (check/objects.ts); DeleteOptions, WatchEvent and the
    // meta kinds the document names are request and response bodies, not objects to apply.
    if (/List$|\/(DeleteOptions|WatchEvent|Status|APIGroup|APIResourceList|APIVersions)$/.test(key)) continue;
    if (!ours.kinds[key]) out.push(`${key}: kind missing`);
  }
  for (const [key, name] of Object.entries(ours.kinds)) {
    const official = theirs.kinds[key];
    if (!official) {
      out.push(`${key}: kind not served`);
      continue;
    }
    const seen = new Set<string>();
    const walk = (a: string, b: string, at: string) => {
      if (seen.has(`${a}|${b}`)) return;
      seen.add(`${a}|${b}`);
      const da = ours.defs[a];
      const db = theirs.defs[b];
      if (!da || !db) return;
      for (const p of Object.keys(db.p)) if (!(p in da.p)) out.push(`${at}.${p}: field missing`);
      for (const [p, ta] of Object.entries(da.p)) {
        const tb = db.p[p];
        if (tb === undefined) {
          out.push(`${at}.${p}: field not in the document`);
          continue;
        }
        const ra = ta.replace(/#[\w.]+/g, "#");
        const rb = withoutListSemantics(tb).replace(/#[\w.-]+/g, "#");
        if (ra !== rb) out.push(`${at}.${p}: ${ta} vs ${tb}`);
        const refA = /#([\w.]+)/.exec(ta)?.[1];
        const refB = /#([\w.-]+)/.exec(tb)?.[1];
        if (refA && refB) walk(refA, refB, `${at}.${p}`);
      }
      const req = (r?: string[]) => [...(r ?? [])].sort().join(",");
      if (req(da.r) !== req(db.r)) out.push(`${at}: required ${req(da.r)} vs ${req(db.r)}`);
    };
    walk(name, official, key);
  }
  return out;
}

describe.skipIf(!existsSync(shared))("embedded tables against Kubernetes' own OpenAPI documents", () => {
  for (const release of ["1.32", "1.33", "1.34"] as const) {
    it(`${release}: same kinds, fields, types, formats and required fields`, () => {
      const theirs = tableFromOpenAPI(readDocuments(join(shared, release))).table;
      const ours = releaseTable(release);
      expect(ours).toBeDefined();
      const found = differences(ours as BuiltinTable, theirs);
      expect(found.sort()).toEqual((known[release] ?? []).map((k) => k.difference).sort());
    });
  }
});
