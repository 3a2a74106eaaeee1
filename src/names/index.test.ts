import { describe, expect, it } from "vitest";
import { splitApiVersion } from "./index.js";

// apimachinery pkg/runtime/schema/group_version.go, ParseGroupVersion: a
// version alone is the core group's; otherwise the first slash divides.
describe("splitApiVersion", () => {
  it.each([
    ["v1", "", "v1"],
    ["apps/v1", "apps", "v1"],
    ["cert-manager.io/v1", "cert-manager.io", "v1"],
    ["a/b/c", "a", "b/c"],
    ["", "", ""],
  ])("%s is group %j, version %j", (apiVersion, group, version) => {
    expect(splitApiVersion(apiVersion)).toEqual({ group, version });
  });
});
