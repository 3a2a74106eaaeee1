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
      'spec.replicas: Invalid value: "three": spec.replicas in body must be of type integer: "string"',
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

  it("keeps hostile keys as data", () => {
    const object = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"__proto__":"x"}}',
    );
    expect(validateBuiltin("v1", "ConfigMap", object)).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
