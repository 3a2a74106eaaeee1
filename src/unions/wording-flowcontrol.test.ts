/**
 * The flowcontrol unions in the API server's words
 * (pkg/apis/flowcontrol/validation/validation.go: ValidateFlowSchemaSubject,
 * ValidatePriorityLevelConfigurationSpec, ValidateLimitResponse), run on the
 * unions the built-in registry declares, as union validation runs them.
 */
import { describe, expect, it } from "vitest";
import { builtinSchemaFor } from "../builtins/registry.js";
import type { FieldPath } from "../path/index.js";
import type { SchemaNode, Union } from "../schema/index.js";
import type { JsonObject } from "../value/index.js";
import { discriminatorOf, isSet } from "./members.js";
import { wordings } from "./wording.js";

const v1 = "flowcontrol.apiserver.k8s.io/v1";

/** The union at `fields` below a built-in kind's schema (list items through "[]"). */
function unionAt(kind: string, fields: string[]): Union {
  let node: SchemaNode | undefined = builtinSchemaFor(v1, kind);
  for (const f of fields) node = f === "[]" ? node?.items : node?.properties?.[f];
  const u = node?.unions?.[0];
  if (!u) throw new Error(`no union at ${fields.join(".")}`);
  return u;
}

function said(key: string, u: Union, node: JsonObject, path: FieldPath): string[] {
  const wording = wordings[key];
  if (!wording) throw new Error(`no wording ${key}`);
  const findings = wording({
    union: u,
    path,
    node,
    isSet: (m) => isSet(node, m),
    discriminatorValue: discriminatorOf(node, u),
  });
  for (const f of findings) expect([f.rule, f.severity]).toEqual(["union", "error"]);
  return findings.map((f) => f.message);
}

describe("flowSchemaSubject (ValidateFlowSchemaSubject)", () => {
  const u = unionAt("FlowSchema", ["spec", "rules", "[]", "subjects", "[]"]);
  const path = ["spec", "rules", 0, "subjects", 0];
  const subject = (node: JsonObject) => said("flowSchemaSubject", u, node, path);
  const p = "spec.rules[0].subjects[0]";

  it("accepts the member its kind selects", () => {
    expect(subject({ kind: "User", user: { name: "alice" } })).toEqual([]);
    expect(subject({ kind: "Group", group: { name: "system:masters" } })).toEqual([]);
    expect(subject({ kind: "ServiceAccount", serviceAccount: { namespace: "a", name: "b" } })).toEqual([]);
    // an empty member is set: what it holds is hand-written validation's
    expect(subject({ kind: "User", user: {} })).toEqual([]);
  });

  it("requires the selected member, at the member, naming the kind", () => {
    expect(subject({ kind: "User" })).toEqual([
      `${p}.user: Required value: user is required when subject kind is 'User'`,
    ]);
    expect(subject({ kind: "Group", group: null })).toEqual([
      `${p}.group: Required value: group is required when subject kind is 'Group'`,
    ]);
    expect(subject({ kind: "ServiceAccount" })).toEqual([
      `${p}.serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'`,
    ]);
  });

  it("forbids every other member set, after the selected one, in the server's order", () => {
    // the server's own test cases: "malformed Subject union in ServiceAccount / User / Group case"
    expect(subject({ kind: "ServiceAccount", user: { name: "fred" }, group: { name: "fred" } })).toEqual([
      `${p}.serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'`,
      `${p}.user: Forbidden: user is forbidden when subject kind is not 'User'`,
      `${p}.group: Forbidden: group is forbidden when subject kind is not 'Group'`,
    ]);
    expect(subject({ kind: "User", group: { name: "fred" }, serviceAccount: { namespace: "s", name: "n" } })).toEqual([
      `${p}.user: Required value: user is required when subject kind is 'User'`,
      `${p}.serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'`,
      `${p}.group: Forbidden: group is forbidden when subject kind is not 'Group'`,
    ]);
    expect(
      subject({ kind: "Group", group: { name: "g" }, user: { name: "u" }, serviceAccount: { namespace: "s" } }),
    ).toEqual([
      `${p}.serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'`,
      `${p}.user: Forbidden: user is forbidden when subject kind is not 'User'`,
    ]);
  });

  it("refuses an empty or unknown kind at kind, sorted values, members unexamined", () => {
    const kinds = 'supported values: "Group", "ServiceAccount", "User"';
    expect(subject({})).toEqual([`${p}.kind: Unsupported value: "": ${kinds}`]);
    expect(subject({ kind: "", user: { name: "u" } })).toEqual([`${p}.kind: Unsupported value: "": ${kinds}`]);
    expect(subject({ kind: "user", user: { name: "u" }, group: { name: "g" } })).toEqual([
      `${p}.kind: Unsupported value: "user": ${kinds}`,
    ]);
  });

  it("leaves a kind that is not a string to the schema", () => {
    expect(subject({ kind: 3, user: { name: "u" } })).toEqual([]);
  });
});

describe("priorityLevelConfigurationSpec (ValidatePriorityLevelConfigurationSpec, ValidateLimitResponse)", () => {
  const u = unionAt("PriorityLevelConfiguration", ["spec"]);
  const spec = (node: JsonObject) => said("priorityLevelConfigurationSpec", u, node, ["spec"]);
  const reject = { limitResponse: { type: "Reject" } };

  it("accepts each type with its member", () => {
    expect(spec({ type: "Exempt" })).toEqual([]);
    expect(spec({ type: "Exempt", exempt: { nominalConcurrencyShares: 0 } })).toEqual([]);
    expect(spec({ type: "Limited", limited: reject })).toEqual([]);
    expect(spec({ type: "Limited", limited: { limitResponse: { type: "Queue", queuing: {} } } })).toEqual([]);
  });

  it("forbids limited under Exempt", () => {
    expect(spec({ type: "Exempt", limited: reject })).toEqual([
      "spec.limited: Forbidden: must be nil if the type is not Limited",
    ]);
  });

  it("forbids exempt, then requires limited, under Limited", () => {
    expect(spec({ type: "Limited", exempt: {} })).toEqual([
      "spec.exempt: Forbidden: must be nil if the type is Limited",
      "spec.limited: Required value: must not be empty when type is Limited",
    ]);
    expect(spec({ type: "Limited", limited: null })).toEqual([
      "spec.limited: Required value: must not be empty when type is Limited",
    ]);
  });

  it("refuses an empty or unknown type, and then looks at nothing else", () => {
    const types = 'supported values: "Exempt", "Limited"';
    expect(spec({})).toEqual([`spec.type: Unsupported value: "": ${types}`]);
    expect(spec({ type: "", limited: { limitResponse: { type: "Bogus" } } })).toEqual([
      `spec.type: Unsupported value: "": ${types}`,
    ]);
    expect(spec({ type: "limited", exempt: {} })).toEqual([`spec.type: Unsupported value: "limited": ${types}`]);
  });

  it("leaves a type that is not a string to the schema", () => {
    expect(spec({ type: 1, exempt: {}, limited: {} })).toEqual([]);
  });

  describe("the limitResponse, judged under Limited alone", () => {
    const limited = (limitResponse: JsonObject | null | undefined) =>
      spec({ type: "Limited", limited: limitResponse === undefined ? {} : { limitResponse } });
    const lr = "spec.limited.limitResponse";

    it("forbids queuing under Reject", () => {
      expect(limited({ type: "Reject", queuing: { queues: 1 } })).toEqual([
        `${lr}.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited`,
      ]);
      expect(limited({ type: "Reject", queuing: null })).toEqual([]);
    });

    it("requires queuing under Queue", () => {
      expect(limited({ type: "Queue" })).toEqual([
        `${lr}.queuing: Required value: must not be empty if limited.limitResponse.type is Limited`,
      ]);
    });

    it("refuses an unknown or empty type, an absent limitResponse being Go's zero value", () => {
      const types = 'supported values: "Queue", "Reject"';
      expect(limited({ type: "Queuing", queuing: {} })).toEqual([`${lr}.type: Unsupported value: "Queuing": ${types}`]);
      expect(limited({})).toEqual([`${lr}.type: Unsupported value: "": ${types}`]);
      expect(limited(null)).toEqual([`${lr}.type: Unsupported value: "": ${types}`]);
      expect(limited(undefined)).toEqual([`${lr}.type: Unsupported value: "": ${types}`]);
    });

    it("is not looked at under Exempt or an unknown type", () => {
      expect(spec({ type: "Exempt", limited: { limitResponse: { type: "Queue" } } })).toEqual([
        "spec.limited: Forbidden: must be nil if the type is not Limited",
      ]);
      expect(spec({ type: "X", limited: { limitResponse: { type: "Queue" } } })).toEqual([
        'spec.type: Unsupported value: "X": supported values: "Exempt", "Limited"',
      ]);
    });
  });
});

describe("limitResponse", () => {
  it("reports nothing itself: the spec's wording judges it", () => {
    const u = unionAt("PriorityLevelConfiguration", ["spec", "limited", "limitResponse"]);
    expect(said("limitResponse", u, { type: "Queue" }, ["spec", "limited", "limitResponse"])).toEqual([]);
    expect(said("limitResponse", u, { type: "X", queuing: {} }, ["spec", "limited", "limitResponse"])).toEqual([]);
  });
});
