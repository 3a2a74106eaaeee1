/**
 * VolumeAttributesClasses, VolumeAttachments, CSINodes and CSIStorageCapacities as
 * pkg/apis/storage/validation/validation.go refuses them on create (ValidateVolumeAttributesClass,
 * ValidateVolumeAttachment with ValidateVolumeAttachmentV1, ValidateCSINode, ValidateCSIStorageCapacity),
 * word for word.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  validateCSINode,
  validateCSIStorageCapacity,
  validateVolumeAttachment,
  validateVolumeAttributesClass,
} from "./storage.js";
import { dns1123SubdomainError, qualifiedNamePartError } from "./test-helpers.js";

const messages = (findings: Finding[]) => findings.map((f) => f.message);

describe("ValidateVolumeAttributesClass (validateProvisioner, validateParameters without an empty map)", () => {
  /** A class as the aws-ebs-csi-driver documentation writes one. */
  const vac = (fields: JsonObject): JsonObject => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "VolumeAttributesClass",
    metadata: { name: "io2-class" },
    driverName: "ebs.csi.aws.com",
    parameters: { type: "io2", iops: "10000" },
    ...fields,
  });

  const cases: [string, JsonObject, string[]][] = [
    ["a valid class", {}, []],
    ["a driver name in upper case (lower-cased first)", { driverName: "EBS.CSI.AWS.COM" }, []],
    ["an empty driver name", { driverName: "" }, ["driverName: Required value"]],
    [
      "a driver name that is no qualified name: the lower-cased name is the bad value",
      { driverName: "EBS_CSI!" },
      [`driverName: Invalid value: "ebs_csi!": ${qualifiedNamePartError}`],
    ],
    ["no parameters", { parameters: null }, ["parameters: Required value: must contain at least one key/value pair"]],
    [
      "an empty map of parameters",
      { parameters: {} },
      ["parameters: Required value: must contain at least one key/value pair"],
    ],
    ["an empty key", { parameters: { "": "x" } }, ['parameters: Invalid value: "": field can not be empty.']],
    [
      "513 parameters: too many, nothing else said",
      { parameters: Object.fromEntries([...Array(513).keys()].map((i) => [i === 0 ? "" : `k${i}`, "v"])) },
      ["parameters: Too long: may not be more than 512 bytes"],
    ],
    [
      "keys and values over 256 KiB together",
      { parameters: { big: "x".repeat(256 * 1024 - 3 + 1) } },
      ["parameters: Too long: may not be more than 262144 bytes"],
    ],
    ["keys and values of 256 KiB exactly", { parameters: { big: "x".repeat(256 * 1024 - 3) } }, []],
  ];
  it.each(cases)("%s", (_, fields, expected) => {
    expect(messages(validateVolumeAttributesClass(vac(fields)))).toEqual(expected);
  });
});

describe("ValidateVolumeAttachment and ValidateVolumeAttachmentV1", () => {
  /** An attachment as the attach/detach controller writes one. */
  const attachment = (spec: JsonObject): JsonObject => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "VolumeAttachment",
    metadata: { name: "csi-0123456789abcdef" },
    spec: {
      attacher: "ebs.csi.aws.com",
      nodeName: "ip-10-0-1-23.ec2.internal",
      source: { persistentVolumeName: "pvc-7d3e1f" },
      ...spec,
    },
  });
  const exactlyOne = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";

  const cases: [string, JsonObject, string[]][] = [
    ["a valid attachment", {}, []],
    ["an attacher in upper case (lower-cased for the check)", { attacher: "EBS.CSI.AWS.COM" }, []],
    [
      "an empty attacher: Required once (validateAttacher and ValidateCSIDriverName agree), then no DNS subdomain",
      { attacher: "" },
      ["spec.attacher: Required value", `spec.attacher: Invalid value: "": ${dns1123SubdomainError}`],
    ],
    [
      "an attacher of 64 bytes",
      { attacher: `${"a".repeat(60)}.com` },
      ["spec.attacher: Too long: may not be more than 63 bytes"],
    ],
    [
      "an attacher that is no DNS subdomain: the name as written is the bad value",
      { attacher: "CSI_Driver" },
      [`spec.attacher: Invalid value: "CSI_Driver": ${dns1123SubdomainError}`],
    ],
    ["a source with neither member", { source: {} }, [`spec.source: Required value: ${exactlyOne}`]],
    [
      "an empty attacher and an empty source: ValidateVolumeAttachment's errors, then ValidateVolumeAttachmentV1's",
      { attacher: "", source: {} },
      [
        "spec.attacher: Required value",
        `spec.source: Required value: ${exactlyOne}`,
        `spec.attacher: Invalid value: "": ${dns1123SubdomainError}`,
      ],
    ],
    [
      "a source with both members",
      { source: { persistentVolumeName: "pv-1", inlineVolumeSpec: { csi: { driver: "d", volumeHandle: "h" } } } },
      [`spec.source: Forbidden: ${exactlyOne}`],
    ],
    [
      "an empty persistentVolumeName (set, so counted)",
      { source: { persistentVolumeName: "" } },
      [
        "spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName",
        `spec.source.persistentVolumeName: Invalid value: "": ${dns1123SubdomainError}`,
      ],
    ],
    [
      "a persistentVolumeName that is no DNS subdomain (ValidatePersistentVolumeName)",
      { source: { persistentVolumeName: "PV_1" } },
      [`spec.source.persistentVolumeName: Invalid value: "PV_1": ${dns1123SubdomainError}`],
    ],
    [
      "a nodeName that is no DNS subdomain (ValidateNodeName)",
      { nodeName: "Node_1" },
      [`spec.nodeName: Invalid value: "Node_1": ${dns1123SubdomainError}`],
    ],
    [
      "an inline volume spec alone (its own rules not ported)",
      { source: { inlineVolumeSpec: { csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-1" } } } },
      [],
    ],
  ];
  it.each(cases)("%s", (_, spec, expected) => {
    expect(messages(validateVolumeAttachment(attachment(spec)))).toEqual(expected);
  });

  it("leaves an absent spec and an absent source to the schema's required", () => {
    expect(validateVolumeAttachment({ kind: "VolumeAttachment", metadata: { name: "a" } })).toEqual([]);
    expect(messages(validateVolumeAttachment(attachment({ source: null })))).toEqual([]);
  });

  it("ignores the status, which PrepareForCreate clears", () => {
    const va = { ...attachment({}), status: { attached: true, attachError: { message: "x".repeat(2000) } } };
    expect(validateVolumeAttachment(va)).toEqual([]);
  });
});

describe("ValidateCSINode (validateCSINodeDriver, validateCSINodeDriverNodeID with AllowLongNodeID)", () => {
  /** A driver as the EBS CSI node plugin registers itself. */
  const ebs = {
    name: "ebs.csi.aws.com",
    nodeID: "i-0123456789abcdef0",
    topologyKeys: ["topology.ebs.csi.aws.com/zone", "kubernetes.io/os"],
    allocatable: { count: 25 },
  };
  const csiNode = (...drivers: JsonObject[]): JsonObject => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "CSINode",
    metadata: { name: "ip-10-0-1-23.ec2.internal" },
    spec: { drivers },
  });

  const cases: [string, JsonObject[], string[]][] = [
    ["a valid node", [ebs], []],
    ["no drivers", [], []],
    ["two drivers", [ebs, { name: "efs.csi.aws.com", nodeID: "i-0123456789abcdef0" }], []],
    ["a node ID of 256 bytes", [{ ...ebs, nodeID: "n".repeat(256) }], []],
    [
      "a node ID of 257 bytes",
      [{ ...ebs, nodeID: "n".repeat(257) }],
      [`spec.drivers[0].nodeID: Invalid value: "${"n".repeat(257)}": must be 256 characters or less`],
    ],
    ["an empty node ID", [{ ...ebs, nodeID: "" }], ["spec.drivers[0].nodeID: Required value"]],
    [
      "an empty driver name",
      [{ ...ebs, name: "" }],
      ["spec.drivers[0].name: Required value", `spec.drivers[0].name: Invalid value: "": ${dns1123SubdomainError}`],
    ],
    [
      "a driver name that is no DNS subdomain",
      [{ ...ebs, name: "ebs_csi" }],
      [`spec.drivers[0].name: Invalid value: "ebs_csi": ${dns1123SubdomainError}`],
    ],
    [
      "a driver registered twice",
      [ebs, { ...ebs, nodeID: "other" }],
      ['spec.drivers[1].name: Duplicate value: "ebs.csi.aws.com"'],
    ],
    [
      "a negative allocatable count",
      [{ ...ebs, allocatable: { count: -1 } }],
      ["spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0"],
    ],
    ["an allocatable without a count", [{ ...ebs, allocatable: {} }], []],
    [
      "a topology key twice, reported at the driver",
      [{ ...ebs, topologyKeys: ["zone", "zone"] }],
      ['spec.drivers[0]: Duplicate value: "zone"'],
    ],
    [
      "an empty topology key: Required, then no qualified name",
      [{ ...ebs, topologyKeys: [""] }],
      [
        "spec.drivers[0]: Required value",
        'spec.drivers[0]: Invalid value: "": name part must be non-empty',
        `spec.drivers[0]: Invalid value: "": ${qualifiedNamePartError}`,
      ],
    ],
    [
      "a topology key that is no qualified name",
      [{ ...ebs, topologyKeys: ["zone name"] }],
      [`spec.drivers[0]: Invalid value: "zone name": ${qualifiedNamePartError}`],
    ],
  ];
  it.each(cases)("%s", (_, drivers, expected) => {
    expect(messages(validateCSINode(csiNode(...drivers)))).toEqual(expected);
  });
});

describe("ValidateCSIStorageCapacity", () => {
  /** A capacity as the external-provisioner publishes one. */
  const capacity = (fields: JsonObject): JsonObject => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIStorageCapacity",
    metadata: { name: "csisc-7xk2p", namespace: "kube-system" },
    storageClassName: "gp3",
    capacity: "100Gi",
    maximumVolumeSize: "16Ti",
    nodeTopology: { matchLabels: { "topology.ebs.csi.aws.com/zone": "us-east-1a" } },
    ...fields,
  });

  const cases: [string, JsonObject, string[]][] = [
    ["a valid capacity", {}, []],
    ["no capacity and no topology", { capacity: null, nodeTopology: null }, []],
    ["a capacity of zero", { capacity: "0" }, []],
    [
      "a negative capacity, its String the bad value",
      { capacity: "-1.5Gi" },
      ['capacity: Invalid value: "-1536Mi": must be greater than or equal to 0'],
    ],
    ["a negative maximumVolumeSize (not checked)", { maximumVolumeSize: "-1" }, []],
    [
      "a storage class name that is no DNS subdomain",
      { storageClassName: "GP3" },
      [`storageClassName: Invalid value: "GP3": ${dns1123SubdomainError}`],
    ],
    [
      "a topology with an unknown operator (ValidateLabelSelector)",
      { nodeTopology: { matchExpressions: [{ key: "zone", operator: "Has" }] } },
      ['nodeTopology.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator'],
    ],
    [
      "a topology label value that is invalid (no AllowInvalidLabelValueInSelector on create)",
      { nodeTopology: { matchExpressions: [{ key: "zone", operator: "In", values: ["us east"] }] } },
      [
        `nodeTopology.matchExpressions[0].values[0]: Invalid value: "us east": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    ],
  ];
  it.each(cases)("%s", (_, fields, expected) => {
    expect(messages(validateCSIStorageCapacity(capacity(fields)))).toEqual(expected);
  });
});
