import { describe, expect, it } from "vitest";
import { draSelectorError } from "./dra.js";

const opts = { libraries: 35, consumableCapacity: false };
const err = (text: string, o = opts) => draSelectorError(text, o);

describe("draSelectorError (dynamic-resource-allocation/cel CompileCELExpression)", () => {
  it.each([
    'device.driver == "gpu.example.com"',
    'device.attributes["gpu.example.com"].model == "A100"',
    'device.attributes["gpu.example.com"].model',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("16Gi")) >= 0',
    'cel.bind(dra, device.attributes["dra.example.com"], dra.a && dra.b)',
    'device.attributes["gpu.example.com"].version.isGreaterThan(semver("1.0.0"))',
    '"gpu.example.com" in device.attributes',
  ])("compiles %s", (text) => {
    expect(err(text)).toBeUndefined();
  });

  it("a syntax error, in the words of kunion's parser (the same as a CRD rule's)", () => {
    expect(err("device.driver ==")).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  });

  it("an empty expression does not compile", () => {
    expect(err("")).toMatch(/^compilation failed: ERROR: <input>:1:1: Syntax error: /);
  });

  it("an undeclared variable", () => {
    expect(err("self.x == 1")).toBe(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'self' (in container '')\n | self.x == 1\n | ^",
    );
  });

  it("an unknown field of device", () => {
    expect(err("device.name == 'x'")).toBe(
      "compilation failed: ERROR: <input>:1:7: undefined field 'name'\n | device.name == 'x'\n | ......^",
    );
  });

  it("allowMultipleAllocations only under DRAConsumableCapacity", () => {
    expect(err("device.allowMultipleAllocations")).toMatch(/undefined field 'allowMultipleAllocations'/);
    expect(err("device.allowMultipleAllocations", { libraries: 35, consumableCapacity: true })).toBeUndefined();
  });

  it.each([
    ["device.driver", "string"],
    ["1 + 2", "int"],
    ['device.capacity["a"]["b"]', "kubernetes.Quantity"],
  ])("%s is no bool", (text, type) => {
    expect(err(text)).toBe(`must evaluate to bool or the unknown type, not ${type}`);
  });
});
