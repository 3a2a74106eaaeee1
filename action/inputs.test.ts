import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { defaultRelease, kubernetesReleases } from "../src/index.js";
import { getInputs } from "./inputs.js";

// @actions/core reads an input from INPUT_<NAME> (upper-cased, spaces to underscores).
const input = "INPUT_KUBERNETES-VERSION";

describe("the Action's kubernetes-version input", () => {
  afterEach(() => {
    delete process.env[input];
  });

  it("accepts 1.36 through releaseOf", () => {
    process.env[input] = " 1.36 ";
    expect(getInputs().kubernetesVersion).toBe("1.36");
  });

  it("leaves the choice to the configuration when empty, and names the input when unknown", () => {
    expect(getInputs().kubernetesVersion).toBeUndefined();
    process.env[input] = "1.37";
    expect(() => getInputs()).toThrow('kubernetes-version must be one of 1.32, 1.33, 1.34, 1.35, 1.36, not "1.37"');
  });
});

describe("action.yml, docs/action.md and getInputs", () => {
  const root = join(import.meta.dirname, "..");
  const action = parse(readFileSync(join(root, "action.yml"), "utf8")) as {
    inputs: Record<string, { description: string }>;
    outputs: Record<string, { description: string }>;
  };
  const docs = readFileSync(join(root, "docs/action.md"), "utf8");
  // The names in the first column of the table under a heading.
  const rows = (heading: string) => {
    const section = docs.slice(docs.indexOf(`\n## ${heading}\n`)).split(/\n## /)[1] ?? "";
    return [...section.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]);
  };

  it("agree on the inputs and outputs: each declared one has its row in the docs, each input is read", () => {
    expect(rows("Inputs").sort()).toEqual(Object.keys(action.inputs).sort());
    expect(rows("Outputs").sort()).toEqual(Object.keys(action.outputs).sort());
    // @actions/core reads an input from its INPUT_ variable: record which ones getInputs reads.
    const read = new Set<string>();
    const env = process.env;
    process.env = new Proxy(env, {
      get: (target, key) => {
        if (typeof key === "string") read.add(key);
        return Reflect.get(target, key);
      },
    });
    try {
      getInputs();
    } finally {
      process.env = env;
    }
    for (const name of Object.keys(action.inputs)) expect(read, name).toContain(`INPUT_${name.toUpperCase()}`);
  });

  it("name the Kubernetes releases kunion validates for", () => {
    const range = `${kubernetesReleases[0]} to ${kubernetesReleases.at(-1)}`;
    expect(action.inputs["kubernetes-version"]?.description).toContain(range);
    expect(action.inputs["kubernetes-version"]?.description).toContain(`else the newest (${defaultRelease})`);
    const row = docs.split("\n").find((l) => l.startsWith("| `kubernetes-version` |"));
    expect(row).toContain(range);
    expect(row).toContain(`else the newest (${defaultRelease})`);
  });
});
