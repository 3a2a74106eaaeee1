/**
 * Admission expressions (a ValidatingAdmissionPolicy's, a webhook's match conditions) compiled as the API
 * server compiles them when the configuration is created (apiserver pkg/admission/plugin/cel compile.go,
 * CompileCELExpression), to tell what it refuses: a syntax error, an undeclared name or function, a field
 * `request` or `namespaceObject` does not have, and a result of another type than the field's. Schema rules'
 * syntax and libraries, and the authorizer library; the variables `object` and `oldObject` (dyn),
 * `namespaceObject` and `request` (typed as BuildNamespaceType and BuildRequestType type them), and, as the
 * configuration has them, `params`, `authorizer` with `authorizer.requestResource`, and `variables` (each
 * typed by its expression, ComposedVariables). Never run.
 */
import { type CelLibraries, celLibraries } from "./environment.js";
import { Checker, type FunctionTable, formatIssues, functionTable, type StructTypes } from "./language/checker.js";
import { parseSignatures } from "./language/signatures.js";
import { BOOL, type CelT, DYN, INT, listOf, mapOf, opaque, STRING, TIMESTAMP, typeName } from "./language/types.js";
import { AUTHZ_OVERLOADS } from "./libraries/authz.js";
import { parseOrExplain } from "./rules.js";

/** The optional variables of an expression's environment (compile.go OptionalVariableDeclarations, and composition). */
export interface AdmissionVariables {
  params: boolean;
  authorizer: boolean;
  /**
   * A mutating policy's mutations (HasPatchTypes): `Object{…}`, `Object.spec{…}` and `JSONPatch{…}` literals
   * (mutation.DynamicTypeResolver) and `jsonpatch.escapeKey` (library.JSONPatch).
   */
  patchTypes?: boolean;
  /** `variables`: a ValidatingAdmissionPolicy's spec.variables composed so far, where the expression sees them. */
  variables: ComposedVariables | undefined;
  /**
   * The Kubernetes minor whose CEL libraries a new expression may use (the API server's compatibility version,
   * environment.ts celLibraries); every one when absent.
   */
  libraries?: number;
}

/**
 * The types a field's expression may evaluate to (its ExpressionAccessor's ReturnTypes): a validation's a
 * bool, a message's a string, an audit annotation's a string or null; `any` for a variable's.
 */
export type AdmissionResult = "bool" | "string" | "string-or-null" | "apply-configuration" | "json-patch" | "any";

/** ReturnTypes as compile.go prints them (one type's name, or the list as Go prints a []*cel.Type), by cel-go's type names. */
const RETURN_TYPES: Record<Exclude<AdmissionResult, "any">, { names: readonly string[]; shown: string }> = {
  bool: { names: ["bool"], shown: "bool" },
  string: { names: ["string"], shown: "string" },
  "string-or-null": { names: ["string", "null_type"], shown: "one of [string null_type]" },
  // ApplyConfigurationCondition and JSONPatchCondition (policy/mutating/patch)
  "apply-configuration": { names: ["Object"], shown: "Object" },
  "json-patch": { names: ["list(JSONPatch)"], shown: "list(JSONPatch)" },
};

/**
 * mutation.DynamicTypeResolver: `Object` and `Object.<field>…` are objects of any fields, each dyn; JSONPatch
 * has string `op`, `path` and `from` and a dyn `value` (JSONPatchType.Field, which answers any other name too).
 */
const patchTypes: StructTypes = (name) => {
  if (name === "Object" || name.startsWith("Object.")) return { type: object(name, {}), field: () => DYN };
  if (name === "JSONPatch") {
    const fields: Record<string, CelT> = { op: STRING, path: STRING, from: STRING };
    return { type: JSON_PATCH, field: (field) => fields[field] ?? DYN };
  }
  return undefined;
};

/** library.JSONPatch, in the environment of a mutating policy's mutations. */
const JSON_PATCH_OVERLOADS = parseSignatures("jsonpatch.escapeKey(string) -> string");

const admissionTables = new Map<CelLibraries, { admission: FunctionTable; patch: FunctionTable }>();

/** The functions of an admission expression's environment (the authorizer's too), and of a mutation's. */
function admissionFunctions(libraries: CelLibraries): { admission: FunctionTable; patch: FunctionTable } {
  let tables = admissionTables.get(libraries);
  if (tables === undefined) {
    const admission = functionTable(...libraries.functions.byName.values(), AUTHZ_OVERLOADS);
    tables = { admission, patch: functionTable(...admission.byName.values(), JSON_PATCH_OVERLOADS) };
    admissionTables.set(libraries, tables);
  }
  return tables;
}

const JSON_PATCH: CelT = { k: "object", name: "JSONPatch", fields: new Map() };

const object = (name: string, fields: Record<string, CelT>): CelT => ({
  k: "object",
  name,
  fields: new Map(Object.entries(fields).map(([field, type]) => [field, { raw: field, type }])),
});

const groupVersionKind = object("kubernetes.GroupVersionKind", { group: STRING, version: STRING, kind: STRING });
const groupVersionResource = object("kubernetes.GroupVersionResource", {
  group: STRING,
  version: STRING,
  resource: STRING,
});

/** BuildRequestType: the AdmissionRequest without its uid, object and oldObject. */
const REQUEST = object("kubernetes.AdmissionRequest", {
  kind: groupVersionKind,
  resource: groupVersionResource,
  subResource: STRING,
  requestKind: groupVersionKind,
  requestResource: groupVersionResource,
  requestSubResource: STRING,
  name: STRING,
  namespace: STRING,
  operation: STRING,
  userInfo: object("kubernetes.UserInfo", {
    username: STRING,
    uid: STRING,
    groups: listOf(STRING),
    extra: mapOf(STRING, listOf(STRING)),
  }),
  dryRun: BOOL,
  options: DYN,
});

/** BuildNamespaceType: a Namespace without its managed fields and owner references. */
const NAMESPACE = object("kubernetes.Namespace", {
  metadata: object("kubernetes.NamespaceMetadata", {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    labels: mapOf(STRING, STRING),
    annotations: mapOf(STRING, STRING),
    UID: STRING,
    creationTimestamp: TIMESTAMP,
    deletionGracePeriodSeconds: INT,
    deletionTimestamp: TIMESTAMP,
    generation: INT,
    resourceVersion: STRING,
    finalizers: listOf(STRING),
  }),
  spec: object("kubernetes.NamespaceSpec", { finalizers: listOf(STRING) }),
  status: object("kubernetes.NamespaceStatus", {
    conditions: listOf(
      object("kubernetes.NamespaceCondition", {
        status: STRING,
        type: STRING,
        lastTransitionTime: TIMESTAMP,
        message: STRING,
        reason: STRING,
      }),
    ),
    phase: STRING,
  }),
});

function scopeOf(vars: AdmissionVariables): Map<string, CelT> {
  const scope = new Map<string, CelT>([
    ["object", DYN],
    ["oldObject", DYN],
    ["namespaceObject", NAMESPACE],
    ["request", REQUEST],
  ]);
  if (vars.params) scope.set("params", DYN);
  if (vars.authorizer) {
    scope.set("authorizer", opaque("kubernetes.authorization.Authorizer"));
    scope.set("authorizer.requestResource", opaque("kubernetes.authorization.ResourceCheck"));
  }
  if (vars.variables !== undefined) scope.set("variables", object("kubernetes.variables", vars.variables.types));
  return scope;
}

/**
 * A policy's variables as the composition compiler declares them (CompositedCompiler CompileAndStoreVariable):
 * each compiled with those before it, and kept under its name with its result's type, dyn when it does not
 * compile, so that `variables.x` is typed and an unknown one is an undefined field.
 */
export class ComposedVariables {
  readonly types: Record<string, CelT> = {};

  /** Compiles and stores a variable; the server's detail when it does not compile. */
  add(name: string, text: string, vars: Omit<AdmissionVariables, "variables">): string | undefined {
    const compiled = compile(text, { ...vars, variables: this }, "any");
    this.types[name] = compiled.type ?? DYN;
    return compiled.error;
  }
}

/** What the API server says of `text` when it compiles it (the error's detail), undefined when it compiles. */
export function admissionExpressionError(
  text: string,
  vars: AdmissionVariables,
  result: AdmissionResult,
): string | undefined {
  return compile(text, vars, result).error;
}

function compile(text: string, vars: AdmissionVariables, result: AdmissionResult): { error?: string; type?: CelT } {
  const libraries = celLibraries(vars.libraries);
  const read = parseOrExplain(text, libraries.macros);
  if ("error" in read) return { error: read.error };
  const functions = admissionFunctions(libraries);
  const checker = vars.patchTypes
    ? new Checker(functions.patch, read.parsed.positions, patchTypes)
    : new Checker(functions.admission, read.parsed.positions);
  let type: CelT;
  try {
    type = checker.check(read.parsed.expr, scopeOf(vars));
  } catch (e) {
    return { error: `compilation failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (checker.issues.length > 0) return { error: `compilation failed: ${formatIssues(text, checker.issues)}` };
  // ast.OutputType().IsExactType(returnType): a dyn result is no bool
  const want = result === "any" ? undefined : RETURN_TYPES[result];
  if (want !== undefined && !want.names.includes(typeName(type)))
    return { error: `must evaluate to ${want.shown} but got ${typeName(type)}` };
  return { type };
}
