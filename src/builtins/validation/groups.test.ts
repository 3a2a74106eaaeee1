/**
 * Services, ConfigMaps and Secrets (pkg/apis/core/validation/validation.go:
 * ValidateService, validateServicePort, ValidateServiceClusterIPsRelatedFields,
 * ValidateEndpointIP, IsValidIPForLegacyField, IsValidCIDRForLegacyField,
 * ValidateConfigMap, ValidateSecret), Ingress and NetworkPolicy
 * (pkg/apis/networking/validation/validation.go: ValidateIngressCreate,
 * ValidateIngressSpec, validateIngressRules, validateHTTPIngressPath,
 * validateIngressBackend, validateIngressTypedLocalObjectReference,
 * validateIngressTLS, ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer,
 * ValidateIPBlock), CronJob time zones (pkg/apis/batch/validation/validation.go
 * validateTimeZone over Go's time.LoadLocation), HPA
 * (pkg/apis/autoscaling/validation/validation.go:
 * validateHorizontalPodAutoscalerSpec, validateMetricSpec, validateMetricTarget,
 * validateScalingRules), PDB (pkg/apis/policy/validation/validation.go
 * ValidatePodDisruptionBudgetSpec) and RBAC (pkg/apis/rbac/validation/validation.go
 * ValidatePolicyRule, ValidateClusterRole, ValidateRoleBinding,
 * ValidateRoleBindingSubject), word for word, with 1.36's defaults
 * (StrictIPCIDRValidation and RelaxedServiceNameValidation on).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { container, said, dns1123SubdomainError as subdomainError } from "./test-helpers.js";

type Case = [string, JsonObject, string[]];
const run = (apiVersion: string, kind: string, build: (o: JsonObject) => JsonObject, cases: Case[]) =>
  it.each(cases)("%s", (_, patch, expected) => {
    expect(said(apiVersion, kind, build(patch))).toEqual([...expected].sort());
  });

describe("Services (ValidateService)", () => {
  const service = (spec: JsonObject) => ({ metadata: { name: "web" }, spec: { ports: [{ port: 80 }], ...spec } });
  run("v1", "Service", service, [
    ["a valid service", {}, []],
    ["no ports", { ports: [] }, ["spec.ports: Required value"]],
    ["a headless service without ports", { ports: [], clusterIP: "None" }, []],
    [
      "two ports, one unnamed",
      { ports: [{ port: 80, name: "http" }, { port: 443 }] },
      ["spec.ports[1].name: Required value"],
    ],
    [
      "two ports of the same name and number",
      {
        ports: [
          { port: 80, name: "http" },
          { port: 80, name: "http" },
        ],
      },
      ['spec.ports[1].name: Duplicate value: "http"', 'spec.ports[1]: Duplicate value: {"protocol":"TCP","port":80}'],
    ],
    [
      "a port out of range, which the target port defaults to",
      { ports: [{ port: 70000 }] },
      [
        "spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
        "spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
      ],
    ],
    [
      "a target port name that is no port name",
      { ports: [{ port: 80, targetPort: "web_port" }] },
      [
        'spec.ports[0].targetPort: Invalid value: "web_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
    ],
    [
      "a nodePort on a ClusterIP service",
      { ports: [{ port: 80, nodePort: 30080 }] },
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
    [
      "a NodePort service with the same node port twice",
      {
        type: "NodePort",
        ports: [
          { port: 80, name: "a", nodePort: 30080 },
          { port: 81, name: "b", nodePort: 30080 },
        ],
      },
      ["spec.ports[1].nodePort: Duplicate value: 30080"],
    ],
    [
      "a headless LoadBalancer",
      { type: "LoadBalancer", clusterIP: "None" },
      ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for LoadBalancer services"],
    ],
    [
      "an ExternalName service without a name and with a cluster IP",
      { type: "ExternalName", clusterIP: "10.0.0.1", ports: [] },
      ["spec.clusterIPs: Forbidden: may not be set for ExternalName services", "spec.externalName: Required value"],
    ],
    [
      "source ranges on a ClusterIP service",
      { loadBalancerSourceRanges: ["10.0.0.0/8"] },
      ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"],
    ],
    [
      "externalTrafficPolicy on a ClusterIP service",
      { externalTrafficPolicy: "Local" },
      ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services'],
    ],
    ["an empty cluster IP, to be allocated", { clusterIP: "" }, []],
    [
      "a dual-stack service",
      { clusterIP: "10.0.0.10", clusterIPs: ["10.0.0.10", "fd00::10"], ipFamilies: ["IPv4", "IPv6"] },
      [],
    ],
    [
      "a cluster IP that is no IP, reported where the registry copies it",
      { clusterIP: "10.0.0.300" },
      [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
    [
      "a cluster IP with leading zeros",
      { clusterIP: "010.0.0.10" },
      ['spec.clusterIPs[0]: Invalid value: "010.0.0.10": must not have leading 0s'],
    ],
    [
      "clusterIPs without clusterIP",
      { clusterIPs: ["10.0.0.10"] },
      ['spec.clusterIPs: Invalid value: ["10.0.0.10"]: must be empty when `clusterIP` is not specified'],
    ],
    [
      "clusterIPs that begin elsewhere",
      { clusterIP: "10.0.0.10", clusterIPs: ["10.0.0.11"] },
      ['spec.clusterIPs: Invalid value: ["10.0.0.11"]: first value must match `clusterIP`'],
    ],
    [
      "two cluster IPs of one family",
      { clusterIP: "10.0.0.10", clusterIPs: ["10.0.0.10", "10.0.0.11"] },
      ['spec.clusterIPs: Invalid value: ["10.0.0.10","10.0.0.11"]: may specify no more than one IP for each IP family'],
    ],
    [
      "None before an IP",
      { clusterIP: "None", clusterIPs: ["None", "10.0.0.10"] },
      ['spec.clusterIPs: Invalid value: ["None","10.0.0.10"]: \'None\' must be the first and only value'],
    ],
    [
      "a cluster IP of another family than asked, and a family twice",
      { clusterIP: "10.0.0.10", ipFamilies: ["IPv6", "IPv6"] },
      [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.10": expected an IPv6 value as indicated by `ipFamilies[0]`',
        'spec.ipFamilies[1]: Duplicate value: "IPv6"',
      ],
    ],
    [
      "external IPs that are no IP, special or mapped",
      { externalIPs: ["not-an-ip", "127.0.0.1", "0.0.0.0", "::ffff:192.0.2.1", "192.0.2.1"] },
      [
        'spec.externalIPs[0]: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'spec.externalIPs[2]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
        'spec.externalIPs[3]: Invalid value: "::ffff:192.0.2.1": must not be an IPv4-mapped IPv6 address',
        "warning spec.externalIPs is deprecated and may no longer be implemented in some clusters",
      ],
    ],
    [
      "source ranges that are no subnet, space-padded ones allowed",
      { type: "LoadBalancer", loadBalancerSourceRanges: ["10.0.0.0/33", " 10.0.0.0/8 ", "10.1.2.3/8"] },
      [
        'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        'spec.LoadBalancerSourceRanges[2]: Invalid value: "10.1.2.3/8": must not have bits set beyond the prefix length',
      ],
    ],
    ["a load balancer IP, which is only warned about", { type: "LoadBalancer", loadBalancerIP: "not-an-ip" }, []],
    [
      "a ClientIP affinity whose timeout is over a day",
      { sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: { timeoutSeconds: 90000 } } },
      [
        "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400",
      ],
    ],
    [
      "an unknown session affinity",
      { sessionAffinity: "Cookie" },
      ['spec.sessionAffinity: Unsupported value: "Cookie": supported values: "ClientIP", "None"'],
    ],
    [
      "a load balancer class on a NodePort service",
      { type: "NodePort", loadBalancerClass: "example.com/lb" },
      ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"],
    ],
    [
      "a load balancer class that is no qualified name",
      { type: "LoadBalancer", loadBalancerClass: "example.com/lb/v2" },
      [
        "spec.loadBalancerClass: Invalid value: \"example.com/lb/v2\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
    [
      "a health check node port without a Local load balancer",
      { type: "LoadBalancer", externalTrafficPolicy: "Cluster", healthCheckNodePort: 30000 },
      [
        "spec.healthCheckNodePort: Invalid value: 30000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ],
    ],
    [
      "a Local load balancer's health check node port",
      { type: "LoadBalancer", externalTrafficPolicy: "Local", healthCheckNodePort: 30000 },
      [],
    ],
    [
      "an unknown traffic distribution",
      { trafficDistribution: "Nearby" },
      [
        'spec.trafficDistribution: Unsupported value: "Nearby": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"',
      ],
    ],
  ]);
  it("refuses PreferSameZone on 1.33, where its feature gate is off, and accepts it on 1.34", () => {
    const preferSameZone = service({ trafficDistribution: "PreferSameZone" });
    expect(said("v1", "Service", preferSameZone, 33)).toEqual([
      'spec.trafficDistribution: Unsupported value: "PreferSameZone": supported values: "PreferClose"',
    ]);
    expect(said("v1", "Service", preferSameZone, 34)).toEqual([]);
  });
  const annotated = (annotations: JsonObject) => ({
    metadata: { name: "web", annotations },
    spec: { type: "LoadBalancer", ports: [{ port: 80 }] },
  });
  const key = "service.beta.kubernetes.io/load-balancer-source-ranges";
  run("v1", "Service", annotated, [
    ["source ranges in the annotation", { [key]: " 10.0.0.0/8, 192.168.0.0/16 " }, []],
    ["an empty annotation", { [key]: " " }, []],
    [
      "topology-mode and topology-aware-hints that differ",
      { "service.kubernetes.io/topology-mode": "Auto", "service.kubernetes.io/topology-aware-hints": "auto" },
      [
        'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
        "warning annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead",
      ],
    ],
    [
      "a bad range in the annotation, reported at the annotation",
      { [key]: "10.0.0.0/8,300.0.0.0/8" },
      [
        `metadata.annotations[${key}]: Invalid value: "300.0.0.0/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`,
      ],
    ],
  ]);
});

const configKeyError =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe("ConfigMaps and Secrets (ValidateConfigMap, ValidateSecret)", () => {
  const big = "x".repeat(1024 * 1024);
  run("v1", "ConfigMap", (o) => ({ metadata: { name: "c" }, ...o }), [
    ["valid keys", { data: { "game.properties": "x", UI_FILE: "y", "a-b": "z" } }, []],
    [
      "a key with a slash",
      { data: { "conf/app.yaml": "x" } },
      [`data[conf/app.yaml]: Invalid value: "conf/app.yaml": ${configKeyError}`],
    ],
    ["the key ..", { data: { "..": "x" } }, ["data[..]: Invalid value: \"..\": must not be '..'"]],
    [
      "a key in data and binaryData",
      { data: { a: "x" }, binaryData: { a: "eA==" } },
      ['data[a]: Invalid value: "a": duplicate of key present in binaryData'],
    ],
    ["exactly 1 MiB", { data: { a: big } }, []],
    ["over 1 MiB in all", { data: { a: big, b: "1" } }, ["Too long: may not be more than 1048576 bytes"]],
  ]);
  run("v1", "Secret", (o) => ({ metadata: { name: "s" }, ...o }), [
    ["an opaque secret", { stringData: { password: "x" } }, []],
    [
      "a bad key in stringData, reported under data",
      { stringData: { "a b": "x" } },
      [`data[a b]: Invalid value: "a b": ${configKeyError}`],
    ],
    [
      "a TLS secret without its key",
      { type: "kubernetes.io/tls", data: { "tls.crt": "eA==" } },
      ["data[tls.key]: Required value"],
    ],
    [
      "a basic-auth secret with neither username nor password",
      { type: "kubernetes.io/basic-auth", data: {} },
      ["data[password]: Required value", "data[username]: Required value"],
    ],
    [
      "a dockerconfigjson secret without its file",
      { type: "kubernetes.io/dockerconfigjson", data: {} },
      ["data[.dockerconfigjson]: Required value"],
    ],
    [
      "a dockerconfigjson secret whose file is JSON of an object",
      {
        type: "kubernetes.io/dockerconfigjson",
        data: { ".dockerconfigjson": "eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6eyJhdXRoIjoiZFRwdyJ9fX0=" },
      },
      [],
    ],
    [
      "a dockerconfigjson secret whose file is no JSON (json.Unmarshal's words)",
      {
        type: "kubernetes.io/dockerconfigjson",
        data: { ".dockerconfigjson": "eyJhdXRocyI6IHsicmVnaXN0cnkuZXhhbXBsZS5jb20iOiB9fQ==" },
      },
      [
        `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character '}' looking for beginning of value`,
      ],
    ],
    [
      "a dockercfg secret whose file, in stringData, is a JSON list",
      { type: "kubernetes.io/dockercfg", stringData: { ".dockercfg": "[]" } },
      [
        'data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
      ],
    ],
    [
      "a service account token secret without its account",
      { type: "kubernetes.io/service-account-token" },
      ["metadata.annotations[kubernetes.io/service-account.name]: Required value"],
    ],
    [
      "over 1 MiB of decoded data",
      { stringData: { a: big, b: "1" } },
      ["data: Too long: may not be more than 1048576 bytes"],
    ],
  ]);
});

describe("Ingress (ValidateIngressCreate, validateIngressRules, validateHTTPIngressPath, validateIngressBackend, validateIngressTLS)", () => {
  const backend = { service: { name: "web", port: { number: 80 } } };
  const ingress = (spec: JsonObject) => ({ metadata: { name: "i" }, spec });
  const rule = (path: JsonObject, host?: string) => ({
    rules: [{ ...(host ? { host } : {}), http: { paths: [{ path: "/", pathType: "Prefix", backend, ...path }] } }],
  });
  run("networking.k8s.io/v1", "Ingress", ingress, [
    ["a valid ingress", rule({}), []],
    [
      "neither rules nor a default backend",
      {},
      ["spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"],
    ],
    [
      "a relative Prefix path",
      rule({ path: "api" }),
      ['spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path'],
    ],
    [
      "an Exact path with a double slash and a dot suffix",
      rule({ path: "/a//b/.", pathType: "Exact" }),
      [
        "spec.rules[0].http.paths[0].path: Invalid value: \"/a//b/.\": must not contain '//'",
        "spec.rules[0].http.paths[0].path: Invalid value: \"/a//b/.\": cannot end with '/.'",
      ],
    ],
    [
      "an ImplementationSpecific path may be anything absolute",
      rule({ path: "/a//b", pathType: "ImplementationSpecific" }),
      [],
    ],
    [
      "a backend with both a port name and number",
      rule({ backend: { service: { name: "web", port: { number: 80, name: "http" } } } }),
      ['spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number'],
    ],
    [
      "a backend without a port",
      rule({ backend: { service: { name: "web" } } }),
      ["spec.rules[0].http.paths[0].backend: Required value: port name or number is required"],
    ],
    [
      "a backend service name starting with a digit (RelaxedServiceNameValidation)",
      rule({ backend: { service: { name: "1web", port: { number: 80 } } } }),
      [],
    ],
    [
      "a backend service name that is no DNS-1123 label",
      { defaultBackend: { service: { name: "web_1", port: { number: 80 } } } },
      [
        "spec.defaultBackend.service.name: Invalid value: \"web_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      "a resource backend of a kind with a slash and without a name",
      { defaultBackend: { resource: { apiGroup: "k8s.example.com", kind: "Storage/Bucket", name: "" } } },
      [
        "spec.defaultBackend.resource.kind: Invalid value: \"Storage/Bucket\": may not contain '/'",
        "spec.defaultBackend.resource.name: Required value: name is required",
      ],
    ],
    [
      "TLS hosts that are no (wildcard) subdomain, and a bad secret name",
      {
        ...rule({}),
        tls: [{ hosts: ["example.com", "*.example.com", "*.Example.com", "foo..com"], secretName: "Web_TLS" }],
      },
      [
        "spec.tls[0].hosts[2]: Invalid value: \"*.Example.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        `spec.tls[0].hosts[3]: Invalid value: "foo..com": ${subdomainError}`,
        `spec.tls[0].secretName: Invalid value: "Web_TLS": ${subdomainError}`,
      ],
    ],
    [
      "an ingress class name that is no subdomain",
      { ...rule({}), ingressClassName: "Nginx_Public" },
      [`spec.ingressClassName: Invalid value: "Nginx_Public": ${subdomainError}`],
    ],
    ["an ingress class name", { ...rule({}), ingressClassName: "nginx-public" }, []],
    [
      "an IP address as host",
      rule({}, "10.0.0.1"),
      ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address'],
    ],
    [
      "a wildcard in the middle of a host",
      rule({}, "foo.*.com"),
      [
        "spec.rules[0].host: Invalid value: \"foo.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ["an empty path list", { rules: [{ http: { paths: [] } }] }, ["spec.rules[0].http.paths: Required value"]],
  ]);
  const classed = (annotations: JsonObject) => ({
    metadata: { name: "i", annotations },
    spec: { ...rule({}), ingressClassName: "nginx" },
  });
  run("networking.k8s.io/v1", "Ingress", classed, [
    // the strategy warns only while spec.ingressClassName is unset (pkg/registry/networking/ingress/strategy.go)
    ["the class annotation agreeing", { "kubernetes.io/ingress.class": "nginx" }, []],
    [
      "the class annotation naming another class",
      { "kubernetes.io/ingress.class": "traefik" },
      [
        'annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified',
      ],
    ],
  ]);
});

describe("NetworkPolicy (ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer)", () => {
  const policy = (ingress: JsonObject) => ({ metadata: { name: "n" }, spec: { podSelector: {}, ingress: [ingress] } });
  run("networking.k8s.io/v1", "NetworkPolicy", policy, [
    ["a valid port range", { ports: [{ port: 32000, endPort: 32768 }] }, []],
    [
      "an end port before the port",
      { ports: [{ port: 8080, endPort: 80 }] },
      ["spec.ingress[0].ports[0].endPort: Invalid value: 8080: must be greater than or equal to `port`"],
    ],
    [
      "an end port after a named port",
      { ports: [{ port: "http", endPort: 90 }] },
      ["spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric"],
    ],
    [
      "an end port without a port",
      { ports: [{ endPort: 90 }] },
      ["spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is not specified"],
    ],
    [
      "a port out of range",
      { ports: [{ port: 0 }] },
      ["spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"],
    ],
    ["an empty peer", { from: [{}] }, ["spec.ingress[0].from[0]: Required value: must specify a peer"]],
    [
      "an IP block with a selector",
      { from: [{ ipBlock: { cidr: "10.0.0.0/8" }, podSelector: {} }] },
      ["spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer"],
    ],
    ["an IP block with an exception", { from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }] }, []],
    [
      "an IP block that is no CIDR value",
      { from: [{ ipBlock: { cidr: "10.0.0.0/33", except: ["10.1.0.0/16"] } }] },
      [
        'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    [
      "an IP block with bits past its prefix length",
      { from: [{ ipBlock: { cidr: "10.0.0.1/8" } }] },
      [
        'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
      ],
    ],
    [
      "exceptions outside the block, as wide as it, or of the other family",
      {
        from: [
          { ipBlock: { cidr: "10.0.0.0/8", except: ["192.168.0.0/16", "10.0.0.0/8", "fd00::/64", "10.0.0.0/7"] } },
        ],
      },
      [
        'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "192.168.0.0/16": must be a strict subset of `cidr`',
        'spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
        'spec.ingress[0].from[0].ipBlock.except[2]: Invalid value: "fd00::/64": must be a strict subset of `cidr`',
        'spec.ingress[0].from[0].ipBlock.except[3]: Invalid value: "10.0.0.0/7": must be a strict subset of `cidr`',
      ],
    ],
    [
      "an exception with leading zeros",
      { from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.001.0.0/16"] } }] },
      [
        'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.001.0.0/16": must not have leading 0s in IP or prefix length',
      ],
    ],
  ]);
});

describe("CronJob time zones (validateTimeZone, time.LoadLocation)", () => {
  const cronJob = (timeZone: JsonObject) => ({
    metadata: { name: "c" },
    spec: {
      schedule: "0 0 * * *",
      jobTemplate: { spec: { template: { spec: { restartPolicy: "Never", containers: [container()] } } } },
      ...timeZone,
    },
  });
  const unknown = (zone: string) => `spec.timeZone: Invalid value: "${zone}": unknown time zone ${zone}`;
  run("batch/v1", "CronJob", cronJob, [
    ...["America/New_York", "UTC", "Etc/UTC", "GMT", "US/Eastern", "EST5EDT", "Asia/Kolkata", "Asia/Calcutta"].map(
      (zone): Case => [`${zone}, as the zone database writes it`, { timeZone: zone }, []],
    ),
    ...["america/new_york", "utc", "etc/utc", "us/eastern", "JST", "Europe/Pariss"].map(
      (zone): Case => [`${zone}, which Go does not find`, { timeZone: zone }, [unknown(zone)]],
    ),
    [
      "a name with two dots, which LoadLocation refuses outright",
      { timeZone: "Europe/A..B" },
      ['spec.timeZone: Invalid value: "Europe/A..B": time: invalid location name'],
    ],
    [
      "LOCAL, no explicit zone and no file",
      { timeZone: "LOCAL" },
      [
        'spec.timeZone: Invalid value: "LOCAL": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
        unknown("LOCAL"),
      ],
    ],
  ]);
});

describe("HorizontalPodAutoscaler (validateHorizontalPodAutoscalerSpec)", () => {
  const cpu = (target: JsonObject) => [{ type: "Resource", resource: { name: "cpu", target } }];
  const hpa = (spec: JsonObject) => ({
    metadata: { name: "h" },
    spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" }, maxReplicas: 5, ...spec },
  });
  run("autoscaling/v2", "HorizontalPodAutoscaler", hpa, [
    ["a valid autoscaler", { minReplicas: 1, metrics: cpu({ type: "Utilization", averageUtilization: 50 }) }, []],
    [
      "minReplicas above maxReplicas",
      { minReplicas: 10 },
      ["spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"],
    ],
    [
      "minReplicas 0",
      { minReplicas: 0 },
      [
        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
        "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
      ],
    ],
    [
      "maxReplicas 0, below the defaulted minReplicas too (1.36's words: kubernetes#135412)",
      { maxReplicas: 0 },
      [
        "spec.maxReplicas: Required value: must be set and greater than 0",
        "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
      ],
    ],
    [
      "a resource metric without a target value",
      { metrics: cpu({ type: "Utilization" }) },
      [
        "spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization",
      ],
    ],
    [
      "a resource metric with both targets and an unknown target type",
      { metrics: cpu({ type: "Percent", averageUtilization: 0, averageValue: "-1" }) },
      [
        'spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue',
        "spec.metrics[0].resource.target.averageValue: Invalid value: -1: must be positive",
        "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
        "spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization",
      ],
    ],
    [
      "a pods metric without an average value",
      { metrics: [{ type: "Pods", pods: { metric: { name: "rps" }, target: { type: "Value", value: "1" } } }] },
      ["spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue"],
    ],
    [
      "a bad target reference does not stop the metrics from being checked",
      { scaleTargetRef: { kind: "Deployment", name: "a/b" }, metrics: cpu({ type: "Utilization" }) },
      [
        "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'",
        'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
        "spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization",
      ],
    ],
    [
      "an empty list of scaling policies",
      { behavior: { scaleDown: { policies: [], stabilizationWindowSeconds: 4000 } } },
      [
        "spec.behavior.scaleDown.policies: Required value: must specify at least one Policy",
        "spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600",
      ],
    ],
    [
      "a metric name unfit for a path segment (validateMetricIdentifier, pathvalidation.IsValidPathSegmentName)",
      {
        metrics: [
          {
            type: "Pods",
            pods: { metric: { name: "requests/second" }, target: { type: "AverageValue", averageValue: "1" } },
          },
          { type: "External", external: { metric: { name: ".." }, target: { type: "Value", value: "1" } } },
        ],
      },
      [
        "spec.metrics[0].pods.metric.name: Invalid value: \"requests/second\": may not contain '/'",
        "spec.metrics[1].external.metric.name: Invalid value: \"..\": may not be '..'",
      ],
    ],
    [
      "a metric name written empty",
      {
        metrics: [
          { type: "Pods", pods: { metric: { name: "" }, target: { type: "AverageValue", averageValue: "1" } } },
        ],
      },
      ["spec.metrics[0].pods.metric.name: Required value: must specify a metric name"],
    ],
    [
      "scaling rules in Go's order: the window, the select policy, then the policies (validateScalingRules)",
      {
        behavior: {
          scaleDown: {
            selectPolicy: "Average",
            stabilizationWindowSeconds: 3601,
            policies: [{ type: "Pods", value: 0, periodSeconds: 1801 }],
          },
        },
      },
      [
        "spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600",
        'spec.behavior.scaleDown.selectPolicy: Unsupported value: "Average": supported values: "Disabled", "Max", "Min"',
        "spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero",
        "spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800",
      ],
    ],
    [
      "a select policy and a policy type written empty (a set *string is not defaulted)",
      { behavior: { scaleUp: { selectPolicy: "", policies: [{ type: "", value: 1, periodSeconds: 15 }] } } },
      [
        'spec.behavior.scaleUp.selectPolicy: Unsupported value: "": supported values: "Disabled", "Max", "Min"',
        'spec.behavior.scaleUp.policies[0].type: Unsupported value: "": supported values: "Percent", "Pods"',
      ],
    ],
    ["scaling rules left to their defaults", { behavior: { scaleUp: { stabilizationWindowSeconds: 0 } } }, []],
  ]);
});

describe("PodDisruptionBudget (ValidatePodDisruptionBudgetSpec)", () => {
  const pdb = (spec: JsonObject) => ({
    metadata: { name: "p" },
    spec: { selector: { matchLabels: { app: "a" } }, ...spec },
  });
  run("policy/v1", "PodDisruptionBudget", pdb, [
    ["minAvailable alone", { minAvailable: "50%" }, []],
    [
      "both minAvailable and maxUnavailable",
      { minAvailable: 1, maxUnavailable: 1 },
      [
        'spec: Invalid value: {"selector":{"matchLabels":{"app":"a"}},"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
    [
      "a percentage over 100%",
      { maxUnavailable: "101%" },
      ['spec.maxUnavailable: Invalid value: "101%": must not be greater than 100%'],
    ],
    [
      "a negative count",
      { minAvailable: -1 },
      ["spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"],
    ],
    ...["Sometimes", "ifHealthyBudget", ""].map(
      (policy): Case => [
        `unhealthyPodEvictionPolicy ${JSON.stringify(policy)}, the policies listed sorted`,
        { unhealthyPodEvictionPolicy: policy },
        [
          `spec.unhealthyPodEvictionPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "AlwaysAllow", "IfHealthyBudget"`,
        ],
      ],
    ),
    ["unhealthyPodEvictionPolicy AlwaysAllow", { unhealthyPodEvictionPolicy: "AlwaysAllow" }, []],
    ["unhealthyPodEvictionPolicy IfHealthyBudget", { unhealthyPodEvictionPolicy: "IfHealthyBudget" }, []],
  ]);
});

describe("RBAC (ValidatePolicyRule, ValidateRoleBinding)", () => {
  run("rbac.authorization.k8s.io/v1", "Role", (o) => ({ metadata: { name: "r" }, rules: [o] }), [
    ["a valid rule", { apiGroups: [""], resources: ["pods"], verbs: ["get"] }, []],
    [
      "no verbs",
      { apiGroups: [""], resources: ["pods"], verbs: [] },
      ["rules[0].verbs: Required value: verbs must contain at least one value"],
    ],
    [
      "a resource rule without groups or resources",
      { verbs: ["get"] },
      [
        "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
        "rules[0].resources: Required value: resource rules must supply at least one resource",
      ],
    ],
    [
      "a non-resource URL in a namespaced role",
      { nonResourceURLs: ["/healthz"], verbs: ["get"] },
      ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs'],
    ],
  ]);
  run("rbac.authorization.k8s.io/v1", "ClusterRole", (o) => ({ metadata: { name: "r" }, ...o }), [
    [
      "a rule on both resources and URLs",
      { rules: [{ nonResourceURLs: ["/metrics"], resources: ["pods"], verbs: ["get"] }] },
      [
        'rules[0].nonResourceURLs: Invalid value: ["/metrics"]: rules cannot apply to both regular resources and non-resource URLs',
      ],
    ],
    [
      "an aggregation rule without selectors",
      { aggregationRule: { clusterRoleSelectors: [] } },
      [
        "aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
      ],
    ],
  ]);
  const roleRef = { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "reader" };
  run("rbac.authorization.k8s.io/v1", "RoleBinding", (o) => ({ metadata: { name: "b" }, roleRef, ...o }), [
    [
      "a valid binding",
      {
        subjects: [
          { kind: "User", name: "jane" },
          { kind: "ServiceAccount", name: "default" },
        ],
      },
      [],
    ],
    [
      "a subject of an unknown kind",
      { subjects: [{ kind: "Robot", name: "r2" }] },
      ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    ],
    [
      "a service account with an API group",
      { subjects: [{ kind: "ServiceAccount", name: "default", apiGroup: "rbac.authorization.k8s.io" }] },
      ['subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""'],
    ],
    [
      "a reference to another API group",
      { roleRef: { ...roleRef, apiGroup: "example.com" } },
      ['roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"'],
    ],
  ]);
  run(
    "rbac.authorization.k8s.io/v1",
    "ClusterRoleBinding",
    (o) => ({ metadata: { name: "b" }, roleRef: { ...roleRef, kind: "ClusterRole" }, ...o }),
    [
      [
        "a Role referenced cluster-wide",
        { roleRef },
        ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
      ],
      [
        "a service account without its namespace",
        { subjects: [{ kind: "ServiceAccount", name: "robot" }] },
        ["subjects[0].namespace: Required value"],
      ],
    ],
  );
});

// core's ValidateObjectMeta (pkg/apis/core/validation/validation.go validateKubeFinalizerName, over
// pkg/apis/core/helper IsStandardFinalizerName), which most groups call; RuntimeClass (node), Lease
// (coordination), the admissionregistration kinds, CRDs and APIServices call apimachinery's, and a
// PodDisruptionBudget's validation checks no ObjectMeta: only the generic rules apply there.
describe("finalizers without a domain (core's ValidateObjectMeta)", () => {
  const withFinalizers = (apiVersion: string, kind: string) => ({
    apiVersion,
    kind,
    metadata: { name: "x", finalizers: ["kubernetes", "orphan", "foregroundDeletion", "example.com/done", "cleanup"] },
  });
  const refused =
    'metadata.finalizers[4]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified';
  it.each([
    ["v1", "ConfigMap"],
    ["apps/v1", "Deployment"],
    ["rbac.authorization.k8s.io/v1", "Role"],
    ["storage.k8s.io/v1", "CSIDriver"],
    ["events.k8s.io/v1", "Event"],
  ])("refused for %s %s", (apiVersion, kind) => {
    expect(said(apiVersion, kind, withFinalizers(apiVersion, kind))).toContain(refused);
  });
  it.each([
    ["node.k8s.io/v1", "RuntimeClass"],
    ["coordination.k8s.io/v1", "Lease"],
    ["admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"],
    ["apiextensions.k8s.io/v1", "CustomResourceDefinition"],
    ["apiregistration.k8s.io/v1", "APIService"],
    ["policy/v1", "PodDisruptionBudget"],
    ["v1", "Event"],
  ])("left to the generic rules for %s %s", (apiVersion, kind) => {
    expect(said(apiVersion, kind, withFinalizers(apiVersion, kind))).not.toContain(refused);
  });
});

// pkg/apis/core/validation/validation.go ValidateNamespace, validateFinalizerName
describe("a Namespace's own finalizers (ValidateNamespace)", () => {
  run("v1", "Namespace", (spec) => ({ metadata: { name: "team" }, spec }), [
    ["the standard one and a qualified one", { finalizers: ["kubernetes", "example.com/wait"] }, []],
    [
      "one without a domain",
      { finalizers: ["wait"] },
      ['spec.finalizers: Invalid value: "wait": name is neither a standard finalizer name nor is it fully qualified'],
    ],
    [
      "one that is no qualified name",
      { finalizers: ["example.com/a b"] },
      [
        "spec.finalizers: Invalid value: \"example.com/a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
  ]);
});
