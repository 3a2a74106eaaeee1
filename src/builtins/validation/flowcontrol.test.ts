/**
 * FlowSchemas and PriorityLevelConfigurations as
 * pkg/apis/flowcontrol/validation/validation.go refuses them on create
 * (releases 1.32 to 1.36), word for word, after flowcontrol/v1's defaults.
 * The union rules (a subject's kind, the spec's type, the limitResponse's
 * type) are unions/wording-flowcontrol.ts's and must not appear here.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../value/index.js";
import { validateFlowSchema, validatePriorityLevelConfiguration } from "./flowcontrol.js";
import { dns1123LabelError, dns1123SubdomainError } from "./test-helpers.js";

const v1 = "flowcontrol.apiserver.k8s.io/v1";

/** Every message, as `validateHandWritten` would give it for the registered kind. */
const messages = (fs: (o: JsonObject, minor: number) => { message: string; rule: string }[], o: JsonObject) =>
  fs(o, 36).map((f) => {
    expect(f.rule).toBe("schema");
    return f.message;
  });

// ---------------------------------------------------------------------------
// FlowSchema

/** A FlowSchema as a cluster's own configuration ships it. */
const flowSchema = (spec: JsonObject | null | undefined, name = "team-a"): JsonObject => {
  const o: JsonObject = { apiVersion: v1, kind: "FlowSchema", metadata: { name } };
  if (spec !== undefined) o.spec = spec;
  return o;
};
const saSubjects = [{ kind: "ServiceAccount", serviceAccount: { namespace: "team-a", name: "*" } }];
const rule = (extra: JsonObject = {}): JsonObject => ({
  subjects: saSubjects,
  resourceRules: [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"], namespaces: ["team-a"] }],
  ...extra,
});
const spec = (extra: JsonObject = {}): JsonObject => ({
  priorityLevelConfiguration: { name: "workload-low" },
  matchingPrecedence: 500,
  distinguisherMethod: { type: "ByNamespace" },
  rules: [rule()],
  ...extra,
});
const fs = (s: JsonObject | null | undefined, name?: string) => messages(validateFlowSchema, flowSchema(s, name));
const withRule = (r: JsonObject) => fs(spec({ rules: [r] }));
const r0 = "spec.rules[0]";

describe("ValidateFlowSchemaSpec", () => {
  it("accepts a valid FlowSchema", () => {
    expect(fs(spec())).toEqual([]);
  });

  it("defaults matchingPrecedence 0 or unset to 1000 first (SetDefaults_FlowSchemaSpec)", () => {
    expect(fs(spec({ matchingPrecedence: 0 }))).toEqual([]);
    expect(fs(spec({ matchingPrecedence: null }))).toEqual([]);
  });

  it("refuses a negative or too large matchingPrecedence", () => {
    expect(fs(spec({ matchingPrecedence: -1 }))).toEqual([
      "spec.matchingPrecedence: Invalid value: -1: must be a positive value",
    ]);
    expect(fs(spec({ matchingPrecedence: 10001 }))).toEqual([
      "spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000",
    ]);
    expect(fs(spec({ matchingPrecedence: 10000 }))).toEqual([]);
  });

  it("keeps matchingPrecedence 1 for the schema named exempt", () => {
    expect(fs(spec({ matchingPrecedence: 1 }))).toEqual([
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
    ]);
  });

  it("refuses an unknown distinguisher method, the method itself the bad value", () => {
    const methods = 'supported values: "ByNamespace", "ByUser"';
    expect(fs(spec({ distinguisherMethod: { type: "ByGroup" } }))).toEqual([
      `spec.distinguisherMethod.type: Unsupported value: {"type":"ByGroup"}: ${methods}`,
    ]);
    expect(fs(spec({ distinguisherMethod: { type: "" } }))).toEqual([
      `spec.distinguisherMethod.type: Unsupported value: {"type":""}: ${methods}`,
    ]);
    // an absent type is Go's "" (the schema's bare Required is not said: required-groups.ts); no method at all
    // is the degenerate one
    expect(fs(spec({ distinguisherMethod: {} }))).toEqual([
      `spec.distinguisherMethod.type: Unsupported value: {"type":""}: ${methods}`,
    ]);
    expect(fs(spec({ distinguisherMethod: null }))).toEqual([]);
  });

  it("checks the priority level's name as a DNS subdomain", () => {
    expect(fs(spec({ priorityLevelConfiguration: { name: "Workload_Low" } }))).toEqual([
      `spec.priorityLevelConfiguration.name: Invalid value: "Workload_Low": ${dns1123SubdomainError}`,
    ]);
  });

  it("requires a priority level, however it is missing (the reference is a struct: absent is its zero value)", () => {
    const must = "spec.priorityLevelConfiguration.name: Required value: must reference a priority level";
    expect(fs(spec({ priorityLevelConfiguration: { name: "" } }))).toEqual([must]);
    expect(fs(spec({ priorityLevelConfiguration: null }))).toEqual([must]);
    expect(fs(undefined)).toEqual([must]);
    expect(fs(spec({ priorityLevelConfiguration: {} }))).toEqual([must]);
    const { priorityLevelConfiguration: _, ...rest } = spec();
    expect(fs(rest)).toEqual([must]);
  });

  it("leaves a spec that is not an object to the schema", () => {
    expect(messages(validateFlowSchema, { ...flowSchema(undefined), spec: "x" })).toEqual([]);
  });
});

describe("ValidateFlowSchemaPolicyRulesWithSubjects", () => {
  it("requires subjects written empty, and some rule", () => {
    expect(withRule(rule({ subjects: [] }))).toEqual([
      `${r0}.subjects: Required value: subjects must contain at least one value`,
    ]);
    expect(withRule({ subjects: saSubjects })).toEqual([
      `${r0}: Required value: at least one of resourceRules and nonResourceRules has to be non-empty`,
    ]);
    expect(withRule({ subjects: saSubjects, resourceRules: [], nonResourceRules: null })).toEqual([
      `${r0}: Required value: at least one of resourceRules and nonResourceRules has to be non-empty`,
    ]);
  });

  it("requires absent subjects too (Go's nil slice), and leaves subjects that are no list to the schema", () => {
    const { subjects: _, ...noSubjects } = rule();
    expect(withRule(noSubjects)).toEqual([`${r0}.subjects: Required value: subjects must contain at least one value`]);
    expect(withRule({ ...noSubjects, subjects: "x" })).toEqual([]);
  });
});

describe("ValidateFlowSchemaSubject's member checks", () => {
  const subject = (s: JsonObject) => withRule(rule({ subjects: [s] }));
  const sa = `${r0}.subjects[0].serviceAccount`;

  it("checks a service account's name (or '*') and namespace (ValidateServiceAccountSubject)", () => {
    expect(subject({ kind: "ServiceAccount", serviceAccount: { namespace: "kube-system", name: "job-ctl" } })).toEqual(
      [],
    );
    expect(subject({ kind: "ServiceAccount", serviceAccount: { namespace: "Team_A", name: "Bad_Name" } })).toEqual([
      `${sa}.name: Invalid value: "Bad_Name": ${dns1123SubdomainError}`,
      `${sa}.namespace: Invalid value: "Team_A": ${dns1123LabelError}`,
    ]);
    expect(subject({ kind: "ServiceAccount", serviceAccount: { namespace: "", name: "" } })).toEqual([
      `${sa}.name: Required value`,
      `${sa}.namespace: Required value: must specify namespace for service account`,
    ]);
    // an absent name is the schema's bare Required (the server's words too); an absent namespace is "", in
    // the server's words; the members a kind does not select are not looked into
    expect(subject({ kind: "ServiceAccount", serviceAccount: {} })).toEqual([
      `${sa}.namespace: Required value: must specify namespace for service account`,
    ]);
    expect(subject({ kind: "User", user: { name: "u" }, serviceAccount: { namespace: "X" } })).toEqual([]);
  });

  it("requires a user's or a group's name written empty (ValidateUserSubject, ValidateGroupSubject)", () => {
    expect(subject({ kind: "User", user: { name: "" } })).toEqual([`${r0}.subjects[0].user.name: Required value`]);
    expect(subject({ kind: "Group", group: { name: null } })).toEqual([`${r0}.subjects[0].group.name: Required value`]);
    expect(subject({ kind: "Group", group: {} })).toEqual([]);
  });

  it("leaves the union (a member missing, another set, an unknown kind) to the union's wording", () => {
    expect(subject({ kind: "User" })).toEqual([]);
    expect(subject({ kind: "User", user: { name: "u" }, group: { name: "g" } })).toEqual([]);
    expect(subject({ kind: "Nobody" })).toEqual([]);
  });
});

describe("ValidateFlowSchemaResourcePolicyRule", () => {
  const resource = (rr: JsonObject) =>
    withRule(rule({ resourceRules: [{ ...(rule().resourceRules as JsonObject[])[0], ...rr }] }));
  const rr = `${r0}.resourceRules[0]`;
  const verbs =
    'supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"';

  it("checks verbs: some, '*' alone, else supported ones (the list the bad value)", () => {
    expect(resource({ verbs: ["*"] })).toEqual([]);
    expect(resource({ verbs: [] })).toEqual([`${rr}.verbs: Required value: verbs must contain at least one value`]);
    expect(resource({ verbs: ["*", "create"] })).toEqual([
      `${rr}.verbs: Invalid value: ["*","create"]: if '*' is present, must not specify other verbs`,
    ]);
    expect(resource({ verbs: ["get", "exec"] })).toEqual([`${rr}.verbs: Unsupported value: ["get","exec"]: ${verbs}`]);
  });

  it("checks apiGroups and resources: some, and '*' alone", () => {
    expect(resource({ apiGroups: [], resources: null })).toEqual([
      `${rr}.apiGroups: Required value: resource rules must supply at least one api group`,
      `${rr}.resources: Required value: resource rules must supply at least one resource`,
    ]);
    expect(resource({ apiGroups: ["*", "apps"], resources: ["*", "tok"] })).toEqual([
      `${rr}.apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other api groups`,
      `${rr}.resources: Invalid value: ["*","tok"]: if '*' is present, must not specify other resources`,
    ]);
  });

  it("checks namespaces: some unless cluster-scoped, '*' alone, else DNS labels", () => {
    const required = `${rr}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`;
    expect(resource({ namespaces: [] })).toEqual([required]);
    expect(resource({ namespaces: null })).toEqual([required]);
    expect(resource({ namespaces: [], clusterScope: true })).toEqual([]);
    expect(resource({ namespaces: ["*"] })).toEqual([]);
    expect(resource({ namespaces: ["*", "a"], clusterScope: true })).toEqual([
      `${rr}.namespaces: Invalid value: ["*","a"]: if '*' is present, must not specify other namespaces`,
    ]);
    expect(resource({ namespaces: ["ok", "Not_OK"] })).toEqual([
      `${rr}.namespaces[1]: Invalid value: "Not_OK": each member of this list must be '*' or a DNS-1123 label; ${dns1123LabelError}`,
    ]);
  });
});

describe("ValidateFlowSchemaNonResourcePolicyRule and ValidateNonResourceURLPath", () => {
  const nonResource = (verbs: JsonValue, nonResourceURLs: JsonValue) =>
    withRule(rule({ resourceRules: null, nonResourceRules: [{ verbs, nonResourceURLs }] }));
  const nr = `${r0}.nonResourceRules[0]`;

  it("accepts paths, '/', a suffix wildcard and '*' alone", () => {
    expect(nonResource(["get"], ["/healthz", "/", "/apis/*"])).toEqual([]);
    expect(nonResource(["*"], ["*"])).toEqual([]);
  });

  it("checks the verbs as resource rules do", () => {
    expect(nonResource([], ["/"])).toEqual([`${nr}.verbs: Required value: verbs must contain at least one value`]);
  });

  it("requires URLs, '*' alone", () => {
    expect(nonResource(["get"], [])).toEqual([
      `${nr}.nonResourceURLs: Required value: nonResourceURLs must contain at least one value`,
    ]);
    expect(nonResource(["get"], ["*", "/healthz"])).toEqual([
      `${nr}.nonResourceURLs: Invalid value: ["*","/healthz"]: if '*' is present, must not specify other non-resource URLs`,
    ]);
  });

  it("reports the first rule each path breaks", () => {
    expect(nonResource(["get"], ["", "healthz", "/a b", "//a", "/a/*/b", "/a*", "/a/**"])).toEqual([
      `${nr}.nonResourceURLs[0]: Invalid value: "": must not be empty`,
      `${nr}.nonResourceURLs[1]: Invalid value: "healthz": must start with slash`,
      `${nr}.nonResourceURLs[2]: Invalid value: "/a b": must not contain white-space`,
      `${nr}.nonResourceURLs[3]: Invalid value: "//a": must not contain double slash`,
      `${nr}.nonResourceURLs[4]: Invalid value: "/a/*/b": wildcard can only do suffix matching`,
      `${nr}.nonResourceURLs[5]: Invalid value: "/a*": wildcard can only do suffix matching`,
      `${nr}.nonResourceURLs[6]: Invalid value: "/a/**": wildcard can only do suffix matching`,
    ]);
  });
});

describe("ValidateFlowSchema: the mandatory schemas", () => {
  const all = {
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] }],
    nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
  };
  const group = (name: string) => ({ kind: "Group", group: { name } });
  const exempt: JsonObject = {
    priorityLevelConfiguration: { name: "exempt" },
    matchingPrecedence: 1,
    rules: [{ subjects: [group("system:masters")], ...all }],
  };
  const catchAll: JsonObject = {
    priorityLevelConfiguration: { name: "catch-all" },
    matchingPrecedence: 10000,
    distinguisherMethod: { type: "ByUser" },
    rules: [{ subjects: [group("system:unauthenticated"), group("system:authenticated")], ...all }],
  };

  it("accepts their fixed spec (the server's own test cases)", () => {
    expect(fs(exempt, "exempt")).toEqual([]);
    expect(fs(catchAll, "catch-all")).toEqual([]);
  });

  it("refuses any other spec under their names, the spec as the bad value", () => {
    const badExempt = { ...exempt, matchingPrecedence: 2 };
    expect(fs(badExempt, "exempt")).toEqual([
      `spec: Invalid value: ${JSON.stringify(badExempt)}: spec of 'exempt' must equal the fixed value`,
    ]);
    const badCatchAll = { ...catchAll, priorityLevelConfiguration: { name: "exempt" } };
    expect(fs(badCatchAll, "catch-all")).toEqual([
      `spec: Invalid value: ${JSON.stringify(badCatchAll)}: spec of 'catch-all' must equal the fixed value`,
    ]);
    // the subjects' order counts
    const swapped = {
      ...catchAll,
      rules: [{ subjects: [group("system:authenticated"), group("system:unauthenticated")], ...all }],
    };
    expect(fs(swapped, "catch-all")).toHaveLength(1);
  });

  it("compares after defaulting, null lists as empty", () => {
    const defaulted = {
      ...catchAll,
      matchingPrecedence: 10000,
      rules: [{ ...(catchAll.rules as JsonObject[])[0], extra: null }],
    };
    expect(fs(defaulted, "catch-all")).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// PriorityLevelConfiguration

const priorityLevel = (s: JsonObject | undefined, name = "workload-low", annotations?: JsonObject): JsonObject => {
  const o: JsonObject = { apiVersion: v1, kind: "PriorityLevelConfiguration", metadata: { name } };
  if (annotations) (o.metadata as JsonObject).annotations = annotations;
  if (s !== undefined) o.spec = s;
  return o;
};
const pl = (s: JsonObject | undefined, name?: string) =>
  messages(validatePriorityLevelConfiguration, priorityLevel(s, name));
const limited = (l: JsonObject): JsonObject => ({
  type: "Limited",
  limited: { nominalConcurrencyShares: 100, lendablePercent: 90, limitResponse: { type: "Queue", queuing: {} }, ...l },
});
const queuing = (q: JsonObject) => pl(limited({ limitResponse: { type: "Queue", queuing: q } }));
const q = "spec.limited.limitResponse.queuing";

describe("ValidatePriorityLevelConfiguration", () => {
  it("accepts a valid priority level", () => {
    expect(pl(limited({}))).toEqual([]);
    expect(pl(limited({ nominalConcurrencyShares: 0, lendablePercent: 100, borrowingLimitPercent: 0 }))).toEqual([]);
  });

  it("forbids the v1beta3 roundtrip annotation", () => {
    const o = priorityLevel(limited({}), "p", { "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": "" });
    expect(messages(validatePriorityLevelConfiguration, o)).toEqual([
      "metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden",
    ]);
  });
});

describe("ValidatePriorityLevelConfigurationSpec", () => {
  const iff = "type must be 'Exempt' if and only if name is 'exempt'";

  it("keeps type Exempt for the level named exempt", () => {
    expect(pl({ type: "Exempt" })).toEqual([`spec.type: Invalid value: "Exempt": ${iff}`]);
    expect(pl({ type: "Exempt" }, "exempt")).toEqual([]);
  });

  it("leaves the union switch to the union's wording", () => {
    expect(pl({ type: "Limited" })).toEqual([]);
    expect(pl({ type: "Bogus" })).toEqual([]);
    expect(pl({ type: "Limited", exempt: {}, limited: null })).toEqual([]);
  });

  it("refuses an absent spec's empty type, which the union walk never visits", () => {
    expect(pl(undefined)).toEqual(['spec.type: Unsupported value: "": supported values: "Exempt", "Limited"']);
  });
});

describe("ValidateLimitedPriorityLevelConfiguration", () => {
  const at = "spec.limited";

  it("defaults nominalConcurrencyShares to 30 and allows 0 (ZeroLimitedNominalConcurrencyShares, GA)", () => {
    expect(pl(limited({ nominalConcurrencyShares: null }))).toEqual([]);
    expect(pl(limited({ nominalConcurrencyShares: -1 }))).toEqual([
      `${at}.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer`,
    ]);
  });

  it("bounds lendablePercent and borrowingLimitPercent", () => {
    expect(pl(limited({ lendablePercent: 101, borrowingLimitPercent: -1 }))).toEqual([
      `${at}.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive`,
      `${at}.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer`,
    ]);
    expect(pl(limited({ lendablePercent: -1, borrowingLimitPercent: 500 }))).toEqual([
      `${at}.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive`,
    ]);
  });

  it("is not looked at under another type", () => {
    expect(pl({ type: "Exempt", limited: { nominalConcurrencyShares: -1 } }, "exempt")).toEqual([
      'spec: Invalid value: {"type":"Exempt","limited":{"nominalConcurrencyShares":-1}}: spec of \'exempt\' except the \'spec.exempt\' field must equal the fixed value',
    ]);
  });
});

describe("ValidatePriorityLevelQueuingConfiguration", () => {
  it("defaults 0 and unset fields (SetDefaults_QueuingConfiguration) first", () => {
    expect(queuing({ queues: 0, handSize: 0, queueLengthLimit: 0 })).toEqual([]);
    // ceil(log2(64) * 10) = 60, at the limit
    expect(queuing({ handSize: 10 })).toEqual([]);
  });

  it("needs positive numbers", () => {
    expect(queuing({ queueLengthLimit: -1, queues: -2, handSize: -3 })).toEqual([
      `${q}.queueLengthLimit: Invalid value: -1: must be positive`,
      `${q}.queues: Invalid value: -2: must be positive`,
      `${q}.handSize: Invalid value: -3: must be positive`,
    ]);
  });

  it("bounds queues, and the hand by the deck and by the hash's entropy", () => {
    expect(queuing({ queues: 10_000_001, handSize: 1 })).toEqual([
      `${q}.queues: Invalid value: 10000001: must not be greater than 10000000`,
    ]);
    expect(queuing({ handSize: 65 })).toEqual([
      `${q}.handSize: Invalid value: 65: should not be greater than queues (64)`,
    ]);
    expect(queuing({ queues: 7, handSize: 8 })).toEqual([
      `${q}.handSize: Invalid value: 8: should not be greater than queues (7)`,
    ]);
    // ceil(log2(128) * 9) = 63 > 60; ceil(log2(1024) * 6) = 60
    expect(queuing({ queues: 128, handSize: 9 })).toEqual([
      `${q}.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60`,
    ]);
    expect(queuing({ queues: 1024, handSize: 6 })).toEqual([]);
  });

  it("is not looked at under Reject", () => {
    expect(pl(limited({ limitResponse: { type: "Reject", queuing: { queues: -1 } } }))).toEqual([]);
  });
});

describe("ValidateExemptPriorityLevelConfiguration", () => {
  it("defaults to 0 and 0, and bounds both", () => {
    expect(pl({ type: "Exempt", exempt: {} }, "exempt")).toEqual([]);
    expect(pl({ type: "Exempt", exempt: { lendablePercent: 100 } }, "exempt")).toEqual([]);
    expect(pl({ type: "Exempt", exempt: { nominalConcurrencyShares: -1, lendablePercent: 101 } }, "exempt")).toEqual([
      "spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
      "spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
    ]);
  });

  it("is not looked at under Limited", () => {
    expect(pl({ ...limited({}), exempt: { lendablePercent: 500 } })).toEqual([]);
  });
});

describe("ValidateIfMandatoryPriorityLevelConfigurationObject", () => {
  const catchAll = { type: "Limited", limited: { nominalConcurrencyShares: 5, limitResponse: { type: "Reject" } } };

  it("accepts the fixed specs, exempt's `exempt` field excepted", () => {
    expect(pl({ type: "Exempt" }, "exempt")).toEqual([]);
    expect(pl({ type: "Exempt", exempt: { nominalConcurrencyShares: 10, lendablePercent: 50 } }, "exempt")).toEqual([]);
    expect(pl(catchAll, "catch-all")).toEqual([]);
    expect(pl({ ...catchAll, limited: { ...catchAll.limited, lendablePercent: 0 } }, "catch-all")).toEqual([]);
  });

  it("refuses another spec under their names", () => {
    const changed = { ...catchAll, limited: { ...catchAll.limited, nominalConcurrencyShares: 6 } };
    expect(pl(changed, "catch-all")).toEqual([
      `spec: Invalid value: ${JSON.stringify(changed)}: spec of 'catch-all' must equal the fixed value`,
    ]);
    const borrowing = { ...catchAll, limited: { ...catchAll.limited, borrowingLimitPercent: 0 } };
    expect(pl(borrowing, "catch-all")).toHaveLength(1);
    expect(pl({ ...catchAll, exempt: {} }, "catch-all")).toHaveLength(1);
  });

  it("gives both the type's rule and the fixed value's, as the server's test does", () => {
    const badSpec = limited({});
    expect(pl(badSpec, "exempt")).toEqual([
      `spec.type: Invalid value: "Limited": type must be 'Exempt' if and only if name is 'exempt'`,
      `spec: Invalid value: ${JSON.stringify(badSpec)}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value`,
    ]);
  });
});
