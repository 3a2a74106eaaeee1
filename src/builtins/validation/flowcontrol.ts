/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration,
 * as the API server validates them on create (kubernetes/kubernetes
 * pkg/apis/flowcontrol/validation/validation.go, releases 1.32 to 1.36):
 *
 * - FlowSchema: ValidateFlowSchema, ValidateFlowSchemaSpec,
 *   ValidateFlowSchemaPolicyRulesWithSubjects, the member checks of
 *   ValidateFlowSchemaSubject (ValidateServiceAccountSubject,
 *   ValidateUserSubject, ValidateGroupSubject),
 *   ValidateFlowSchemaResourcePolicyRule,
 *   ValidateFlowSchemaNonResourcePolicyRule, ValidateNonResourceURLPath, and
 *   the fixed spec of the mandatory schemas `exempt` and `catch-all`, after
 *   flowcontrol/v1 SetDefaults_FlowSchemaSpec (matchingPrecedence 1000 when 0).
 * - PriorityLevelConfiguration: ValidatePriorityLevelConfiguration (the v1beta3
 *   roundtrip annotation is forbidden), ValidatePriorityLevelConfigurationSpec
 *   (`type` is Exempt if and only if the name is `exempt`),
 *   ValidateExemptPriorityLevelConfiguration,
 *   ValidateLimitedPriorityLevelConfiguration,
 *   ValidatePriorityLevelQueuingConfiguration and
 *   ValidateIfMandatoryPriorityLevelConfigurationObject, after flowcontrol/v1
 *   SetDefaults_ExemptPriorityLevelConfiguration (0 and 0),
 *   SetDefaults_LimitedPriorityLevelConfiguration (nominalConcurrencyShares 30
 *   when unset, lendablePercent 0) and SetDefaults_QueuingConfiguration
 *   (handSize 8, queues 64, queueLengthLimit 50 when 0).
 *
 * The three unions (Subject's `kind`, the spec's `type`, LimitResponse's
 * `type`: which member is required, which forbidden, an unknown value) are
 * worded in unions/wording-flowcontrol.ts and not reported here, except for an
 * absent spec, which the union walk never visits. Fields the OpenAPI schema
 * marks required are reported by the schema when absent; here only when
 * present and empty. The status is dropped on create, so not checked.
 *
 * Releases: zero nominalConcurrencyShares is allowed in all of them
 * (ZeroLimitedNominalConcurrencyShares is GA and locked since 1.30), and the
 * declarative validation 1.36 carries for these kinds is alpha (shadowed, never
 * printed), so the rules do not change from 1.32 to 1.36. A bad value Go
 * prints with %#v (a []string, a struct) is printed as JSON.
 */
import type { Finding } from "../../findings/index.js";
import { nameIsDNSLabel, nameIsDNSSubdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../../value/index.js";
import {
  asError,
  forbidden,
  intAt,
  invalid,
  invalidEach,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  required,
  stringAt,
} from "./common.js";

/** The spec of an object; undefined when absent or null, "bad" when not an object (the schema's). */
function specOf(object: JsonObject): JsonObject | undefined | "bad" {
  const spec = getKey(object, "spec");
  if (spec === undefined || spec === null) return undefined;
  return isObject(spec) ? spec : "bad";
}

const nameOf = (object: JsonObject): string => stringAt(objectAt(object, "metadata"), "name") ?? "";

/** A list of strings as Go decodes it (absent and null are empty); undefined when it or an item is no string. */
function stringList(o: JsonObject | undefined, key: string): string[] | undefined {
  if (!isList(o, key)) return undefined;
  const items = listAt(o, key);
  return items.every((s) => typeof s === "string") ? (items as string[]) : undefined;
}

/** Whether a list field decodes as one: absent, null or an array (anything else is the schema's type error). */
const isList = (o: JsonObject | undefined, key: string): boolean => {
  const v = o === undefined ? undefined : getKey(o, key);
  return v === undefined || v === null || Array.isArray(v);
};

/** A Go pointer that is set: present and not null. */
const pointerSet = (o: JsonObject | undefined, key: string): boolean => {
  const v = o === undefined ? undefined : getKey(o, key);
  return v !== undefined && v !== null;
};

/** A field the schema requires is reported by the schema when absent: here only when written empty (or null). */
const written = (o: JsonObject, key: string): boolean => Object.hasOwn(o, key);

// ---------------------------------------------------------------------------
// FlowSchema

/** FlowSchemaMaxMatchingPrecedence. */
const maxMatchingPrecedence = 10000;
/** SetDefaults_FlowSchemaSpec. */
const defaultMatchingPrecedence = 1000;
/** supportedDistinguisherMethods.List(). */
const distinguisherMethods = ["ByNamespace", "ByUser"];
/** supportedVerbs.List(): a sorted set. */
const supportedVerbs = ["create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"];
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

/**
 * The member checks of ValidateFlowSchemaSubject: what the member its kind
 * selects holds. The member missing, the others set and an unknown kind are
 * the union's (wording-flowcontrol.ts).
 */
function subjectFindings(subject: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const kind = stringAt(subject, "kind");
  if (kind === "ServiceAccount") {
    // ValidateServiceAccountSubject
    const sa = objectAt(subject, "serviceAccount");
    if (sa === undefined) return out;
    const saPath = child(at, "serviceAccount");
    const name = stringAt(sa, "name");
    if (name === "") {
      if (written(sa, "name")) out.push(required(child(saPath, "name"), "", asError));
    } else if (name !== undefined && name !== "*") {
      out.push(...invalidEach(child(saPath, "name"), name, nameIsDNSSubdomain(name, false)));
    }
    const namespace = stringAt(sa, "namespace");
    if (namespace === "") {
      out.push(required(child(saPath, "namespace"), "must specify namespace for service account", asError));
    } else if (namespace !== undefined) {
      out.push(...invalidEach(child(saPath, "namespace"), namespace, nameIsDNSLabel(namespace, false)));
    }
  } else if (kind === "User" || kind === "Group") {
    // ValidateUserSubject, ValidateGroupSubject
    const field = kind === "User" ? "user" : "group";
    const member = objectAt(subject, field);
    if (member !== undefined && written(member, "name") && stringAt(member, "name") === "")
      out.push(required(child(at, field, "name"), "", asError));
  }
  return out;
}

/** The verbs check both kinds of policy rule share. */
function verbsFindings(rule: JsonObject, at: FieldPath): Finding[] {
  const verbs = stringList(rule, "verbs");
  const path = child(at, "verbs");
  if (verbs === undefined) return [];
  if (verbs.length === 0) return [required(path, "verbs must contain at least one value", asError)];
  if (verbs.includes("*"))
    return verbs.length > 1 ? [invalid(path, verbs, "if '*' is present, must not specify other verbs", asError)] : [];
  // only supported verbs are allowed; the whole list is the bad value
  return verbs.every((v) => supportedVerbs.includes(v)) ? [] : [notSupported(path, verbs, supportedVerbs, asError)];
}

/** A list that may hold "*" only alone: required when empty or absent (Go's nil slice). */
function wildcardAlone(rule: JsonObject, key: string, at: FieldPath, none: string, others: string): Finding[] {
  const items = stringList(rule, key);
  const path = child(at, key);
  if (items === undefined) return [];
  if (items.length === 0) return [required(path, none, asError)];
  return items.length > 1 && items.includes("*")
    ? [invalid(path, items, `if '*' is present, must not specify other ${others}`, asError)]
    : [];
}

/** ValidateFlowSchemaResourcePolicyRule. */
function resourceRuleFindings(rule: JsonObject, at: FieldPath): Finding[] {
  const out = verbsFindings(rule, at);
  out.push(
    ...wildcardAlone(rule, "apiGroups", at, "resource rules must supply at least one api group", "api groups"),
    ...wildcardAlone(rule, "resources", at, "resource rules must supply at least one resource", "resources"),
  );
  // namespaces is optional in the schema: an absent list is the server's to require
  const namespaces = stringList(rule, "namespaces");
  const path = child(at, "namespaces");
  if (namespaces === undefined) return out;
  if (namespaces.length === 0 && getKey(rule, "clusterScope") !== true) {
    out.push(required(path, "resource rules that are not cluster scoped must supply at least one namespace", asError));
  } else if (namespaces.includes("*")) {
    if (namespaces.length > 1)
      out.push(invalid(path, namespaces, "if '*' is present, must not specify other namespaces", asError));
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of nameIsDNSLabel(ns, false)) out.push(invalid(child(path, i), ns, nsErrIntro + msg, asError));
    });
  }
  return out;
}

/**
 * ValidateNonResourceURLPath: the first of its rules a path breaks. A slash
 * leads, no white space, no double slash, and "*" only as a final "/*".
 */
function nonResourceURLPathError(path: string): string | undefined {
  if (path.length === 0) return "must not be empty";
  if (path === "/") return undefined;
  if (!path.startsWith("/")) return "must start with slash";
  if (path.includes(" ")) return "must not contain white-space";
  if (path.includes("//")) return "must not contain double slash";
  const wildcards = path.split("*").length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith("/*"))) return "wildcard can only do suffix matching";
  return undefined;
}

/** ValidateFlowSchemaNonResourcePolicyRule. */
function nonResourceRuleFindings(rule: JsonObject, at: FieldPath): Finding[] {
  const out = verbsFindings(rule, at);
  const urls = stringList(rule, "nonResourceURLs");
  const path = child(at, "nonResourceURLs");
  if (urls === undefined) return out;
  if (urls.length === 0) {
    out.push(required(path, "nonResourceURLs must contain at least one value", asError));
  } else if (urls.includes("*")) {
    if (urls.length > 1)
      out.push(invalid(path, urls, "if '*' is present, must not specify other non-resource URLs", asError));
  } else {
    urls.forEach((url, i) => {
      const msg = nonResourceURLPathError(url);
      if (msg !== undefined) out.push(invalid(child(path, i), url, msg, asError));
    });
  }
  return out;
}

/** ValidateFlowSchemaPolicyRulesWithSubjects. */
function policyRuleFindings(rule: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const subjects = listAt(rule, "subjects");
  if (subjects.length > 0) {
    for (const [i, subject] of objectItems(rule, "subjects"))
      out.push(...subjectFindings(subject, child(at, "subjects", i)));
  } else if (isList(rule, "subjects")) {
    out.push(required(child(at, "subjects"), "subjects must contain at least one value", asError));
  }
  if (listAt(rule, "resourceRules").length === 0 && listAt(rule, "nonResourceRules").length === 0)
    out.push(required(at, "at least one of resourceRules and nonResourceRules has to be non-empty", asError));
  for (const [i, r] of objectItems(rule, "resourceRules"))
    out.push(...resourceRuleFindings(r, child(at, "resourceRules", i)));
  for (const [i, r] of objectItems(rule, "nonResourceRules"))
    out.push(...nonResourceRuleFindings(r, child(at, "nonResourceRules", i)));
  return out;
}

/** ValidateFlowSchemaSpec, after SetDefaults_FlowSchemaSpec. */
function flowSchemaSpecFindings(name: string, spec: JsonObject | undefined): Finding[] {
  const out: Finding[] = [];
  const at: FieldPath = ["spec"];
  const given = intAt(spec, "matchingPrecedence");
  if (given !== undefined) {
    const precedence = given === 0 ? defaultMatchingPrecedence : given;
    const path = child(at, "matchingPrecedence");
    if (precedence <= 0) out.push(invalid(path, precedence, "must be a positive value", asError));
    if (precedence > maxMatchingPrecedence)
      out.push(invalid(path, precedence, `must not be greater than ${maxMatchingPrecedence}`, asError));
    if (precedence === 1 && name !== "exempt")
      out.push(invalid(path, precedence, "only the schema named 'exempt' may have matchingPrecedence 1", asError));
  }
  // NotSupported with the whole method as the bad value; an absent type is Go's "", refused alike
  const method = objectAt(spec, "distinguisherMethod");
  if (method !== undefined) {
    const type = stringAt(method, "type");
    if (type !== undefined && !distinguisherMethods.includes(type))
      out.push(notSupported(child(at, "distinguisherMethod", "type"), { type }, distinguisherMethods, asError));
  }
  out.push(...priorityLevelReferenceFindings(spec, child(at, "priorityLevelConfiguration", "name")));
  for (const [i, rule] of objectItems(spec, "rules")) out.push(...policyRuleFindings(rule, child(at, "rules", i)));
  return out;
}

/**
 * The referenced priority level's name: a DNS subdomain, and Required ("must reference a priority level")
 * when empty, absent or the reference itself absent (the zero struct).
 */
function priorityLevelReferenceFindings(spec: JsonObject | undefined, path: FieldPath): Finding[] {
  const ref = spec === undefined ? undefined : getKey(spec, "priorityLevelConfiguration");
  if (ref !== undefined && ref !== null && !isObject(ref)) return [];
  const name = isObject(ref) ? stringAt(ref, "name") : "";
  if (name === undefined) return [];
  if (name !== "") return invalidEach(path, name, nameIsDNSSubdomain(name, false));
  return [required(path, "must reference a priority level", asError)];
}

/** A FlowSchemaSpec as the server compares it: defaulted, pointers null, lists in order. */
function goFlowSchemaSpec(spec: JsonObject | undefined): JsonValue {
  const precedence = getKey(spec ?? {}, "matchingPrecedence");
  const method = objectAt(spec, "distinguisherMethod");
  const named = (o: JsonObject | undefined) => (o === undefined ? null : { name: stringAt(o, "name") ?? null });
  const pointer = (o: JsonObject, key: string) => (pointerSet(o, key) ? named(objectAt(o, key)) : null);
  return {
    priorityLevelConfiguration: { name: stringAt(objectAt(spec, "priorityLevelConfiguration"), "name") ?? null },
    matchingPrecedence:
      precedence === undefined || precedence === null || precedence === 0 ? defaultMatchingPrecedence : precedence,
    distinguisherMethod: method === undefined ? null : { type: stringAt(method, "type") ?? null },
    rules: listAt(spec, "rules").map((r) => {
      const rule = isObject(r) ? r : {};
      return {
        subjects: listAt(rule, "subjects").map((s) => {
          const subject = isObject(s) ? s : {};
          const sa = objectAt(subject, "serviceAccount");
          return {
            kind: stringAt(subject, "kind") ?? null,
            user: pointer(subject, "user"),
            group: pointer(subject, "group"),
            serviceAccount:
              sa === undefined
                ? null
                : { namespace: stringAt(sa, "namespace") ?? null, name: stringAt(sa, "name") ?? null },
          };
        }),
        resourceRules: listAt(rule, "resourceRules").map((x) => {
          const rr = isObject(x) ? x : {};
          return {
            verbs: listAt(rr, "verbs"),
            apiGroups: listAt(rr, "apiGroups"),
            resources: listAt(rr, "resources"),
            clusterScope: getKey(rr, "clusterScope") === true,
            namespaces: listAt(rr, "namespaces"),
          };
        }),
        nonResourceRules: listAt(rule, "nonResourceRules").map((x) => {
          const nr = isObject(x) ? x : {};
          return { verbs: listAt(nr, "verbs"), nonResourceURLs: listAt(nr, "nonResourceURLs") };
        }),
      };
    }),
  };
}

/** The rules of every mandatory FlowSchema: everything, cluster-scoped or in any namespace. */
const everything = (...groups: string[]): JsonValue => [
  {
    subjects: groups.map((name) => ({ kind: "Group", user: null, group: { name }, serviceAccount: null })),
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] }],
    nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
  },
];

/** internalbootstrap.MandatoryFlowSchemas (apiserver's flowcontrol/bootstrap), in goFlowSchemaSpec's form. */
const mandatoryFlowSchemas: Readonly<Record<string, string>> = {
  exempt: JSON.stringify({
    priorityLevelConfiguration: { name: "exempt" },
    matchingPrecedence: 1,
    distinguisherMethod: null,
    rules: everything("system:masters"),
  }),
  "catch-all": JSON.stringify({
    priorityLevelConfiguration: { name: "catch-all" },
    matchingPrecedence: 10000,
    distinguisherMethod: { type: "ByUser" },
    rules: everything("system:unauthenticated", "system:authenticated"),
  }),
};

/** flowcontrol.apiserver.k8s.io/v1 FlowSchema: ValidateFlowSchema on create. */
export function validateFlowSchema(object: JsonObject): Finding[] {
  const spec = specOf(object);
  if (spec === "bad") return [];
  const name = nameOf(object);
  const out = flowSchemaSpecFindings(name, spec);
  const mandatory = Object.hasOwn(mandatoryFlowSchemas, name) ? mandatoryFlowSchemas[name] : undefined;
  if (mandatory !== undefined && JSON.stringify(goFlowSchemaSpec(spec)) !== mandatory)
    out.push(invalid(["spec"], spec ?? {}, `spec of '${name}' must equal the fixed value`, asError));
  return out;
}

// ---------------------------------------------------------------------------
// PriorityLevelConfiguration

/** flowcontrolv1beta3.PriorityLevelPreserveZeroConcurrencySharesKey: for v1beta3 alone. */
const roundtripAnnotation = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";
/** supportedPriorityLevelEnablement.List(). */
const enablements = ["Exempt", "Limited"];
/** priorityLevelConfigurationQueuingMaxQueues: 10^7. */
const maxQueues = 10_000_000;
/** shufflesharding.MaxHashBits. */
const maxHashBits = 60;
/** SetDefaults_LimitedPriorityLevelConfiguration and SetDefaults_QueuingConfiguration. */
const defaultNominalConcurrencyShares = 30;
const defaultHandSize = 8;
const defaultQueues = 64;
const defaultQueueLengthLimit = 50;

/** shufflesharding.RequiredEntropyBits. */
const requiredEntropyBits = (deckSize: number, handSize: number): number => Math.ceil(Math.log2(deckSize) * handSize);

/** An int32 the defaults fill when it is 0 (absent and null are 0); undefined when not an integer. */
function defaultedInt(o: JsonObject, key: string, fallback: number): number | undefined {
  const v = intAt(o, key);
  return v === 0 ? fallback : v;
}

/** An optional *int32 the defaults fill when unset (absent or null); undefined when not an integer. */
function defaultedPointer(o: JsonObject, key: string, fallback: number): number | undefined {
  return pointerSet(o, key) ? optionalIntAt(o, key) : fallback;
}

/** ValidatePriorityLevelQueuingConfiguration, after SetDefaults_QueuingConfiguration. */
function queuingFindings(queuing: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const queueLengthLimit = defaultedInt(queuing, "queueLengthLimit", defaultQueueLengthLimit);
  const queues = defaultedInt(queuing, "queues", defaultQueues);
  const handSize = defaultedInt(queuing, "handSize", defaultHandSize);
  if (queueLengthLimit !== undefined && queueLengthLimit <= 0)
    out.push(invalid(child(at, "queueLengthLimit"), queueLengthLimit, "must be positive", asError));
  if (queues === undefined) return out;
  // the arguments of shuffle sharding
  if (queues <= 0) out.push(invalid(child(at, "queues"), queues, "must be positive", asError));
  else if (queues > maxQueues)
    out.push(invalid(child(at, "queues"), queues, `must not be greater than ${maxQueues}`, asError));
  if (handSize === undefined) return out;
  const path = child(at, "handSize");
  if (handSize <= 0) out.push(invalid(path, handSize, "must be positive", asError));
  else if (handSize > queues)
    out.push(invalid(path, handSize, `should not be greater than queues (${queues})`, asError));
  else if (requiredEntropyBits(queues, handSize) > maxHashBits)
    out.push(
      invalid(
        path,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`,
        asError,
      ),
    );
  return out;
}

const between0And100 = "must be between 0 and 100, inclusive";

/**
 * ValidateLimitedPriorityLevelConfiguration, after its defaults. The
 * limitResponse's union is worded elsewhere; its queuing numbers are checked
 * here when its type is Queue.
 */
function limitedFindings(limited: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const shares = defaultedPointer(limited, "nominalConcurrencyShares", defaultNominalConcurrencyShares);
  if (shares !== undefined && shares < 0)
    out.push(invalid(child(at, "nominalConcurrencyShares"), shares, "must be a non-negative integer", asError));
  const response = objectAt(limited, "limitResponse");
  const queuing = objectAt(response, "queuing");
  if (stringAt(response, "type") === "Queue" && queuing !== undefined)
    out.push(...queuingFindings(queuing, child(at, "limitResponse", "queuing")));
  const lendable = defaultedPointer(limited, "lendablePercent", 0);
  if (lendable !== undefined && (lendable < 0 || lendable > 100))
    out.push(invalid(child(at, "lendablePercent"), lendable, between0And100, asError));
  const borrowing = optionalIntAt(limited, "borrowingLimitPercent");
  if (borrowing !== undefined && borrowing < 0)
    out.push(
      invalid(child(at, "borrowingLimitPercent"), borrowing, "if specified, must be a non-negative integer", asError),
    );
  return out;
}

/** ValidateExemptPriorityLevelConfiguration, after SetDefaults_ExemptPriorityLevelConfiguration. */
function exemptFindings(exempt: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const shares = defaultedPointer(exempt, "nominalConcurrencyShares", 0);
  if (shares !== undefined && shares < 0)
    out.push(invalid(child(at, "nominalConcurrencyShares"), shares, "must be a non-negative integer", asError));
  const lendable = defaultedPointer(exempt, "lendablePercent", 0);
  if (lendable !== undefined && (lendable < 0 || lendable > 100))
    out.push(invalid(child(at, "lendablePercent"), lendable, between0And100, asError));
  return out;
}

/** ValidatePriorityLevelConfigurationSpec, less its union switch (wording-flowcontrol.ts). */
function priorityLevelSpecFindings(name: string, spec: JsonObject | undefined): Finding[] {
  const out: Finding[] = [];
  const at: FieldPath = ["spec"];
  const type = stringAt(spec, "type");
  if (type === undefined) return out;
  if ((name === "exempt") !== (type === "Exempt"))
    out.push(invalid(child(at, "type"), type, "type must be 'Exempt' if and only if name is 'exempt'", asError));
  // An absent spec is Go's zero value, whose empty type the switch refuses; the union walk never sees it.
  if (spec === undefined) return [...out, notSupported(child(at, "type"), "", enablements, asError)];
  const member = type === "Exempt" ? "exempt" : type === "Limited" ? "limited" : undefined;
  const value = member === undefined ? undefined : objectAt(spec, member);
  if (member === "exempt" && value !== undefined) out.push(...exemptFindings(value, child(at, "exempt")));
  if (member === "limited" && value !== undefined) out.push(...limitedFindings(value, child(at, "limited")));
  return out;
}

/** A PriorityLevelConfigurationSpec as the server compares it: defaulted, pointers null. */
function goPriorityLevelSpec(spec: JsonObject | undefined): { type: JsonValue; limited: JsonValue; exempt: JsonValue } {
  const limited = pointerSet(spec, "limited") ? (objectAt(spec, "limited") ?? {}) : undefined;
  const exempt = pointerSet(spec, "exempt") ? (objectAt(spec, "exempt") ?? {}) : undefined;
  const response = limited === undefined ? undefined : (objectAt(limited, "limitResponse") ?? {});
  const queuing = response !== undefined && pointerSet(response, "queuing") ? objectAt(response, "queuing") : undefined;
  return {
    type: stringAt(spec, "type") ?? null,
    limited:
      limited === undefined || response === undefined
        ? null
        : {
            nominalConcurrencyShares:
              defaultedPointer(limited, "nominalConcurrencyShares", defaultNominalConcurrencyShares) ?? null,
            lendablePercent: defaultedPointer(limited, "lendablePercent", 0) ?? null,
            borrowingLimitPercent: pointerSet(limited, "borrowingLimitPercent")
              ? (optionalIntAt(limited, "borrowingLimitPercent") ?? null)
              : null,
            limitResponse: {
              type: stringAt(response, "type") ?? null,
              queuing:
                queuing === undefined
                  ? null
                  : {
                      queues: defaultedInt(queuing, "queues", defaultQueues) ?? null,
                      handSize: defaultedInt(queuing, "handSize", defaultHandSize) ?? null,
                      queueLengthLimit: defaultedInt(queuing, "queueLengthLimit", defaultQueueLengthLimit) ?? null,
                    },
            },
          },
    exempt:
      exempt === undefined
        ? null
        : {
            nominalConcurrencyShares: defaultedPointer(exempt, "nominalConcurrencyShares", 0) ?? null,
            lendablePercent: defaultedPointer(exempt, "lendablePercent", 0) ?? null,
          },
  };
}

/**
 * ValidateIfMandatoryPriorityLevelConfigurationObject: `exempt` may change its
 * `exempt` field alone; `catch-all` nothing. The fixed values are
 * internalbootstrap.MandatoryPriorityLevelConfigurations, defaulted.
 */
function mandatoryPriorityLevelFindings(name: string, spec: JsonObject | undefined): Finding[] {
  const have = goPriorityLevelSpec(spec);
  const shown = spec ?? {};
  if (name === "exempt") {
    const same = have.type === "Exempt" && have.limited === null;
    return same
      ? []
      : [
          invalid(
            ["spec"],
            shown,
            "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
            asError,
          ),
        ];
  }
  if (name === "catch-all") {
    const want = {
      type: "Limited",
      limited: {
        nominalConcurrencyShares: 5,
        lendablePercent: 0,
        borrowingLimitPercent: null,
        limitResponse: { type: "Reject", queuing: null },
      },
      exempt: null,
    };
    return JSON.stringify(have) === JSON.stringify(want)
      ? []
      : [invalid(["spec"], shown, "spec of 'catch-all' must equal the fixed value", asError)];
  }
  return [];
}

/** flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration: ValidatePriorityLevelConfiguration on create. */
export function validatePriorityLevelConfiguration(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  // the roundtrip annotation is v1beta3's alone: after conversion from v1 it is still there, and forbidden
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  if (annotations !== undefined && Object.hasOwn(annotations, roundtripAnnotation))
    out.push(forbidden(["metadata", "annotations"], `annotation '${roundtripAnnotation}' is forbidden`, asError));
  const spec = specOf(object);
  if (spec === "bad") return out;
  const name = nameOf(object);
  out.push(...priorityLevelSpecFindings(name, spec), ...mandatoryPriorityLevelFindings(name, spec));
  return out;
}
