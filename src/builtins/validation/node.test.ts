/**
 * RuntimeClasses as pkg/apis/node/validation/validation.go ValidateRuntimeClass
 * (validateOverhead, validateScheduling) refuses them, and the warning of
 * pkg/api/node/util.go GetWarningsForRuntimeClass, word for word.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { said } from "./test-helpers.js";

const runtimeClass = (fields: JsonObject): JsonObject => ({
  apiVersion: "node.k8s.io/v1",
  kind: "RuntimeClass",
  metadata: { name: "gvisor" },
  handler: "runsc",
  ...fields,
});

const cases: [string, JsonObject, string[]][] = [
  [
    "a valid runtime class",
    {
      overhead: { podFixed: { cpu: "250m", memory: "120Mi" } },
      scheduling: {
        nodeSelector: { "runtime/gvisor": "true" },
        tolerations: [{ key: "runtime", operator: "Exists", effect: "NoSchedule" }],
      },
    },
    [],
  ],
  [
    "a handler that is no DNS label",
    { handler: "run_sc" },
    [
      `handler: Invalid value: "run_sc": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  ],
  [
    "a negative overhead, checked as a container's limits",
    { overhead: { podFixed: { memory: "-1Mi" } } },
    ['overhead.limits[memory]: Invalid value: "-1Mi": must be greater than or equal to 0'],
  ],
  [
    "a node selector label value that is no label value",
    { scheduling: { nodeSelector: { zone: "a b" } } },
    [
      `scheduling.nodeSelector: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
  ],
  [
    "a toleration with a value for Exists",
    { scheduling: { tolerations: [{ key: "k", operator: "Exists", value: "v" }] } },
    [
      'scheduling.tolerations[0].operator: Invalid value: {"key":"k","operator":"Exists","value":"v"}: value must be empty when `operator` is \'Exists\'',
    ],
  ],
  [
    "a deprecated node label to schedule on (a warning naming the selector)",
    { scheduling: { nodeSelector: { "beta.kubernetes.io/os": "linux" } } },
    ['warning scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/os" instead'],
  ],
];

describe("RuntimeClasses (ValidateRuntimeClass, GetWarningsForRuntimeClass)", () => {
  it.each(cases)("%s", (_, fields, expected) => {
    expect(said("node.k8s.io/v1", "RuntimeClass", runtimeClass(fields))).toEqual([...expected].sort());
  });
});
