/**
 * unrecognizedFormatWarnings: the `unrecognized format %q` warnings of apiextensions-apiserver's
 * CRD strategy (pkg/registry/customresourcedefinition/strategy.go: WarningsOnCreate,
 * getUnrecognizedFormatsInCRD, getUnrecognizedFormatsInSchema over validation.SchemaHas),
 * judged by pkg/apiserver/validation/formats.go GetUnrecognizedFormats at
 * environment.DefaultCompatibilityVersion() (the server's minor − 1), texts de-duplicated as
 * apiserver's warning recorder (pkg/endpoints/filters/warning.go) does.
 *
 * Cases taken from Kubernetes' own tests:
 * - formats_test.go TestGetUnrecognizedFormats (1.34/1.35 form): "recognized format at version
 *   1.0" (email), "unrecognized format at version 1.0" (unknown-format), "recognized format with
 *   normalization" / "unrecognized format with normalization" (k8s-short-name at 1.34,
 *   k8s-long-name at 1.33), "format with dash normalization" (k8sshortname), "unrecognized format
 *   for integer type is not reported", "… for no type is not reported".
 * - kubernetes#133896 (1.34.1, "Only warn for unrecognized formats on type=string") and
 *   kubernetes#136582 (1.36: integer keeps int32/int64, number float/double; formats.go's
 *   default case: a format on any other type is unrecognized).
 * kunion models a minor by its latest patch: 1.34.0's regression (int32 and friends warned,
 * strategy.go passed no type) is not modelled.
 */
import { describe, expect, it } from "vitest";
import { widgetCrd } from "../../../test/widget-crd.js";
import type { JsonObject } from "../../value/index.js";
import { unrecognizedFormatWarnings } from "./crd-warnings.js";

const crdOf = (props: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { kind: "Thing", plural: "things" },
      versions: [
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: props } } },
      ],
      ...more,
    },
  }) as JsonObject;

const texts = (crd: JsonObject, minor: number) => unrecognizedFormatWarnings(crd, minor).map((f) => f.message);
const one = (node: Record<string, unknown>, minor: number) => texts(crdOf({ x: node }), minor);

describe("unrecognizedFormatWarnings: the finding", () => {
  it("is a warning whose message is Go's whole text, placed at the format key", () => {
    const [w, ...rest] = unrecognizedFormatWarnings(crdOf({ x: { type: "string", format: "unknown-format" } }), 35);
    expect(rest).toEqual([]);
    expect(w?.message).toBe('unrecognized format "unknown-format"');
    expect(w?.severity).toBe("warning");
    expect(w?.rule).toBe("schema");
    expect(w?.path).toEqual(["spec", "versions", 0, "schema", "openAPIV3Schema", "properties", { key: "x" }, "format"]);
    expect(w?.field).toBe("spec.versions[0].schema.openAPIV3Schema.properties[x].format");
  });

  it("quotes the format as Go's %q does", () => {
    // strconv.Quote: \a for BEL and \x7f for DEL, where JSON would write \u0007 and keep DEL.
    expect(one({ type: "string", format: 'a"b\\c\n\u0007\u007f' }, 35)).toEqual([
      'unrecognized format "a\\"b\\\\c\\n\\a\\x7f"',
    ]);
  });
});

describe("unrecognizedFormatWarnings: per release", () => {
  it("1.32 and 1.33 send none (the warning came with 1.34, kubernetes#133136)", () => {
    for (const minor of [32, 33]) expect(one({ type: "string", format: "unknown-format" }, minor)).toEqual([]);
    expect(one({ type: "string", format: "unknown-format" }, 34)).toEqual(['unrecognized format "unknown-format"']);
  });

  it("1.34 and 1.35 judge only type: string (integer, number, untyped, array are not reported)", () => {
    for (const minor of [34, 35]) {
      expect(one({ type: "integer", format: "int32" }, minor)).toEqual([]);
      expect(one({ type: "integer", format: "unknown-format" }, minor)).toEqual([]);
      expect(one({ type: "number", format: "double" }, minor)).toEqual([]);
      expect(one({ format: "unknown-format" }, minor)).toEqual([]);
      expect(one({ type: "array", format: "cidr", items: { type: "string" } }, minor)).toEqual([]);
      expect(one({ type: "string", format: "int64" }, minor)).toEqual(['unrecognized format "int64"']);
    }
  });

  it("1.36 keeps int32/int64 on integers and float/double on numbers, and warns on anything else there", () => {
    expect(one({ type: "integer", format: "int32" }, 36)).toEqual([]);
    expect(one({ type: "integer", format: "int64" }, 36)).toEqual([]);
    expect(one({ type: "number", format: "float" }, 36)).toEqual([]);
    expect(one({ type: "number", format: "double" }, 36)).toEqual([]);
    expect(one({ type: "integer", format: "double" }, 36)).toEqual(['unrecognized format "double"']);
    expect(one({ type: "integer", format: "uint32" }, 36)).toEqual(['unrecognized format "uint32"']);
    expect(one({ type: "number", format: "int64" }, 36)).toEqual(['unrecognized format "int64"']);
  });

  it("1.36 warns on any format of an array, object or boolean (Calico's `format: cidr` on a list)", () => {
    expect(one({ type: "array", format: "cidr", items: { type: "string" } }, 36)).toEqual([
      'unrecognized format "cidr"',
    ]);
    expect(one({ type: "object", format: "email" }, 36)).toEqual(['unrecognized format "email"']);
    expect(one({ type: "boolean", format: "byte" }, 36)).toEqual(['unrecognized format "byte"']);
  });

  it("1.36 judges an untyped node as a string", () => {
    expect(one({ format: "unknown-format" }, 36)).toEqual(['unrecognized format "unknown-format"']);
    expect(one({ format: "date-time" }, 36)).toEqual([]);
    expect(one({ format: "int-or-string", "x-kubernetes-int-or-string": true }, 36)).toEqual([
      'unrecognized format "int-or-string"',
    ]);
  });

  it("k8s-short-name and k8s-long-name are recognized from compatibility version 1.34: 1.35 on", () => {
    // 1.34's compatibility version is 1.33 (formats_test.go: k8s-long-name at 1.33 is unrecognized).
    expect(one({ type: "string", format: "k8s-short-name" }, 34)).toEqual(['unrecognized format "k8s-short-name"']);
    expect(one({ type: "string", format: "k8s-long-name" }, 34)).toEqual(['unrecognized format "k8s-long-name"']);
    for (const minor of [35, 36]) {
      expect(one({ type: "string", format: "k8s-short-name" }, minor)).toEqual([]);
      expect(one({ type: "string", format: "k8s-long-name" }, minor)).toEqual([]);
      // go-openapi's normalization removes dashes on both sides.
      expect(one({ type: "string", format: "k8sshortname" }, minor)).toEqual([]);
    }
  });

  it("normalizes by removing dashes only; names are case-sensitive", () => {
    expect(one({ type: "string", format: "date-time" }, 35)).toEqual([]);
    expect(one({ type: "string", format: "u-u-i-d" }, 35)).toEqual([]);
    expect(one({ type: "string", format: "date_time" }, 35)).toEqual(['unrecognized format "date_time"']);
    expect(one({ type: "string", format: "UUID" }, 35)).toEqual(['unrecognized format "UUID"']);
  });

  it("quantity is no CRD format up to 1.36 (kubernetes#131972 is not merged)", () => {
    expect(one({ type: "string", format: "quantity" }, 36)).toEqual(['unrecognized format "quantity"']);
  });

  it("an empty format is no format", () => {
    expect(one({ type: "string", format: "" }, 36)).toEqual([]);
    expect(one({ type: "array", format: "" }, 36)).toEqual([]);
  });
});

describe("unrecognizedFormatWarnings: the whole CRD", () => {
  it("a CRD whose formats are all recognized gives none", () => {
    const formats = [
      "bsonobjectid",
      "uri",
      "email",
      "hostname",
      "ipv4",
      "ipv6",
      "cidr",
      "mac",
      "uuid",
      "uuid3",
      "uuid4",
      "uuid5",
      "isbn",
      "isbn10",
      "isbn13",
      "creditcard",
      "ssn",
      "hexcolor",
      "rgbcolor",
      "byte",
      "password",
      "date",
      "duration",
      "date-time",
      "k8s-short-name",
      "k8s-long-name",
    ];
    const props = Object.fromEntries(formats.map((f) => [f, { type: "string", format: f }]));
    const numbers = { n: { type: "integer", format: "int64" }, f: { type: "number", format: "double" } };
    for (const minor of [35, 36]) expect(texts(crdOf({ ...props, ...numbers }), minor)).toEqual([]);
  });

  it("sends a text once, at its first place, however often it is used", () => {
    const crd = crdOf({ a: { type: "string", format: "hex" }, b: { type: "string", format: "hex" } });
    const versions = (crd.spec as JsonObject).versions as JsonObject[];
    versions.push({ ...(versions[0] as JsonObject), name: "v2", storage: false });
    const found = unrecognizedFormatWarnings(crd, 35);
    expect(found.map((f) => f.message)).toEqual(['unrecognized format "hex"']);
    expect(found[0]?.field).toBe("spec.versions[0].schema.openAPIV3Schema.properties[a].format");
  });

  it("reaches every schema SchemaHas visits, the shared spec.validation schema first", () => {
    const s = (format: string) => ({ type: "string", format });
    const schema = {
      type: "object",
      properties: {
        list: { type: "array", items: s("f-items") },
        tuple: { type: "array", items: [s("f-items-list")] },
        all: { type: "string", allOf: [s("f-allof")], anyOf: [s("f-anyof")], oneOf: [s("f-oneof")], not: s("f-not") },
        map: { type: "object", additionalProperties: s("f-additional") },
        pattern: { type: "object", patternProperties: { "^a": s("f-pattern") } },
        more: { type: "array", additionalItems: s("f-additional-items") },
        defs: { type: "object", definitions: { d: s("f-definitions") } },
        deps: { type: "object", dependencies: { a: s("f-dependencies"), b: ["x"] } },
      },
    };
    const crd = crdOf({ late: s("f-version") }, { validation: { openAPIV3Schema: schema } });
    const found = unrecognizedFormatWarnings(crd, 35);
    expect(found.map((f) => f.message)).toEqual(
      [
        "f-items",
        "f-items-list",
        "f-allof",
        "f-anyof",
        "f-oneof",
        "f-not",
        "f-additional",
        "f-pattern",
        "f-additional-items",
        "f-definitions",
        "f-dependencies",
        "f-version",
      ].map((f) => `unrecognized format "${f}"`),
    );
    expect(found.map((f) => f.field)).toContain(
      "spec.validation.openAPIV3Schema.properties[pattern].patternProperties[^a].format",
    );
    expect(found.map((f) => f.field)).toContain("spec.validation.openAPIV3Schema.properties[tuple].items[0].format");
  });

  it("the root schema's own format counts, and a CRD without schemas gives none", () => {
    const root: JsonObject = { type: "object", format: "weird" };
    const crd = crdOf({});
    (crd.spec as JsonObject).versions = [
      { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: root } },
    ];
    expect(texts(crd, 36)).toEqual(['unrecognized format "weird"']);
    expect(texts({ kind: "CustomResourceDefinition", spec: { versions: [{ name: "v1" }] } } as JsonObject, 36)).toEqual(
      [],
    );
  });
});

describe("a CRD among the inputs, checked as the object it is (validateObject)", () => {
  it("gets the warning at its format's line, from 1.34", async () => {
    const { loadWorkspace, validateObjects } = await import("../../check/index.js");
    // the CRD's properties start on its line 16
    const text = widgetCrd({ properties: "ip: {type: string, format: ip}" });
    const warnings = (kubernetesVersion: "1.33" | "1.34") => {
      const { catalog, objects } = loadWorkspace({ inputs: [{ path: "crd.yaml", text }], kubernetesVersion });
      return validateObjects(objects, catalog, { kubernetesVersion })
        .filter((f) => f.severity === "warning")
        .map((f) => `${f.line}: ${f.field}: ${f.message}`);
    };
    expect(warnings("1.34")).toEqual([
      '16: spec.versions[0].schema.openAPIV3Schema.properties[ip].format: unrecognized format "ip"',
    ]);
    expect(warnings("1.33")).toEqual([]);
  });
});
