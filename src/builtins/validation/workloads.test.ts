/**
 * Workload controllers, word for word:
 * pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec,
 * ValidateReplicaSetSpec, ValidatePodTemplateSpecForReplicaSet,
 * ValidateDaemonSetSpec, ValidateRollingUpdateDaemonSet,
 * ValidateStatefulSetSpec, ValidateRollingUpdateDeployment,
 * ValidatePositiveIntOrPercent, IsNotMoreThan100Percent) and
 * pkg/apis/batch/validation/validation.go (validateJobSpec, ValidateJobSpec,
 * validateGeneratedSelector, validateCronJobSpec, validateScheduleFormat,
 * validateTimeZone, ValidateCronJobCreate).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { validateHandWritten } from "./index.js";
import { container, deployment, said, template } from "./test-helpers.js";

const apps = (kind: string, spec: JsonObject): JsonObject => ({
  apiVersion: "apps/v1",
  kind,
  metadata: { name: "web" },
  spec: { selector: { matchLabels: { app: "web" } }, template: template(), ...spec },
});

const percentError =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

const appsCases: [string, string, JsonObject, string[]][] = [
  ["Deployment", "a valid deployment", {}, []],
  [
    "Deployment",
    "a selector that does not select the template",
    { template: template({}, { app: "api" }) },
    ['spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`'],
  ],
  [
    "Deployment",
    "an empty selector",
    { selector: {} },
    ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"],
  ],
  [
    "Deployment",
    "no selector: nothing matches the template",
    { selector: null },
    ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
  ],
  [
    "Deployment",
    "a selector with an unknown operator",
    { selector: { matchExpressions: [{ key: "app", operator: "Is", values: ["web"] }] } },
    [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Is","values":["web"]}]}: invalid label selector',
    ].sort(),
  ],
  [
    "Deployment",
    "In without values",
    { selector: { matchExpressions: [{ key: "app", operator: "In" }] } },
    [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector',
    ].sort(),
  ],
  [
    "Deployment",
    "negative replicas",
    { replicas: -1 },
    ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"],
  ],
  [
    "Deployment",
    "a pod restart policy other than Always",
    { template: template({ restartPolicy: "OnFailure" }) },
    ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
  ],
  [
    "Deployment",
    "an activeDeadlineSeconds",
    { template: template({ activeDeadlineSeconds: 10 }) },
    ["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"],
  ],
  [
    "Deployment",
    "maxSurge and maxUnavailable both 0",
    { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: "0%" } } },
    ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0'],
  ],
  [
    "Deployment",
    "a percentage over 100% and one that is no percentage",
    { strategy: { rollingUpdate: { maxUnavailable: "150%", maxSurge: "5 percent" } } },
    [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
      `spec.strategy.rollingUpdate.maxSurge: Invalid value: "5 percent": ${percentError}`,
    ].sort(),
  ],
  [
    "Deployment",
    "a minReadySeconds past the default progress deadline",
    { minReadySeconds: 600 },
    ["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"],
  ],
  [
    "ReplicaSet",
    "an empty selector (the API server says deployment)",
    { selector: { matchLabels: {} } },
    ['spec.selector: Invalid value: {"matchLabels":{}}: empty selector is invalid for deployment'],
  ],
  [
    "DaemonSet",
    "a selector that does not select the template",
    { selector: { matchLabels: { app: "agent" } } },
    ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
  ],
  [
    "DaemonSet",
    "maxSurge set with the default maxUnavailable of 1",
    { updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } } },
    ["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"],
  ],
  [
    "DaemonSet",
    "maxUnavailable 0 with the default maxSurge of 0",
    { updateStrategy: { rollingUpdate: { maxUnavailable: 0 } } },
    ["spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"],
  ],
  [
    "DaemonSet",
    "an activeDeadlineSeconds",
    { template: template({ activeDeadlineSeconds: 5 }) },
    ["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"],
  ],
  [
    "StatefulSet",
    "an empty selector",
    { selector: {} },
    ["spec.selector: Invalid value: {}: empty selector is invalid for statefulset"],
  ],
  [
    "StatefulSet",
    "a restart policy other than Always",
    { template: template({ restartPolicy: "Never" }) },
    ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
  ],
  [
    "StatefulSet",
    "maxUnavailable 0 and a negative start ordinal",
    { updateStrategy: { rollingUpdate: { maxUnavailable: 0 } }, ordinals: { start: -1 } },
    [
      "spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0",
      "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
    ],
  ],
];

describe("workload controllers (apps validation)", () => {
  it.each(appsCases)("%s: %s", (kind, _, spec, expected) => {
    expect(said("apps/v1", kind, apps(kind, spec))).toEqual([...expected].sort());
  });

  it("a Deployment without spec says nothing of its own", () => {
    expect(said("apps/v1", "Deployment", { ...deployment(), spec: null })).toEqual([]);
  });
});

// kubernetes#131790 and #132212 (1.34): a StatefulSet's pod spec, with a volume for each claim template, and its
// claim templates' specs are validated on create; through 1.33 neither is.
describe("a StatefulSet's pod spec and claim templates, from 1.34", () => {
  const claim = (name: string, spec: JsonObject = {}): JsonObject => ({
    metadata: { name },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  });
  const mounting = (mounts: string[], volumes: JsonObject[] = []) =>
    template({
      containers: [
        { name: "web", image: "nginx", volumeMounts: mounts.map((name) => ({ name, mountPath: `/${name}` })) },
      ],
      volumes,
    });
  const sts = (spec: JsonObject) => apps("StatefulSet", { serviceName: "web", ...spec });

  it("refuses a container without an image on 1.34 and later, not on 1.33", () => {
    const noImage = sts({ template: template({ containers: [{ name: "web" }] }) });
    expect(said("apps/v1", "StatefulSet", noImage, 33)).toEqual([]);
    for (const minor of [34, 35, 36])
      expect(said("apps/v1", "StatefulSet", noImage, minor)).toEqual([
        "spec.template.spec.containers[0].image: Required value",
      ]);
  });

  it("takes a mount of a claim template's name as a mount of its volume", () => {
    const ok = sts({
      template: mounting(["data", "config"], [{ name: "config", emptyDir: {} }]),
      volumeClaimTemplates: [claim("data")],
    });
    expect(said("apps/v1", "StatefulSet", ok, 36)).toEqual([]);
    const unknown = sts({ template: mounting(["logs"]), volumeClaimTemplates: [claim("data")] });
    expect(said("apps/v1", "StatefulSet", unknown, 36)).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "logs"',
    ]);
  });

  it("replaces a volume of a claim template's name, and counts the template's own volumes after the claims", () => {
    const volumes = [
      { name: "data", emptyDir: {} },
      { name: "Bad_Name", emptyDir: {} },
    ];
    const shadowed = sts({ template: mounting(["data"], volumes), volumeClaimTemplates: [claim("data")] });
    expect(said("apps/v1", "StatefulSet", shadowed, 36)).toEqual([
      expect.stringMatching(
        /^spec\.template\.spec\.volumes\[1\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label/,
      ),
    ]);
  });

  // StatefulSetValidationOptions' SkipValidatePodTemplateSpec and SkipValidateVolumeClaimTemplates
  it("on an update, skips what the old StatefulSet already failed, so it stays updatable", () => {
    const bare = { metadata: { name: "data" }, spec: { resources: {} } };
    const invalid = sts({ template: template({ containers: [{ name: "web" }] }), volumeClaimTemplates: [bare] });
    const valid = sts({ volumeClaimTemplates: [claim("data")] });
    const update = (old: JsonObject) =>
      validateHandWritten(
        "apps/v1",
        "StatefulSet",
        { ...invalid, spec: { ...(invalid.spec as JsonObject), replicas: 3 } },
        36,
        old,
      ).map((f) => f.message);
    expect(update(invalid)).toEqual([]);
    expect(update(valid)).toEqual([
      "spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required",
      "spec.volumeClaimTemplates[0].spec.resources[storage]: Required value",
      "spec.template.spec.containers[0].image: Required value",
    ]);
  });

  it("refuses a claim template without access modes or a storage request on 1.34 and later", () => {
    const bare = sts({ volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { resources: {} } }] });
    expect(said("apps/v1", "StatefulSet", bare, 33)).toEqual([]);
    expect(said("apps/v1", "StatefulSet", bare, 34)).toEqual([
      "spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required",
      "spec.volumeClaimTemplates[0].spec.resources[storage]: Required value",
    ]);
    const twoModes = sts({
      volumeClaimTemplates: [claim("data", { accessModes: ["ReadWriteOncePod", "ReadWriteOnce"] })],
    });
    expect(said("apps/v1", "StatefulSet", twoModes, 36)).toEqual([
      "spec.volumeClaimTemplates[0].spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes",
    ]);
  });
});

const job = (spec: JsonObject, templateSpec: JsonObject = { restartPolicy: "Never" }): JsonObject => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name: "pi" },
  spec: { template: { spec: { containers: [container()], ...templateSpec } }, ...spec },
});

const jobCases: [string, JsonObject, JsonObject | undefined, string[]][] = [
  ["a valid job", {}, undefined, []],
  [
    "no restartPolicy (defaulted to Always)",
    {},
    {},
    ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
  ],
  [
    "restartPolicy Always",
    {},
    { restartPolicy: "Always" },
    ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
  ],
  [
    "OnFailure with a podFailurePolicy",
    { podFailurePolicy: { rules: [] } },
    { restartPolicy: "OnFailure" },
    [
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ],
  ],
  [
    "negative completions and parallelism",
    { completions: -1, parallelism: -2, backoffLimit: -3 },
    undefined,
    [
      "spec.backoffLimit: Invalid value: -3: must be greater than or equal to 0",
      "spec.completions: Invalid value: -1: must be greater than or equal to 0",
      "spec.parallelism: Invalid value: -2: must be greater than or equal to 0",
    ],
  ],
  [
    "Indexed with parallelism and without completions",
    { completionMode: "Indexed", parallelism: 2 },
    undefined,
    ["spec.completions: Required value: when completion mode is Indexed"],
  ],
  // SetDefaults_Job sets both to 1 when neither is given: nothing to refuse
  ["Indexed without completions nor parallelism", { completionMode: "Indexed" }, undefined, []],
  [
    "a per-index backoff limit without Indexed completion",
    { backoffLimitPerIndex: 1 },
    undefined,
    ["spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"],
  ],
  [
    "a selector without manualSelector",
    { selector: { matchLabels: { app: "pi" } } },
    undefined,
    ['spec.selector: Invalid value: {"matchLabels":{"app":"pi"}}: `selector` not auto-generated'],
  ],
  [
    "a manual selector that does not select the template",
    { manualSelector: true, selector: { matchLabels: { app: "pi" } } },
    undefined,
    ["spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`"],
  ],
];

describe("Jobs (batch validateJobSpec)", () => {
  it.each(jobCases)("%s", (_, spec, templateSpec, expected) => {
    expect(said("batch/v1", "Job", job(spec, templateSpec))).toEqual([...expected].sort());
  });
});

const cronJob = (spec: JsonObject, name = "hello"): JsonObject => ({
  apiVersion: "batch/v1",
  kind: "CronJob",
  metadata: { name },
  spec: {
    schedule: "*/5 * * * *",
    jobTemplate: { spec: { template: { spec: { restartPolicy: "OnFailure", containers: [container()] } } } },
    ...spec,
  },
});

const cronCases: [string, JsonObject, string[]][] = [
  ["a valid cron job", {}, []],
  [
    "a minute out of range",
    { schedule: "61 * * * *" },
    ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61'],
  ],
  [
    "six fields",
    { schedule: "0 0 * * * *" },
    ['spec.schedule: Invalid value: "0 0 * * * *": expected exactly 5 fields, found 6: [0 0 * * * *]'],
  ],
  [
    "a word",
    { schedule: "daily" },
    ['spec.schedule: Invalid value: "daily": expected exactly 5 fields, found 1: [daily]'],
  ],
  [
    "an unknown descriptor",
    { schedule: "@fortnightly" },
    ['spec.schedule: Invalid value: "@fortnightly": unrecognized descriptor: @fortnightly'],
  ],
  [
    "a day of week of 7",
    { schedule: "0 0 * * 7" },
    ['spec.schedule: Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7'],
  ],
  [
    "a name where a number belongs",
    { schedule: "0 0 * * x" },
    [
      'spec.schedule: Invalid value: "0 0 * * x": failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
    ],
  ],
  [
    "TZ in the schedule",
    { schedule: "TZ=UTC 0 0 * * *" },
    [
      'spec.schedule: Invalid value: "TZ=UTC 0 0 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ],
  ],
  ["an empty schedule", { schedule: "" }, ["spec.schedule: Required value"]],
  [
    "an unknown time zone",
    { timeZone: "Europe/Pariss" },
    ['spec.timeZone: Invalid value: "Europe/Pariss": unknown time zone Europe/Pariss'],
  ],
  [
    "Local as the time zone",
    { timeZone: "Local" },
    [
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ],
  ],
  [
    "an empty time zone",
    { timeZone: "" },
    ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'],
  ],
  [
    "negative history limits",
    { successfulJobsHistoryLimit: -1, startingDeadlineSeconds: -5 },
    [
      "spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0",
      "spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
    ],
  ],
  [
    "a job template whose pods restart Always",
    { jobTemplate: { spec: { template: { spec: { restartPolicy: "Always", containers: [container()] } } } } },
    ['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
  ],
];

describe("CronJobs (batch validateCronJobSpec)", () => {
  it.each(cronCases)("%s", (_, spec, expected) => {
    expect(said("batch/v1", "CronJob", cronJob(spec))).toEqual([...expected].sort());
  });

  it("refuses a name longer than 52 characters (ValidateCronJobCreate)", () => {
    const name = "a".repeat(53);
    expect(said("batch/v1", "CronJob", cronJob({}, name))).toEqual([
      `metadata.name: Invalid value: "${name}": must be no more than 52 characters`,
    ]);
  });
});
