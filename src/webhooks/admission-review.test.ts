import { describe, expect, it } from "vitest";
import { type Finding, finding } from "../findings/index.js";
import type { Change } from "../unions/index.js";
import type { JsonObject } from "../value/index.js";
import { type AdmissionLookup, base64, handleAdmissionReview, jsonPatch } from "./index.js";

const uid = "3f1e2d4c-0000-4000-8000-000000000001";
const review = (operation: string, object: JsonObject | null, oldObject: JsonObject | null = null): JsonObject => ({
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  request: {
    uid,
    kind: { group: "example.com", version: "v1", kind: "Thing" },
    operation,
    object,
    oldObject,
    dryRun: false,
  },
});

/** A union of `a` and `b` with discriminator `type` (values A, B) at spec. */
const schema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: { type: { type: "string" }, a: { type: "object" }, b: { type: "object" } },
      unions: [
        {
          discriminator: "type",
          members: [
            { field: "a", value: "A" },
            { field: "b", value: "B" },
          ],
        },
      ],
    },
  },
};

function lookupWith(errors: (o: JsonObject) => Finding[] = () => []): AdmissionLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (apiVersion: string, kind: string) => {
    calls.push(`${apiVersion} ${kind}`);
    return { schema: undefined, validate: (o: JsonObject) => errors(o) };
  };
  return Object.assign(lookup, { calls });
}

const thing = (spec: JsonObject): JsonObject => ({ apiVersion: "example.com/v1", kind: "Thing", spec });
// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions that read them
const body = (a: { body: unknown }): any => a.body;

describe("handleAdmissionReview", () => {
  it("allows an object that validates and needs no change, with no patch; echoes uid and apiVersion", () => {
    const lookup = lookupWith();
    const answer = handleAdmissionReview(review("CREATE", thing({ x: 1 })), lookup);
    expect(answer).toEqual({
      status: 200,
      body: { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid, allowed: true } },
    });
    expect(lookup.calls).toEqual(["example.com/v1 Thing"]);
  });

  it("denies an invalid object with a Kubernetes Status, one cause per error", () => {
    const errors = () => [
      finding({ type: "FieldValueRequired", path: ["spec", "x"], detail: "", rule: "schema" }),
      finding({ type: "FieldValueInvalid", path: ["spec", "y"], badValue: 3, detail: "too big", rule: "cel" }),
      {
        ...finding({ type: "UnknownField", path: ["spec", "z"], detail: "", rule: "schema" }),
        severity: "warning" as const,
      },
    ];
    const response = body(handleAdmissionReview(review("CREATE", thing({})), lookupWith(errors))).response;
    expect(response.allowed).toBe(false);
    expect(response.uid).toBe(uid);
    expect(response.status).toEqual({
      status: "Failure",
      code: 422,
      reason: "Invalid",
      message: "spec.x: Required value; spec.y: Invalid value: 3: too big",
      details: {
        causes: [
          { reason: "FieldValueRequired", message: "spec.x: Required value", field: "spec.x" },
          { reason: "FieldValueInvalid", message: "spec.y: Invalid value: 3: too big", field: "spec.y" },
        ],
      },
    });
  });

  it("validates UPDATE against the old object, and ignores oldObject on CREATE", () => {
    const seen: Array<JsonObject | undefined> = [];
    const lookup: AdmissionLookup = () => ({
      schema: undefined,
      validate: (_o, old) => {
        seen.push(old);
        return [];
      },
    });
    handleAdmissionReview(review("UPDATE", thing({ v: 2 }), thing({ v: 1 })), lookup);
    handleAdmissionReview(review("CREATE", thing({ v: 2 }), thing({ v: 1 })), lookup);
    expect(seen).toEqual([thing({ v: 1 }), undefined]);
  });

  it.each(["DELETE", "CONNECT"])("allows %s unchanged without a lookup", (operation) => {
    const lookup = lookupWith(() => [finding({ type: "FieldValueRequired", path: [], detail: "", rule: "x" })]);
    const answer = body(handleAdmissionReview(review(operation, null, thing({})), lookup));
    expect(answer.response).toEqual({ uid, allowed: true });
    expect(lookup.calls).toEqual([]);
  });

  it("falls back to request.kind when the object has no apiVersion", () => {
    const lookup = lookupWith();
    handleAdmissionReview(review("CREATE", { spec: {} }), lookup);
    expect(lookup.calls).toEqual(["example.com/v1 Thing"]);
  });

  it.each([
    ["not an object", [], ""],
    ["another apiVersion", { ...review("CREATE", thing({})), apiVersion: "admission.k8s.io/v2" }, "apiVersion"],
    ["another kind", { ...review("CREATE", thing({})), kind: "ConversionReview" }, "kind"],
    ["no request", { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" }, "request"],
    ["an empty uid", { ...review("CREATE", thing({})), request: { uid: "", operation: "CREATE" } }, "request.uid"],
    ["an unknown operation", review("PATCH", thing({})), "request.operation"],
    ["CREATE without object", review("CREATE", null), "request.object"],
    [
      "an object that is a string",
      { ...review("CREATE", thing({})), request: { uid, operation: "CREATE", object: "x" } },
      "request.object",
    ],
  ])("a malformed review (%s) is a 400 naming the field", (_name, input, field) => {
    const answer = handleAdmissionReview(input, lookupWith());
    expect(answer.status).toBe(400);
    expect(body(answer).field).toBe(field);
  });

  it("does not mutate the review", () => {
    const input = review("UPDATE", thing({ type: "A", b: {} }), thing({ type: "B", b: {} }));
    const before = structuredClone(input);
    handleAdmissionReview(input, () => ({ schema: schema as never, validate: () => [] }));
    expect(input).toEqual(before);
  });
});

describe("jsonPatch", () => {
  const object = { spec: { type: "B", b: { x: 1 }, "a/b": 1 } };
  it("clear → remove, set → replace when present, add when absent", () => {
    const changes: Change[] = [
      { op: "clear", path: "spec.b", pointer: "/spec/b" },
      { op: "set", path: "spec.type", pointer: "/spec/type", value: "A" },
      { op: "restore", path: "spec.a", pointer: "/spec/a", value: { y: 2 } },
      { op: "set", path: "spec[a/b]", pointer: "/spec/a~1b", value: 2 },
    ];
    expect(jsonPatch(object, changes)).toEqual([
      { op: "remove", path: "/spec/b" },
      { op: "replace", path: "/spec/type", value: "A" },
      { op: "add", path: "/spec/a", value: { y: 2 } },
      { op: "replace", path: "/spec/a~1b", value: 2 },
    ]);
  });

  it("adds a field removed earlier in the same patch", () => {
    const changes: Change[] = [
      { op: "clear", path: "spec.b", pointer: "/spec/b" },
      { op: "restore", path: "spec.b", pointer: "/spec/b", value: {} },
    ];
    expect(jsonPatch(object, changes)[1]?.op).toBe("add");
  });
});

describe("base64", () => {
  it.each(["", "f", "fo", "foo", "foob", '[{"op":"remove","path":"/spec/x"}]', "ünïcødé ✓ 🚀"])(
    "%j as Buffer does",
    (s) => {
      expect(base64(s)).toBe(Buffer.from(s, "utf8").toString("base64"));
    },
  );
});
