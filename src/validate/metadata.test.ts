import { describe, expect, it } from "vitest";
import { loadWorkspace, validateObjects } from "../index.js";
import type { JsonObject } from "../value/index.js";
import { compileSchema, customResourceFinalizerWarnings, validateObjectMetadata, validateWithSchema } from "./index.js";
import { lines, object, resource } from "./test-helpers.js";

const { compiled } = compileSchema(resource({ type: "object" }));
const check = (metadata: JsonObject) => lines(validateWithSchema(compiled, object({}, metadata)).findings);

/** A CRD of `Thing` (example.com/v1) whose schema is any object. */
const thingCrd = [
  "apiVersion: apiextensions.k8s.io/v1",
  "kind: CustomResourceDefinition",
  "metadata: {name: things.example.com}",
  "spec:",
  "  group: example.com",
  "  names: {kind: Thing, plural: things}",
  "  scope: Namespaced",
  "  versions:",
  "  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}",
].join("\n");

const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe("metadata at the root", () => {
  it("name is a DNS-1123 subdomain", () => {
    expect(check({ name: "Foo" })).toEqual([`error metadata.name: Invalid value: "Foo": ${subdomain}`]);
    expect(check({ name: "a.b-c" })).toEqual([]);
    expect(check({ name: "a".repeat(254) })).toEqual([
      `error metadata.name: Invalid value: "${"a".repeat(254)}": must be no more than 253 characters`,
    ]);
  });

  it("name or generateName is required; generateName may end with a dash", () => {
    expect(check({})).toEqual(["error metadata.name: Required value: name or generateName is required"]);
    expect(check({ generateName: "job-" })).toEqual([]);
    expect(check({ generateName: "Job-" })).toEqual([
      `error metadata.generateName: Invalid value: "Job-": ${subdomain}`,
    ]);
  });

  it("namespace is a DNS-1123 label", () => {
    expect(check({ name: "a", namespace: "a.b" })).toEqual([
      'error metadata.namespace: Invalid value: "a.b": must not contain dots',
    ]);
    expect(check({ name: "a", namespace: "Team_A" })).toEqual([
      "error metadata.namespace: Invalid value: \"Team_A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it("label keys are qualified names and values at most 63 characters of the label syntax", () => {
    expect(
      check({ name: "a", labels: { "app.kubernetes.io/name": "web", "": "x", "-x": "", k: "a".repeat(64), v: "-" } }),
    ).toEqual([
      'error metadata.labels: Invalid value: "": name part must be non-empty',
      "error metadata.labels: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "error metadata.labels: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      `error metadata.labels: Invalid value: "${"a".repeat(64)}": must be no more than 63 characters`,
      "error metadata.labels: Invalid value: \"-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
  });

  it("label prefixes are DNS subdomains", () => {
    expect(check({ name: "a", labels: { "Example.com/x": "" } })).toEqual([
      `error metadata.labels: Invalid value: "Example.com/x": prefix part ${subdomain}`,
    ]);
  });

  it("annotation keys are qualified names in any case, and all annotations fit in 256 KiB", () => {
    expect(check({ name: "a", annotations: { "Example.COM/Key": "x" } })).toEqual([]);
    expect(check({ name: "a", annotations: { "a b": "" } })[0]).toContain(
      'metadata.annotations: Invalid value: "a b": name part',
    );
    expect(check({ name: "a", annotations: { big: "x".repeat(256 * 1024) } })).toEqual([
      "error metadata.annotations: Too long: may not be more than 262144 bytes",
    ]);
  });

  it("finalizers are qualified names and field types are ObjectMeta's", () => {
    expect(
      check({ name: "a", finalizers: ["example.com/cleanup", "bad finalizer"], generation: -1, labels: "x" }),
    ).toEqual([
      'error metadata.labels: Invalid value: "string": metadata.labels in body must be of type object: "string"',
      "error metadata.generation: Invalid value: -1: must be greater than or equal to 0",
      "error metadata.finalizers: Invalid value: \"bad finalizer\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  // apimachinery api/validation/objectmeta.go ValidateFinalizers
  it("finalizers may not ask for both orphaning and foreground deletion", () => {
    expect(check({ name: "a", finalizers: ["foregroundDeletion", "example.com/x", "orphan"] })).toEqual([
      'error metadata.finalizers: Invalid value: ["foregroundDeletion","example.com/x","orphan"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
    expect(check({ name: "a", finalizers: ["orphan", "orphan"] })).toEqual([]);
  });

  // apimachinery api/validation/objectmeta.go validateOwnerReference, ValidateOwnerReferences, BannedOwners
  it("owner references name a version, kind, name and uid, are no Event, and have one controller at most", () => {
    const owner = (kind: string, name: string, controller?: boolean) => ({
      apiVersion: "apps/v1",
      kind,
      name,
      uid: `uid-${name}`,
      ...(controller === undefined ? {} : { controller }),
    });
    expect(
      check({ name: "a", ownerReferences: [owner("ReplicaSet", "r", true), owner("Deployment", "d", false)] }),
    ).toEqual([]);
    expect(
      check({
        name: "a",
        ownerReferences: [
          owner("ReplicaSet", "r", true),
          owner("Deployment", "d", true),
          owner("StatefulSet", "s", true),
        ],
      }),
    ).toEqual([
      'error metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"uid-r","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"uid-d","controller":true},{"apiVersion":"apps/v1","kind":"StatefulSet","name":"s","uid":"uid-s","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/r and Deployment/d',
      'error metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"uid-r","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"uid-d","controller":true},{"apiVersion":"apps/v1","kind":"StatefulSet","name":"s","uid":"uid-s","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/r and StatefulSet/s',
    ]);
    expect(check({ name: "a", ownerReferences: [{ apiVersion: "v1", kind: "Event", name: "e", uid: "u" }] })).toEqual([
      'error metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    ]);
    // events.k8s.io's Event is not the banned one
    expect(
      check({ name: "a", ownerReferences: [{ apiVersion: "events.k8s.io/v1", kind: "Event", name: "e", uid: "u" }] }),
    ).toEqual([]);
    // schema.FromAPIVersionAndKind: "apps" is a version of the core group; "apps/" and "a/b/c" have none
    expect(check({ name: "a", ownerReferences: [{ apiVersion: "a/b/c", kind: "K", name: "n", uid: "u" }] })).toEqual([
      'error metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
    ]);
    expect(check({ name: "a", ownerReferences: [{ apiVersion: "apps/", kind: "", name: "", uid: "" }] })).toEqual([
      'error metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
      'error metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'error metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'error metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
  });

  it("a label or annotation value that is not a string is named by its own entry, with its type", () => {
    expect(check({ name: "a", annotations: { ok: "fine", x: 1 } })).toEqual([
      'error metadata.annotations.x: Invalid value: "integer": metadata.annotations.x in body must be of type string: "integer"',
    ]);
    // A null decodes as "" (Go's encoding/json), which is a valid value.
    expect(check({ name: "a", labels: { ok: "fine", n: 1.5, l: ["a"], m: {}, b: true, z: null } })).toEqual([
      'error metadata.labels.n: Invalid value: "number": metadata.labels.n in body must be of type string: "number"',
      'error metadata.labels.l: Invalid value: "array": metadata.labels.l in body must be of type string: "array"',
      'error metadata.labels.m: Invalid value: "object": metadata.labels.m in body must be of type string: "object"',
      'error metadata.labels.b: Invalid value: "boolean": metadata.labels.b in body must be of type string: "boolean"',
    ]);
    const [found] = validateWithSchema(
      compiled,
      object({}, { name: "a", labels: { "app.kubernetes.io/x": 7 } }),
    ).findings;
    expect(found?.path).toEqual(["metadata", "labels", "app.kubernetes.io/x"]);
  });

  it("is located on the entry's line, for custom resources and Kubernetes' own kinds", () => {
    const meta = "metadata:\n  name: a\n  annotations:\n    ok: fine\n    x: 1\n  labels:\n    tier: true\n";
    for (const head of ["apiVersion: v1\nkind: ConfigMap\n", "apiVersion: example.com/v1\nkind: Thing\n"]) {
      const ws = loadWorkspace({
        inputs: [{ path: "o.yaml", text: head + meta }],
        crds: [{ path: "c.yaml", text: thingCrd }],
      });
      expect(validateObjects(ws.objects, ws.catalog).map((f) => `${f.line}:${f.column}: ${f.message}`)).toEqual([
        '7:5: metadata.annotations.x: Invalid value: "integer": metadata.annotations.x in body must be of type string: "integer"',
        '9:5: metadata.labels.tier: Invalid value: "boolean": metadata.labels.tier in body must be of type string: "boolean"',
      ]);
    }
  });

  it("the schema's own restrictions on metadata.name apply too", () => {
    const restricted = compileSchema(
      resource(
        { type: "object" },
        { metadata: { type: "object", properties: { name: { type: "string", maxLength: 5 } } } },
      ),
    ).compiled;
    expect(lines(validateWithSchema(restricted, object({}, { name: "toolong", labels: { a: "b" } })).findings)).toEqual(
      ["error metadata.name: Too long: may not be more than 5 bytes"],
    );
  });
});

describe("a custom resource's finalizers without a domain (apiextensions customresource strategy, WarningsOnCreate)", () => {
  const withFinalizers = (finalizers: unknown[]): JsonObject =>
    ({ apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t", finalizers } }) as JsonObject;
  const text = (name: string) =>
    `metadata.finalizers: "${name}": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`;

  it("warns of each, sorted and once, but not of the standard ones nor of domain-qualified ones", () => {
    const found = customResourceFinalizerWarnings(
      withFinalizers(["thing.example.com", "cleanup", "kubernetes", "example.com/cleanup", "cleanup", "orphan"]),
    );
    expect(found.map((f) => [f.severity, f.message, f.field])).toEqual([
      ["warning", text("cleanup"), "metadata.finalizers[1]"],
      ["warning", text("thing.example.com"), "metadata.finalizers[0]"],
    ]);
  });

  it("on an update, only the finalizers the object adds", () => {
    expect(
      customResourceFinalizerWarnings(withFinalizers(["cleanup", "added"]), withFinalizers(["cleanup"])).map(
        (f) => f.message,
      ),
    ).toEqual([text("added")]);
  });

  it("at the finalizer's line, for a custom resource and not for a ConfigMap (core's rule is an error there)", () => {
    const meta = "metadata:\n  name: a\n  finalizers:\n  - cleanup\n";
    const ws = loadWorkspace({
      inputs: [{ path: "o.yaml", text: `apiVersion: example.com/v1\nkind: Thing\n${meta}` }],
      crds: [{ path: "c.yaml", text: thingCrd }],
    });
    expect(validateObjects(ws.objects, ws.catalog).map((f) => `${f.line}:${f.column}: ${f.message}`)).toEqual([
      `6:5: ${text("cleanup")}`,
    ]);
  });

  it("says nothing of a name that is no qualified name: ValidateObjectMeta refuses it", () => {
    expect(customResourceFinalizerWarnings(withFinalizers(["Bad Name"]))).toEqual([]);
    expect(validateObjectMetadata(withFinalizers(["Bad Name"])).map((f) => f.severity)).toEqual(["error"]);
  });
});
