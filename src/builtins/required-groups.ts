import { fieldsOf, type NotEnforced } from "./not-enforced.js";

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
  {
    type: "PodFailurePolicyOnPodConditionsPattern",
    field: "status",
    source:
      "batch SetDefaults_Job: True on a Job; a CronJob's job template, not defaulted, gets validatePodFailurePolicyRuleOnPodConditions' `valid values: [...]`",
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
  ...["DeviceRequest", "DeviceSubRequest"].flatMap((type) =>
    fieldsOf(type, ["name"], 'resource validateRequestName: ValidateDNS1123Label of ""'),
  ),
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
  ...fieldsOf("CustomResourceDefinitionSpec", ["group", "scope"], "apiextensions validateCustomResourceDefinitionSpec"),
  ...fieldsOf("CustomResourceDefinitionNames", ["kind", "plural"], "apiextensions: names required for spec"),
  ...fieldsOf("CustomResourceDefinitionVersion", ["name"], "apiextensions validateCustomResourceDefinitionVersion"),
  ...fieldsOf(
    "CustomResourceColumnDefinition",
    ["name", "type", "jsonPath"],
    "apiextensions ValidateCustomResourceColumnDefinition: JSONPath, as the internal type names it",
  ),
  ...fieldsOf("CustomResourceConversion", ["strategy"], "apiextensions validateCustomResourceConversion"),
  ...fieldsOf("WebhookConversion", ["conversionReviewVersions"], "apiextensions validateCustomResourceConversion"),
  ...fieldsOf("SelectableField", ["jsonPath"], "apiextensions validateSelectableFields"),
  ...fieldsOf("ValidationRule", ["rule"], "apiextensions: rule is not specified (cel/rules.ts)"),
  ...fieldsOf(
    "CustomResourceSubresourceScale",
    ["specReplicasPath", "statusReplicasPath"],
    "apiextensions ValidateCustomResourceDefinitionSubresources",
  ),
  // admissionregistration's validateWebhookService, apiextensions' call of util/webhook, ValidateAPIService
  ...fieldsOf("ServiceReference", ["name", "namespace"], "validateWebhookService (crd/webhook.ts), apiregistration.ts"),
  ...["ValidatingWebhook", "MutatingWebhook"].flatMap((type) =>
    fieldsOf(
      type,
      ["sideEffects", "admissionReviewVersions", "clientConfig"],
      "admissionregistration validateValidatingWebhook, validateMutatingWebhook (admissionregistration.ts)",
    ),
  ),
  // admission policies: "… is not specified", the audit key qualified with the policy's name (admission-policy.ts)
  ...fieldsOf("Validation", ["expression"], "admissionregistration validateValidation"),
  ...fieldsOf("Variable", ["name", "expression"], "admissionregistration validateVariable"),
  ...fieldsOf("AuditAnnotation", ["key", "valueExpression"], "admissionregistration validateAuditAnnotation"),
  ...fieldsOf("APIServiceSpec", ["groupPriorityMinimum", "versionPriority"], "apiregistration ValidateAPIService: 0"),
  // apps and batch: a template left out is the zero one, whose pod spec has no containers (apps.ts, batch.ts)
  ...["DeploymentSpec", "DaemonSetSpec", "StatefulSetSpec", "JobSpec"].flatMap((type) =>
    fieldsOf(type, ["template"], "apps ValidatePodTemplateSpecForReplicaSet and kin, batch ValidateJobSpec: zero"),
  ),
  ...fieldsOf("CronJobSpec", ["schedule", "jobTemplate"], "batch ValidateCronJobSpec: Required, the zero job template"),
  // autoscaling/v2: references, targets and metrics are structs, validated as their zero values (autoscaling.ts)
  ...fieldsOf("HorizontalPodAutoscalerSpec", ["scaleTargetRef", "maxReplicas"], "autoscaling: the zero values"),
  ...fieldsOf("CrossVersionObjectReference", ["kind", "name"], "autoscaling ValidateCrossVersionObjectReference"),
  ...fieldsOf("MetricTarget", ["type"], "autoscaling validateMetricTarget"),
  ...fieldsOf("MetricIdentifier", ["name"], "autoscaling validateMetricIdentifier"),
  ...fieldsOf("ResourceMetricSource", ["name", "target"], "autoscaling validateResourceSource"),
  ...fieldsOf(
    "ContainerResourceMetricSource",
    ["name", "container", "target"],
    "autoscaling validateContainerResourceSource",
  ),
  ...fieldsOf("PodsMetricSource", ["metric", "target"], "autoscaling validatePodsSource"),
  ...fieldsOf("ObjectMetricSource", ["describedObject", "metric", "target"], "autoscaling validateObjectSource"),
  ...fieldsOf("ExternalMetricSource", ["metric", "target"], "autoscaling validateExternalSource"),
  ...fieldsOf("HPAScalingPolicy", ["type", "value", "periodSeconds"], "autoscaling validateScalingPolicy"),
  ...fieldsOf("PodFailurePolicyRule", ["action"], "batch validatePodFailurePolicyRule: `valid values: [...]`"),
  ...fieldsOf(
    "PodFailurePolicyOnExitCodesRequirement",
    ["operator", "values"],
    "batch validatePodFailurePolicyRuleOnExitCodes",
  ),
  ...fieldsOf(
    "CertificateSigningRequestSpec",
    ["request", "signerName"],
    "certificates validateCSR, ValidateSignerName",
  ),
  ...fieldsOf("Endpoint", ["addresses"], "discovery validateEndpoints: must contain at least 1 address (endpoints.ts)"),
  // flowcontrol: lists Go decodes as nil slices, a reference as its zero value (flowcontrol.ts)
  ...fieldsOf(
    "FlowSchemaSpec",
    ["priorityLevelConfiguration"],
    "flowcontrol ValidateFlowSchemaSpec: the zero reference",
  ),
  ...fieldsOf("PriorityLevelConfigurationReference", ["name"], "flowcontrol: must reference a priority level"),
  ...fieldsOf(
    "FlowDistinguisherMethod",
    ["type"],
    'flowcontrol ValidateFlowSchemaSpec: the method with type "" NotSupported',
  ),
  ...fieldsOf("PolicyRulesWithSubjects", ["subjects"], "flowcontrol: subjects must contain at least one value"),
  ...fieldsOf(
    "ResourcePolicyRule",
    ["verbs", "apiGroups", "resources"],
    "flowcontrol ValidateFlowSchemaResourcePolicyRule",
  ),
  ...fieldsOf(
    "NonResourcePolicyRule",
    ["verbs", "nonResourceURLs"],
    "flowcontrol ValidateFlowSchemaNonResourcePolicyRule",
  ),
  ...fieldsOf("ServiceAccountSubject", ["namespace"], "flowcontrol: must specify namespace for service account"),
  ...fieldsOf(
    "Subject",
    ["kind"],
    "rbac ValidateRoleBindingSubject, flowcontrol ValidateFlowSchemaSubject: NotSupported",
  ),
  // networking
  ...fieldsOf("HTTPIngressPath", ["pathType", "backend"], "networking validateHTTPIngressPath (networking.ts)"),
  ...fieldsOf(
    "IngressClassParametersReference",
    ["kind", "name"],
    "networking validateIngressTypedLocalObjectReference",
  ),
  ...fieldsOf("RuntimeClass", ["handler"], "node ValidateRuntimeClass: NameIsDNSLabel (node.ts)"),
  // rbac (rbac.ts)
  ...fieldsOf("PolicyRule", ["verbs"], "rbac ValidatePolicyRule"),
  ...fieldsOf("RoleRef", ["kind", "name"], "rbac ValidateRoleBinding: kind NotSupported, name Required"),
  ...["RoleBinding", "ClusterRoleBinding"].flatMap((type) =>
    fieldsOf(type, ["roleRef"], "rbac ValidateRoleBinding: the zero reference, its apiGroup defaulted"),
  ),
  ...fieldsOf(
    "CSIStorageCapacity",
    ["storageClassName"],
    "storage ValidateCSIStorageCapacity: ValidateClassName (csi.ts)",
  ),
];
