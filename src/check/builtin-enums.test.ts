/**
 * The enum fields users get wrong most, through validateObject. Kubernetes'
 * published OpenAPI documents carry no enums for these: the API server checks
 * them by hand, with field.NotSupported, whose message lists the supported
 * values (`Unsupported value: "X": supported values: ...`, sorted when the
 * source builds them with sets.List). Sources, in kubernetes/kubernetes:
 * pkg/apis/core/validation/validation.go (pods, services, volumes),
 * pkg/apis/apps/validation/validation.go, pkg/apis/batch/validation/validation.go,
 * pkg/apis/networking/validation/validation.go.
 *
 * kubernetes-models' schemas used to flag these; kunion now leaves them to
 * the hand-written rules (src/builtins/validation), and each is reported once.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../value/index.js";
import { buildCatalog } from "./catalog.js";
import { validateObject } from "./objects.js";

const { catalog } = buildCatalog([], []);

const container = (extra: JsonObject = {}): JsonObject => ({ name: "app", image: "nginx:1.27", ...extra });
const pod = (spec: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p" },
  spec: { containers: [container()], ...spec },
});
const template = (spec: JsonObject) => ({
  metadata: { labels: { app: "w" } },
  spec: { containers: [container()], ...spec },
});
const deployment = (spec: JsonObject, podSpec: JsonObject = {}): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "w" },
  spec: { selector: { matchLabels: { app: "w" } }, template: template(podSpec), ...spec },
});
const statefulSet = (spec: JsonObject): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name: "w" },
  spec: { serviceName: "w", selector: { matchLabels: { app: "w" } }, template: template({}), ...spec },
});
const daemonSet = (spec: JsonObject): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name: "w" },
  spec: { selector: { matchLabels: { app: "w" } }, template: template({}), ...spec },
});
const service = (spec: JsonObject, port: JsonObject = {}): JsonObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web" },
  spec: { selector: { app: "w" }, ports: [{ port: 80, ...port }], ...spec },
});
const claim = (spec: JsonObject): JsonObject => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name: "data" },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
});
const jobTemplate = (spec: JsonObject = {}) => ({
  spec: {
    template: { spec: { restartPolicy: "OnFailure", containers: [container()] } },
    ...spec,
  },
});
const cronJob = (spec: JsonObject): JsonObject => ({
  apiVersion: "batch/v1",
  kind: "CronJob",
  metadata: { name: "c" },
  spec: { schedule: "*/5 * * * *", jobTemplate: jobTemplate(), ...spec },
});
const job = (spec: JsonObject): JsonObject => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name: "j" },
  spec: { ...jobTemplate().spec, ...spec },
});
const ingress = (pathType: string): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name: "i" },
  spec: {
    rules: [
      {
        host: "example.com",
        http: { paths: [{ path: "/", pathType, backend: { service: { name: "web", port: { number: 80 } } } }] },
      },
    ],
  },
});

interface Case {
  what: string;
  object: JsonObject;
  path: string;
  bad: string;
  supported: string[];
  /** A supported value the rest of the object agrees with (default: the first). */
  good?: string;
  /** The API server's whole message, where it is not NotSupported on the field itself. */
  message?: string;
}

const cases: Case[] = [
  {
    what: "container imagePullPolicy (validatePullPolicy)",
    object: pod({ containers: [container({ imagePullPolicy: "Sometimes" })] }),
    path: "spec.containers[0].imagePullPolicy",
    bad: "Sometimes",
    supported: ["Always", "IfNotPresent", "Never"],
  },
  {
    what: "a Deployment's container imagePullPolicy",
    object: deployment({}, { containers: [container({ imagePullPolicy: "IfNeeded" })] }),
    path: "spec.template.spec.containers[0].imagePullPolicy",
    bad: "IfNeeded",
    supported: ["Always", "IfNotPresent", "Never"],
  },
  {
    what: "pod restartPolicy (validateRestartPolicy)",
    object: pod({ restartPolicy: "Sometimes" }),
    path: "spec.restartPolicy",
    bad: "Sometimes",
    supported: ["Always", "OnFailure", "Never"],
  },
  {
    what: "a Job's restartPolicy (validateJobSpec: its own list, not the pod's as well)",
    object: job({ template: { spec: { restartPolicy: "Sometimes", containers: [container()] } } }),
    path: "spec.template.spec.restartPolicy",
    bad: "Sometimes",
    supported: ["OnFailure", "Never"],
  },
  {
    what: "container port protocol in lower case (validateContainerPorts)",
    object: pod({ containers: [container({ ports: [{ containerPort: 80, protocol: "tcp" }] })] }),
    path: "spec.containers[0].ports[0].protocol",
    bad: "tcp",
    supported: ["SCTP", "TCP", "UDP"],
    good: "TCP",
  },
  {
    what: "pod dnsPolicy (validateDNSPolicy)",
    object: pod({ dnsPolicy: "ClusterLast" }),
    path: "spec.dnsPolicy",
    bad: "ClusterLast",
    supported: ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
  },
  {
    what: "container port protocol (validateContainerPorts)",
    object: pod({ containers: [container({ ports: [{ containerPort: 80, protocol: "HTTP" }] })] }),
    path: "spec.containers[0].ports[0].protocol",
    bad: "HTTP",
    supported: ["SCTP", "TCP", "UDP"],
  },
  {
    what: "container terminationMessagePolicy (validateTerminationMessagePolicy)",
    object: pod({ containers: [container({ terminationMessagePolicy: "Stdout" })] }),
    path: "spec.containers[0].terminationMessagePolicy",
    bad: "Stdout",
    supported: ["File", "FallbackToLogsOnError"],
  },
  {
    what: "toleration operator (validateTolerations)",
    object: pod({ tolerations: [{ key: "k", operator: "Matches", value: "v" }] }),
    path: "spec.tolerations[0].operator",
    bad: "Matches",
    supported: ["Equal", "Exists"],
  },
  {
    what: "toleration effect (validateTaintEffect)",
    object: pod({ tolerations: [{ key: "k", operator: "Exists", effect: "NoRun" }] }),
    path: "spec.tolerations[0].effect",
    bad: "NoRun",
    supported: ["NoSchedule", "PreferNoSchedule", "NoExecute"],
  },
  {
    what: "seccompProfile type (validateSeccompProfileField)",
    object: pod({ securityContext: { seccompProfile: { type: "Default" } } }),
    path: "spec.securityContext.seccompProfile.type",
    bad: "Default",
    supported: ["Localhost", "RuntimeDefault", "Unconfined"],
    good: "RuntimeDefault",
  },
  {
    what: "Service type (ValidateService)",
    object: service({ type: "Internal" }),
    path: "spec.type",
    bad: "Internal",
    supported: ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
  },
  {
    what: "Service type in the wrong case (ValidateService)",
    object: service({ type: "Loadbalancer" }),
    path: "spec.type",
    bad: "Loadbalancer",
    supported: ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
    good: "LoadBalancer",
  },
  {
    what: "Service port protocol (validateServicePort)",
    object: service({}, { protocol: "tcp" }),
    path: "spec.ports[0].protocol",
    bad: "tcp",
    supported: ["SCTP", "TCP", "UDP"],
  },
  {
    what: "Service sessionAffinity (ValidateService)",
    object: service({ sessionAffinity: "Cookie" }),
    path: "spec.sessionAffinity",
    bad: "Cookie",
    supported: ["ClientIP", "None"],
  },
  {
    what: "Service externalTrafficPolicy (validateServiceExternalTrafficPolicy)",
    object: service({ type: "LoadBalancer", externalTrafficPolicy: "Nearest" }),
    path: "spec.externalTrafficPolicy",
    bad: "Nearest",
    supported: ["Cluster", "Local"],
  },
  {
    what: "Service internalTrafficPolicy (validateServiceInternalTrafficFieldsValue)",
    object: service({ internalTrafficPolicy: "Nearest" }),
    path: "spec.internalTrafficPolicy",
    bad: "Nearest",
    supported: ["Cluster", "Local"],
  },
  {
    what: "PersistentVolumeClaim accessModes (ValidatePersistentVolumeClaimSpec)",
    object: claim({ accessModes: ["ReadWriteAll"] }),
    path: "spec.accessModes",
    bad: "ReadWriteAll",
    supported: ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"],
  },
  {
    what: "PersistentVolumeClaim volumeMode (ValidatePersistentVolumeClaimSpec)",
    object: claim({ volumeMode: "Raw" }),
    path: "spec.volumeMode",
    bad: "Raw",
    supported: ["Block", "Filesystem"],
  },
  {
    what: "Deployment strategy type (ValidateDeploymentStrategy: NotSupported on the strategy itself)",
    object: deployment({ strategy: { type: "BlueGreen" } }),
    path: "spec.strategy",
    bad: "BlueGreen",
    supported: ["Recreate", "RollingUpdate"],
    message: 'spec.strategy: Unsupported value: {"type":"BlueGreen"}: supported values: "Recreate", "RollingUpdate"',
  },
  {
    what: "StatefulSet podManagementPolicy (ValidateStatefulSetSpec: field.Invalid)",
    object: statefulSet({ podManagementPolicy: "Sequential" }),
    path: "spec.podManagementPolicy",
    bad: "Sequential",
    supported: ["OrderedReady", "Parallel"],
    message: `spec.podManagementPolicy: Invalid value: "Sequential": must be 'OrderedReady' or 'Parallel'`,
  },
  {
    what: "StatefulSet updateStrategy type (ValidateStatefulSetSpec: field.Invalid on the strategy)",
    object: statefulSet({ updateStrategy: { type: "Recreate" } }),
    path: "spec.updateStrategy",
    bad: "Recreate",
    supported: ["RollingUpdate", "OnDelete"],
    message: `spec.updateStrategy: Invalid value: {"type":"Recreate"}: must be 'RollingUpdate' or 'OnDelete'`,
  },
  {
    what: "DaemonSet updateStrategy type (ValidateDaemonSetUpdateStrategy: NotSupported on the strategy itself)",
    object: daemonSet({ updateStrategy: { type: "Recreate" } }),
    path: "spec.updateStrategy",
    bad: "Recreate",
    supported: ["RollingUpdate", "OnDelete"],
    message:
      'spec.updateStrategy: Unsupported value: {"type":"Recreate"}: supported values: "RollingUpdate", "OnDelete"',
  },
  {
    what: "CronJob concurrencyPolicy (validateConcurrencyPolicy)",
    object: cronJob({ concurrencyPolicy: "Queue" }),
    path: "spec.concurrencyPolicy",
    bad: "Queue",
    supported: ["Allow", "Forbid", "Replace"],
  },
  {
    what: "Job completionMode (validateJobSpec)",
    object: job({ completionMode: "Ordered" }),
    path: "spec.completionMode",
    bad: "Ordered",
    supported: ["NonIndexed", "Indexed"],
  },
  {
    what: "Ingress pathType (validateHTTPIngressPath)",
    object: ingress("Regex"),
    path: "spec.rules[0].http.paths[0].pathType",
    bad: "Regex",
    supported: ["Exact", "ImplementationSpecific", "Prefix"],
  },
];

const expected = (c: Case) =>
  c.message ??
  `${c.path}: Unsupported value: ${JSON.stringify(c.bad)}: supported values: ${c.supported.map((v) => JSON.stringify(v)).join(", ")}`;
const messages = (object: JsonObject) =>
  validateObject(catalog, object.apiVersion as string, object.kind as string, object).map((f) => f.message);

describe("enum fields the API server checks by hand (field.NotSupported)", () => {
  for (const c of cases)
    it(`${c.what}: ${c.bad} is refused, once`, () => {
      expect(messages(c.object)).toEqual([expected(c)]);
    });

  it("each object is otherwise valid: with a supported value it passes clean", () => {
    for (const c of cases) {
      const good = JSON.parse(
        JSON.stringify(c.object).replaceAll(JSON.stringify(c.bad), JSON.stringify(c.good ?? c.supported[0])),
      );
      expect(messages(good), c.what).toEqual([]);
    }
  });
});
