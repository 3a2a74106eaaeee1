import { describe, expect, it } from "vitest";
import { hasBuiltinSchema, validateBuiltin } from "./schemas.js";

const deployment = (spec: Record<string, unknown>) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } },
    ...spec,
  },
});

describe("built-in kind schemas", () => {
  it("accepts a valid Deployment", () => {
    expect(validateBuiltin("apps/v1", "Deployment", deployment({ replicas: 2 }))).toEqual([]);
  });

  it("reports a wrong type as the API server words it for typed fields", () => {
    const found = validateBuiltin("apps/v1", "Deployment", deployment({ replicas: "three" }));
    expect(found?.map((f) => f.message)).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });

  it("reports a missing required field and a value outside an enum, with list indexes in the path", () => {
    const spec = {
      template: {
        spec: {
          containers: [
            { name: "a", image: "x" },
            { image: "y", imagePullPolicy: "Sometimes" },
          ],
        },
      },
    };
    const messages = validateBuiltin("apps/v1", "Deployment", deployment(spec))?.map((f) => f.message);
    expect(messages).toContain("spec.template.spec.containers[1].name: Required value");
    expect(messages).toContain(
      'spec.template.spec.containers[1].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    );
  });

  it("knows the common kinds and nothing it has no schema for", () => {
    for (const [v, k] of [
      ["v1", "Service"],
      ["v1", "ConfigMap"],
      ["batch/v1", "CronJob"],
      ["networking.k8s.io/v1", "Ingress"],
      ["rbac.authorization.k8s.io/v1", "ClusterRoleBinding"],
    ]) {
      expect(hasBuiltinSchema(v as string, k as string), `${v} ${k}`).toBe(true);
    }
    expect(validateBuiltin("example.com/v1", "Widget", {})).toBeUndefined();
    expect(hasBuiltinSchema("v1", "__proto__")).toBe(false);
  });

  it("checks the formats the validators use with kunion's own format module (quantity, int32, date-time)", () => {
    const pod = (cpu: string, port: number, time: string) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", creationTimestamp: time },
      spec: { containers: [{ name: "c", resources: { limits: { cpu } }, ports: [{ containerPort: port }] }] },
    });
    expect(validateBuiltin("v1", "Pod", pod("500m", 80, "2026-11-21T10:00:00Z"))).toEqual([]);
    expect(validateBuiltin("v1", "Pod", pod("1.5Gi", 65535, "2026-11-21T10:00:00+01:00"))).toEqual([]);
    const messages = validateBuiltin("v1", "Pod", pod("lots", 2 ** 31, "yesterday"))?.map((f) => f.message);
    expect(messages).toEqual([
      'metadata.creationTimestamp: Invalid value: "yesterday": metadata.creationTimestamp in body must be of type date-time: "yesterday"',
      "spec.containers[0].ports[0].containerPort: Invalid value: 2147483648: spec.containers[0].ports[0].containerPort in body must be of type int32: 2147483648",
      'spec.containers[0].resources.limits.cpu: Invalid value: "lots": spec.containers[0].resources.limits.cpu in body must be of type quantity: "lots"',
    ]);
  });

  it("keeps hostile keys as data", () => {
    const object = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"__proto__":"x"}}',
    );
    expect(validateBuiltin("v1", "ConfigMap", object)).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
