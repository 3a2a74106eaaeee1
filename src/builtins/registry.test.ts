import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../cli/main.js";
import type { SchemaNode, Union, UnionMember } from "../schema/index.js";
import { validateUnions } from "../unions/index.js";
import { wordings } from "../unions/wording.js";
import type { JsonObject, JsonValue } from "../value/index.js";
import { builtinKinds, builtinSchemaFor, type Definition, releaseTable } from "./index.js";

/** Follows property names; `[]` steps into list items. */
function at(root: SchemaNode | undefined, path: string): SchemaNode {
  let node = root;
  for (const step of path.split(".")) {
    if (!node) break;
    node =
      step === "[]"
        ? node.items
        : node.properties && Object.hasOwn(node.properties, step)
          ? node.properties[step]
          : undefined;
  }
  if (!node) throw new Error(`no schema at ${path}`);
  return node;
}

/** A definition of the default release's OpenAPI table: upstream's field list, independent of the registry. */
function tableDefinition(name: string): Definition {
  const def = releaseTable("1.36")?.defs[name];
  if (!def) throw new Error(`no definition ${name} in the 1.36 table`);
  return def;
}
const tableFields = (name: string): string[] => Object.keys(tableDefinition(name).p);

function only(node: SchemaNode): Union {
  expect(node.unions).toHaveLength(1);
  return node.unions?.[0] as Union;
}

function allNodes(): SchemaNode[] {
  const seen = new Set<SchemaNode>();
  const stack: SchemaNode[] = builtinKinds().map((k) => builtinSchemaFor(k.apiVersion, k.kind) as SchemaNode);
  while (stack.length > 0) {
    const n = stack.pop() as SchemaNode;
    if (seen.has(n)) continue;
    seen.add(n);
    if (n.items) stack.push(n.items);
    if (n.additionalProperties) stack.push(n.additionalProperties);
    for (const p of Object.values(n.properties ?? {})) stack.push(p);
  }
  return [...seen];
}

const allUnions = () => allNodes().flatMap((n) => (n.unions ?? []).map((u) => ({ node: n, union: u })));

describe("builtinSchemaFor", () => {
  it("reaches the EnvVar union through a Deployment's pod template", () => {
    const envItems = at(builtinSchemaFor("apps/v1", "Deployment"), "spec.template.spec.containers.[].env.[]");
    expect(only(envItems)).toEqual({
      members: [
        { field: "value", value: "Value", optional: false, kind: "zero" },
        { field: "valueFrom", value: "ValueFrom", optional: false, kind: "object" },
      ],
      emptyValues: [],
      exactlyOne: false,
      deduce: false,
      origin: "built-in EnvVar",
      wording: "envVar",
    });
  });

  it("keeps Kubernetes' list map keys", () => {
    const spec = at(builtinSchemaFor("v1", "Pod"), "spec");
    for (const list of ["containers", "initContainers", "ephemeralContainers", "volumes"]) {
      expect(at(spec, list).listMapKeys).toEqual(["name"]);
    }
    expect(at(spec, "containers.[].env").listMapKeys).toEqual(["name"]);
    expect(at(spec, "containers.[].envFrom").listMapKeys).toBeUndefined();
  });

  it("shares one PodSpec between the kinds that embed it", () => {
    const podSpec = at(builtinSchemaFor("v1", "Pod"), "spec");
    const paths: [string, string, string][] = [
      ["v1", "PodTemplate", "template.spec"],
      ["apps/v1", "Deployment", "spec.template.spec"],
      ["apps/v1", "StatefulSet", "spec.template.spec"],
      ["apps/v1", "DaemonSet", "spec.template.spec"],
      ["apps/v1", "ReplicaSet", "spec.template.spec"],
      ["batch/v1", "Job", "spec.template.spec"],
      ["batch/v1", "CronJob", "spec.jobTemplate.spec.template.spec"],
    ];
    for (const [apiVersion, kind, path] of paths) expect(at(builtinSchemaFor(apiVersion, kind), path)).toBe(podSpec);
  });

  it("finds the unions of containers, probes, lifecycle and security contexts", () => {
    const spec = at(builtinSchemaFor("apps/v1", "StatefulSet"), "spec.template.spec");
    for (const list of ["containers", "initContainers", "ephemeralContainers"]) {
      const c = at(spec, `${list}.[]`);
      expect(only(at(c, "envFrom.[]")).origin).toBe("built-in EnvFromSource");
      expect(only(at(c, "env.[].valueFrom")).origin).toBe("built-in EnvVarSource");
      for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"]) {
        const u = only(at(c, probe));
        expect(u.origin).toBe("built-in ProbeHandler");
        expect(u.members.map((m) => m.field)).toEqual(["exec", "httpGet", "tcpSocket", "grpc"]);
        expect(u.exactlyOne).toBe(true);
        expect(u.wording).toBe("handler");
      }
      for (const hook of ["postStart", "preStop"]) {
        expect(only(at(c, `lifecycle.${hook}`)).members.map((m) => m.field)).toEqual([
          "exec",
          "httpGet",
          "tcpSocket",
          "sleep",
        ]);
      }
      expect(only(at(c, "securityContext.seccompProfile")).origin).toBe("built-in SeccompProfile");
      expect(only(at(c, "securityContext.appArmorProfile")).origin).toBe("built-in AppArmorProfile");
    }
    expect(only(at(spec, "securityContext.seccompProfile")).wording).toBe("seccompProfile");
    expect(only(at(spec, "securityContext.appArmorProfile")).wording).toBe("appArmorProfile");
    // VolumeProjection is the union alone: every field of its OpenAPI definition is a member, in Go order.
    const projection = only(at(spec, "volumes.[].projected.sources.[]")).members.map((m) => m.field);
    expect([...projection].sort()).toEqual(tableFields("V1VolumeProjection").sort());
    expect([projection[0], projection.at(-1)]).toEqual(["secret", "podCertificate"]);
  });

  it("uses Localhost for SeccompProfile and AppArmorProfile", () => {
    const sc = at(builtinSchemaFor("v1", "Pod"), "spec.securityContext");
    for (const name of ["seccompProfile", "appArmorProfile"]) {
      const u = only(at(sc, name));
      expect(u.discriminator).toBe("type");
      expect(u.members).toEqual([{ field: "localhostProfile", value: "Localhost", optional: false, kind: "scalar" }]);
      expect(u.emptyValues).toEqual(["RuntimeDefault", "Unconfined"]);
      expect(u.exactlyOne).toBe(true);
    }
  });

  it("has VolumeSource with its 30 members in Go struct order", () => {
    const u = only(at(builtinSchemaFor("v1", "Pod"), "spec.volumes.[]"));
    expect(u.members).toHaveLength(30);
    // Volume is its name and the inline VolumeSource.
    const sources = tableFields("V1Volume").filter((f) => f !== "name");
    expect(u.members.map((m) => m.field).sort()).toEqual(sources.sort());
    expect(u.members[0]).toEqual({ field: "hostPath", value: "HostPath", optional: false, kind: "object" });
    expect(u.members.at(-1)?.field).toBe("image");
    expect(u.exactlyOne).toBe(true);
    expect(u.wording).toBe("volumeSource");
    expect(u.origin).toBe("built-in VolumeSource");
  });

  it("puts PersistentVolumeSource inline in a PersistentVolume's spec", () => {
    const u = only(at(builtinSchemaFor("v1", "PersistentVolume"), "spec"));
    // The spec's other fields (capacity, claimRef, …) are not volume sources: their types are not `…Source`.
    const sources = Object.entries(tableDefinition("V1PersistentVolumeSpec").p).flatMap(([field, type]) =>
      type.endsWith("Source") ? [field] : [],
    );
    expect(u.members.map((m) => m.field).sort()).toEqual(sources.sort());
    expect(u.members).toHaveLength(22);
    expect(u.exactlyOne).toBe(true);
    expect(u.wording).toBe("persistentVolumeSource");
  });

  it("declares the apps strategies with server-defaulted discriminators", () => {
    const cases: [string, string, string, string][] = [
      ["Deployment", "spec.strategy", "Recreate", "deploymentStrategy"],
      ["DaemonSet", "spec.updateStrategy", "OnDelete", "daemonSetUpdateStrategy"],
      ["StatefulSet", "spec.updateStrategy", "OnDelete", "statefulSetUpdateStrategy"],
    ];
    for (const [kind, path, empty, wording] of cases) {
      const u = only(at(builtinSchemaFor("apps/v1", kind), path));
      expect(u.discriminator).toBe("type");
      expect(u.members).toEqual([{ field: "rollingUpdate", value: "RollingUpdate", optional: true, kind: "object" }]);
      expect(u.emptyValues).toEqual([empty]);
      expect(u.exactlyOne).toBe(false);
      expect(u.wording).toBe(wording);
    }
  });

  it("finds the batch unions in Jobs and CronJobs", () => {
    for (const [kind, path] of [
      ["Job", "spec.podFailurePolicy.rules.[]"],
      ["CronJob", "spec.jobTemplate.spec.podFailurePolicy.rules.[]"],
    ] as const) {
      const u = only(at(builtinSchemaFor("batch/v1", kind), path));
      expect(u.members).toEqual([
        { field: "onExitCodes", value: "OnExitCodes", optional: false, kind: "object" },
        { field: "onPodConditions", value: "OnPodConditions", optional: false, kind: "list" },
      ]);
      expect(u.exactlyOne).toBe(true);
    }
  });

  it("declares the autoscaling/v2 metric unions", () => {
    const hpa = builtinSchemaFor("autoscaling/v2", "HorizontalPodAutoscaler");
    for (const [path, origin] of [
      ["spec.metrics.[]", "built-in MetricSpec"],
      ["status.currentMetrics.[]", "built-in MetricStatus"],
    ] as const) {
      const u = only(at(hpa, path));
      expect(u.origin).toBe(origin);
      expect(u.discriminator).toBe("type");
      expect(u.members.map((m) => [m.field, m.value])).toEqual([
        ["object", "Object"],
        ["pods", "Pods"],
        ["resource", "Resource"],
        ["containerResource", "ContainerResource"],
        ["external", "External"],
      ]);
      expect(u.exactlyOne).toBe(true);
    }
  });

  it("declares Ingress backends at both places", () => {
    const ingress = builtinSchemaFor("networking.k8s.io/v1", "Ingress");
    const a = at(ingress, "spec.defaultBackend");
    expect(at(ingress, "spec.rules.[].http.paths.[].backend")).toBe(a);
    expect(only(a).members.map((m) => m.field)).toEqual(["service", "resource"]);
  });

  it("declares the flowcontrol unions, LimitResponse with Queue", () => {
    const subject = only(
      at(builtinSchemaFor("flowcontrol.apiserver.k8s.io/v1", "FlowSchema"), "spec.rules.[].subjects.[]"),
    );
    expect(subject.discriminator).toBe("kind");
    expect(subject.members.map((m) => [m.field, m.value])).toEqual([
      ["user", "User"],
      ["group", "Group"],
      ["serviceAccount", "ServiceAccount"],
    ]);
    const plc = builtinSchemaFor("flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration");
    const spec = only(at(plc, "spec"));
    expect(spec.members.map((m) => [m.field, m.value])).toEqual([
      ["limited", "Limited"],
      ["exempt", "Exempt"],
    ]);
    const limit = only(at(plc, "spec.limited.limitResponse"));
    expect(limit.members).toEqual([{ field: "queuing", value: "Queue", optional: false, kind: "object" }]);
    expect(limit.emptyValues).toEqual(["Reject"]);
    expect(limit.exactlyOne).toBe(true);
  });

  it("declares Mutation for both served admissionregistration versions", () => {
    for (const v of ["v1alpha1", "v1beta1"]) {
      const u = only(
        at(builtinSchemaFor(`admissionregistration.k8s.io/${v}`, "MutatingAdmissionPolicy"), "spec.mutations.[]"),
      );
      expect(u.discriminator).toBe("patchType");
      expect(u.members.map((m) => [m.field, m.value])).toEqual([
        ["applyConfiguration", "ApplyConfiguration"],
        ["jsonPatch", "JSONPatch"],
      ]);
    }
  });

  it("declares DeviceRequest in ResourceClaims and their templates", () => {
    const a = at(builtinSchemaFor("resource.k8s.io/v1", "ResourceClaim"), "spec.devices.requests.[]");
    const b = at(builtinSchemaFor("resource.k8s.io/v1", "ResourceClaimTemplate"), "spec.spec.devices.requests.[]");
    expect(b).toBe(a);
    expect(only(a).members.map((m) => [m.field, m.kind])).toEqual([
      ["exactly", "object"],
      ["firstAvailable", "list"],
    ]);
  });

  it("knows nothing of unknown kinds and unserved versions", () => {
    expect(builtinSchemaFor("apps/v1beta1", "Deployment")).toBeUndefined();
    expect(builtinSchemaFor("v1", "Deployment")).toBeUndefined();
    expect(builtinSchemaFor("example.com/v1", "Widget")).toBeUndefined();
    expect(builtinSchemaFor("v1", "toString")).toBeUndefined();
  });
});

describe("builtinKinds", () => {
  it("lists every kind once per version, each resolvable", () => {
    const kinds = builtinKinds();
    const keys = kinds.map((k) => `${k.apiVersion} ${k.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of kinds) expect(builtinSchemaFor(k.apiVersion, k.kind)).toBeDefined();
    expect(keys).toEqual(
      expect.arrayContaining([
        "v1 Pod",
        "v1 PodTemplate",
        "v1 PersistentVolume",
        "apps/v1 Deployment",
        "apps/v1 StatefulSet",
        "apps/v1 DaemonSet",
        "apps/v1 ReplicaSet",
        "batch/v1 Job",
        "batch/v1 CronJob",
        "autoscaling/v2 HorizontalPodAutoscaler",
        "networking.k8s.io/v1 Ingress",
        "flowcontrol.apiserver.k8s.io/v1 FlowSchema",
        "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration",
        "admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicy",
        "admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy",
        "resource.k8s.io/v1 ResourceClaim",
        "resource.k8s.io/v1 ResourceClaimTemplate",
      ]),
    );
  });

  it("returns copies", () => {
    const first = builtinKinds();
    const kind = first[0]?.kind;
    (first[0] as { kind: string }).kind = "Changed";
    expect(builtinKinds()[0]?.kind).toBe(kind);
  });
});

describe("the registry's shape", () => {
  it("gives every node a type and freezes it", () => {
    for (const n of allNodes()) {
      expect(n.type).toBeDefined();
      expect(Object.isFrozen(n)).toBe(true);
      if (n.properties) expect(Object.getPrototypeOf(n.properties)).toBeNull();
    }
  });

  it("declares well-formed unions", () => {
    for (const { node, union } of allUnions()) {
      const props = node.properties ?? {};
      expect(union.origin).toMatch(/^built-in [A-Z]\w+$/);
      expect(union.deduce).toBe(false);
      const fields = union.members.map((m) => m.field);
      const values = [...union.members.map((m) => m.value), ...union.emptyValues];
      expect(new Set(fields).size).toBe(fields.length);
      expect(new Set(values).size).toBe(values.length);
      for (const f of fields) expect(Object.hasOwn(props, f)).toBe(true);
      if (union.discriminator !== undefined) {
        expect(props[union.discriminator]?.type).toBe("string");
        expect(fields).not.toContain(union.discriminator);
      } else {
        for (const m of union.members) expect(m.value).toBe(m.field.charAt(0).toUpperCase() + m.field.slice(1));
      }
    }
    // No field belongs to two unions of the same struct.
    for (const n of allNodes()) {
      const fields = (n.unions ?? []).flatMap((u) => u.members.map((m) => m.field));
      expect(new Set(fields).size).toBe(fields.length);
    }
  });

  it("uses only the wording keys that unions/wording.ts implements", () => {
    const keys = new Set(allUnions().flatMap(({ union }) => (union.wording ? [union.wording] : [])));
    // Every implemented wording is used, and no union names one that is not implemented.
    expect([...keys].sort()).toEqual(Object.keys(wordings).sort());
  });
});

describe("ratcheting of built-in unions on update", () => {
  const valueFor = (m: UnionMember, v: string): JsonValue =>
    m.kind === "list" ? [v] : m.kind === "map" ? { k: v } : m.kind === "zero" ? v : { x: v };

  it("every union of the registry: an invalid union whose members changed is reported as on create", () => {
    // Ratcheting may spare what an update did not touch; a member whose content changed was touched,
    // even when the same members are set (apimachinery compares the values, not their set-ness).
    let checked = 0;
    for (const { node, union } of allUnions()) {
      const [first, second] = union.members;
      // EnvVarSource's errors are its parent EnvVar's (wording.ts): the next test covers them. An HPA's
      // status metrics are never validated (ValidateHorizontalPodAutoscalerStatusUpdate checks none). A mutation's
      // are its policy's hand-written rules' (builtins/validation/mutating-policy.ts), a metric's its autoscaler's
      // (autoscaling.ts).
      const elsewhere = ["envVarSource", "metricStatus", "mutation", "metricSource"];
      if (!first || !second || elsewhere.includes(union.wording ?? "")) continue;
      const old: JsonObject = { [first.field]: valueFor(first, "a"), [second.field]: valueFor(second, "a") };
      if (union.discriminator !== undefined) old[union.discriminator] = first.value;
      const updated: JsonObject = { ...old, [first.field]: valueFor(first, "b") };
      const onCreate = validateUnions({ object: updated, schema: node });
      expect(onCreate.length, union.origin).toBeGreaterThan(0);
      expect(validateUnions({ object: updated, oldObject: old, schema: node }), union.origin).toEqual(onCreate);
      expect(validateUnions({ object: old, oldObject: old, schema: node }), union.origin).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("an env var source added beside fieldRef fails the update, as the API server's validateEnvVarValueFrom does", () => {
    // pkg/apis/core/validation/validation.go, validateEnvVarValueFrom: "may not have more than one
    // field specified at a time", on every create and update (hand-written validation does not ratchet).
    const pod = (sources: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    env:\n    - name: A\n      valueFrom: {${sources}}\n`;
    const dir = mkdtempSync(join(tmpdir(), "kunion-ratchet-"));
    writeFileSync(join(dir, "old.yaml"), pod("fieldRef: {fieldPath: metadata.name}"));
    writeFileSync(join(dir, "new.yaml"), pod("fieldRef: {fieldPath: metadata.name}, secretKeyRef: {name: s, key: k}"));
    let stdout = "";
    const code = run(["validate", "--old", join(dir, "old.yaml"), join(dir, "new.yaml")], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
      color: false,
    });
    expect(code).toBe(1);
    expect(stdout).toContain(
      'spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time',
    );
  });
});
