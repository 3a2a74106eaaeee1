import { describe, expect, it } from "vitest";
import { widgetCrd } from "../../test/widget-crd.js";
import { parseSource } from "../source/index.js";
import { validateObjects } from "./objects.js";
import { loadWorkspace } from "./workspace.js";

// The CRD's 16 lines, then a Widget whose metadata (line 20) names itself twice.
const crd = `${widgetCrd()}---
apiVersion: example.com/v1
kind: Widget
metadata: { name: a, name: b }
`;

describe("loadWorkspace", () => {
  it("compiles a CRD that only gives schemas when an object first needs it, and reports nothing of compiling it", () => {
    const rule =
      "spec: {type: object, properties: {size: {type: integer}}, x-kubernetes-validations: [{rule: 'self.size < 10'}, {rule: 'self.nope'}]}";
    const file = { path: "crds/widgets.yaml", text: widgetCrd({ properties: rule }) };
    const widget = (size: number) =>
      `apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\nspec: { size: ${size} }\n`;
    const load = (schemasOnly?: ReadonlySet<string>) =>
      loadWorkspace({ crds: [file], inputs: [{ path: "w.yaml", text: widget(12) }], schemasOnly });
    expect(load().findings.map((f) => f.field)).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule",
    ]);
    const deferred = load(new Set([file.path]));
    expect(deferred.findings).toEqual([]);
    expect(validateObjects(deferred.objects, deferred.catalog).map((f) => f.message)).toEqual([
      "spec: Invalid value: failed rule: self.size < 10",
    ]);
    // compiled once: a second object of the kind finds the same compilation
    const compiledOf = () => {
      const resolved = deferred.catalog.resolve("example.com/v1", "Widget");
      return resolved?.kind === "crd" ? resolved.compiled : undefined;
    };
    expect(compiledOf()).toBeDefined();
    expect(compiledOf()).toBe(compiledOf());
  });

  it("reads a file given both as CRDs and as an input once: one CRD, its findings once", () => {
    const file = { path: "deploy/all.yaml", text: crd };
    const { catalog, findings, objects } = loadWorkspace({ crds: [file], inputs: [{ ...file, text: `${crd}` }] });
    expect(catalog.crds.map((c) => c.kind)).toEqual(["Widget"]);
    expect(findings.map((f) => [f.file, f.line, f.message])).toEqual([
      ["deploy/all.yaml", 20, 'Invalid document: mapping key "name" already defined at line 20'],
    ]);
    // The CRD is an object to apply too; the Widget, which does not read, is none.
    expect(objects.map((o) => o.kind)).toEqual(["CustomResourceDefinition"]);
  });

  it("reads the same path with another text (an edited file) as another file", () => {
    const edited = crd.replace("name: a, name: b", "name: a");
    const { catalog, findings, objects } = loadWorkspace({
      crds: [{ path: "all.yaml", text: crd }],
      inputs: [{ path: "all.yaml", text: edited }],
    });
    expect(catalog.crds).toHaveLength(2);
    expect(findings).toHaveLength(1);
    expect(objects.map((o) => o.object.metadata)).toEqual([{ name: "widgets.example.com" }, { name: "a" }]);
  });

  it("takes a file its caller parsed as it is: its documents, not new ones, and its findings once", () => {
    const edited = `${crd.replace("name: a, name: b", "name: a")}---\nitems: [\n`;
    const parsed = { path: "all.yaml", text: edited, ...parseSource(edited, "all.yaml") };
    const fromParsed = loadWorkspace({ inputs: [parsed], old: [parsed] });
    const fromText = loadWorkspace({
      inputs: [{ path: "all.yaml", text: edited }],
      old: [{ path: "all.yaml", text: edited }],
    });
    expect(fromParsed.objects.map((o) => o.doc)).toEqual([parsed.documents[0], parsed.documents[1]]);
    expect(fromParsed.objects[1]?.doc).toBe(parsed.documents[1]);
    expect(fromParsed.findings).toEqual(fromText.findings);
    // Once as the input, once as the old revision: the same as two texts would give.
    expect(fromParsed.findings.filter((f) => f.rule === "parse")).toHaveLength(2);
  });

  // apiserver pkg/cel/environment: a CRD's new rule is compiled with the libraries of the server's compatibility
  // version (DefaultCompatibilityVersion, one minor below its own); base.go introduces TwoVarComprehensions at 1.32
  it("compiles a CRD's rules with the libraries the release's API server gives a new rule", () => {
    const text = widgetCrd({
      properties:
        "spec: {type: object, additionalProperties: {type: string}, x-kubernetes-validations: [{rule: \"self.all(k, v, v != '')\"}]}",
    });
    const ruleErrors = (kubernetesVersion: "1.32" | "1.33" | "1.36") =>
      loadWorkspace({ inputs: [{ path: "crd.yaml", text }], kubernetesVersion })
        .findings.filter((f) => f.rule === "cel")
        .map((f) => [f.line, f.detail?.split("\n")[0]]);
    // 1.32 compiles new rules with 1.31's libraries: no two-variable comprehensions; kunion adds which release does
    expect(ruleErrors("1.32")).toEqual([
      [16, "compilation failed: ERROR: <input>:1:9: undeclared reference to 'all' (in container '')"],
      [
        16,
        "compiles on Kubernetes 1.33 and later, whose CEL libraries have what it calls; kunion checks for 1.32 (--kubernetes-version, kubernetesVersion in .kunion.yaml)",
      ],
    ]);
    expect(ruleErrors("1.33")).toEqual([]);
    expect(ruleErrors("1.36")).toEqual([]);
  });
});

// apiextensions validation.go validateCustomResourceDefinitionSpec, after v1/conversion.go: a schema every
// version has alike is the internal type's spec.validation, validated once; a non-structural schema's CEL rules
// are not compiled, nor its defaults validated (validateCustomResourceDefinitionValidation)
describe("what the API server refuses in a CRD's schemas, where it says it", () => {
  const found = (text: string) => {
    const { findings } = loadWorkspace({ crds: [{ path: "crd.yaml", text }], inputs: [] });
    return findings.map((f) => `${f.line} ${f.message}`);
  };
  const typeless = "spec: {properties: {size: {type: integer}}}";
  const typelessMessage = "Required value: must not be empty for specified object fields";

  it("a schema all versions share: once, at spec.validation, on the line where the first version writes it", () => {
    const text = widgetCrd({ versions: ["v1", "v2"], properties: typeless });
    const line = text.split("\n").findIndex((l) => l.includes("spec: {properties")) + 1;
    expect(found(text)).toEqual([`${line} spec.validation.openAPIV3Schema.properties[spec].type: ${typelessMessage}`]);
  });

  it("versions with schemas of their own: each at its version", () => {
    const v2 = widgetCrd({ versions: ["v2"], properties: typeless });
    const text = `${widgetCrd()}${v2.slice(v2.indexOf("  - name: v2")).replace("storage: true", "storage: false")}`;
    const line = text.split("\n").findIndex((l) => l.includes("spec: {properties")) + 1;
    expect(found(text)).toEqual([
      `${line} spec.versions[1].schema.openAPIV3Schema.properties[spec].type: ${typelessMessage}`,
    ]);
  });

  it("a non-structural schema's CEL rules and defaults are left alone; a structural one's are refused", () => {
    const rule = "x-kubernetes-validations: [{rule: 'self.nope'}]";
    const def = "default: 5";
    const structural = found(
      widgetCrd({ properties: `spec: {type: object, ${rule}, properties: {a: {type: string, ${def}}}}` }),
    );
    expect(structural.map((m) => m.slice(m.indexOf(" ") + 1, m.indexOf(":"))).sort()).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].properties[a].default",
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
    ]);
    const nonStructural = found(widgetCrd({ properties: `spec: {${rule}, properties: {a: {type: string, ${def}}}}` }));
    expect(nonStructural.map((m) => m.slice(m.indexOf(" ") + 1))).toEqual([
      `spec.validation.openAPIV3Schema.properties[spec].type: ${typelessMessage}`,
    ]);
  });

  it("the rules of a node with a schema error at or below it are not compiled, as the server skips them", () => {
    const rule = (text: string) => `x-kubernetes-validations: [{rule: '${text}'}]`;
    const text = widgetCrd({
      properties: [
        `spec: {type: object, ${rule("self.nope == 1")}, properties: {tags: {type: array, uniqueItems: true, items: {type: string}}}}`,
        `other: {type: object, ${rule("self.x == 1")}}`,
      ].join("\n"),
    });
    const messages = found(text).map((m) => m.slice(m.indexOf(" ") + 1));
    expect(messages.map((m) => m.slice(0, m.indexOf(":")))).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems",
      "spec.validation.openAPIV3Schema.properties[other].x-kubernetes-validations[0].rule",
    ]);
  });

  it("the root's own rules (validateCustomResourceDefinitionValidation's) do not keep the root's rules from compiling", () => {
    const text = widgetCrd({ statusSubresource: true }).replace(
      "        type: object\n        properties:\n",
      "        type: object\n        nullable: true\n        x-kubernetes-validations: [{rule: 'self.nope == 1'}]\n        properties:\n",
    );
    const messages = found(text).map((m) => m.slice(m.indexOf(" ") + 1));
    expect(messages.map((m) => m.slice(0, m.indexOf(":")))).toEqual([
      "spec.validation.openAPIV3Schema",
      "spec.validation.openAPIV3Schema.nullable",
      "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule",
    ]);
  });

  it("a rule without its rule: once, in the schema validation's words, not also as the CRD type's bare Required", () => {
    const text = widgetCrd({ properties: "spec: {type: object, x-kubernetes-validations: [{message: m}]}" });
    const { catalog, findings, objects } = loadWorkspace({ inputs: [{ path: "crd.yaml", text }] });
    expect([...findings, ...validateObjects(objects, catalog)].map((f) => f.message)).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified",
    ]);
  });
});
