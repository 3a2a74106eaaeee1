/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies and their
 * bindings on create (pkg/apis/admissionregistration/validation/validation.go:
 * ValidateValidatingAdmissionPolicy, validateValidatingAdmissionPolicySpec,
 * validateParamKind, validateMatchResources, validateNamedRuleWithOperations,
 * validateMatchConditions, validateVariable, validateValidation,
 * validateAuditAnnotation, ValidateValidatingAdmissionPolicyBinding,
 * validateValidatingAdmissionPolicyBindingSpec, validateParamRef,
 * validateValidationActions), the kinds GA since 1.30.
 *
 * The server's v1 defaults (defaults.go SetDefaults_ValidatingAdmissionPolicySpec,
 * SetDefaults_MatchResources, SetDefaults_Rule) come first: an unset or null
 * failurePolicy is Fail, a match's matchPolicy Equivalent, its selectors {},
 * a rule's scope "*". v1 has no default for a paramRef's
 * parameterNotFoundAction. An enum set to "" is no unset pointer: it is
 * reported.
 *
 * Each expression is compiled as the server compiles it (cel's
 * admissionExpressionError), in its field's environment: params with a
 * paramKind; `variables` where the policy declares any, but not in match
 * conditions; the authorizer, but not in a message expression; a validation
 * must evaluate to a bool, a message expression to a string. Around them: an
 * expression empty or white space only, a message with a line break, a
 * variable name that is no CEL identifier, an audit annotation's key and length.
 *
 * A field the schema marks required whose absence the server words (a
 * validation's expression, an audit annotation's key and valueExpression, a
 * variable's name and expression: "… is not specified") is reported here
 * absent too (required-groups.ts); a match condition's name and expression,
 * a bare Required, only when present and empty or null: absent, it is the
 * schema's finding.
 *
 * Release-dependent: three details were
 * reworded (a variable name, a blank message, a message with a line break):
 * the old words up to 1.31, the new from 1.35; the release between that
 * changed them is not known here, so 1.32–1.34 leave those three rules out.
 */
import {
  type AdmissionResult,
  type AdmissionVariables,
  admissionExpressionError,
  ComposedVariables,
  isCelIdentifier,
} from "../../cel/index.js";
import type { Finding } from "../../findings/index.js";
import { trimSpace } from "../../go/index.js";
import {
  byteLength,
  isDNS1035Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidPathSegmentName,
} from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject, type JsonValue } from "../../value/index.js";
import { celLibrariesOf } from "../releases.js";
import {
  failurePolicies,
  matchPolicies,
  pointerEnum,
  validateMatchConditions,
  validateRuleWithOperations,
} from "./admissionregistration.js";
import {
  asError,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  required,
  stringAt,
  validateLabelSelector,
} from "./common.js";

// The supported values, as the server lists them (sets.List: sorted, unless said).
const reasons = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
const validationActions = ["Audit", "Deny", "Warn"];
/** In the order validateParamRef gives them. */
const parameterNotFoundActions = ["Deny", "Allow"];
const maxAuditAnnotations = 20;
const maxValueExpressionBytes = 5 * 1024;

/** The details a release words differently; undefined where the release is not known. */
interface Wording {
  identifier: string;
  blankMessage: string;
  lineBreaks: string;
}

export function wording(minor: number): Wording | undefined {
  if (minor <= 31)
    return {
      identifier: "name is not a valid CEL identifier",
      blankMessage: "message must be non-empty if specified",
      lineBreaks: "message must not contain line breaks",
    };
  if (minor >= 35)
    return {
      identifier: "must be a valid CEL identifier",
      blankMessage: "must be non-empty if specified",
      lineBreaks: "must not contain line breaks",
    };
  return undefined;
}

/** validateParamKind. */
export function validateParamKind(kind: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const versionAt = child(at, "apiVersion");
  const apiVersion = stringAt(kind, "apiVersion");
  if (apiVersion === "") out.push(required(versionAt, "", asError));
  else if (apiVersion !== undefined) {
    const slashes = apiVersion.split("/").length - 1;
    if (slashes > 1) out.push(invalid(versionAt, apiVersion, `unexpected GroupVersion string: ${apiVersion}`, asError));
    else {
      // "/" parses as no group and no version, as in Go.
      const slash = apiVersion === "/" ? -1 : apiVersion.indexOf("/");
      const group = slash < 0 ? "" : apiVersion.slice(0, slash);
      const version = apiVersion === "/" ? "" : apiVersion.slice(slash + 1);
      if (group !== "") {
        const errs = isDNS1123Subdomain(group);
        if (errs.length > 0) out.push(invalid(versionAt, group, errs.join(","), asError));
      }
      if (version === "") out.push(invalid(versionAt, apiVersion, "version must be specified", asError));
      else {
        const errs = isDNS1035Label(version);
        if (errs.length > 0) out.push(invalid(versionAt, version, errs.join(","), asError));
      }
    }
  }
  const kindName = stringAt(kind, "kind");
  if (kindName === "") out.push(required(child(at, "kind"), "", asError));
  else if (kindName !== undefined) {
    const errs = isDNS1035Label(kindName.toLowerCase());
    if (errs.length > 0)
      out.push(
        invalid(
          child(at, "kind"),
          kindName,
          `may have mixed case, but should otherwise match: ${errs.join(",")}`,
          asError,
        ),
      );
  }
  return out;
}

/** validateNamedRuleWithOperations: resource names, then the rule (subresources allowed). */
function validateNamedRule(rule: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  listAt(rule, "resourceNames").forEach((name, i) => {
    if (typeof name !== "string") return;
    const nameAt = child(at, "resourceNames", i);
    out.push(...invalidEach(nameAt, name, isValidPathSegmentName(name, false)));
    if (seen.has(name)) out.push(duplicate(nameAt, name, asError));
    else seen.add(name);
  });
  out.push(...validateRuleWithOperations(rule, at));
  return out;
}

/** validateMatchResources after SetDefaults_MatchResources: selectors strictly checked. */
export function validateMatchResources(match: JsonObject, at: FieldPath): Finding[] {
  const out = pointerEnum(match, "matchPolicy", at, matchPolicies);
  out.push(...validateLabelSelector(objectAt(match, "namespaceSelector"), child(at, "namespaceSelector")));
  out.push(...validateLabelSelector(objectAt(match, "objectSelector"), child(at, "objectSelector")));
  for (const [i, rule] of objectItems(match, "resourceRules"))
    out.push(...validateNamedRule(rule, child(at, "resourceRules", i)));
  for (const [i, rule] of objectItems(match, "excludeResourceRules"))
    out.push(...validateNamedRule(rule, child(at, "excludeResourceRules", i)));
  return out;
}

/** What a policy's checks share: the release's words, and what its expressions' environments declare. */
interface Policy {
  words: Wording | undefined;
  /** A paramKind: `params` is declared (and in match conditions). */
  params: boolean;
  /**
   * The policy's variables as the composition compiler declares them, where it has any: each variable sees those
   * before it, the validations, messages and audit annotations all of them.
   */
  variables: ComposedVariables | undefined;
  /** The CEL libraries its expressions may use (releases.ts celLibrariesOf). */
  libraries: number;
}

/**
 * An expression compiled as validateCELCondition compiles it, its error reported at `at` with `shown`, the
 * expression as the server's accessor holds it (trimmed for match conditions and audit annotation values).
 */
function compiled(
  text: string,
  shown: string,
  vars: AdmissionVariables,
  result: AdmissionResult,
  at: FieldPath,
): Finding[] {
  const error = admissionExpressionError(text, vars, result);
  return error === undefined ? [] : [invalid(at, shown, error, asError)];
}

/**
 * validateVariable: its expression compiled with the variables before it, then stored under its name with its
 * result's type, whatever its name (a variable's value may be anything).
 */
export function validateVariable(
  variable: JsonObject,
  at: FieldPath,
  policy: Policy,
  composed: ComposedVariables,
): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(variable, "name");
  if (name !== undefined) {
    if (trimSpace(name) === "") out.push(required(child(at, "name"), "name is not specified", asError));
    else if (!isCelIdentifier(name) && policy.words !== undefined)
      out.push(invalid(child(at, "name"), name, policy.words.identifier, asError));
  }
  const expression = stringAt(variable, "expression");
  if (expression !== undefined && trimSpace(expression) === "")
    out.push(required(child(at, "expression"), "expression is not specified", asError));
  else if (expression !== undefined) {
    const error = composed.add(name ?? "", expression, {
      params: policy.params,
      authorizer: true,
      libraries: policy.libraries,
    });
    if (error !== undefined) out.push(invalid(child(at, "expression"), expression, error, asError));
  }
  return out;
}

/** validateValidation: the expression a bool, the message expression a string (without the authorizer). */
function validateValidation(validation: JsonObject, at: FieldPath, policy: Policy): Finding[] {
  const out: Finding[] = [];
  const words = policy.words;
  const expression = stringAt(validation, "expression");
  if (expression !== undefined && trimSpace(expression) === "")
    out.push(required(child(at, "expression"), "expression is not specified", asError));
  else if (expression !== undefined) {
    const vars = { params: policy.params, authorizer: true, variables: policy.variables, libraries: policy.libraries };
    out.push(...compiled(expression, expression, vars, "bool", child(at, "expression")));
  }
  const messageExpression = stringAt(validation, "messageExpression");
  if (messageExpression !== undefined && messageExpression !== "" && trimSpace(messageExpression) === "")
    out.push(invalid(child(at, "messageExpression"), messageExpression, "must be non-empty if specified", asError));
  else if (messageExpression) {
    const vars = { params: policy.params, authorizer: false, variables: policy.variables, libraries: policy.libraries };
    out.push(...compiled(messageExpression, messageExpression, vars, "string", child(at, "messageExpression")));
  }
  const message = stringAt(validation, "message");
  if (message !== undefined && message !== "" && words !== undefined) {
    const trimmed = trimSpace(message);
    if (trimmed === "") out.push(invalid(child(at, "message"), message, words.blankMessage, asError));
    else if (/[\n\r]/.test(trimmed)) out.push(invalid(child(at, "message"), message, words.lineBreaks, asError));
  }
  out.push(...pointerEnum(validation, "reason", at, reasons));
  return out;
}

/** The name the policy has when validated, or undefined when the server makes one up (generateName). */
function policyName(object: JsonObject): string | undefined {
  const metadata = objectAt(object, "metadata");
  const name = stringAt(metadata, "name") ?? "";
  if (name !== "") return name;
  const generateName = stringAt(metadata, "generateName") ?? "";
  return generateName === "" ? "" : undefined;
}

/** validateAuditAnnotation: the value expression compiled trimmed, its result a string or null. */
function validateAuditAnnotation(
  annotation: JsonObject,
  at: FieldPath,
  name: string | undefined,
  policy: Policy,
): Finding[] {
  const out: Finding[] = [];
  const key = stringAt(annotation, "key");
  // A generated name's random suffix would be in the message: left out.
  if (key !== undefined && name !== undefined) {
    if (name === "") out.push(invalid(child(at, "key"), key, "requires metadata.name be non-empty", asError));
    else {
      const qualified = `${name}/${key}`;
      out.push(...invalidEach(child(at, "key"), qualified, isQualifiedName(qualified)));
    }
  }
  const valueExpression = stringAt(annotation, "valueExpression");
  if (valueExpression !== undefined) {
    const trimmed = trimSpace(valueExpression);
    if (trimmed === "") out.push(required(child(at, "valueExpression"), "valueExpression is not specified", asError));
    else if (byteLength(trimmed) > maxValueExpressionBytes)
      out.push(
        required(child(at, "valueExpression"), `must not exceed ${maxValueExpressionBytes} bytes in length`, asError),
      );
    else {
      const vars = {
        params: policy.params,
        authorizer: true,
        variables: policy.variables,
        libraries: policy.libraries,
      };
      out.push(...compiled(trimmed, valueExpression, vars, "string-or-null", child(at, "valueExpression")));
    }
  }
  return out;
}

/** validateValidatingAdmissionPolicySpec: the validations or audit annotations, at least one. */
function validateChecks(object: JsonObject, spec: JsonObject | undefined, policy: Policy): Finding[] {
  const out: Finding[] = [];
  const at: FieldPath = ["spec"];
  const annotations = listAt(spec, "auditAnnotations");
  if (listAt(spec, "validations").length === 0 && annotations.length === 0) {
    const detail = "validations or auditAnnotations must contain at least one item";
    return [
      required(child(at, "validations"), detail, asError),
      required(child(at, "auditAnnotations"), detail, asError),
    ];
  }
  for (const [i, validation] of objectItems(spec, "validations"))
    out.push(...validateValidation(validation, child(at, "validations", i), policy));
  if (annotations.length > maxAuditAnnotations)
    out.push(
      invalid(
        child(at, "auditAnnotations"),
        annotations,
        `must not have more than ${maxAuditAnnotations} auditAnnotations`,
        asError,
      ),
    );
  const name = policyName(object);
  const keys = new Set<string>();
  for (const [i, annotation] of objectItems(spec, "auditAnnotations")) {
    const annotationAt = child(at, "auditAnnotations", i);
    out.push(...validateAuditAnnotation(annotation, annotationAt, name, policy));
    const key = stringAt(annotation, "key");
    if (key === undefined) continue;
    if (keys.has(key)) out.push(duplicate(child(annotationAt, "key"), key, asError));
    keys.add(key);
  }
  return out;
}

/**
 * What a validating and a mutating policy's spec check first, alike (validateValidatingAdmissionPolicySpec,
 * validateMutatingAdmissionPolicySpec): failurePolicy, paramKind, and matchConstraints with at least one
 * resource rule, where the type information comes from; `constraintsToo`, a policy's own checks of them.
 */
export function validatePolicySpecHead(
  spec: JsonObject | undefined,
  at: FieldPath,
  constraintsToo?: (constraints: JsonObject, at: FieldPath) => Finding[],
): { out: Finding[]; paramKind: JsonObject | undefined } {
  const out = spec === undefined ? [] : pointerEnum(spec, "failurePolicy", at, failurePolicies);
  const paramKind = objectAt(spec, "paramKind");
  if (paramKind !== undefined) out.push(...validateParamKind(paramKind, child(at, "paramKind")));
  const constraintsAt = child(at, "matchConstraints");
  if (!isSet(spec, "matchConstraints")) out.push(required(constraintsAt, "", asError));
  else {
    const constraints = objectAt(spec, "matchConstraints");
    if (constraints !== undefined) {
      out.push(...validateMatchResources(constraints, constraintsAt));
      if (listAt(constraints, "resourceRules").length === 0)
        out.push(required(child(constraintsAt, "resourceRules"), "", asError));
      if (constraintsToo !== undefined) out.push(...constraintsToo(constraints, constraintsAt));
    }
  }
  return { out, paramKind };
}

/** ValidateValidatingAdmissionPolicy: the spec's rules, in validateValidatingAdmissionPolicySpec's order. */
export function validateValidatingAdmissionPolicy(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  if (isSet(object, "spec") && spec === undefined) return []; // not an object: the schema's
  const words = wording(minor);
  const at: FieldPath = ["spec"];
  const { out, paramKind } = validatePolicySpecHead(spec, at);
  const composed = listAt(spec, "variables").length > 0 ? new ComposedVariables() : undefined;
  const libraries = celLibrariesOf(minor);
  const policy: Policy = { words, params: paramKind !== undefined, variables: composed, libraries };
  out.push(...validateMatchConditions(spec ?? {}, child(at, "matchConditions"), policy.params, libraries));
  for (const [i, variable] of objectItems(spec, "variables"))
    out.push(...validateVariable(variable, child(at, "variables", i), policy, composed as ComposedVariables));
  out.push(...validateChecks(object, spec, policy));
  return out;
}

/** validateParamRef: a name or a selector, not both, and what to do without a parameter. */
export function validateParamRef(ref: JsonObject, at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const name = stringAt(ref, "name") ?? "";
  const hasSelector = isSet(ref, "selector");
  const exclusive = "name and selector are mutually exclusive";
  if (name !== "") {
    out.push(...invalidEach(child(at, "name"), name, isValidPathSegmentName(name, false)));
    if (hasSelector) out.push(forbidden(child(at, "name"), exclusive, asError));
  }
  if (hasSelector) {
    out.push(...validateLabelSelector(objectAt(ref, "selector"), child(at, "selector")));
    if (name !== "") out.push(forbidden(child(at, "selector"), exclusive, asError));
  }
  if (name === "" && !hasSelector) out.push(required(at, "one of name or selector must be specified", asError));
  const action: JsonValue | undefined = getKey(ref, "parameterNotFoundAction");
  const actionAt = child(at, "parameterNotFoundAction");
  if (action === undefined || action === null || action === "") out.push(required(actionAt, "", asError));
  else if (typeof action === "string" && !parameterNotFoundActions.includes(action))
    out.push(notSupported(actionAt, action, parameterNotFoundActions, asError));
  return out;
}

/** validateValidationActions: known, unique, not both Deny and Warn, at least one. */
function validateValidationActions(actions: readonly JsonValue[], at: FieldPath): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (typeof action !== "string") return;
    if (!validationActions.includes(action)) out.push(notSupported(child(at, i), action, validationActions, asError));
    if (seen.has(action)) out.push(duplicate(child(at, i), action, asError));
    seen.add(action);
  });
  if (seen.has("Deny") && seen.has("Warn"))
    out.push(
      invalid(
        at,
        actions,
        "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        asError,
      ),
    );
  if (actions.length === 0) out.push(required(at, "at least one validation action is required", asError));
  return out;
}

/** ValidateValidatingAdmissionPolicyBinding: validateValidatingAdmissionPolicyBindingSpec's rules. */
export function validateValidatingAdmissionPolicyBinding(object: JsonObject): Finding[] {
  const spec = objectAt(object, "spec");
  if (isSet(object, "spec") && spec === undefined) return []; // not an object: the schema's
  const out: Finding[] = [];
  const at: FieldPath = ["spec"];
  const policy = stringAt(spec, "policyName");
  if (policy === "") out.push(required(child(at, "policyName"), "", asError));
  else if (policy !== undefined) out.push(...invalidEach(child(at, "policyName"), policy, isDNS1123Subdomain(policy)));
  const paramRef = objectAt(spec, "paramRef");
  if (paramRef !== undefined) out.push(...validateParamRef(paramRef, child(at, "paramRef")));
  const match = objectAt(spec, "matchResources");
  if (match !== undefined) out.push(...validateMatchResources(match, child(at, "matchResources")));
  out.push(...validateValidationActions(listAt(spec, "validationActions"), child(at, "validationActions")));
  return out;
}
