/**
 * Required fields of the non-core groups that the API server accepts absent (required-groups.ts): the whole
 * pass says nothing of them on the releases whose OpenAPI marks them required, while a field the server does
 * enforce still is said.
 */
import { describe, expect, it } from "vitest";
import "./all-releases.js";
import { buildCatalog, validateObject } from "../check/index.js";
import type { JsonObject } from "../value/index.js";
import type { KubernetesRelease } from "./releases.js";

const { catalog } = buildCatalog([], []);
const messages = (apiVersion: string, kind: string, object: JsonObject, release: KubernetesRelease) =>
  validateObject(catalog, apiVersion, kind, object, { kubernetesVersion: release }).map((f) => f.message);

const container = { name: "c", image: "nginx" };
const meta = { name: "x", namespace: "default" };

describe("whole pass: a released field absent is not refused", () => {
  it("a StatefulSet without serviceName (ValidateStatefulSetSpec never reads it; required in 1.32's OpenAPI)", () => {
    const sts = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: meta,
      spec: {
        selector: { matchLabels: { app: "x" } },
        template: { metadata: { labels: { app: "x" } }, spec: { containers: [container] } },
      },
    };
    expect(messages("apps/v1", "StatefulSet", sts, "1.32")).toEqual([]);
  });

  it.each(["1.32", "1.33"] as const)("a NetworkPolicy with an empty spec on %s (ValidateNetworkPolicySpec)", (r) => {
    const np = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: meta, spec: {} };
    expect(messages("networking.k8s.io/v1", "NetworkPolicy", np, r)).toEqual([]);
  });

  it.each(["1.32", "1.33", "1.34"] as const)("an EndpointSlice without endpoints on %s (validateEndpoints)", (r) => {
    const slice = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", metadata: meta, addressType: "IPv4" };
    expect(messages("discovery.k8s.io/v1", "EndpointSlice", slice, r)).toEqual([]);
  });

  it.each(["1.32", "1.33", "1.34"] as const)(
    "a RoleBinding without roleRef.apiGroup on %s (SetDefaults_RoleBinding)",
    (r) => {
      const rb = {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: meta,
        roleRef: { kind: "Role", name: "reader" },
        subjects: [{ kind: "ServiceAccount", name: "default", namespace: "default" }],
      };
      expect(messages("rbac.authorization.k8s.io/v1", "RoleBinding", rb, r)).toEqual([]);
    },
  );

  it.each(["1.32", "1.33", "1.34"] as const)("a PriorityClass without value on %s (ValidatePriorityClass)", (r) => {
    const pc = { apiVersion: "scheduling.k8s.io/v1", kind: "PriorityClass", metadata: { name: "low" } };
    expect(messages("scheduling.k8s.io/v1", "PriorityClass", pc, r)).toEqual([]);
  });

  it.each(["1.32", "1.34", "1.36"] as const)(
    "a Job's pod condition pattern without status on %s (SetDefaults_Job: True), a CronJob's refused in its words",
    (r) => {
      const template = { spec: { restartPolicy: "Never", containers: [container] } };
      const policy = { rules: [{ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget" }] }] };
      const job = { apiVersion: "batch/v1", kind: "Job", metadata: meta, spec: { podFailurePolicy: policy, template } };
      expect(messages("batch/v1", "Job", job, r)).toEqual([]);
      const cronJob = (jobSpec: JsonObject) => ({
        apiVersion: "batch/v1",
        kind: "CronJob",
        metadata: meta,
        spec: { schedule: "@daily", jobTemplate: { spec: jobSpec } },
      });
      expect(messages("batch/v1", "CronJob", cronJob({ podFailurePolicy: policy, template }), r)).toEqual([
        'spec.jobTemplate.spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]',
      ]);
      // nor are a CronJob's completions defaulted: an Indexed job template needs them (validateJobSpec)
      const indexed = { completionMode: "Indexed", template };
      expect(messages("batch/v1", "CronJob", cronJob(indexed), r)).toEqual([
        "spec.jobTemplate.spec.completions: Required value: when completion mode is Indexed",
      ]);
      expect(messages("batch/v1", "Job", { ...job, spec: indexed }, r)).toEqual([]);
    },
  );

  it("a CSIDriver and a CSINode without spec (SetDefaults_CSIDriver, validateCSINodeSpec)", () => {
    const driver = { apiVersion: "storage.k8s.io/v1", kind: "CSIDriver", metadata: { name: "csi.example.com" } };
    const node = { apiVersion: "storage.k8s.io/v1", kind: "CSINode", metadata: { name: "node-1" } };
    expect(messages("storage.k8s.io/v1", "CSIDriver", driver, "1.36")).toEqual([]);
    expect(messages("storage.k8s.io/v1", "CSINode", node, "1.36")).toEqual([]);
  });

  it("a CSIDriver token request without audience (validateTokenRequests)", () => {
    const driver = {
      apiVersion: "storage.k8s.io/v1",
      kind: "CSIDriver",
      metadata: { name: "csi.example.com" },
      spec: { tokenRequests: [{ expirationSeconds: 3600 }] },
    };
    expect(messages("storage.k8s.io/v1", "CSIDriver", driver, "1.36")).toEqual([]);
  });

  it("a ResourceClaimTemplate and a DeviceClass without spec (validateDeviceClaim, validateDeviceClassSpec)", () => {
    const template = { apiVersion: "resource.k8s.io/v1", kind: "ResourceClaimTemplate", metadata: meta };
    const withEmpty = { ...template, spec: {} };
    const cls = { apiVersion: "resource.k8s.io/v1", kind: "DeviceClass", metadata: { name: "gpu" } };
    expect(messages("resource.k8s.io/v1", "ResourceClaimTemplate", template, "1.34")).toEqual([]);
    expect(messages("resource.k8s.io/v1", "ResourceClaimTemplate", withEmpty, "1.34")).toEqual([]);
    expect(messages("resource.k8s.io/v1", "DeviceClass", cls, "1.34")).toEqual([]);
  });

  it("a CRD's second version without served (validateCustomResourceDefinitionSpec)", () => {
    const schema = { openAPIV3Schema: { type: "object" } };
    const crd: JsonObject = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "widgets.example.com" },
      spec: {
        group: "example.com",
        names: { plural: "widgets", kind: "Widget" },
        scope: "Namespaced",
        versions: [
          { name: "v1", served: true, storage: true, schema },
          { name: "v1beta1", storage: false, schema },
        ],
      },
    };
    expect(messages("apiextensions.k8s.io/v1", "CustomResourceDefinition", crd, "1.36")).toEqual([]);
  });
});

describe("whole pass: an enforced neighbour is still said", () => {
  it("a StatefulSet without selector (ValidateStatefulSetSpec: Required)", () => {
    const sts = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: meta,
      spec: { template: { metadata: { labels: { app: "x" } }, spec: { containers: [container] } } },
    };
    expect(messages("apps/v1", "StatefulSet", sts, "1.32")).toContain("spec.selector: Required value");
  });

  it("a RoleBinding without roleRef.name (ValidateRoleBinding: Required)", () => {
    const rb = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: meta,
      roleRef: { kind: "Role" },
    };
    expect(messages("rbac.authorization.k8s.io/v1", "RoleBinding", rb, "1.32")).toContain(
      "roleRef.name: Required value",
    );
  });
});
