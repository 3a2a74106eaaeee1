/**
 * The warnings of pkg/api/pod/warnings.go (warningsForPodSpecAndMeta), pkg/api/node/util.go
 * (deprecatedNodeLabels, GetWarningsForNodeSelectorTerm) and pkg/api/persistentvolumeclaim/util.go
 * (GetWarningsForPersistentVolumeClaim), in the API server's words: each case is an object the server
 * accepts, and the `Warning:` lines kubectl prints for it (warnings_test.go's cases among them).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { container, deployment, pod, said, template } from "./test-helpers.js";
import { warningsFor } from "./warnings.js";

const warnings = (apiVersion: string, kind: string, object: JsonObject) =>
  said(apiVersion, kind, object).filter((m) => m.startsWith("warning "));

const podCases: [string, JsonObject, JsonObject, string[]][] = [
  ["a valid pod", {}, {}, []],
  [
    "deprecated node labels in the node selector",
    {},
    { nodeSelector: { "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64" } },
    ['spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead'],
  ],
  [
    "deprecated node labels in node affinity, required and preferred",
    {},
    {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "failure-domain.beta.kubernetes.io/zone", operator: "Exists" }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: {
                matchExpressions: [{ key: "beta.kubernetes.io/instance-type", operator: "In", values: ["m5"] }],
              },
            },
          ],
        },
      },
    },
    [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    ],
  ],
  [
    "a topology spread on a deprecated label, without a label selector",
    {},
    {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: "failure-domain.beta.kubernetes.io/region", whenUnsatisfiable: "DoNotSchedule" },
      ],
    },
    [
      'spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      "spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod",
    ],
  ],
  [
    "pod affinity terms without a label selector",
    {},
    {
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/hostname" }] },
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, podAffinityTerm: { topologyKey: "kubernetes.io/hostname" } },
          ],
        },
      },
    },
    [
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod",
      "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
    ],
  ],
  [
    "annotations that no longer do anything",
    {
      "scheduler.alpha.kubernetes.io/critical-pod": "",
      "security.alpha.kubernetes.io/sysctls": "a=b",
      "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
      "container.seccomp.security.alpha.kubernetes.io/app": "runtime/default",
    },
    {},
    [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/app]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ],
  ],
  [
    "seccomp annotations beside the fields that replaced them",
    {
      "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
      "container.seccomp.security.alpha.kubernetes.io/app": "runtime/default",
    },
    {
      securityContext: { seccompProfile: { type: "RuntimeDefault" } },
      containers: [container({ securityContext: { seccompProfile: { type: "RuntimeDefault" } } })],
    },
    [],
  ],
  [
    "a Pod's AppArmor annotation, which becomes the field on create (applyAppArmorVersionSkew)",
    { "container.apparmor.security.beta.kubernetes.io/app": "runtime/default" },
    {},
    [
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
    ],
  ],
  [
    "a Pod's AppArmor annotation naming the pod's own profile",
    { "container.apparmor.security.beta.kubernetes.io/app": "localhost/web" },
    { securityContext: { appArmorProfile: { type: "Localhost", localhostProfile: "web" } } },
    [],
  ],
  [
    "a Pod's AppArmor annotation beside its container's field",
    { "container.apparmor.security.beta.kubernetes.io/app": "unconfined" },
    { containers: [container({ securityContext: { appArmorProfile: { type: "RuntimeDefault" } } })] },
    [],
  ],
  [
    "a Pod's AppArmor annotation naming no profile, for a container the pod's profile covers",
    { "container.apparmor.security.beta.kubernetes.io/app": "localhost/" },
    { securityContext: { appArmorProfile: { type: "RuntimeDefault" } } },
    [
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
    ],
  ],
  [
    "a Windows Pod's AppArmor annotation",
    { "container.apparmor.security.beta.kubernetes.io/app": "runtime/default" },
    { os: { name: "windows" } },
    [],
  ],
  [
    "deprecated and removed volume plugins",
    {},
    {
      volumes: [
        { name: "a", gitRepo: { repository: "https://example.com/r.git" } },
        { name: "b", storageos: { volumeName: "v" } },
        { name: "c", cephfs: { monitors: ["10.0.0.1:6789"] } },
        { name: "d", rbd: { monitors: ["10.0.0.1:6789"], image: "i" } },
        { name: "e", glusterfs: { endpoints: "e", path: "p" } },
      ],
    },
    [
      "spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+",
      "spec.volumes[1].storageOS: deprecated in v1.22, non-functional in v1.25+",
      "spec.volumes[2].cephfs: deprecated in v1.28, non-functional in v1.31+",
      "spec.volumes[3].rbd: deprecated in v1.28, non-functional in v1.31+",
      "spec.volumes[4].glusterfs: deprecated in v1.25, non-functional in v1.26+",
    ],
  ],
  [
    "a generic ephemeral volume asking for a fraction of a byte",
    {},
    {
      volumes: [
        {
          name: "scratch",
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1.5" } } },
            },
          },
        },
      ],
    },
    [
      'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
    ],
  ],
  [
    "repeated host aliases and image pull secrets, and a nameless pull secret",
    {},
    {
      hostAliases: [
        { ip: "10.0.0.1", hostnames: ["a"] },
        { ip: "10.0.0.1", hostnames: ["b"] },
      ],
      imagePullSecrets: [{ name: "reg" }, { name: "reg" }, {}],
    },
    [
      'spec.hostAliases[1].ip: duplicate ip "10.0.0.1"',
      'spec.imagePullSecrets[1].name: duplicate name "reg"',
      'spec.imagePullSecrets[2].name: invalid empty name ""',
    ],
  ],
  [
    "fractional bytes of memory and ephemeral storage, in canonical form (1.1k is whole)",
    {},
    {
      overhead: { memory: "0.5" },
      initContainers: [container({ name: "init", resources: { requests: { "ephemeral-storage": "1.1k" } } })],
      containers: [container({ resources: { limits: { memory: "100m", cpu: "100m" } } })],
    },
    [
      'spec.overhead[memory]: fractional byte value "500m" is invalid, must be an integer',
      'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer',
    ],
  ],
  [
    "an environment variable defined twice",
    {},
    {
      containers: [
        container({
          env: [
            { name: "A", value: "1" },
            { name: "A", value: "2" },
            { name: "PATH", value: "/bin" },
            { name: "PATH", value: "$(PATH):/usr/bin" },
            { name: "B", value: "x" },
            { name: "B", value: "$(B)" },
          ],
        }),
      ],
    },
    [
      'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
      'spec.containers[0].env[5]: hides previous definition of "B", which may be dropped when using apply',
    ],
  ],
  [
    "a host IP without a host port",
    {},
    { containers: [container({ ports: [{ name: "http", containerPort: 80, hostIP: "10.0.0.1" }] })] },
    [
      "spec.containers[0].ports[0]: hostIP set without hostPort: {Name:http HostPort:0 ContainerPort:80 Protocol:TCP HostIP:10.0.0.1}",
    ],
  ],
  [
    "a negative grace period",
    {},
    { terminationGracePeriodSeconds: -1 },
    ["spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"],
  ],
];

describe("the warnings the API server sends with a Pod (pkg/api/pod/warnings.go)", () => {
  it.each(podCases)("%s", (_, annotations, spec, expected) => {
    const object = pod(spec);
    (object.metadata as JsonObject).annotations = annotations;
    expect(warnings("v1", "Pod", object)).toEqual(expected.map((m) => `warning ${m}`).sort());
  });

  it("a fractional byte count rounds up before it is judged (Quantity.MilliValue)", () => {
    const object = pod({ containers: [container({ resources: { requests: { memory: "1.0001" } } })] });
    expect(warnings("v1", "Pod", object)).toEqual([
      'warning spec.containers[0].resources.requests[memory]: fractional byte value "1000100u" is invalid, must be an integer',
    ]);
  });
});

const volumePathCases: [string, JsonObject[], string[]][] = [
  [
    "a ConfigMap's keys into one file",
    [
      {
        name: "cfg",
        configMap: {
          name: "c",
          items: [
            { key: "a", path: "x" },
            { key: "b", path: "x" },
          ],
        },
      },
    ],
    ['volume "cfg" (ConfigMap "c"): overlapping paths: "x" with "x"'],
  ],
  [
    "a Secret's key into a directory another key is a file of",
    [
      {
        name: "s",
        secret: {
          secretName: "top",
          items: [
            { key: "a", path: "test" },
            { key: "b", path: "test/app/" },
          ],
        },
      },
    ],
    ['volume "s" (Secret "top"): overlapping paths: "test/app" with "test"'],
  ],
  [
    "paths that only share a prefix of letters (1.32's comparison flagged them, 1.33's does not)",
    [
      {
        name: "d",
        downwardAPI: {
          items: [
            { path: "app", fieldRef: { fieldPath: "metadata.name" } },
            { path: "application", fieldRef: { fieldPath: "metadata.uid" } },
          ],
        },
      },
    ],
    [],
  ],
  [
    "a projected token over a projected ConfigMap's file",
    [
      {
        name: "p",
        projected: {
          sources: [
            { configMap: { name: "c", items: [{ key: "k", path: "token" }] } },
            { serviceAccountToken: { path: "token" } },
          ],
        },
      },
    ],
    ['volume "p" (Projected): overlapping paths: "token" (ServiceAccountToken) with "token" (ConfigMap "c")'],
  ],
  [
    "an empty projection",
    [{ name: "p", projected: { sources: [{}] } }],
    ['volume "p" (Projected) has no sources provided'],
  ],
  [
    "distinct paths",
    [
      {
        name: "cfg",
        configMap: {
          name: "c",
          items: [
            { key: "a", path: "x/a" },
            { key: "b", path: "x/b" },
          ],
        },
      },
    ],
    [],
  ],
];

describe("overlapping paths in one volume (warningsForOverlappingVirtualPaths)", () => {
  it.each(volumePathCases)("%s", (_, volumes, expected) => {
    const object = deployment({ selector: { matchLabels: { app: "web" } }, template: template({ volumes }) });
    expect(warnings("apps/v1", "Deployment", object)).toEqual(expected.map((m) => `warning ${m}`));
  });
});

describe("warnings on templates, claims and claim templates", () => {
  it("a template's are at its path, AppArmor annotations included (GetWarningsForPodTemplate)", () => {
    const t = template({ nodeSelector: { "beta.kubernetes.io/arch": "amd64" } });
    (t.metadata as JsonObject).annotations = {
      "container.apparmor.security.beta.kubernetes.io/app": "runtime/default",
    };
    const cronJob = {
      apiVersion: "batch/v1",
      kind: "CronJob",
      metadata: { name: "c" },
      spec: {
        schedule: "* * * * *",
        jobTemplate: { spec: { template: { ...t, spec: { ...(t.spec as JsonObject), restartPolicy: "Never" } } } },
      },
    };
    expect(warnings("batch/v1", "CronJob", cronJob)).toEqual([
      'warning spec.jobTemplate.spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
      'warning spec.jobTemplate.spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
    ]);
  });

  it("a claim with the beta storage class annotation and a fractional size", () => {
    const claim = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "data", annotations: { "volume.beta.kubernetes.io/storage-class": "fast" } },
      spec: {
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: "1.5Gi" }, limits: { storage: "0.1" } },
      },
    };
    expect(warnings("v1", "PersistentVolumeClaim", claim)).toEqual([
      'warning metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
      'warning spec.resources.limits[storage]: fractional byte value "100m" is invalid, must be an integer',
    ]);
  });

  it("a StatefulSet's claim templates", () => {
    const set = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "db" },
      spec: {
        selector: { matchLabels: { app: "web" } },
        serviceName: "db",
        template: template(),
        volumeClaimTemplates: [
          {
            metadata: { name: "data" },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "0.5" } } },
          },
        ],
      },
    };
    expect(warnings("apps/v1", "StatefulSet", set)).toEqual([
      'warning spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "500m" is invalid, must be an integer',
    ]);
  });
});

describe("a workload's name that is no DNS label (each strategy's WarningsOnCreate)", () => {
  it("a Pod's is its hostname", () => {
    const object = pod({});
    (object.metadata as JsonObject).name = "web.v1";
    expect(warnings("v1", "Pod", object)).toEqual([
      "warning metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
  });

  it("a Deployment's starts its pods' names; a DaemonSet's and a ConfigMap's do not warn", () => {
    const object = deployment();
    (object.metadata as JsonObject).name = "manage-v1.1";
    expect(warnings("apps/v1", "Deployment", object)).toEqual([
      "warning metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
    expect(warnings("apps/v1", "DaemonSet", { ...object, kind: "DaemonSet" })).toEqual([]);
    expect(warnings("v1", "ConfigMap", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a.b" } })).toEqual([]);
  });
});

const service = (spec: JsonObject, annotations: JsonObject = {}): JsonObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", annotations },
  spec: { ports: [{ port: 80 }], ...spec },
});

const serviceCases: [string, JsonObject, number, string[]][] = [
  ["a plain Service", service({ selector: { app: "web" } }), 36, []],
  [
    "the topology-aware-hints annotation",
    service({}, { "service.kubernetes.io/topology-aware-hints": "auto" }),
    32,
    [
      "annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead",
    ],
  ],
  [
    "a headless Service's ignored fields, from 1.34",
    service({ clusterIP: "None", loadBalancerIP: "10.0.0.9", sessionAffinity: "ClientIP" }),
    34,
    ["spec.loadBalancerIP is ignored for headless services", "spec.SessionAffinity is ignored for headless services"],
  ],
  ["a headless Service in 1.33", service({ clusterIP: "None", loadBalancerIP: "10.0.0.9" }), 33, []],
  [
    "externalIPs, deprecated in 1.36",
    service({ externalIPs: ["192.0.2.10"] }),
    36,
    ["spec.externalIPs is deprecated and may no longer be implemented in some clusters"],
  ],
  ["externalIPs in 1.35", service({ externalIPs: ["192.0.2.10"] }), 35, []],
  [
    "an ExternalName Service with external IPs",
    service({ type: "ExternalName", externalName: "db.example.com", externalIPs: ["192.0.2.10"] }),
    36,
    ['spec.externalIPs is ignored when spec.type is "ExternalName"'],
  ],
  [
    "an external name on a ClusterIP Service",
    service({ externalName: "db.example.com" }),
    32,
    ['spec.externalName is ignored when spec.type is not "ExternalName"'],
  ],
  [
    "PreferClose, deprecated in 1.35",
    service({ trafficDistribution: "PreferClose" }),
    35,
    ['spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"'],
  ],
];

describe("a Service's warnings (pkg/api/service/warnings.go), by release", () => {
  it.each(serviceCases)("%s (1.%s)", (_, object, minor, expected) => {
    const got = said("v1", "Service", object, minor).filter((m) => m.startsWith("warning "));
    expect(got).toEqual(expected.map((m) => `warning ${m}`).sort());
  });
});

describe("a Service's addresses, strict from 1.36 (StrictIPCIDRValidation), warned about before", () => {
  const object = service({
    type: "LoadBalancer",
    clusterIP: "10.96.0.010",
    externalIPs: ["2001:DB8::1"],
    loadBalancerSourceRanges: ["10.0.0.1/8"],
  });
  const later = "will be considered invalid in a future Kubernetes release";

  it("1.36 refuses the non-standard forms and warns about the non-canonical one", () => {
    expect(said("v1", "Service", object, 36)).toEqual(
      [
        'spec.clusterIPs[0]: Invalid value: "10.96.0.010": must not have leading 0s',
        'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
        'warning spec.externalIPs[0]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")',
        "warning spec.externalIPs is deprecated and may no longer be implemented in some clusters",
      ].sort(),
    );
  });

  it("1.33 to 1.35 accept them and warn in apimachinery's words", () => {
    expect(said("v1", "Service", object, 35)).toEqual(
      [
        `warning spec.clusterIPs[0]: non-standard IP address "10.96.0.010" ${later}: use "10.96.0.10"`,
        'warning spec.externalIPs[0]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")',
        'warning spec.loadBalancerSourceRanges[0]: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      ].sort(),
    );
  });

  it("1.32 warns in the Service's own words", () => {
    expect(said("v1", "Service", object, 32)).toEqual(
      [
        'warning spec.clusterIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("10.96.0.010"): IPv4 field has octet with leading zero',
        'warning spec.externalIPs[0]: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops',
      ].sort(),
    );
  });

  it("a NetworkPolicy's CIDRs are strict from 1.36 only", () => {
    const policy = {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "n" },
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.1/8" } }] }] },
    };
    expect(said("networking.k8s.io/v1", "NetworkPolicy", policy, 36)).toEqual([
      'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
    ]);
    // before, the server accepts it and warns (network-warnings.ts)
    expect(said("networking.k8s.io/v1", "NetworkPolicy", policy, 35)).toEqual([
      'warning spec.ingress[0].from[0].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
    ]);
  });
});

describe("a Job too large to track (pkg/api/job/warnings.go)", () => {
  const job = (spec: JsonObject) => ({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "big" },
    spec: { template: { spec: { containers: [container()], restartPolicy: "Never" } }, ...spec },
  });
  const text =
    "warning spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail";

  it("warns for an Indexed Job past both limits", () => {
    expect(
      warnings("batch/v1", "Job", job({ completionMode: "Indexed", completions: 100_001, parallelism: 10_001 })),
    ).toEqual([text]);
  });

  it("not at the limits, without parallelism (1) or not Indexed", () => {
    const specs: JsonObject[] = [
      { completionMode: "Indexed", completions: 100_000, parallelism: 10_001 },
      { completionMode: "Indexed", completions: 100_001 },
      { completions: 100_001, parallelism: 10_001 },
    ];
    for (const spec of specs) expect(warnings("batch/v1", "Job", job(spec))).toEqual([]);
  });
});

describe("an Ingress's class annotation", () => {
  it("is deprecated for spec.ingressClassName", () => {
    const ingress = {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: "web", annotations: { "kubernetes.io/ingress.class": "nginx" } },
      spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
    };
    expect(warnings("networking.k8s.io/v1", "Ingress", ingress)).toEqual([
      `warning annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`,
    ]);
  });
});

/** The warnings as the server orders them (said sorts): `warningsFor`'s own order. */
const inOrder = (object: JsonObject, minor = 36) =>
  warningsFor(object.apiVersion as string, object.kind as string, object, minor).map((f) => f.message);

describe("warnings by release (pkg/api/pod/warnings.go as it changed in 1.33)", () => {
  const volumes = (vs: JsonObject[]) => pod({ volumes: vs });

  it("gitRepo: disabled by default from 1.33 (KEP-5040, kubernetes#129923)", () => {
    const object = volumes([{ name: "a", gitRepo: { repository: "https://example.com/r.git" } }]);
    expect(inOrder(object, 32)).toEqual(["spec.volumes[0].gitRepo: deprecated in v1.11"]);
    expect(inOrder(object, 33)).toEqual([
      "spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+",
    ]);
  });

  it("overlapping paths: 1.32's first collision, then from 1.33 each collision with its source (kubernetes#121968)", () => {
    const projected = volumes([
      {
        name: "foo",
        projected: {
          sources: [
            { clusterTrustBundle: { name: "Test", path: "test/test" } },
            { downwardAPI: { items: [{ path: "test", fieldRef: { fieldPath: "metadata.name" } }] } },
            { secret: { name: "Test", items: [{ key: "k", path: "test" }] } },
            { serviceAccountToken: { path: "test" } },
          ],
        },
      },
    ]);
    // warnings_test.go "overlapping paths in projected volume - multiple sources"
    expect(inOrder(projected, 33)).toEqual(
      [
        '"test" (DownwardAPI) with "test/test" (ClusterTrustBundle "Test")',
        '"test" (Secret "Test") with "test/test" (ClusterTrustBundle "Test")',
        '"test" (Secret "Test") with "test" (DownwardAPI)',
        '"test" (ServiceAccountToken) with "test/test" (ClusterTrustBundle "Test")',
        '"test" (ServiceAccountToken) with "test" (DownwardAPI)',
        '"test" (ServiceAccountToken) with "test" (Secret "Test")',
      ].map((body) => `volume "foo" (Projected): overlapping paths: ${body}`),
    );
    // warnings_test.go "ServiceAccount vs. DownwardAPI": a duplicate within one source, too
    const withinOne = volumes([
      {
        name: "foo",
        projected: {
          sources: [
            { serviceAccountToken: { path: "test/test2" } },
            {
              downwardAPI: {
                items: [
                  { path: "test", fieldRef: { fieldPath: "metadata.name" } },
                  { path: "test", fieldRef: { fieldPath: "metadata.uid" } },
                ],
              },
            },
          ],
        },
      },
    ]);
    expect(inOrder(withinOne, 36)).toEqual(
      [
        '"test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
        '"test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
        '"test" (DownwardAPI) with "test" (DownwardAPI)',
      ].map((body) => `volume "foo" (Projected): overlapping paths: ${body}`),
    );
    // a plain volume: every earlier path it collides with, and a shared prefix of letters is no collision
    const plain = volumes([
      {
        name: "Test",
        configMap: {
          name: "foo",
          items: [
            { key: "a", path: "test" },
            { key: "b", path: "test/app" },
            { key: "c", path: "testing" },
            { key: "d", path: "test" },
          ],
        },
      },
    ]);
    expect(inOrder(plain, 33)).toEqual([
      'volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"',
      'volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test"',
      'volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test/app"',
    ]);
    expect(inOrder(plain, 32)).toEqual([
      'volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"',
      'volume "Test" (ConfigMap "foo"): overlapping paths: "testing" with "test"',
      'volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test"',
    ]);
  });

  it("a port name used twice in the pod, from 1.33 (kubernetes#122170; warnings_test.go's cases)", () => {
    const twoContainers = pod({
      containers: [
        container({ name: "foo1", ports: [{ containerPort: 80, protocol: "UDP", name: "test" }] }),
        container({ name: "foo", ports: [{ containerPort: 8090, protocol: "TCP", name: "test" }] }),
      ],
    });
    const text = (at: string, other: string) =>
      `${at}: duplicate port name "test" with ${other}, services and probes that select ports by name will use ${other}`;
    expect(inOrder(twoContainers, 33)).toEqual([text("spec.containers[1].ports[0]", "spec.containers[0].ports[0]")]);
    expect(inOrder(twoContainers, 32)).toEqual([]);
    // init containers come first, sidecars or not; an unnamed port is no name
    const initFirst = pod({
      initContainers: [
        container({ name: "init", restartPolicy: "Always", ports: [{ containerPort: 80, name: "test" }] }),
      ],
      containers: [
        container({
          ports: [
            { containerPort: 8090, name: "test" },
            { containerPort: 8091, name: "" },
            { containerPort: 8092, name: "" },
          ],
        }),
      ],
    });
    expect(inOrder(initFirst)).toEqual([text("spec.containers[0].ports[0]", "spec.initContainers[0].ports[0]")]);
  });

  it("the forms of DNS nameservers and host alias addresses, from 1.33 (warnings_test.go 'dubious IP address formats')", () => {
    const object = pod({
      dnsConfig: { nameservers: ["1.2.3.4", "05.06.07.08"] },
      hostAliases: [{ ip: "::ffff:1.2.3.4", hostnames: ["a.example.com"] }],
    });
    expect(inOrder(object, 35)).toEqual([
      'spec.dnsConfig.nameservers[1]: non-standard IP address "05.06.07.08" will be considered invalid in a future Kubernetes release: use "5.6.7.8"',
      'spec.hostAliases[0].ip: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
    ]);
    expect(inOrder(object, 32)).toEqual([]);
    // from 1.36 the strict validation refuses both: only an IPv6 address's canonical form is warned about
    expect(inOrder(object, 36)).toEqual([]);
    expect(inOrder(pod({ dnsConfig: { nameservers: ["2001:DB8::1"] } }), 36)).toEqual([
      'spec.dnsConfig.nameservers[0]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")',
    ]);
  });
});

describe("kinds' own warnings (their strategies' WarningsOnCreate)", () => {
  it("a StatefulSet's template first, then its claim templates, then from 1.33 a negative history limit", () => {
    const object = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "db" },
      spec: {
        serviceName: "db",
        selector: { matchLabels: { app: "web" } },
        template: template({ nodeSelector: { "beta.kubernetes.io/os": "linux" } }),
        volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { resources: { requests: { storage: "1.5" } } } }],
        revisionHistoryLimit: -1,
      },
    };
    const before = [
      'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
    ];
    expect(inOrder(object, 32)).toEqual(before);
    expect(inOrder(object, 33)).toEqual([
      ...before,
      "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended",
    ]);
  });

  it("a ServiceAccount's enforce-mountable-secrets annotation, whatever its value (kubernetes#128396)", () => {
    const account = (annotations: JsonObject) => ({
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "sa", annotations },
    });
    expect(inOrder(account({ "kubernetes.io/enforce-mountable-secrets": "false" }), 32)).toEqual([
      "metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets",
    ]);
    expect(inOrder(account({ "kubernetes.io/other": "true" }))).toEqual([]);
  });

  it("an Ingress's class annotation, only while spec.ingressClassName is unset", () => {
    const ingress = (spec: JsonObject) => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: "i", annotations: { "kubernetes.io/ingress.class": "nginx" } },
      spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } }, ...spec },
    });
    expect(inOrder(ingress({}))).toEqual([
      `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`,
    ]);
    expect(inOrder(ingress({ ingressClassName: "nginx" }))).toEqual([]);
  });

  it("a Pod's AppArmor annotation comes before the strategy's own warnings (PrepareForCreate)", () => {
    const object = pod({});
    (object.metadata as JsonObject).name = "Web_1";
    (object.metadata as JsonObject).annotations = { "container.apparmor.security.beta.kubernetes.io/app": "nope" };
    expect(inOrder(object).map((m) => m.slice(0, 40))).toEqual([
      "metadata.annotations[container.apparmor.",
      "metadata.name: this is used in the Pod's",
    ]);
  });
});

describe("a TLS Secret whose certificate and key Go does not load (pkg/registry/core/secret/strategy.go warningsForSecret)", () => {
  const fixture = (name: string) =>
    readFileSync(join(import.meta.dirname, "..", "..", "go", "testdata", "tls", name), "utf8");
  const secret = (fields: JsonObject) => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "tls" },
    type: "kubernetes.io/tls",
    ...fields,
  });
  const base64 = (text: string) => btoa(text);

  it("a matching pair, in data or stringData, gives nothing", () => {
    const [cert, key] = [fixture("p256-cert.pem"), fixture("p256-key-sec1.pem")];
    expect(inOrder(secret({ data: { "tls.crt": base64(cert), "tls.key": base64(key) } }))).toEqual([]);
    expect(inOrder(secret({ stringData: { "tls.crt": cert, "tls.key": key } }))).toEqual([]);
  });

  it("the placeholders charts ship, and a key of another certificate, in Go's words without a field path", () => {
    expect(inOrder(secret({ data: { "tls.crt": "", "tls.key": "" } }))).toEqual([
      "tls: failed to find any PEM data in certificate input",
    ]);
    const other = secret({
      stringData: { "tls.crt": fixture("rsa-cert.pem"), "tls.key": fixture("rsa-other-key.pem") },
    });
    expect(inOrder(other)).toEqual(["tls: private key does not match public key"]);
    // stringData wins over data, as conversion merges them
    const merged = secret({
      data: { "tls.crt": base64(fixture("rsa-cert.pem")), "tls.key": base64(fixture("rsa-key-pkcs8.pem")) },
      stringData: { "tls.key": fixture("p256-key-pkcs8.pem") },
    });
    expect(inOrder(merged)).toEqual(["tls: private key type does not match public key type"]);
  });

  it("nothing to add where the validation refuses a missing key, nor for another type of Secret", () => {
    expect(inOrder(secret({ data: { "tls.crt": "" } }))).toEqual([]);
    expect(inOrder({ ...secret({ data: { "tls.crt": "", "tls.key": "" } }), type: "Opaque" })).toEqual([]);
  });
});
