import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../source/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { compileSchema, validateWithSchema } from "./index.js";
import { lines, resource, run } from "./test-helpers.js";

// The validator with the CEL module (src/cel).

const errors = (findings: ReturnType<typeof run>["findings"]) => lines(findings.filter((f) => f.rule === "cel"));

describe("CEL through the validator", () => {
  const schema = {
    type: "object",
    properties: {
      min: { type: "integer" },
      max: { type: "integer" },
      name: {
        type: "string",
        "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "Value is immutable" }],
      },
      mode: { type: "string", default: "Pipeline" },
    },
    "x-kubernetes-validations": [
      { rule: "!has(self.min) || !has(self.max) || self.min <= self.max", message: "min must not exceed max" },
      { rule: "self.mode != 'Pipeline' || has(self.max)", message: "max is required in Pipeline mode" },
    ],
  };

  it("evaluates rules on the defaulted value, with rule 'cel' findings at the node's path", () => {
    const r = run(schema, { min: 3, max: 1 });
    expect(errors(r.findings)).toEqual(["error spec: Invalid value: min must not exceed max"]);
    expect(r.findings.find((f) => f.rule === "cel")?.path).toEqual(["spec"]);
    expect(errors(run(schema, { min: 1 }).findings)).toEqual([
      "error spec: Invalid value: max is required in Pipeline mode",
    ]);
  });

  it("runs transition rules only on update, against the correlated old value", () => {
    expect(errors(run(schema, { name: "a", max: 1 }).findings)).toEqual([]);
    expect(errors(run(schema, { name: "b", max: 1 }, { oldObject: { name: "a", max: 1 } }).findings)).toEqual([
      'error spec.name: Invalid value: "b": Value is immutable',
    ]);
  });

  it("a rule that does not compile is a finding with its schema path", () => {
    const { findings } = compileSchema(
      resource({ type: "object", "x-kubernetes-validations": [{ rule: "self.nope(" }] }),
    );
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]?.rule).toBe("cel");
    expect(findings[0]?.path.slice(0, 4)).toEqual(["properties", { key: "spec" }, "x-kubernetes-validations", 0]);
  });

  it("ratchets rules without oldSelf on unchanged values, as the API server does", () => {
    const r = run(schema, { min: 3, max: 1, name: "x" }, { oldObject: { min: 3, max: 1, name: "x" } });
    expect(r.findings.filter((f) => f.rule === "cel").map((f) => f.severity)).toEqual(["warning"]);
  });
});

const crossplane = join(import.meta.dirname, "../../../shared/corpus/crossplane");

describe.skipIf(!existsSync(crossplane))("crossplane validation cases with CEL", () => {
  const schemaOf = (file: string, version: string): JsonValue => {
    const crd = parseSource(readFileSync(join(crossplane, "crds", file), "utf8"), file).documents[0]
      ?.value as JsonObject;
    const versions = getKey(getKey(crd, "spec") as JsonObject, "versions") as JsonObject[];
    const v = versions.find((x) => getKey(x, "name") === version) as JsonObject;
    return getKey(getKey(v, "schema") as JsonObject, "openAPIV3Schema") as JsonValue;
  };
  const cases = join(crossplane, "validation-cases/test/e2e/manifests/apiextensions");
  const load = (path: string) => {
    const value = parseSource(readFileSync(join(cases, path), "utf8"), path).documents[0]?.value;
    if (!isObject(value)) throw new Error(path);
    return value;
  };

  it("Composition: mode defaults to Pipeline, which requires pipeline steps", () => {
    const { compiled } = compileSchema(schemaOf("apiextensions.crossplane.io_compositions.yaml", "v1"));
    const r = validateWithSchema(compiled, load("composition/validation/composition-invalid-missing-pipeline.yaml"));
    expect(
      r.findings
        .filter((f) => f.severity === "error")
        .map((f) => f.message)
        .join("\n"),
    ).toContain("an array of pipeline steps is required in Pipeline mode");
  });

  it("MRD: state cannot go from Active back to Inactive", () => {
    const { compiled } = compileSchema(
      schemaOf("apiextensions.crossplane.io_managedresourcedefinitions.yaml", "v1alpha1"),
    );
    const old = load("mrd/validation/mrd-valid-updated.yaml");
    const r = validateWithSchema(compiled, load("mrd/validation/mrd-active-to-inactive.yaml"), { oldObject: old });
    const messages = r.findings.filter((f) => f.severity === "error").map((f) => f.message);
    expect(messages.join("\n")).toContain("spec.state");
    expect(
      validateWithSchema(compiled, old, { oldObject: old }).findings.filter((f) => f.severity === "error"),
    ).toEqual([]);
  });
});
