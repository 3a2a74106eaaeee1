/**
 * MutatingAdmissionPolicies and their bindings on create, word for word.
 * Sources, in kubernetes/kubernetes: pkg/apis/admissionregistration/validation/validation.go
 * (ValidateMutatingAdmissionPolicy, validateMutatingAdmissionPolicySpec,
 * validateMutation, validateApplyConfiguration, validateJSONPatch,
 * supportedMutatingOperations, ValidateMutatingAdmissionPolicyBinding,
 * validateMutatingAdmissionPolicyBindingSpec; and, shared with the validating
 * policy, validateParamKind, validateMatchResources, validateMatchConditions,
 * validateVariable, validateParamRef) and pkg/apis/admissionregistration/v1beta1/defaults.go
 * (SetDefaults_MutatingAdmissionPolicySpec, SetDefaults_MatchResources; v1alpha1's
 * SetDefaults_ParamRef). The valid policies are the Kubernetes docs' (mutating-admission-policy.md).
 */
import { describe, expect, it } from "vitest";
import "../all-releases.js";
import { buildCatalog, validateObject } from "../../check/index.js";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { validateMutatingAdmissionPolicy, validateMutatingAdmissionPolicyBinding } from "./mutating-policy.js";
import { dns1035LabelError as dns1035Regex, dns1123SubdomainError as subdomainRegex } from "./test-helpers.js";

const said = (findings: Finding[]) =>
  findings.map((f) => `${f.severity === "error" ? "" : `${f.severity} `}${f.message}`).sort();

const unsupported = (path: string, bad: string, supported: string[]) =>
  `${path}: Unsupported value: ${JSON.stringify(bad)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}`;

const mutatingOps = ["*", "CONNECT", "CREATE", "UPDATE"];
const webhookOps = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];

const podsRule = (extra: JsonObject = {}): JsonObject => ({
  apiGroups: [""],
  apiVersions: ["v1"],
  operations: ["CREATE"],
  resources: ["pods"],
  ...extra,
});

const policyObject = (spec: JsonObject | null | undefined, apiVersion = "admissionregistration.k8s.io/v1beta1") => {
  const out: JsonObject = {
    apiVersion,
    kind: "MutatingAdmissionPolicy",
    metadata: { name: "sidecar-policy.example.com" },
  };
  if (spec !== undefined) out.spec = spec;
  return out;
};

const sidecar = `Object{
  spec: Object.spec{
    initContainers: [
      Object.spec.initContainers{
        name: "mesh-proxy",
        image: "mesh/proxy:v1.0.0",
        args: ["proxy", "sidecar"],
        restartPolicy: "Always"
      }
    ]
  }
}`;

/** The docs' sidecar policy, with `fields` in its spec. */
const policy = (fields: JsonObject = {}): JsonObject =>
  policyObject({
    paramKind: { kind: "Sidecar", apiVersion: "mutations.example.com/v1" },
    matchConstraints: { resourceRules: [podsRule()] },
    matchConditions: [
      {
        name: "does-not-already-have-sidecar",
        expression: '!object.spec.initContainers.exists(ic, ic.name == "mesh-proxy")',
      },
    ],
    failurePolicy: "Fail",
    reinvocationPolicy: "IfNeeded",
    mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression: sidecar } }],
    ...fields,
  });

const constraints = (match: JsonObject) => policy({ matchConstraints: match });
const operations = (...ops: string[]) => constraints({ resourceRules: [podsRule({ operations: ops })] });
const mutation = (m: JsonObject) => policy({ mutations: [m] });

type Case = [string, JsonObject, string[]];

const policyCases: Case[] = [
  ["the docs' sidecar-policy.example.com", policy(), []],
  [
    "the docs' label-setting policy, and a JSON patch, variables, all operations allowed",
    policyObject({
      matchConstraints: {
        matchPolicy: "Exact",
        resourceRules: [
          podsRule({ operations: ["CREATE", "UPDATE", "CONNECT"] }),
          podsRule({ operations: ["*"], resources: ["pods/ephemeralcontainers"] }),
        ],
        excludeResourceRules: [podsRule({ operations: ["DELETE"], resourceNames: ["kube-dns"] })],
      },
      variables: [{ name: "environment", expression: "'test'" }],
      reinvocationPolicy: "Never",
      mutations: [
        {
          patchType: "ApplyConfiguration",
          applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"environment": "test"}}}' },
        },
        {
          patchType: "JSONPatch",
          jsonPatch: {
            expression: '[JSONPatch{op: "add", path: "/metadata/annotations/audited", value: variables.environment}]',
          },
        },
      ],
    }),
    [],
  ],
  ["the v1 kind (1.36)", policyObject(policy().spec as JsonObject, "admissionregistration.k8s.io/v1"), []],
  [
    "no spec: no match constraints, no mutations, no reinvocation policy (failurePolicy defaults to Fail)",
    policyObject(undefined),
    [
      "spec.matchConstraints: Required value",
      "spec.mutations: Required value: mutations must contain at least one item",
      "spec.reinvocationPolicy: Required value",
    ],
  ],
  [
    "a null spec reads as the empty spec",
    policyObject(null),
    [
      "spec.matchConstraints: Required value",
      "spec.mutations: Required value: mutations must contain at least one item",
      "spec.reinvocationPolicy: Required value",
    ],
  ],
  ["a spec that is no object is the schema's", policyObject(["spec"] as unknown as JsonObject), []],
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
    policy({ paramKind: {} }),
    ["spec.paramKind.apiVersion: Required value", "spec.paramKind.kind: Required value"],
  ],
  [
    "a paramKind version that is no DNS-1035 label",
    policy({ paramKind: { apiVersion: "mutations.example.com/V1", kind: "Sidecar" } }),
    [`spec.paramKind.apiVersion: Invalid value: "V1": ${dns1035Regex}`],
  ],
  ["no matchConstraints", policy({ matchConstraints: null }), ["spec.matchConstraints: Required value"]],
  [
    "matchConstraints without resource rules (selectors and matchPolicy defaulted)",
    constraints({}),
    ["spec.matchConstraints.resourceRules: Required value"],
  ],
  [
    "an empty matchPolicy",
    constraints({ matchPolicy: "", resourceRules: [podsRule()] }),
    [unsupported("spec.matchConstraints.matchPolicy", "", ["Equivalent", "Exact"])],
  ],
  [
    "DELETE cannot be mutated (reported at the rules, without an index)",
    operations("CREATE", "DELETE"),
    [unsupported("spec.matchConstraints.resourceRules.operations", "DELETE", mutatingOps)],
  ],
  [
    "an unknown operation: the webhook rule's finding and the mutating policy's",
    operations("PATCH"),
    [
      unsupported("spec.matchConstraints.resourceRules[0].operations[0]", "PATCH", webhookOps),
      unsupported("spec.matchConstraints.resourceRules.operations", "PATCH", mutatingOps),
    ],
  ],
  [
    "DELETE in two rules, reported twice at the same path",
    constraints({ resourceRules: [podsRule({ operations: ["DELETE"] }), podsRule({ operations: ["DELETE"] })] }),
    [
      unsupported("spec.matchConstraints.resourceRules.operations", "DELETE", mutatingOps),
      unsupported("spec.matchConstraints.resourceRules.operations", "DELETE", mutatingOps),
    ],
  ],
  [
    "DELETE in an exclusion is allowed",
    constraints({ resourceRules: [podsRule()], excludeResourceRules: [podsRule({ operations: ["DELETE"] })] }),
    [],
  ],
  [
    "a resource rule checked as a webhook's",
    constraints({ resourceRules: [podsRule({ apiGroups: [], apiVersions: [""], scope: "Global" })] }),
    [
      "spec.matchConstraints.resourceRules[0].apiGroups: Required value",
      "spec.matchConstraints.resourceRules[0].apiVersions[0]: Required value",
      unsupported("spec.matchConstraints.resourceRules[0].scope", "Global", ["*", "Cluster", "Namespaced"]),
    ],
  ],
  [
    "a match condition's name and duplicate",
    policy({
      matchConditions: [
        { name: "has-proxy", expression: "true" },
        { name: "has-proxy", expression: "true" },
      ],
    }),
    ['spec.matchConditions[1].name: Duplicate value: "has-proxy"'],
  ],
  [
    "no mutations",
    policy({ mutations: [] }),
    ["spec.mutations: Required value: mutations must contain at least one item"],
  ],
  ["a mutation without patchType is the schema's", mutation({ applyConfiguration: { expression: sidecar } }), []],
  ["an empty patchType", mutation({ patchType: "" }), ["spec.mutations[0].patchType: Required value"]],
  ["a null patchType", mutation({ patchType: null }), ["spec.mutations[0].patchType: Required value"]],
  [
    "a patchType",
    mutation({ patchType: "StrategicMergePatch", applyConfiguration: { expression: sidecar } }),
    [unsupported("spec.mutations[0].patchType", "StrategicMergePatch", ["ApplyConfiguration", "JSONPatch"])],
  ],
  [
    "JSONPatch without jsonPatch, with an applyConfiguration",
    mutation({ patchType: "JSONPatch", applyConfiguration: { expression: sidecar } }),
    [
      "spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch",
      'spec.mutations[0].applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch',
    ],
  ],
  [
    "ApplyConfiguration without applyConfiguration (null), with a jsonPatch",
    mutation({ patchType: "ApplyConfiguration", applyConfiguration: null, jsonPatch: { expression: "[]" } }),
    [
      "spec.mutations[0].applyConfiguration: Required value: must be specified when patchType is ApplyConfiguration",
      'spec.mutations[0].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration',
    ],
  ],
  [
    "an applyConfiguration without expression",
    mutation({ patchType: "ApplyConfiguration", applyConfiguration: {} }),
    ["spec.mutations[0].applyConfiguration.expression: Required value"],
  ],
  [
    "a jsonPatch expression of white space only",
    mutation({ patchType: "JSONPatch", jsonPatch: { expression: " \n\t" } }),
    ["spec.mutations[0].jsonPatch.expression: Required value"],
  ],
  [
    // validateJSONPatch and validateApplyConfiguration: the trimmed text, with HasPatchTypes
    "a JSON patch that is no list of JSONPatch, and a misspelt variable in an apply configuration",
    policy({
      mutations: [
        { patchType: "JSONPatch", jsonPatch: { expression: " JSONPatch{op: 'remove', path: '/spec/x'} " } },
        { patchType: "ApplyConfiguration", applyConfiguration: { expression: "Object{spec: objct.spec}" } },
      ],
    }),
    [
      "spec.mutations[0].jsonPatch.expression: Invalid value: \"JSONPatch{op: 'remove', path: '/spec/x'}\": must evaluate to list(JSONPatch) but got JSONPatch",
      "spec.mutations[1].applyConfiguration.expression: Invalid value: \"Object{spec: objct.spec}\": compilation failed: ERROR: <input>:1:14: undeclared reference to 'objct' (in container '')\n | Object{spec: objct.spec}\n | .............^",
    ],
  ],
  [
    "JSON patches with escaped keys and variables",
    policy({
      variables: [{ name: "team", expression: "object.metadata.labels['team']" }],
      mutations: [
        {
          patchType: "JSONPatch",
          jsonPatch: {
            expression:
              "[JSONPatch{op: 'add', path: '/metadata/annotations/' + jsonpatch.escapeKey('example.com/team'), value: variables.team}]",
          },
        },
      ],
    }),
    [],
  ],
  ["no reinvocationPolicy", policy({ reinvocationPolicy: null }), ["spec.reinvocationPolicy: Required value"]],
  ["an empty reinvocationPolicy", policy({ reinvocationPolicy: "" }), ["spec.reinvocationPolicy: Required value"]],
  [
    "a reinvocationPolicy",
    policy({ reinvocationPolicy: "Always" }),
    [unsupported("spec.reinvocationPolicy", "Always", ["IfNeeded", "Never"])],
  ],
];

describe("MutatingAdmissionPolicy", () => {
  it.each(policyCases)("%s", (_, object, expected) => {
    expect(said(validateMutatingAdmissionPolicy(object, 36))).toEqual([...expected].sort());
  });
});

describe("a mutation's patchType union, through the whole pass", () => {
  it("is said once, in validateMutation's words, not again in apimachinery's generic union words", () => {
    const { catalog } = buildCatalog([], []);
    const mutations: JsonObject[] = [
      { patchType: "JSONPatch" },
      { patchType: "ApplyConfiguration", applyConfiguration: { expression: sidecar }, jsonPatch: { expression: "[]" } },
    ];
    for (const [apiVersion, release] of [
      ["admissionregistration.k8s.io/v1beta1", "1.34"],
      ["admissionregistration.k8s.io/v1", "1.36"],
    ] as const) {
      const object = policy({ mutations });
      object.apiVersion = apiVersion;
      const findings = validateObject(catalog, apiVersion, "MutatingAdmissionPolicy", object, {
        kubernetesVersion: release,
      });
      expect(findings.map((f) => f.message)).toEqual([
        "spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch",
        'spec.mutations[1].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration',
      ]);
    }
  });
});

// validateMatchConditionsExpression and validateVariable, as for a validating policy: params with a paramKind,
// the authorizer, `variables` in later variables but not in match conditions.
describe("a mutating policy's match conditions and variables, compiled", () => {
  const undeclared = (field: string, text: string, name: string, column: number) =>
    `${field}: Invalid value: ${JSON.stringify(text)}: compilation failed: ERROR: <input>:1:${column}: undeclared reference to '${name}' (in container '')\n | ${text}\n | ${".".repeat(column - 1)}^`;
  it.each<Case>([
    [
      "params without a paramKind, in a match condition (trimmed) and a variable",
      policy({
        paramKind: null,
        matchConditions: [{ name: "enabled", expression: "  params.enabled  " }],
        variables: [{ name: "image", expression: "params.image" }],
      }),
      [
        undeclared("spec.matchConditions[0].expression", "params.enabled", "params", 1),
        undeclared("spec.variables[0].expression", "params.image", "params", 1),
      ],
    ],
    [
      "variables in later variables, not in match conditions",
      policy({
        variables: [
          { name: "proxy", expression: "'mesh-proxy'" },
          { name: "hasProxy", expression: "object.spec.initContainers.exists(c, c.name == variables.proxy)" },
        ],
        matchConditions: [{ name: "no-proxy", expression: "!variables.hasProxy" }],
      }),
      [undeclared("spec.matchConditions[0].expression", "!variables.hasProxy", "variables", 2)],
    ],
    [
      "the authorizer in a variable",
      policy({
        variables: [{ name: "ok", expression: "authorizer.group('').resource('pods').check('create').allowed()" }],
      }),
      [],
    ],
    [
      "a match condition that is no bool",
      policy({ matchConditions: [{ name: "names", expression: "object.metadata.name" }] }),
      ['spec.matchConditions[0].expression: Invalid value: "object.metadata.name": must evaluate to bool but got dyn'],
    ],
  ])("%s", (_, object, expected) => {
    expect(said(validateMutatingAdmissionPolicy(object, 36))).toEqual([...expected].sort());
  });

  // the expressions of a new policy get the libraries of the server's compatibility version, one minor below
  // its own (apiserver cel/environment); base.go adds cel-go's lists extension at 1.34
  it("compiles its mutations and match conditions with the libraries the release's API server gives them", () => {
    const sorted = mutation({
      patchType: "JSONPatch",
      jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/spec/x', value: [3, 1].sort()}]" },
    });
    expect(said(validateMutatingAdmissionPolicy(sorted, 34))[0]).toContain("undeclared reference to 'sort'");
    expect(said(validateMutatingAdmissionPolicy(sorted, 35))).toEqual([]);
    const distinct = policy({ matchConditions: [{ name: "d", expression: "[1].distinct().size() == 1" }] });
    expect(said(validateMutatingAdmissionPolicy(distinct, 34))[0]).toContain("undeclared reference to 'distinct'");
    expect(said(validateMutatingAdmissionPolicy(distinct, 35))).toEqual([]);
  });

  it("words a variable name that is no CEL identifier as the release does, and not in 1.32-1.34", () => {
    const object = policy({ variables: [{ name: "mesh-proxy", expression: "'x'" }] });
    expect(said(validateMutatingAdmissionPolicy(object, 36))).toEqual([
      'spec.variables[0].name: Invalid value: "mesh-proxy": must be a valid CEL identifier',
    ]);
    expect(said(validateMutatingAdmissionPolicy(object, 33))).toEqual([]);
  });
});

const bindingObject = (spec: JsonObject | undefined, apiVersion = "admissionregistration.k8s.io/v1beta1") => {
  const out: JsonObject = {
    apiVersion,
    kind: "MutatingAdmissionPolicyBinding",
    metadata: { name: "sidecar-binding-test.example.com" },
  };
  if (spec !== undefined) out.spec = spec;
  return out;
};

/** The docs' sidecar-binding-test.example.com, with `fields` in its spec. */
const binding = (fields: JsonObject = {}, apiVersion?: string): JsonObject =>
  bindingObject(
    {
      policyName: "sidecar-policy.example.com",
      paramRef: { name: "meshproxy-v1.example.com", namespace: "default", parameterNotFoundAction: "Deny" },
      ...fields,
    },
    apiVersion,
  );

const bindingCases: Case[] = [
  ["the docs' sidecar-binding-test.example.com", binding(), []],
  [
    "match resources and a selected parameter, allowed when missing",
    binding({
      paramRef: { selector: { matchLabels: { mesh: "v1" } }, parameterNotFoundAction: "Allow" },
      matchResources: { namespaceSelector: { matchLabels: { mesh: "enabled" } }, resourceRules: [podsRule()] },
    }),
    [],
  ],
  ["no spec: no policy name", bindingObject(undefined), ["spec.policyName: Required value"]],
  [
    "a policy name that is no DNS subdomain",
    binding({ policyName: "Sidecar_Policy" }),
    [`spec.policyName: Invalid value: "Sidecar_Policy": ${subdomainRegex}`],
  ],
  [
    "an empty paramRef (v1beta1 has no default action)",
    binding({ paramRef: {} }),
    [
      "spec.paramRef: Required value: one of name or selector must be specified",
      "spec.paramRef.parameterNotFoundAction: Required value",
    ],
  ],
  [
    "a v1alpha1 paramRef without action (defaulted to Deny)",
    binding({ paramRef: { name: "meshproxy-v1.example.com" } }, "admissionregistration.k8s.io/v1alpha1"),
    [],
  ],
  [
    "a v1alpha1 paramRef with an empty action (set, so not defaulted)",
    binding(
      { paramRef: { name: "meshproxy-v1.example.com", parameterNotFoundAction: "" } },
      "admissionregistration.k8s.io/v1alpha1",
    ),
    ["spec.paramRef.parameterNotFoundAction: Required value"],
  ],
  [
    "a paramRef with both name and selector",
    binding({ paramRef: { name: "meshproxy", selector: {}, parameterNotFoundAction: "Deny" } }),
    [
      "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
      "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
    ],
  ],
  [
    "a parameterNotFoundAction (listed in Go's order, not sorted)",
    binding({ paramRef: { name: "meshproxy", parameterNotFoundAction: "Ignore" } }),
    [unsupported("spec.paramRef.parameterNotFoundAction", "Ignore", ["Deny", "Allow"])],
  ],
  [
    "a match's matchPolicy, and DELETE",
    binding({ matchResources: { matchPolicy: "Fuzzy", resourceRules: [podsRule({ operations: ["DELETE"] })] } }),
    [
      unsupported("spec.matchResources.matchPolicy", "Fuzzy", ["Equivalent", "Exact"]),
      unsupported("spec.matchResources.resourceRules.operations", "DELETE", mutatingOps),
    ],
  ],
];

describe("MutatingAdmissionPolicyBinding", () => {
  it.each(bindingCases)("%s", (_, object, expected) => {
    expect(said(validateMutatingAdmissionPolicyBinding(object))).toEqual([...expected].sort());
  });
});
