/**
 * checkCheckout, the check `kunion check` and the Action share: an object's
 * base revision is found by kind, namespace and name wherever the base held
 * it, a file the change deletes included.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { widgetCrd } from "../../test/widget-crd.js";
import { checkCheckout } from "./check.js";

const crd = widgetCrd({
  properties: `spec:
  type: object
  properties:
    size: {type: string, x-kubernetes-validations: [{rule: self == oldSelf, message: size is immutable}]}`,
});
const widget = (size: string) =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: a, namespace: default }\nspec:\n  size: ${size}\n`;
const configMaps = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${prefix}${i} }\n`).join(
    "---\n",
  );

const root = mkdtempSync(join(tmpdir(), "kunion-check-"));
mkdirSync(join(root, "crds"));
writeFileSync(join(root, "crds/widgets.yaml"), crd);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const check = (after: string, deleted: string) =>
  checkCheckout(root, {
    changed: [{ path: "deploy/b.yaml", after }],
    deleted: [{ path: "deploy/a.yaml", text: deleted }],
    problems: [],
    config: { crds: ["crds/*.yaml"] },
  }).findings.map((f) => [f.rule, f.file, f.line, f.message]);

describe("checkCheckout", () => {
  it("takes an object moved into a new file from a deleted file (not paired by git) as an update of its old object", () => {
    const moved = check(`${configMaps("g", 3)}---\n${widget("big")}`, `${widget("small")}---\n${configMaps("f", 6)}`);
    expect(moved).toEqual([["cel", "deploy/b.yaml", 17, 'spec.size: Invalid value: "big": size is immutable']]);
    // Unchanged, the moved object passes the same rule.
    expect(check(`${configMaps("g", 3)}---\n${widget("small")}`, widget("small"))).toEqual([]);
  });

  it("reads a deleted file for its objects only: what is wrong in its old text is not reported", () => {
    expect(check(widget("big"), `${widget("small")}---\nitems: [\n`)).toEqual([
      ["cel", "deploy/b.yaml", 5, 'spec.size: Invalid value: "big": size is immutable'],
    ]);
  });
});
