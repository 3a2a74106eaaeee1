/**
 * APIServices as kube-aggregator's pkg/apis/apiregistration/validation/validation.go
 * ValidateAPIService refuses them on create, after the v1 default of
 * pkg/apis/apiregistration/v1/defaults.go SetDefaults_ServiceReference (port
 * 443), word for word.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { said as saidOf } from "./test-helpers.js";

/** The metrics-server APIService, with `spec` fields replaced and `metadata` merged. */
const apiService = (spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject => ({
  apiVersion: "apiregistration.k8s.io/v1",
  kind: "APIService",
  metadata: { name: "v1beta1.metrics.k8s.io", ...metadata },
  spec: {
    group: "metrics.k8s.io",
    version: "v1beta1",
    service: { namespace: "kube-system", name: "metrics-server" },
    insecureSkipTLSVerify: true,
    groupPriorityMinimum: 100,
    versionPriority: 100,
    ...spec,
  },
});

/** A local APIService, served by the kube-apiserver itself. */
const local = (spec: JsonObject = {}): JsonObject =>
  apiService({ service: null, insecureSkipTLSVerify: false, ...spec }, { name: "v1beta1.metrics.k8s.io" });

const said = (object: JsonObject): string[] => saidOf("apiregistration.k8s.io/v1", "APIService", object);

const nameMust = (name: string, required: string) =>
  `metadata.name: Invalid value: "${name}": must be \`spec.version+"."+spec.group\`: "${required}"`;

const dns1035 = (value: string) =>
  `spec.version: Invalid value: "${value}": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`;

const cases: [string, JsonObject, string[]][] = [
  ["a valid metrics-server APIService (port defaulted to 443)", apiService(), []],
  [
    "a valid APIService with a port and a caBundle",
    apiService({
      insecureSkipTLSVerify: false,
      caBundle: "Y2EtYnVuZGxl",
      service: { namespace: "a", name: "b", port: 8443 },
    }),
    [],
  ],
  ["a valid local APIService", local(), []],
  [
    "the legacy core group: v1 with no group, named `v1.`",
    apiService({ group: "", version: "v1", service: null, insecureSkipTLSVerify: false }, { name: "v1." }),
    [],
  ],
  [
    "a name that is not version.group",
    apiService({}, { name: "metrics" }),
    [nameMust("metrics", "v1beta1.metrics.k8s.io")],
  ],
  [
    "a name that is no path segment (the metadata's rule, not repeated)",
    apiService({}, { name: "v1beta1/metrics" }),
    [],
  ],
  [
    "a generateName, which never is version.group",
    apiService({}, { name: "v1beta1.metrics.k8s.io", generateName: "metrics-" }),
    [
      'metadata.generateName: Invalid value: "metrics-": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
    ],
  ],
  [
    "an empty group for a version other than v1",
    apiService({ group: "" }, { name: "v1beta1." }),
    ["spec.group: Required value: only v1 may have an empty group and it better be legacy kube"],
  ],
  [
    "a group that is no DNS subdomain",
    apiService({ group: "Metrics.k8s.io" }, { name: "v1beta1.Metrics.k8s.io" }),
    [
      `spec.group: Invalid value: "Metrics.k8s.io": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
  ],
  [
    "a version that is no DNS-1035 label",
    apiService({ version: "1beta1" }, { name: "1beta1.metrics.k8s.io" }),
    [dns1035("1beta1")],
  ],
  [
    "no spec at all: Go's zero values",
    { apiVersion: "apiregistration.k8s.io/v1", kind: "APIService", metadata: { name: "x" } },
    [
      nameMust("x", "."),
      "spec.group: Required value: only v1 may have an empty group and it better be legacy kube",
      dns1035(""),
      "spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
      "spec.versionPriority: Invalid value: 0: must be positive and less than 1000",
    ].sort(),
  ],
  [
    "a groupPriorityMinimum of 0",
    apiService({ groupPriorityMinimum: 0 }),
    ["spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000"],
  ],
  [
    "a groupPriorityMinimum above 20000",
    apiService({ groupPriorityMinimum: 20001 }),
    ["spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000"],
  ],
  ["a groupPriorityMinimum of 20000", apiService({ groupPriorityMinimum: 20000 }), []],
  [
    "a negative versionPriority",
    apiService({ versionPriority: -1 }),
    ["spec.versionPriority: Invalid value: -1: must be positive and less than 1000"],
  ],
  [
    "a versionPriority above 1000",
    apiService({ versionPriority: 1001 }),
    ["spec.versionPriority: Invalid value: 1001: must be positive and less than 1000"],
  ],
  [
    "a null versionPriority (Go's 0)",
    apiService({ versionPriority: null }),
    ["spec.versionPriority: Invalid value: 0: must be positive and less than 1000"],
  ],
  [
    "a priority absent from the spec is 0; one of the wrong type is the schema's finding",
    (() => {
      const o = apiService({ groupPriorityMinimum: "100" });
      delete (o.spec as JsonObject).versionPriority;
      return o;
    })(),
    ["spec.versionPriority: Invalid value: 0: must be positive and less than 1000"],
  ],
  [
    "a local APIService with a caBundle",
    local({ caBundle: "Y2EtYnVuZGxl" }),
    ['spec.caBundle: Invalid value: "9 bytes": local APIServices may not have a caBundle'],
  ],
  [
    "a local APIService with insecureSkipTLSVerify",
    local({ insecureSkipTLSVerify: true }),
    ["spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify"],
  ],
  ["a local APIService with a malformed caBundle (the schema's finding)", local({ caBundle: "not base64!" }), []],
  [
    "a service with no namespace and no name",
    apiService({ service: {} }),
    ["spec.service.name: Required value", "spec.service.namespace: Required value"],
  ],
  [
    "a service with an empty namespace",
    apiService({ service: { namespace: "", name: "metrics-server" } }),
    ["spec.service.namespace: Required value"],
  ],
  [
    "a service port of 0",
    apiService({ service: { namespace: "kube-system", name: "metrics-server", port: 0 } }),
    ["spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"],
  ],
  [
    "a service port above 65535",
    apiService({ service: { namespace: "kube-system", name: "metrics-server", port: 65536 } }),
    ["spec.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive"],
  ],
  [
    "a null service port (defaulted to 443)",
    apiService({ service: { namespace: "kube-system", name: "metrics-server", port: null } }),
    [],
  ],
  [
    "insecureSkipTLSVerify beside a caBundle",
    apiService({ caBundle: "Y2EtYnVuZGxl" }),
    ["spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present"],
  ],
  ["an empty caBundle beside insecureSkipTLSVerify (no bytes)", apiService({ caBundle: "" }), []],
];

describe("APIServices (ValidateAPIService, SetDefaults_ServiceReference)", () => {
  it.each(cases)("%s", (_, object, expected) => {
    expect(said(object)).toEqual([...expected].sort());
  });
});
