/**
 * validateCustomResourceDefinition: apiextensions-apiserver's ValidateCustomResourceDefinition and
 * ValidateCustomResourceDefinitionUpdate (pkg/apis/apiextensions/validation/validation.go), on a v1
 * CRD defaulted (v1/defaults.go) and converted to the internal type (v1/conversion.go) first, with
 * the create strategy's status (registry/customresourcedefinition/strategy.go). Each expected line
 * is the server's `field.Error` text for the case; fields are the internal type's (a one-version
 * CRD's columns at `spec.additionalPrinterColumns`, `JSONPath`, `webhookClientConfig`), as the
 * server prints them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../index.js";
import type { JsonObject, JsonValue } from "../value/index.js";
import { isCrd } from "./index.js";
import { selectableFieldPath, validateCustomResourceDefinition } from "./validation.js";

type Obj = Record<string, unknown>;

const schema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        color: { type: "string" },
        size: { type: "integer" },
        on: { type: "boolean" },
        ratio: { type: "number" },
        labels: { type: "object", additionalProperties: { type: "string" } },
        list: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      },
    },
    status: { type: "object", properties: { replicas: { type: "integer" } } },
    metadata: { type: "object", properties: { name: { type: "string" } } },
  },
};

const version = (name: string, over: Obj = {}): Obj => ({
  name,
  served: true,
  storage: true,
  schema: { openAPIV3Schema: schema },
  ...over,
});

const crd = (spec: Obj = {}, meta: Obj = { name: "things.example.com" }): JsonObject =>
  ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: meta,
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { kind: "Thing", plural: "things" },
      versions: [version("v1")],
      ...spec,
    },
  }) as JsonObject;

const messages = (doc: JsonObject, minor = 36, old?: JsonObject) =>
  validateCustomResourceDefinition(doc, minor, old).map((f) => f.message);

const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe("validateCustomResourceDefinition: a valid CRD", () => {
  it("has no findings, one version or several, cluster-scoped or not", () => {
    expect(messages(crd())).toEqual([]);
    expect(
      messages(crd({ scope: "Cluster", versions: [version("v1"), version("v1beta1", { storage: false })] })),
    ).toEqual([]);
  });
});

describe("metadata.name, spec.group, spec.scope", () => {
  it("a name other than <plural>.<group> (the DNS rules and a missing name are the metadata check's)", () => {
    expect(messages(crd({}, { name: "thing.example.com" }))).toEqual([
      'metadata.name: Invalid value: "thing.example.com": must be spec.names.plural+"."+spec.group',
    ]);
    expect(messages(crd({}, { generateName: "things-" }))).toEqual([
      'metadata.generateName: Invalid value: "things-": must be spec.names.plural+"."+spec.group',
    ]);
    expect(messages(crd({}, {}))).toEqual([]);
  });

  it("the group: required, a DNS subdomain, at least one dot", () => {
    const group = (g: string | undefined) => messages(crd({ group: g }, { name: `things.${g ?? ""}` }));
    expect(group(undefined)).toEqual(["spec.group: Required value"]);
    expect(group("example")).toEqual([
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
    ]);
    expect(group("Example.com")).toEqual([
      "spec.group: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it("the scope: required, Cluster or Namespaced", () => {
    expect(messages(crd({ scope: undefined }))).toEqual(["spec.scope: Required value"]);
    expect(messages(crd({ scope: "Global" }))).toEqual([
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ]);
  });

  it("spec: {} says all the server says", () => {
    const doc = { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", spec: {} };
    expect(messages(doc as JsonObject)).toEqual([
      "spec.group: Required value",
      "spec.scope: Required value",
      "spec.versions: Invalid value: []: must have exactly one version marked as storage version",
      "spec.names.plural: Required value",
      "spec.names.singular: Required value",
      "spec.names.kind: Required value",
      "spec.names.listKind: Required value",
      "status.storedVersions: Invalid value: []: must have at least one stored version",
    ]);
  });
});

describe("spec.names", () => {
  const names = (n: Obj, plural = "things") => messages(crd({ names: n }, { name: `${plural}.example.com` }));

  it("singular and listKind are defaulted from the kind", () => {
    expect(names({ kind: "Thing", plural: "things" })).toEqual([]);
    expect(names({ kind: "ThingList", plural: "things", listKind: "ThingList" })).toEqual([
      'spec.names.listKind: Invalid value: "ThingList": kind and listKind may not be the same',
    ]);
  });

  it("each name a DNS-1035 label; kind and listKind may have mixed case", () => {
    expect(
      names(
        {
          kind: "Thing_1",
          plural: "Things",
          singular: "thing.x",
          listKind: "Thing List",
          shortNames: ["th", "T"],
          categories: ["all", "my_things"],
        },
        "Things",
      ),
    ).toEqual([
      `spec.names.plural: Invalid value: "Things": ${dns1035}`,
      `spec.names.singular: Invalid value: "thing.x": ${dns1035}`,
      `spec.names.kind: Invalid value: "Thing_1": may have mixed case, but should otherwise match: ${dns1035}`,
      `spec.names.listKind: Invalid value: "Thing List": may have mixed case, but should otherwise match: ${dns1035}`,
      `spec.names.shortNames[1]: Invalid value: "T": ${dns1035}`,
      `spec.names.categories[1]: Invalid value: "my_things": ${dns1035}`,
    ]);
  });

  it("a too long plural says both of its errors, joined by a comma", () => {
    const plural = `a${"b".repeat(63)}`;
    expect(names({ kind: "Thing", plural }, plural)).toEqual([
      `spec.names.plural: Invalid value: "${plural}": must be no more than 63 characters`,
    ]);
  });

  it("no kind: kind, singular and listKind required", () => {
    expect(names({ plural: "things" })).toEqual([
      "spec.names.singular: Required value",
      "spec.names.kind: Required value",
      "spec.names.listKind: Required value",
    ]);
  });
});

describe("spec.versions", () => {
  it("two storage versions: refused in spec and in the status the create records", () => {
    expect(messages(crd({ versions: [version("v1"), version("v2")] }))).toEqual([
      'spec.versions: Invalid value: ["v1","v2"]: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
    ]);
  });

  it("no storage version", () => {
    expect(messages(crd({ versions: [version("v1", { storage: false })] }))).toEqual([
      'spec.versions: Invalid value: ["v1"]: must have exactly one version marked as storage version',
      "status.storedVersions: Invalid value: []: must have at least one stored version",
    ]);
  });

  it("a name that is no DNS-1035 label: the first version's also as the internal spec.version", () => {
    expect(messages(crd({ versions: [version("V1")] }))).toEqual([
      `spec.versions[0].name: Invalid value: "V1": ${dns1035}`,
      `spec.version: Invalid value: "V1": ${dns1035}`,
    ]);
    expect(messages(crd({ versions: [version("v1"), version("v2_beta", { storage: false })] }))).toEqual([
      `spec.versions[1].name: Invalid value: "v2_beta": ${dns1035}`,
    ]);
  });

  it("duplicate names", () => {
    expect(messages(crd({ versions: [version("v1"), version("v1", { storage: false })] }))).toEqual([
      'spec.versions: Invalid value: ["v1","v1"]: must contain unique version names',
    ]);
  });

  it("a version without a schema", () => {
    expect(messages(crd({ versions: [version("v1"), version("v2", { storage: false, schema: undefined })] }))).toEqual([
      "spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required",
    ]);
  });

  it("deprecationWarning: only on a deprecated version, at most 256 bytes, printable", () => {
    const warn = (deprecated: boolean, w: string) =>
      messages(crd({ versions: [version("v1", { deprecated, deprecationWarning: w })] }));
    expect(warn(true, "use v2")).toEqual([]);
    expect(warn(false, "use v2")).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions',
    ]);
    expect(warn(true, "")).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "": must not be an empty string',
    ]);
    const long = "é".repeat(129);
    expect(warn(true, long)).toEqual([
      `spec.versions[0].deprecationWarning: Invalid value: "${long}": must be <= 256 characters long`,
    ]);
    expect(warn(true, "é\tx")).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "é\\tx": must only contain printable UTF-8 characters; non-printable character found at index 2',
    ]);
  });
});

describe("subresources", () => {
  const scale = (s: Obj) => messages(crd({ versions: [version("v1", { subresources: { status: {}, scale: s } })] }));

  it("a valid scale subresource", () => {
    expect(
      scale({
        specReplicasPath: ".spec.replicas",
        statusReplicasPath: ".status.replicas",
        labelSelectorPath: ".status.selector",
      }),
    ).toEqual([]);
  });

  it("paths required, simple, under .spec / .status (a one-version CRD's at spec.subresources)", () => {
    expect(scale({})).toEqual([
      "spec.subresources.scale.specReplicasPath: Required value",
      "spec.subresources.scale.statusReplicasPath: Required value",
    ]);
    expect(
      scale({ specReplicasPath: "spec.replicas", statusReplicasPath: ".spec.replicas", labelSelectorPath: ".x" }),
    ).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".x": should be a json path under either .spec or .status',
    ]);
    expect(scale({ specReplicasPath: ".spec", statusReplicasPath: ".status.replicas" })).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: ".spec": should be a json path under .spec',
    ]);
  });

  it("versions with different subresources keep theirs", () => {
    const doc = crd({
      versions: [
        version("v1", { subresources: { scale: {} } }),
        version("v2", { storage: false, subresources: { status: {} } }),
      ],
    });
    expect(messages(doc)).toEqual([
      "spec.versions[0].subresources.scale.specReplicasPath: Required value",
      "spec.versions[0].subresources.scale.statusReplicasPath: Required value",
    ]);
  });
});

describe("additionalPrinterColumns", () => {
  const columns = (cols: Obj[]) => messages(crd({ versions: [version("v1", { additionalPrinterColumns: cols })] }));

  it("valid columns", () => {
    expect(
      columns([
        { name: "Color", type: "string", jsonPath: ".spec.color" },
        { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        { name: "Size", type: "integer", format: "int32", jsonPath: ".spec.list[*].a" },
      ]),
    ).toEqual([]);
  });

  it("type and format among the supported, name and JSONPath required, the path starting with a dot", () => {
    expect(
      columns([
        { name: "A", type: "time", jsonPath: ".spec.color" },
        { name: "B", type: "string", format: "uri", jsonPath: "spec.color" },
        {},
      ]),
    ).toEqual([
      'spec.additionalPrinterColumns[0].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[1].format: Invalid value: "uri": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.color": must be a simple json path starting with .',
      "spec.additionalPrinterColumns[2].name: Required value",
      "spec.additionalPrinterColumns[2].type: Required value: must be one of boolean,date,integer,number,string",
      "spec.additionalPrinterColumns[2].JSONPath: Required value",
    ]);
  });

  it("columns alike as Go reads them (a priority of 0 or none) are the top level's", () => {
    const doc = crd({
      versions: [
        version("v1", { additionalPrinterColumns: [{ name: "A", type: "time", jsonPath: ".a", priority: 0 }] }),
        version("v2", { storage: false, additionalPrinterColumns: [{ name: "A", type: "time", jsonPath: ".a" }] }),
      ],
    });
    expect(messages(doc)).toEqual([
      'spec.additionalPrinterColumns[0].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
    ]);
  });

  it("columns that differ between versions are each version's", () => {
    const doc = crd({
      versions: [
        version("v1", { additionalPrinterColumns: [{ name: "A", type: "time", jsonPath: ".a" }] }),
        version("v2", { storage: false }),
      ],
    });
    expect(messages(doc)).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
    ]);
  });
});

describe("selectableFields", () => {
  const fields = (paths: string[], minor = 36) =>
    messages(crd({ versions: [version("v1", { selectableFields: paths.map((jsonPath) => ({ jsonPath })) })] }), minor);

  it("a string, integer or boolean field of the schema, map values included", () => {
    expect(fields([".spec.color", ".spec.size", ".spec.on", ".spec.labels.app"])).toEqual([]);
  });

  it("each path's refusals", () => {
    expect(
      fields([
        "",
        "spec.color",
        ".spec.ratio",
        ".spec.list",
        ".spec.list.a",
        ".spec.missing",
        ".metadata.name",
        ".spec.labels['app']",
        ".spec.",
        ".spec.color",
      ]),
    ).toEqual([
      "spec.selectableFields[0].jsonPath: Required value",
      'spec.selectableFields[1].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec',
      'spec.selectableFields[2].jsonPath: Invalid value: ".spec.ratio": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[3].jsonPath: Invalid value: ".spec.list": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[4].jsonPath: Invalid value: ".spec.list.a": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[5].jsonPath: Invalid value: ".spec.missing": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[6].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata',
      "spec.selectableFields[7].jsonPath: Invalid value: \".spec.labels['app']\": is an invalid path: array notation is not allowed",
      'spec.selectableFields[8].jsonPath: Invalid value: ".spec.": is an invalid path: unexpected end of JSON path',
    ]);
  });

  it("a field twice is a duplicate; at most 8 distinct", () => {
    expect(fields([".spec.color", ".spec.color"])).toEqual([
      'spec.selectableFields[1].jsonPath: Duplicate value: ".spec.color"',
    ]);
    const nine = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    const props = Object.fromEntries(nine.map((n) => [n, { type: "string" }]));
    const wide = { type: "object", properties: { spec: { type: "object", properties: props } } };
    const doc = crd({
      versions: [
        version("v1", {
          schema: { openAPIV3Schema: wide },
          selectableFields: nine.map((n) => ({ jsonPath: `.spec.${n}` })),
        }),
      ],
    });
    expect(messages(doc)).toEqual(["spec.selectableFields: Too many: 9: must have at most 8 items"]);
    // an update that keeps the nine is let through from 1.34 (the limit's ratcheting)
    expect(messages(doc, 34, doc)).toEqual([]);
    expect(messages(doc, 33, doc)).toEqual(["spec.selectableFields: Too many: 9: must have at most 8 items"]);
  });

  it("versions alike in schema and fields: at the top level", () => {
    const fields = { selectableFields: [{ jsonPath: ".spec.ratio" }] };
    const doc = crd({ versions: [version("v1", fields), version("v2", { storage: false, ...fields })] });
    expect(messages(doc)).toEqual([
      'spec.selectableFields[0].jsonPath: Invalid value: ".spec.ratio": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
    ]);
  });

  it("dropped before 1.31 (CustomResourceFieldSelectors off by default)", () => {
    expect(fields(["spec.color"], 30)).toEqual([]);
  });

  it("versions with one schema but their own selectable fields: the server has moved the schema away", () => {
    const doc = crd({
      versions: [version("v1", { selectableFields: [{ jsonPath: ".spec.color" }] }), version("v2", { storage: false })],
    });
    expect(messages(doc)).toEqual([
      'spec.versions[0].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included',
    ]);
  });

  it("versions with their own schemas and fields", () => {
    const other = { type: "object", properties: { spec: { type: "object", properties: { x: { type: "string" } } } } };
    const doc = crd({
      versions: [
        version("v1", { selectableFields: [{ jsonPath: ".spec.x" }] }),
        version("v2", {
          storage: false,
          schema: { openAPIV3Schema: other },
          selectableFields: [{ jsonPath: ".spec.x" }],
        }),
      ],
    });
    expect(messages(doc)).toEqual([
      'spec.versions[0].selectableFields[0].jsonPath: Invalid value: ".spec.x": is an invalid path: does not refer to a valid field',
    ]);
  });

  it("the path scanner: quoted tokens, map keys", () => {
    expect(selectableFieldPath(".spec.labels.app", schema as unknown as JsonObject)).toMatchObject({
      path: ["spec", "labels", { key: "app" }],
    });
    expect(selectableFieldPath(".spec.'a.b'", schema as unknown as JsonObject)).toBe("does not refer to a valid field");
  });
});

describe("conversion", () => {
  const conversion = (c: Obj, spec: Obj = {}) => messages(crd({ conversion: c, ...spec }));
  const webhook = (clientConfig: Obj | undefined, reviews: string[] | undefined = ["v1"]) =>
    conversion({ strategy: "Webhook", webhook: { clientConfig, conversionReviewVersions: reviews } });

  it("None, or a Webhook with a service or a URL and v1 or v1beta1 reviews", () => {
    expect(conversion({ strategy: "None" })).toEqual([]);
    expect(webhook({ service: { name: "conv", namespace: "system", path: "/convert" } })).toEqual([]);
    expect(webhook({ url: "https://conv.example.com/convert" }, ["v1beta1", "v2"])).toEqual([]);
  });

  it("the strategy: required, None or Webhook", () => {
    expect(conversion({})).toEqual(["spec.conversion.strategy: Required value"]);
    expect(conversion({ strategy: "Magic" })).toEqual([
      'spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"',
    ]);
  });

  it("a Webhook strategy without a webhook (the internal type's fields)", () => {
    expect(conversion({ strategy: "Webhook" })).toEqual([
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
      "spec.conversion.conversionReviewVersions: Required value",
    ]);
  });

  it("exactly one of url and service", () => {
    expect(webhook({})).toEqual([
      "spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required",
    ]);
    expect(webhook({ url: "https://a.example.com", service: { name: "a", namespace: "b" } })).toEqual([
      "spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required",
    ]);
  });

  it("the URL: https, a host, no user, query or fragment", () => {
    expect(webhook({ url: "http://u:p@/x?y=1#z" })).toEqual([
      "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'spec.conversion.webhookClientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]',
      'spec.conversion.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "z": fragments are not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "y=1": query parameters are not permitted in the URL',
    ]);
  });

  it("the service: name and namespace (each reported at the other's field, as Go passes them), port, path", () => {
    expect(webhook({ service: { name: "", namespace: "system" } })).toEqual([
      "spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required",
    ]);
    expect(webhook({ service: { name: "conv", port: 0, path: "/a//B" } })).toEqual([
      "spec.conversion.webhookClientConfig.service.name: Required value: service name is required",
      "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "/a//B": segment[1] may not be empty',
      "spec.conversion.webhookClientConfig.service.path: Invalid value: \"/a//B\": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it("conversionReviewVersions: required, unique, DNS-1035 labels, one the server sends", () => {
    const service = { service: { name: "conv", namespace: "system" } };
    expect(webhook(service, [])).toEqual(["spec.conversion.conversionReviewVersions: Required value"]);
    expect(webhook(service, ["v2", "v2", "V3"])).toEqual([
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      `spec.conversion.conversionReviewVersions[2]: Invalid value: "V3": ${dns1035}`,
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2","V3"]: must include at least one of v1, v1beta1',
    ]);
  });

  it("an update keeps a stored list without a version the server sends", () => {
    const service = { service: { name: "conv", namespace: "system" } };
    const doc = (reviews: string[]) =>
      crd({
        conversion: { strategy: "Webhook", webhook: { clientConfig: service, conversionReviewVersions: reviews } },
      });
    expect(messages(doc(["v3"]), 36, doc(["v2"]))).toEqual([]);
    expect(messages(doc(["v3"]), 36, doc(["v1"]))).toEqual([
      'spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1',
    ]);
  });

  it("webhook settings with strategy None are forbidden", () => {
    expect(
      conversion({
        strategy: "None",
        webhook: { clientConfig: { url: "https://a.example.com" }, conversionReviewVersions: ["v1"] },
      }),
    ).toEqual([
      "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
      "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook",
    ]);
  });

  it("preserveUnknownFields: true, refused on create, and with a Webhook strategy", () => {
    const refused =
      "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead";
    expect(messages(crd({ preserveUnknownFields: true }))).toEqual([refused]);
    expect(
      messages(
        crd({
          preserveUnknownFields: true,
          conversion: {
            strategy: "Webhook",
            webhook: { clientConfig: { url: "https://a.b" }, conversionReviewVersions: ["v1"] },
          },
        }),
      ),
    ).toEqual([
      'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
      refused,
    ]);
    // a stored CRD that preserved unknown fields may go on doing so
    const old = crd({ preserveUnknownFields: true });
    expect(messages(crd({ preserveUnknownFields: true }), 36, old)).toEqual([]);
  });

  it("preserveUnknownFields: true with defaults in a schema", () => {
    const defaulted = { type: "object", properties: { spec: { type: "object", default: {} } } };
    const doc = crd({
      preserveUnknownFields: true,
      versions: [version("v1", { schema: { openAPIV3Schema: defaulted } })],
    });
    expect(messages(doc, 36, crd({ preserveUnknownFields: true }))).toEqual([
      "spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema",
    ]);
  });
});

describe("API approval of the community's groups", () => {
  const approved = (group: string, annotation?: string) =>
    messages(
      crd(
        { group },
        {
          name: `things.${group}`,
          ...(annotation === undefined ? {} : { annotations: { "api-approved.kubernetes.io": annotation } }),
        },
      ),
    );

  it("a URL or an 'unapproved…' reason under k8s.io and kubernetes.io; other groups need none", () => {
    expect(approved("example.com")).toEqual([]);
    expect(approved("gateway.networking.k8s.io", "https://github.com/kubernetes-sigs/gateway-api/pull/1")).toEqual([]);
    expect(approved("x.kubernetes.io", "unapproved, experimental")).toEqual([]);
  });

  it("missing or neither", () => {
    expect(approved("x.k8s.io")).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    expect(approved("k8s.io", "yes")).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
  });
});

describe("an update", () => {
  it("group and plural immutable; scope and kind once established (a manifest's old CRD is taken as established)", () => {
    const old = crd();
    const now = crd({ scope: "Cluster", names: { kind: "Widget", plural: "things" } });
    expect(messages(now, 36, old)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Widget": field is immutable',
    ]);
    const pending = { ...old, status: { conditions: [{ type: "Established", status: "False" }] } };
    expect(messages(now, 36, pending as JsonObject)).toEqual([]);
    const regrouped = crd({ group: "example.org" }, { name: "things.example.org" });
    expect(messages(regrouped, 36, old)).toEqual(['spec.group: Invalid value: "example.org": field is immutable']);
  });

  it("the name rule is create's only", () => {
    expect(messages(crd({}, { name: "other.example.com" }), 36, crd())).toEqual([]);
  });

  it("a stored version removed from spec.versions, when the old status lists it (ValidateCustomResourceDefinitionStoredVersions)", () => {
    const old = crd({ versions: [version("v1"), version("v2", { storage: false })] });
    const now = crd({ versions: [version("v2")] });
    const stored = { ...old, status: { storedVersions: ["v1"] } } as JsonObject;
    expect(messages(now, 36, stored)).toEqual([
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
    const migrated = { ...old, status: { storedVersions: ["v2"] } } as JsonObject;
    expect(messages(now, 36, migrated)).toEqual([]);
    // a manifest without status: the evolution rule stored-version-removed says it, once
    expect(messages(now, 36, old)).toEqual([]);
  });

  it("versions without a schema: when the stored CRD had such, only a served one that prunes is refused", () => {
    const bare = (served: boolean) => crd({ versions: [version("v1", { served, schema: undefined })] });
    expect(messages(bare(true))).toEqual([
      "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required",
    ]);
    expect(messages(bare(false))).toEqual([
      "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required",
    ]);
    expect(messages(bare(true), 36, bare(true))).toEqual([
      "spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned",
    ]);
    expect(messages(bare(false), 36, bare(true))).toEqual([]);
  });
});

/** Every CRD document of the corpus (real CRDs, applied to clusters): the server accepts each. */
const corpus = join(import.meta.dirname, "../../../shared/corpus");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe.skipIf(!existsSync(corpus))("the corpus's CRDs", () => {
  it("give no finding, created or updated onto themselves", () => {
    const files = readdirSync(corpus)
      .filter((p) => existsSync(join(corpus, p, "crds")))
      .flatMap((p) => yamlFiles(join(corpus, p, "crds")));
    let checked = 0;
    for (const file of files) {
      for (const { value } of parseSource(readFileSync(file, "utf8"), file).documents) {
        if (!isCrd(value as JsonValue)) continue;
        const doc = value as JsonObject;
        checked++;
        expect(messages(doc), file).toEqual([]);
        expect(messages(doc, 36, doc), file).toEqual([]);
        expect(messages(doc, 32), file).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(70);
  });
});
