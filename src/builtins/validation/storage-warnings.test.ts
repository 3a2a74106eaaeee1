/**
 * The storage kinds' warnings in the API server's words and order: each case is an object the server
 * accepts and the `Warning:` lines kubectl prints for it, some of them the cases of Kubernetes' own
 * tests (which compare sets: the order asserted here is the order of Go's code).
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { csiStorageCapacityWarnings, persistentVolumeWarnings, storageClassWarnings } from "./storage-warnings.js";
import { said } from "./test-helpers.js";

const messages = (findings: Finding[]) => findings.map((f) => f.message);

const volume = (spec: JsonObject = {}, annotations?: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: annotations === undefined ? { name: "pv" } : { name: "pv", annotations },
  spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], ...spec },
});
const nfs = { nfs: { server: "10.0.0.1", path: "/export" } };
const requiredTerms = (...terms: JsonObject[]): JsonObject => ({
  nodeAffinity: { required: { nodeSelectorTerms: terms } },
});

const storageClassAnnotation =
  'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead';
const mountOptionsAnnotation =
  'metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead';
const recycle =
  "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.";

describe("persistentVolumeWarnings: pkg/api/persistentvolume/util.go warningsForPersistentVolumeSpecAndMeta (util_test.go TestWarnings)", () => {
  it("gives nothing for a clean volume, whatever its reclaim policy but Recycle", () => {
    expect(persistentVolumeWarnings(volume(nfs))).toEqual([]);
    for (const policy of ["Retain", "Delete"])
      expect(persistentVolumeWarnings(volume({ ...nfs, persistentVolumeReclaimPolicy: policy }))).toEqual([]);
    expect(persistentVolumeWarnings({})).toEqual([]);
  });

  it('"warning": both annotations, then the deprecated node label of the required node affinity', () => {
    const pv = volume(
      requiredTerms({ matchExpressions: [{ key: "beta.kubernetes.io/os", operator: "In", values: ["windows"] }] }),
      { "volume.beta.kubernetes.io/storage-class": "", "volume.beta.kubernetes.io/mount-options": "" },
    );
    expect(messages(persistentVolumeWarnings(pv))).toEqual([
      storageClassAnnotation,
      mountOptionsAnnotation,
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
  });

  it("checks the annotations in Go's order, not the order they are written, and by presence alone", () => {
    const pv = volume(nfs, {
      "volume.beta.kubernetes.io/mount-options": "hard,nfsvers=4.1",
      "volume.beta.kubernetes.io/storage-class": "",
    });
    expect(messages(persistentVolumeWarnings(pv))).toEqual([storageClassAnnotation, mountOptionsAnnotation]);
    const warning = persistentVolumeWarnings(pv)[0] as Finding;
    expect(warning.severity).toBe("warning");
    expect(warning.field).toBe("metadata.annotations[volume.beta.kubernetes.io/storage-class]");
  });

  it('"PersistentVolumeReclaimRecycle deprecation warning"', () => {
    const findings = persistentVolumeWarnings(volume({ ...nfs, persistentVolumeReclaimPolicy: "Recycle" }));
    expect(messages(findings)).toEqual([recycle]);
    expect(findings[0]?.path).toEqual(["spec", "persistentVolumeReclaimPolicy"]);
  });

  it.each([
    ["cephfs", { monitors: ["10.0.0.1:6789"] }, "spec.cephfs: deprecated in v1.28, non-functional in v1.31+"],
    [
      "photonPersistentDisk",
      { pdID: "disk" },
      "spec.photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+",
    ],
    ["rbd", { monitors: ["10.0.0.1"], image: "img" }, "spec.rbd: deprecated in v1.28, non-functional in v1.31+"],
    [
      "scaleIO",
      { gateway: "https://gw", system: "sys", secretRef: { name: "s" } },
      "spec.scaleIO: deprecated in v1.16, non-functional in v1.22+",
    ],
    // Go's path says storageOS, the JSON field is storageos
    ["storageos", { volumeName: "v" }, "spec.storageOS: deprecated in v1.22, non-functional in v1.25+"],
    ["glusterfs", { endpoints: "ep", path: "vol" }, "spec.glusterfs: deprecated in v1.25, non-functional in v1.26+"],
  ])('"PV %s deprecation warning"', (source, value, message) => {
    expect(messages(persistentVolumeWarnings(volume({ [source]: value })))).toEqual([message]);
  });

  it("says nothing of a source that is null (a nil pointer in Go) or of plugins still in use", () => {
    expect(persistentVolumeWarnings(volume({ ...nfs, cephfs: null, rbd: null }))).toEqual([]);
    expect(persistentVolumeWarnings(volume({ csi: { driver: "d", volumeHandle: "h" } }))).toEqual([]);
  });

  it("walks every required term and expression with its indexes, and only the match expressions", () => {
    const pv = volume({
      ...nfs,
      ...requiredTerms(
        { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["a"] }] },
        {
          matchFields: [{ key: "metadata.name", operator: "In", values: ["a"] }],
          matchExpressions: [
            { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
            { key: "failure-domain.beta.kubernetes.io/zone", operator: "In", values: ["z"] },
          ],
        },
      ),
    });
    expect(messages(persistentVolumeWarnings(pv))).toEqual([
      'spec.nodeAffinity.required.nodeSelectorTerms[1].matchExpressions[1].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ]);
  });

  it("orders the kinds as Go does: annotation, reclaim policy, node affinity, volume plugin", () => {
    const pv = volume(
      {
        rbd: { monitors: ["10.0.0.1"], image: "img" },
        ...requiredTerms({ matchExpressions: [{ key: "beta.kubernetes.io/arch", operator: "Exists" }] }),
        persistentVolumeReclaimPolicy: "Recycle",
      },
      { "volume.beta.kubernetes.io/mount-options": "ro" },
    );
    expect(messages(persistentVolumeWarnings(pv))).toEqual([
      mountOptionsAnnotation,
      recycle,
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      "spec.rbd: deprecated in v1.28, non-functional in v1.31+",
    ]);
  });

  it("warns alike in every release kunion checks (mount options since 1.31, Recycle since 1.30)", () => {
    const pv = volume(
      { ...nfs, persistentVolumeReclaimPolicy: "Recycle" },
      { "volume.beta.kubernetes.io/mount-options": "ro" },
    );
    for (const minor of [32, 33, 34, 35, 36])
      expect(said("v1", "PersistentVolume", pv, minor).filter((m) => m.startsWith("warning "))).toEqual(
        [mountOptionsAnnotation, recycle].map((m) => `warning ${m}`).sort(),
      );
  });
});

const storageClass = (allowedTopologies?: JsonObject[]): JsonObject => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: "fast" },
  provisioner: "example.com/csi",
  ...(allowedTopologies === undefined ? {} : { allowedTopologies }),
});

describe("storageClassWarnings: pkg/api/storage/util.go GetWarningsForStorageClass (util_test.go TestStorageClassWarnings)", () => {
  it('"no warning": a class without topologies, or with current labels only', () => {
    expect(storageClassWarnings(storageClass())).toEqual([]);
    expect(
      storageClassWarnings(
        storageClass([{ matchLabelExpressions: [{ key: "topology.kubernetes.io/zone", values: ["a"] }] }]),
      ),
    ).toEqual([]);
  });

  it('"warning": each deprecated key, at `.key`, with the label\'s note alone', () => {
    const findings = storageClassWarnings(
      storageClass([
        {
          matchLabelExpressions: [
            { key: "beta.kubernetes.io/arch", values: ["amd64"] },
            { key: "beta.kubernetes.io/os", values: ["linux"] },
          ],
        },
      ]),
    );
    expect(messages(findings)).toEqual([
      'allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
    expect(findings.every((f) => f.severity === "warning")).toBe(true);
  });

  it("walks every topology term in order, with both indexes", () => {
    const findings = storageClassWarnings(
      storageClass([
        { matchLabelExpressions: [{ key: "topology.kubernetes.io/zone", values: ["a"] }] },
        {
          matchLabelExpressions: [
            { key: "topology.kubernetes.io/region", values: ["r"] },
            { key: "failure-domain.beta.kubernetes.io/zone", values: ["z"] },
          ],
        },
      ]),
    );
    expect(messages(findings)).toEqual([
      'allowedTopologies[1].matchLabelExpressions[1].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ]);
    expect(findings[0]?.path).toEqual(["allowedTopologies", 1, "matchLabelExpressions", 1, "key"]);
  });
});

const capacity = (nodeTopology?: JsonObject): JsonObject => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "CSIStorageCapacity",
  metadata: { name: "cap", namespace: "default" },
  storageClassName: "fast",
  ...(nodeTopology === undefined ? {} : { nodeTopology }),
});

describe("csiStorageCapacityWarnings: pkg/api/storage/util.go GetWarningsForCSIStorageCapacity, pkg/api/node/util.go GetWarningsForNodeSelector (util_test.go TestCSIStorageCapacityWarnings)", () => {
  it('"no warning": no node topology, or one on current labels', () => {
    expect(csiStorageCapacityWarnings(capacity())).toEqual([]);
    expect(
      csiStorageCapacityWarnings(
        capacity({
          matchLabels: { "topology.kubernetes.io/zone": "a" },
          matchExpressions: [{ key: "kubernetes.io/os", operator: "In", values: ["linux"] }],
        }),
      ),
    ).toEqual([]);
  });

  it('"MatchLabels warning": the label after a dot (Go\'s .Child), the note alone, in written order', () => {
    const findings = csiStorageCapacityWarnings(
      capacity({ matchLabels: { "beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64" } }),
    );
    expect(messages(findings)).toEqual([
      'nodeTopology.matchLabels.beta.kubernetes.io/os: deprecated since v1.14; use "kubernetes.io/os" instead',
      'nodeTopology.matchLabels.beta.kubernetes.io/arch: deprecated since v1.14; use "kubernetes.io/arch" instead',
    ]);
    expect(findings[0]?.field).toBe("nodeTopology.matchLabels.beta.kubernetes.io/os");
    expect(findings[0]?.path).toEqual(["nodeTopology", "matchLabels", "beta.kubernetes.io/os"]);
  });

  it('"MatchExpressions warning": `<label> is <note>` at `.key`', () => {
    const findings = csiStorageCapacityWarnings(
      capacity({
        matchExpressions: [
          { key: "beta.kubernetes.io/arch", operator: "In", values: ["amd64"] },
          { key: "beta.kubernetes.io/os", operator: "In", values: ["linux"] },
        ],
      }),
    );
    expect(messages(findings)).toEqual([
      'nodeTopology.matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'nodeTopology.matchExpressions[1].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
  });

  it("gives the match expressions' warnings before the match labels', however they are written", () => {
    const findings = csiStorageCapacityWarnings(
      capacity({
        matchLabels: { "failure-domain.beta.kubernetes.io/region": "r" },
        matchExpressions: [
          { key: "kubernetes.io/hostname", operator: "Exists" },
          { key: "beta.kubernetes.io/instance-type", operator: "Exists" },
        ],
      }),
    );
    expect(messages(findings)).toEqual([
      'nodeTopology.matchExpressions[1].key: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      'nodeTopology.matchLabels.failure-domain.beta.kubernetes.io/region: deprecated since v1.17; use "topology.kubernetes.io/region" instead',
    ]);
  });
});
