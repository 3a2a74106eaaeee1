/**
 * Pod specs, word for word: pkg/apis/core/validation/validation.go
 * (ValidatePodSpec, ValidateVolumes, validateContainers,
 * validateInitContainers, validateContainerCommon, validateContainerPorts,
 * ValidateVolumeMounts, validateResourceRequirements,
 * validateLivenessProbe/validateStartupProbe/validateReadinessProbe,
 * validateHandler, AccumulateUniqueHostPorts, validatePodHostNetworkDeps),
 * ValidatePodCreate and ValidatePodTemplateSpec's ephemeral containers rules,
 * and the port warnings of pkg/api/pod/warnings.go (warningsForPodSpecAndMeta).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import {
  container,
  deployment,
  pod,
  qualifiedNamePartError as qualifiedNamePart,
  dns1123LabelError as rfc1123Label,
  said,
  dns1123SubdomainError as subdomain,
  template,
} from "./test-helpers.js";

const podSays = (spec: JsonObject) => said("v1", "Pod", pod(spec));

const cases: [string, JsonObject, string[]][] = [
  ["a valid pod", {}, []],
  ["an empty container list", { containers: [] }, ["spec.containers: Required value"]],
  ["a container without an image", { containers: [{ name: "app" }] }, ["spec.containers[0].image: Required value"]],
  ["an empty image", { containers: [container({ image: "" })] }, ["spec.containers[0].image: Required value"]],
  ["an empty container name", { containers: [container({ name: "" })] }, ["spec.containers[0].name: Required value"]],
  [
    "a container name that is no DNS label",
    { containers: [container({ name: "My_App" })] },
    [`spec.containers[0].name: Invalid value: "My_App": ${rfc1123Label}`],
  ],
  [
    "two containers of the same name",
    { containers: [container(), container()] },
    ['spec.containers[1].name: Duplicate value: "app"'],
  ],
  [
    "an init container named as a container",
    { initContainers: [container()] },
    ['spec.initContainers[0].name: Duplicate value: "app"'],
  ],
  [
    "a probe on an init container that is no sidecar",
    { initContainers: [container({ name: "init", livenessProbe: { exec: { command: ["true"] } } })] },
    [
      "spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
    ],
  ],
  [
    "a restartPolicy on a regular container, allowed from 1.35 (ContainerRestartRules; restart-rules.ts)",
    { containers: [container({ restartPolicy: "Always" })] },
    [],
  ],
  [
    "a container port out of range",
    { containers: [container({ ports: [{ containerPort: 70000 }] })] },
    ["spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"],
  ],
  [
    "a container port of 0",
    { containers: [container({ ports: [{ containerPort: 0 }] })] },
    ["spec.containers[0].ports[0].containerPort: Required value"],
  ],
  [
    "a host port out of range",
    { containers: [container({ ports: [{ containerPort: 80, hostPort: -1 }] })] },
    ["spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"],
  ],
  [
    "a port name too long and with capitals",
    { containers: [container({ ports: [{ containerPort: 80, name: "Http-Port-Number-1" }] })] },
    [
      'spec.containers[0].ports[0].name: Invalid value: "Http-Port-Number-1": must be no more than 15 characters',
      'spec.containers[0].ports[0].name: Invalid value: "Http-Port-Number-1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ],
  ],
  [
    "two ports of the same name",
    {
      containers: [
        container({
          ports: [
            { containerPort: 80, name: "http" },
            { containerPort: 81, name: "http" },
          ],
        }),
      ],
    },
    [
      'spec.containers[0].ports[1].name: Duplicate value: "http"',
      // kunion shows the warnings beside the errors (warnings.ts, portNameWarnings)
      'warning spec.containers[0].ports[1]: duplicate port name "http" with spec.containers[0].ports[0], services and probes that select ports by name will use spec.containers[0].ports[0]',
    ],
  ],
  [
    "the same host port twice",
    {
      containers: [
        container({ ports: [{ containerPort: 80, hostPort: 8080 }] }),
        container({ name: "b", ports: [{ containerPort: 81, hostPort: 8080 }] }),
      ],
    },
    ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
  ],
  [
    "a host port other than the container port on the host network",
    { hostNetwork: true, containers: [container({ ports: [{ containerPort: 80, hostPort: 8080 }] })] },
    [
      "spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true",
    ],
  ],
  [
    "the same container port twice (a warning, as the API server gives)",
    {
      containers: [
        container({ ports: [{ containerPort: 80 }] }),
        container({ name: "b", ports: [{ containerPort: 80 }] }),
      ],
    },
    ["warning spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]"],
  ],
  [
    "an init container's port reused by a container (init containers come first)",
    {
      initContainers: [container({ name: "init", ports: [{ containerPort: 80, protocol: "UDP" }] })],
      containers: [container({ ports: [{ containerPort: 80, protocol: "UDP", hostPort: 80 }] })],
    },
    ["warning spec.containers[0].ports[0]: overlapping port definition with spec.initContainers[0].ports[0]"],
  ],
  [
    "a mount of an undeclared volume",
    { containers: [container({ volumeMounts: [{ name: "data", mountPath: "/data" }] })] },
    ['spec.containers[0].volumeMounts[0].name: Not found: "data"'],
  ],
  [
    "the same mount path twice",
    {
      volumes: [{ name: "a", emptyDir: {} }],
      containers: [
        container({
          volumeMounts: [
            { name: "a", mountPath: "/data" },
            { name: "a", mountPath: "/data" },
          ],
        }),
      ],
    },
    ['spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique'],
  ],
  [
    "subPath and subPathExpr together",
    {
      volumes: [{ name: "a", emptyDir: {} }],
      containers: [container({ volumeMounts: [{ name: "a", mountPath: "/d", subPath: "x", subPathExpr: "$(POD)" }] })],
    },
    [
      'spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: "$(POD)": subPathExpr and subPath are mutually exclusive',
    ],
  ],
  [
    "two volumes of the same name, one badly named",
    {
      volumes: [
        { name: "data", emptyDir: {} },
        { name: "data", emptyDir: {} },
        { name: "Data", emptyDir: {} },
      ],
    },
    ['spec.volumes[1].name: Duplicate value: "data"', `spec.volumes[2].name: Invalid value: "Data": ${rfc1123Label}`],
  ],
  [
    "a mount of a volume whose name is invalid",
    {
      volumes: [{ name: "Data", emptyDir: {} }],
      containers: [container({ volumeMounts: [{ name: "Data", mountPath: "/d" }] })],
    },
    [
      `spec.volumes[0].name: Invalid value: "Data": ${rfc1123Label}`,
      'spec.containers[0].volumeMounts[0].name: Not found: "Data"',
    ].sort(),
  ],
  [
    "a request above its limit, printed canonically",
    {
      containers: [
        container({
          resources: { requests: { cpu: "1.5", memory: "1Gi" }, limits: { cpu: "1000m", memory: "1024Mi" } },
        }),
      ],
    },
    ['spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1'],
  ],
  [
    "a negative request",
    { containers: [container({ resources: { requests: { memory: "-1Mi" } } })] },
    ['spec.containers[0].resources.requests[memory]: Invalid value: "-1Mi": must be greater than or equal to 0'],
  ],
  [
    "a resource that is not a container resource",
    { containers: [container({ resources: { limits: { gpu: "1" } } })] },
    [
      'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    ],
  ],
  [
    "an extended resource requested but not limited, and fractional",
    { containers: [container({ resources: { requests: { "example.com/gpu": "0.5" } } })] },
    [
      "spec.containers[0].resources.requests[example.com/gpu]: Invalid value: 500m: must be an integer",
      "spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources",
    ].sort(),
  ],
  [
    "an extended resource whose request differs from its limit",
    {
      containers: [
        container({ resources: { requests: { "example.com/gpu": "1" }, limits: { "example.com/gpu": "2" } } }),
      ],
    },
    ['spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2'],
  ],
  [
    "huge pages without cpu or memory",
    { containers: [container({ resources: { limits: { "hugepages-2Mi": "100Mi" } } })] },
    ["spec.containers[0].resources: Forbidden: HugePages require cpu or memory"],
  ],
  [
    "a liveness probe with a success threshold other than 1",
    { containers: [container({ livenessProbe: { exec: { command: ["true"] }, successThreshold: 2 } })] },
    ["spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"],
  ],
  [
    "a probe's port out of range and a negative period",
    { containers: [container({ readinessProbe: { httpGet: { port: 0, path: "/" }, periodSeconds: -1 } })] },
    [
      "spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
      "spec.containers[0].readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0",
    ],
  ],
  [
    "a probe's named port that is no port name",
    { containers: [container({ startupProbe: { tcpSocket: { port: "8080" } } })] },
    ['spec.containers[0].startupProbe.tcpSocket.port: Invalid value: "8080": must contain at least one letter (a-z)'],
  ],
  [
    "a readiness probe with a termination grace period",
    { containers: [container({ readinessProbe: { exec: { command: ["x"] }, terminationGracePeriodSeconds: 5 } })] },
    [
      "spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes",
    ],
  ],
  [
    "a DNS config and host aliases kubectl apply refuses (pod-dns.ts)",
    {
      dnsPolicy: "None",
      dnsConfig: { nameservers: ["not-an-ip", "1.2.3.4", "1.1.1.1", "8.8.8.8"], searches: ["Bad_Domain"] },
      hostAliases: [{ ip: "nope", hostnames: ["Bad_Host"] }],
    },
    [
      'spec.dnsConfig.nameservers: Invalid value: []string{"not-an-ip", "1.2.3.4", "1.1.1.1", "8.8.8.8"}: must not have more than 3 nameservers',
      'spec.dnsConfig.nameservers[0]: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      "spec.dnsConfig.searches[0]: Invalid value: \"Bad_Domain\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')",
      "spec.hostAliases[0].hostnames[0]: Invalid value: \"Bad_Host\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.hostAliases[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ],
  ],
  [
    "a DNS config of valid nameservers and searches, and host aliases",
    {
      dnsPolicy: "None",
      dnsConfig: {
        nameservers: ["10.0.0.10"],
        searches: ["svc.cluster.local.", "_srv.example.com"],
        options: [{ name: "ndots", value: "2" }],
      },
      hostAliases: [{ ip: "127.0.0.1", hostnames: ["foo.local", "bar.local"] }],
    },
    [],
  ],
  [
    "an activeDeadlineSeconds of 0",
    { activeDeadlineSeconds: 0 },
    ["spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"],
  ],
];

describe("pod spec rules (core ValidatePodSpec)", () => {
  it.each(cases)("%s", (_, spec, expected) => {
    expect(podSays(spec)).toEqual([...expected].sort());
  });

  it("readiness and scheduling gates, the runtime class, the preemption policy and overhead (pod-fields.ts)", () => {
    const gated = pod({
      readinessGates: [{ conditionType: "bad type!" }],
      schedulingGates: [{ name: "example.com/gate" }, { name: "example.com/gate" }],
    });
    expect(said("v1", "Pod", gated)).toEqual([
      `spec.readinessGates[0].conditionType: Invalid value: "bad type!": ${qualifiedNamePart}`,
      'spec.schedulingGates[1]: Duplicate value: "example.com/gate"',
    ]);
    const classed = deployment({
      template: template({
        runtimeClassName: "Bad_Name",
        preemptionPolicy: "preemptLowerPriority",
        overhead: { cpu: "-1" },
      }),
    });
    expect(said("apps/v1", "Deployment", classed)).toEqual(
      [
        `spec.template.spec.runtimeClassName: Invalid value: "Bad_Name": ${subdomain}`,
        'spec.template.spec.preemptionPolicy: Unsupported value: "preemptLowerPriority": supported values: "PreemptLowerPriority", "Never"',
        'spec.template.spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      ].sort(),
    );
  });

  it("a user namespace with the host's namespaces, from 1.33 (validateHostUsers)", () => {
    const shared = pod({ hostUsers: false, hostNetwork: true, hostPID: true });
    expect(said("v1", "Pod", shared)).toEqual([
      "spec.HostPID: Forbidden: when `hostUsers` is false",
      "spec.hostNetwork: Forbidden: when `hostUsers` is false",
    ]);
    expect(said("v1", "Pod", shared, 32)).toEqual([]);
  });

  it("a header name in an HTTP probe (validateHTTPGetAction)", () => {
    const probed = pod({
      containers: [
        container({ livenessProbe: { httpGet: { port: 8080, httpHeaders: [{ name: "bad header", value: "x" }] } } }),
      ],
    });
    expect(said("v1", "Pod", probed)).toEqual([
      "spec.containers[0].livenessProbe.httpGet.httpHeaders: Invalid value: \"bad header\": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
    ]);
  });

  it("a restartPolicy on a regular container before 1.34 (validateContainers)", () => {
    expect(said("v1", "Pod", pod({ containers: [container({ restartPolicy: "Always" })] }), 33)).toEqual([
      "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers",
    ]);
  });

  it("a template with dnsPolicy None needs its dnsConfig (validatePodDNSConfig)", () => {
    const bad = deployment({ template: template({ dnsPolicy: "None" }) });
    expect(said("apps/v1", "Deployment", bad)).toEqual([
      "spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None",
    ]);
  });

  it("applies the pod spec rules at a workload's template path", () => {
    const bad = deployment({ template: template({ containers: [{ name: "web" }] }) });
    expect(said("apps/v1", "Deployment", bad)).toEqual(["spec.template.spec.containers[0].image: Required value"]);
  });

  it("warns of duplicate ports but does not fail the object", () => {
    const spec = { containers: [container({ ports: [{ containerPort: 80 }, { containerPort: 80 }] })] };
    const severities = podSays(spec).map((m) => m.split(" ")[0]);
    expect(severities).toEqual(["warning"]);
  });

  it("refuses ephemeral containers on create, and a node while scheduling gates remain (ValidatePodCreate)", () => {
    const debug = { name: "debug", image: "busybox" };
    expect(podSays({ ephemeralContainers: [debug] })).toEqual([
      "spec.ephemeralContainers: Forbidden: cannot be set on create",
    ]);
    expect(podSays({ nodeName: "node-1", schedulingGates: [{ name: "example.com/quota" }] })).toEqual([
      "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
    ]);
    expect(podSays({ nodeName: "node-1", schedulingGates: [] })).toEqual([]);
  });

  it("refuses ephemeral containers in a template (ValidatePodTemplateSpec)", () => {
    const debug = { name: "debug", image: "busybox" };
    const bad = deployment({ template: template({ ephemeralContainers: [debug] }) });
    expect(said("apps/v1", "Deployment", bad)).toEqual([
      "spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template",
    ]);
  });

  it("checks the operating system's rules in a workload's template (validateOS, validateWindows)", () => {
    const bad = deployment({
      template: template({ os: { name: "windows" }, securityContext: { seccompProfile: { type: "RuntimeDefault" } } }),
    });
    expect(said("apps/v1", "Deployment", bad)).toEqual([
      "spec.template.spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod",
    ]);
  });
});
