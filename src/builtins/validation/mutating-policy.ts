/**
 * admissionregistration.k8s.io MutatingAdmissionPolicies and their bindings on
 * create (pkg/apis/admissionregistration/validation/validation.go:
 * ValidateMutatingAdmissionPolicy, validateMutatingAdmissionPolicySpec,
 * validateMutation, validateApplyConfiguration, validateJSONPatch,
 * ValidateMutatingAdmissionPolicyBinding,
 * validateMutatingAdmissionPolicyBindingSpec), served as v1alpha1 (1.32–1.33),
 * v1beta1 (1.34+) and v1 (1.36). What they share with a ValidatingAdmissionPolicy
 * (paramKind, match resources and their rules, match conditions, variables,
 * paramRef) is admission-policy.ts's.
 *
 * The server's defaults come first (defaults.go SetDefaults_MutatingAdmissionPolicySpec,
 * SetDefaults_MatchResources, SetDefaults_Rule): an unset or null failurePolicy is
 * Fail, a match's matchPolicy Equivalent, its selectors {}, a rule's scope "*".
 * reinvocationPolicy has no default: unset, it is required. A v1alpha1 binding's
 * paramRef gets parameterNotFoundAction Deny when unset (v1alpha1 SetDefaults_ParamRef,
 * written for the v1alpha1 ValidatingAdmissionPolicyBinding; whether it still
 * runs for this kind is not verified, so its Required rule is left out there);
 * v1beta1 and v1 have no such default.
 *
 * A mutating policy cannot mutate DELETE: each operation of the policy's (and a
 * binding's) resource rules, exclusions aside, must be one of "*", CONNECT,
 * CREATE, UPDATE, reported at the rules' list without an index, as Go does,
 * besides the webhook rule's own check.
 *
 * Expressions: match conditions and variables are compiled as a validating
 * policy's are (params with a paramKind, the authorizer; match conditions without
 * `variables`, each variable with those before it); the mutations' with the
 * patch types too (Object and JSONPatch literals, jsonpatch.escapeKey), an
 * apply configuration evaluating to an Object, a JSON patch to a list(JSONPatch).
 *
 * Release-dependent: a variable name that is no CEL identifier is worded
 * differently up to 1.31 and from 1.35 (admission-policy.ts's `wording`); that
 * rule is left out in 1.32–1.34, as for a validating policy.
 */
import { type AdmissionResult, admissionExpressionError, ComposedVariables } from "../../cel/index.js";
import type { Finding } from "../../findings/index.js";
import { trimSpace } from "../../go/index.js";
import { isDNS1123Subdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { celLibrariesOf } from "../releases.js";
import {
  validateMatchResources,
  validateParamRef,
  validatePolicySpecHead,
  validateVariable,
  wording,
} from "./admission-policy.js";
import { validateMatchConditions } from "./admissionregistration.js";
import {
  asError,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  required,
  stringAt,
} from "./common.js";

// The supported values, as the server lists them (sets.List: sorted).
const reinvocationPolicies = ["IfNeeded", "Never"];
const patchTypes = ["ApplyConfiguration", "JSONPatch"];
/** supportedMutatingOperations: the webhook rule's operations without DELETE. */
const mutatingOperations = ["*", "CONNECT", "CREATE", "UPDATE"];

/**
 * The operations a mutating policy may match, checked over every resource rule
 * (not the exclusions) and reported at `<match>.resourceRules.operations`.
 */
function validateMutatingOperations(match: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const opsAt = child(at, "resourceRules", "operations");
  for (const [, rule] of objectItems(match, "resourceRules"))
    for (const op of listAt(rule, "operations"))
      if (typeof op === "string" && !mutatingOperations.includes(op))
        out.push(notSupported(opsAt, op, mutatingOperations, asError));
  return out;
}

/** What a policy's mutations are compiled with: params with a paramKind, its variables, the release's libraries. */
interface Mutations {
  params: boolean;
  variables: ComposedVariables;
  libraries: number;
}

/**
 * validateApplyConfiguration / validateJSONPatch: the expression, trimmed, not blank, and compiled as the
 * policy's composition compiler compiles it (HasPatchTypes: Object and JSONPatch literals), its result an
 * Object or a list(JSONPatch); an error shows the trimmed text.
 */
function mutationExpression(
  member: JsonObject,
  at: FieldPath,
  result: AdmissionResult,
  mutations: Mutations,
): Finding[] {
  const expression = stringAt(member, "expression");
  if (expression === undefined) return []; // not a string: the schema's
  const trimmed = trimSpace(expression);
  if (trimmed === "") return [required(child(at, "expression"), "", asError)];
  const vars = { ...mutations, authorizer: true, patchTypes: true };
  const error = admissionExpressionError(trimmed, vars, result);
  return error === undefined ? [] : [invalid(child(at, "expression"), trimmed, error, asError)];
}

/** One member of the union patchType names: set (and checked), the other one not. */
function patchMember(
  mutation: JsonObject,
  at: FieldPath,
  member: string,
  other: string,
  patchType: string,
  mutations: Mutations,
): Finding[] {
  const out: Finding[] = [];
  if (!isSet(mutation, member))
    out.push(required(child(at, member), `must be specified when patchType is ${patchType}`, asError));
  else {
    const value = objectAt(mutation, member);
    const result = member === "jsonPatch" ? "json-patch" : "apply-configuration";
    if (value !== undefined) out.push(...mutationExpression(value, child(at, member), result, mutations));
  }
  if (isSet(mutation, other))
    out.push(invalid(child(at, other), `{${other}}`, `must not be specified when patchType is ${patchType}`, asError));
  return out;
}

/** validateMutation: the patch type, then its member. */
function validateMutation(mutation: JsonObject, at: FieldPath, mutations: Mutations): Finding[] {
  // patchType is a required field of the schema: absent, it is the schema's finding.
  if (!Object.hasOwn(mutation, "patchType")) return [];
  const patchType = stringAt(mutation, "patchType");
  if (patchType === undefined) return []; // not a string: the schema's
  if (patchType === "") return [required(child(at, "patchType"), "", asError)];
  if (patchType === "JSONPatch")
    return patchMember(mutation, at, "jsonPatch", "applyConfiguration", patchType, mutations);
  if (patchType === "ApplyConfiguration")
    return patchMember(mutation, at, "applyConfiguration", "jsonPatch", patchType, mutations);
  return [notSupported(child(at, "patchType"), patchType, patchTypes, asError)];
}

/** ValidateMutatingAdmissionPolicy: the spec's rules, in validateMutatingAdmissionPolicySpec's order. */
export function validateMutatingAdmissionPolicy(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  if (isSet(object, "spec") && spec === undefined) return []; // not an object: the schema's
  const at: FieldPath = ["spec"];
  const { out, paramKind } = validatePolicySpecHead(spec, at, validateMutatingOperations);
  const params = paramKind !== undefined;
  const libraries = celLibrariesOf(minor);
  out.push(...validateMatchConditions(spec ?? {}, child(at, "matchConditions"), params, libraries));
  // The server always compiles a mutating policy with the composition compiler.
  const composed = new ComposedVariables();
  const policy = { words: wording(minor), params, variables: composed, libraries };
  for (const [i, variable] of objectItems(spec, "variables"))
    out.push(...validateVariable(variable, child(at, "variables", i), policy, composed));
  const mutationsAt = child(at, "mutations");
  if (listAt(spec, "mutations").length === 0)
    out.push(required(mutationsAt, "mutations must contain at least one item", asError));
  for (const [i, mutation] of objectItems(spec, "mutations"))
    out.push(...validateMutation(mutation, child(mutationsAt, i), { params, variables: composed, libraries }));
  const reinvocation: JsonValue | undefined = spec === undefined ? undefined : getKey(spec, "reinvocationPolicy");
  const reinvocationAt = child(at, "reinvocationPolicy");
  if (reinvocation === undefined || reinvocation === null || reinvocation === "")
    out.push(required(reinvocationAt, "", asError));
  else if (typeof reinvocation === "string" && !reinvocationPolicies.includes(reinvocation))
    out.push(notSupported(reinvocationAt, reinvocation, reinvocationPolicies, asError));
  return out;
}

/** The paramRef as validated: v1alpha1's SetDefaults_ParamRef assumed to default the action (see above). */
function defaultedParamRef(object: JsonObject, ref: JsonObject): JsonObject {
  const alpha = getKey(object, "apiVersion") === "admissionregistration.k8s.io/v1alpha1";
  return alpha && !isSet(ref, "parameterNotFoundAction") ? { ...ref, parameterNotFoundAction: "Deny" } : ref;
}

/** ValidateMutatingAdmissionPolicyBinding: validateMutatingAdmissionPolicyBindingSpec's rules. */
export function validateMutatingAdmissionPolicyBinding(object: JsonObject): Finding[] {
  const spec = objectAt(object, "spec");
  if (isSet(object, "spec") && spec === undefined) return []; // not an object: the schema's
  const out: Finding[] = [];
  const at: FieldPath = ["spec"];
  const policy = stringAt(spec, "policyName");
  if (policy === "") out.push(required(child(at, "policyName"), "", asError));
  else if (policy !== undefined) out.push(...invalidEach(child(at, "policyName"), policy, isDNS1123Subdomain(policy)));
  const paramRef = objectAt(spec, "paramRef");
  if (paramRef !== undefined) out.push(...validateParamRef(defaultedParamRef(object, paramRef), child(at, "paramRef")));
  const match = objectAt(spec, "matchResources");
  if (match !== undefined) {
    const matchAt = child(at, "matchResources");
    out.push(...validateMatchResources(match, matchAt));
    out.push(...validateMutatingOperations(match, matchAt));
  }
  return out;
}
