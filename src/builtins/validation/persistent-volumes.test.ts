/**
 * A PersistentVolume's spec on create, word for word:
 * pkg/apis/core/validation/validation.go ValidatePersistentVolumeSpec and
 * what it calls (validateBasicResource, ValidatePositiveQuantityValue,
 * validateVolumeNodeAffinity, validateLocalVolumeSource,
 * validateCSIPersistentVolumeSource, validatePVSecretReference and the PV
 * twins of the legacy sources).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { validatePersistentVolumeSpec } from "./persistent-volumes.js";
import { said } from "./test-helpers.js";

const says = (spec: JsonObject, name = ""): string[] =>
  validatePersistentVolumeSpec(spec, name)
    .map((f) => f.message)
    .sort();

const base: JsonObject = { capacity: { storage: "5Gi" }, accessModes: ["ReadWriteOnce"] };
const pv = (extra: JsonObject): JsonObject => ({ ...base, ...extra });
const nfs = { server: "172.17.0.2", path: "/tmp" };
const affinity = {
  required: {
    nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["n1"] }] }],
  },
};
const iscsi = { targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage.disk1", lun: 0 };

const subdomain = (v: string) =>
  `Invalid value: "${v}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const label = (v: string) =>
  `Invalid value: "${v}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
const notStorage = (shown: string) => `spec.capacity: Unsupported value: ${shown}: supported values: "storage"`;

const valid: [string, JsonObject][] = [
  ["an NFS volume", pv({ nfs, persistentVolumeReclaimPolicy: "Recycle", storageClassName: "slow" })],
  ["a hostPath volume", pv({ hostPath: { path: "/data", type: "DirectoryOrCreate" } })],
  [
    "a hostPath volume recycled, not at '/'",
    pv({ hostPath: { path: "/data" }, persistentVolumeReclaimPolicy: "Recycle" }),
  ],
  ["a local volume with node affinity", pv({ local: { path: "/mnt/disks/ssd1" }, nodeAffinity: affinity })],
  [
    "a CSI volume with secrets and a volume attributes class",
    pv({
      csi: {
        driver: "ebs.csi.aws.com",
        volumeHandle: "vol-0abc",
        nodePublishSecretRef: { name: "creds", namespace: "kube-system" },
        controllerExpandSecretRef: { name: "creds", namespace: "kube-system" },
        nodeStageSecretRef: { name: "" },
      },
      volumeAttributesClassName: "gold",
    }),
  ],
  [
    "an iSCSI volume with CHAP and an initiator",
    pv({
      iscsi: {
        ...iscsi,
        chapAuthSession: true,
        secretRef: { name: "chap" },
        initiatorName: "iqn.1996-04.de.suse:01:a1b2c3",
      },
    }),
  ],
  ["a capacity written as a number", pv({ capacity: { storage: 1073741824 }, nfs })],
];

const broken: [string, JsonObject, string[], string?][] = [
  // capacity
  ["no capacity", { accessModes: ["ReadWriteOnce"], nfs }, ["spec.capacity: Required value", notStorage("null")]],
  ["an empty capacity", pv({ capacity: {}, nfs }), ["spec.capacity: Required value", notStorage("{}")]],
  [
    "a capacity of more than storage",
    pv({ capacity: { storage: "1Gi", cpu: "1" }, nfs }),
    [notStorage('{"storage":"1Gi","cpu":"1"}')],
  ],
  ["a capacity without storage", pv({ capacity: { memory: "1Gi" }, nfs }), [notStorage('{"memory":"1Gi"}')]],
  [
    "a zero capacity",
    pv({ capacity: { storage: "0" }, nfs }),
    ['spec.capacity[storage]: Invalid value: "0": must be greater than zero'],
  ],
  [
    "a negative capacity",
    pv({ capacity: { storage: "-1Gi" }, nfs }),
    [
      'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
      "spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity",
    ],
  ],
  [
    "a negative fraction of a unit, rounded away from zero",
    pv({ capacity: { storage: "-500m" }, nfs }),
    [
      'spec.capacity[storage]: Invalid value: "-500m": must be greater than zero',
      "spec.capacity[storage]: Invalid value: -1: must be a valid resource quantity",
    ],
  ],
  // reclaim policy, classes
  [
    "a hostPath mount of '/' recycled",
    pv({ hostPath: { path: "/" }, persistentVolumeReclaimPolicy: "Recycle" }),
    ["spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"],
  ],
  [
    "a hostPath mount that cleans to '/' recycled",
    pv({ hostPath: { path: "//./" }, persistentVolumeReclaimPolicy: "Recycle" }),
    ["spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"],
  ],
  [
    "a storage class that is not a DNS subdomain",
    pv({ nfs, storageClassName: "Slow_Disks" }),
    [`spec.storageClassName: ${subdomain("Slow_Disks")}`],
  ],
  [
    "an empty volume attributes class, not on CSI",
    pv({ nfs, volumeAttributesClassName: "" }),
    [
      "spec.csi: Required value: has to be specified when using volumeAttributesClassName",
      "spec.volumeAttributesClassName: Required value: an empty string is disallowed",
    ],
  ],
  [
    "a volume attributes class that is not a DNS subdomain",
    pv({ csi: { driver: "d.example.com", volumeHandle: "h" }, volumeAttributesClassName: "Gold" }),
    [`spec.volumeAttributesClassName: ${subdomain("Gold")}`],
  ],
  // node affinity
  [
    "node affinity without required terms",
    pv({ nfs, nodeAffinity: {} }),
    ["spec.nodeAffinity.required: Required value: must specify required node constraints"],
  ],
  [
    "node affinity with no terms",
    pv({ nfs, nodeAffinity: { required: { nodeSelectorTerms: [] } } }),
    ["spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term"],
  ],
  [
    "node affinity with an unknown operator",
    pv({
      nfs,
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "Near" }] }] } },
    }),
    [
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    ],
  ],
  [
    "node affinity with In and no values",
    pv({
      nfs,
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In" }] }] } },
    }),
    [
      "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  ],
  [
    "node affinity on a field other than metadata.name",
    pv({
      nfs,
      nodeAffinity: {
        required: { nodeSelectorTerms: [{ matchFields: [{ key: "spec.nodeName", operator: "In", values: ["n1"] }] }] },
      },
    }),
    [
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key',
    ],
  ],
  // local
  [
    "a local volume without node affinity",
    pv({ local: { path: "/mnt/disks/ssd1" } }),
    ["spec.nodeAffinity: Required value: Local volume requires node affinity"],
  ],
  [
    "a local volume with a backstep",
    pv({ local: { path: "/mnt/../etc" }, nodeAffinity: affinity }),
    ["spec.local.path: Invalid value: \"/mnt/../etc\": must not contain '..'"],
  ],
  [
    "a local volume with an empty path",
    pv({ local: { path: "" }, nodeAffinity: affinity }),
    ["spec.local.path: Required value"],
  ],
  // hostPath, nfs (the pod volume's rules)
  [
    "a hostPath volume with a backstep",
    pv({ hostPath: { path: "/data/../etc" } }),
    ["spec.hostPath.path: Invalid value: \"/data/../etc\": must not contain '..'"],
  ],
  [
    "a hostPath volume of an unknown type",
    pv({ hostPath: { path: "/data", type: "Folder" } }),
    [
      'spec.hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
    ],
  ],
  [
    "an NFS volume with a relative path",
    pv({ nfs: { server: "nfs.example.com", path: "exports" } }),
    ['spec.nfs.path: Invalid value: "exports": must be an absolute path'],
  ],
  // csi
  [
    "a CSI volume with an empty driver and handle",
    pv({ csi: { driver: "", volumeHandle: "" } }),
    ["spec.csi.driver: Required value", `spec.csi.driver: ${subdomain("")}`, "spec.csi.volumeHandle: Required value"],
  ],
  [
    "a CSI driver that is not a DNS subdomain",
    pv({ csi: { driver: "Disk_Driver", volumeHandle: "h" } }),
    [`spec.csi.driver: ${subdomain("Disk_Driver")}`],
  ],
  [
    "a CSI secret without a name, in a bad namespace",
    pv({
      csi: { driver: "d.example.com", volumeHandle: "h", nodePublishSecretRef: { name: "", namespace: "Kube_System" } },
    }),
    [
      "spec.csi.nodePublishSecretRef.name: Required value",
      `spec.csi.nodePublishSecretRef.namespace: ${label("Kube_System")}`,
    ],
  ],
  [
    "a CSI secret without a namespace, with a bad name",
    pv({ csi: { driver: "d.example.com", volumeHandle: "h", controllerExpandSecretRef: { name: "Creds" } } }),
    [
      "spec.csi.controllerExpandSecretRef.namespace: Required value",
      `spec.csi.controllerExpandSecretRef.name: ${subdomain("Creds")}`,
    ],
  ],
  // iscsi
  [
    "an iSCSI IQN of no known format",
    pv({ iscsi: { ...iscsi, iqn: "target1" } }),
    ['spec.iscsi.iqn: Invalid value: "target1": must be valid format'],
  ],
  [
    "an iSCSI initiator of no known format",
    pv({ iscsi: { ...iscsi, initiatorName: "host1" } }),
    ['spec.iscsi.initiatorname: Invalid value: "host1": must be valid format'],
  ],
  [
    "an iSCSI secret without a name, a lun out of range",
    pv({ iscsi: { ...iscsi, lun: 256, secretRef: {} } }),
    [
      "spec.iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive",
      "spec.iscsi.secretRef.name: Required value",
    ],
  ],
  [
    "an iSCSI portal too long for the volume's name",
    pv({ iscsi: { ...iscsi, initiatorName: "iqn.1996-04.de.suse:01:a1b2c3" } }),
    [
      'spec.iscsi.targetportal: Invalid value: "10.0.0.1:3260": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
    ],
    "a".repeat(51),
  ],
  // the other PV twins
  [
    "a glusterfs volume with an empty endpoints namespace",
    pv({ glusterfs: { endpoints: "gluster", path: "vol", endpointsNamespace: "" } }),
    [
      'spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name',
    ],
  ],
  [
    "a glusterfs volume with a bad endpoints namespace",
    pv({ glusterfs: { endpoints: "gluster", path: "vol", endpointsNamespace: "Storage" } }),
    [`spec.glusterfs.endpointsNamespace: ${label("Storage")}`],
  ],
  [
    "a cinder secret without a namespace",
    pv({ cinder: { volumeID: "v1", secretRef: { name: "creds" } } }),
    ["spec.cinder.secretRef.namespace: Required value"],
  ],
  [
    "a storageos volume with a bad name, a secret without a namespace",
    pv({ storageos: { volumeName: "Vol1", secretRef: { name: "creds" } } }),
    [`spec.storageos.volumeName: ${label("Vol1")}`, "spec.storageos.secretRef.namespace: Required value"],
  ],
  [
    "an azureFile volume with an empty secret namespace",
    pv({ azureFile: { secretName: "s", shareName: "share", secretNamespace: "" } }),
    ["spec.azureFile.secretNamespace: Required value"],
  ],
  [
    "an RBD volume without monitors",
    pv({ rbd: { monitors: [], image: "img" } }),
    ["spec.rbd.monitors: Required value"],
  ],
  ["a cephfs volume without monitors", pv({ cephfs: { monitors: [] } }), ["spec.cephfs.monitors: Required value"]],
  [
    "a scaleIO volume without a volume name",
    pv({ scaleIO: { gateway: "https://gw", system: "sys", secretRef: { name: "s" } } }),
    ["spec.scaleIO.volumeName: Required value"],
  ],
  // the pod volume's validators
  [
    "a GCE disk without a name, reported at persistentDisk",
    pv({ gcePersistentDisk: { pdName: "" } }),
    ["spec.persistentDisk.pdName: Required value"],
  ],
  [
    "an FC volume without targets",
    pv({ fc: {} }),
    ["spec.fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both"],
  ],
  [
    "an Azure blob disk with a managed URI",
    pv({ azureDisk: { diskName: "d", diskURI: "/subscriptions/s/disks/d" } }),
    [
      'spec.azureDisk.diskURI: Unsupported value: "/subscriptions/s/disks/d": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"',
    ],
  ],
  // which sources are checked
  [
    "a second source is not checked, but flexVolume always is",
    pv({
      hostPath: { path: "/data" },
      nfs: { server: "", path: "relative" },
      flexVolume: { driver: "example/lvm", options: { "kubernetes.io/size": "1" } },
    }),
    [
      'spec.flexVolume.options[kubernetes.io/size]: Invalid value: "kubernetes.io/size": kubernetes.io and k8s.io namespaces are reserved',
    ],
  ],
];

describe("validatePersistentVolumeSpec", () => {
  it.each(valid)("accepts %s", (_, spec) => {
    expect(says(spec)).toEqual([]);
  });

  it.each(broken)("reports %s", (_, spec, expected, name) => {
    expect(says(spec, name)).toEqual([...expected].sort());
  });
});

describe("a PersistentVolume object (validatePersistentVolume: the spec, and pv_validation.go checkMountOption)", () => {
  const volume = (source: JsonObject, annotations: JsonObject = {}): JsonObject => ({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "pv", annotations },
    spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], ...source },
  });
  const mountOptions = { "volume.beta.kubernetes.io/mount-options": "hard,nfsvers=4.1" };

  it("checks the spec's rules through the kind's validator", () => {
    expect(said("v1", "PersistentVolume", volume({ nfs: { server: "nfs.example.com", path: "exports" } }))).toEqual([
      'spec.nfs.path: Invalid value: "exports": must be an absolute path',
    ]);
  });

  it("refuses the beta mount options annotation on a source that takes none", () => {
    // accepted where mount options are, with the strategy's warning since 1.31 (storage-warnings.ts)
    const deprecated =
      'warning metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead';
    expect(
      said("v1", "PersistentVolume", volume({ nfs: { server: "nfs.example.com", path: "/exports" } }, mountOptions)),
    ).toEqual([deprecated]);
    const csi = volume({ csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-1" } }, mountOptions);
    expect(said("v1", "PersistentVolume", csi)).toEqual([
      "metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type",
      deprecated,
    ]);
  });
});

describe("a negative capacity's bad value, an int64 in Go", () => {
  it("is a number in the finding, so every report can print it as JSON (found by test/fuzz/builtins.test.ts)", () => {
    const findings = validatePersistentVolumeSpec({ capacity: { storage: "-1Gi" } });
    const negative = findings.find((f) => f.detail === "must be a valid resource quantity");
    expect(negative?.badValue).toBe(-1073741824);
    expect(() => JSON.stringify(findings)).not.toThrow();
  });
});

// core validation.go ValidatePersistentVolumeClaimSpec, validateDataSource, validateDataSourceRef; the create
// strategy's pvcutil.NormalizeDataSources before them
describe("a PersistentVolumeClaim's spec (ValidatePersistentVolumeClaimSpec)", () => {
  const claim = (extra: JsonObject): JsonObject => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "c" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...extra },
  });
  const claimSays = (extra: JsonObject, minor = 36) => said("v1", "PersistentVolumeClaim", claim(extra), minor);

  it("checks the selector, a positive storage request and the class names", () => {
    expect(claimSays({ storageClassName: "Fast_SSD" })).toEqual([`spec.storageClassName: ${subdomain("Fast_SSD")}`]);
    expect(claimSays({ storageClassName: "" })).toEqual([]);
    expect(claimSays({ resources: { requests: { storage: "0" } } })).toEqual([
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
    ]);
    expect(claimSays({ selector: { matchExpressions: [{ key: "tier", operator: "In" }] } })).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
    // VolumeAttributesClass is GA in 1.34; before, off by default, the create strategy drops the field
    expect(claimSays({ volumeAttributesClassName: "Gold" })).toHaveLength(1);
    expect(claimSays({ volumeAttributesClassName: "Gold" }, 33)).toEqual([]);
  });

  it("normalizes the data sources first: a fault of one is said of both", () => {
    expect(claimSays({ dataSource: { apiGroup: "snapshot.storage.k8s.io" } })).toEqual([
      "spec.dataSource.kind: Required value",
      "spec.dataSource.name: Required value",
      "spec.dataSourceRef.kind: Required value",
      "spec.dataSourceRef.name: Required value",
    ]);
    expect(claimSays({ dataSourceRef: { kind: "VolumeSnapshot", name: "s" } })).toEqual([
      "spec.dataSource: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      "spec.dataSourceRef: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
    ]);
    // a reference to another namespace is not copied, and forbids a dataSource
    const elsewhere = { kind: "PersistentVolumeClaim", name: "s", namespace: "Other" };
    expect(claimSays({ dataSourceRef: elsewhere })).toEqual([`spec.dataSourceRef.namespace: ${label("Other")}`]);
    const snapshot = { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "s" };
    expect(claimSays({ dataSource: snapshot, dataSourceRef: { ...snapshot, namespace: "other" } })).toEqual([
      "spec: Invalid value: spec.dataSource: may not be specified when dataSourceRef.namespace is specified",
    ]);
    expect(claimSays({ dataSource: snapshot, dataSourceRef: { ...snapshot, name: "t" } })).toEqual([
      "spec: Invalid value: spec.dataSource: must match dataSourceRef",
    ]);
    expect(claimSays({ dataSource: snapshot, dataSourceRef: snapshot })).toEqual([]);
  });

  it("leaves a StatefulSet's claim templates unnormalized (ValidateVolumeClaimTemplates, from 1.34)", () => {
    const sts = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "s" },
      spec: {
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "a", image: "i" }] } },
        volumeClaimTemplates: [
          {
            metadata: { name: "data" },
            spec: { ...(claim({}).spec as JsonObject), dataSource: { apiGroup: "x.example.com", kind: "Thing" } },
          },
        ],
      },
    };
    expect(said("apps/v1", "StatefulSet", sts)).toEqual([
      "spec.volumeClaimTemplates[0].spec.dataSource.name: Required value",
    ]);
  });
});
