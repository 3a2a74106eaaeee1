/**
 * Webhook configurations on create, word for word. Sources, in
 * kubernetes/kubernetes: pkg/apis/admissionregistration/validation/validation.go
 * (ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration,
 * validateValidatingWebhook, validateMutatingWebhook,
 * validateAdmissionReviewVersions, validateRuleWithOperations, validateRule,
 * validateResources, validateMatchConditions, validateMatchCondition),
 * pkg/apis/admissionregistration/v1/defaults.go (SetDefaults_ValidatingWebhook,
 * SetDefaults_MutatingWebhook, SetDefaults_Rule, SetDefaults_ServiceReference),
 * staging/src/k8s.io/apiserver/pkg/util/webhook/validation.go
 * (ValidateWebhookURL, ValidateWebhookService) and apimachinery's
 * util/validation IsFullyQualifiedName.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  validateMutatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
} from "./admissionregistration.js";
import {
  dns1035LabelError as dns1035Regex,
  labelValueError as labelValueRegex,
  qualifiedNamePartError as qualifiedNameRegex,
  dns1123SubdomainError as subdomainRegex,
} from "./test-helpers.js";

const said = (findings: Finding[]) =>
  findings.map((f) => `${f.severity === "error" ? "" : `${f.severity} `}${f.message}`).sort();

const form = "; desired format: https://host[/path]";

// cert-manager's webhook configurations (deploy/charts/cert-manager/templates/webhook-*-webhook.yaml), rendered.
const certManagerRule = (extra: JsonObject = {}): JsonObject => ({
  apiGroups: ["cert-manager.io", "acme.cert-manager.io"],
  apiVersions: ["v1"],
  operations: ["CREATE", "UPDATE"],
  resources: ["*/*"],
  ...extra,
});

const certManagerWebhook = (extra: JsonObject = {}): JsonObject => ({
  name: "webhook.cert-manager.io",
  namespaceSelector: {
    matchExpressions: [{ key: "cert-manager.io/disable-validation", operator: "NotIn", values: ["true"] }],
  },
  rules: [certManagerRule()],
  admissionReviewVersions: ["v1"],
  matchPolicy: "Equivalent",
  timeoutSeconds: 30,
  failurePolicy: "Fail",
  sideEffects: "None",
  clientConfig: { service: { name: "cert-manager-webhook", namespace: "cert-manager", path: "/validate" } },
  ...extra,
});

const validating = (...webhooks: JsonObject[]): JsonObject => ({
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingWebhookConfiguration",
  metadata: {
    name: "cert-manager-webhook",
    annotations: { "cert-manager.io/inject-ca-from-secret": "cert-manager/cert-manager-webhook-ca" },
  },
  webhooks,
});

const mutatingWebhook = (extra: JsonObject = {}): JsonObject => ({
  name: "webhook.cert-manager.io",
  rules: [
    {
      apiGroups: ["cert-manager.io"],
      apiVersions: ["v1"],
      operations: ["CREATE"],
      resources: ["certificaterequests"],
    },
  ],
  admissionReviewVersions: ["v1"],
  timeoutSeconds: 30,
  sideEffects: "None",
  clientConfig: { service: { name: "cert-manager-webhook", namespace: "cert-manager", path: "/mutate" } },
  ...extra,
});

const mutating = (...webhooks: JsonObject[]): JsonObject => ({
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "MutatingWebhookConfiguration",
  metadata: { name: "cert-manager-webhook" },
  webhooks,
});

/** One change to the cert-manager webhook: its fields, its first rule's, or its service's. */
const hook = (extra: JsonObject) => validating(certManagerWebhook(extra));
const rule = (extra: JsonObject) => hook({ rules: [certManagerRule(extra)] });
const service = (extra: JsonObject) =>
  hook({ clientConfig: { service: { name: "cert-manager-webhook", namespace: "cert-manager", ...extra } } });
const url = (u: string) => hook({ clientConfig: { url: u } });
const condition = (name: string, expression = "true"): JsonObject => ({ name, expression });

const unsupported = (path: string, bad: string, supported: string[]) =>
  `${path}: Unsupported value: ${JSON.stringify(bad)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}`;

type Case = [string, JsonObject, string[]];

const validatingCases: Case[] = [
  ["cert-manager's validating webhook", validating(certManagerWebhook()), []],
  [
    "defaults applied: no failurePolicy, matchPolicy, timeoutSeconds, selectors or scope",
    validating({
      name: "pod-policy.example.com",
      rules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["*"], resources: ["pods"] }],
      clientConfig: { url: "https://hooks.example.com:8443/validate" },
      admissionReviewVersions: ["v1beta1", "v2"],
      sideEffects: "NoneOnDryRun",
    }),
    [],
  ],
  ["a webhook name left empty", hook({ name: "" }), ["webhooks[0].name: Required value"]],
  [
    "a webhook name of two segments",
    hook({ name: "webhook.example" }),
    [
      'webhooks[0].name: Invalid value: "webhook.example": should be a domain with at least three segments separated by dots',
    ],
  ],
  [
    "a webhook name not lower case (IsFullyQualifiedName does not lower it)",
    hook({ name: "Webhook.Example.com" }),
    [`webhooks[0].name: Invalid value: "Webhook.Example.com": ${subdomainRegex}`],
  ],
  [
    "two webhooks of one name",
    validating(certManagerWebhook(), certManagerWebhook()),
    ['webhooks[1].name: Duplicate value: "webhook.cert-manager.io"'],
  ],
  [
    "a failurePolicy",
    hook({ failurePolicy: "Retry" }),
    [unsupported("webhooks[0].failurePolicy", "Retry", ["Fail", "Ignore"])],
  ],
  [
    "an empty matchPolicy (set, so not defaulted)",
    hook({ matchPolicy: "" }),
    [unsupported("webhooks[0].matchPolicy", "", ["Equivalent", "Exact"])],
  ],
  [
    "a null sideEffects (no default in v1)",
    hook({ sideEffects: null }),
    ["webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"],
  ],
  [
    "sideEffects that v1beta1 allowed",
    hook({ sideEffects: "Unknown" }),
    [unsupported("webhooks[0].sideEffects", "Unknown", ["None", "NoneOnDryRun"])],
  ],
  [
    "a timeout of 0",
    hook({ timeoutSeconds: 0 }),
    ["webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds"],
  ],
  [
    "a timeout over 30 seconds",
    hook({ timeoutSeconds: 31 }),
    ["webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds"],
  ],
  [
    "no admissionReviewVersions",
    hook({ admissionReviewVersions: [] }),
    ["webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"],
  ],
  [
    "no admissionReviewVersion the server knows",
    hook({ admissionReviewVersions: ["v2"] }),
    ['webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1'],
  ],
  [
    "an admissionReviewVersion twice",
    hook({ admissionReviewVersions: ["v1", "v1"] }),
    ['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version'],
  ],
  [
    "an admissionReviewVersion not a DNS-1035 label",
    hook({ admissionReviewVersions: ["v1", "V1_2"] }),
    [`webhooks[0].admissionReviewVersions[1]: Invalid value: "V1_2": ${dns1035Regex}`],
  ],
  [
    "a clientConfig with neither url nor service",
    hook({ clientConfig: { caBundle: "Y2EtYnVuZGxl" } }),
    ["webhooks[0].clientConfig: Required value: exactly one of url or service is required"],
  ],
  [
    "a clientConfig with both url and service",
    hook({ clientConfig: { url: "https://hooks.example.com", service: { name: "s", namespace: "n" } } }),
    ["webhooks[0].clientConfig: Required value: exactly one of url or service is required"],
  ],
  [
    "an http url",
    url("http://hooks.example.com/validate"),
    [`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`],
  ],
  [
    "a url without a host",
    url("https:///validate"),
    [`webhooks[0].clientConfig.url: Invalid value: "": host must be provided${form}`],
  ],
  [
    "a url with user information, a query and a fragment",
    url("https://admin:p%40ss@hooks.example.com/validate?debug=1#top"),
    [
      'webhooks[0].clientConfig.url: Invalid value: "admin:p%40ss": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "debug=1": query parameters are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "top": fragments are not permitted in the URL',
    ],
  ],
  [
    "a url that does not parse",
    url("https://hooks example.com"),
    [
      `webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://hooks example.com": invalid character " " in host name${form}`,
    ],
  ],
  [
    "a service without name and namespace",
    service({ name: "", namespace: "" }),
    [
      "webhooks[0].clientConfig.service.name: Required value: service name is required",
      "webhooks[0].clientConfig.service.namespace: Required value: service namespace is required",
    ],
  ],
  [
    "a service port of 0 (set, so not defaulted to 443)",
    service({ port: 0 }),
    [
      "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
    ],
  ],
  [
    "a service path without a leading slash (its first character is dropped all the same)",
    service({ path: "validate" }),
    ["webhooks[0].clientConfig.service.path: Invalid value: \"validate\": must start with a '/'"],
  ],
  [
    "a service path with an empty segment",
    service({ path: "/a//b/" }),
    ['webhooks[0].clientConfig.service.path: Invalid value: "/a//b/": segment[1] may not be empty'],
  ],
  [
    "a service path of two slashes",
    service({ path: "//" }),
    ['webhooks[0].clientConfig.service.path: Invalid value: "//": segment[0] may not be empty'],
  ],
  [
    "a service path segment not a DNS subdomain",
    service({ path: "/validate/Cert_Requests" }),
    [`webhooks[0].clientConfig.service.path: Invalid value: "/validate/Cert_Requests": segment[1]: ${subdomainRegex}`],
  ],
  ["a rule without operations", rule({ operations: [] }), ["webhooks[0].rules[0].operations: Required value"]],
  [
    "a wildcard operation among others",
    rule({ operations: ["*", "CREATE"] }),
    [
      'webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
    ],
  ],
  [
    "an operation",
    rule({ operations: ["CREATE", "PATCH"] }),
    [unsupported("webhooks[0].rules[0].operations[1]", "PATCH", ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"])],
  ],
  [
    "a rule without apiGroups and apiVersions",
    rule({ apiGroups: null, apiVersions: [] }),
    ["webhooks[0].rules[0].apiGroups: Required value", "webhooks[0].rules[0].apiVersions: Required value"],
  ],
  [
    "a wildcard group and version among others, and an empty version",
    rule({ apiGroups: ["*", "apps"], apiVersions: ["*", ""] }),
    [
      'webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other API groups',
      'webhooks[0].rules[0].apiVersions: Invalid value: ["*",""]: if \'*\' is present, must not specify other API versions',
      "webhooks[0].rules[0].apiVersions[1]: Required value",
    ],
  ],
  [
    "no resources, and an empty resource",
    validating(
      certManagerWebhook({ rules: [certManagerRule({ resources: [] }), certManagerRule({ resources: [""] })] }),
    ),
    ["webhooks[0].rules[0].resources: Required value", "webhooks[0].rules[1].resources[0]: Required value"],
  ],
  [
    "'*/*' among other resources",
    rule({ resources: ["*/*", "pods/status"] }),
    [
      'webhooks[0].rules[0].resources: Invalid value: ["*/*","pods/status"]: if \'*/*\' is present, must not specify other resources',
    ],
  ],
  [
    "'*' before a resource without subresource",
    rule({ resources: ["*", "pods"] }),
    [
      'webhooks[0].rules[0].resources: Invalid value: ["*","pods"]: if \'*\' is present, must not specify other resources without subresources',
    ],
  ],
  // Go keeps only the last resource without subresource in mind: "*" last clears it.
  ["'*' after a resource without subresource", rule({ resources: ["pods", "*"] }), []],
  [
    "a subresource after 'x/*'",
    rule({ resources: ["pods/*", "pods/status"] }),
    [
      "webhooks[0].rules[0].resources[1]: Invalid value: \"pods/status\": if 'pods/*' is present, must not specify pods/status",
    ],
  ],
  [
    "a subresource after '*/x'",
    rule({ resources: ["*/status", "pods/status"] }),
    [
      "webhooks[0].rules[0].resources[1]: Invalid value: \"pods/status\": if '*/status' is present, must not specify pods/status",
    ],
  ],
  [
    "a scope",
    rule({ scope: "Global" }),
    [unsupported("webhooks[0].rules[0].scope", "Global", ["*", "Cluster", "Namespaced"])],
  ],
  [
    "label selectors",
    hook({
      namespaceSelector: { matchExpressions: [{ key: "env", operator: "Equals", values: ["prod"] }] },
      objectSelector: { matchLabels: { app: "bad value" } },
    }),
    [
      'webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
      `webhooks[0].objectSelector.matchLabels: Invalid value: "bad value": ${labelValueRegex}`,
    ],
  ],
  [
    "match conditions: names empty, not qualified and repeated, an expression of white space",
    hook({
      matchConditions: [
        condition(""),
        condition("exclude leases"),
        condition("exclude-leases"),
        condition("exclude-leases", " \n\t"),
      ],
    }),
    [
      "webhooks[0].matchConditions[0].name: Required value",
      `webhooks[0].matchConditions[1].name: Invalid value: "exclude leases": ${qualifiedNameRegex}`,
      'webhooks[0].matchConditions[3].name: Duplicate value: "exclude-leases"',
      "webhooks[0].matchConditions[3].expression: Required value",
    ],
  ],
  [
    // validateMatchConditionsExpression: no params for a webhook, the authorizer; compiled trimmed
    "match conditions compiled as the server compiles them",
    hook({
      matchConditions: [
        condition("not-kubelet", "!('system:nodes' in request.userInfo.groups)"),
        condition("may-scale", "authorizer.group('apps').resource('deployments').check('scale').allowed()"),
        condition("params", " params.enabled == true "),
        condition("dyn", "object.metadata.labels.enforce"),
      ],
    }),
    [
      "webhooks[0].matchConditions[2].expression: Invalid value: \"params.enabled == true\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.enabled == true\n | ^",
      'webhooks[0].matchConditions[3].expression: Invalid value: "object.metadata.labels.enforce": must evaluate to bool but got dyn',
    ],
  ],
  [
    "65 match conditions",
    hook({ matchConditions: Array.from({ length: 65 }, (_, i) => condition(`c${i}`)) }),
    ["webhooks[0].matchConditions: Too many: 65: must have at most 64 items"],
  ],
  [
    "absent required fields: the schema's, but clientConfig, sideEffects and admissionReviewVersions, in the server's words",
    validating({ rules: [certManagerRule()] }),
    [
      "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
      "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
      "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
    ],
  ],
  [
    "a null clientConfig has neither url nor service",
    hook({ clientConfig: null }),
    ["webhooks[0].clientConfig: Required value: exactly one of url or service is required"],
  ],
];

const mutatingCases: Case[] = [
  ["cert-manager's mutating webhook", mutating(mutatingWebhook()), []],
  [
    "a url client, reinvocation and match conditions",
    mutating(
      mutatingWebhook({
        clientConfig: { url: "https://hooks.example.com/mutate" },
        reinvocationPolicy: "IfNeeded",
        matchConditions: [condition("exclude-kubelet-requests", "!('system:nodes' in request.userInfo.groups)")],
      }),
    ),
    [],
  ],
  [
    "a reinvocationPolicy",
    mutating(mutatingWebhook({ reinvocationPolicy: "Always" })),
    [unsupported("webhooks[0].reinvocationPolicy", "Always", ["IfNeeded", "Never"])],
  ],
  [
    "the shared webhook rules, at mutating paths",
    mutating(
      mutatingWebhook({ sideEffects: "Some", timeoutSeconds: 60 }),
      mutatingWebhook({ admissionReviewVersions: ["v1beta2"] }),
    ),
    [
      unsupported("webhooks[0].sideEffects", "Some", ["None", "NoneOnDryRun"]),
      "webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be between 1 and 30 seconds",
      'webhooks[1].admissionReviewVersions: Invalid value: ["v1beta2"]: must include at least one of v1, v1beta1',
      'webhooks[1].name: Duplicate value: "webhook.cert-manager.io"',
    ],
  ],
];

describe("ValidatingWebhookConfiguration", () => {
  it.each(validatingCases)("%s", (_, object, expected) => {
    expect(said(validateValidatingWebhookConfiguration(object, 36))).toEqual([...expected].sort());
  });

  // apiserver's webhook match conditions are compiled in the base environment of DefaultCompatibilityVersion,
  // one minor below the server's; base.go introduces TwoVarComprehensions at 1.32
  it("compiles a match condition with the libraries the release's API server gives a new expression", () => {
    const twoVariables = hook({
      matchConditions: [condition("labelled", "object.metadata.labels.all(k, v, v != '')")],
    });
    const said32 = said(validateValidatingWebhookConfiguration(twoVariables, 32));
    expect(said32).toHaveLength(1);
    expect(said32[0]).toContain(
      "webhooks[0].matchConditions[0].expression: Invalid value: \"object.metadata.labels.all(k, v, v != '')\": compilation failed: ERROR: <input>:1:27: undeclared reference to 'all' (in container '')",
    );
    expect(said(validateValidatingWebhookConfiguration(twoVariables, 33))).toEqual([]);
  });

  it("has no reinvocationPolicy to check", () => {
    expect(said(validateValidatingWebhookConfiguration(hook({ reinvocationPolicy: "Always" }), 36))).toEqual([]);
  });
});

describe("MutatingWebhookConfiguration", () => {
  it.each(mutatingCases)("%s", (_, object, expected) => {
    expect(said(validateMutatingWebhookConfiguration(object, 36))).toEqual([...expected].sort());
  });
});
