/**
 * A container's environment and the pod-spec checks around it, word for word:
 * pkg/apis/core/validation/validation.go (ValidateEnv, ValidateEnvFrom,
 * validateEnvVarValueFrom, validateObjectFieldSelector,
 * validateContainerResourceFieldSelector, validateContainerResourceDivisor,
 * validateConfigMapKeySelector, validateSecretKeySelector,
 * validateConfigMapEnvSource, validateSecretEnvSource, validateExecAction,
 * validateSleepAction, ValidatePodSpec's serviceAccountName, nodeName,
 * hostname and subdomain, ValidatePodTemplateSpec's labels and annotations),
 * pkg/apis/core/pods/helpers.go (ConvertDownwardAPIFieldLabel) and
 * apimachinery's pkg/util/validation (IsRelaxedEnvVarName, IsConfigMapKey).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import {
  container,
  deployment,
  dns1123LabelError as label,
  labelValueError as labelValue,
  pod,
  said,
  dns1123SubdomainError as subdomain,
  template,
} from "./test-helpers.js";

const podSays = (spec: JsonObject) => said("v1", "Pod", pod(spec));
const withEnv = (env: JsonObject[], extra: JsonObject = {}) => ({ containers: [container({ env, ...extra })] });
const fieldRef = (fieldPath: string, apiVersion?: string): JsonObject => ({
  name: "X",
  valueFrom: { fieldRef: apiVersion === undefined ? { fieldPath } : { apiVersion, fieldPath } },
});

const envName = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const envPaths =
  '"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"';

const cases: [string, JsonObject, string[]][] = [
  [
    "relaxed names: digits first, dots, dashes and spaces",
    withEnv([
      { name: "1START", value: "a" },
      { name: "has space.and-dash", value: "b" },
    ]),
    [],
  ],
  [
    "an env name with '='",
    withEnv([{ name: "MY=VAR" }]),
    [`spec.containers[0].env[0].name: Invalid value: "MY=VAR": ${envName}`],
  ],
  ["an empty env name", withEnv([{ name: "" }]), ["spec.containers[0].env[0].name: Required value"]],
  [
    "an env name that is not ASCII",
    withEnv([{ name: "ÄPFEL" }]),
    [`spec.containers[0].env[0].name: Invalid value: "ÄPFEL": ${envName}`],
  ],
  [
    "an envFrom prefix with '='",
    { containers: [container({ envFrom: [{ prefix: "MY=", configMapRef: { name: "c" } }] })] },
    [`spec.containers[0].envFrom[0].prefix: Invalid value: "MY=": ${envName}`],
  ],
  [
    "an envFrom source without a name, and one that is no subdomain",
    { containers: [container({ envFrom: [{ configMapRef: {} }, { secretRef: { name: "My_Secret" } }] })] },
    [
      "spec.containers[0].envFrom[0].configMapRef.name: Required value",
      `spec.containers[0].envFrom[1].secretRef.name: Invalid value: "My_Secret": ${subdomain}`,
    ],
  ],
  ["a field the downward API serves", withEnv([fieldRef("status.podIP")]), []],
  ["spec.host, an old client's spec.nodeName", withEnv([fieldRef("spec.host")]), []],
  [
    "a field the downward API does not know",
    withEnv([fieldRef("metadata.nonexistent")]),
    [
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.nonexistent": error converting fieldPath: field label not supported: metadata.nonexistent',
    ],
  ],
  [
    "a field it knows but not for environment variables",
    withEnv([fieldRef("metadata.labels")]),
    [
      `spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: ${envPaths}`,
    ],
  ],
  ["one label by a valid key", withEnv([fieldRef("metadata.labels['app.kubernetes.io/name']")]), []],
  [
    "one label by a key that is no qualified name",
    withEnv([fieldRef("metadata.labels['-bad']")]),
    [
      "spec.containers[0].env[0].valueFrom.fieldRef: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  ],
  ["an annotation key read without regard to case", withEnv([fieldRef("metadata.annotations['Example.COM/Key']")]), []],
  [
    "a subscript on a field that has none",
    withEnv([fieldRef("spec.nodeName['x']")]),
    [
      "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: \"spec.nodeName['x']\": error converting fieldPath: field label does not support subscript: spec.nodeName['x']",
    ],
  ],
  [
    "a pod version other than v1",
    withEnv([fieldRef("metadata.name", "v2")]),
    [
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
    ],
  ],
  [
    "an empty field path",
    withEnv([fieldRef("")]),
    ["spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Required value"],
  ],
  [
    "a container resource environment variables cannot read",
    withEnv([{ name: "G", valueFrom: { resourceFieldRef: { resource: "limits.gpu" } } }]),
    [
      'spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
    ],
  ],
  [
    "huge pages, by their prefix, with a byte divisor",
    withEnv([{ name: "H", valueFrom: { resourceFieldRef: { resource: "limits.hugepages-2Mi", divisor: "1Mi" } } }]),
    [],
  ],
  [
    "a cpu divisor of 1Mi",
    withEnv([{ name: "C", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "1Mi" } } }]),
    [
      'spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
    ],
  ],
  [
    "a memory divisor of 1m, and one written 1000m (which is 1)",
    withEnv([
      { name: "M", valueFrom: { resourceFieldRef: { resource: "requests.memory", divisor: "1m" } } },
      { name: "N", valueFrom: { resourceFieldRef: { resource: "requests.memory", divisor: "1000m" } } },
    ]),
    [
      'spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "requests.memory": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource',
    ],
  ],
  [
    "a key selector without a key, and one whose ConfigMap has no name",
    withEnv([
      { name: "A", valueFrom: { secretKeyRef: { name: "s" } } },
      { name: "B", valueFrom: { configMapKeyRef: { key: "k" } } },
    ]),
    [
      "spec.containers[0].env[0].valueFrom.secretKeyRef.key: Required value",
      `spec.containers[0].env[1].valueFrom.configMapKeyRef.name: Invalid value: "": ${subdomain}`,
    ],
  ],
  [
    "a key that is no ConfigMap key",
    withEnv([{ name: "A", valueFrom: { configMapKeyRef: { name: "c", key: "a/b" } } }]),
    [
      "spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ],
  ],
  [
    "an exec handler without a command",
    { containers: [container({ livenessProbe: { exec: { command: [] } } })] },
    ["spec.containers[0].livenessProbe.exec.command: Required value"],
  ],
  [
    "a preStop sleep past the default grace period of 30 seconds",
    { containers: [container({ lifecycle: { preStop: { sleep: { seconds: 60 } } } })] },
    [
      "spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: must be non-negative and less than terminationGracePeriodSeconds (30)",
    ],
  ],
  [
    "a preStop sleep within a longer grace period, and a sleep of 0",
    {
      terminationGracePeriodSeconds: 90,
      containers: [
        container({ lifecycle: { preStop: { sleep: { seconds: 60 } }, postStart: { sleep: { seconds: 0 } } } }),
      ],
    },
    [],
  ],
  [
    "names that are no DNS names",
    { serviceAccountName: "My_SA", nodeName: "node_1", hostname: "My_Host", subdomain: "a.b" },
    [
      `spec.hostname: Invalid value: "My_Host": ${label}`,
      `spec.nodeName: Invalid value: "node_1": ${subdomain}`,
      `spec.serviceAccountName: Invalid value: "My_SA": ${subdomain}`,
      'spec.subdomain: Invalid value: "a.b": must not contain dots',
    ],
  ],
];

describe("a container's environment and the pod spec's names", () => {
  it.each(cases)("%s", (_, spec, expected) => {
    expect(podSays(spec)).toEqual([...expected].sort());
  });
});

describe("a sleep of 0 seconds before PodLifecycleSleepActionAllowZero (validateSleepAction, alpha and off in 1.32)", () => {
  const sleeping = (sleep: JsonObject) => pod({ containers: [container({ lifecycle: { preStop: { sleep } } })] });
  const gateOff =
    "must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.";

  it("is refused on 1.32, given or absent (Go's 0), with the gate named; a sleep within the grace period passes", () => {
    expect(said("v1", "Pod", sleeping({ seconds: 0 }), 32)).toEqual([
      `spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: ${gateOff}`,
    ]);
    expect(said("v1", "Pod", sleeping({}), 32)).toEqual([
      `spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: ${gateOff}`,
    ]);
    expect(said("v1", "Pod", sleeping({ seconds: 60 }), 32)).toEqual([
      `spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: ${gateOff}`,
    ]);
    expect(said("v1", "Pod", sleeping({ seconds: 5 }), 32)).toEqual([]);
  });

  it("passes from 1.33, where the gate is on", () => {
    expect(said("v1", "Pod", sleeping({ seconds: 0 }), 33)).toEqual([]);
    expect(said("v1", "Pod", sleeping({}), 33)).toEqual([]);
  });
});

describe("a workload template's own metadata (ValidatePodTemplateSpec)", () => {
  // A Helm chart label: '+' is no label character. The server reports it at spec.template.labels.
  const helm = template({}, { app: "web", chart: "web-1.2.3+build" });

  it("checks the template's labels, at the path the API server gives", () => {
    expect(said("apps/v1", "Deployment", deployment({ template: helm }))).toEqual([
      `spec.template.labels: Invalid value: "web-1.2.3+build": ${labelValue}`,
    ]);
  });

  it("checks a StatefulSet's and a CronJob's template labels too", () => {
    const sts = {
      ...deployment({ template: helm }),
      kind: "StatefulSet",
      spec: { ...(deployment({ template: helm }).spec as JsonObject), serviceName: "web" },
    };
    expect(said("apps/v1", "StatefulSet", sts)).toEqual([
      `spec.template.labels: Invalid value: "web-1.2.3+build": ${labelValue}`,
    ]);
    const cron = {
      apiVersion: "batch/v1",
      kind: "CronJob",
      metadata: { name: "nightly" },
      spec: {
        schedule: "0 2 * * *",
        jobTemplate: { spec: { template: template({ restartPolicy: "Never" }, { chart: "x+y" }) } },
      },
    };
    expect(said("batch/v1", "CronJob", cron)).toEqual([
      `spec.jobTemplate.spec.template.labels: Invalid value: "x+y": ${labelValue}`,
    ]);
  });

  it("checks the template's annotation keys and their total size", () => {
    const annotated = template();
    (annotated.metadata as JsonObject).annotations = {
      "Example.COM/ok": "x",
      "bad key": "y",
      big: "z".repeat(256 * 1024),
    };
    expect(said("apps/v1", "Deployment", deployment({ template: annotated }))).toEqual([
      "spec.template.annotations: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.template.annotations: Too long: may not be more than 262144 bytes",
    ]);
  });
});

describe("what a Pod must satisfy beyond a template (validateContainersOnlyForPod)", () => {
  it("refuses a Pod's image with a leading or trailing space, as Go's strings.TrimSpace sees one", () => {
    const spec = {
      containers: [container({ image: "nginx:1.25 " })],
      initContainers: [container({ name: "i", image: "\u00a0busybox" })],
    };
    expect(podSays(spec)).toEqual([
      'spec.containers[0].image: Invalid value: "nginx:1.25 ": must not have leading or trailing whitespace',
      'spec.initContainers[0].image: Invalid value: "\u00a0busybox": must not have leading or trailing whitespace',
    ]);
    // U+FEFF is no space to Go; a template's image may be anything an admission webhook will replace
    expect(podSays({ containers: [container({ image: "nginx\ufeff" })] })).toEqual([]);
    expect(
      said("apps/v1", "Deployment", deployment({ template: template({ containers: [container({ image: " " })] }) })),
    ).toEqual([]);
  });

  it("checks a PodTemplate's and a ReplicationController's template labels", () => {
    const bad = template({}, { app: "web", chart: "x+y" });
    expect(
      said("v1", "PodTemplate", { apiVersion: "v1", kind: "PodTemplate", metadata: { name: "t" }, template: bad }),
    ).toEqual([`template.labels: Invalid value: "x+y": ${labelValue}`]);
    const rc = {
      apiVersion: "v1",
      kind: "ReplicationController",
      metadata: { name: "rc" },
      spec: { selector: { app: "web" }, template: bad },
    };
    expect(said("v1", "ReplicationController", rc)).toEqual([
      `spec.template.labels: Invalid value: "x+y": ${labelValue}`,
    ]);
  });
});
