import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { readConfigFile } from "./config.js";

// The configuration the README shows is one users copy: it must read with no finding, waivers included.
it("the README's .kunion.yaml example is a valid configuration", () => {
  const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");
  const example = /```yaml\n(rules:[\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const { config, findings } = readConfigFile(example ?? "", ".kunion.yaml");
  expect(findings).toEqual([]);
  expect(config.waivers?.[0]).toMatchObject({ rule: "enum-restricted", crd: "widgets.example.com" });
});
