/**
 * pod-resources.ts against pkg/apis/core/validation/validation.go (the
 * version with PodLevelResourcesEnabled and AllowSidecarResizePolicy in
 * PodValidationOptions): validateResourceQuantityHugePageValue with
 * helper.IsHugePageResourceValueDivisible, validateResizePolicy,
 * validatePodResourceClaims/validatePodResourceClaim,
 * validateResourceClaimNames, validatePodResources (validatePodResourceName,
 * validatePodResourceConsistency with component-helpers'
 * AggregateContainerRequests), and the gates of pkg/features/kube_features.go
 * (InPlacePodVerticalScaling on from 1.33, DynamicResourceAllocation and
 * PodLevelResources from 1.34; pkg/api/pod/util.go drops the fields before).
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  podClaimNames,
  validateContainerClaims,
  validatePodLevelResources,
  validatePodResourceClaims,
  validateResizePolicy,
} from "./pod-resources.js";
import { validateHugePageValue } from "./resources.js";
import {
  container,
  deployment,
  dns1123LabelError,
  dns1123SubdomainError,
  pod,
  said,
  template,
} from "./test-helpers.js";

const messages = (fs: Finding[]) => fs.map((f) => f.message);
const ctrPath = ["spec", "containers", 0];

describe("validateHugePageValue (validateResourceQuantityHugePageValue)", () => {
  const at = [...ctrPath, "resources", "limits", { key: "hugepages-2Mi" }];
  const check = (name: string, value: string) =>
    messages(validateHugePageValue(name, value, [...ctrPath, "resources", "limits", { key: name }]));

  it("rejects a value that is not a whole number of pages, printed canonically", () => {
    expect(messages(validateHugePageValue("hugepages-2Mi", "3Mi", at))).toEqual([
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ]);
    expect(check("hugepages-2Mi", "2.5Mi")).toEqual([
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "2560Ki": 2560Ki is not positive integer multiple of hugepages-2Mi',
    ]);
  });

  it("accepts whole pages, in any spelling, and zero", () => {
    expect(check("hugepages-2Mi", "4Mi")).toEqual([]);
    expect(check("hugepages-2Mi", "2097152")).toEqual([]);
    expect(check("hugepages-1Gi", "2Gi")).toEqual([]);
    expect(check("hugepages-2Mi", "0")).toEqual([]);
  });

  it("rejects every value when the page size is no whole positive quantity (HugePageSizeFromResourceName)", () => {
    expect(check("hugepages-foo", "1")).toEqual([
      'spec.containers[0].resources.limits[hugepages-foo]: Invalid value: "1": 1 is not positive integer multiple of hugepages-foo',
    ]);
    expect(check("hugepages-500m", "1")).toEqual([
      'spec.containers[0].resources.limits[hugepages-500m]: Invalid value: "1": 1 is not positive integer multiple of hugepages-500m',
    ]);
  });

  it("leaves other resources and unparsable quantities alone", () => {
    expect(check("memory", "3Mi")).toEqual([]);
    expect(check("hugepages-2Mi", "lots")).toEqual([]);
  });
});

describe("validateResizePolicy", () => {
  const ctr = (resizePolicy: JsonObject[]): JsonObject => ({ name: "app", image: "nginx", resizePolicy });
  const check = (policies: JsonObject[], podRestartPolicy = "Always", minor = 36) =>
    messages(validateResizePolicy(ctr(policies), ctrPath, podRestartPolicy, minor));

  it("is dropped before 1.33 (InPlacePodVerticalScaling alpha, off)", () => {
    expect(check([{ resourceName: "gpu", restartPolicy: "Sometimes" }], "Always", 32)).toEqual([]);
    expect(check([{ resourceName: "gpu", restartPolicy: "NotRequired" }], "Always", 33)).toHaveLength(1);
  });

  it("accepts cpu and memory once each", () => {
    expect(
      check([
        { resourceName: "cpu", restartPolicy: "NotRequired" },
        { resourceName: "memory", restartPolicy: "RestartContainer" },
      ]),
    ).toEqual([]);
  });

  it("reports a repeated resource at its index, the rest at the list", () => {
    expect(
      check([
        { resourceName: "cpu", restartPolicy: "NotRequired" },
        { resourceName: "cpu", restartPolicy: "NotRequired" },
      ]),
    ).toEqual(['spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"']);
    expect(check([{ resourceName: "gpu", restartPolicy: "Sometimes" }])).toEqual([
      'spec.containers[0].resizePolicy: Unsupported value: "gpu": supported values: "cpu", "memory"',
      'spec.containers[0].resizePolicy: Unsupported value: "Sometimes": supported values: "NotRequired", "RestartContainer"',
    ]);
    expect(check([{ resourceName: "", restartPolicy: "" }])).toEqual([
      "spec.containers[0].resizePolicy: Required value",
      "spec.containers[0].resizePolicy: Required value",
    ]);
  });

  it("allows only NotRequired in a pod that never restarts", () => {
    expect(check([{ resourceName: "cpu", restartPolicy: "RestartContainer" }], "Never")).toEqual([
      "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'",
    ]);
    expect(check([{ resourceName: "cpu", restartPolicy: "NotRequired" }], "Never")).toEqual([]);
    expect(check([{ resourceName: "cpu", restartPolicy: "RestartContainer" }], "OnFailure")).toEqual([]);
    expect(check([{ resourceName: "cpu", restartPolicy: "RestartContainer" }], "")).toEqual([]);
  });
});

describe("validatePodResourceClaims (validatePodResourceClaim)", () => {
  const check = (resourceClaims: JsonObject[], minor = 36) =>
    messages(validatePodResourceClaims({ resourceClaims }, ["spec"], minor));

  it("is dropped before 1.34 (DynamicResourceAllocation beta, off)", () => {
    expect(check([{ name: "" }], 33)).toEqual([]);
    expect(check([{ name: "" }], 34)).toHaveLength(2);
  });

  it("accepts named claims of one source each", () => {
    expect(
      check([
        { name: "gpu", resourceClaimName: "my-claim" },
        { name: "fpga", resourceClaimTemplateName: "fpga.template" },
      ]),
    ).toEqual([]);
  });

  it("requires a unique DNS-label name", () => {
    expect(
      check([
        { name: "", resourceClaimName: "c" },
        { name: "gpu", resourceClaimName: "c" },
        { name: "gpu", resourceClaimName: "c" },
        { name: "Bad_Name", resourceClaimName: "c" },
      ]),
    ).toEqual([
      "spec.resourceClaims[0].name: Required value",
      'spec.resourceClaims[2].name: Duplicate value: "gpu"',
      `spec.resourceClaims[3].name: Invalid value: "Bad_Name": ${dns1123LabelError}`,
    ]);
  });

  it("requires exactly one source, each a DNS subdomain", () => {
    expect(check([{ name: "a", resourceClaimName: "x", resourceClaimTemplateName: "y" }])).toEqual([
      'spec.resourceClaims[0]: Invalid value: {"name":"a","resourceClaimName":"x","resourceClaimTemplateName":"y"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
    ]);
    expect(check([{ name: "a" }])).toEqual([
      'spec.resourceClaims[0]: Invalid value: {"name":"a"}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
    ]);
    expect(check([{ name: "a", resourceClaimTemplateName: "Bad_T" }])).toEqual([
      `spec.resourceClaims[0].resourceClaimTemplateName: Invalid value: "Bad_T": ${dns1123SubdomainError}`,
    ]);
  });
});

describe("validateContainerClaims (validateResourceClaimNames)", () => {
  const at = [...ctrPath, "resources"];
  const check = (claims: JsonObject[], names: string[] = ["gpu"], minor = 36) =>
    messages(validateContainerClaims({ claims }, at, new Set(names), minor));

  it("is dropped before 1.34", () => {
    expect(check([{ name: "nope" }], [], 33)).toEqual([]);
  });

  it("accepts a claim, or distinct requests of one", () => {
    expect(check([{ name: "gpu" }])).toEqual([]);
    expect(
      check([
        { name: "gpu", request: "a" },
        { name: "gpu", request: "b" },
      ]),
    ).toEqual([]);
  });

  it("names the pod's claims, sorted, or says there are none", () => {
    expect(check([{ name: "fpga" }], [])).toEqual([
      'spec.containers[0].resources.claims[0]: Not found: "fpga": must be one of the names in pod.spec.resourceClaims which is empty',
    ]);
    expect(check([{ name: "fpga" }], ["gpu", "dpu"])).toEqual([
      'spec.containers[0].resources.claims[0]: Not found: "fpga": must be one of the names in pod.spec.resourceClaims: dpu, gpu',
    ]);
  });

  it("rejects an empty name, a repeated claim or request, and a bad request name", () => {
    expect(check([{ name: "" }])).toEqual(["spec.containers[0].resources.claims[0]: Required value"]);
    expect(check([{ name: "gpu" }, { name: "gpu", request: "a" }])).toEqual([
      'spec.containers[0].resources.claims[1]: Duplicate value: "gpu"',
    ]);
    expect(
      check([
        { name: "gpu", request: "a" },
        { name: "gpu", request: "a" },
      ]),
    ).toEqual(['spec.containers[0].resources.claims[1]: Duplicate value: "gpu/a"']);
    expect(check([{ name: "gpu", request: "a" }, { name: "gpu" }])).toEqual([
      'spec.containers[0].resources.claims[1]: Duplicate value: "gpu"',
    ]);
    expect(check([{ name: "gpu", request: "Req_1" }])).toEqual([
      `spec.containers[0].resources.claims[0].request: Invalid value: "Req_1": ${dns1123LabelError}`,
    ]);
  });

  it("gathers every non-empty claim name of the pod, valid or not", () => {
    expect([...podClaimNames({ resourceClaims: [{ name: "gpu" }, { name: "" }, { name: "Bad_Name" }] })]).toEqual([
      "gpu",
      "Bad_Name",
    ]);
  });
});

describe("validatePodLevelResources (validatePodResources)", () => {
  const spec = (resources: JsonObject, containers: JsonObject[], extra: JsonObject = {}): JsonObject => ({
    containers: containers.map((r, i) => ({ name: `c${i}`, image: "nginx", resources: r })),
    resources,
    ...extra,
  });
  const check = (s: JsonObject, minor = 36, resourceIsPod = false, claimNames: string[] = []) =>
    messages(validatePodLevelResources(s, ["spec"], { minor, resourceIsPod, claimNames: new Set(claimNames) }));

  it("is dropped before 1.34 (PodLevelResources alpha, off)", () => {
    const bad = spec({ limits: { "ephemeral-storage": "1Gi" } }, [{}]);
    expect(check(bad, 33)).toEqual([]);
    expect(check(bad, 34)).toHaveLength(1);
  });

  it("accepts requests that cover the containers and limits above each container's", () => {
    expect(
      check(
        spec({ requests: { cpu: "2", memory: "1Gi" }, limits: { cpu: "4", memory: "2Gi" } }, [
          { requests: { cpu: "500m", memory: "256Mi" }, limits: { cpu: "4" } },
          { requests: { cpu: "1500m" } },
        ]),
        36,
        true,
      ),
    ).toEqual([]);
  });

  it("forbids claims and names no pod-level resource can be", () => {
    expect(check(spec({ claims: [{ name: "gpu" }] }, [{}]), 36, false, ["gpu"])).toEqual([
      "spec.resources.claims: Forbidden: claims cannot be set for Resources at pod-level",
    ]);
    expect(check(spec({ limits: { "ephemeral-storage": "1Gi" } }, [{}]))).toEqual([
      'spec.resources.limits[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"',
    ]);
    expect(
      check(spec({ requests: { cpu: "1", "hugepages-2Mi": "4Mi" }, limits: { "hugepages-2Mi": "4Mi" } }, [{}])),
    ).toEqual([]);
  });

  it("checks quantities as a container's: request within limit, whole huge pages", () => {
    expect(check(spec({ requests: { cpu: "2" }, limits: { cpu: "1" } }, [{}]))).toEqual([
      'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]);
    expect(check(spec({ limits: { memory: "1Gi", "hugepages-2Mi": "3Mi" } }, [{}]))).toEqual([
      'spec.resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ]);
  });

  it("requires the pod's requests to cover the containers' aggregate", () => {
    expect(check(spec({ requests: { cpu: "1" } }, [{ requests: { cpu: "1" } }, { requests: { cpu: "1" } }]))).toEqual([
      'spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2',
    ]);
  });

  it("aggregates sidecars and init containers as AggregateContainerRequests does", () => {
    // containers 1 + sidecar 1 = 2; the init container runs beside the sidecar: 3 + 1 = 4; the peak is 4.
    const s = spec({ requests: { cpu: "3" } }, [{ requests: { cpu: "1" } }], {
      initContainers: [
        { name: "side", image: "x", restartPolicy: "Always", resources: { requests: { cpu: "1" } } },
        { name: "init", image: "x", resources: { requests: { cpu: "3" } } },
      ],
    });
    expect(check(s)).toEqual([
      'spec.resources.requests[cpu]: Invalid value: "3": must be greater than or equal to aggregate container requests of 4',
    ]);
  });

  it("reports a container limit above the pod's at Go's path", () => {
    expect(check(spec({ limits: { cpu: "1" } }, [{}, { limits: { cpu: "1500m" } }]))).toEqual([
      'spec.resources.containers[1][cpu].limits: Invalid value: "1500m": must be less than or equal to pod limits of 1',
    ]);
  });

  it("validates a Pod after SetDefaults_Pod, a template as written", () => {
    const s = spec({ limits: { cpu: "1" } }, [{ limits: { cpu: "2" } }]);
    // On a Pod the container request defaults to its limit (2), the pod request to the aggregate (2).
    expect(check(s, 36, true)).toEqual([
      'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1',
    ]);
    expect(check(s, 36, false)).toEqual([
      'spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1',
    ]);
  });

  it("leaves a resource the pod does not request to the containers", () => {
    expect(check(spec({ requests: { cpu: "1" } }, [{ requests: { cpu: "1", "ephemeral-storage": "1Gi" } }]))).toEqual(
      [],
    );
  });
});

describe("through the whole pod (validatePodSpec)", () => {
  it("a huge page limit that is no whole number of pages", () => {
    const object = pod({
      containers: [
        container({ resources: { limits: { memory: "1Gi", "hugepages-2Mi": "3Mi" }, requests: { memory: "1Gi" } } }),
      ],
    });
    expect(said("v1", "Pod", object)).toContain(
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    );
  });

  it("a resize policy that restarts a container the pod never restarts, and a resource twice, from 1.33", () => {
    const object = pod({
      restartPolicy: "Never",
      containers: [
        container({
          resizePolicy: [
            { resourceName: "cpu", restartPolicy: "RestartContainer" },
            { resourceName: "cpu", restartPolicy: "NotRequired" },
          ],
        }),
      ],
    });
    expect(said("v1", "Pod", object)).toEqual(
      [
        "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'",
        'spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"',
      ].sort(),
    );
    expect(said("v1", "Pod", object, 32)).toEqual([]);
  });

  it("a container's claim the pod does not declare, from 1.34", () => {
    const object = pod({
      resourceClaims: [{ name: "gpu", resourceClaimTemplateName: "gpu-template" }],
      containers: [container({ resources: { claims: [{ name: "gpu" }, { name: "fpga" }] } })],
    });
    expect(said("v1", "Pod", object)).toEqual([
      'spec.containers[0].resources.claims[1]: Not found: "fpga": must be one of the names in pod.spec.resourceClaims: gpu',
    ]);
    expect(said("v1", "Pod", object, 33)).toEqual([]);
  });

  it("a container's limit above the pod's, from 1.34; a Pod's requests defaulted first", () => {
    const spec = {
      resources: { limits: { cpu: "1" } },
      containers: [container({ resources: { limits: { cpu: "2" } } })],
    };
    expect(said("v1", "Pod", pod(spec))).toEqual([
      'spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1',
      'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]);
    expect(said("apps/v1", "Deployment", deployment({ template: template(spec) }))).toEqual([
      'spec.template.spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1',
    ]);
  });
});
