/**
 * A pod volume's cloud and legacy sources, word for word:
 * pkg/apis/core/validation/validation.go (validateGCEPersistentDiskVolumeSource,
 * validateAWSElasticBlockStoreVolumeSource, validateISCSIVolumeSource,
 * validateGlusterfsVolumeSource, validateFlockerVolumeSource,
 * validateRBDVolumeSource, validateCinderVolumeSource,
 * validateCephFSVolumeSource, validateQuobyteVolumeSource,
 * validateFCVolumeSource, validateFlexVolumeSource, validateAzureFile,
 * validateVsphereVolumeSource, validatePhotonPersistentDiskVolumeSource,
 * validatePortworxVolumeSource, validateAzureDisk,
 * validateStorageOSVolumeSource, validateScaleIOVolumeSource), each called
 * at the path validateVolumeSource gives it.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { legacyVolumeSourceValidators } from "./legacy-volumes.js";
import { dns1123LabelError as dnsLabel } from "./test-helpers.js";

const says = (field: string, source: JsonObject): string[] => {
  const validate = legacyVolumeSourceValidators[field];
  if (validate === undefined) throw new Error(`no validator for ${field}`);
  return validate(source, ["spec", "volumes", 0, field])
    .map((f) => f.message)
    .sort();
};

const at = "spec.volumes[0]";
const range = "must be between 0 and 255, inclusive";
const partition = "must be between 1 and 255, inclusive";
const registryMsg = "must be a host:port pair or multiple pairs separated by commas";
const reserved = "kubernetes.io and k8s.io namespaces are reserved";
const managedURIs = '"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"';
const blobURIs = '"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"';
const blobURI = "https://account.blob.core.windows.net/vhds/disk.vhd";
const managedURI = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Compute/disks/disk";

const valid: [string, string, JsonObject][] = [
  ["a GCE disk", "gcePersistentDisk", { pdName: "disk-1", fsType: "ext4", partition: 1 }],
  ["an EBS volume", "awsElasticBlockStore", { volumeID: "vol-0abc", partition: 0 }],
  [
    "an iSCSI target with CHAP and an initiator",
    "iscsi",
    {
      targetPortal: "10.0.0.1:3260",
      iqn: "iqn.2001-04.com.example:storage.disk1",
      lun: 255,
      chapAuthSession: true,
      secretRef: { name: "chap" },
      initiatorName: "iqn.1996-04.de.suse:01:a1b2c3",
    },
  ],
  [
    "iSCSI EUI and NAA names",
    "iscsi",
    {
      targetPortal: "10.0.0.1",
      iqn: "eui.02004567A425678D",
      lun: 0,
      initiatorName: "naa.52004567BA64678D52004567BA64678D",
    },
  ],
  ["a Gluster volume", "glusterfs", { endpoints: "glusterfs-cluster", path: "kube_vol" }],
  ["a Flocker dataset by name", "flocker", { datasetName: "dataset" }],
  ["a Flocker dataset by UUID", "flocker", { datasetUUID: "1f2e" }],
  ["an RBD image", "rbd", { monitors: ["10.0.0.1:6789"], image: "foo", pool: "kube" }],
  ["a Cinder volume with a secret", "cinder", { volumeID: "bd82f7e2", secretRef: { name: "openstack" } }],
  ["a CephFS volume", "cephfs", { monitors: ["10.0.0.1:6789"], path: "/" }],
  ["a Quobyte volume on two registries", "quobyte", { registry: "quobyte:7861,[::1]:7861", volume: "v" }],
  ["an FC disk by WWN", "fc", { targetWWNs: ["500a0982991b8dc5"], lun: 2 }],
  ["an FC disk by WWID", "fc", { wwids: ["3600508b400105e210000900000490000"] }],
  [
    "a Flex volume with its own options",
    "flexVolume",
    { driver: "example.com/lvm", options: { volumegroup: "vg", "example.com/size": "1Gi", "kubernetes.io.x/y": "z" } },
  ],
  ["an Azure file share", "azureFile", { secretName: "azure-secret", shareName: "share" }],
  ["a vSphere disk", "vsphereVolume", { volumePath: "[datastore1] volumes/disk.vmdk" }],
  ["a Photon disk", "photonPersistentDisk", { pdID: "pd-1" }],
  ["a Portworx volume", "portworxVolume", { volumeID: "pxvol" }],
  ["an Azure blob disk, kind defaulted", "azureDisk", { diskName: "disk.vhd", diskURI: blobURI }],
  [
    "an Azure managed disk",
    "azureDisk",
    { diskName: "disk", diskURI: managedURI, kind: "Managed", cachingMode: "None" },
  ],
  ["a StorageOS volume", "storageos", { volumeName: "redis", volumeNamespace: "default", secretRef: { name: "s" } }],
  [
    "a ScaleIO volume",
    "scaleIO",
    { gateway: "https://localhost:443/api", system: "scaleio", secretRef: { name: "sio" }, volumeName: "vol-0" },
  ],
];

const cases: [string, string, JsonObject, string[]][] = [
  // gcePersistentDisk: Go names the source `persistentDisk`.
  [
    "a GCE disk with an empty name",
    "gcePersistentDisk",
    { pdName: "" },
    [`${at}.persistentDisk.pdName: Required value`],
  ],
  ["a GCE disk without a name (the schema's Required)", "gcePersistentDisk", {}, []],
  [
    "a GCE partition above 255",
    "gcePersistentDisk",
    { pdName: "d", partition: 256 },
    [`${at}.persistentDisk.partition: Invalid value: 256: ${partition}`],
  ],
  [
    "an EBS volume with an empty ID and a negative partition",
    "awsElasticBlockStore",
    { volumeID: "", partition: -1 },
    [
      `${at}.awsElasticBlockStore.partition: Invalid value: -1: ${partition}`,
      `${at}.awsElasticBlockStore.volumeID: Required value`,
    ],
  ],
  [
    "an iSCSI target with an empty portal and IQN",
    "iscsi",
    { targetPortal: "", iqn: "", lun: 0 },
    [`${at}.iscsi.iqn: Required value`, `${at}.iscsi.targetPortal: Required value`],
  ],
  [
    "an IQN of no known format",
    "iscsi",
    { targetPortal: "p", iqn: "target-1" },
    [`${at}.iscsi.iqn: Invalid value: "target-1": must be valid format starting with iqn, eui, or naa`],
  ],
  [
    "an IQN without its colon part",
    "iscsi",
    { targetPortal: "p", iqn: "iqn.2001-04.com.example" },
    [`${at}.iscsi.iqn: Invalid value: "iqn.2001-04.com.example": must be valid format`],
  ],
  [
    "an EUI name too short",
    "iscsi",
    { targetPortal: "p", iqn: "eui.0200" },
    [`${at}.iscsi.iqn: Invalid value: "eui.0200": must be valid format`],
  ],
  [
    "an NAA name of 16 characters",
    "iscsi",
    { targetPortal: "p", iqn: "naa.52004567BA64678D" },
    [`${at}.iscsi.iqn: Invalid value: "naa.52004567BA64678D": must be valid format`],
  ],
  [
    "an iSCSI lun above 255",
    "iscsi",
    { targetPortal: "p", iqn: "eui.02004567A425678D", lun: 256 },
    [`${at}.iscsi.lun: Invalid value: 256: ${range}`],
  ],
  [
    "CHAP discovery without a secret",
    "iscsi",
    { targetPortal: "p", iqn: "eui.02004567A425678D", chapAuthDiscovery: true },
    [`${at}.iscsi.secretRef: Required value`],
  ],
  [
    "an initiator name of no known format, reported at `initiatorname`",
    "iscsi",
    { targetPortal: "p", iqn: "eui.02004567A425678D", initiatorName: "node-1" },
    [`${at}.iscsi.initiatorname: Invalid value: "node-1": must be valid format starting with iqn, eui, or naa`],
  ],
  [
    "an initiator IQN with a space in its name",
    "iscsi",
    { targetPortal: "p", iqn: "eui.02004567A425678D", initiatorName: "iqn.1996-04.de.suse:01 a1" },
    [`${at}.iscsi.initiatorname: Invalid value: "iqn.1996-04.de.suse:01 a1": must be valid format`],
  ],
  [
    "a Gluster volume with empty endpoints and path",
    "glusterfs",
    { endpoints: "", path: "" },
    [`${at}.glusterfs.endpoints: Required value`, `${at}.glusterfs.path: Required value`],
  ],
  [
    "a Flocker volume with no dataset",
    "flocker",
    {},
    [`${at}.flocker: Required value: one of datasetName and datasetUUID is required`],
  ],
  [
    "a Flocker volume with both a name and a UUID",
    "flocker",
    { datasetName: "d", datasetUUID: "u" },
    [`${at}.flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously`],
  ],
  [
    "a Flocker dataset name with a slash",
    "flocker",
    { datasetName: "a/b" },
    [`${at}.flocker.datasetName: Invalid value: "a/b": must not contain '/'`],
  ],
  [
    "an RBD volume with no monitors and an empty image",
    "rbd",
    { monitors: [], image: "" },
    [`${at}.rbd.image: Required value`, `${at}.rbd.monitors: Required value`],
  ],
  [
    "a Cinder volume with an empty ID and a nameless secret",
    "cinder",
    { volumeID: "", secretRef: {} },
    [`${at}.cinder.secretRef.name: Required value`, `${at}.cinder.volumeID: Required value`],
  ],
  ["CephFS monitors null", "cephfs", { monitors: null }, [`${at}.cephfs.monitors: Required value`]],
  [
    "a Quobyte volume with an empty registry and volume",
    "quobyte",
    { registry: "", volume: "", tenant: "x".repeat(65) },
    [`${at}.quobyte.registry: Required value: ${registryMsg}`, `${at}.quobyte.volume: Required value`],
  ],
  [
    "a Quobyte tenant longer than 64 bytes, its registry not checked",
    "quobyte",
    { registry: "nope", volume: "v", tenant: "x".repeat(65) },
    [`${at}.quobyte.tenant: Required value: must be a UUID and may not exceed a length of 64 characters`],
  ],
  [
    "Quobyte pairs without ports, one message each (said once by validateHandWritten)",
    "quobyte",
    { registry: "a,b:7861,c", volume: "v" },
    [
      `${at}.quobyte.registry: Invalid value: "a,b:7861,c": ${registryMsg}`,
      `${at}.quobyte.registry: Invalid value: "a,b:7861,c": ${registryMsg}`,
    ],
  ],
  [
    "a Quobyte IPv6 registry without brackets",
    "quobyte",
    { registry: "::1:7861", volume: "v" },
    [`${at}.quobyte.registry: Invalid value: "::1:7861": ${registryMsg}`],
  ],
  [
    "an FC disk with neither WWNs nor WWIDs",
    "fc",
    { targetWWNs: [] },
    [`${at}.fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both`],
  ],
  [
    "an FC disk with both WWNs and WWIDs",
    "fc",
    { targetWWNs: ["500a0982991b8dc5", "500a0982991b8dc6"], wwids: ["3600508b4"], lun: 1 },
    [
      `${at}.fc.targetWWNs: Invalid value: ["500a0982991b8dc5","500a0982991b8dc6"]: targetWWNs and wwids can not be specified simultaneously`,
    ],
  ],
  [
    "FC WWNs without a lun",
    "fc",
    { targetWWNs: ["500a0982991b8dc5"] },
    [`${at}.fc.lun: Required value: lun is required if targetWWNs is specified`],
  ],
  [
    "a negative FC lun",
    "fc",
    { targetWWNs: ["500a0982991b8dc5"], lun: -1 },
    [`${at}.fc.lun: Invalid value: -1: ${range}`],
  ],
  ["a Flex volume with an empty driver", "flexVolume", { driver: "" }, [`${at}.flexVolume.driver: Required value`]],
  [
    "Flex options in the reserved namespaces",
    "flexVolume",
    { driver: "d", options: { "kubernetes.io/fsType": "a", "Storage.K8S.io/x": "b", "k8s.io": "c", fsType: "d" } },
    [
      `${at}.flexVolume.options[Storage.K8S.io/x]: Invalid value: "Storage.K8S.io/x": ${reserved}`,
      `${at}.flexVolume.options[k8s.io]: Invalid value: "k8s.io": ${reserved}`,
      `${at}.flexVolume.options[kubernetes.io/fsType]: Invalid value: "kubernetes.io/fsType": ${reserved}`,
    ],
  ],
  [
    "an Azure file share with empty names",
    "azureFile",
    { secretName: "", shareName: "" },
    [`${at}.azureFile.secretName: Required value`, `${at}.azureFile.shareName: Required value`],
  ],
  [
    "a vSphere disk with an empty path",
    "vsphereVolume",
    { volumePath: "" },
    [`${at}.vsphereVolume.volumePath: Required value`],
  ],
  [
    "a Photon disk with an empty ID",
    "photonPersistentDisk",
    { pdID: "" },
    [`${at}.photonPersistentDisk.pdID: Required value`],
  ],
  [
    "a Portworx volume with an empty ID",
    "portworxVolume",
    { volumeID: "" },
    [`${at}.portworxVolume.volumeID: Required value`],
  ],
  [
    "an Azure disk with an empty name",
    "azureDisk",
    { diskName: "", diskURI: blobURI },
    [`${at}.azureDisk.diskName: Required value`],
  ],
  [
    "an Azure caching mode not supported",
    "azureDisk",
    { diskName: "d", diskURI: blobURI, cachingMode: "WriteBack" },
    [`${at}.azureDisk.cachingMode: Unsupported value: "WriteBack": supported values: "None", "ReadOnly", "ReadWrite"`],
  ],
  [
    "an empty Azure caching mode is set, not defaulted",
    "azureDisk",
    { diskName: "d", diskURI: blobURI, cachingMode: "" },
    [`${at}.azureDisk.cachingMode: Unsupported value: "": supported values: "None", "ReadOnly", "ReadWrite"`],
  ],
  [
    "an Azure disk kind not supported",
    "azureDisk",
    { diskName: "d", diskURI: blobURI, kind: "Blob" },
    [`${at}.azureDisk.kind: Unsupported value: "Blob": supported values: "Dedicated", "Managed", "Shared"`],
  ],
  [
    "a managed Azure disk with a blob URI",
    "azureDisk",
    { diskName: "d", diskURI: blobURI, kind: "Managed" },
    [`${at}.azureDisk.diskURI: Unsupported value: "${blobURI}": supported values: ${managedURIs}`],
  ],
  [
    "a managed disk's URI with the kind defaulted to Shared",
    "azureDisk",
    { diskName: "d", diskURI: managedURI },
    [`${at}.azureDisk.diskURI: Unsupported value: "${managedURI}": supported values: ${blobURIs}`],
  ],
  [
    "a dedicated Azure disk with an empty URI",
    "azureDisk",
    { diskName: "d", diskURI: "", kind: "Dedicated" },
    [
      `${at}.azureDisk.diskURI: Required value`,
      `${at}.azureDisk.diskURI: Unsupported value: "": supported values: ${blobURIs}`,
    ],
  ],
  ["a StorageOS volume without a name", "storageos", {}, [`${at}.storageos.volumeName: Required value`]],
  [
    "StorageOS names that are not DNS labels",
    "storageos",
    { volumeName: "Redis_Vol", volumeNamespace: "my.ns" },
    [
      `${at}.storageos.volumeName: Invalid value: "Redis_Vol": ${dnsLabel}`,
      `${at}.storageos.volumeNamespace: Invalid value: "my.ns": must not contain dots`,
    ],
  ],
  [
    "a StorageOS secret with an empty name",
    "storageos",
    { volumeName: "v", secretRef: { name: "" } },
    [`${at}.storageos.secretRef.name: Required value`],
  ],
  [
    "a ScaleIO volume with an empty gateway and system, and no volume name",
    "scaleIO",
    { gateway: "", system: "", secretRef: { name: "s" } },
    [
      `${at}.scaleIO.gateway: Required value`,
      `${at}.scaleIO.system: Required value`,
      `${at}.scaleIO.volumeName: Required value`,
    ],
  ],
  ["a ScaleIO volume missing what the schema requires", "scaleIO", { volumeName: "v" }, []],
];

describe("legacy volume sources", () => {
  it.each(valid)("accepts %s", (_name, field, source) => {
    expect(says(field, source)).toEqual([]);
  });

  it.each(cases)("%s", (_name, field, source, expected) => {
    expect(says(field, source)).toEqual([...expected].sort());
  });

  it("covers every source validateVolumeSource leaves to it", () => {
    expect(Object.keys(legacyVolumeSourceValidators).sort()).toEqual(
      [
        "awsElasticBlockStore",
        "azureDisk",
        "azureFile",
        "cephfs",
        "cinder",
        "fc",
        "flexVolume",
        "flocker",
        "gcePersistentDisk",
        "glusterfs",
        "iscsi",
        "photonPersistentDisk",
        "portworxVolume",
        "quobyte",
        "rbd",
        "scaleIO",
        "storageos",
        "vsphereVolume",
      ].sort(),
    );
  });
});
