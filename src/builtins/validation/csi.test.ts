/**
 * CSIDrivers as pkg/apis/storage/validation/validation.go ValidateCSIDriver
 * (validateCSIDriverSpec: validateFSGroupPolicy, validateTokenRequests,
 * validateVolumeLifecycleModes, validateNodeAllocatableUpdatePeriodSeconds,
 * and the Required checks SetDefaults_CSIDriver of storage/v1 satisfies
 * first) refuses them on create, word for word.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { said as saidOf } from "./test-helpers.js";

/** A CSIDriver as a typical chart (aws-ebs-csi-driver) ships it. */
const csiDriver = (spec: JsonObject): JsonObject => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "CSIDriver",
  metadata: { name: "ebs.csi.aws.com" },
  spec: {
    attachRequired: true,
    podInfoOnMount: false,
    fsGroupPolicy: "File",
    volumeLifecycleModes: ["Persistent", "Ephemeral"],
    tokenRequests: [{ audience: "sts.amazonaws.com", expirationSeconds: 3600 }],
    ...spec,
  },
});

const said = (spec: JsonObject, minor = 36): string[] =>
  saidOf("storage.k8s.io/v1", "CSIDriver", csiDriver(spec), minor);

const fsGroupPolicies = `supported values: "File", "None", "ReadWriteOnceWithFSType"`;

const cases: [string, JsonObject, string[]][] = [
  ["a valid CSIDriver", {}, []],
  [
    "no spec fields at all: defaulted before the Required checks",
    {
      attachRequired: null,
      podInfoOnMount: null,
      fsGroupPolicy: null,
      volumeLifecycleModes: [],
      tokenRequests: null,
    },
    [],
  ],
  ["fsGroupPolicy None", { fsGroupPolicy: "None" }, []],
  [
    "an fsGroupPolicy not supported",
    { fsGroupPolicy: "Any" },
    [`spec.fsGroupPolicy: Unsupported value: "Any": ${fsGroupPolicies}`],
  ],
  [
    "an empty fsGroupPolicy (set, so not defaulted)",
    { fsGroupPolicy: "" },
    [`spec.fsGroupPolicy: Unsupported value: "": ${fsGroupPolicies}`],
  ],
  [
    "a volume lifecycle mode not supported, reported at the list",
    { volumeLifecycleModes: ["Persistent", "Inline"] },
    ['spec.volumeLifecycleModes: Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"'],
  ],
  [
    "an audience requested twice (its expiration left unchecked)",
    {
      tokenRequests: [
        { audience: "sts.amazonaws.com" },
        { audience: "vault" },
        { audience: "sts.amazonaws.com", expirationSeconds: 60 },
      ],
    },
    ['spec.tokenRequests[2].audience: Duplicate value: "sts.amazonaws.com"'],
  ],
  [
    "two token requests without an audience",
    { tokenRequests: [{}, {}] },
    ['spec.tokenRequests[1].audience: Duplicate value: ""'],
  ],
  [
    "a token shorter than 10 minutes",
    { tokenRequests: [{ audience: "a", expirationSeconds: 599 }] },
    ["spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes"],
  ],
  ["a token of exactly 10 minutes", { tokenRequests: [{ audience: "a", expirationSeconds: 600 }] }, []],
  [
    "a token longer than 2^32 seconds",
    { tokenRequests: [{ audience: "a", expirationSeconds: 2 ** 32 + 1 }] },
    [
      "spec.tokenRequests[0].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds",
    ],
  ],
  [
    "a node allocatable update period under 10 seconds",
    { nodeAllocatableUpdatePeriodSeconds: 5 },
    ["spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds"],
  ],
  ["a node allocatable update period of 10 seconds", { nodeAllocatableUpdatePeriodSeconds: 10 }, []],
  ["values of the wrong type: the schema's", { fsGroupPolicy: 3, volumeLifecycleModes: [1], tokenRequests: "x" }, []],
];

describe("CSIDrivers (ValidateCSIDriver)", () => {
  it.each(cases)("%s", (_, spec, expected) => {
    expect(said(spec)).toEqual([...expected].sort());
  });

  it("checks the node allocatable update period only from 1.35, where MutableCSINodeAllocatableCount is on", () => {
    const spec = { nodeAllocatableUpdatePeriodSeconds: 5 };
    expect(said(spec, 34)).toEqual([]);
    expect(said(spec, 35)).toEqual([
      "spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds",
    ]);
  });

  it("leaves a CSIDriver without a spec to the schema", () => {
    expect(saidOf("storage.k8s.io/v1", "CSIDriver", { apiVersion: "storage.k8s.io/v1", kind: "CSIDriver" })).toEqual(
      [],
    );
  });
});
