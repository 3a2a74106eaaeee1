/**
 * A pod volume's source, word for word: pkg/apis/core/validation/validation.go
 * (validateVolumeSource, validateHostPathVolumeSource, validateHostPathType,
 * validateGitRepoVolumeSource, validateNFSVolumeSource,
 * validateSecretVolumeSource, validateConfigMapVolumeSource,
 * validateKeyToPath, validatePersistentClaimVolumeSource,
 * validateDownwardAPIVolumeSource, validateDownwardAPIVolumeFile,
 * validateContainerResourceFieldSelector, validateContainerResourceDivisor,
 * validateProjectedVolumeSource, validateProjectionSources,
 * validateCSIVolumeSource, ValidateCSIDriverName,
 * validateEphemeralVolumeSource, ValidateTemplateObjectMeta,
 * validateImageVolumeSource, validatePullPolicy, validateLocalDescendingPath,
 * ValidateLocalNonReservedPath, validatePathNoBacksteps, fileModeErrorMsg).
 * Tested directly, at the path ValidateVolumes gives it; the cloud and
 * legacy sources' own rules are in legacy-volumes.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { dns1123SubdomainError as subdomain } from "./test-helpers.js";
import { validateVolumeSource } from "./volumes.js";

const says = (source: JsonObject) =>
  validateVolumeSource({ name: "v", ...source }, ["spec", "volumes", 0])
    .map((f) => f.message)
    .sort();

const mode = "must be a number between 0 and 0777 (octal), both inclusive";
const bytesDivisors = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";
const at = "spec.volumes[0]";

const valid: [string, JsonObject][] = [
  ["an emptyDir in memory with a limit", { emptyDir: { medium: "Memory", sizeLimit: "1Gi" } }],
  ["an empty emptyDir", { emptyDir: {} }],
  ["a hostPath of a known type", { hostPath: { path: "/var/run/docker.sock", type: "Socket" } }],
  ["a hostPath with an empty type", { hostPath: { path: "/data", type: "" } }],
  [
    "a secret with items and modes",
    {
      secret: {
        secretName: "tls",
        defaultMode: 0o400,
        items: [{ key: "tls.crt", path: "certs/tls.crt", mode: 0o644 }],
      },
    },
  ],
  ["a configMap, optional, with 0777", { configMap: { name: "conf", optional: true, defaultMode: 0o777 } }],
  ["a claim", { persistentVolumeClaim: { claimName: "data", readOnly: true } }],
  [
    "a downward API volume",
    {
      downwardAPI: {
        items: [
          { path: "labels", fieldRef: { fieldPath: "metadata.labels" } },
          { path: "team", fieldRef: { apiVersion: "v1", fieldPath: "metadata.annotations['example.com/Team']" } },
          { path: "cpu", resourceFieldRef: { containerName: "app", resource: "limits.cpu", divisor: "1m" } },
          { path: "mem", resourceFieldRef: { containerName: "app", resource: "requests.memory", divisor: "1Mi" } },
          {
            path: "huge",
            resourceFieldRef: { containerName: "app", resource: "limits.hugepages-2Mi", divisor: "1Ki" },
          },
        ],
      },
    },
  ],
  [
    "a projected volume as the service account admission plugin writes it",
    {
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
          { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
          {
            downwardAPI: {
              items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }],
            },
          },
        ],
      },
    },
  ],
  ["a CSI volume", { csi: { driver: "secrets-store.csi.k8s.io", nodePublishSecretRef: { name: "creds" } } }],
  [
    "an ephemeral volume",
    {
      ephemeral: {
        volumeClaimTemplate: {
          metadata: { labels: { app: "web" }, annotations: { note: "x" }, creationTimestamp: null },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        },
      },
    },
  ],
  ["an image volume", { image: { reference: "registry/artifact:v1", pullPolicy: "IfNotPresent" } }],
  ["a gitRepo volume into a subdirectory", { gitRepo: { repository: "https://example.com/r.git", directory: "src" } }],
  ["an NFS volume", { nfs: { server: "nfs.example.com", path: "/exports" } }],
  ["a cloud source", { awsElasticBlockStore: { volumeID: "vol-0abc", fsType: "ext4" } }],
  ["no source (the union's finding)", {}],
];

const cases: [string, JsonObject, string[]][] = [
  ["a secret without a name", { secret: {} }, [`${at}.secret.secretName: Required value`]],
  ["a configMap without a name", { configMap: {} }, [`${at}.configMap.name: Required value`]],
  [
    "a claim with an empty name",
    { persistentVolumeClaim: { claimName: "" } },
    [`${at}.persistentVolumeClaim.claimName: Required value`],
  ],
  ["a claim without a name (the schema's Required)", { persistentVolumeClaim: {} }, []],
  ["a hostPath with an empty path", { hostPath: { path: "", type: "Nope" } }, [`${at}.hostPath.path: Required value`]],
  [
    "a hostPath with a backstep",
    { hostPath: { path: "/var/../etc" } },
    [`${at}.hostPath.path: Invalid value: "/var/../etc": must not contain '..'`],
  ],
  [
    "a hostPath of an unknown type",
    { hostPath: { path: "/data", type: "Dir" } },
    [
      `${at}.hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`,
    ],
  ],
  [
    "a negative emptyDir size limit",
    { emptyDir: { sizeLimit: "-1Gi" } },
    [`${at}.emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`],
  ],
  [
    "a secret's defaultMode too large",
    { secret: { secretName: "s", defaultMode: 1000 } },
    [`${at}.secret.defaultMode: Invalid value: 1000: ${mode}`],
  ],
  [
    "a configMap's negative defaultMode",
    { configMap: { name: "c", defaultMode: -1 } },
    [`${at}.configMap.defaultMode: Invalid value: -1: ${mode}`],
  ],
  [
    "items escaping the volume",
    {
      secret: {
        secretName: "s",
        items: [
          { key: "a", path: "../etc/passwd" },
          { key: "b", path: "/etc/passwd" },
          { key: "c", path: "..data" },
          { key: "d", path: "..", mode: 512 },
        ],
      },
    },
    [
      `${at}.secret.items[0].path: Invalid value: "../etc/passwd": must not contain '..'`,
      `${at}.secret.items[1].path: Invalid value: "/etc/passwd": must be a relative path`,
      `${at}.secret.items[2].path: Invalid value: "..data": must not start with '..'`,
      `${at}.secret.items[3].mode: Invalid value: 512: ${mode}`,
      `${at}.secret.items[3].path: Invalid value: "..": must not contain '..'`,
      `${at}.secret.items[3].path: Invalid value: "..": must not start with '..'`,
    ],
  ],
  [
    "an item with an empty key and path",
    { configMap: { name: "c", items: [{ key: "", path: "" }] } },
    [`${at}.configMap.items[0].key: Required value`, `${at}.configMap.items[0].path: Required value`],
  ],
  [
    "only the first source in Go's order is checked",
    { configMap: {}, secret: {} },
    [`${at}.secret.secretName: Required value`],
  ],
  [
    "downward API items are reported at the source, not at the item",
    {
      downwardAPI: {
        defaultMode: 4096,
        items: [
          { path: "", fieldRef: { fieldPath: "metadata.name" }, mode: -2 },
          { path: "x" },
          {
            path: "y",
            fieldRef: { fieldPath: "metadata.name" },
            resourceFieldRef: { containerName: "app", resource: "limits.cpu" },
          },
        ],
      },
    },
    [
      `${at}.downwardAPI.defaultMode: Invalid value: 4096: ${mode}`,
      `${at}.downwardAPI.mode: Invalid value: -2: ${mode}`,
      `${at}.downwardAPI.path: Required value`,
      `${at}.downwardAPI: Required value: one of fieldRef and resourceFieldRef is required`,
      `${at}.downwardAPI: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`,
    ],
  ],
  [
    "a downward API field a volume cannot read",
    { downwardAPI: { items: [{ path: "ip", fieldRef: { fieldPath: "status.podIP" } }] } },
    [
      `${at}.downwardAPI.fieldRef.fieldPath: Unsupported value: "status.podIP": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
    ],
  ],
  [
    "a resourceFieldRef without a container",
    { downwardAPI: { items: [{ path: "cpu", resourceFieldRef: { resource: "limits.gpu", divisor: "2" } }] } },
    [`${at}.downwardAPI.resourceFieldRef.containerName: Required value`],
  ],
  [
    "a resourceFieldRef of an unknown resource",
    { downwardAPI: { items: [{ path: "gpu", resourceFieldRef: { containerName: "app", resource: "limits.gpu" } }] } },
    [
      `${at}.downwardAPI.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
    ],
  ],
  [
    "divisors the resources do not support",
    {
      downwardAPI: {
        items: [
          { path: "a", resourceFieldRef: { containerName: "app", resource: "limits.cpu", divisor: "2" } },
          { path: "b", resourceFieldRef: { containerName: "app", resource: "requests.memory", divisor: "1m" } },
          { path: "c", resourceFieldRef: { containerName: "app", resource: "limits.ephemeral-storage", divisor: "3" } },
          { path: "d", resourceFieldRef: { containerName: "app", resource: "requests.hugepages-1Gi", divisor: "5" } },
        ],
      },
    },
    [
      `${at}.downwardAPI.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
      `${at}.downwardAPI.resourceFieldRef.divisor: Invalid value: "limits.ephemeral-storage": only divisor's values ${bytesDivisors} are supported with the local ephemeral storage resource`,
      `${at}.downwardAPI.resourceFieldRef.divisor: Invalid value: "requests.hugepages-1Gi": only divisor's values ${bytesDivisors} are supported with the hugepages resource`,
      `${at}.downwardAPI.resourceFieldRef.divisor: Invalid value: "requests.memory": only divisor's values ${bytesDivisors} are supported with the memory resource`,
    ],
  ],
  [
    "a projected volume's sources",
    {
      projected: {
        defaultMode: 1024,
        sources: [
          { secret: { items: [{ key: "k", path: "a" }] } },
          { configMap: { name: "c", items: [{ key: "k", path: "a" }] } },
          { downwardAPI: { items: [{ path: "a", fieldRef: { fieldPath: "metadata.uid" } }] } },
        ],
      },
    },
    [
      `${at}.projected.defaultMode: Invalid value: 1024: ${mode}`,
      `${at}.projected.sources[0].secret.name: Required value`,
      `${at}.projected: Invalid value: "a": conflicting duplicate paths`,
      `${at}.projected: Invalid value: "c": conflicting duplicate paths`,
    ],
  ],
  [
    "a projected downward API item, at its source",
    {
      projected: {
        sources: [{ downwardAPI: { items: [{ path: "/abs", fieldRef: { fieldPath: "metadata.name" } }] } }],
      },
    },
    [`${at}.projected.sources[0].downwardAPI.path: Invalid value: "/abs": must be a relative path`],
  ],
  [
    "a service account token too short-lived, its path at the volume",
    { projected: { sources: [{ serviceAccountToken: { path: "", expirationSeconds: 60 } }] } },
    [
      `${at}.projected.path: Required value`,
      `${at}.projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`,
    ],
  ],
  [
    "a service account token too long-lived, with a backstep",
    { projected: { sources: [{ serviceAccountToken: { path: "../token", expirationSeconds: 2 ** 32 + 1 } }] } },
    [
      `${at}.projected.path: Invalid value: "../token": must not contain '..'`,
      `${at}.projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds`,
    ],
  ],
  [
    "a CSI driver that is no subdomain, and a bad secret name",
    { csi: { driver: "My_Driver", nodePublishSecretRef: { name: "Bad_Name" } } },
    [
      `${at}.csi.driver: Invalid value: "My_Driver": ${subdomain}`,
      `${at}.csi.name: Invalid value: "Bad_Name": ${subdomain}`,
    ],
  ],
  [
    "an empty CSI driver and secret name",
    { csi: { driver: "", nodePublishSecretRef: {} } },
    [
      `${at}.csi.driver: Invalid value: "": ${subdomain}`,
      `${at}.csi.driver: Required value`,
      `${at}.csi.nodePublishSecretRef.name: Required value`,
    ],
  ],
  [
    "a CSI driver name too long",
    { csi: { driver: `${"a".repeat(60)}.com` } },
    [`${at}.csi.driver: Too long: may not be more than 63 bytes`],
  ],
  [
    "an ephemeral volume without a template",
    { ephemeral: {} },
    [`${at}.ephemeral.volumeClaimTemplate: Required value`],
  ],
  [
    "an ephemeral claim template with a name and a bad label",
    {
      ephemeral: {
        volumeClaimTemplate: {
          metadata: { name: "data", uid: "1", labels: { "a b": "x" }, finalizers: ["f"] },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        },
      },
    },
    [
      `${at}.ephemeral.volumeClaimTemplate.metadata.finalizers: Forbidden: cannot be set`,
      `${at}.ephemeral.volumeClaimTemplate.metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `${at}.ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set`,
      `${at}.ephemeral.volumeClaimTemplate.metadata.uID: Forbidden: cannot be set`,
    ],
  ],
  [
    "an image volume's unknown pull policy",
    { image: { reference: "r", pullPolicy: "Sometimes" } },
    [`${at}.image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`],
  ],
  [
    "a gitRepo with an empty repository into an absolute directory",
    { gitRepo: { repository: "", directory: "/x" } },
    [
      `${at}.gitRepo.directory: Invalid value: "/x": must be a relative path`,
      `${at}.gitRepo.repository: Required value`,
    ],
  ],
  [
    "an NFS path that is not absolute",
    { nfs: { server: "nfs", path: "exports" } },
    [`${at}.nfs.path: Invalid value: "exports": must be an absolute path`],
  ],
];

describe("volume sources (core validateVolumeSource)", () => {
  it.each(valid)("accepts %s", (_, source) => {
    expect(says(source)).toEqual([]);
  });

  it.each(cases)("%s", (_, source, expected) => {
    expect(says(source)).toEqual([...expected].sort());
  });

  it("hands the cloud and legacy sources to legacy-volumes.ts, and checks the iSCSI session name (volume name:portal)", () => {
    expect(
      says({ iscsi: { targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage", lun: 300 } }),
    ).toEqual([`${at}.iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive`]);
    const portal = `${"p".repeat(62)}:3260`;
    const iscsi = { targetPortal: portal, iqn: "iqn.2001-04.com.example:storage", lun: 0 };
    expect(says({ iscsi: { ...iscsi, initiatorName: "iqn.2001-04.com.example:node" } })).toEqual([
      `${at}.name: Invalid value: "v": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.`,
    ]);
    expect(says({ iscsi })).toEqual([]);
  });
});
