import { describe, expect, it } from "vitest";
import { persistentVolumeSourceMembers, volumeSourceMembers } from "../builtins/registry.js";
import type { FieldPath } from "../path/index.js";
import type { MemberKind, Union } from "../schema/index.js";
import type { JsonObject } from "../value/index.js";
import { discriminatorOf, isSet } from "./members.js";
import { wordings } from "./wording.js";

type M = string | [field: string, value?: string, kind?: MemberKind];

/** A union as the built-in registry declares it (members' kinds default to object). */
function union(wording: string, members: M[], discriminator?: string, emptyValues: string[] = []): Union {
  const u: Union = {
    members: members.map((m) => {
      const [field, value, kind] = typeof m === "string" ? [m] : m;
      return {
        field,
        value: value ?? field.charAt(0).toUpperCase() + field.slice(1),
        optional: false,
        kind: kind ?? "object",
      };
    }),
    emptyValues,
    exactlyOne: true,
    deduce: false,
    origin: `built-in test`,
    wording,
  };
  if (discriminator) u.discriminator = discriminator;
  return u;
}

/** Runs a union's wording the way union validation does; returns the printed messages. */
function run(u: Union, node: JsonObject, path: FieldPath) {
  const wording = wordings[u.wording as string];
  if (!wording) throw new Error(`no wording ${u.wording}`);
  const findings = wording({
    union: u,
    path,
    node,
    isSet: (m) => isSet(node, m),
    discriminatorValue: discriminatorOf(node, u),
  });
  for (const f of findings) expect(f.rule).toBe("union");
  return findings;
}
const messages = (u: Union, node: JsonObject, path: FieldPath) => run(u, node, path).map((f) => f.message);

const rollingUpdate: M = ["rollingUpdate", "RollingUpdate"];

describe("deploymentStrategy", () => {
  const u = union("deploymentStrategy", [rollingUpdate], "type", ["Recreate"]);
  const path = ["spec", "strategy"];

  it("forbids rollingUpdate under Recreate, in the server's words", () => {
    expect(messages(u, { type: "Recreate", rollingUpdate: { maxSurge: "25%" } }, path)).toEqual([
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]);
    expect(run(u, { type: "Recreate", rollingUpdate: {} }, path)[0]?.type).toBe("FieldValueForbidden");
  });

  it("accepts what the server accepts after defaulting", () => {
    expect(messages(u, { type: "Recreate" }, path)).toEqual([]);
    expect(messages(u, { type: "Recreate", rollingUpdate: null }, path)).toEqual([]);
    expect(messages(u, { type: "RollingUpdate", rollingUpdate: {} }, path)).toEqual([]);
    // rollingUpdate is defaulted under RollingUpdate; the type is defaulted when unset.
    expect(messages(u, { type: "RollingUpdate" }, path)).toEqual([]);
    expect(messages(u, {}, path)).toEqual([]);
    expect(messages(u, { rollingUpdate: { maxSurge: 1 } }, path)).toEqual([]);
    expect(messages(u, { type: "" }, path)).toEqual([]);
  });

  it("reports an unknown type at the strategy", () => {
    const [f, ...rest] = run(u, { type: "BlueGreen" }, path);
    expect(rest).toEqual([]);
    expect(f?.type).toBe("FieldValueNotSupported");
    expect(f?.field).toBe("spec.strategy");
    expect(f?.message).toBe(
      'spec.strategy: Unsupported value: {"type":"BlueGreen"}: supported values: "Recreate", "RollingUpdate"',
    );
  });

  it("leaves a non-string type to schema validation", () => {
    expect(messages(u, { type: 3, rollingUpdate: {} }, path)).toEqual([]);
  });
});

describe("daemonSetUpdateStrategy", () => {
  const u = union("daemonSetUpdateStrategy", [rollingUpdate], "type", ["OnDelete"]);
  const path = ["spec", "updateStrategy"];

  it("warns about rollingUpdate under OnDelete, which the server ignores", () => {
    const findings = run(u, { type: "OnDelete", rollingUpdate: { maxUnavailable: 1 } }, path);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.severity).toBe("warning");
    expect(findings[0]?.message).toBe(
      'spec.updateStrategy.rollingUpdate: Invalid value: {"maxUnavailable":1}: may only be specified when `type` is "RollingUpdate"',
    );
  });

  it("reports an unknown type at the strategy with the strategy as the value", () => {
    expect(messages(u, { type: "Recreate" }, path)).toEqual([
      'spec.updateStrategy: Unsupported value: {"type":"Recreate"}: supported values: "RollingUpdate", "OnDelete"',
    ]);
  });

  it("accepts what defaulting completes", () => {
    expect(messages(u, { type: "RollingUpdate" }, path)).toEqual([]);
    expect(messages(u, { type: "OnDelete" }, path)).toEqual([]);
    expect(messages(u, {}, path)).toEqual([]);
  });
});

describe("statefulSetUpdateStrategy", () => {
  const u = union("statefulSetUpdateStrategy", [rollingUpdate], "type", ["OnDelete"]);
  const path = ["spec", "updateStrategy"];

  it("rejects rollingUpdate under OnDelete", () => {
    const findings = run(u, { type: "OnDelete", rollingUpdate: { partition: 0 } }, path);
    expect(findings.map((f) => [f.type, f.severity, f.message])).toEqual([
      [
        "FieldValueInvalid",
        "error",
        `spec.updateStrategy.rollingUpdate: Invalid value: {"partition":0}: only allowed for updateStrategy 'RollingUpdate'`,
      ],
    ]);
  });

  it("reports an unknown type at updateStrategy", () => {
    expect(messages(u, { type: "Recreate" }, path)).toEqual([
      `spec.updateStrategy: Invalid value: {"type":"Recreate"}: must be 'RollingUpdate' or 'OnDelete'`,
    ]);
  });

  it("accepts RollingUpdate with or without parameters, and an unset type", () => {
    expect(messages(u, { type: "RollingUpdate" }, path)).toEqual([]);
    expect(messages(u, { type: "RollingUpdate", rollingUpdate: { partition: 2 } }, path)).toEqual([]);
    expect(messages(u, { rollingUpdate: { partition: 2 } }, path)).toEqual([]);
  });
});

describe("handler", () => {
  const probe = union("handler", ["exec", "httpGet", "tcpSocket", "grpc"]);
  const hook = union("handler", ["exec", "httpGet", "tcpSocket", "sleep"]);
  const livenessProbe = ["spec", "template", "spec", "containers", 0, "livenessProbe"];

  it("forbids each handler after the first, in validateHandler's order", () => {
    expect(messages(probe, { tcpSocket: { port: 80 }, httpGet: { port: 80 } }, livenessProbe)).toEqual([
      "spec.template.spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
    ]);
    expect(
      messages(probe, { grpc: { port: 1 }, exec: { command: ["true"] }, tcpSocket: {}, httpGet: {} }, ["p"]),
    ).toEqual([
      "p.httpGet: Forbidden: may not specify more than 1 handler type",
      "p.tcpSocket: Forbidden: may not specify more than 1 handler type",
      "p.grpc: Forbidden: may not specify more than 1 handler type",
    ]);
    expect(
      messages(hook, { sleep: { seconds: 1 }, exec: {} }, ["spec", "containers", 0, "lifecycle", "preStop"]),
    ).toEqual(["spec.containers[0].lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type"]);
  });

  it("requires a handler", () => {
    const findings = run(probe, { periodSeconds: 10 }, livenessProbe);
    expect(findings.map((f) => [f.type, f.message])).toEqual([
      [
        "FieldValueRequired",
        "spec.template.spec.containers[0].livenessProbe: Required value: must specify a handler type",
      ],
    ]);
    expect(messages(hook, { exec: null }, ["h"])).toEqual(["h: Required value: must specify a handler type"]);
  });

  it("accepts exactly one handler", () => {
    expect(messages(probe, { httpGet: { path: "/", port: 80 }, periodSeconds: 3 }, livenessProbe)).toEqual([]);
    expect(messages(hook, { sleep: { seconds: 5 } }, ["h"])).toEqual([]);
  });
});

describe("volumeSource", () => {
  const members = [...volumeSourceMembers];
  const u = union("volumeSource", members);
  const vol = ["spec", "volumes", 1];

  it("counts the first volume type in validateVolumeSource's order", () => {
    // emptyDir is walked before hostPath although hostPath comes first in the Go struct.
    expect(messages(u, { name: "a", hostPath: { path: "/x" }, emptyDir: {} }, vol)).toEqual([
      "spec.volumes[1].hostPath: Forbidden: may not specify more than 1 volume type",
    ]);
    expect(messages(u, { name: "a", configMap: { name: "c" }, secret: { secretName: "s" } }, vol)).toEqual([
      "spec.volumes[1].configMap: Forbidden: may not specify more than 1 volume type",
    ]);
  });

  it("prints the server's own field names for cephfs and downwardAPI", () => {
    expect(messages(u, { secret: {}, cephfs: {}, downwardAPI: {}, image: {} }, vol)).toEqual([
      "spec.volumes[1].cephFS: Forbidden: may not specify more than 1 volume type",
      "spec.volumes[1].downwarAPI: Forbidden: may not specify more than 1 volume type",
      "spec.volumes[1].image: Forbidden: may not specify more than 1 volume type",
    ]);
  });

  it("requires a volume type", () => {
    expect(messages(u, { name: "a" }, vol)).toEqual(["spec.volumes[1]: Required value: must specify a volume type"]);
  });

  it("accepts any single volume type", () => {
    for (const m of members) expect(messages(u, { name: "a", [m]: {} }, vol)).toEqual([]);
  });
});

describe("persistentVolumeSource", () => {
  const u = union("persistentVolumeSource", [...persistentVolumeSourceMembers]);

  it("uses ValidatePersistentVolumeSpec's order", () => {
    expect(messages(u, { gcePersistentDisk: {}, hostPath: {}, cephfs: {}, csi: {} }, ["spec"])).toEqual([
      "spec.gcePersistentDisk: Forbidden: may not specify more than 1 volume type",
      "spec.cephFS: Forbidden: may not specify more than 1 volume type",
      "spec.csi: Forbidden: may not specify more than 1 volume type",
    ]);
  });

  it("never reports flexVolume itself, but counts it", () => {
    expect(messages(u, { nfs: {}, flexVolume: {} }, ["spec"])).toEqual([]);
    expect(messages(u, { flexVolume: {}, local: {} }, ["spec"])).toEqual([
      "spec.local: Forbidden: may not specify more than 1 volume type",
    ]);
  });

  it("requires a volume type", () => {
    expect(messages(u, { capacity: { storage: "1Gi" } }, ["spec"])).toEqual([
      "spec: Required value: must specify a volume type",
    ]);
  });
});

describe("envVar and envVarSource", () => {
  const envVar = union("envVar", [["value", "Value", "zero"], "valueFrom"]);
  const envVarSource = union("envVarSource", [
    "fieldRef",
    "resourceFieldRef",
    "configMapKeyRef",
    "secretKeyRef",
    "fileKeyRef",
  ]);
  const env = ["spec", "template", "spec", "containers", 0, "env", 36];
  const both = (node: JsonObject) => {
    const from = node.valueFrom;
    const nested =
      from && typeof from === "object" && !Array.isArray(from)
        ? messages(envVarSource, from, [...env, "valueFrom"])
        : [];
    return [...messages(envVar, node, env), ...nested];
  };

  it("says a valueFrom may hold one source", () => {
    expect(
      both({
        name: "A",
        valueFrom: { secretKeyRef: { name: "s", key: "k" }, configMapKeyRef: { name: "c", key: "k" } },
      }),
    ).toEqual([
      'spec.template.spec.containers[0].env[36].valueFrom: Invalid value: "": may not have more than one field specified at a time',
    ]);
  });

  it("says valueFrom may not go with a value", () => {
    expect(both({ name: "A", value: "x", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } })).toEqual([
      'spec.template.spec.containers[0].env[36].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ]);
    // With several sources too, the value is what the server names.
    expect(both({ name: "A", value: "x", valueFrom: { fieldRef: {}, secretKeyRef: {} } })).toEqual([
      'spec.template.spec.containers[0].env[36].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ]);
  });

  it("says an empty valueFrom must name a source, whatever the value", () => {
    const expected = [
      'spec.template.spec.containers[0].env[36].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ];
    expect(both({ name: "A", valueFrom: {} })).toEqual(expected);
    expect(both({ name: "A", value: "x", valueFrom: { fieldRef: null } })).toEqual(expected);
  });

  it("accepts a value, a single source, and an empty value beside a source", () => {
    expect(both({ name: "A", value: "x" })).toEqual([]);
    expect(both({ name: "A" })).toEqual([]);
    expect(both({ name: "A", valueFrom: { fileKeyRef: { path: "p", key: "k", volumeName: "v" } } })).toEqual([]);
    expect(both({ name: "A", value: "", valueFrom: { secretKeyRef: {} } })).toEqual([]);
    expect(both({ name: "A", value: "x", valueFrom: null })).toEqual([]);
  });
});

describe("envFromSource", () => {
  const u = union("envFromSource", ["configMapRef", "secretRef"]);
  const item = ["spec", "containers", 0, "envFrom", 2];

  it("reports at the envFrom list, as ValidateEnvFrom does", () => {
    expect(messages(u, { configMapRef: { name: "c" }, secretRef: { name: "s" } }, item)).toEqual([
      'spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time',
    ]);
    expect(messages(u, { prefix: "X_" }, item)).toEqual([
      'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
    ]);
    expect(messages(u, { secretRef: { name: "s" } }, item)).toEqual([]);
  });
});

describe("ingressBackend", () => {
  const u = union("ingressBackend", ["service", "resource"]);
  const at = ["spec", "rules", 0, "http", "paths", 1, "backend"];

  it("refuses both members, or none, as validateIngressBackend does", () => {
    // kubernetes pkg/apis/networking/validation/validation.go validateIngressBackend: the switch's first case
    // (hasResourceBackend && hasServiceBackend) and its default case.
    const both = { service: { name: "web", port: { number: 80 } }, resource: { kind: "Bucket", name: "b" } };
    expect(messages(u, both, at)).toEqual([
      'spec.rules[0].http.paths[1].backend: Invalid value: "": cannot set both resource and service backends',
    ]);
    expect(messages(u, {}, at)).toEqual([
      'spec.rules[0].http.paths[1].backend: Invalid value: "": resource or service backend is required',
    ]);
    expect(messages(u, { resource: { kind: "Bucket", name: "b" } }, at)).toEqual([]);
  });
});

describe("seccompProfile", () => {
  const u = union("seccompProfile", [["localhostProfile", "Localhost", "scalar"]], "type", [
    "RuntimeDefault",
    "Unconfined",
  ]);
  const path = ["spec", "securityContext", "seccompProfile"];

  it("requires localhostProfile under Localhost", () => {
    expect(messages(u, { type: "Localhost" }, path)).toEqual([
      "spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost",
    ]);
    expect(messages(u, { type: "Localhost", localhostProfile: "profiles/a.json" }, path)).toEqual([]);
  });

  it("rejects localhostProfile under other types, with the profile as the value", () => {
    expect(messages(u, { type: "RuntimeDefault", localhostProfile: "a.json" }, path)).toEqual([
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"type":"RuntimeDefault","localhostProfile":"a.json"}: can only be set when seccomp type is Localhost',
    ]);
  });

  it("validates the type first", () => {
    expect(messages(u, { localhostProfile: "a.json" }, path)).toEqual([
      "spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set",
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"localhostProfile":"a.json"}: can only be set when seccomp type is Localhost',
    ]);
    expect(messages(u, { type: "LocalhostProfile" }, path)).toEqual([
      'spec.securityContext.seccompProfile.type: Unsupported value: "LocalhostProfile": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ]);
    expect(messages(u, { type: "Unconfined" }, path)).toEqual([]);
  });
});

describe("appArmorProfile", () => {
  const u = union("appArmorProfile", [["localhostProfile", "Localhost", "scalar"]], "type", [
    "RuntimeDefault",
    "Unconfined",
  ]);
  const path = ["spec", "containers", 0, "securityContext", "appArmorProfile"];

  it("requires a non-empty localhostProfile under Localhost", () => {
    const expected = [
      "spec.containers[0].securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost",
    ];
    expect(messages(u, { type: "Localhost" }, path)).toEqual(expected);
    expect(messages(u, { type: "Localhost", localhostProfile: "" }, path)).toEqual(expected);
    expect(messages(u, { type: "Localhost", localhostProfile: "k8s-apparmor" }, path)).toEqual([]);
  });

  it("rejects localhostProfile under RuntimeDefault and Unconfined, with the name as the value", () => {
    expect(messages(u, { type: "Unconfined", localhostProfile: "p" }, path)).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
    ]);
  });

  it("checks the type alone when it is unset or unknown", () => {
    expect(messages(u, { localhostProfile: "p" }, path)).toEqual([
      "spec.containers[0].securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set",
    ]);
    expect(messages(u, { type: "Enforce", localhostProfile: "p" }, path)).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.type: Unsupported value: "Enforce": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ]);
  });
});

describe("wordings", () => {
  it("implements exactly the keys the built-in registry uses", () => {
    expect(Object.keys(wordings).sort()).toEqual([
      "appArmorProfile",
      "daemonSetUpdateStrategy",
      "deploymentStrategy",
      "deviceRequest",
      "envFromSource",
      "envVar",
      "envVarSource",
      "flowSchemaSubject",
      "handler",
      "ingressBackend",
      "limitResponse",
      "metricSource",
      "metricStatus",
      "mutation",
      "persistentVolumeSource",
      "priorityLevelConfigurationSpec",
      "seccompProfile",
      "statefulSetUpdateStrategy",
      "volumeSource",
    ]);
    expect(wordings.toString).toBeUndefined();
    expect(Object.isFrozen(wordings)).toBe(true);
  });
});
