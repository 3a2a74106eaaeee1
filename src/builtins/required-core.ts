import { fieldsOf, type NotEnforced } from "./not-enforced.js";

/**
 * core/v1 (pkg/apis/core/validation/validation.go and events.go, after pkg/apis/core/v1/defaults.go and the
 * registry strategies' PrepareForCreate): see required.ts. Each field here is one the OpenAPI of some release
 * 1.32-1.36 marks required while the server's create validation accepts it absent (decoded as "", 0, nil or an
 * empty struct). Fields it refuses, in any words or at any path under the object, stay required.
 */
export const coreNotEnforced: readonly NotEnforced[] = [
  { type: "LimitRangeSpec", field: "limits", source: "core ValidateLimitRange: ranges over the items, none required" },
  {
    type: "HTTPHeader",
    field: "value",
    source: "core validateHTTPGetAction: checks each header's name (IsHTTPHeaderName), never its value",
  },
  {
    type: "Sysctl",
    field: "value",
    source: "core validateSysctls: checks the name only (required, well formed, unique); any value passes",
  },
  {
    type: "PreferredSchedulingTerm",
    field: "preference",
    source:
      "core ValidatePreferredSchedulingTerms: checks the weight; ValidateNodeSelectorTerm ranges over the " +
      "preference's expressions and fields, an empty term passes",
  },
  {
    type: "SleepAction",
    field: "seconds",
    source:
      "core validateSleepAction: with PodLifecycleSleepActionAllowZero (beta and on from 1.33) 0 is within " +
      "[0, terminationGracePeriodSeconds]; in 1.32 (alpha, off) it refuses 0 in its own words (pod.ts)",
  },
  {
    type: "ISCSIVolumeSource",
    field: "lun",
    source: "core validateISCSIVolumeSource: refuses a lun outside 0-255 only; the absent 0 passes",
  },
  {
    type: "ISCSIPersistentVolumeSource",
    field: "lun",
    source: "core validateISCSIPersistentVolumeSource: refuses a lun outside 0-255 only; the absent 0 passes",
  },
  {
    type: "ScaleIOVolumeSource",
    field: "secretRef",
    source: "core validateScaleIOVolumeSource: requires gateway, system and volumeName, never reads secretRef",
  },
  {
    type: "ScaleIOPersistentVolumeSource",
    field: "secretRef",
    source:
      "core validateScaleIOPersistentVolumeSource: requires gateway, system and volumeName, never reads secretRef",
  },
  {
    type: "ContainerStateTerminated",
    field: "exitCode",
    source:
      "core: only pod status holds it, which the pod strategy's PrepareForCreate resets; no validation reads " +
      "exitCode, and 0 is an exit code",
  },
  {
    // core's ResourceClaim (a container's resources.claims item) has no spec: this reaches resource.k8s.io's.
    type: "ResourceClaim",
    field: "spec",
    source:
      "resource validateResourceClaimSpec / validateDeviceClaim: ranges over requests, constraints and config, " +
      "none required",
  },
];

/** core/v1's required fields whose absence the hand-written rules report in the server's words (required.ts). */
export const coreReportedByHand: readonly NotEnforced[] = [
  ...fieldsOf("PodOS", ["name"], "core validateOS (windows.ts)"),
  ...fieldsOf("PodSpec", ["containers"], "core validateContainers: none, left out too (pod.ts)"),
  ...fieldsOf("ServicePort", ["port"], "core validateServicePort (core.ts)"),
  ...fieldsOf(
    "ContainerResizePolicy",
    ["resourceName", "restartPolicy"],
    "core validateResizePolicy: Required at …resizePolicy from 1.33, dropped before (pod-resources.ts)",
  ),
  ...fieldsOf(
    "TopologySpreadConstraint",
    ["maxSkew", "topologyKey", "whenUnsatisfiable"],
    "core validateTopologySpreadConstraints (scheduling.ts)",
  ),
  // an absent port is the integer 0: `Invalid value: 0: must be between 1 and 65535, inclusive`
  ...["HTTPGetAction", "TCPSocketAction", "GRPCAction"].flatMap((type) =>
    fieldsOf(type, ["port"], "core validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction"),
  ),
  ...fieldsOf("HTTPHeader", ["name"], "core validateHTTPGetAction: IsHTTPHeaderName at httpHeaders (pod-fields.ts)"),
  // names and addresses an absent value fails as "" does
  ...fieldsOf("PodReadinessGate", ["conditionType"], "core validateReadinessGates (pod-fields.ts)"),
  ...fieldsOf("PodSchedulingGate", ["name"], "core validateSchedulingGates, at the item (pod-fields.ts)"),
  ...fieldsOf("HostAlias", ["ip"], "core validateHostAliases: IsValidIPForLegacyField (pod-dns.ts)"),
  ...fieldsOf("EndpointAddress", ["ip"], "core validateEndpointAddress: IsValidIPForLegacyField (endpoints.ts)"),
  ...fieldsOf("EndpointPort", ["port"], "core validateEndpointPort: IsValidPortNum (endpoints.ts)"),
  ...fieldsOf("LimitRangeItem", ["type"], "core ValidateLimitRange: validateLimitRangeTypeName (cluster.ts)"),
  // selector requirements: an absent key or operator is "", refused as written empty; where the server
  // validates no selector (an HPA metric's), it passes absent too
  ...["LabelSelectorRequirement", "NodeSelectorRequirement"].flatMap((type) =>
    fieldsOf(type, ["key", "operator"], "ValidateLabelSelectorRequirement, ValidateNodeSelectorRequirement"),
  ),
  ...["PreferredSchedulingTerm", "WeightedPodAffinityTerm"].flatMap((type) =>
    fieldsOf(
      type,
      ["weight"],
      "core validatePreferredSchedulingTerms, validateWeightedPodAffinityTerms: 0 (scheduling.ts)",
    ),
  ),
  // an Ingress backend's resource (its words) and a claim's data sources (bare), both reported by hand
  ...["TypedLocalObjectReference", "TypedObjectReference"].flatMap((type) =>
    fieldsOf(type, ["kind", "name"], "validateIngressTypedLocalObjectReference, validateDataSource(Ref)"),
  ),
];
