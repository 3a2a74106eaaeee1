/**
 * The required fields the API server does not enforce (required.ts): each entry names a field some release's
 * table marks required (a typo or a stale entry fails here), and such a field absent passes the whole pass;
 * and a status's (table.ts).
 */
import { describe, expect, it } from "vitest";
import "./all-releases.js";
import { buildCatalog, validateObject } from "../check/index.js";
import { kubernetesReleases } from "./releases.js";
import { goTypeOf } from "./required.js";
import { coreNotEnforced } from "./required-core.js";
import { groupsNotEnforced } from "./required-groups.js";
import { releaseTable } from "./schemas.js";

describe("goTypeOf", () => {
  it.each([
    ["V1LimitRangeSpec", "LimitRangeSpec"],
    ["io.k8s.api.core.v1.LimitRangeSpec", "LimitRangeSpec"],
    ["V1beta1VolumeAttributesClass", "VolumeAttributesClass"],
    ["CoreV1EndpointPort", "EndpointPort"],
    ["DiscoveryV1EndpointPort", "EndpointPort"],
    ["RbacV1Subject", "Subject"],
    ["FlowcontrolV1Subject", "Subject"],
    ["io.k8s.api.rbac.v1.Subject", "Subject"],
  ])("%s is %s", (definition, type) => {
    expect(goTypeOf(definition)).toBe(type);
  });
});

describe("required fields the API server does not enforce", () => {
  const entries = [...coreNotEnforced, ...groupsNotEnforced];

  it("each names a field some release's table marks required, once", () => {
    const marked = new Set<string>();
    for (const release of kubernetesReleases) {
      const table = releaseTable(release);
      for (const [name, def] of Object.entries(table?.defs ?? {}))
        for (const field of def.r ?? []) marked.add(`${goTypeOf(name)}.${field}`);
    }
    const keys = entries.map((e) => `${e.type}.${e.field}`);
    expect(keys.filter((k) => !marked.has(k))).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a LimitRange without limits passes, as ValidateLimitRange lets it", () => {
    const { catalog } = buildCatalog([], []);
    const limitRange = { apiVersion: "v1", kind: "LimitRange", metadata: { name: "l" }, spec: {} };
    for (const release of kubernetesReleases)
      expect(validateObject(catalog, "v1", "LimitRange", limitRange, { kubernetesVersion: release })).toEqual([]);
  });
});

describe("a status, dropped or kept as it is on create and update", () => {
  const { catalog } = buildCatalog([], []);
  const pod = (status: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers: [{ name: "a", image: "nginx" }] },
    status,
  });
  const messages = (status: Record<string, unknown>) =>
    validateObject(catalog, "v1", "Pod", pod(status) as never).map((f) => f.message);

  it("is not asked for its required fields (PrepareForCreate resets it; no validation reads them)", () => {
    expect(messages({ conditions: [{}], containerStatuses: [{ name: "a" }] })).toEqual([]);
  });

  it("is still decoded: its types and unknown fields are refused as anywhere", () => {
    expect(messages({ conditions: "x", bogus: 1 }).sort()).toEqual([
      'status.conditions: Invalid value: "string": status.conditions in body must be of type array: "string"',
      'unknown field "status.bogus"',
    ]);
  });
});
