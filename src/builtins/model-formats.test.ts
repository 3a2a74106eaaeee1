import { describe, expect, it } from "vitest";
import { formats } from "./model-formats.js";

// metav1.Time decodes with time.Parse(time.RFC3339)
// (kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go UnmarshalJSON);
// resource.Quantity with ParseQuantity (staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go).
describe("the formats of built-in kinds follow the API server's decoders", () => {
  it.each([
    ["2024-02-30T00:00:00Z", false], // 30 February
    ["2024-01-02 03:04:05Z", false], // a space separator
    ["2016-12-31T23:59:60Z", false], // second 60
    ["2024-01-02t03:04:05z", false],
    ["2024-02-29T23:59:59.123+05:30", true],
    ["2024-01-02T03:04:05Z", true],
  ])("date-time %s: %s", (value, ok) => {
    expect(formats["date-time"].validate(value)).toBe(ok);
  });

  it.each([
    ["100m", true],
    ["1.5Gi", true],
    ["1e3", true],
    ["1.G", true],
    ["-.Ei", false], // no digit at all: ParseQuantity's numeric error
    ["1i", false],
    [" 1", false],
  ])("quantity %j: %s", (value, ok) => {
    expect(formats.quantity.validate(value)).toBe(ok);
  });
});
