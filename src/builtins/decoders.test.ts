/**
 * Kubernetes' own kinds decode their formats with their Go types, not with
 * the strfmt rules a CRD's `format` gets:
 * - metav1.Time: UnmarshalJSON parses with Go's time.Parse(time.RFC3339)
 *   (kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go;
 *   golang/go src/time/format.go), which checks the day against the month,
 *   refuses second 60 and wants the `T`;
 * - metav1.MicroTime: time.Parse(RFC3339Micro), exactly six fraction digits (micro_time.go);
 * - `[]byte`: encoding/json's base64.StdEncoding, where "" is empty and newlines are skipped.
 * A CRD's `format: date-time` keeps kube-openapi's strfmt.IsDateTime.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildCatalog, validateObject } from "../check/index.js";
import { run } from "../cli/main.js";
import { documentOf } from "../source/index.js";
import type { JsonObject } from "../value/index.js";

const { catalog } = buildCatalog([], []);
const said = (object: JsonObject) =>
  validateObject(catalog, object.apiVersion as string, object.kind as string, object).map((f) => f.message);

const cronJob = (lastScheduleTime: string, creationTimestamp?: string): JsonObject => ({
  apiVersion: "batch/v1",
  kind: "CronJob",
  metadata: creationTimestamp === undefined ? { name: "c" } : { name: "c", creationTimestamp },
  spec: {
    schedule: "*/5 * * * *",
    jobTemplate: {
      spec: { template: { spec: { restartPolicy: "OnFailure", containers: [{ name: "c", image: "busybox" }] } } },
    },
  },
  status: { lastScheduleTime },
});
const lease = (spec: JsonObject): JsonObject => ({
  apiVersion: "coordination.k8s.io/v1",
  kind: "Lease",
  metadata: { name: "l" },
  spec,
});

describe("metav1.Time fields decode with time.Parse(time.RFC3339)", () => {
  it.each([
    ["2024-02-30T00:00:00Z", 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    [
      "2024-01-02 03:04:05Z",
      'parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T"',
    ],
    ["2016-12-31T23:59:60Z", 'parsing time "2016-12-31T23:59:60Z": second out of range'],
    // strfmt (a CRD's date-time) lower-cases first; Go's layout wants `T` and `Z`.
    [
      "2024-01-02t03:04:05z",
      'parsing time "2024-01-02t03:04:05z" as "2006-01-02T15:04:05Z07:00": cannot parse "t03:04:05z" as "T"',
    ],
    ["", 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'],
  ])("a CronJob's status.lastScheduleTime %j is refused", (value, error) => {
    expect(said(cronJob(value))).toEqual([
      `status.lastScheduleTime: Invalid value: ${JSON.stringify(value)}: ${error}`,
    ]);
  });

  it("decodes metadata.creationTimestamp the same way", () => {
    expect(said(cronJob("2024-01-02T03:04:05Z", "2024-02-30T00:00:00Z"))).toEqual([
      'metadata.creationTimestamp: Invalid value: "2024-02-30T00:00:00Z": parsing time "2024-02-30T00:00:00Z": day out of range',
    ]);
  });

  it.each(["2024-01-02T03:04:05Z", "2024-02-29T23:59:59.123+05:30", "2024-01-02T03:04:05.123456789-08:00"])(
    "accepts %s",
    (value) => {
      expect(said(cronJob(value, value))).toEqual([]);
    },
  );
});

describe("metav1.MicroTime fields decode with RFC3339Micro", () => {
  it("accepts six fraction digits in a Lease's renewTime and acquireTime", () => {
    const at = "2024-01-02T03:04:05.123456Z";
    expect(said(lease({ holderIdentity: "a", renewTime: at, acquireTime: at }))).toEqual([]);
  });

  it("refuses a plain RFC 3339 time and nine digits", () => {
    expect(said(lease({ renewTime: "2024-01-02T03:04:05Z", acquireTime: "2024-01-02T03:04:05.123456789Z" }))).toEqual([
      'spec.renewTime: Invalid value: "2024-01-02T03:04:05Z": parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
      'spec.acquireTime: Invalid value: "2024-01-02T03:04:05.123456789Z": parsing time "2024-01-02T03:04:05.123456789Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "789Z" as "Z07:00"',
    ]);
  });

  it("applies to an events.k8s.io Event's eventTime", () => {
    const event: JsonObject = {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: "e" },
      eventTime: "2024-01-02T03:04:05Z",
    };
    expect(said(event)).toEqual([
      'eventTime: Invalid value: "2024-01-02T03:04:05Z": parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    ]);
  });
});

describe("[]byte fields decode with base64.StdEncoding", () => {
  const secret = (data: JsonObject): JsonObject => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "s" },
    data,
  });

  it("accepts an empty value and newlines, as Go's decoder does", () => {
    expect(said(secret({ empty: "", wrapped: "aGVs\nbG8=\n" }))).toEqual([]);
  });

  it("refuses a value that is not padded base64, naming the key and Go's offset", () => {
    expect(said(secret({ "tls.crt": "aGVsbG8" }))).toEqual([
      'data[tls.crt]: Invalid value: "aGVsbG8": illegal base64 data at input byte 4',
    ]);
  });
});

describe("a CRD's format: date-time keeps kube-openapi's strfmt rule", () => {
  const crd: JsonObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      names: { kind: "Widget", plural: "widgets" },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: { spec: { type: "object", properties: { at: { type: "string", format: "date-time" } } } },
            },
          },
        },
      ],
    },
  };
  const widgets = buildCatalog([documentOf(crd, "crd.yaml")]).catalog;
  const widget = (at: string) =>
    validateObject(widgets, "example.com/v1", "Widget", {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { at },
    }).map((f) => f.message);

  it("accepts a lower-case t, which metav1.Time refuses", () => {
    expect(widget("2024-01-02t03:04:05z")).toEqual([]);
  });

  it("refuses 30 February in kube-openapi's words", () => {
    expect(widget("2024-02-30T00:00:00Z")).toEqual([
      'spec.at: Invalid value: "2024-02-30T00:00:00Z": spec.at in body must be of type date-time: "2024-02-30T00:00:00Z"',
    ]);
  });
});

describe("through the CLI", () => {
  it("reports a bad metav1.Time and MicroTime with file, line and field, and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "kunion-decoders-"));
    const file = join(dir, "objects.yaml");
    writeFileSync(
      file,
      [
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  creationTimestamp: 2024-01-02 03:04:05Z\n",
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l}\nspec:\n  renewTime: 2016-12-31T23:59:60.000000Z\n",
      ].join("---\n"),
    );
    let stdout = "";
    const code = run(["validate", file], { stdout: (t) => (stdout += t), stderr: () => {}, color: false });
    expect(code).toBe(1);
    expect(stdout.replaceAll(`${dir}/`, "").trim().split("\n")).toEqual([
      'objects.yaml:5:3: error schema: metadata.creationTimestamp: Invalid value: "2024-01-02 03:04:05Z": parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T"',
      'objects.yaml:11:3: error schema: spec.renewTime: Invalid value: "2016-12-31T23:59:60.000000Z": parsing time "2016-12-31T23:59:60.000000Z": second out of range',
    ]);
  });
});

describe("resource.Quantity fields decode with ParseQuantity, from a string or a number", () => {
  // apimachinery pkg/api/resource/quantity.go: UnmarshalJSON parses a JSON string's content or a number's
  // text; anything else fails with ErrFormatWrong, which makes the body undecodable.
  const wrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const pod = (limits: JsonObject): JsonObject => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers: [{ name: "c", image: "busybox", resources: { limits } }] },
  });
  it("accepts strings and numbers in every Quantity spelling", () => {
    expect(said(pod({ cpu: "500m", memory: "1Gi" }))).toEqual([]);
    expect(said(pod({ cpu: 0.5, memory: 1e9 }))).toEqual([]);
  });
  it.each([
    ["1x", '"1x"'],
    [[], "[]"],
    [true, "true"],
  ])("refuses %j with Go's error, once", (cpu, shown) => {
    expect(said(pod({ cpu } as JsonObject))).toEqual([
      `spec.containers[0].resources.limits[cpu]: Invalid value: ${shown}: ${wrong}`,
    ]);
  });
});
