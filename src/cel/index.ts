/**
 * CEL for `x-kubernetes-validations`, as the API server evaluates it
 * (apiextensions-apiserver pkg/apiserver/schema/cel), the free-standing
 * expressions of conversion declarations, and admission configurations'
 * expressions, checked as the server compiles them (admission.ts), and DRA's
 * device selectors, compiled in their own environment (dra.ts); the one
 * entry other folders import.
 * Three rooms behind it:
 * - `language/`: CEL itself: parsing with the syntax @bufbuild/cel lacks, the
 *   type of `self` built from the schema (property names escaped as the server
 *   does), type checking in cel-go's words, the one-line signatures functions
 *   are declared in, typed lazy values with Kubernetes equality, timestamps,
 *   and the evaluator that compiles a checked expression into closures;
 * - `libraries/`: every function a rule can call, each declared once for the
 *   checker and the runtime: the standard library and strings extension
 *   (run by @bufbuild/cel, with Kubernetes' differences) and the Kubernetes
 *   libraries (lists, regex, URL, quantity, IP/CIDR, format, optional types,
 *   and the authorizer's, for admission expressions only);
 * - `cost/`: the API server's runtime cost and kunion's work budget, and the
 *   static estimate the API server refuses a CRD's rules for (estimator.ts over
 *   the schema's sizes, sizes.ts, and the libraries' estimates, estimates.ts).
 * At the top, `rules.ts` (compiling and evaluating a node's rules, in the
 * server's words), `expression.ts` and `environment.ts`. The folder imports
 * value, path, findings, names, go, @bufbuild/cel and @bufbuild/re2.
 */
import { type Finding, finding } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import type { JsonObject, JsonValue } from "../value/index.js";
import type { WorkBudget } from "./cost/meter.js";
import { celLibraries } from "./environment.js";
import {
  type CelBadValue,
  type CompiledRules,
  compileRulesImpl,
  type ExpressionCost,
  evaluateRulesImpl,
  type UpdateContext,
} from "./rules.js";

export { DOCUMENT_WORK_LIMIT, PER_CALL_LIMIT, RUNTIME_BUDGET, WorkBudget, withWorkBudget } from "./cost/meter.js";
export { cardinalityFactor } from "./cost/sizes.js";
export { type DraSelectorOptions, draSelectorError } from "./dra.js";
export { escapeName, isCelIdentifier, unescapeName } from "./language/escape.js";
export {
  type CelBadValue,
  costErrorMessage,
  type ExpressionCost,
  STATIC_ESTIMATED_COST_LIMIT,
  type UpdateContext,
} from "./rules.js";

/** Compiled `x-kubernetes-validations` of one schema node (opaque: compiled programs + metadata). */
export interface CelRules {
  readonly __celRules?: never;
}

/** Runtime cost budget for one object (API server: 1e7 per object, 1e6 per expression). */
export interface CelBudget {
  remaining: number;
  /** kunion's work budget, when no document's is open (withWorkBudget): one per object, made on first use. */
  work?: WorkBudget;
}

/** How compileRules reads a node's rules. */
export interface RuleOptions {
  /** The node is a custom resource's root (see compileRules). */
  resourceRoot?: boolean;
  /** The Kubernetes minor whose CEL libraries a new rule may use; every one when absent. */
  libraries?: number;
  /** How many times the node may occur in an object: 1 by default (the root); null when unbounded. */
  cardinality?: number | null;
  /** On an update of the CRD: what the API server keeps of the old one (rules.ts UpdateContext). */
  update?: UpdateContext;
}

/**
 * Compile the `x-kubernetes-validations` of one schema node (the raw openAPIV3Schema object holding them;
 * its own `properties`/`items`/`type`/`format`/`x-kubernetes-*` give `self` its type). A rule that does not
 * parse or type-check, a bad messageExpression, a bad fieldPath → findings under
 * `schemaPath` + ["x-kubernetes-validations", i, <field>] (type "SchemaError", rule "cel"). Never throws.
 * Compiled programs are cached by (rule text, type), so 1,000 identical rules compile once. `resourceRoot`:
 * the node is a custom resource's root, whose rules always see apiVersion, kind, metadata.name and
 * metadata.generateName, declared or not (apiserver's SchemaDeclType, WithTypeAndObjectMeta), as an
 * embedded resource's do. `libraries`: the Kubernetes minor whose CEL libraries the rules may use (a new rule
 * is compiled with the API server's compatibility version's, environment.ts celLibraries); every one when absent.
 * Each rule's and message expression's estimated cost (cel-go's static estimate) is checked against the API
 * server's limit, the rule's times `cardinality`: the product of the enclosing lists' maxItems and maps'
 * maxProperties (1 at the root; null when one is unbounded: then the most times the node fits in a request);
 * `costs` are what the CRD's total adds up. On an update (`update`), the rules the old CRD had are compiled
 * with every library, and an unchanged version's rules are not refused for their own cost.
 */
export function compileRules(
  node: JsonObject,
  schemaPath: FieldPath,
  options: RuleOptions = {},
): { rules: CelRules | undefined; findings: Finding[]; costs: ExpressionCost[] } {
  try {
    const out = compileRulesImpl(node, schemaPath, {
      resourceRoot: options.resourceRoot ?? false,
      libraries: celLibraries(options.libraries),
      cardinality: options.cardinality === undefined ? 1 : options.cardinality,
      update: options.update,
    });
    return { rules: out.rules as CelRules | undefined, findings: out.findings, costs: out.costs };
  } catch (e) {
    const detail = `internal error compiling rules: ${e instanceof Error ? e.message : String(e)}`;
    return {
      rules: undefined,
      findings: [
        finding({ type: "SchemaError", path: [...schemaPath, "x-kubernetes-validations"], detail, rule: "cel" }),
      ],
      costs: [],
    };
  }
}

/**
 * Evaluate against `self` (already defaulted, structurally valid for this node). Transition rules (rules that
 * reference oldSelf) run only when oldSelf !== undefined, unless optionalOldSelf is true (then oldSelf is an
 * optional). Failing rules → findings at dataPath (or dataPath + fieldPath when set), in the API server's
 * words; runtime errors and cost exhaustion → findings too. `budget.remaining` goes negative once the budget
 * is exhausted; later calls with that budget then do nothing, as the server runs no further rules.
 * Ratcheting: when oldSelf deep-equals self, failures of rules that do not use oldSelf have severity "warning".
 */
export function evaluateRules(
  rules: CelRules,
  self: JsonValue,
  oldSelf: JsonValue | undefined,
  dataPath: FieldPath,
  budget: CelBudget,
  badValue?: CelBadValue,
): Finding[] {
  try {
    return evaluateRulesImpl(rules as CompiledRules, self, oldSelf, dataPath, budget, badValue);
  } catch (e) {
    const detail = `internal error evaluating rules: ${e instanceof Error ? e.message : String(e)}`;
    return [finding({ type: "FieldValueInvalid", path: dataPath, detail, rule: "cel" })];
  }
}

export {
  type AdmissionResult,
  type AdmissionVariables,
  admissionExpressionError,
  ComposedVariables,
} from "./admission.js";
export { type CelExpression, compileExpression, evaluateExpression, type ResultOptions } from "./expression.js";
