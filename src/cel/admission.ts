/**
 * Admission expressions (a ValidatingAdmissionPolicy's, a webhook's match conditions) compiled as the API
 * server compiles them when the configuration is created (apiserver pkg/admission/plugin/cel compile.go,
 * CompileCELExpression), to tell what it refuses: a syntax error, an undeclared name or function, and a
 * result of another type than the field's. Schema rules' syntax and libraries, and the authorizer library;
 * the variables `object`, `oldObject`, `namespaceObject`, `request`, and, as the configuration has them,
 * `params`, `authorizer` with `authorizer.requestResource`, and `variables`. The server types `request`,
 * `namespaceObject` and `variables` (BuildRequestType, BuildNamespaceType, the composited variables); here
 * they are dyn, so a misspelt field of theirs passes. Never run: kunion admits nothing.
 */
import { FUNCTIONS } from "./environment.js";
import { Checker, type FunctionTable, formatIssues, functionTable } from "./language/checker.js";
import { type CelT, DYN, opaque } from "./language/types.js";
import { AUTHZ_OVERLOADS } from "./libraries/authz.js";
import { parseOrExplain } from "./rules.js";

/** The optional variables of an expression's environment (compile.go OptionalVariableDeclarations, and composition). */
export interface AdmissionVariables {
  params: boolean;
  authorizer: boolean;
  /** `variables`, a ValidatingAdmissionPolicy's spec.variables. */
  variables: boolean;
}

/** The type a field's expression must evaluate to (its ExpressionAccessor's ReturnTypes); `any` for a variable's. */
export type AdmissionResult = "bool" | "string" | "any";

const ADMISSION_FUNCTIONS: FunctionTable = functionTable(...FUNCTIONS.byName.values(), AUTHZ_OVERLOADS);

function scopeOf(vars: AdmissionVariables): Map<string, CelT> {
  const scope = new Map<string, CelT>([
    ["object", DYN],
    ["oldObject", DYN],
    ["namespaceObject", DYN],
    ["request", DYN],
  ]);
  if (vars.params) scope.set("params", DYN);
  if (vars.authorizer) {
    scope.set("authorizer", opaque("kubernetes.authorization.Authorizer"));
    scope.set("authorizer.requestResource", opaque("kubernetes.authorization.ResourceCheck"));
  }
  if (vars.variables) scope.set("variables", DYN);
  return scope;
}

/** What the API server says of `text` when it compiles it (the error's detail), undefined when it compiles. */
export function admissionExpressionError(
  text: string,
  vars: AdmissionVariables,
  result: AdmissionResult,
): string | undefined {
  const read = parseOrExplain(text);
  if ("error" in read) return read.error;
  const checker = new Checker(ADMISSION_FUNCTIONS, read.parsed.positions);
  let t: CelT;
  try {
    t = checker.check(read.parsed.expr, scopeOf(vars));
  } catch (e) {
    return `compilation failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (checker.issues.length > 0) return `compilation failed: ${formatIssues(text, checker.issues)}`;
  // ast.OutputType() == returnType: a dyn result is no bool
  if (result !== "any" && t.k !== result) return `must evaluate to ${result}`;
  return undefined;
}
