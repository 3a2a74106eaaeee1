/**
 * `.kunion.yaml` waivers in every command that reports findings: crd-diff and
 * validate accept a waived finding as kunion check does (a notice saying why),
 * so the pre-commit hooks can be waived too.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { widgetCrd } from "../widget-crd.js";
import { folder, kunion, listOf } from "./run.js";

const widgets = (modes: string) =>
  widgetCrd({ properties: `spec: {type: object, properties: {mode: {type: string, enum: [${modes}]}}}` });

// README's example waiver.
const readmeWaiver = (expires: string) => `waivers:
  - rule: enum-restricted
    crd: widgets.example.com
    path: spec.mode
    reason: the experimental mode is withdrawn, announced in v0.9
    expires: ${expires}
`;

const recreate = `apiVersion: apps/v1
kind: Deployment
metadata: {name: w}
spec:
  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec: {containers: [{name: w, image: nginx}]}
`;

describe("waivers in kunion crd-diff", () => {
  const dir = folder({ "old.yaml": widgets("a, b, c"), "new.yaml": widgets("a, b") });
  const diff = (config: string) =>
    kunion("crd-diff", "--config", join(dir, config), join(dir, "old.yaml"), join(dir, "new.yaml"));

  it("a waived finding is a notice with the waiver's reason, exit 0", () => {
    writeFileSync(join(dir, "waived.yaml"), readmeWaiver("2999-03-01"));
    const { code, stdout } = diff("waived.yaml");
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /new\.yaml:\d+:\d+: notice enum-restricted: .*\(waived: the experimental mode is withdrawn, announced in v0\.9\)/,
    );
  });

  it("a waiver for another CRD or path leaves the error; an expired one says so", () => {
    writeFileSync(join(dir, "other.yaml"), readmeWaiver("2999-03-01").replace("path: spec.mode", "path: spec.size"));
    expect(diff("other.yaml")).toMatchObject({ code: 1, stdout: expect.stringMatching(/error enum-restricted/) });
    writeFileSync(join(dir, "expired.yaml"), readmeWaiver("2020-03-01"));
    const expired = diff("expired.yaml");
    expect(expired.code).toBe(1);
    expect(expired.stdout).toMatch(/error enum-restricted/);
    expect(expired.stdout).toMatch(
      /expired\.yaml:6:\d+: notice waiver: waivers\[0\]: the waiver expired on 2020-03-01/,
    );
  });
});

describe("waivers in kunion validate", () => {
  it("a waiver by rule and kind accepts the finding as kunion check does", () => {
    const dir = folder({
      "recreate.yaml": recreate,
      "waived.yaml": "waivers:\n  - rule: union\n    kind: Deployment\n    reason: rolled out by hand\n",
      "other.yaml": "waivers:\n  - rule: union\n    kind: StatefulSet\n    reason: rolled out by hand\n",
    });
    const waived = kunion("validate", "--config", join(dir, "waived.yaml"), join(dir, "recreate.yaml"));
    expect(waived.code).toBe(0);
    expect(waived.stdout).toMatch(
      /recreate\.yaml:5:\d+: notice union: spec\.strategy\.rollingUpdate: Forbidden: .* \(waived: rolled out by hand\)/,
    );
    const other = kunion("validate", "--config", join(dir, "other.yaml"), join(dir, "recreate.yaml"));
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/error union: spec\.strategy\.rollingUpdate/);
  });

  it("a waiver by kind accepts a finding inside a kind: List item of that kind, and no other item's", () => {
    const badConfigMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n";
    const dir = folder({
      "list.yaml": listOf(badConfigMap, recreate),
      "waived.yaml": "waivers:\n  - rule: union\n    kind: Deployment\n    reason: rolled out by hand\n",
    });
    const r = kunion("validate", "--config", join(dir, "waived.yaml"), join(dir, "list.yaml"));
    // the Deployment is the second item: its strategy on line 5 of its text, 3 + 4 lines down
    expect(r.stdout).toMatch(
      /list\.yaml:12:\d+: notice union: spec\.strategy\.rollingUpdate: .* \(waived: rolled out by hand\)/,
    );
    // the ConfigMap's error is not the Deployment's to waive
    expect(r.stdout).toMatch(/list\.yaml:7:\d+: error schema: data\.a/);
    expect(r.code).toBe(1);
  });
});
