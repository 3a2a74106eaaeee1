/**
 * A file named with --crd must declare something: given a manifest in its place, kunion said nothing and
 * checked the custom resources against no schema. As a --conversion file that holds no Conversion, and
 * as the HTTP API's inline `crd` that is not one (a 422), it is an error on the file. A folder's files are
 * gathered among others (a project's config/), so only files named one by one are held to it.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { widgetCrd } from "../widget-crd.js";
import { folder, kunion, listOf } from "./run.js";

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n";
const crd = widgetCrd({ kind: "Gadget" });
const gadget = "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {size: 2}\n";
const smd =
  "types:\n  - name: io.example.Gadget\n    map:\n      fields:\n        - name: spec\n          type: {namedType: __untyped_atomic_}\n";
const holdsNone =
  "error input: Invalid document: the file holds no CustomResourceDefinition or structured-merge-diff schema";

describe("a file named with --crd that declares nothing", () => {
  const dir = folder({
    "settings.yaml": configMap,
    "gadgets.yaml": crd,
    "schema.yaml": smd,
    "broken.yaml": "a: [\n",
    "gadget.yaml": gadget,
    "config/settings.yaml": configMap,
    "config/gadgets.yaml": crd,
  });
  const at = (name: string) => join(dir, name);

  test("is an error on that file, for validate, normalize and convert", () => {
    const validated = kunion("validate", "--crd", at("settings.yaml"), at("gadget.yaml"));
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain(`${at("settings.yaml")}:1:1: ${holdsNone}`);
    const normalized = kunion("normalize", "--crd", at("settings.yaml"), at("gadget.yaml"));
    expect(normalized.stdout + normalized.stderr).toContain(`${at("settings.yaml")}:1:1: ${holdsNone}`);
    const converted = kunion(
      "convert",
      "--crd",
      at("settings.yaml"),
      "--conversion",
      "examples/conversions",
      "--to",
      "v2",
      at("gadget.yaml"),
    );
    expect(converted.code).toBe(1);
    expect(converted.stderr).toContain(`${at("settings.yaml")}:1:1: ${holdsNone}`);
  });

  test("a CRD, a structured-merge-diff schema or a folder of mixed files is no such error", () => {
    for (const crds of [["gadgets.yaml"], ["schema.yaml"], ["config"], ["config", "gadgets.yaml"]]) {
      const r = kunion("validate", ...crds.flatMap((c) => ["--crd", at(c)]), at("gadget.yaml"));
      expect(r.stdout, crds.join(" ")).not.toContain("holds no");
      if (!crds.includes("schema.yaml")) expect(r.code, crds.join(" ")).toBe(0);
    }
  });

  test("a List of CRDs, as kubectl get crd -o yaml prints it, declares them, located inside the list", () => {
    // a rule that does not compile: its finding names the line inside the list
    const broken = crd.replace(
      "spec: {type: object, properties: {size: {type: integer}}}",
      "spec: {type: object, properties: {size: {type: integer}}, x-kubernetes-validations: [{rule: 'self.colour == 1'}]}",
    );
    const list = folder({
      "crds.yaml": listOf(broken),
      "gadget.yaml": gadget.replace("size: 2", "size: two"),
    });
    const r = kunion("validate", "--crd", join(list, "crds.yaml"), join(list, "gadget.yaml"));
    expect(r.stdout).not.toContain("holds no");
    expect(r.stdout).toContain(`${join(list, "gadget.yaml")}:4:8: error schema: spec.size: Invalid value: "string"`);
    // the CRD's properties are its 16th line; the list puts it 3 lines down
    expect(r.stdout).toMatch(new RegExp(`${join(list, "crds.yaml")}:19:\\d+: error cel: .*undefined field 'colour'`));
  });

  test("crd-diff compares the CRDs of two Lists, by name, located inside the new list", () => {
    const sized = widgetCrd({
      properties: "spec: {type: object, properties: {size: {type: integer}, mode: {type: string}}}",
    });
    const dir = folder({
      "old.yaml": listOf(widgetCrd({ kind: "Gadget" }), sized),
      "new.yaml": listOf(widgetCrd()),
    });
    const r = kunion("crd-diff", join(dir, "old.yaml"), join(dir, "new.yaml"));
    expect(r.code).toBe(1);
    // the Widget lost spec.mode: reported on the Widget's properties, line 16 of the CRD, 19 of the list
    expect(r.stdout).toMatch(new RegExp(`${join(dir, "new.yaml")}:19:\\d+: error field-removed: .*spec\\.mode`));
    expect(r.stdout).toContain("the CustomResourceDefinition gadgets.example.com is gone");
  });

  test("a named file that does not parse has its syntax error only", () => {
    const r = kunion("validate", "--crd", at("broken.yaml"), at("gadget.yaml"));
    expect(r.stdout).toContain(`${at("broken.yaml")}:2:1: error parse:`);
    expect(r.stdout).not.toContain("holds no");
  });
});
