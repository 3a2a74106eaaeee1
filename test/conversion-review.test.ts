import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertersFor, handleConversionReview, parseSource, readConversion } from "../src/index.js";

// Real ConversionReviews through the kubebuilder CronJob declaration, as the API server sends them.
const text = readFileSync(join(import.meta.dirname, "../examples/conversions/cronjob.yaml"), "utf8");
const [doc] = parseSource(text, "cronjob.yaml").documents;
const { conversion } = doc ? readConversion(doc) : { conversion: undefined };
if (!conversion) throw new Error("the example declaration must read");
const converters = convertersFor([conversion]);
const group = "batch.tutorial.kubebuilder.io";

const cronjob = (version: string, name: string, schedule: unknown) => ({
  apiVersion: `${group}/${version}`,
  kind: "CronJob",
  metadata: { name, namespace: "default", uid: `uid-${name}` },
  spec: { schedule, startingDeadlineSeconds: 60 },
});
/** The parts of a converted object these tests read. */
type Converted = {
  apiVersion: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { schedule: unknown };
};

const review = (apiVersion: string, desired: string, objects: unknown[]) => ({
  apiVersion,
  kind: "ConversionReview",
  request: { uid: "705ab4f5-6393-11e8-b7cc-42010a800002", desiredAPIVersion: `${group}/${desired}`, objects },
});

describe("ConversionReview through a declared conversion", () => {
  it.each(["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"])(
    "%s: mixed source versions, in order",
    (apiVersion) => {
      const objects = [
        cronjob("v1", "a", "*/1 * * * *"),
        cronjob("v2", "b", { minute: "0", hour: "3" }),
        cronjob("v1", "c", "@hourly"),
      ];
      const { status, body } = handleConversionReview(review(apiVersion, "v2", objects), converters);
      expect(status).toBe(200);
      const response = (
        body as { apiVersion: string; response: { uid: string; result: unknown; convertedObjects: Converted[] } }
      ).response;
      expect((body as { apiVersion: string }).apiVersion).toBe(apiVersion);
      expect(response.uid).toBe("705ab4f5-6393-11e8-b7cc-42010a800002");
      expect(response.result).toEqual({ status: "Success" });
      expect(response.convertedObjects.map((o) => [o.apiVersion, o.metadata.name])).toEqual([
        [`${group}/v2`, "a"],
        [`${group}/v2`, "b"],
        [`${group}/v2`, "c"],
      ]);
      expect(response.convertedObjects[0]?.spec.schedule).toEqual({ minute: "*/1" });
      expect(response.convertedObjects[1]).toEqual(objects[1]);
      expect(response.convertedObjects[2]?.metadata.annotations?.["kunion.dev/conversion-data"]).toBeDefined();
    },
  );

  it("fails the whole review when one object cannot be converted, naming it", () => {
    const objects = [cronjob("v1", "ok", "*/1 * * * *"), cronjob("v1", "bad", "0 0 0 0 0 0")];
    const { status, body } = handleConversionReview(review("apiextensions.k8s.io/v1", "v2", objects), converters);
    expect(status).toBe(200);
    const response = (
      body as { response: { convertedObjects: unknown[]; result: { status: string; message: string } } }
    ).response;
    expect(response.convertedObjects).toEqual([]);
    expect(response.result.status).toBe("Failure");
    expect(response.result.message).toContain("default/bad");
    expect(response.result.message).toContain("not a standard 5-field schedule");
  });

  it("converts back losslessly: v1 @hourly -> v2 -> v1", () => {
    const there = handleConversionReview(
      review("apiextensions.k8s.io/v1", "v2", [cronjob("v1", "h", "@hourly")]),
      converters,
    );
    const v2 = (there.body as { response: { convertedObjects: unknown[] } }).response.convertedObjects;
    const back = handleConversionReview(review("apiextensions.k8s.io/v1", "v1", v2), converters);
    const [v1] = (back.body as { response: { convertedObjects: Converted[] } }).response.convertedObjects;
    expect(v1?.spec.schedule).toBe("@hourly");
    expect(v1?.metadata.annotations?.["kunion.dev/conversion-data"]).toBeUndefined();
  });

  it("an unknown desired version fails, listing the versions known", () => {
    const { body } = handleConversionReview(
      review("apiextensions.k8s.io/v1", "v9", [cronjob("v1", "a", "* * * * *")]),
      converters,
    );
    const { result } = (body as { response: { result: { status: string; message: string } } }).response;
    expect(result.status).toBe("Failure");
    expect(result.message).toContain('known versions: "v2", "v1"');
  });
});
