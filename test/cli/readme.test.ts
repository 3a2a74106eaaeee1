/** The README's CLI sample: its output block is what its validate commands print, line for line. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { run } from "../../src/cli/main.js";

const root = join(import.meta.dirname, "../..");

it("README's sample output is what its kunion validate commands print", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const sample = /## The CLI\n\n```sh\n([\s\S]*?)```\n\n```\n([\s\S]*?)```/.exec(readme);
  expect(sample).not.toBeNull();
  const [, commands = "", output = ""] = sample ?? [];
  const validations = commands.split("\n").filter((line) => line.startsWith("npx kunion validate "));
  expect(validations).toHaveLength(2);
  let printed = "";
  const cwd = process.cwd();
  process.chdir(root);
  try {
    for (const line of validations) {
      const argv = line.replace("npx kunion ", "").split(" ");
      const code = run(argv, { stdout: (t) => (printed += t), stderr: () => {}, color: false });
      expect(code, line).toBe(1);
    }
  } finally {
    process.chdir(cwd);
  }
  expect(output).toBe(printed);
});
