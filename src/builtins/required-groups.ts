import type { NotEnforced } from "./required.js";

/**
 * Every group but core (pkg/apis/<group>/validation, apiextensions-apiserver and kube-aggregator): see
 * required.ts. Each field here is one the OpenAPI of some release 1.32-1.36 marks required while the
 * server's create validation, after its defaults, accepts it absent. Fields it refuses, in any words, stay
 * required; so do fields whose absence is refused only at another path (a DaemonSet's selector).
 */
export const groupsNotEnforced: readonly NotEnforced[] = [
  // apps
  {
    type: "StatefulSetSpec",
    field: "serviceName",
    source: "apps ValidateStatefulSetSpec: never reads serviceName (1.33's OpenAPI made it optional)",
  },
  {
    type: "ControllerRevision",
    field: "revision",
    source: "apps ValidateControllerRevision: ValidateNonnegativeField accepts the absent 0",
  },
  // batch
  {
    type: "PodFailurePolicy",
    field: "rules",
    source: "batch validatePodFailurePolicy: ranges over the rules, an empty list included",
  },
  // networking
  {
    type: "NetworkPolicySpec",
    field: "podSelector",
    source: "networking ValidateNetworkPolicySpec: the empty selector is a valid one (every pod)",
  },
  // discovery
  {
    type: "EndpointSlice",
    field: "endpoints",
    source: "discovery validateEndpoints: ranges over the endpoints, none required",
  },
  {
    type: "ForZone",
    field: "name",
    source: 'discovery validateHints: IsValidLabelValue accepts "", only a duplicate is refused',
  },
  // rbac
  {
    type: "RoleRef",
    field: "apiGroup",
    source: "rbac/v1 SetDefaults_RoleBinding and SetDefaults_ClusterRoleBinding: rbac.authorization.k8s.io",
  },
  // storage
  {
    type: "CSIDriver",
    field: "spec",
    source: "storage validateCSIDriverSpec after storage/v1 SetDefaults_CSIDriver, which sets every field it requires",
  },
  {
    type: "CSINode",
    field: "spec",
    source: "storage validateCSINodeSpec: an empty spec has no drivers to check",
  },
  {
    type: "CSINodeSpec",
    field: "drivers",
    source: "storage validateCSINodeDrivers: ranges over the drivers, none required",
  },
  {
    type: "TokenRequest",
    field: "audience",
    source: 'storage validateTokenRequests: "" is an audience (the API server\'s), only a duplicate is refused',
  },
  // scheduling
  {
    type: "PriorityClass",
    field: "value",
    source: "scheduling ValidatePriorityClass: only a value above HighestUserDefinablePriority is refused",
  },
  // resource (DRA)
  {
    type: "DeviceClass",
    field: "spec",
    source: "resource validateDeviceClassSpec: ranges over selectors and config, none required",
  },
  {
    type: "ResourceClaimTemplate",
    field: "spec",
    source: "resource validateResourceClaimTemplateSpec: template metadata and claim spec may both be empty",
  },
  {
    type: "ResourceClaimTemplateSpec",
    field: "spec",
    source: "resource validateDeviceClaim: ranges over requests, constraints and config, none required",
  },
  {
    type: "ResourcePool",
    field: "generation",
    source: "resource validateResourcePool: only a negative generation is refused",
  },
  {
    type: "DeviceCapacity",
    field: "value",
    source: "resource validateDeviceCapacity / validateSingleAllocatableDeviceCapacity: any quantity, 0 included",
  },
  {
    type: "Counter",
    field: "value",
    source: "resource validateDeviceCounter: any parsed quantity is valid, 0 included",
  },
  // apiextensions
  {
    type: "CustomResourceDefinitionVersion",
    field: "served",
    source: "apiextensions validateCustomResourceDefinitionSpec: false is a valid served flag",
  },
  {
    type: "CustomResourceDefinitionVersion",
    field: "storage",
    source: "apiextensions validateCustomResourceDefinitionSpec: counts the versions marked storage, exactly one",
  },
  ...["names", "versions"].map((field) => ({
    type: "CustomResourceDefinitionSpec",
    field,
    source: "apiextensions validateCustomResourceDefinitionSpec: reads the names' fields and the versions' count",
  })),
];

/** The other groups' required fields whose absence the hand-written rules report in the server's words (required.ts). */
export const groupsReportedByHand: readonly NotEnforced[] = [
  // apiextensions: ValidateCustomResourceDefinition, on the fields of the internal type (crd/validation.ts)
  ...["group", "scope"].map((field) => ({
    type: "CustomResourceDefinitionSpec",
    field,
    source: "apiextensions validateCustomResourceDefinitionSpec (crd/validation.ts)",
  })),
  ...["kind", "plural"].map((field) => ({
    type: "CustomResourceDefinitionNames",
    field,
    source: "apiextensions validateCustomResourceDefinitionSpec: names required for spec (crd/validation.ts)",
  })),
  {
    type: "CustomResourceDefinitionVersion",
    field: "name",
    source: "apiextensions validateCustomResourceDefinitionVersion (crd/validation.ts)",
  },
  ...["name", "type", "jsonPath"].map((field) => ({
    type: "CustomResourceColumnDefinition",
    field,
    source: "apiextensions ValidateCustomResourceColumnDefinition: JSONPath, as the internal type names it",
  })),
  { type: "CustomResourceConversion", field: "strategy", source: "apiextensions validateCustomResourceConversion" },
  {
    type: "WebhookConversion",
    field: "conversionReviewVersions",
    source: "apiextensions validateCustomResourceConversion: conversionReviewVersions, internal type's path",
  },
  { type: "SelectableField", field: "jsonPath", source: "apiextensions validateSelectableFields" },
  {
    type: "ValidationRule",
    field: "rule",
    source: "apiextensions ValidateCustomResourceDefinitionOpenAPISchema: rule is not specified (cel/rules.ts)",
  },
  ...["specReplicasPath", "statusReplicasPath"].map((field) => ({
    type: "CustomResourceSubresourceScale",
    field,
    source: "apiextensions ValidateCustomResourceDefinitionSubresources",
  })),
  { type: "HTTPIngressPath", field: "pathType", source: "networking validateHTTPIngressPath (networking.ts)" },
  {
    type: "HTTPIngressPath",
    field: "backend",
    source: "networking validateIngressBackend: the zero backend has neither member (networking.ts)",
  },
  {
    type: "IPAddress",
    field: "spec",
    source: "networking ValidateIPAddress: the zero spec's parentRef is required (ip-allocation.ts)",
  },
  ...["kind", "name"].map((field) => ({
    type: "IngressClassParametersReference",
    field,
    source: "networking validateIngressTypedLocalObjectReference: `kind is required`, `name is required` (cluster.ts)",
  })),
  // autoscaling/v2: a metric source's target and metric are structs, validated as their zero values
  { type: "MetricTarget", field: "type", source: "autoscaling validateMetricTarget (autoscaling.ts)" },
  { type: "MetricIdentifier", field: "name", source: "autoscaling validateMetricIdentifier (autoscaling.ts)" },
  ...[
    ["ResourceMetricSource", ["name", "target"]],
    ["ContainerResourceMetricSource", ["name", "container", "target"]],
    ["PodsMetricSource", ["metric", "target"]],
    ["ObjectMetricSource", ["metric", "target"]],
    ["ExternalMetricSource", ["metric", "target"]],
  ].flatMap(([type, fields]) =>
    (fields as string[]).map((field) => ({
      type: type as string,
      field,
      source: "autoscaling validate*Source on the zero target or metric (autoscaling.ts)",
    })),
  ),
  ...["kind", "name"].map((field) => ({
    type: "CrossVersionObjectReference",
    field,
    source: "autoscaling ValidateCrossVersionObjectReference (autoscaling.ts)",
  })),
  ...["scaleTargetRef", "maxReplicas"].map((field) => ({
    type: "HorizontalPodAutoscalerSpec",
    field,
    source: "autoscaling validateHorizontalPodAutoscalerSpec: the zero reference, maxReplicas 0 (autoscaling.ts)",
  })),
  {
    type: "ObjectMetricSource",
    field: "describedObject",
    source: "autoscaling validateObjectSource: the zero reference (autoscaling.ts)",
  },
  ...["type", "value", "periodSeconds"].map((field) => ({
    type: "HPAScalingPolicy",
    field,
    source: "autoscaling validateScalingPolicy: NotSupported, `must be greater than zero` (autoscaling.ts)",
  })),
  ...["action"].map((field) => ({
    type: "PodFailurePolicyRule",
    field,
    source: "batch validatePodFailurePolicyRule: `valid values: [...]`",
  })),
  ...["operator", "values"].map((field) => ({
    type: "PodFailurePolicyOnExitCodesRequirement",
    field,
    source: "batch validatePodFailurePolicyRuleOnExitCodes",
  })),
  ...["kind", "name"].map((field) => ({
    type: "RoleRef",
    field,
    source: "rbac ValidateRoleBinding: kind NotSupported, name Required (rbac.ts)",
  })),
  ...["RoleBinding", "ClusterRoleBinding"].map((type) => ({
    type,
    field: "roleRef",
    source: "rbac ValidateRoleBinding: the zero reference, its apiGroup defaulted (rbac.ts)",
  })),
  {
    type: "Subject",
    field: "kind",
    source: "rbac ValidateRoleBindingSubject, flowcontrol ValidateFlowSchemaSubject: NotSupported",
  },
  // admissionregistration's validateWebhookService, apiextensions' call of util/webhook, apiregistration's ValidateAPIService
  ...["name", "namespace"].map((field) => ({
    type: "ServiceReference",
    field,
    source: "validateWebhookService (crd/webhook.ts), ValidateAPIService (apiregistration.ts)",
  })),
  {
    type: "CertificateSigningRequest",
    field: "spec",
    source: "certificates validateCertificateSigningRequest: the zero spec (certificates.ts)",
  },
  ...["request", "signerName"].map((field) => ({
    type: "CertificateSigningRequestSpec",
    field,
    source: "certificates validateCSR (a nil request has no PEM block), ValidateSignerName",
  })),
  {
    type: "CSIStorageCapacity",
    field: "storageClassName",
    source: "storage ValidateCSIStorageCapacity: ValidateClassName's Invalid (csi.ts)",
  },
  ...["priorityLevelConfiguration"].map((field) => ({
    type: "FlowSchemaSpec",
    field,
    source: "flowcontrol ValidateFlowSchemaSpec: the zero reference must reference a priority level (flowcontrol.ts)",
  })),
  // flowcontrol: lists Go decodes as nil slices, refused in ValidateFlowSchemaPolicyRulesWithSubjects' words
  {
    type: "PolicyRulesWithSubjects",
    field: "subjects",
    source: "flowcontrol: subjects must contain at least one value",
  },
  ...["verbs", "apiGroups", "resources"].map((field) => ({
    type: "ResourcePolicyRule",
    field,
    source: "flowcontrol ValidateFlowSchemaResourcePolicyRule (flowcontrol.ts)",
  })),
  ...["verbs", "nonResourceURLs"].map((field) => ({
    type: "NonResourcePolicyRule",
    field,
    source: "flowcontrol ValidateFlowSchemaNonResourcePolicyRule (flowcontrol.ts)",
  })),
  {
    type: "ServiceAccountSubject",
    field: "namespace",
    source: "flowcontrol ValidateServiceAccountSubject: must specify namespace for service account",
  },
  {
    type: "PriorityLevelConfigurationReference",
    field: "name",
    source: "flowcontrol ValidateFlowSchemaSpec: `must reference a priority level` (flowcontrol.ts)",
  },
  { type: "PolicyRule", field: "verbs", source: "rbac ValidatePolicyRule (rbac.ts)" },
  // admission policies: "… is not specified", the audit key qualified with the policy's name
  ...[
    ["Validation", "expression"],
    ["Variable", "name"],
    ["Variable", "expression"],
    ["AuditAnnotation", "key"],
    ["AuditAnnotation", "valueExpression"],
  ].map(([type, field]) => ({
    type: type as string,
    field: field as string,
    source: "admissionregistration validateValidation, validateVariable, validateAuditAnnotation (admission-policy.ts)",
  })),
  { type: "RuntimeClass", field: "handler", source: "node ValidateRuntimeClass: NameIsDNSLabel's Invalid (node.ts)" },
  {
    type: "Endpoint",
    field: "addresses",
    source: "discovery validateEndpoints: must contain at least 1 address (endpoints.ts)",
  },
  ...["groupPriorityMinimum", "versionPriority"].map((field) => ({
    type: "APIServiceSpec",
    field,
    source: "apiregistration ValidateAPIService: 0 is not positive (apiregistration.ts)",
  })),
  ...["ValidatingWebhook", "MutatingWebhook"].flatMap((type) =>
    ["sideEffects", "admissionReviewVersions", "clientConfig"].map((field) => ({
      type,
      field,
      source: "admissionregistration validateValidatingWebhook, validateMutatingWebhook (admissionregistration.ts)",
    })),
  ),
];
