import { describe, expect, it } from "vitest";
import { widgetCrd } from "../../test/widget-crd.js";
import { parseSource } from "../source/index.js";
import { loadWorkspace } from "./workspace.js";

// The CRD's 16 lines, then a Widget whose metadata (line 20) names itself twice.
const crd = `${widgetCrd()}---
apiVersion: example.com/v1
kind: Widget
metadata: { name: a, name: b }
`;

describe("loadWorkspace", () => {
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
});
