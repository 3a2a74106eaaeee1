/**
 * core/v1 fields the OpenAPI marks required that the API server accepts absent (required-core.ts): the whole
 * pass (schema, unions and hand-written rules) says nothing of them, in every release, while a sibling the
 * server does refuse absent is still reported.
 */
import { describe, expect, it } from "vitest";
import "./all-releases.js";
import { buildCatalog, validateObject } from "../check/index.js";
import type { JsonObject } from "../value/index.js";
import { type KubernetesRelease, kubernetesReleases, minorOf } from "./releases.js";

const { catalog } = buildCatalog([], []);

/** The errors the whole pass gives `object` in release `release` (warnings, as a deprecated source's, aside). */
const says = (object: JsonObject, release: KubernetesRelease): string[] =>
  validateObject(catalog, String(object.apiVersion), String(object.kind), object, { kubernetesVersion: release })
    .filter((f) => f.severity === "error")
    .map((f) => f.message)
    .sort();

const pod = (spec: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "default" },
  spec: { containers: [{ name: "app", image: "nginx" }], ...spec },
});

const withContainer = (extra: JsonObject): JsonObject =>
  pod({ containers: [{ name: "app", image: "nginx", ...extra }] });

const persistentVolume = (source: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name: "pv" },
  spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], ...source },
});

/** Releases whose behaviour the entry describes (SleepAction's 0 is refused by 1.32's server). */
const fromMinor = (minor: number) => kubernetesReleases.filter((r) => minorOf(r) >= minor);

describe("fields the server accepts absent pass the whole validation", () => {
  const cases: [string, JsonObject, readonly KubernetesRelease[]][] = [
    [
      "an HTTP header without a value (validateHTTPGetAction reads names only)",
      withContainer({ readinessProbe: { httpGet: { port: 8080, path: "/", httpHeaders: [{ name: "X-Probe" }] } } }),
      kubernetesReleases,
    ],
    [
      "a sysctl without a value (validateSysctls reads names only)",
      pod({ securityContext: { sysctls: [{ name: "net.core.somaxconn" }] } }),
      kubernetesReleases,
    ],
    [
      "a preferred node affinity term without a preference (an empty term passes ValidateNodeSelectorTerm)",
      pod({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10 }] } } }),
      kubernetesReleases,
    ],
    [
      "a preStop sleep without seconds (0 allowed since PodLifecycleSleepActionAllowZero, on from 1.33)",
      withContainer({ lifecycle: { preStop: { sleep: {} } } }),
      fromMinor(33),
    ],
    [
      "an iSCSI volume without a lun (0 is within 0-255)",
      pod({
        volumes: [{ name: "disk", iscsi: { targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage" } }],
      }),
      kubernetesReleases,
    ],
    [
      "an iSCSI persistent volume without a lun",
      persistentVolume({ iscsi: { targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage" } }),
      kubernetesReleases,
    ],
    [
      "a ScaleIO persistent volume without a secretRef (validateScaleIOPersistentVolumeSource never reads it)",
      persistentVolume({ scaleIO: { gateway: "https://gw", system: "sys", volumeName: "vol" } }),
      kubernetesReleases,
    ],
  ];

  it.each(cases)("%s", (_, object, releases) => {
    for (const release of releases) expect(says(object, release), release).toEqual([]);
  });
});

describe("fields the server refuses absent are still reported", () => {
  it("an HTTP header without a name: as the empty name, at httpHeaders without the index", () => {
    const object = withContainer({
      readinessProbe: { httpGet: { port: 8080, path: "/", httpHeaders: [{ value: "v" }] } },
    });
    expect(says(object, "1.36")).toEqual([
      `spec.containers[0].readinessProbe.httpGet.httpHeaders: Invalid value: "": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
    ]);
  });

  it("a sysctl without a name", () => {
    const object = pod({ securityContext: { sysctls: [{ value: "1" }] } });
    expect(says(object, "1.36")).toContain("spec.securityContext.sysctls[0].name: Required value");
  });

  it("a preferred node affinity term without a weight", () => {
    const object = pod({
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ preference: {} }] } },
    });
    expect(says(object, "1.36").join("\n")).toContain(
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight",
    );
  });

  it("an iSCSI volume without a target portal", () => {
    const object = pod({ volumes: [{ name: "disk", iscsi: { iqn: "iqn.2001-04.com.example:storage" } }] });
    expect(says(object, "1.36")).toContain("spec.volumes[0].iscsi.targetPortal: Required value");
  });
});
