/**
 * ValidatingAdmissionPolicies and their bindings on create, word for word.
 * Sources, in kubernetes/kubernetes: pkg/apis/admissionregistration/validation/validation.go
 * (ValidateValidatingAdmissionPolicy, validateValidatingAdmissionPolicySpec,
 * validateParamKind, validateMatchResources, validateNamedRuleWithOperations,
 * validateMatchConditions, validateVariable, validateValidation,
 * validateAuditAnnotation, ValidateValidatingAdmissionPolicyBinding,
 * validateValidatingAdmissionPolicyBindingSpec, validateParamRef,
 * validateValidationActions) and pkg/apis/admissionregistration/v1/defaults.go
 * (SetDefaults_ValidatingAdmissionPolicySpec, SetDefaults_MatchResources).
 * Expressions compiled as validateCELCondition and apiserver's admission
 * plugin/cel compile.go CompileCELExpression compile them.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding } from "./admission-policy.js";
import {
  dns1035LabelError as dns1035Regex,
  labelValueError as labelValueRegex,
  qualifiedNamePartError as qualifiedNameRegex,
  dns1123SubdomainError as subdomainRegex,
} from "./test-helpers.js";

const said = (findings: Finding[]) =>
  findings.map((f) => `${f.severity === "error" ? "" : `${f.severity} `}${f.message}`).sort();

const unsupported = (path: string, bad: string, supported: string[]) =>
  `${path}: Unsupported value: ${JSON.stringify(bad)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}`;

// The Kubernetes docs' policy (validating-admission-policy.md): at most 5 replicas for a Deployment.
const deploymentsRule = (extra: JsonObject = {}): JsonObject => ({
  apiGroups: ["apps"],
  apiVersions: ["v1"],
  operations: ["CREATE", "UPDATE"],
  resources: ["deployments"],
  ...extra,
});

const policyObject = (
  spec: JsonObject | null | undefined,
  metadata: JsonObject = { name: "demo-policy.example.com" },
) => {
  const out: JsonObject = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata,
  };
  if (spec !== undefined) out.spec = spec;
  return out;
};

/** The docs' policy with `fields` in its spec. */
const policy = (fields: JsonObject = {}): JsonObject =>
  policyObject({
    failurePolicy: "Fail",
    matchConstraints: { resourceRules: [deploymentsRule()] },
    validations: [{ expression: "object.spec.replicas <= 5" }],
    ...fields,
  });

const constraints = (match: JsonObject) => policy({ matchConstraints: match });
const paramKind = (kind: JsonObject) => policy({ paramKind: kind });
const validation = (fields: JsonObject) => policy({ validations: [{ expression: "true", ...fields }] });
const variable = (name: string, expression = "object.spec.replicas") => policy({ variables: [{ name, expression }] });
const annotations = (...items: JsonObject[]) => policy({ validations: [], auditAnnotations: items });
const annotation = (key: string, valueExpression = "string(object.spec.replicas)") => ({ key, valueExpression });

type Case = [string, JsonObject, string[]];

const policyCases: Case[] = [
  ["the docs' demo-policy.example.com", policy(), []],
  [
    "params, variables, conditions, messages, reasons and audit annotations, all well formed",
    policy({
      failurePolicy: "Ignore",
      paramKind: { apiVersion: "rules.example.com/v1", kind: "ReplicaLimit" },
      matchConstraints: {
        matchPolicy: "Exact",
        namespaceSelector: { matchExpressions: [{ key: "environment", operator: "In", values: ["test"] }] },
        objectSelector: { matchLabels: { app: "web" } },
        resourceRules: [
          deploymentsRule({ scope: "Namespaced" }),
          deploymentsRule({ resources: ["deployments/scale"] }),
        ],
        excludeResourceRules: [deploymentsRule({ resourceNames: ["kube-dns", "coredns"] })],
      },
      matchConditions: [{ name: "exclude-leases", expression: "request.resource.resource != 'leases'" }],
      variables: [{ name: "replicas_2", expression: "object.spec.replicas" }],
      validations: [
        {
          expression: "variables.replicas_2 <= params.maxReplicas",
          message: "too many replicas",
          messageExpression: "'at most ' + string(params.maxReplicas)",
          reason: "Forbidden",
        },
      ],
      auditAnnotations: [annotation("high-replica-count")],
    }),
    [],
  ],
  ["audit annotations without validations", annotations(annotation("replicas"), annotation("replicas.mode_1")), []],
  [
    "no spec: no match constraints, no validations, no audit annotations (failurePolicy defaults to Fail)",
    policyObject(undefined),
    [
      "spec.matchConstraints: Required value",
      "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
      "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
    ],
  ],
  [
    "a null spec reads as the empty spec",
    policyObject(null),
    [
      "spec.matchConstraints: Required value",
      "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
      "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
    ],
  ],
  ["a null failurePolicy is defaulted", policy({ failurePolicy: null }), []],
  [
    "an empty failurePolicy (set, so not defaulted)",
    policy({ failurePolicy: "" }),
    [unsupported("spec.failurePolicy", "", ["Fail", "Ignore"])],
  ],
  [
    "a failurePolicy",
    policy({ failurePolicy: "Retry" }),
    [unsupported("spec.failurePolicy", "Retry", ["Fail", "Ignore"])],
  ],
  [
    "an empty paramKind",
    paramKind({}),
    ["spec.paramKind.apiVersion: Required value", "spec.paramKind.kind: Required value"],
  ],
  [
    "a paramKind apiVersion of three parts",
    paramKind({ apiVersion: "rules.example.com/v1/x", kind: "ReplicaLimit" }),
    [
      'spec.paramKind.apiVersion: Invalid value: "rules.example.com/v1/x": unexpected GroupVersion string: rules.example.com/v1/x',
    ],
  ],
  [
    "a paramKind group that is no DNS subdomain",
    paramKind({ apiVersion: "Rules.example.com/v1", kind: "ReplicaLimit" }),
    [`spec.paramKind.apiVersion: Invalid value: "Rules.example.com": ${subdomainRegex}`],
  ],
  [
    "a paramKind without version",
    paramKind({ apiVersion: "rules.example.com/", kind: "ReplicaLimit" }),
    ['spec.paramKind.apiVersion: Invalid value: "rules.example.com/": version must be specified'],
  ],
  [
    "a paramKind apiVersion of a slash alone",
    paramKind({ apiVersion: "/", kind: "ReplicaLimit" }),
    ['spec.paramKind.apiVersion: Invalid value: "/": version must be specified'],
  ],
  [
    "a paramKind version that is no DNS-1035 label",
    paramKind({ apiVersion: "rules.example.com/V1", kind: "ReplicaLimit" }),
    [`spec.paramKind.apiVersion: Invalid value: "V1": ${dns1035Regex}`],
  ],
  [
    "a paramKind kind that is no DNS-1035 label, even lowered",
    paramKind({ apiVersion: "v1", kind: "Replica_Limit" }),
    [
      `spec.paramKind.kind: Invalid value: "Replica_Limit": may have mixed case, but should otherwise match: ${dns1035Regex}`,
    ],
  ],
  ["no matchConstraints", policy({ matchConstraints: null }), ["spec.matchConstraints: Required value"]],
  [
    "matchConstraints without resource rules (selectors and matchPolicy defaulted)",
    constraints({}),
    ["spec.matchConstraints.resourceRules: Required value"],
  ],
  [
    "an empty matchPolicy and bad selectors",
    constraints({
      matchPolicy: "",
      namespaceSelector: { matchExpressions: [{ key: "environment", operator: "Equals", values: ["test"] }] },
      objectSelector: { matchLabels: { app: "bad value" } },
      resourceRules: [deploymentsRule()],
    }),
    [
      unsupported("spec.matchConstraints.matchPolicy", "", ["Equivalent", "Exact"]),
      'spec.matchConstraints.namespaceSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
      `spec.matchConstraints.objectSelector.matchLabels: Invalid value: "bad value": ${labelValueRegex}`,
    ],
  ],
  [
    "a resource rule checked as a webhook's",
    constraints({
      resourceRules: [deploymentsRule({ operations: [], apiVersions: ["*", "v1"], resources: ["*/*", "pods"] })],
    }),
    [
      "spec.matchConstraints.resourceRules[0].operations: Required value",
      'spec.matchConstraints.resourceRules[0].apiVersions: Invalid value: ["*","v1"]: if \'*\' is present, must not specify other API versions',
      'spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not specify other resources',
    ],
  ],
  [
    "an operation and a scope",
    constraints({ resourceRules: [deploymentsRule({ operations: ["PATCH"], scope: "Global" })] }),
    [
      unsupported("spec.matchConstraints.resourceRules[0].operations[0]", "PATCH", [
        "*",
        "CONNECT",
        "CREATE",
        "DELETE",
        "UPDATE",
      ]),
      unsupported("spec.matchConstraints.resourceRules[0].scope", "Global", ["*", "Cluster", "Namespaced"]),
    ],
  ],
  [
    "resource names that are no path segments, and repeated",
    constraints({
      resourceRules: [deploymentsRule()],
      excludeResourceRules: [deploymentsRule({ resourceNames: ["kube/dns%", "..", "coredns", "coredns"] })],
    }),
    [
      "spec.matchConstraints.excludeResourceRules[0].resourceNames[0]: Invalid value: \"kube/dns%\": may not contain '/'",
      "spec.matchConstraints.excludeResourceRules[0].resourceNames[0]: Invalid value: \"kube/dns%\": may not contain '%'",
      "spec.matchConstraints.excludeResourceRules[0].resourceNames[1]: Invalid value: \"..\": may not be '..'",
      'spec.matchConstraints.excludeResourceRules[0].resourceNames[3]: Duplicate value: "coredns"',
    ],
  ],
  [
    "match conditions: names empty, not qualified and repeated, an expression of white space",
    policy({
      matchConditions: [
        { name: "", expression: "true" },
        { name: "exclude leases", expression: "true" },
        { name: "exclude-leases", expression: "true" },
        { name: "exclude-leases", expression: " \n\t" },
      ],
    }),
    [
      "spec.matchConditions[0].name: Required value",
      `spec.matchConditions[1].name: Invalid value: "exclude leases": ${qualifiedNameRegex}`,
      'spec.matchConditions[3].name: Duplicate value: "exclude-leases"',
      "spec.matchConditions[3].expression: Required value",
    ],
  ],
  [
    "65 match conditions",
    policy({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: "true" })) }),
    ["spec.matchConditions: Too many: 65: must have at most 64 items"],
  ],
  [
    "a variable name and expression of white space",
    variable(" ", "\t"),
    [
      "spec.variables[0].name: Required value: name is not specified",
      "spec.variables[0].expression: Required value: expression is not specified",
    ],
  ],
  [
    "a variable name that is no CEL identifier",
    variable("max-replicas"),
    ['spec.variables[0].name: Invalid value: "max-replicas": must be a valid CEL identifier'],
  ],
  [
    "a variable named by a CEL reserved word",
    variable("namespace"),
    ['spec.variables[0].name: Invalid value: "namespace": must be a valid CEL identifier'],
  ],
  [
    "a validation expression of white space",
    validation({ expression: "  " }),
    ["spec.validations[0].expression: Required value: expression is not specified"],
  ],
  [
    "a messageExpression and a message of white space",
    validation({ messageExpression: " ", message: "\t" }),
    [
      'spec.validations[0].messageExpression: Invalid value: " ": must be non-empty if specified',
      'spec.validations[0].message: Invalid value: "\\t": must be non-empty if specified',
    ],
  ],
  [
    "a message with a line break (surrounding ones are trimmed first)",
    policy({
      validations: [
        { expression: "true", message: "too many\nreplicas" },
        { expression: "true", message: "\ntoo many replicas\r\n" },
      ],
    }),
    ['spec.validations[0].message: Invalid value: "too many\\nreplicas": must not contain line breaks'],
  ],
  [
    "a reason",
    validation({ reason: "Conflict" }),
    [unsupported("spec.validations[0].reason", "Conflict", ["Forbidden", "Invalid", "RequestEntityTooLarge"])],
  ],
  [
    "an audit annotation key that is no qualified name once the policy's name is put before it",
    annotations(annotation("high replicas")),
    [`spec.auditAnnotations[0].key: Invalid value: "demo-policy.example.com/high replicas": ${qualifiedNameRegex}`],
  ],
  [
    "an audit annotation key twice",
    annotations(annotation("replicas"), annotation("replicas")),
    ['spec.auditAnnotations[1].key: Duplicate value: "replicas"'],
  ],
  [
    "an audit annotation value of white space, and one over 5 KiB",
    annotations(annotation("a", " \n"), annotation("b", `'${"x".repeat(5119)}'`)),
    [
      "spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified",
      "spec.auditAnnotations[1].valueExpression: Required value: must not exceed 5120 bytes in length",
    ],
  ],
  [
    "an audit annotation of a policy without name",
    policyObject({ matchConstraints: { resourceRules: [deploymentsRule()] }, auditAnnotations: [annotation("a")] }, {}),
    ['spec.auditAnnotations[0].key: Invalid value: "a": requires metadata.name be non-empty'],
  ],
  [
    "an audit annotation of a policy whose name is generated (the random suffix is not known)",
    policyObject(
      { matchConstraints: { resourceRules: [deploymentsRule()] }, auditAnnotations: [annotation("a b")] },
      { generateName: "demo-" },
    ),
    [],
  ],
  [
    "required fields left out: the server's words where it has some, else the schema's bare Required",
    policy({
      variables: [{}],
      validations: [{}],
      auditAnnotations: [{}, {}],
      matchConditions: [{}],
    }),
    [
      "spec.variables[0].name: Required value: name is not specified",
      "spec.variables[0].expression: Required value: expression is not specified",
      "spec.validations[0].expression: Required value: expression is not specified",
      ...[0, 1].flatMap((i) => [
        `spec.auditAnnotations[${i}].key: Invalid value: "demo-policy.example.com/": name part must be non-empty`,
        `spec.auditAnnotations[${i}].key: Invalid value: "demo-policy.example.com/": ${qualifiedNameRegex}`,
        `spec.auditAnnotations[${i}].valueExpression: Required value: valueExpression is not specified`,
      ]),
      'spec.auditAnnotations[1].key: Duplicate value: ""',
    ],
  ],
];

const twentyOne = Array.from({ length: 21 }, (_, i) => annotation(`a${i}`));

describe("ValidatingAdmissionPolicy", () => {
  it.each(policyCases)("%s", (_, object, expected) => {
    expect(said(validateValidatingAdmissionPolicy(object, 36))).toEqual([...expected].sort());
  });

  // apiserver's admission plugin compiles a new policy's expressions in DefaultCompatibilityVersion's base
  // environment, one minor below the server's; base.go adds the semver library at 1.33
  it("compiles its expressions with the libraries the release's API server gives a new expression", () => {
    const versioned = validation({ expression: "isSemver(object.metadata.labels.version)" });
    const [refused, ...rest] = said(validateValidatingAdmissionPolicy(versioned, 33));
    expect(rest).toEqual([]);
    expect(refused).toContain(
      "spec.validations[0].expression: Invalid value: \"isSemver(object.metadata.labels.version)\": compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')",
    );
    expect(said(validateValidatingAdmissionPolicy(versioned, 34))).toEqual([]);
    // a variable, composed, too
    const composed = policy({ variables: [{ name: "v", expression: "semver('1.0.0')" }] });
    expect(said(validateValidatingAdmissionPolicy(composed, 33))[0]).toContain("undeclared reference to 'semver'");
    expect(said(validateValidatingAdmissionPolicy(composed, 34))).toEqual([]);
  });

  it("refuses more than 20 audit annotations, printed as JSON", () => {
    expect(said(validateValidatingAdmissionPolicy(annotations(...twentyOne), 36))).toEqual([
      `spec.auditAnnotations: Invalid value: ${JSON.stringify(twentyOne)}: must not have more than 20 auditAnnotations`,
    ]);
  });
});

/** The details Kubernetes reworded: the old words up to 1.31, the new from 1.35, none between. */
const reworded = policy({
  variables: [{ name: "max-replicas", expression: "5" }],
  validations: [
    { expression: "true", message: " " },
    { expression: "true", message: "a\nb" },
  ],
});

const releaseCases: [string, number, string[]][] = [
  [
    "1.30",
    30,
    [
      'spec.variables[0].name: Invalid value: "max-replicas": name is not a valid CEL identifier',
      'spec.validations[0].message: Invalid value: " ": message must be non-empty if specified',
      'spec.validations[1].message: Invalid value: "a\\nb": message must not contain line breaks',
    ],
  ],
  ["1.33 (the rewording's release is not known)", 33, []],
  [
    "1.35",
    35,
    [
      'spec.variables[0].name: Invalid value: "max-replicas": must be a valid CEL identifier',
      'spec.validations[0].message: Invalid value: " ": must be non-empty if specified',
      'spec.validations[1].message: Invalid value: "a\\nb": must not contain line breaks',
    ],
  ],
];

describe("ValidatingAdmissionPolicy across releases", () => {
  it.each(releaseCases)("%s", (_, minor, expected) => {
    expect(said(validateValidatingAdmissionPolicy(reworded, minor))).toEqual([...expected].sort());
  });
});

// The docs' binding: the demo policy, denying, in namespaces labelled environment=test.
const bindingObject = (spec: JsonObject | undefined): JsonObject => {
  const out: JsonObject = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name: "demo-binding-test.example.com" },
  };
  if (spec !== undefined) out.spec = spec;
  return out;
};

const binding = (fields: JsonObject = {}): JsonObject =>
  bindingObject({
    policyName: "demo-policy.example.com",
    validationActions: ["Deny"],
    matchResources: { namespaceSelector: { matchLabels: { environment: "test" } } },
    ...fields,
  });

const paramRef = (ref: JsonObject) => binding({ paramRef: ref });
const actions = (...list: string[]) => binding({ validationActions: list });

const bindingCases: Case[] = [
  ["the docs' demo-binding-test.example.com", binding(), []],
  [
    "a parameter by name, warn and audit, resource rules",
    binding({
      paramRef: { name: "replica-limit-test.example.com", namespace: "default", parameterNotFoundAction: "Deny" },
      validationActions: ["Warn", "Audit"],
      matchResources: {
        matchPolicy: "Equivalent",
        resourceRules: [deploymentsRule({ resourceNames: ["web"] })],
      },
    }),
    [],
  ],
  [
    "parameters by selector, allowed when missing",
    paramRef({ selector: { matchLabels: { environment: "test" } }, parameterNotFoundAction: "Allow" }),
    [],
  ],
  [
    "no spec: no policy name, no validation action",
    bindingObject(undefined),
    [
      "spec.policyName: Required value",
      "spec.validationActions: Required value: at least one validation action is required",
    ],
  ],
  [
    "a policy name that is no DNS subdomain",
    binding({ policyName: "Demo_Policy" }),
    [`spec.policyName: Invalid value: "Demo_Policy": ${subdomainRegex}`],
  ],
  [
    "an empty paramRef",
    paramRef({}),
    [
      "spec.paramRef: Required value: one of name or selector must be specified",
      "spec.paramRef.parameterNotFoundAction: Required value",
    ],
  ],
  [
    "a paramRef with both name and selector",
    paramRef({ name: "limits", selector: {}, parameterNotFoundAction: "Deny" }),
    [
      "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
      "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
    ],
  ],
  [
    "a paramRef name that is no path segment",
    paramRef({ name: "limits/test", parameterNotFoundAction: "Deny" }),
    ["spec.paramRef.name: Invalid value: \"limits/test\": may not contain '/'"],
  ],
  [
    "a paramRef selector with values for Exists",
    paramRef({
      selector: { matchExpressions: [{ key: "environment", operator: "Exists", values: ["test"] }] },
      parameterNotFoundAction: "Deny",
    }),
    [
      "spec.paramRef.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
  ],
  [
    "an empty parameterNotFoundAction",
    paramRef({ name: "limits", parameterNotFoundAction: "" }),
    ["spec.paramRef.parameterNotFoundAction: Required value"],
  ],
  [
    "a parameterNotFoundAction (listed in Go's order, not sorted)",
    paramRef({ name: "limits", parameterNotFoundAction: "Ignore" }),
    [unsupported("spec.paramRef.parameterNotFoundAction", "Ignore", ["Deny", "Allow"])],
  ],
  [
    "a match's matchPolicy and resource rule",
    binding({ matchResources: { matchPolicy: "Fuzzy", resourceRules: [deploymentsRule({ apiGroups: [] })] } }),
    [
      unsupported("spec.matchResources.matchPolicy", "Fuzzy", ["Equivalent", "Exact"]),
      "spec.matchResources.resourceRules[0].apiGroups: Required value",
    ],
  ],
  [
    "no validation action",
    actions(),
    ["spec.validationActions: Required value: at least one validation action is required"],
  ],
  [
    "a validation action, and one twice",
    actions("Block", "Audit", "Audit"),
    [
      unsupported("spec.validationActions[0]", "Block", ["Audit", "Deny", "Warn"]),
      'spec.validationActions[2]: Duplicate value: "Audit"',
    ],
  ],
  [
    "both Deny and Warn",
    actions("Deny", "Warn"),
    [
      'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ],
  ],
];

describe("ValidatingAdmissionPolicyBinding", () => {
  it.each(bindingCases)("%s", (_, object, expected) => {
    expect(said(validateValidatingAdmissionPolicyBinding(object))).toEqual([...expected].sort());
  });

  it("names the match resources as the server does", () => {
    const object = binding({ matchResources: { matchPolicy: "Fuzzy" } });
    expect(said(validateValidatingAdmissionPolicyBinding(object))).toEqual([
      unsupported("spec.matchResources.matchPolicy", "Fuzzy", ["Equivalent", "Exact"]),
    ]);
  });
});

// validateVariable, validateValidation, validateMessageExpression, validateAuditAnnotation and
// validateMatchConditionsExpression: each field's environment (OptionalVariableDeclarations) and result type.
describe("a policy's expressions, compiled in their fields' environments", () => {
  const undeclared = (field: string, text: string, name: string, column: number) =>
    `${field}: Invalid value: ${JSON.stringify(text)}: compilation failed: ERROR: <input>:1:${column}: undeclared reference to '${name}' (in container '')\n | ${text}\n | ${".".repeat(column - 1)}^`;
  const params = { paramKind: { apiVersion: "rules.example.com/v1", kind: "ReplicaLimit" } };
  it.each<Case>([
    [
      "a misspelt variable name in a validation",
      policy({ validations: [{ expression: "objct.spec.replicas <= 5" }] }),
      [undeclared("spec.validations[0].expression", "objct.spec.replicas <= 5", "objct", 1)],
    ],
    [
      "a validation that is no bool",
      policy({ validations: [{ expression: "object.spec.paused" }] }),
      ['spec.validations[0].expression: Invalid value: "object.spec.paused": must evaluate to bool but got dyn'],
    ],
    [
      "params without a paramKind, in a validation and a match condition (trimmed)",
      policy({
        validations: [{ expression: "object.spec.replicas <= params.max" }],
        matchConditions: [{ name: "limited", expression: "  params.enabled  " }],
      }),
      [
        undeclared("spec.validations[0].expression", "object.spec.replicas <= params.max", "params", 25),
        undeclared("spec.matchConditions[0].expression", "params.enabled", "params", 1),
      ],
    ],
    [
      "params with a paramKind",
      policy({
        ...params,
        validations: [{ expression: "object.spec.replicas <= params.max" }],
        matchConditions: [{ name: "limited", expression: "params.enabled == true" }],
      }),
      [],
    ],
    [
      "variables in validations and messages, and in later variables, but not in match conditions",
      policy({
        variables: [
          { name: "replicas", expression: "object.spec.replicas" },
          { name: "tooMany", expression: "variables.replicas > 5" },
        ],
        validations: [
          { expression: "!variables.tooMany", messageExpression: "'replicas: ' + string(variables.replicas)" },
        ],
        matchConditions: [{ name: "some", expression: "variables.replicas > 0" }],
      }),
      [undeclared("spec.matchConditions[0].expression", "variables.replicas > 0", "variables", 1)],
    ],
    [
      "a bool variable as a validation, and a misspelt one",
      policy({
        variables: [{ name: "isProd", expression: "object.metadata.labels.env == 'prod'" }],
        validations: [{ expression: "variables.isProd" }, { expression: "variables.isprod" }],
      }),
      [
        "spec.validations[1].expression: Invalid value: \"variables.isprod\": compilation failed: ERROR: <input>:1:10: undefined field 'isprod'\n | variables.isprod\n | .........^",
      ],
    ],
    [
      "variables without any declared",
      policy({ validations: [{ expression: "variables.ok" }] }),
      [undeclared("spec.validations[0].expression", "variables.ok", "variables", 1)],
    ],
    [
      "the authorizer in a validation, not in a message expression",
      policy({
        validations: [
          {
            expression: "authorizer.group('apps').resource('deployments').check('scale').allowed()",
            messageExpression: "authorizer.requestResource.check('get').reason()",
          },
        ],
      }),
      [
        undeclared(
          "spec.validations[0].messageExpression",
          "authorizer.requestResource.check('get').reason()",
          "authorizer",
          1,
        ),
      ],
    ],
    [
      "a message expression that is no string",
      policy({ validations: [{ expression: "true", messageExpression: "object.spec.replicas" }] }),
      [
        'spec.validations[0].messageExpression: Invalid value: "object.spec.replicas": must evaluate to string but got dyn',
      ],
    ],
    [
      "an audit annotation's value compiled trimmed, shown as written",
      annotations(annotation("replicas", " objct.spec.replicas ")),
      [
        `spec.auditAnnotations[0].valueExpression: Invalid value: " objct.spec.replicas ": compilation failed: ERROR: <input>:1:1: undeclared reference to 'objct' (in container '')\n | objct.spec.replicas\n | ^`,
      ],
    ],
  ])("%s", (_, object, expected) => {
    expect(said(validateValidatingAdmissionPolicy(object, 36))).toEqual([...expected].sort());
  });
});
