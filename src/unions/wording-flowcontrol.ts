/**
 * The API server's own messages for the unions of flowcontrol.apiserver.k8s.io/v1
 * (pkg/apis/flowcontrol/validation/validation.go, releases 1.32 to 1.36), in
 * place of apimachinery's generic union wording, which the server never prints
 * for these types. Each is a `Wording` (see wording.ts) selected by the key the
 * built-in registry sets on the union:
 *
 * - `flowSchemaSubject`: ValidateFlowSchemaSubject's switch on `kind`.
 * - `priorityLevelConfigurationSpec`: ValidatePriorityLevelConfigurationSpec's
 *   switch on `type`, and under Limited, ValidateLimitResponse's switch on
 *   `limited.limitResponse.type`.
 * - `limitResponse`: nothing; reported by the spec's wording (see there).
 *
 * Only the union rules are here: which member a discriminator value requires,
 * which it forbids, and an unknown value. What the members hold (a subject's
 * name, the queuing numbers), the rules that need the object's name (`type`
 * must be Exempt if and only if the name is `exempt`) and the defaults are
 * hand-written validation's, in builtins/validation/flowcontrol.ts. A
 * discriminator that is not a string never decodes: the schema reports it.
 */
import { type Finding, forbidden, notSupported, required } from "../findings/index.js";
import { child, type FieldPath } from "../path/index.js";
import { getKey, isObject, type JsonObject } from "../value/index.js";
import type { Wording, WordingInput } from "./wording.js";

const extra = { rule: "union", severity: "error" } as const;

/** A Go pointer member as the server sees it: present and not null. */
function memberSet(input: WordingInput, field: string): boolean {
  const member = input.union.members.find((m) => m.field === field);
  if (member) return input.isSet(member);
  const v = getKey(input.node, field);
  return v !== undefined && v !== null;
}

/** A string field as Go decodes it: "" when absent or null; undefined when not a string (the schema's). */
function goString(node: JsonObject, field: string): string | undefined {
  const v = getKey(node, field);
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : undefined;
}

// ---------------------------------------------------------------------------
// FlowSchema: Subject

/** supportedSubjectKinds.List(): a sorted set. */
const subjectKinds = ["Group", "ServiceAccount", "User"];

/** Each subject kind, the member it needs, and the members it forbids, in the server's order. */
const subjectCases: Readonly<Record<string, { member: string; others: readonly string[] }>> = {
  ServiceAccount: { member: "serviceAccount", others: ["user", "group"] },
  User: { member: "user", others: ["serviceAccount", "group"] },
  Group: { member: "group", others: ["serviceAccount", "user"] },
};

/** The server names a forbidden member with the kind it belongs to. */
const memberKind: Readonly<Record<string, string>> = {
  user: "User",
  group: "Group",
  serviceAccount: "ServiceAccount",
};

/**
 * ValidateFlowSchemaSubject. The selected member missing is Required at the
 * member ("user is required when subject kind is 'User'", from
 * ValidateUserSubject and its siblings), then each other member that is set is
 * Forbidden. An empty or unknown kind is NotSupported at `kind`, and then no
 * member is looked at.
 */
export const flowSchemaSubject: Wording = (input) => {
  const kind = goString(input.node, "kind");
  if (kind === undefined) return [];
  const c = Object.hasOwn(subjectCases, kind) ? subjectCases[kind] : undefined;
  if (c === undefined) return [notSupported(child(input.path, "kind"), kind, subjectKinds, extra)];
  const out: Finding[] = [];
  if (!memberSet(input, c.member))
    out.push(required(child(input.path, c.member), `${c.member} is required when subject kind is '${kind}'`, extra));
  for (const other of c.others) {
    if (memberSet(input, other))
      out.push(
        forbidden(
          child(input.path, other),
          `${other} is forbidden when subject kind is not '${memberKind[other]}'`,
          extra,
        ),
      );
  }
  return out;
};

// ---------------------------------------------------------------------------
// PriorityLevelConfiguration: PriorityLevelConfigurationSpec and LimitResponse

/** supportedPriorityLevelEnablement.List(). */
const enablements = ["Exempt", "Limited"];
/** supportedLimitResponseType.List(). */
const limitResponseTypes = ["Queue", "Reject"];

/**
 * ValidateLimitResponse's switch, for a limitResponse that may be absent: the
 * field is a struct, not a pointer, so an absent one is Go's zero value, whose
 * empty type is NotSupported.
 */
function limitResponseFindings(limited: JsonObject, at: FieldPath): Finding[] {
  const raw = getKey(limited, "limitResponse");
  if (raw !== undefined && raw !== null && !isObject(raw)) return []; // not an object: the schema's
  const lr: JsonObject = isObject(raw) ? raw : {};
  const path = child(at, "limitResponse");
  const type = goString(lr, "type");
  if (type === undefined) return [];
  const queuing = getKey(lr, "queuing");
  const queuingSet = queuing !== undefined && queuing !== null;
  switch (type) {
    case "Reject":
      return queuingSet
        ? [forbidden(child(path, "queuing"), "must be nil if limited.limitResponse.type is not Limited", extra)]
        : [];
    case "Queue":
      return queuingSet
        ? []
        : [required(child(path, "queuing"), "must not be empty if limited.limitResponse.type is Limited", extra)];
    default:
      return [notSupported(child(path, "type"), type, limitResponseTypes, extra)];
  }
}

/**
 * ValidatePriorityLevelConfigurationSpec's switch on `type`. Exempt forbids
 * `limited`; Limited forbids `exempt` and requires `limited`, then checks its
 * limitResponse (ValidateLimitResponse); an empty or unknown type is
 * NotSupported at `type`, and then nothing below is looked at (in 1.32 to
 * 1.36 an empty type is NotSupported, not Required).
 *
 * The LimitResponse union is judged here, not by its own wording: the server
 * looks at it only when the spec's type is Limited, which the limitResponse
 * node cannot see, and an absent limitResponse (Go's zero value, an empty
 * type) is never visited as a node at all.
 */
export const priorityLevelConfigurationSpec: Wording = (input) => {
  const type = goString(input.node, "type");
  if (type === undefined) return [];
  const out: Finding[] = [];
  switch (type) {
    case "Exempt":
      if (memberSet(input, "limited"))
        out.push(forbidden(child(input.path, "limited"), "must be nil if the type is not Limited", extra));
      break;
    case "Limited": {
      if (memberSet(input, "exempt"))
        out.push(forbidden(child(input.path, "exempt"), "must be nil if the type is Limited", extra));
      const limited = getKey(input.node, "limited");
      if (!memberSet(input, "limited"))
        out.push(required(child(input.path, "limited"), "must not be empty when type is Limited", extra));
      else if (isObject(limited)) out.push(...limitResponseFindings(limited, child(input.path, "limited")));
      break;
    }
    default:
      out.push(notSupported(child(input.path, "type"), type, enablements, extra));
  }
  return out;
};

/** Reported by `priorityLevelConfigurationSpec` (see there). */
export const limitResponse: Wording = () => [];
