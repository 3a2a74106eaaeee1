/**
 * The lifecycle of Kubernetes' own API versions, per chosen release: a
 * version the release no longer serves is kubectl's `no matches for kind`
 * (an error), one it serves but has deprecated is the API server's warning,
 * worded as apiserver's endpoints/deprecation/deprecation.go WarningMessage
 * words it: `<group/version> <Kind> is deprecated in v1.X+[, unavailable in
 * v1.Y+][; use <group/version> <Kind>]`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCatalog, openApiSchemas, validateObject } from "../check/index.js";
import { run } from "../cli/main.js";
import type { JsonObject } from "../value/index.js";
import { type KubernetesRelease, kubernetesReleases, minorOf } from "./releases.js";
import { deprecationWarning, removedApi } from "./removed.js";
import { releaseTable } from "./schemas.js";

const { catalog } = buildCatalog([], []);
const object = (apiVersion: string, kind: string, extra: JsonObject = {}): JsonObject => ({
  apiVersion,
  kind,
  metadata: { name: "x" },
  ...extra,
});
const lifecycleSaid = (apiVersion: string, kind: string, release: KubernetesRelease) =>
  validateObject(catalog, apiVersion, kind, object(apiVersion, kind), { kubernetesVersion: release })
    .filter((f) => f.rule === "api-removed")
    .map((f) => `${f.severity} ${f.message}`);

const removed = (kind: string, apiVersion: string, release: number, use?: string) =>
  `error apiVersion: No schema known: no matches for kind "${kind}" in version "${apiVersion}": removed in Kubernetes 1.${release}${use ? `; use ${use}` : ""}`;

type Case = [apiVersion: string, kind: string, release: KubernetesRelease, said: string | undefined, source: string];

// Each row names the Kubernetes file its facts come from (k8s.io/api unless said otherwise).
const cases: Case[] = [
  ["v1", "Endpoints", "1.32", undefined, "core/v1/lifecycle.go: Endpoints deprecated 1.33"],
  [
    "v1",
    "Endpoints",
    "1.33",
    "warning v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
    "core/v1/lifecycle.go: APILifecycleReplacement discovery.k8s.io/v1 EndpointSlice",
  ],
  [
    "v1",
    "Endpoints",
    "1.36",
    "warning v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
    "core/v1/lifecycle.go: no removal",
  ],
  ["v1", "ComponentStatus", "1.32", "warning v1 ComponentStatus is deprecated in v1.19+", "core/v1/lifecycle.go"],
  [
    "admissionregistration.k8s.io/v1beta1",
    "ValidatingAdmissionPolicy",
    "1.33",
    "warning admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+",
    "admissionregistration/v1beta1/zz_generated.prerelease-lifecycle.go",
  ],
  [
    "admissionregistration.k8s.io/v1beta1",
    "ValidatingAdmissionPolicyBinding",
    "1.34",
    removed(
      "ValidatingAdmissionPolicyBinding",
      "admissionregistration.k8s.io/v1beta1",
      34,
      "admissionregistration.k8s.io/v1",
    ),
    "admissionregistration/v1beta1/zz_generated.prerelease-lifecycle.go: removed 1.34",
  ],
  [
    "admissionregistration.k8s.io/v1beta1",
    "MutatingAdmissionPolicy",
    "1.36",
    undefined,
    "admissionregistration/v1beta1/zz_generated.prerelease-lifecycle.go: introduced 1.34, deprecated 1.37",
  ],
  [
    "resource.k8s.io/v1beta1",
    "ResourceClaim",
    "1.34",
    undefined,
    "resource/v1beta1/zz_generated.prerelease-lifecycle.go",
  ],
  [
    "resource.k8s.io/v1beta1",
    "ResourceClaim",
    "1.35",
    "warning resource.k8s.io/v1beta1 ResourceClaim is deprecated in v1.35+, unavailable in v1.38+",
    "resource/v1beta1/zz_generated.prerelease-lifecycle.go",
  ],
  [
    "resource.k8s.io/v1beta2",
    "DeviceClass",
    "1.35",
    undefined,
    "resource/v1beta2/zz_generated.prerelease-lifecycle.go",
  ],
  [
    "resource.k8s.io/v1beta2",
    "DeviceClass",
    "1.36",
    "warning resource.k8s.io/v1beta2 DeviceClass is deprecated in v1.36+, unavailable in v1.39+",
    "resource/v1beta2/zz_generated.prerelease-lifecycle.go",
  ],
  [
    "networking.k8s.io/v1beta1",
    "ServiceCIDR",
    "1.34",
    "warning networking.k8s.io/v1beta1 ServiceCIDR is deprecated in v1.34+, unavailable in v1.37+",
    "networking/v1beta1 types.go: introduced 1.31, prerelease-lifecycle-gen's default + 3, + 3",
  ],
  [
    "storage.k8s.io/v1beta1",
    "VolumeAttributesClass",
    "1.33",
    undefined,
    "storage/v1beta1 types.go: introduced 1.31, prerelease-lifecycle-gen's default + 3",
  ],
  [
    "flowcontrol.apiserver.k8s.io/v1beta3",
    "FlowSchema",
    "1.32",
    removed("FlowSchema", "flowcontrol.apiserver.k8s.io/v1beta3", 32, "flowcontrol.apiserver.k8s.io/v1"),
    "deprecated-API migration guide, v1.32",
  ],
  [
    "authentication.k8s.io/v1beta1",
    "SelfSubjectReview",
    "1.32",
    "warning authentication.k8s.io/v1beta1 SelfSubjectReview is deprecated in v1.30+, unavailable in v1.33+",
    "authentication/v1beta1 types.go: introduced 1.27, prerelease-lifecycle-gen's default + 3, + 3",
  ],
  [
    "authentication.k8s.io/v1beta1",
    "SelfSubjectReview",
    "1.33",
    removed("SelfSubjectReview", "authentication.k8s.io/v1beta1", 33, "authentication.k8s.io/v1"),
    "the 1.33 OpenAPI document no longer lists it",
  ],
  [
    "coordination.k8s.io/v1beta1",
    "LeaseCandidate",
    "1.36",
    "warning coordination.k8s.io/v1beta1 LeaseCandidate is deprecated in v1.36+, unavailable in v1.39+",
    "coordination/v1beta1/types.go: introduced=1.33 and no other tag, so prerelease-lifecycle-gen's + 3, + 3",
  ],
  [
    "certificates.k8s.io/v1beta1",
    "ClusterTrustBundle",
    "1.35",
    undefined,
    "certificates/v1beta1/types.go: introduced=1.33 and no other tag, deprecated 1.36",
  ],
  ["resource.k8s.io/v1alpha3", "DeviceClass", "1.33", undefined, "an alpha version: no deprecation warning"],
  [
    "resource.k8s.io/v1alpha3",
    "DeviceClass",
    "1.34",
    removed("DeviceClass", "resource.k8s.io/v1alpha3", 34, "resource.k8s.io/v1"),
    "the 1.34 OpenAPI document no longer lists it",
  ],
];

describe("API versions a release deprecated or removed", () => {
  it.each(cases)("%s %s on %s", (apiVersion, kind, release, said) => {
    expect(lifecycleSaid(apiVersion, kind, release)).toEqual(said === undefined ? [] : [said]);
  });

  it("a deprecated version is still validated, the warning first and at apiVersion", () => {
    const endpoints = object("v1", "Endpoints", { subset: [] });
    const found = validateObject(catalog, "v1", "Endpoints", endpoints, { kubernetesVersion: "1.36" });
    expect(found.map((f) => `${f.severity} ${f.rule} ${f.field} ${f.message}`)).toEqual([
      "warning api-removed apiVersion v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
      'error schema subset unknown field "subset"',
    ]);
  });

  it("a CRD serving the same group, version and kind is what the cluster answers with", () => {
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "servicecidrs.networking.k8s.io" },
      spec: {
        group: "networking.k8s.io",
        scope: "Cluster",
        names: { kind: "ServiceCIDR", plural: "servicecidrs" },
        versions: [{ name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
      },
    };
    const doc = { file: "crd.yaml", index: 0, value: crd, locate: () => ({}), render: () => undefined };
    const withCrd = buildCatalog([doc as never], []).catalog;
    const cidr = object("networking.k8s.io/v1beta1", "ServiceCIDR");
    expect(
      validateObject(withCrd, "networking.k8s.io/v1beta1", "ServiceCIDR", cidr, { kubernetesVersion: "1.34" }),
    ).toEqual([]);
  });

  it("a cluster's own documents (--openapi) listing a removed version are the cluster serving it", () => {
    const gvk = { group: "resource.k8s.io", version: "v1alpha3", kind: "DeviceClass" };
    const doc = {
      openapi: "3.0.0",
      components: {
        schemas: {
          "io.k8s.api.resource.v1alpha3.DeviceClass": {
            type: "object",
            properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } },
            "x-kubernetes-group-version-kind": [gvk],
          },
        },
      },
    };
    const read = openApiSchemas([{ path: "apis/resource.k8s.io/v1alpha3.json", text: JSON.stringify(doc) }]);
    expect(read.schemas.has("resource.k8s.io/v1alpha3", "DeviceClass")).toBe(true);
    const found = validateObject(
      catalog,
      "resource.k8s.io/v1alpha3",
      "DeviceClass",
      object("resource.k8s.io/v1alpha3", "DeviceClass"),
      {
        kubernetesVersion: "1.36",
        builtinSchemas: read.schemas,
      },
    );
    expect(found.filter((f) => f.rule === "api-removed")).toEqual([]);
    expect(lifecycleSaid("resource.k8s.io/v1alpha3", "DeviceClass", "1.36")).toHaveLength(1);
  });

  it("never says a release both serves and removed a version; once removed, removed for good", () => {
    const pairs = cases.map(([v, k]) => [v, k] as const);
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.integer({ min: 0, max: 60 }), ([v, k], minor) => {
        const gone = removedApi(v, k, minor);
        if (gone) expect(deprecationWarning(v, k, minor)).toBeUndefined();
        if (gone) expect(removedApi(v, k, minor + 1)).toEqual(gone);
        if (deprecationWarning(v, k, minor) && !removedApi(v, k, minor + 1))
          expect(deprecationWarning(v, k, minor + 1)).toBe(deprecationWarning(v, k, minor));
      }),
    );
  });

  // The embedded tables are each release's own kinds: none of them may be one the table says that release removed.
  it.each(kubernetesReleases.filter((r) => releaseTable(r)))(
    "no kind the %s tables carry is one that release removed",
    (release) => {
      const kinds = Object.keys(releaseTable(release)?.kinds ?? {});
      const removedThere = kinds.filter((key) => {
        const cut = key.lastIndexOf("/");
        return removedApi(key.slice(0, cut), key.slice(cut + 1), minorOf(release));
      });
      expect(removedThere).toEqual([]);
      expect(kinds.length).toBeGreaterThan(50);
    },
  );
});

// Kubernetes' own OpenAPI documents, as each release's API server serves them (../shared/k8s-openapi).
const openapi = join(import.meta.dirname, "../../../shared/k8s-openapi");
const documented = kubernetesReleases.filter((r) => existsSync(join(openapi, r)));

/** apiVersion/kind of every object kind a release's documents list. */
function servedKinds(release: KubernetesRelease): Set<string> {
  const kinds = new Set<string>();
  const dir = join(openapi, release);
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"))) {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8"));
    for (const schema of Object.values(doc.components?.schemas ?? {}) as JsonObject[]) {
      const gvks = (schema["x-kubernetes-group-version-kind"] ?? []) as {
        group: string;
        version: string;
        kind: string;
      }[];
      for (const { group, version, kind } of gvks) kinds.add(`${group ? `${group}/` : ""}${version}/${kind}`);
    }
  }
  return kinds;
}

describe.skipIf(documented.length === 0)("the lifecycle agrees with what each release's API server documents", () => {
  it.each(documented)("%s lists no kind it removed, and every kind it deprecated", (release) => {
    const served = servedKinds(release);
    const removedThere = [...served].filter((key) => {
      const cut = key.lastIndexOf("/");
      return removedApi(key.slice(0, cut), key.slice(cut + 1), minorOf(release));
    });
    expect(removedThere).toEqual([]);
    for (const [apiVersion, kind, at, said] of cases) {
      if (at !== release || said === undefined) continue;
      expect(served.has(`${apiVersion}/${kind}`), `${apiVersion} ${kind} on ${release}`).toBe(
        said.startsWith("warning"),
      );
    }
  });
});

describe("kunion validate --kubernetes-version", () => {
  function kunion(text: string, ...argv: string[]) {
    const dir = mkdtempSync(join(tmpdir(), "kunion-lifecycle-"));
    writeFileSync(join(dir, "o.yaml"), text);
    let stdout = "";
    const code = run([...argv, join(dir, "o.yaml")], { stdout: (t) => (stdout += t), stderr: () => {}, color: false });
    return { code, stdout: stdout.replaceAll(`${dir}/`, "") };
  }
  const policy =
    "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" +
    "  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n" +
    "  validations: [{expression: 'true'}]\n";

  it("warns on the release before the removal, passing, and refuses the object from the removal on", () => {
    const before = kunion(policy, "validate", "--kubernetes-version", "1.33");
    expect(before.code).toBe(0);
    expect(before.stdout.trim()).toBe(
      "o.yaml:1:1: warning api-removed: admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+",
    );
    const after = kunion(policy, "validate", "--kubernetes-version", "1.34");
    expect(after.code).toBe(1);
    expect(after.stdout.trim()).toBe(
      'o.yaml:1:1: error api-removed: apiVersion: No schema known: no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1": removed in Kubernetes 1.34; use admissionregistration.k8s.io/v1',
    );
  });
});
