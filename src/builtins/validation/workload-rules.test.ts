/**
 * workload-rules.ts against the Go it follows, word for word:
 * pkg/apis/batch/validation/validation.go (validateJobSpec's managedBy,
 * Indexed and successPolicy branches, validatePodFailurePolicy and its rule
 * checks, validateSuccessPolicyRule, validateIndexesFormat/parseIndexInterval,
 * ValidateJob's hostname check, ValidateJobTemplateSpec) with
 * pkg/apis/batch/v1/defaults.go (SetDefaults_Job), and
 * pkg/apis/apps/validation/validation.go (ValidateDeploymentStrategy,
 * ValidateStatefulSetSpec's updateStrategy switch and serviceName,
 * validateRollingUpdateStatefulSet, ValidateControllerRevision), gated as
 * pkg/features/kube_features.go (MaxUnavailableStatefulSet beta in 1.35).
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { container, dns1123LabelError, said, template } from "./test-helpers.js";
import {
  validateControllerRevision,
  validateIndexedJobHostname,
  validateIndexedJobLimits,
  validateIndexesFormat,
  validateJobManagedBy,
  validateJobTemplateSpec,
  validatePodFailurePolicy,
  validateStatefulSetServiceName,
  validateSuccessPolicy,
  withJobDefaults,
} from "./workload-rules.js";

const spec = ["spec"];
const messages = (findings: Finding[]): string[] => findings.map((f) => f.message);
const jobSpec = (extra: JsonObject): JsonObject => ({
  template: { spec: { restartPolicy: "Never", containers: [{ name: "main", image: "x" }] } },
  ...extra,
});
const indexed = (extra: JsonObject): JsonObject => jobSpec({ completionMode: "Indexed", completions: 5, ...extra });

describe("validatePodFailurePolicy", () => {
  it("accepts the documented example (FailJob on exit code 42, Ignore on DisruptionTarget)", () => {
    const s = jobSpec({
      podFailurePolicy: {
        rules: [
          { action: "FailJob", onExitCodes: { containerName: "main", operator: "In", values: [42] } },
          { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget" }] },
        ],
      },
    });
    expect(validatePodFailurePolicy(withJobDefaults(s), spec)).toEqual([]);
  });

  it("refuses an unknown action with the sorted set, and FailIndex without backoffLimitPerIndex", () => {
    const s = jobSpec({
      podFailurePolicy: {
        rules: [
          { action: "Retry", onExitCodes: { operator: "In", values: [1] } },
          { action: "FailIndex", onExitCodes: { operator: "In", values: [1] } },
          { onExitCodes: { operator: "In", values: [1] } },
        ],
      },
    });
    expect(messages(validatePodFailurePolicy(s, spec))).toEqual([
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[1].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
      'spec.podFailurePolicy.rules[2].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
    ]);
  });

  it("FailIndex is fine with backoffLimitPerIndex", () => {
    const s = indexed({
      backoffLimitPerIndex: 1,
      podFailurePolicy: { rules: [{ action: "FailIndex", onExitCodes: { operator: "In", values: [1] } }] },
    });
    expect(validatePodFailurePolicy(s, spec)).toEqual([]);
  });

  it("checks onExitCodes: operator, containerName, 0 for In, duplicates, order (TestValidateJob cases)", () => {
    const s = jobSpec({
      podFailurePolicy: {
        rules: [
          { action: "FailJob", onExitCodes: { containerName: "sidecar", operator: "Is", values: [5, 0, 5] } },
          { action: "Count", onExitCodes: { operator: "In", values: [0, 3, 2] } },
          { action: "Count", onExitCodes: { operator: "NotIn", values: [] } },
        ],
      },
    });
    expect(messages(validatePodFailurePolicy(s, spec))).toEqual([
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Is": supported values: "In", "NotIn"',
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "sidecar": must be one of the container or initContainer names in the pod template',
      "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 5",
      "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [5,0,5]: must be ordered",
      "spec.podFailurePolicy.rules[1].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
      "spec.podFailurePolicy.rules[1].onExitCodes.values: Invalid value: [0,3,2]: must be ordered",
      "spec.podFailurePolicy.rules[2].onExitCodes.values: Invalid value: []: at least one value is required",
    ]);
  });

  it("an init container's name may be named; 0 is fine for NotIn", () => {
    const s = jobSpec({
      template: {
        spec: { initContainers: [{ name: "init", image: "x" }], containers: [{ name: "main", image: "x" }] },
      },
      podFailurePolicy: {
        rules: [{ action: "Ignore", onExitCodes: { containerName: "init", operator: "NotIn", values: [0] } }],
      },
    });
    expect(validatePodFailurePolicy(s, spec)).toEqual([]);
  });

  it("needs exactly one of onExitCodes and onPodConditions (the value is omitted)", () => {
    const s = jobSpec({
      podFailurePolicy: {
        rules: [
          { action: "Ignore" },
          {
            action: "Ignore",
            onExitCodes: { operator: "In", values: [1] },
            onPodConditions: [{ type: "DisruptionTarget", status: "True" }],
          },
        ],
      },
    });
    expect(messages(validatePodFailurePolicy(s, spec))).toEqual([
      "spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
      "spec.podFailurePolicy.rules[1]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported",
    ]);
  });

  it("checks onPodConditions type and status; SetDefaults_Job sets a Job's absent status to True", () => {
    const s = jobSpec({
      podFailurePolicy: {
        rules: [{ action: "Ignore", onPodConditions: [{ type: "Bad Type", status: "Maybe" }, { type: "Ready" }] }],
      },
    });
    const got = messages(validatePodFailurePolicy(withJobDefaults(s), spec));
    expect(got).toHaveLength(2);
    expect(got[0]).toMatch(
      /^spec\.podFailurePolicy\.rules\[0\]\.onPodConditions\[0\]\.type: Invalid value: "Bad Type": name part must consist of/,
    );
    expect(got[1]).toBe(
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    );
    // a CronJob's job template is not defaulted: validatePodFailurePolicyRuleOnPodConditions' Required
    expect(messages(validatePodFailurePolicy(s, spec))[2]).toBe(
      'spec.podFailurePolicy.rules[0].onPodConditions[1].status: Required value: valid values: ["False" "True" "Unknown"]',
    );
  });

  it("caps rules at 20", () => {
    const rule = { action: "Ignore", onExitCodes: { operator: "In", values: [1] } };
    const s = jobSpec({ podFailurePolicy: { rules: Array.from({ length: 21 }, () => rule) } });
    expect(messages(validatePodFailurePolicy(s, spec))).toEqual([
      "spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items",
    ]);
  });
});

describe("validateSuccessPolicy", () => {
  it("requires indexed completion mode", () => {
    const policy = { rules: [{ succeededCount: 1 }] };
    expect(messages(validateSuccessPolicy(jobSpec({ successPolicy: policy }), spec))).toEqual([
      'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
    ]);
  });

  it("accepts indexes and a count within them", () => {
    const s = indexed({ successPolicy: { rules: [{ succeededIndexes: "0-2,4", succeededCount: 3 }] } });
    expect(validateSuccessPolicy(s, spec)).toEqual([]);
  });

  it("needs rules, and something in each rule", () => {
    expect(messages(validateSuccessPolicy(indexed({ successPolicy: { rules: [] } }), spec))).toEqual([
      "spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified",
    ]);
    expect(messages(validateSuccessPolicy(indexed({ successPolicy: { rules: [{}] } }), spec))).toEqual([
      "spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified",
    ]);
  });

  it("bounds succeededCount by completions and by the indexes given", () => {
    const s = indexed({ successPolicy: { rules: [{ succeededIndexes: "1-2", succeededCount: 6 }] } });
    expect(messages(validateSuccessPolicy(s, spec))).toEqual([
      "spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)",
      "spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)",
    ]);
  });

  it("reports a malformed succeededIndexes", () => {
    const s = indexed({ successPolicy: { rules: [{ succeededIndexes: "3,1" }] } });
    expect(messages(validateSuccessPolicy(s, spec))).toEqual([
      'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3,1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1',
    ]);
  });
});

describe("validateIndexesFormat (TestValidateIndexesFormat-style)", () => {
  it.each([
    ["", 0],
    ["0,2-4", 4],
    [
      "1-2-3",
      `the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`,
    ],
    ["a", 'cannot convert string to integer for index: "a"'],
    ["0-5", 'too large index: "5"'],
    ["2-2", "non-increasing order, previous: 2, current: 2"],
    ["0-1,1", "non-increasing order, previous: 1, current: 1"],
  ])("%j", (indexes, want) => {
    expect(validateIndexesFormat(indexes, 5)).toBe(want);
  });
});

describe("the rest of validateJobSpec and ValidateJob", () => {
  it("managedBy must be a domain-prefixed path of at most 63 bytes", () => {
    expect(validateJobManagedBy(jobSpec({ managedBy: "kueue.x-k8s.io/multikueue" }), spec)).toEqual([]);
    expect(messages(validateJobManagedBy(jobSpec({ managedBy: "kueue" }), spec))).toEqual([
      'spec.managedBy: Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
    const long = `example.com/${"a".repeat(60)}`;
    expect(messages(validateJobManagedBy(jobSpec({ managedBy: long }), spec))).toEqual([
      "spec.managedBy: Too long: may not be more than 63 bytes",
    ]);
  });

  it("Indexed limits on maxFailedIndexes and high completions", () => {
    expect(messages(validateIndexedJobLimits(indexed({ backoffLimitPerIndex: 1, maxFailedIndexes: 6 }), spec))).toEqual(
      ["spec.maxFailedIndexes: Invalid value: 6: must be less than or equal to completions"],
    );
    const high = indexed({ completions: 100_001, parallelism: 10_001, backoffLimitPerIndex: 1 });
    expect(messages(validateIndexedJobLimits(high, spec))).toEqual([
      "spec.maxFailedIndexes: Required value: must be specified when completions is above 100000",
      "spec.parallelism: Invalid value: 10001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index",
    ]);
    expect(
      validateIndexedJobLimits(jobSpec({ completions: 100_001, parallelism: 10_001, backoffLimitPerIndex: 1 }), spec),
    ).toEqual([]);
  });

  it("an Indexed Job's last hostname must be a DNS label", () => {
    const job = (name: string, completions: number): JsonObject => ({
      metadata: { name },
      spec: indexed({ completions }),
    });
    const name = "a".repeat(60);
    const check = (o: JsonObject) => validateIndexedJobHostname(o, o.spec as JsonObject);
    expect(messages(check(job(name, 1000)))).toEqual([
      `metadata.name: Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-999`,
    ]);
    expect(check(job(name, 100))).toEqual([]);
  });

  it("a CronJob's job template may not carry a selector or manualSelector", () => {
    const at = ["spec", "jobTemplate"];
    expect(
      messages(validateJobTemplateSpec({ selector: { matchLabels: { a: "b" } }, manualSelector: true }, at)),
    ).toEqual([
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
    expect(validateJobTemplateSpec({ manualSelector: false }, at)).toEqual([]);
  });
});

describe("apps", () => {
  it("serviceName must be a DNS label from 1.33", () => {
    const s = { serviceName: "My_Service" };
    expect(validateStatefulSetServiceName(s, spec, 32)).toEqual([]);
    const got = messages(validateStatefulSetServiceName(s, spec, 33));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^spec\.serviceName: Invalid value: "My_Service": a lowercase RFC 1123 label must consist/);
    expect(validateStatefulSetServiceName({ serviceName: "" }, spec, 36)).toEqual([]);
  });

  it("a ControllerRevision needs data, and a non-negative revision", () => {
    expect(messages(validateControllerRevision({ revision: -1 }))).toEqual([
      "data: Required value: data is mandatory",
      "revision: Invalid value: -1: must be greater than or equal to 0",
    ]);
    expect(validateControllerRevision({ data: {}, revision: 1 })).toEqual([]);
  });
});

describe("through the whole object", () => {
  const job = (spec: JsonObject): JsonObject => ({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "pfp" },
    spec: { template: { spec: { restartPolicy: "Never", containers: [container()] } }, ...spec },
  });

  it("a pod failure policy's exit codes, and a success policy on a NonIndexed Job", () => {
    const object = job({
      podFailurePolicy: { rules: [{ action: "FailJob", onExitCodes: { operator: "In", values: [0, 3, 2] } }] },
      successPolicy: { rules: [{ succeededCount: 1 }] },
    });
    expect(said("batch/v1", "Job", object)).toEqual(
      [
        "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,2]: must be ordered",
        'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
      ].sort(),
    );
  });

  it("an Indexed Job's failed-index limit and success indexes", () => {
    const object = job({
      completionMode: "Indexed",
      completions: 5,
      backoffLimitPerIndex: 1,
      maxFailedIndexes: 6,
      successPolicy: { rules: [{ succeededIndexes: "3,1" }] },
    });
    expect(said("batch/v1", "Job", object)).toEqual([
      "spec.maxFailedIndexes: Invalid value: 6: must be less than or equal to completions",
      'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3,1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1',
    ]);
  });

  it("a StatefulSet's maxUnavailable from 1.35 (MaxUnavailableStatefulSet), its serviceName from 1.33", () => {
    const statefulSet = (spec: JsonObject): JsonObject => ({
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "db" },
      spec: { selector: { matchLabels: { app: "web" } }, template: template(), ...spec },
    });
    const zero = statefulSet({ updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0 } } });
    expect(said("apps/v1", "StatefulSet", zero, 34)).toEqual([]);
    expect(said("apps/v1", "StatefulSet", zero, 35)).toEqual([
      "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
    ]);
    const named = statefulSet({ serviceName: "My_Svc" });
    expect(said("apps/v1", "StatefulSet", named, 32)).toEqual([]);
    expect(said("apps/v1", "StatefulSet", named, 33)).toEqual([
      `spec.serviceName: Invalid value: "My_Svc": ${dns1123LabelError}`,
    ]);
  });
});
