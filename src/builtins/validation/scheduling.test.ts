/**
 * Scheduling fields and security contexts, word for word:
 * pkg/apis/core/validation/validation.go (ValidatePodSpec's ValidateLabels
 * of nodeSelector and its priorityClassName check; validateAffinity,
 * validateNodeAffinity, ValidateNodeSelector, ValidateNodeSelectorTerm,
 * ValidateNodeSelectorRequirement, ValidateNodeFieldSelectorRequirement,
 * ValidatePreferredSchedulingTerms, validatePodAffinity,
 * validatePodAntiAffinity, validatePodAffinityTerm,
 * ValidatePodAffinityTermSelector, validateWeightedPodAffinityTerms,
 * validateMatchLabelKeysAndMismatchLabelKeys, validateLabelKeys;
 * validateTopologySpreadConstraints, ValidateMaxSkew, ValidateTopologyKey,
 * ValidateWhenUnsatisfiable, ValidateSpreadConstraintNotRepeat,
 * validateMinDomains, validateNodeInclusionPolicy;
 * validatePodSpecSecurityContext, validateSysctls, ValidateHostSysctl,
 * validateFSGroupChangePolicy, validateSupplementalGroupsPolicy;
 * ValidateSecurityContext, ValidateProcMountType), apimachinery's
 * IsValidUserID/IsValidGroupID, and component-helpers' sysctl GetNamespace.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { validatePodScheduling } from "./scheduling.js";
import { validatePodSecurityContext, validateSecurityContext } from "./security.js";
import {
  dns1123LabelError as labelRegex,
  labelValueError as labelValueRegex,
  qualifiedNamePartError as qualifiedNameRegex,
  dns1123SubdomainError as subdomainRegex,
} from "./test-helpers.js";

const messages = (findings: { message: string }[]) => findings.map((f) => f.message).sort();
const scheduling = (spec: JsonObject) => messages(validatePodScheduling(spec, ["spec"]));
const podSecurity = (spec: JsonObject) => messages(validatePodSecurityContext(spec, ["spec"]));
const containerSecurity = (sc: JsonObject, hostUsers = true) =>
  messages(validateSecurityContext(sc, ["spec", "containers", 0, "securityContext"], hostUsers));

const idRange = "must be between 0 and 2147483647, inclusive";

const requiredNode = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution";
const nodeTerm = (term: JsonObject): JsonObject => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } },
});
const expr = (key: string, operator: string, values?: string[]): JsonObject =>
  values === undefined ? { key, operator } : { key, operator, values };

const podTerm = (extra: JsonObject = {}): JsonObject => ({
  labelSelector: { matchLabels: { app: "web" } },
  topologyKey: "kubernetes.io/hostname",
  ...extra,
});
const requiredPodAffinity = (term: JsonObject): JsonObject => ({
  affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
});
const requiredPod = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";

const spread = (extra: JsonObject = {}): JsonObject => ({
  maxSkew: 1,
  topologyKey: "topology.kubernetes.io/zone",
  whenUnsatisfiable: "DoNotSchedule",
  labelSelector: { matchLabels: { app: "web" } },
  ...extra,
});
const spreads = (...constraints: JsonObject[]): JsonObject => ({ topologySpreadConstraints: constraints });

const validScheduling: JsonObject = {
  nodeSelector: { "kubernetes.io/os": "linux" },
  priorityClassName: "high-priority",
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [expr("zone", "In", ["a", "b"]), expr("gpu", "Exists"), expr("cores", "Gt", ["4"])],
            matchFields: [expr("metadata.name", "NotIn", ["node-1"])],
          },
        ],
      },
      // Label values of preferences are not checked.
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, preference: { matchExpressions: [expr("zone", "In", ["not a label value"])] } },
      ],
    },
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        podTerm({ namespaces: ["default"], namespaceSelector: {}, matchLabelKeys: ["pod-template-hash"] }),
      ],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 1, podAffinityTerm: podTerm({ mismatchLabelKeys: ["tenant"] }) },
      ],
    },
  },
  topologySpreadConstraints: [
    spread({ minDomains: 3, nodeAffinityPolicy: "Honor", nodeTaintsPolicy: "Ignore", matchLabelKeys: ["version"] }),
    spread({ whenUnsatisfiable: "ScheduleAnyway" }),
    spread({ topologyKey: "kubernetes.io/hostname" }),
  ],
};

const schedulingCases: [string, JsonObject, string[]][] = [
  ["valid scheduling fields", validScheduling, []],
  [
    "a node selector key with a trailing space",
    { nodeSelector: { "kubernetes.io/os ": "linux" } },
    [`spec.nodeSelector: Invalid value: "kubernetes.io/os ": ${qualifiedNameRegex}`],
  ],
  [
    "a node selector value that is no label value",
    { nodeSelector: { disk: "fast ssd" } },
    [`spec.nodeSelector: Invalid value: "fast ssd": ${labelValueRegex}`],
  ],
  [
    "a required node requirement In without values",
    nodeTerm({ matchExpressions: [expr("zone", "In")] }),
    [
      `${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
    ],
  ],
  [
    "a node requirement Exists with values",
    nodeTerm({ matchExpressions: [expr("gpu", "DoesNotExist", ["yes"])] }),
    [
      `${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
    ],
  ],
  [
    "a node requirement Gt with two values",
    nodeTerm({ matchExpressions: [expr("cores", "Gt", ["4", "8"])] }),
    [
      `${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
    ],
  ],
  [
    "a node requirement with an unknown operator and a bad key",
    nodeTerm({ matchExpressions: [expr("zone/", "Equals", ["a"])] }),
    [
      `${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].key: Invalid value: "zone/": name part must be non-empty`,
      `${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].key: Invalid value: "zone/": ${qualifiedNameRegex}`,
      `${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator`,
    ],
  ],
  [
    "a required node requirement value that is no label value",
    nodeTerm({ matchExpressions: [expr("zone", "In", ["a b"])] }),
    [`${requiredNode}.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "a b": ${labelValueRegex}`],
  ],
  [
    "no node selector terms",
    { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } },
    [`${requiredNode}.nodeSelectorTerms: Required value: must have at least one node selector term`],
  ],
  [
    "node field selectors on another field, with two values, and of a bad node name",
    nodeTerm({
      matchFields: [
        expr("metadata.namespace", "In", ["a"]),
        expr("metadata.name", "In", ["a", "b"]),
        expr("metadata.name", "Exists", ["Node_1"]),
      ],
    }),
    [
      `${requiredNode}.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.namespace": not a valid field selector key`,
      `${requiredNode}.nodeSelectorTerms[0].matchFields[1].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      `${requiredNode}.nodeSelectorTerms[0].matchFields[2].operator: Invalid value: "Exists": not a valid selector operator`,
      `${requiredNode}.nodeSelectorTerms[0].matchFields[2].values[0]: Invalid value: "Node_1": ${subdomainRegex}`,
    ],
  ],
  [
    "preferred node terms weighing 0 and 101, with a bad requirement",
    {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 0, preference: { matchExpressions: [expr("zone", "NotIn")] } },
            { weight: 101, preference: {} },
          ],
        },
      },
    },
    [
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].weight: Invalid value: 101: must be in the range 1-100",
    ],
  ],
  [
    "a preferred pod anti-affinity term weighing 0",
    {
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: podTerm() }],
        },
      },
    },
    [
      "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
    ],
  ],
  [
    "an empty topology key of a pod affinity term",
    requiredPodAffinity(podTerm({ topologyKey: "" })),
    [
      `${requiredPod}.topologyKey: Invalid value: "": ${qualifiedNameRegex}`,
      `${requiredPod}.topologyKey: Invalid value: "": name part must be non-empty`,
      `${requiredPod}.topologyKey: Required value: can not be empty`,
    ],
  ],
  [
    "a namespace that is no DNS label, reported at `namespace`",
    requiredPodAffinity(podTerm({ namespaces: ["ok", "Bad_NS"] })),
    [`${requiredPod}.namespace: Invalid value: "Bad_NS": ${labelRegex}`],
  ],
  [
    "bad label and namespace selectors",
    requiredPodAffinity(
      podTerm({
        labelSelector: { matchExpressions: [expr("app", "In")] },
        namespaceSelector: { matchLabels: { "team name": "a" } },
      }),
    ),
    [
      `${requiredPod}.labelSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${requiredPod}.namespaceSelector.matchLabels: Invalid value: "team name": ${qualifiedNameRegex}`,
    ],
  ],
  [
    "label keys without a label selector",
    requiredPodAffinity({ topologyKey: "zone", matchLabelKeys: ["a"], mismatchLabelKeys: ["b"] }),
    [
      `${requiredPod}.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
      `${requiredPod}.mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
    ],
  ],
  [
    "a bad mismatch label key, and a key both matched and mismatched",
    requiredPodAffinity(podTerm({ matchLabelKeys: ["x", "tenant"], mismatchLabelKeys: ["tenant", "a b"] })),
    [
      `${requiredPod}.matchLabelKeys[1]: Invalid value: "tenant": exists in both matchLabelKeys and mismatchLabelKeys`,
      `${requiredPod}.mismatchLabelKeys[1]: Invalid value: "a b": ${qualifiedNameRegex}`,
    ],
  ],
  [
    "a match label key the selector already has, reported at the term indexed by the key",
    requiredPodAffinity(
      podTerm({
        labelSelector: { matchLabels: { app: "web" }, matchExpressions: [expr("app", "Exists")] },
        matchLabelKeys: ["version", "app"],
      }),
    ),
    [`${requiredPod}[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`],
  ],
  [
    "a spread constraint with maxSkew 0",
    spreads(spread({ maxSkew: 0 })),
    ["spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"],
  ],
  [
    "a misspelt whenUnsatisfiable",
    spreads(spread({ whenUnsatisfiable: "DoNotSchedul" })),
    [
      'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "DoNotSchedul": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ],
  ],
  [
    "minDomains with ScheduleAnyway, and minDomains 0",
    spreads(spread({ whenUnsatisfiable: "ScheduleAnyway", minDomains: 2 }), spread({ minDomains: 0 })),
    [
      "spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
      "spec.topologySpreadConstraints[1].minDomains: Invalid value: 0: must be greater than zero",
    ],
  ],
  [
    "an empty topology key of a spread constraint",
    spreads(spread({ topologyKey: "" })),
    ["spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty"],
  ],
  [
    "three constraints of the same topology key and action",
    spreads(spread(), spread({ maxSkew: 2 }), spread()),
    [
      'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"',
      'spec.topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"',
    ],
  ],
  [
    "unknown node inclusion policies",
    spreads(spread({ nodeAffinityPolicy: "Always", nodeTaintsPolicy: "" })),
    [
      'spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"',
      'spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "": supported values: "Honor", "Ignore"',
    ],
  ],
  [
    "spread label keys without a selector, and a bad one",
    spreads(
      spread({ labelSelector: null, matchLabelKeys: ["version"] }),
      spread({ topologyKey: "host", matchLabelKeys: ["-v"] }),
    ),
    [
      "spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
      `spec.topologySpreadConstraints[1].matchLabelKeys[0]: Invalid value: "-v": ${qualifiedNameRegex}`,
    ],
  ],
  [
    "a spread constraint's bad label selector",
    spreads(spread({ labelSelector: { matchLabels: { app: "-web" } } })),
    [`spec.topologySpreadConstraints[0].labelSelector.matchLabels: Invalid value: "-web": ${labelValueRegex}`],
  ],
  [
    "a priority class name that is no DNS subdomain",
    { priorityClassName: "High_Priority" },
    [`spec.priorityClassName: Invalid value: "High_Priority": ${subdomainRegex}`],
  ],
];

const validPodSecurity: JsonObject = {
  hostNetwork: true,
  shareProcessNamespace: true,
  securityContext: {
    runAsUser: 1000,
    runAsGroup: 0,
    fsGroup: 2147483647,
    supplementalGroups: [1, 2],
    fsGroupChangePolicy: "OnRootMismatch",
    supplementalGroupsPolicy: "Strict",
    // Not in the network namespace, and a name with slashes.
    sysctls: [
      { name: "kernel.msgmax", value: "65536" },
      { name: "kernel/shm_rmid_forced", value: "1" },
    ],
  },
};

const podSecurityCases: [string, JsonObject, string[]][] = [
  ["a valid pod security context", validPodSecurity, []],
  ["no security context", {}, []],
  [
    "negative and too large user and group IDs",
    { securityContext: { runAsUser: -1, fsGroup: -5, runAsGroup: 2147483648, supplementalGroups: [1, -2] } },
    [
      `spec.securityContext.fsGroup: Invalid value: -5: ${idRange}`,
      `spec.securityContext.runAsGroup: Invalid value: 2147483648: ${idRange}`,
      `spec.securityContext.runAsUser: Invalid value: -1: ${idRange}`,
      `spec.securityContext.supplementalGroups[1]: Invalid value: -2: ${idRange}`,
    ],
  ],
  [
    "unknown fsGroupChangePolicy and supplementalGroupsPolicy",
    { securityContext: { fsGroupChangePolicy: "", supplementalGroupsPolicy: "Loose" } },
    [
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "": supported values: "Always", "OnRootMismatch"',
      'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
    ],
  ],
  [
    "a shared process namespace with the host's PIDs",
    { shareProcessNamespace: true, hostPID: true },
    [
      "spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled",
    ],
  ],
  [
    "sysctls empty, malformed and repeated",
    {
      securityContext: {
        sysctls: [
          { name: "", value: "1" },
          { name: "Net.IPv4.ip_forward", value: "1" },
          { name: "kernel.sem", value: "1" },
          { name: "kernel.sem", value: "2" },
        ],
      },
    },
    [
      'spec.securityContext.sysctls[1].name: Invalid value: "Net.IPv4.ip_forward": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      'spec.securityContext.sysctls[3].name: Duplicate value: "kernel.sem"',
      "spec.securityContext.sysctls[0].name: Required value",
    ],
  ],
  [
    "namespaced sysctls of a namespace shared with the host",
    {
      hostNetwork: true,
      hostIPC: true,
      securityContext: {
        sysctls: [
          { name: "net.ipv4.ip_forward", value: "1" },
          { name: "net/ipv4/conf/eno2.100/rp_filter", value: "1" },
          { name: "kernel/shm_rmid_forced", value: "1" },
          { name: "fs.mqueue.msg_max", value: "10" },
          { name: "vm.swappiness", value: "10" },
        ],
      },
    },
    [
      "spec.securityContext.sysctls[0].name: Invalid value: \"net.ipv4.ip_forward\": may not be specified when 'hostNetwork' is true",
      "spec.securityContext.sysctls[1].name: Invalid value: \"net/ipv4/conf/eno2.100/rp_filter\": may not be specified when 'hostNetwork' is true",
      "spec.securityContext.sysctls[2].name: Invalid value: \"kernel/shm_rmid_forced\": may not be specified when 'hostIPC' is true",
      "spec.securityContext.sysctls[3].name: Invalid value: \"fs.mqueue.msg_max\": may not be specified when 'hostIPC' is true",
    ],
  ],
];

const sc = "spec.containers[0].securityContext";
const containerCases: [string, JsonObject, string[]][] = [
  [
    "a valid container security context",
    {
      runAsUser: 0,
      runAsGroup: 3000,
      privileged: true,
      procMount: "Default",
      capabilities: { add: ["SYS_ADMIN"], drop: ["ALL"] },
    },
    [],
  ],
  [
    "escalation forbidden, unprivileged, adding SYS_ADMIN",
    { allowPrivilegeEscalation: false, capabilities: { add: ["SYS_ADMIN"] } },
    [],
  ],
  [
    "privileged without privilege escalation",
    { privileged: true, allowPrivilegeEscalation: false },
    [
      `${sc}: Invalid value: {"privileged":true,"allowPrivilegeEscalation":false}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`,
    ],
  ],
  [
    "CAP_SYS_ADMIN without privilege escalation",
    { allowPrivilegeEscalation: false, capabilities: { add: ["CAP_SYS_ADMIN"] } },
    [
      `${sc}: Invalid value: {"allowPrivilegeEscalation":false,"capabilities":{"add":["CAP_SYS_ADMIN"]}}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`,
    ],
  ],
  [
    "negative user and group IDs",
    { runAsUser: -1, runAsGroup: -1 },
    [`${sc}.runAsGroup: Invalid value: -1: ${idRange}`, `${sc}.runAsUser: Invalid value: -1: ${idRange}`],
  ],
  [
    "an unknown procMount",
    { procMount: "Masked" },
    [`${sc}.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"`],
  ],
  [
    "an unmasked procMount in the host's user namespace",
    { procMount: "Unmasked" },
    [`${sc}.procMount: Invalid value: "Unmasked": \`hostUsers\` must be false to use \`Unmasked\``],
  ],
];

describe("scheduling fields (ValidatePodSpec, validateAffinity, validateTopologySpreadConstraints)", () => {
  it.each(schedulingCases)("%s", (_, spec, expected) => {
    expect(scheduling(spec)).toEqual([...expected].sort());
  });

  it("reports at the path given, a template's", () => {
    const findings = validatePodScheduling(spreads(spread({ maxSkew: 0 })), ["spec", "template", "spec"]);
    expect(messages(findings)).toEqual([
      "spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
    ]);
  });

  it("takes a node requirement's absent key and operator as empty", () => {
    expect(scheduling(nodeTerm({ matchExpressions: [{ values: ["a"] }] }))).toEqual(
      scheduling(nodeTerm({ matchExpressions: [{ key: "", operator: "", values: ["a"] }] })),
    );
    expect(scheduling(nodeTerm({ matchExpressions: [{ values: ["a"] }] }))).toHaveLength(3);
  });

  it("says a spread constraint's absent fields in the server's words, as Go's zero values", () => {
    expect(scheduling(spreads({ labelSelector: {} }))).toEqual([
      "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
      "spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
      'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ]);
  });
});

describe("pod security context (validatePodSpecSecurityContext)", () => {
  it.each(podSecurityCases)("%s", (_, spec, expected) => {
    expect(podSecurity(spec)).toEqual([...expected].sort());
  });
});

describe("container security context (ValidateSecurityContext)", () => {
  it.each(containerCases)("%s", (_, context, expected) => {
    expect(containerSecurity(context)).toEqual([...expected].sort());
  });

  it("allows an unmasked procMount in a user namespace", () => {
    expect(containerSecurity({ procMount: "Unmasked" }, false)).toEqual([]);
  });
});
