/**
 * The single fields of a pod spec, word for word: pkg/apis/core/validation/validation.go
 * (validateReadinessGates, validateSchedulingGates, ValidateRuntimeClassName, ValidatePreemptionPolicy,
 * validateOverhead with validateResourceRequirements, validateHostUsers, validateSELinuxChangePolicy,
 * validateHTTPGetAction with apimachinery's IsHTTPHeaderName), by release where a feature gate decides
 * (pkg/features/kube_features.go; pkg/api/pod/util.go useOnlyRecursiveSELinuxChangePolicy).
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  validateHostUsers,
  validateHTTPHeaders,
  validateOverhead,
  validatePreemptionPolicy,
  validateReadinessGates,
  validateRuntimeClassName,
  validateSchedulingGates,
  validateSELinuxChangePolicy,
} from "./pod-fields.js";
import { qualifiedNamePartError as namePart, dns1123SubdomainError as subdomain } from "./test-helpers.js";

const spec = ["spec"];
const messages = (findings: Finding[]) => findings.map((f) => f.message);

describe("validateReadinessGates (condition types are qualified names)", () => {
  const says = (gates: JsonObject[]) => messages(validateReadinessGates({ readinessGates: gates }, spec));

  it("accepts a prefixed condition type, as load-balancer controllers set", () => {
    expect(says([{ conditionType: "target-health.elbv2.k8s.aws/k8s-web-tg" }, { conditionType: "Ready2" }])).toEqual(
      [],
    );
  });

  it("refuses a condition type with a space, at its index and `conditionType`", () => {
    expect(says([{ conditionType: "ok" }, { conditionType: "bad type!" }])).toEqual([
      `spec.readinessGates[1].conditionType: Invalid value: "bad type!": ${namePart}`,
    ]);
  });

  it("gives an empty condition type both of IsQualifiedName's messages", () => {
    expect(says([{ conditionType: "" }])).toEqual([
      'spec.readinessGates[0].conditionType: Invalid value: "": name part must be non-empty',
      `spec.readinessGates[0].conditionType: Invalid value: "": ${namePart}`,
    ]);
  });

  it("checks the prefix as a DNS subdomain", () => {
    expect(says([{ conditionType: "Example.com/ready" }])).toEqual([
      `spec.readinessGates[0].conditionType: Invalid value: "Example.com/ready": prefix part ${subdomain}`,
    ]);
  });

  it("takes an absent condition type as the empty one, and works under a template's path", () => {
    expect(says([{}])).toEqual(says([{ conditionType: "" }]));
    expect(says([{}])).toHaveLength(2);
    const template = validateReadinessGates({ readinessGates: [{ conditionType: "a/b/c" }] }, [
      "spec",
      "template",
      "spec",
    ]);
    expect(messages(template)).toEqual([
      `spec.template.spec.readinessGates[0].conditionType: Invalid value: "a/b/c": a qualified name ${namePart.replace("name part ", "")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]);
  });
});

describe("validateSchedulingGates (at the item, not its name)", () => {
  const says = (gates: JsonObject[]) => messages(validateSchedulingGates({ schedulingGates: gates }, spec));

  it("accepts distinct qualified names", () => {
    expect(says([{ name: "example.com/quota" }, { name: "kueue.x-k8s.io/admission" }])).toEqual([]);
  });

  it("reports a duplicate at the second item", () => {
    expect(says([{ name: "example.com/gate" }, { name: "example.com/gate" }])).toEqual([
      'spec.schedulingGates[1]: Duplicate value: "example.com/gate"',
    ]);
  });

  it("reports a bad name at the item, then its duplicate", () => {
    expect(says([{ name: "Bad Gate" }, { name: "Bad Gate" }])).toEqual([
      `spec.schedulingGates[0]: Invalid value: "Bad Gate": ${namePart}`,
      `spec.schedulingGates[1]: Invalid value: "Bad Gate": ${namePart}`,
      'spec.schedulingGates[1]: Duplicate value: "Bad Gate"',
    ]);
  });

  it("gives an empty or absent name both messages, and a second one the duplicate's", () => {
    expect(says([{ name: "" }])).toEqual([
      'spec.schedulingGates[0]: Invalid value: "": name part must be non-empty',
      `spec.schedulingGates[0]: Invalid value: "": ${namePart}`,
    ]);
    expect(says([{}, {}])).toEqual([
      'spec.schedulingGates[0]: Invalid value: "": name part must be non-empty',
      `spec.schedulingGates[0]: Invalid value: "": ${namePart}`,
      'spec.schedulingGates[1]: Invalid value: "": name part must be non-empty',
      `spec.schedulingGates[1]: Invalid value: "": ${namePart}`,
      'spec.schedulingGates[1]: Duplicate value: ""',
    ]);
  });
});

describe("ValidateRuntimeClassName (a set pointer: a DNS subdomain, the empty string too)", () => {
  const says = (o: JsonObject) => messages(validateRuntimeClassName(o, spec));

  it("accepts a subdomain and ignores an unset or null name", () => {
    expect(says({ runtimeClassName: "gvisor" })).toEqual([]);
    expect(says({ runtimeClassName: "kata.qemu-1" })).toEqual([]);
    expect(says({})).toEqual([]);
    expect(says({ runtimeClassName: null })).toEqual([]);
  });

  it("refuses capitals and underscores", () => {
    expect(says({ runtimeClassName: "Bad_Name" })).toEqual([
      `spec.runtimeClassName: Invalid value: "Bad_Name": ${subdomain}`,
    ]);
  });

  it("refuses the empty string, which the pointer keeps", () => {
    expect(says({ runtimeClassName: "" })).toEqual([`spec.runtimeClassName: Invalid value: "": ${subdomain}`]);
  });

  it("refuses a name longer than 253 bytes with both messages", () => {
    const long = `${"a".repeat(251)}.b-`; // 254 bytes
    expect(says({ runtimeClassName: long })).toEqual([
      `spec.runtimeClassName: Invalid value: "${long}": must be no more than 253 characters`,
      `spec.runtimeClassName: Invalid value: "${long}": ${subdomain}`,
    ]);
  });
});

describe("ValidatePreemptionPolicy (a set pointer)", () => {
  const says = (o: JsonObject, at = ["spec", "preemptionPolicy"]) => messages(validatePreemptionPolicy(o, at));

  it("accepts both values and ignores an unset or null policy", () => {
    expect(says({ preemptionPolicy: "PreemptLowerPriority" })).toEqual([]);
    expect(says({ preemptionPolicy: "Never" })).toEqual([]);
    expect(says({})).toEqual([]);
    expect(says({ preemptionPolicy: null })).toEqual([]);
  });

  it("refuses a wrong casing, listing the values in Go's order (not sorted)", () => {
    expect(says({ preemptionPolicy: "preemptLowerPriority" })).toEqual([
      'spec.preemptionPolicy: Unsupported value: "preemptLowerPriority": supported values: "PreemptLowerPriority", "Never"',
    ]);
  });

  it("requires a value when the field is the empty string", () => {
    expect(says({ preemptionPolicy: "" })).toEqual(["spec.preemptionPolicy: Required value"]);
  });

  it("words a PriorityClass's policy as cluster.test.ts expects (the same Go function)", () => {
    expect(says({ preemptionPolicy: "Sometimes" }, ["preemptionPolicy"])).toEqual([
      'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ]);
  });
});

describe("validateOverhead (validateResourceRequirements with Limits = overhead)", () => {
  const says = (overhead: JsonObject | undefined) =>
    messages(validateOverhead(overhead === undefined ? {} : { overhead }, spec)).sort();

  it("accepts what a RuntimeClass sets, and no overhead", () => {
    expect(says({ cpu: "250m", memory: "120Mi" })).toEqual([]);
    expect(says({})).toEqual([]);
    expect(says(undefined)).toEqual([]);
  });

  it("names the resource at `overhead.limits[<name>]`", () => {
    expect(says({ foo: "1" })).toEqual([
      'spec.overhead.limits[foo]: Invalid value: "foo": must be a standard resource for containers',
      'spec.overhead.limits[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
    ]);
  });

  it("refuses a negative quantity", () => {
    expect(says({ cpu: "-1" })).toEqual([
      'spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });

  it("refuses hugepages without cpu or memory, at `overhead`", () => {
    expect(says({ "hugepages-2Mi": "2Mi" })).toEqual(["spec.overhead: Forbidden: HugePages require cpu or memory"]);
    expect(says({ "hugepages-2Mi": "2Mi", memory: "64Mi" })).toEqual([]);
  });
});

describe("validateHostUsers (no host namespaces in a user namespace)", () => {
  const all = { hostUsers: false, hostNetwork: true, hostPID: true, hostIPC: true };
  const says = (o: JsonObject, minor: number) => messages(validateHostUsers(o, spec, minor));

  it("1.33: the old words, and Go's capitalised HostPID and HostIPC", () => {
    expect(says(all, 33)).toEqual([
      "spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false",
      "spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false",
      "spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false",
    ]);
  });

  it("1.34 on: the words of kubernetes PR #132868", () => {
    for (const minor of [34, 35, 36])
      expect(says(all, minor)).toEqual([
        "spec.hostNetwork: Forbidden: when `hostUsers` is false",
        "spec.HostPID: Forbidden: when `hostUsers` is false",
        "spec.HostIPC: Forbidden: when `hostUsers` is false",
      ]);
  });

  it("reports only the namespaces shared, under the spec's own path", () => {
    expect(messages(validateHostUsers({ hostUsers: false, hostPID: true }, ["spec", "template", "spec"], 36))).toEqual([
      "spec.template.spec.HostPID: Forbidden: when `hostUsers` is false",
    ]);
  });

  it("accepts host namespaces with the host's users, and a user namespace alone", () => {
    expect(says({ hostNetwork: true, hostPID: true, hostIPC: true }, 36)).toEqual([]);
    expect(says({ ...all, hostUsers: true }, 36)).toEqual([]);
    expect(says({ hostUsers: false }, 36)).toEqual([]);
  });

  it("1.32: UserNamespacesSupport is off and hostUsers dropped", () => {
    expect(says(all, 32)).toEqual([]);
  });
});

describe("validateSELinuxChangePolicy (only Recursive while SELinuxMount is off)", () => {
  const says = (policy: unknown, minor: number) =>
    messages(
      validateSELinuxChangePolicy({ securityContext: { seLinuxChangePolicy: policy } } as JsonObject, spec, minor),
    );
  const only = (value: string) =>
    `spec.securityContext.seLinuxChangePolicy: Unsupported value: "${value}": supported values: "Recursive"`;

  it("refuses MountOption from 1.33 to 1.36", () => {
    for (const minor of [33, 34, 35, 36]) expect(says("MountOption", minor)).toEqual([only("MountOption")]);
  });

  it("refuses an unknown value and the empty string with the same list", () => {
    expect(says("Sometimes", 36)).toEqual([only("Sometimes")]);
    expect(says("", 36)).toEqual([only("")]);
  });

  it("accepts Recursive, an unset policy, and anything in 1.32 (field dropped)", () => {
    expect(says("Recursive", 36)).toEqual([]);
    expect(says(null, 36)).toEqual([]);
    expect(messages(validateSELinuxChangePolicy({}, spec, 36))).toEqual([]);
    expect(says("MountOption", 32)).toEqual([]);
  });
});

describe("validateHTTPGetAction's header names (IsHTTPHeaderName, no index in the path)", () => {
  const at = ["spec", "containers", 0, "livenessProbe", "httpGet"];
  const says = (headers: JsonObject[]) => messages(validateHTTPHeaders({ port: 80, httpHeaders: headers }, at));
  const bad = (name: string) =>
    `spec.containers[0].livenessProbe.httpGet.httpHeaders: Invalid value: "${name}": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`;

  it("accepts letters, digits and dashes", () => {
    expect(
      says([
        { name: "X-Custom-Header", value: "a b" },
        { name: "Accept", value: "*/*" },
      ]),
    ).toEqual([]);
  });

  it("refuses a space, an underscore and the empty name, each at `httpHeaders`", () => {
    expect(
      says([
        { name: "X-Ok", value: "" },
        { name: "bad header", value: "x" },
      ]),
    ).toEqual([bad("bad header")]);
    expect(
      says([
        { name: "X_Forwarded", value: "x" },
        { name: "", value: "x" },
      ]),
    ).toEqual([bad("X_Forwarded"), bad("")]);
  });

  it("takes an absent name as the empty one", () => {
    expect(says([{ value: "x" }])).toEqual(says([{ name: "", value: "x" }]));
    expect(says([{ value: "x" }])).toHaveLength(1);
  });
});
