import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { checkUnions } from "./check.js";
import type { SchemaNode, Union } from "./model.js";
import { fromOpenAPI, recognizeRule } from "./openapi.js";

const str = { type: "string" };
const obj = { type: "object", properties: { x: str } };

/** The single union on the root, asserting there is exactly one. */
function onlyUnion(schema: unknown): Union {
  const { root, findings } = fromOpenAPI(schema);
  expect(findings).toEqual([]);
  expect(root.unions).toHaveLength(1);
  return root.unions![0]!;
}

describe("x-kubernetes-unions, first form", () => {
  const strategy = (extra: object = {}) => ({
    type: "object",
    properties: { type: { type: "string", enum: ["Recreate", "RollingUpdate"] }, rollingUpdate: obj },
    "x-kubernetes-unions": [{ discriminator: "type", "fields-to-discriminateBy": { rollingUpdate: "RollingUpdate" } }],
    ...extra,
  });

  it("gives a discriminated union with empty values from the enum", () => {
    expect(onlyUnion(strategy())).toEqual({
      discriminator: "type",
      members: [{ field: "rollingUpdate", value: "RollingUpdate", optional: false, kind: "object" }],
      emptyValues: ["Recreate"],
      exactlyOne: false,
      deduce: false,
      origin: "x-kubernetes-unions",
    });
  });

  it("is exactly one when the discriminator is required", () => {
    expect(onlyUnion(strategy({ required: ["type"] })).exactlyOne).toBe(true);
  });

  it("allows a discriminator with zero fields", () => {
    const u = onlyUnion({
      type: "object",
      properties: { mode: { type: "string", enum: ["A", "B"] } },
      "x-kubernetes-unions": [{ discriminator: "mode" }],
    });
    expect(u).toMatchObject({ discriminator: "mode", members: [], emptyValues: ["A", "B"] });
  });

  it("gives an at-most-one union without a discriminator, with member kinds", () => {
    const u = onlyUnion({
      type: "object",
      properties: {
        hostPath: obj,
        items: { type: "array", items: str },
        labels: { type: "object", additionalProperties: str },
        value: str,
      },
      "x-kubernetes-unions": [
        { "fields-to-discriminateBy": { hostPath: "HostPath", items: "Items", labels: "Labels", value: "Value" } },
      ],
    });
    expect(u.discriminator).toBeUndefined();
    expect(u.exactlyOne).toBe(false);
    expect(u.members.map((m) => [m.field, m.kind])).toEqual([
      ["hostPath", "object"],
      ["items", "list"],
      ["labels", "map"],
      ["value", "scalar"],
    ]);
  });
});

describe("x-kubernetes-unions, fieldMembers on the discriminator", () => {
  it("reads members, optional flags and null (empty) members", () => {
    const u = onlyUnion({
      type: "object",
      required: ["type"],
      properties: {
        type: {
          type: "string",
          enum: ["Localhost", "RuntimeDefault", "Unconfined", "Other"],
          "x-kubernetes-unions": {
            fieldMembers: { Localhost: { name: "localhostProfile", optional: true }, Unconfined: null },
          },
        },
        localhostProfile: str,
      },
    });
    expect(u).toEqual({
      discriminator: "type",
      members: [{ field: "localhostProfile", value: "Localhost", optional: true, kind: "scalar" }],
      emptyValues: ["Unconfined", "RuntimeDefault", "Other"],
      exactlyOne: true,
      deduce: false,
      origin: "x-kubernetes-unions on `type`",
    });
  });

  it("keeps a union declared in both forms once", () => {
    const u = onlyUnion({
      type: "object",
      properties: {
        type: { type: "string", "x-kubernetes-unions": { fieldMembers: { RollingUpdate: { name: "rollingUpdate" } } } },
        rollingUpdate: obj,
      },
      "x-kubernetes-unions": [
        { discriminator: "type", "fields-to-discriminateBy": { rollingUpdate: "RollingUpdate" } },
      ],
    });
    expect(u.origin).toBe("x-kubernetes-unions");
  });
});

describe("recognised CEL rules", () => {
  it("controller-tools ExactlyOneOf / AtMostOneOf, with spacing variants", () => {
    for (const rule of [
      "[has(self.a),has(self.b)].filter(x,x==true).size() == 1",
      "[has(self.a), has(self.b)].filter(x, x == true).size() == 1",
      "[ has(self.a) , has(self.b) ] . filter(y, y) . size()==1",
    ]) {
      expect(recognizeRule(rule), rule).toEqual([{ kind: "count", fields: ["a", "b"], exactlyOne: true }]);
    }
    expect(recognizeRule("[has(self.a),has(self.b),has(self.c)].filter(x,x==true).size() <= 1")).toEqual([
      { kind: "count", fields: ["a", "b", "c"], exactlyOne: false },
    ]);
  });

  it("prometheus-operator ScrapeConfig auth rule (at most one)", () => {
    const rule = "[has(self.basicAuth), has(self.authorization), has(self.oauth2)].filter(x, x).size() <= 1";
    const u = onlyUnion({
      type: "object",
      properties: { basicAuth: obj, authorization: obj, oauth2: obj },
      "x-kubernetes-validations": [{ rule }],
    });
    expect(u).toMatchObject({ exactlyOne: false, origin: "x-kubernetes-validations rule 0" });
    expect(u.members.map((m) => [m.field, m.value])).toEqual([
      ["basicAuth", "BasicAuth"],
      ["authorization", "Authorization"],
      ["oauth2", "Oauth2"],
    ]);
  });

  it("cert-manager venafi rule (exactly one) and argo artifact location rule (at most one)", () => {
    const venafi = "(has(self.tpp) ? 1 : 0) + (has(self.cloud) ? 1 : 0) + (has(self.ngts) ? 1 : 0) == 1";
    expect(recognizeRule(venafi)).toEqual([{ kind: "count", fields: ["tpp", "cloud", "ngts"], exactlyOne: true }]);
    const argo =
      "(has(self.s3) ? 1 : 0) + (has(self.git) ? 1 : 0) + (has(self.http) ? 1 : 0) + (has(self.artifactory) ? 1 : 0) + (has(self.hdfs) ? 1 : 0) + (has(self.raw) ? 1 : 0) + (has(self.oss) ? 1 : 0) + (has(self.gcs) ? 1 : 0) + (has(self.azure) ? 1 : 0) + (has(self.plugin) ? 1 : 0) <= 1";
    const [fact] = recognizeRule(argo);
    expect(fact).toMatchObject({ kind: "count", exactlyOne: false });
    expect(fact?.kind === "count" && fact.fields.length).toBe(10);
  });

  it("discriminator implications in their corpus spellings", () => {
    const sel = (field: string, discriminator: string, value: string) => ({
      kind: "select",
      discriminator,
      field,
      value,
    });
    const req = (field: string, discriminator: string, value: string) => ({
      kind: "require",
      discriminator,
      field,
      value,
    });
    const cases: Array<[string, object[]]> = [
      ["!(has(self.cors) && self.type != 'CORS')", [sel("cors", "type", "CORS")]],
      ["!(!has(self.cors) && self.type == 'CORS')", [req("cors", "type", "CORS")]],
      ["!(self.type != 'RollingUpdate' && has(self.rollingUpdate))", [sel("rollingUpdate", "type", "RollingUpdate")]],
      ["!has(self.cookie) || self.type == 'Cookie'", [sel("cookie", "type", "Cookie")]],
      ["self.type != 'Header' || has(self.header)", [req("header", "type", "Header")]],
      ["has(self.grpc) ? self.protocol == 'GRPC' : true", [sel("grpc", "protocol", "GRPC")]],
      ["self.protocol == 'GRPC' ? has(self.grpc) : true", [req("grpc", "protocol", "GRPC")]],
      [
        "self.mode == 'ClientAndServer' ? has(self.clientCertificateRef) : !has(self.clientCertificateRef)",
        [
          sel("clientCertificateRef", "mode", "ClientAndServer"),
          req("clientCertificateRef", "mode", "ClientAndServer"),
        ],
      ],
      ['!(has(self.x) && self.kind != "X")', [sel("x", "kind", "X")]],
      ["!(has(self.__namespace__) && self.type != 'Ns')", [sel("namespace", "type", "Ns")]],
    ];
    for (const [rule, facts] of cases) expect(recognizeRule(rule), rule).toEqual(facts);
  });

  it("leaves rules that are not unions alone (from the corpus)", () => {
    for (const rule of [
      "!(has(self.percent) && has(self.fraction))",
      "!(has(self.mode) && self.mode == 'DaemonSet' && has(self.replicas))",
      '!(self.type != "Hostname" && has(self.hostname) && self.hostname != "")',
      '!(self.type == "URI" && (!has(self.uri) || self.uri == ""))',
      "self.filter(f, f.type == 'CORS').size() <= 1",
      "has(self.resourceRef) || has(self.resourceSelector)",
      "!has(self.depends) || !has(self.dependencies)",
      "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true",
      "!('*' in self && self.size() > 1)",
      "self.mode == 'Pipeline' && has(self.pipeline)",
      "!has(self.externalId) || has(self.roleArn)",
      "(self.size() > 0 ? self[0].matches.size() : 0) + (self.size() > 1 ? self[1].matches.size() : 0) <= 128",
      "(has(self.manifest) && !has(self.manifestFrom)) || (!has(self.manifest) && has(self.manifestFrom)) || (!has(self.manifest) && !has(self.manifestFrom))",
      "!(has(self.type) && self.type != 'X')",
      "[has(self.a)].filter(x,x==true).size() == 1",
      "[has(self.a),has(self.a)].filter(x,x==true).size() == 1",
      "[has(self.a),has(self.b)].filter(x,y).size() == 1",
      "[has(self.a),has(self.b)].filter(x,x).size() >= 1",
      "[has(self.a),has(self.b)].filter(x,x).size() == 11",
    ]) {
      expect(recognizeRule(rule), rule).toEqual([]);
    }
  });

  it("an HTTPRouteFilter-like schema gives one discriminated union on `type`", () => {
    // Rules copied from gateway-api standard HTTPRoute v1 (spec.rules[].filters[]); ExtensionRef keeps
    // only its "must be nil" rule here, so it is optional; URLRewrite's only rule looks at a nested field,
    // which is not a union rule, so URLRewrite is an empty value.
    const filter = {
      type: "object",
      required: ["type"],
      properties: {
        type: { type: "string", enum: ["RequestHeaderModifier", "RequestMirror", "ExtensionRef", "URLRewrite"] },
        requestHeaderModifier: obj,
        requestMirror: obj,
        extensionRef: obj,
        urlRewrite: obj,
      },
      "x-kubernetes-validations": [
        { rule: "!(has(self.requestHeaderModifier) && self.type != 'RequestHeaderModifier')" },
        { rule: "!(!has(self.requestHeaderModifier) && self.type == 'RequestHeaderModifier')" },
        { rule: "!(has(self.requestMirror) && self.type != 'RequestMirror')" },
        { rule: "!(!has(self.requestMirror) && self.type == 'RequestMirror')" },
        { rule: "!(has(self.extensionRef) && self.type != 'ExtensionRef')" },
        { rule: "!(has(self.urlRewrite.path) && self.type != 'URLRewrite')" },
      ],
    };
    const spec = {
      type: "object",
      properties: {
        rules: { type: "array", items: { type: "object", properties: { filters: { type: "array", items: filter } } } },
      },
    };
    const { root, findings } = fromOpenAPI(spec, { path: ["spec"] });
    expect(findings).toEqual([]);
    const node = root.properties!.rules!.items!.properties!.filters!.items!;
    expect(node.unions).toEqual([
      {
        discriminator: "type",
        members: [
          { field: "requestHeaderModifier", value: "RequestHeaderModifier", optional: false, kind: "object" },
          { field: "requestMirror", value: "RequestMirror", optional: false, kind: "object" },
          { field: "extensionRef", value: "ExtensionRef", optional: true, kind: "object" },
        ],
        emptyValues: ["URLRewrite"],
        exactlyOne: true,
        deduce: false,
        origin: "x-kubernetes-validations rules 0, 1, 2, 3, 4",
        enforcedBySchema: true,
      },
    ]);
  });
});

describe("oneOf of single required fields", () => {
  it("gives an exactly-one union", () => {
    const u = onlyUnion({
      type: "object",
      properties: { a: str, b: obj },
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
    });
    expect(u).toMatchObject({ exactlyOne: true, origin: "oneOf", members: [{ field: "a" }, { field: "b" }] });
  });

  it("ignores other oneOf shapes (gateway addresses)", () => {
    const { root } = fromOpenAPI({
      type: "object",
      properties: { type: str, value: str },
      oneOf: [
        { properties: { type: { enum: ["IPAddress"] } } },
        { properties: { type: { not: { enum: ["IPAddress"] } } } },
      ],
    });
    expect(root.unions).toBeUndefined();
    const { root: r2 } = fromOpenAPI({ type: "object", oneOf: [{ required: ["a", "b"] }, { required: ["c"] }] });
    expect(r2.unions).toBeUndefined();
  });

  it("merges with the same union from CEL, exactly one winning", () => {
    const u = onlyUnion({
      type: "object",
      properties: { a: str, b: str },
      "x-kubernetes-unions": [{ "fields-to-discriminateBy": { a: "A", b: "B" } }],
      "x-kubernetes-validations": [{ rule: "[has(self.b),has(self.a)].filter(x,x==true).size() == 1" }],
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
    });
    expect(u).toMatchObject({ origin: "x-kubernetes-unions", exactlyOne: true });
  });
});

describe("schema tree", () => {
  it("reads types, list map keys, additionalProperties (schema form only), required and enum", () => {
    const { root } = fromOpenAPI({
      type: "object",
      required: ["spec"],
      properties: {
        list: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], items: obj },
        set: { type: "array", "x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["name"], items: str },
        map: { type: "object", additionalProperties: str },
        free: { type: "object", additionalProperties: true },
        e: { type: "string", enum: ["a", "b"] },
        odd: { type: "weird" },
      },
    });
    const p = root.properties!;
    expect(root.required).toEqual(["spec"]);
    expect(p.list).toMatchObject({ type: "array", listMapKeys: ["name"], items: { type: "object" } });
    expect(p.set!.listMapKeys).toBeUndefined();
    expect(p.map!.additionalProperties).toEqual({ type: "string" });
    expect(p.free!.additionalProperties).toBeUndefined();
    expect(p.e!.enum).toEqual(["a", "b"]);
    expect(p.odd!.type).toBeUndefined();
  });

  it("treats __proto__ and constructor as plain property names", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object"},"constructor":{"type":"string"}},' +
        '"x-kubernetes-unions":[{"fields-to-discriminateBy":{"__proto__":"Proto","constructor":"C"}}]}',
    );
    const { root, findings } = fromOpenAPI(schema);
    expect(findings).toEqual([]);
    expect(Object.getPrototypeOf(root.properties)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(root.properties, "__proto__")?.value).toEqual({ type: "object" });
    expect(root.unions![0]!.members.map((m) => [m.field, m.kind])).toEqual([
      ["__proto__", "object"],
      ["constructor", "scalar"],
    ]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it("survives very deep schemas and non-object input", () => {
    let schema: object = { type: "string" };
    for (let i = 0; i < 20_000; i++) schema = { type: "object", properties: { a: schema } };
    const deep = fromOpenAPI(schema);
    expect(deep.findings).toEqual([]);
    let node = deep.root;
    let depth = 0;
    for (; node.properties?.a; depth++) node = node.properties.a;
    expect([depth, node.type]).toEqual([20_000, "string"]);
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic, list: { type: "array", items: cyclic } };
    const { root } = fromOpenAPI(cyclic);
    expect(root.properties!.self).toBe(root);
    expect(root.properties!.list!.items).toBe(root);
    // Not a schema: no node and no union to read (schema validation is validate/'s).
    for (const bad of [null, 1, "x", [], { properties: 3, items: [], "x-kubernetes-validations": "no" }]) {
      const { root, findings } = fromOpenAPI(bad);
      expect([root, findings]).toEqual([{}, []]);
    }
  });
});

describe("consistency errors", () => {
  const under = (node: object) => ({
    type: "object",
    properties: {
      rules: { type: "array", items: { type: "object", properties: { filters: { type: "array", items: node } } } },
    },
  });
  const errors = (node: object) => {
    const { findings } = fromOpenAPI(under(node), { path: ["spec"] });
    for (const f of findings) {
      expect(f.type).toBe("SchemaError");
      expect(f.path).toEqual(["spec", "rules", "filters"]);
    }
    return findings.map((f) => f.detail);
  };
  const props = { type: { type: "string" }, a: obj, b: obj, c: obj, n: { type: "integer" } };

  it("duplicate discriminator values", () => {
    const f = errors({
      type: "object",
      properties: props,
      "x-kubernetes-unions": [{ discriminator: "type", "fields-to-discriminateBy": { a: "A", b: "A" } }],
    });
    expect(f).toEqual(['discriminator value "A" is used by both `a` and `b` (x-kubernetes-unions)']);
  });

  it("a field in two unions", () => {
    const f = errors({
      type: "object",
      properties: props,
      "x-kubernetes-unions": [
        { "fields-to-discriminateBy": { a: "A", b: "B" } },
        { "fields-to-discriminateBy": { b: "B", c: "C" } },
      ],
    });
    expect(f).toEqual(["field `b` is in two unions (x-kubernetes-unions[0]; x-kubernetes-unions[1])"]);
  });

  it("members and discriminators that are not properties", () => {
    const f = errors({
      type: "object",
      properties: props,
      "x-kubernetes-unions": [{ discriminator: "kind", "fields-to-discriminateBy": { z: "Z" } }],
    });
    expect(f).toEqual([
      "member `z` is not a property (x-kubernetes-unions)",
      "discriminator `kind` is not a property (x-kubernetes-unions)",
    ]);
    // Without properties at all there is nothing to compare with.
    expect(errors({ type: "object", "x-kubernetes-unions": [{ discriminator: "kind" }] })).toEqual([]);
  });

  it("a discriminator that is not a string", () => {
    const f = errors({
      type: "object",
      properties: props,
      "x-kubernetes-unions": [{ discriminator: "n", "fields-to-discriminateBy": { a: "A" } }],
    });
    expect(f).toEqual(["discriminator `n` must be a string field, not integer (x-kubernetes-unions)"]);
  });

  it("a discriminator that is also a member", () => {
    const f = errors({
      type: "object",
      properties: props,
      "x-kubernetes-unions": [{ discriminator: "type", "fields-to-discriminateBy": { type: "T", a: "A" } }],
    });
    expect(f).toEqual(["discriminator `type` is also a member (x-kubernetes-unions)"]);
  });

  it("checkUnions reports an empty value that is also a member's value", () => {
    const node: SchemaNode = {
      type: "object",
      properties: { type: { type: "string" }, a: {} },
      unions: [
        {
          discriminator: "type",
          members: [{ field: "a", value: "A", optional: false, kind: "object" }],
          emptyValues: ["A"],
          exactlyOne: false,
          deduce: false,
          origin: "test",
        },
      ],
    };
    const [f] = checkUnions(node, ["spec", "x"]);
    expect(f?.message).toBe(
      'spec.x: Invalid schema: discriminator value "A" is used by both `a` and an empty member (test)',
    );
  });
});

const corpus = path.join(import.meta.dirname, "../../../shared/corpus");
describe.skipIf(!fs.existsSync(corpus))("corpus CRDs", () => {
  const yamlFiles = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return yamlFiles(p);
      return /\.ya?ml$/.test(e.name) ? [p] : [];
    });
  const countUnions = (root: SchemaNode): number => {
    let n = 0;
    const stack = [root];
    for (let node = stack.pop(); node; node = stack.pop()) {
      n += node.unions?.length ?? 0;
      stack.push(...Object.values(node.properties ?? {}));
      if (node.items) stack.push(node.items);
      if (node.additionalProperties) stack.push(node.additionalProperties);
    }
    return n;
  };
  const projects = fs.existsSync(corpus)
    ? fs.readdirSync(corpus).filter((p) => fs.existsSync(path.join(corpus, p, "crds")))
    : [];

  it.skipIf(projects.length === 0)("reads every schema without throwing and finds unions", () => {
    const counts: Record<string, number> = {};
    for (const project of projects) {
      counts[project] = 0;
      for (const file of yamlFiles(path.join(corpus, project, "crds"))) {
        for (const doc of parseAllDocuments(fs.readFileSync(file, "utf8"))) {
          const crd = doc.toJS() as { spec?: { versions?: Array<{ schema?: { openAPIV3Schema?: unknown } }> } };
          for (const version of crd?.spec?.versions ?? []) {
            const { root, findings } = fromOpenAPI(version.schema?.openAPIV3Schema);
            // The corpus declares no malformed unions; what is recognised there must be consistent.
            expect(findings, file).toEqual([]);
            counts[project] += countUnions(root);
          }
        }
      }
    }
    console.log("unions found per corpus project:", counts);
    expect(counts["gateway-api"]).toBeGreaterThan(0);
    expect(counts["cert-manager"]).toBeGreaterThan(0);
  });

  it.skipIf(projects.length === 0)("finds the HTTPRoute filter union in gateway-api standard v1", () => {
    const file = path.join(corpus, "gateway-api/crds/standard/gateway.networking.k8s.io_httproutes.yaml");
    const crd = parseAllDocuments(fs.readFileSync(file, "utf8"))[0]!.toJS();
    const v1 = crd.spec.versions.find((v: { name: string }) => v.name === "v1");
    const { root } = fromOpenAPI(v1.schema.openAPIV3Schema);
    const filters = root.properties!.spec!.properties!.rules!.items!.properties!.filters!.items!;
    expect(filters.unions).toHaveLength(1);
    const u = filters.unions![0]!;
    expect(u).toMatchObject({ discriminator: "type", exactlyOne: true, emptyValues: [] });
    expect(u.members.map((m) => m.field).sort()).toEqual([
      "cors",
      "extensionRef",
      "requestHeaderModifier",
      "requestMirror",
      "requestRedirect",
      "responseHeaderModifier",
      "urlRewrite",
    ]);
    expect(u.members.every((m) => !m.optional)).toBe(true);
  });
});
