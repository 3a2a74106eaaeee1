/**
 * Leases as pkg/apis/coordination/validation/validation.go ValidateLease and ValidateLeaseSpec refuse them on
 * create, word for word, with strategy and preferredHolder dropped by the lease strategy's PrepareForCreate
 * (CoordinatedLeaderElection off by default in 1.32 to 1.36).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { validateLease } from "./coordination.js";

/** A Lease as a leader-election client writes it. */
const lease = (spec: JsonObject): JsonObject => ({
  apiVersion: "coordination.k8s.io/v1",
  kind: "Lease",
  metadata: { name: "my-controller", namespace: "kube-system" },
  spec: {
    holderIdentity: "my-controller-7d4b9c-x2k4p",
    leaseDurationSeconds: 15,
    acquireTime: "2024-01-01T00:00:00.000000Z",
    renewTime: "2024-01-01T00:00:10.000000Z",
    leaseTransitions: 3,
    ...spec,
  },
});

const said = (spec: JsonObject): string[] =>
  validateLease(lease(spec))
    .map((f) => f.message)
    .sort();

const cases: [string, JsonObject, string[]][] = [
  ["a valid Lease", {}, []],
  ["nothing but a holder", { leaseDurationSeconds: null, leaseTransitions: null }, []],
  ["leaseTransitions of 0", { leaseTransitions: 0 }, []],
  ["a duration of 1 second", { leaseDurationSeconds: 1 }, []],
  [
    "a duration of 0",
    { leaseDurationSeconds: 0 },
    ["spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"],
  ],
  [
    "a negative duration",
    { leaseDurationSeconds: -5 },
    ["spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0"],
  ],
  [
    "negative transitions",
    { leaseTransitions: -1 },
    ["spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"],
  ],
  [
    "both",
    { leaseDurationSeconds: 0, leaseTransitions: -1 },
    [
      "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
      "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
    ],
  ],
  [
    "an unknown strategy and a preferredHolder without one: dropped on create, not checked",
    { strategy: "Newest", preferredHolder: "other" },
    [],
  ],
  ["a preferredHolder alone: dropped too", { preferredHolder: "other" }, []],
  ["values of the wrong type: the schema's", { leaseDurationSeconds: "15", leaseTransitions: 1.5 }, []],
];

describe("Leases (ValidateLease, ValidateLeaseSpec)", () => {
  it.each(cases)("%s", (_, spec, expected) => {
    expect(said(spec)).toEqual([...expected].sort());
  });

  it("leaves a Lease without a spec to the schema", () => {
    expect(validateLease({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "l" } })).toEqual([]);
  });
});
