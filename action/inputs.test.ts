import { afterEach, describe, expect, it } from "vitest";
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
