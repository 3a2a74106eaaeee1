/**
 * Admission expressions compiled as apiserver pkg/admission/plugin/cel compile.go CompileCELExpression
 * compiles them: cel-go's issues after "compilation failed: ", and "must evaluate to <type> but got <type>" for a result
 * of another type than the field's (ReturnTypes; a dyn result is none).
 */
import { describe, expect, it } from "vitest";
import { type AdmissionVariables, admissionExpressionError, ComposedVariables } from "./admission.js";

const composed = new ComposedVariables();
composed.add("replicas", "object.spec.replicas", { params: false, authorizer: false });
const all: AdmissionVariables = { params: true, authorizer: true, variables: composed };
const bare: AdmissionVariables = { params: false, authorizer: false, variables: undefined };

describe("admission expressions", () => {
  it.each([
    "object.spec.replicas <= 5",
    "has(object.spec.template) && object.metadata.name.startsWith('web-')",
    "oldObject == null || object.spec.replicas >= oldObject.spec.replicas",
    "request.operation == 'CREATE' && request.userInfo.username != 'system:admin'",
    "'team' in namespaceObject.metadata.labels",
    "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
    "object.?spec.orValue({}).size() < 10",
  ])("%s compiles to a bool in the barest environment", (text) => {
    expect(admissionExpressionError(text, bare, "bool")).toBeUndefined();
  });

  it("a result of another type than the field's, dyn included", () => {
    expect(admissionExpressionError("object.spec.paused", bare, "bool")).toBe("must evaluate to bool but got dyn");
    expect(admissionExpressionError("object.spec.replicas", bare, "string")).toBe(
      "must evaluate to string but got dyn",
    );
    expect(admissionExpressionError("[1]", bare, "bool")).toBe("must evaluate to bool but got list(int)");
    // an audit annotation's value: a string or null (AuditAnnotationCondition ReturnTypes)
    expect(admissionExpressionError("string(object.spec.replicas)", bare, "string-or-null")).toBeUndefined();
    expect(admissionExpressionError("null", bare, "string-or-null")).toBeUndefined();
    expect(admissionExpressionError("true", bare, "string-or-null")).toBe(
      "must evaluate to one of [string null_type] but got bool",
    );
    expect(admissionExpressionError("'replicas: ' + string(object.spec.replicas)", bare, "string")).toBeUndefined();
    expect(admissionExpressionError("object.spec.replicas", bare, "any")).toBeUndefined();
  });

  it("names the environment lacks are undeclared references, in cel-go's words", () => {
    expect(admissionExpressionError("objec.spec.replicas < 5", bare, "bool")).toBe(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'objec' (in container '')\n | objec.spec.replicas < 5\n | ^",
    );
    expect(admissionExpressionError("object.spec.replicas <= params.maxReplicas", bare, "bool")).toBe(
      "compilation failed: ERROR: <input>:1:25: undeclared reference to 'params' (in container '')\n | object.spec.replicas <= params.maxReplicas\n | ........................^",
    );
    expect(admissionExpressionError("object.spec.replicas <= params.maxReplicas", all, "bool")).toBeUndefined();
    expect(admissionExpressionError("variables.replicas < 5", bare, "bool")).toContain(
      "undeclared reference to 'variables'",
    );
    expect(admissionExpressionError("variables.replicas < 5", all, "bool")).toBeUndefined();
    expect(admissionExpressionError("variables.replica < 5", all, "bool")).toContain("undefined field 'replica'");
  });

  // apiserver pkg/cel/library/authz.go
  it("the authorizer library, and authorizer.requestResource", () => {
    const allowed = "authorizer.group('apps').resource('deployments').namespace('ns').check('create').allowed()";
    expect(admissionExpressionError(allowed, all, "bool")).toBeUndefined();
    expect(
      admissionExpressionError(
        "authorizer.requestResource.subresource('scale').check('update').allowed()",
        all,
        "bool",
      ),
    ).toBeUndefined();
    expect(
      admissionExpressionError("authorizer.path('/healthz').check('get').reason()", all, "string"),
    ).toBeUndefined();
    expect(admissionExpressionError(allowed, bare, "bool")).toContain("undeclared reference to 'authorizer'");
    expect(admissionExpressionError("authorizer.group('apps').check('create').allowed()", all, "bool")).toBe(
      "compilation failed: ERROR: <input>:1:31: found no matching overload for 'check' applied to 'kubernetes.authorization.GroupCheck.(string)'\n | authorizer.group('apps').check('create').allowed()\n | ..............................^",
    );
  });

  it("a syntax error, as schema rules report it", () => {
    expect(admissionExpressionError("object.spec.replicas <=", bare, "bool")).toMatch(
      /^compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    );
  });
});

// compile.go BuildRequestType and BuildNamespaceType
describe("request and namespaceObject are typed", () => {
  it.each([
    "request.userInfo.groups.exists(g, g == 'system:masters')",
    "request.kind.kind == 'Deployment' && request.dryRun != true",
    "'team' in request.userInfo.extra && request.options != null",
    "namespaceObject.metadata.labels['env'] == 'prod' && namespaceObject.status.phase == 'Active'",
    "namespaceObject.metadata.creationTimestamp < timestamp('2030-01-01T00:00:00Z')",
    "has(request.namespace) && namespaceObject == null || true",
  ])("%s", (text) => {
    expect(admissionExpressionError(text, bare, "bool")).toBeUndefined();
  });

  it("a field they lack is refused in cel-go's words", () => {
    expect(admissionExpressionError("request.userinfo.username == 'admin'", bare, "bool")).toBe(
      "compilation failed: ERROR: <input>:1:8: undefined field 'userinfo'\n | request.userinfo.username == 'admin'\n | .......^",
    );
    expect(admissionExpressionError("namespaceObject.metadata.label['env'] == 'x'", bare, "bool")).toContain(
      "undefined field 'label'",
    );
  });
});

// CompositedCompiler CompileAndStoreVariable: each variable typed by its expression, seen by those after it
describe("composed variables", () => {
  it("a variable has its expression's type, so a bool variable is a validation", () => {
    const vars = new ComposedVariables();
    const env = { params: false, authorizer: true };
    expect(vars.add("isProd", "object.metadata.labels.env == 'prod'", env)).toBeUndefined();
    expect(vars.add("strict", "variables.isProd && !request.dryRun", env)).toBeUndefined();
    expect(vars.add("later", "variables.notYet", env)).toContain("undefined field 'notYet'");
    const seen = { ...env, variables: vars };
    expect(admissionExpressionError("variables.strict", seen, "bool")).toBeUndefined();
    // a variable that did not compile is dyn: what uses it is not refused for its type
    expect(admissionExpressionError("variables.later == 1", seen, "bool")).toBeUndefined();
    expect(admissionExpressionError("variables.isprod", seen, "bool")).toContain("undefined field 'isprod'");
  });
});

// policy/mutating/patch ApplyConfigurationCondition and JSONPatchCondition ReturnTypes; cel/mutation
// DynamicTypeResolver and JSONPatchType; library.JSONPatch
describe("a mutating policy's mutations (HasPatchTypes)", () => {
  const patch: AdmissionVariables = { params: false, authorizer: true, variables: undefined, patchTypes: true };
  it("Object literals of any fields are an apply configuration", () => {
    const apply = "Object{spec: Object.spec{containers: [Object.spec.containers{name: 'sidecar', image: 'x'}]}}";
    expect(admissionExpressionError(apply, patch, "apply-configuration")).toBeUndefined();
    expect(admissionExpressionError("object", patch, "apply-configuration")).toBe(
      "must evaluate to Object but got dyn",
    );
    // only the mutations' environment knows the patch types
    expect(admissionExpressionError(apply, { ...patch, patchTypes: false }, "any")).toContain(
      "undeclared reference to 'Object'",
    );
  });

  it("a list of JSONPatch literals is a JSON patch, their op, path and from strings", () => {
    const add =
      "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('example.com/team'), value: 'a'}]";
    expect(admissionExpressionError(add, patch, "json-patch")).toBeUndefined();
    expect(admissionExpressionError("JSONPatch{op: 'remove', path: '/x'}", patch, "json-patch")).toBe(
      "must evaluate to list(JSONPatch) but got JSONPatch",
    );
    // cel-go places a field at its colon (the grammar's `cols`)
    expect(admissionExpressionError("[JSONPatch{op: 1, path: '/x'}]", patch, "json-patch")).toBe(
      "compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n | [JSONPatch{op: 1, path: '/x'}]\n | .............^",
    );
  });
});
