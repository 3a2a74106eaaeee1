/**
 * A container's own restart policy and its restart rules (KEP-5307, the
 * ContainerRestartRules feature gate), as core validation checks them for a
 * regular container or an init container, release by release:
 * pkg/apis/core/validation/validation.go validateContainers,
 * validateInitContainerRestartPolicy and validateContainerRestartPolicy, with
 * the options pkg/api/pod/util.go GetValidationOptionsFromPodSpecAndMeta
 * derives from the feature gates (AllowContainerRestartPolicyRules,
 * AllowRestartAllContainers), and that file's dropContainerRestartRules.
 *
 * - 1.32 and 1.33: no gate. A regular container may not set `restartPolicy`
 *   at all; an init container may set it only to Always (a sidecar).
 * - 1.34: the gate is alpha and off, so the strategies drop a regular
 *   container's `restartPolicy`, every `restartPolicyRules`, and an init
 *   container's `restartPolicy` other than Always before validating: nothing
 *   is left to refuse.
 * - 1.35: the gate is beta and on. Any container may set Always, Never or
 *   OnFailure, and rules once it sets a policy; a sidecar (an init container
 *   with Always) may not have rules. The one action is Restart.
 * - 1.36: RestartAllContainersOnContainerExits is beta and on, which adds the
 *   RestartAllContainers action and lets a sidecar have rules; the two limits
 *   are reported as too many items, not too many bytes (kubernetes#137136).
 *
 * Templates are validated as Pods are: GetValidationOptionsFromPodTemplate
 * derives its options the same way and ValidatePodTemplateSpec adds nothing
 * here, so a Deployment's containers may carry rules too.
 */
import type { Finding } from "../../findings/index.js";
import { tooLong, tooMany } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  asError,
  forbidden,
  isSet,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  required,
  stringAt,
} from "./common.js";

/** The release options the rules depend on: 1.`minor`. */
export interface RestartOptions {
  minor: number;
}

/** ContainerRestartRules is on (beta from 1.35; alpha and off in 1.34, absent before). */
const rulesAllowed = (minor: number): boolean => minor >= 35;

/** In 1.34 the gate exists and is off: dropContainerRestartRules clears the fields before validation. */
const rulesDropped = (minor: number): boolean => minor === 34;

/** RestartAllContainersOnContainerExits is on (beta from 1.36; alpha and off in 1.35). */
const restartAllAllowed = (minor: number): boolean => minor >= 36;

/** From 1.36 the limits are field.TooMany; 1.35 used field.TooLong, which speaks of bytes. */
const limitsAsItems = (minor: number): boolean => minor >= 36;

/** supportedContainerRestartPolicies, as sets.List sorts them. */
const containerPolicies = ["Always", "Never", "OnFailure"];
/** supportedContainerRestartPolicyOperators, sorted. */
const exitCodeOperators = ["In", "NotIn"];
const maxRules = 20;
const maxExitCodes = 255;

const ruleActions = (minor: number): string[] =>
  restartAllAllowed(minor) ? ["Restart", "RestartAllContainers"] : ["Restart"];

const mustSpecifyPolicy = "must specify restartPolicy when restart rules are used";

/** A list longer than `max`, in the words of the release. */
const overLimit = (path: FieldPath, count: number, value: unknown, max: number, minor: number): Finding =>
  limitsAsItems(minor) ? tooMany(path, count, max, asError) : tooLong(path, value, max, asError);

/**
 * The restart policy and restart rules of the container at `at`
 * (`spec.containers[0]`, `spec.template.spec.initContainers[1]`, …), for
 * release 1.`minor`. A value of the wrong JSON type is left to the schema.
 */
export function validateContainerRestart(
  ctr: JsonObject,
  at: FieldPath,
  kind: "container" | "initContainer",
  { minor }: RestartOptions,
): Finding[] {
  if (rulesDropped(minor)) return [];
  if (!rulesAllowed(minor)) return kind === "container" ? beforeGateRegular(ctr, at) : beforeGateInit(ctr, at);
  return kind === "container" ? policyAndRules(ctr, at, minor) : initPolicyAndRules(ctr, at, minor);
}

/** validateContainers without the gate: any restartPolicy, even "", is refused. */
function beforeGateRegular(ctr: JsonObject, at: FieldPath): Finding[] {
  return isSet(ctr, "restartPolicy")
    ? [forbidden(child(at, "restartPolicy"), "may not be set for non-init containers", asError)]
    : [];
}

/** validateInitContainerRestartPolicy without the gate: only Always; "" is a value like any other. */
function beforeGateInit(ctr: JsonObject, at: FieldPath): Finding[] {
  const policy = isSet(ctr, "restartPolicy") ? stringAt(ctr, "restartPolicy") : undefined;
  return policy === undefined || policy === "Always"
    ? []
    : [notSupported(child(at, "restartPolicy"), policy, ["Always"], asError)];
}

/** validateInitContainerRestartPolicy with the gate on. */
function initPolicyAndRules(ctr: JsonObject, at: FieldPath, minor: number): Finding[] {
  const rules = listAt(ctr, "restartPolicyRules");
  // Unlike a regular container's, the rules of an init container without a policy are not looked at.
  if (!isSet(ctr, "restartPolicy"))
    return rules.length > 0 ? [required(child(at, "restartPolicy"), mustSpecifyPolicy, asError)] : [];
  if (stringAt(ctr, "restartPolicy") !== "Always" || restartAllAllowed(minor)) return policyAndRules(ctr, at, minor);
  return rules.length > 0
    ? [
        forbidden(
          child(at, "restartPolicyRules"),
          "restartPolicyRules are not allowed for init containers with restart policy Always",
          asError,
        ),
      ]
    : [];
}

/** validateContainerRestartPolicy. */
function policyAndRules(ctr: JsonObject, at: FieldPath, minor: number): Finding[] {
  const out: Finding[] = [];
  const rules = listAt(ctr, "restartPolicyRules");
  const rulesAt = child(at, "restartPolicyRules");
  if (!isSet(ctr, "restartPolicy")) {
    if (rules.length === 0) return out;
    out.push(required(child(at, "restartPolicy"), mustSpecifyPolicy, asError));
  } else {
    const policy = stringAt(ctr, "restartPolicy");
    if (policy !== undefined && !containerPolicies.includes(policy))
      out.push(notSupported(child(at, "restartPolicy"), policy, containerPolicies, asError));
  }
  if (rules.length > maxRules) out.push(overLimit(rulesAt, rules.length, rules, maxRules, minor));
  const actions = ruleActions(minor);
  for (const [i, rule] of objectItems(ctr, "restartPolicyRules")) {
    const ruleAt = child(rulesAt, i);
    const action = stringAt(rule, "action");
    if (action !== undefined && !actions.includes(action))
      out.push(notSupported(child(ruleAt, "action"), action, actions, asError));
    if (!isSet(rule, "exitCodes")) {
      out.push(required(child(ruleAt, "exitCodes"), "must be specified", asError));
      continue;
    }
    const exitCodes = objectAt(rule, "exitCodes");
    if (exitCodes === undefined) continue;
    const exitCodesAt = child(ruleAt, "exitCodes");
    const operator = stringAt(exitCodes, "operator");
    if (operator !== undefined && !exitCodeOperators.includes(operator))
      out.push(notSupported(child(exitCodesAt, "operator"), operator, exitCodeOperators, asError));
    const values = listAt(exitCodes, "values");
    if (values.length > maxExitCodes)
      out.push(overLimit(child(exitCodesAt, "values"), values.length, values, maxExitCodes, minor));
  }
  return out;
}
