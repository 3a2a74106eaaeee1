/**
 * checkChanges reads each side of each changed file once and reports what
 * reading found once, whichever checks (the CRD comparison, the workspace,
 * validation, the round-trip check of a conversion declaration) look at the
 * documents.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { widgetCrd } from "../../test/widget-crd.js";
import type { Finding } from "../findings/index.js";
import { parseSource } from "../source/index.js";
import { checkChanges } from "./changes.js";

// One line of properties: line 16, the CRD's last.
const crd = (properties: string) => widgetCrd({ properties: `spec: {type: object, properties: {${properties}}}` });

const sized = crd("size: {type: integer}, mode: {type: string}");
const broken = "---\nitems: [\n";

const root = join(import.meta.dirname, "../..");
const declaration = readFileSync(join(root, "examples/conversions/cronjob.yaml"), "utf8");
const cronJobCrd = { path: "crd.yaml", text: readFileSync(join(root, "test/fuzz/cronjob-crd.yaml"), "utf8") };

// Lines that break YAML, or a document, in different ways; put anywhere in a side (or not).
const breaker = fc.constantFrom("items: [", "a: {", "\tb: 1", "c: *nowhere", "d: 1\nd: 2", "- e", ": :", "%YAML 9");
const side = fc.tuple(fc.boolean(), fc.nat(sized.split("\n").length), breaker).map(([damaged, at, text]) => {
  if (!damaged) return sized;
  const lines = sized.split("\n");
  lines.splice(at, 0, text);
  return lines.join("\n");
});

const key = (f: Finding) => JSON.stringify([f.file, f.line, f.column, f.document, f.message]);

describe("checkChanges", () => {
  it("reports a syntax error in a changed CRD file once, and still compares its CRD", () => {
    const found = checkChanges([
      { path: "crd.yaml", before: sized, after: `${crd("size: {type: integer}")}${broken}` },
    ]);
    const parsed = found.filter((f) => f.rule === "parse");
    expect(parsed.map((f) => [f.file, f.line, f.document])).toEqual([["crd.yaml", 19, 1]]);
    expect(found.filter((f) => f.type === "CrdChange").map((f) => [f.rule, f.file, f.line])).toEqual([
      ["field-removed", "crd.yaml", 16],
    ]);
  });

  it("reports a syntax error of the base revision once", () => {
    const found = checkChanges([{ path: "crd.yaml", before: `${sized}${broken}`, after: sized }]);
    expect(found.filter((f) => f.rule === "parse").map((f) => [f.file, f.line, f.document])).toEqual([
      ["crd.yaml", 19, 1],
    ]);
  });

  it("reports each finding of reading either side as often as reading that side gives it", () => {
    fc.assert(
      fc.property(side, side, (before, after) => {
        const expected = [...parseSource(before, "crd.yaml").findings, ...parseSource(after, "crd.yaml").findings].map(
          key,
        );
        const reported = checkChanges([{ path: "crd.yaml", before, after }]).map(key);
        for (const k of new Set(expected)) {
          expect(reported.filter((r) => r === k).length).toBe(expected.filter((e) => e === k).length);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("gives the same findings for sides its caller parsed as for texts", () => {
    fc.assert(
      fc.property(side, side, fc.boolean(), (before, after, parseBefore) => {
        const parsed = {
          after: parseSource(after, "crd.yaml"),
          before: parseBefore ? parseSource(before, "crd.yaml") : undefined,
        };
        const fromTexts = checkChanges([{ path: "crd.yaml", before, after }]).map(key);
        expect(checkChanges([{ path: "crd.yaml", before, after, parsed }]).map(key)).toEqual(fromTexts);
      }),
      { numRuns: 30 },
    );
  });

  it("takes the sides its caller parsed as they are, without parsing their texts again", () => {
    // What the caller's parse found is what is reported: the text itself would parse cleanly.
    const parsed = { after: parseSource(`${sized}${broken}`, "crd.yaml") };
    const found = checkChanges([{ path: "crd.yaml", before: sized, after: sized, parsed }]);
    expect(found.filter((f) => f.rule === "parse").map((f) => [f.file, f.line])).toEqual([["crd.yaml", 19]]);
  });

  it("reports a syntax error in a changed conversion declaration once, and still round-trips the declaration", () => {
    const found = checkChanges([{ path: "conv.yaml", before: declaration, after: `${declaration}${broken}` }], {
      crds: [cronJobCrd],
    });
    expect(found.filter((f) => f.rule === "parse").map((f) => [f.file, f.document])).toEqual([["conv.yaml", 1]]);
    // The sample schedules the declaration's own assert refuses: proof the round trip ran on the parsed declaration.
    expect(found.filter((f) => f.rule === "round-trip").map((f) => f.file)).toEqual(["conv.yaml"]);
  });

  it("reports what reading a changed conversion declaration found once", () => {
    const found = checkChanges(
      [{ path: "conv.yaml", before: declaration, after: declaration.replace("hub: v2", "hub: v9") }],
      {
        crds: [cronJobCrd],
      },
    );
    expect(found.filter((f) => f.rule === "conversion").map((f) => [f.file, f.line, f.field])).toEqual([
      ["conv.yaml", 12, "spec.hub"],
    ]);
  });

  it("says in a notice, in its own words, how many changed files hold templates and are not checked", () => {
    const template = "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: {{ .Values.name }} }\n";
    const found = checkChanges([
      { path: "chart/a.yaml", after: template },
      { path: "chart/b.yaml", after: template },
    ]);
    expect(found.map((f) => [f.rule, f.severity, f.file, f.message])).toEqual([
      ["skipped", "notice", "chart/a.yaml", "2 changed file(s) hold templates ({{ … }}), not manifests: not checked"],
    ]);
  });

  it("takes a kustomize patch among the repository's CRDs (a partial CRD, as kubebuilder scaffolds) without a finding", () => {
    const patch = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  conversion: { strategy: Webhook, webhook: { conversionReviewVersions: [v1] } }
`;
    const widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\nspec: { size: 1 }\n";
    const crds = [
      { path: "config/crd/bases/widgets.yaml", text: sized },
      { path: "config/crd/patches/webhook_in_widgets.yaml", text: patch },
    ];
    expect(checkChanges([{ path: "deploy/w.yaml", after: widget }], { crds })).toEqual([]);
  });
  it("reports nothing of the repository's unchanged CRDs, which only give schemas: their errors and duplicates were there before", () => {
    const wrong = crd("size: {type: strign}").replace("widgets.example.com", "gadgets.example.com");
    const other = crd("size: {type: string}");
    const configMap = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a }\ndata: { a: "${v}" }\n`;
    const crds = [
      {
        path: "crds/gadgets.yaml",
        text: wrong.replace("kind: Widget", "kind: Gadget").replace("plural: widgets", "plural: gadgets"),
      },
      { path: "crds/widgets.yaml", text: sized },
      { path: "crds/widgets-again.yaml", text: other },
      { path: "crds/broken.yaml", text: broken },
    ];
    // each of them alone, as a changed file, is reported
    for (const f of crds)
      expect(checkChanges([{ path: f.path, after: f.text }], { crds: crds.filter((c) => c !== f) })).not.toEqual([]);
    expect(checkChanges([{ path: "cm.yaml", before: configMap("b"), after: configMap("c") }], { crds })).toEqual([]);
    // a manifest is still checked against them
    const widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\nspec: { size: one }\n";
    expect(checkChanges([{ path: "w.yaml", after: widget }], { crds }).map((f) => [f.file, f.rule])).toEqual([
      ["w.yaml", "schema"],
    ]);
  });

  it("gives a built-in kind's rules the base revision: a StatefulSet's already-invalid pod spec stays updatable", () => {
    const sts = (replicas: number, image: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: prod }
spec:
  replicas: ${replicas}
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: db${image} }] }
`;
    const messages = (before: string | undefined, after: string) =>
      checkChanges([{ path: "db.yaml", before, after }]).map((f) => f.message);
    const imageRequired = "spec.template.spec.containers[0].image: Required value";
    expect(messages(undefined, sts(1, ""))).toEqual([imageRequired]);
    expect(messages(sts(1, ""), sts(2, ""))).toEqual([]);
    expect(messages(sts(1, ", image: postgres"), sts(2, ""))).toEqual([imageRequired]);
  });

  it("puts the notice of a changed CRD that a repository CRD declares differently on the changed file", () => {
    const crds = [{ path: "crds/standard/widgets.yaml", text: sized }];
    const changed = crd("size: {type: integer}");
    const found = checkChanges([{ path: "crds/experimental/widgets.yaml", before: changed, after: changed }], { crds });
    expect(found.map((f) => [f.file, f.rule, f.severity])).toEqual([
      ["crds/experimental/widgets.yaml", "crd-duplicate", "notice"],
    ]);
  });
});

// apiextensions validation.go: a version whose schema an update leaves as it was keeps its rules whatever their
// estimated cost (versionsWithUnchangedSchemas, suppressPerExpressionCost); the schema's total is still checked
describe("the rules' estimated cost on an update", () => {
  const costly = (versions: string[], extra = "") =>
    widgetCrd({
      versions,
      properties: `spec: {type: object, properties: {tags: {type: array, items: {type: string}}${extra}}, x-kubernetes-validations: [{rule: "self.tags.all(x, x.contains('gpu'))"}]}`,
    });
  const perRule = (found: Finding[]) =>
    found.filter((f) => f.detail.startsWith("estimated rule cost exceeds budget")).map((f) => f.field);
  const total = (found: Finding[]) =>
    found.filter((f) => f.detail.startsWith("x-kubernetes-validations estimated rule cost total")).length;
  const ruleOf = (v: number) =>
    `spec.versions[${v}].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule`;
  // a schema all versions share is the internal type's top-level one (v1/conversion.go)
  const commonRule = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule";

  it("a new CRD's costly rule is refused", () => {
    expect(perRule(checkChanges([{ path: "crd.yaml", after: costly(["v1"]) }]))).toEqual([commonRule]);
  });
  it("a version the change leaves as it was keeps it; a version it changes, or adds, does not", () => {
    const added = costly(["v2"], ", size: {type: integer}");
    const after = `${costly(["v1"])}${added.slice(added.indexOf("  - name: v2")).replace("storage: true", "storage: false")}`;
    const found = checkChanges([{ path: "crd.yaml", before: costly(["v1"]), after }]);
    expect(perRule(found)).toEqual([ruleOf(1)]);
    expect(total(found)).toBe(2);
    const edited = checkChanges([
      { path: "crd.yaml", before: costly(["v1"]), after: costly(["v1"], ", size: {type: integer}") },
    ]);
    expect(perRule(edited)).toEqual([commonRule]);
  });
  it("a schema every version shares keeps it when the first version's is unchanged (suppressExpressionCostForUnchangedSchema of spec.version)", () => {
    const found = checkChanges([{ path: "crd.yaml", before: costly(["v1"]), after: costly(["v1", "v2"]) }]);
    expect(perRule(found)).toEqual([]);
    expect(total(found)).toBe(1);
  });
});

// apiextensions validation.go preexistingExpressions: on an update, an expression the old CRD had is compiled
// with every library the server's environment has (StoredExpressions), a new one with its compatibility version's
describe("the CEL libraries of an update", () => {
  const labelled = (rules: string[], extra = "") =>
    widgetCrd({
      properties: `spec: {type: object, additionalProperties: {type: string}${extra}, x-kubernetes-validations: [${rules.map((r) => `{rule: "${r}"}`).join(", ")}]}`,
    });
  const twoVariables = "self.all(k, v, v != '')";
  const undeclared = (found: Finding[]) =>
    found.filter((f) => f.detail.includes("undeclared reference to 'all'")).map((f) => f.field);
  it("a rule the old CRD had compiles on 1.32, a new one does not", () => {
    const options = { kubernetesVersion: "1.32" as const };
    const kept = checkChanges(
      [{ path: "crd.yaml", before: labelled([twoVariables]), after: labelled([twoVariables], ", maxProperties: 5") }],
      options,
    );
    expect(undeclared(kept)).toEqual([]);
    const added = checkChanges(
      [{ path: "crd.yaml", before: labelled(["self.size() > 0"]), after: labelled(["self.size() > 0", twoVariables]) }],
      options,
    );
    expect(undeclared(added)).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule",
    ]);
    expect(undeclared(checkChanges([{ path: "crd.yaml", after: labelled([twoVariables]) }], options))).toHaveLength(1);
  });
});
