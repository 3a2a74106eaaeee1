/**
 * A container's restartPolicy and restartPolicyRules, release by release, in
 * the API server's words: pkg/apis/core/validation/validation.go
 * validateContainers, validateInitContainerRestartPolicy and
 * validateContainerRestartPolicy (TestValidateContainerRestartPolicy in
 * validation_test.go), the gates read from pkg/features/kube_features.go
 * (ContainerRestartRules alpha 1.34, beta 1.35; RestartAllContainersOnContainerExits
 * alpha 1.35, beta 1.36) and pkg/api/pod/util.go dropContainerRestartRules.
 */
import { describe, expect, it } from "vitest";
import type { FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { validateContainerRestart } from "./restart-rules.js";

const regularAt: FieldPath = ["spec", "containers", 0];
const initAt: FieldPath = ["spec", "initContainers", 0];

const says = (ctr: JsonObject, kind: "container" | "initContainer", minor: number, at?: FieldPath): string[] =>
  validateContainerRestart(
    { name: "app", image: "nginx", ...ctr },
    at ?? (kind === "container" ? regularAt : initAt),
    kind,
    { minor },
  )
    .map((f) => f.message)
    .sort();

const rule = (extra: JsonObject = {}): JsonObject => ({
  action: "Restart",
  exitCodes: { operator: "In", values: [42] },
  ...extra,
});

const policies = ['"Always"', '"Never"', '"OnFailure"'].join(", ");

describe("before the ContainerRestartRules gate (1.32, 1.33)", () => {
  it.each([32, 33])("refuses any restartPolicy on a regular container in 1.%i (validateContainers)", (minor) => {
    for (const value of ["Always", "Never", ""])
      expect(says({ restartPolicy: value }, "container", minor)).toEqual([
        "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers",
      ]);
  });

  it("lets an init container be a sidecar, and nothing else (validateInitContainerRestartPolicy)", () => {
    expect(says({ restartPolicy: "Always" }, "initContainer", 33)).toEqual([]);
    expect(says({ restartPolicy: "Never" }, "initContainer", 33)).toEqual([
      'spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });

  it("reports an empty init container policy too: it is set, and not defaulted", () => {
    expect(says({ restartPolicy: "" }, "initContainer", 32)).toEqual([
      'spec.initContainers[0].restartPolicy: Unsupported value: "": supported values: "Always"',
    ]);
  });

  it("leaves restartPolicyRules alone: the field does not exist yet", () => {
    expect(says({ restartPolicyRules: [{ action: "Bogus" }] }, "container", 33)).toEqual([]);
    expect(says({ restartPolicyRules: [{ action: "Bogus" }] }, "initContainer", 33)).toEqual([]);
  });

  it("is quiet about a null policy (a nil pointer)", () => {
    expect(says({ restartPolicy: null }, "container", 33)).toEqual([]);
    expect(says({ restartPolicy: null }, "initContainer", 33)).toEqual([]);
  });
});

describe("1.34: the gate is alpha and off, so dropContainerRestartRules clears the fields", () => {
  it("accepts what it drops: a regular container's policy and rules", () => {
    expect(says({ restartPolicy: "Never", restartPolicyRules: [{ action: "Bogus" }] }, "container", 34)).toEqual([]);
  });

  it("drops an init container's policy other than Always, and every init container's rules", () => {
    expect(says({ restartPolicy: "Never" }, "initContainer", 34)).toEqual([]);
    expect(says({ restartPolicy: "Always", restartPolicyRules: [rule()] }, "initContainer", 34)).toEqual([]);
  });
});

describe("1.35: ContainerRestartRules is beta and on", () => {
  it.each(["Always", "Never", "OnFailure"])("lets a regular container set %s", (value) => {
    expect(says({ restartPolicy: value }, "container", 35)).toEqual([]);
  });

  it("lists the three policies, sorted, for an unknown one", () => {
    expect(says({ restartPolicy: "Sometimes" }, "container", 35)).toEqual([
      `spec.containers[0].restartPolicy: Unsupported value: "Sometimes": supported values: ${policies}`,
    ]);
    expect(says({ restartPolicy: "" }, "container", 35)).toEqual([
      `spec.containers[0].restartPolicy: Unsupported value: "": supported values: ${policies}`,
    ]);
  });

  it("accepts valid rules under a policy (In and NotIn)", () => {
    const rules = [rule(), rule({ exitCodes: { operator: "NotIn", values: [0, 1] } })];
    expect(says({ restartPolicy: "Never", restartPolicyRules: rules }, "container", 35)).toEqual([]);
  });

  it("requires a policy with rules, and still checks a regular container's rules", () => {
    expect(says({ restartPolicyRules: [rule({ action: "Stop" })] }, "container", 35)).toEqual([
      "spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used",
      'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "Stop": supported values: "Restart"',
    ]);
  });

  it("takes an empty or null rule list as none", () => {
    expect(says({ restartPolicyRules: [] }, "container", 35)).toEqual([]);
    expect(says({ restartPolicyRules: null }, "container", 35)).toEqual([]);
  });

  it("refuses RestartAllContainers while its gate is alpha", () => {
    expect(
      says({ restartPolicy: "Never", restartPolicyRules: [rule({ action: "RestartAllContainers" })] }, "container", 35),
    ).toEqual([
      'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"',
    ]);
  });

  it("reports a missing action as the empty value Go decodes", () => {
    expect(
      says({ restartPolicy: "Never", restartPolicyRules: [{ exitCodes: { operator: "In" } }] }, "container", 35),
    ).toEqual(['spec.containers[0].restartPolicyRules[0].action: Unsupported value: "": supported values: "Restart"']);
  });

  it("requires exitCodes, absent or null, at the rule's index", () => {
    const rules = [rule(), { action: "Restart" }, { action: "Restart", exitCodes: null }];
    expect(says({ restartPolicy: "OnFailure", restartPolicyRules: rules }, "container", 35)).toEqual([
      "spec.containers[0].restartPolicyRules[1].exitCodes: Required value: must be specified",
      "spec.containers[0].restartPolicyRules[2].exitCodes: Required value: must be specified",
    ]);
  });

  it("lists In and NotIn for another operator, or none", () => {
    const rules = [rule({ exitCodes: { operator: "Exists" } }), rule({ exitCodes: { values: [1] } })];
    expect(says({ restartPolicy: "Never", restartPolicyRules: rules }, "container", 35)).toEqual([
      'spec.containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value: "Exists": supported values: "In", "NotIn"',
      'spec.containers[0].restartPolicyRules[1].exitCodes.operator: Unsupported value: "": supported values: "In", "NotIn"',
    ]);
  });

  it("checks no range, order or uniqueness of the exit codes, and allows no values", () => {
    const rules = [
      rule({ exitCodes: { operator: "In", values: [300, -1, 7, 7, 0] } }),
      rule({ exitCodes: { operator: "NotIn" } }),
    ];
    expect(says({ restartPolicy: "Never", restartPolicyRules: rules }, "container", 35)).toEqual([]);
  });

  it("allows 255 exit codes and words 256 as field.TooLong did (kubernetes#137135)", () => {
    const codes = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(
      says(
        { restartPolicy: "Never", restartPolicyRules: [rule({ exitCodes: { operator: "In", values: codes(255) } })] },
        "container",
        35,
      ),
    ).toEqual([]);
    expect(
      says(
        { restartPolicy: "Never", restartPolicyRules: [rule({ exitCodes: { operator: "In", values: codes(256) } })] },
        "container",
        35,
      ),
    ).toEqual(["spec.containers[0].restartPolicyRules[0].exitCodes.values: Too long: may not be more than 255 bytes"]);
  });

  it("allows 20 rules and words 21 as field.TooLong did", () => {
    expect(
      says({ restartPolicy: "Never", restartPolicyRules: Array.from({ length: 20 }, () => rule()) }, "container", 35),
    ).toEqual([]);
    expect(
      says({ restartPolicy: "Never", restartPolicyRules: Array.from({ length: 21 }, () => rule()) }, "container", 35),
    ).toEqual(["spec.containers[0].restartPolicyRules: Too long: may not be more than 20 bytes"]);
  });

  it.each(["Never", "OnFailure"])("lets a regular init container set %s, with rules", (value) => {
    expect(says({ restartPolicy: value, restartPolicyRules: [rule()] }, "initContainer", 35)).toEqual([]);
  });

  it("lists all three policies for an init container's unknown one", () => {
    expect(says({ restartPolicy: "Sometimes" }, "initContainer", 35)).toEqual([
      `spec.initContainers[0].restartPolicy: Unsupported value: "Sometimes": supported values: ${policies}`,
    ]);
  });

  it("forbids rules on a sidecar", () => {
    expect(says({ restartPolicy: "Always" }, "initContainer", 35)).toEqual([]);
    expect(says({ restartPolicy: "Always", restartPolicyRules: [rule()] }, "initContainer", 35)).toEqual([
      "spec.initContainers[0].restartPolicyRules: Forbidden: restartPolicyRules are not allowed for init containers with restart policy Always",
    ]);
  });

  it("requires an init container's policy with rules, and looks no further", () => {
    expect(says({ restartPolicyRules: [{ action: "Stop" }] }, "initContainer", 35)).toEqual([
      "spec.initContainers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used",
    ]);
  });

  it("checks a template's containers as a Pod's (GetValidationOptionsFromPodTemplate)", () => {
    const at: FieldPath = ["spec", "template", "spec", "containers", 1];
    expect(says({ restartPolicy: "Never", restartPolicyRules: [rule()] }, "container", 35, at)).toEqual([]);
    expect(says({ restartPolicy: "Never", restartPolicyRules: [{ action: "Restart" }] }, "container", 35, at)).toEqual([
      "spec.template.spec.containers[1].restartPolicyRules[0].exitCodes: Required value: must be specified",
    ]);
  });
});

describe("1.36: RestartAllContainersOnContainerExits is beta and on", () => {
  it("accepts RestartAllContainers and lists both actions for another", () => {
    const rules = [rule({ action: "RestartAllContainers" }), rule({ action: "Stop" })];
    expect(says({ restartPolicy: "Never", restartPolicyRules: rules }, "container", 36)).toEqual([
      'spec.containers[0].restartPolicyRules[1].action: Unsupported value: "Stop": supported values: "Restart", "RestartAllContainers"',
    ]);
  });

  it("lets a sidecar have rules, and checks them", () => {
    expect(
      says(
        { restartPolicy: "Always", restartPolicyRules: [rule({ action: "RestartAllContainers" })] },
        "initContainer",
        36,
      ),
    ).toEqual([]);
    expect(says({ restartPolicy: "Always", restartPolicyRules: [{ action: "Restart" }] }, "initContainer", 36)).toEqual(
      ["spec.initContainers[0].restartPolicyRules[0].exitCodes: Required value: must be specified"],
    );
  });

  it("words the limits as field.TooMany (kubernetes#137136)", () => {
    const codes = Array.from({ length: 256 }, (_, i) => i);
    const rules = [rule({ exitCodes: { operator: "In", values: codes } }), ...Array.from({ length: 20 }, () => rule())];
    expect(says({ restartPolicy: "Never", restartPolicyRules: rules }, "container", 36)).toEqual([
      "spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items",
      "spec.containers[0].restartPolicyRules[0].exitCodes.values: Too many: 256: must have at most 255 items",
    ]);
  });
});
