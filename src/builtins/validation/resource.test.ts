/**
 * DRA's kinds as pkg/apis/resource/validation refuses them on create, word for word: ValidateResourceClaim,
 * ValidateResourceClaimTemplate and ValidateDeviceClass, through validateDeviceClaim, validateDeviceRequest,
 * validateExactDeviceRequest, validateDeviceSubRequest, validateDeviceAllocationMode, validateSelector,
 * validateCELSelector / validateCELExpression, validateDeviceConstraint, validateFullyQualifiedName,
 * validateRequestNameRef, validateDeviceConfiguration, validateRawExtension, validateDeviceToleration; and the
 * DeviceRequest union's own words (unions/wording-resource.ts).
 */
import { describe, expect, it } from "vitest";
import type { Union } from "../../schema/index.js";
import { isSet as unionIsSet } from "../../unions/members.js";
import { deviceRequest } from "../../unions/wording-resource.js";
import type { JsonObject } from "../../value/index.js";
import { validateDeviceClass, validateResourceClaim, validateResourceClaimTemplate } from "./resource.js";
import { dns1123LabelError, dns1123SubdomainError, labelValueError, qualifiedNamePartError } from "./test-helpers.js";

const messages = (findings: { message: string }[]) => findings.map((f) => f.message).sort();

/** A claim as the NVIDIA DRA driver's examples write one: one GPU by class, with a selector and a config. */
const claim = (devices: JsonObject): JsonObject => ({
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceClaim",
  metadata: { name: "single-gpu" },
  spec: {
    devices: {
      requests: [
        {
          name: "gpu",
          exactly: {
            deviceClassName: "gpu.nvidia.com",
            selectors: [{ cel: { expression: 'device.attributes["gpu.nvidia.com"].productName == "A100"' } }],
          },
        },
      ],
      ...devices,
    },
  },
});

const said = (devices: JsonObject, minor = 36) => messages(validateResourceClaim(claim(devices), minor));

/** One request, `exactly` holding `exact`. */
const exactly = (exact: JsonObject, minor = 36) =>
  said({ requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.nvidia.com", ...exact } }] }, minor);

const at = "spec.devices.requests[0]";
const cIdentifierError =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
const refError =
  "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

describe("validateResourceClaim", () => {
  it("accepts a valid claim in every release", () => {
    for (const minor of [34, 35, 36]) expect(said({}, minor)).toEqual([]);
  });

  it("accepts firstAvailable subrequests, constraints and config naming them", () => {
    expect(
      said({
        requests: [
          {
            name: "gpu",
            firstAvailable: [
              { name: "big", deviceClassName: "gpu.nvidia.com", allocationMode: "All" },
              { name: "small", deviceClassName: "gpu.nvidia.com", count: 2 },
            ],
          },
          { name: "nic", exactly: { deviceClassName: "nic.example.com" } },
        ],
        constraints: [{ requests: ["gpu/big", "nic"], matchAttribute: "resource.kubernetes.io/pcieRoot" }],
        config: [{ requests: ["gpu"], opaque: { driver: "gpu.nvidia.com", parameters: { sharing: "TimeSlicing" } } }],
      }),
    ).toEqual([]);
  });

  describe("validateDeviceRequest", () => {
    it("a request name not a DNS label", () => {
      expect(said({ requests: [{ name: "GPU", exactly: { deviceClassName: "c" } }] })).toEqual([
        `${at}.name: Invalid value: "GPU": ${dns1123LabelError}`,
      ]);
    });

    it("more than 32 requests: only that is said", () => {
      const requests = Array.from({ length: 33 }, (_, i) => ({ name: "BAD", exactly: { deviceClassName: `c${i}` } }));
      expect(said({ requests })).toEqual(["spec.devices.requests: Too many: 33: must have at most 32 items"]);
    });

    it("a request name said twice, at the item, from 1.36", () => {
      const requests = [
        { name: "a", exactly: { deviceClassName: "c" } },
        { name: "a", exactly: { deviceClassName: "c" } },
      ];
      expect(said({ requests })).toEqual(['spec.devices.requests[1]: Duplicate value: "a"']);
      expect(said({ requests }, 35)).toEqual([]);
    });

    it("members are not looked at when both or none are set (the union says so)", () => {
      expect(
        said({
          requests: [
            { name: "a", exactly: { deviceClassName: "BAD" }, firstAvailable: [{ name: "BAD", deviceClassName: "c" }] },
            { name: "b", firstAvailable: [] },
          ],
        }),
      ).toEqual([]);
    });
  });

  describe("validateExactDeviceRequest", () => {
    it("an empty class is Required", () => {
      expect(exactly({ deviceClassName: "" })).toEqual([`${at}.exactly.deviceClassName: Required value`]);
    });

    it("a class not a DNS subdomain", () => {
      expect(exactly({ deviceClassName: "GPU" })).toEqual([
        `${at}.exactly.deviceClassName: Invalid value: "GPU": ${dns1123SubdomainError}`,
      ]);
    });
  });

  describe("validateDeviceAllocationMode (after SetDefaults_ExactDeviceRequest)", () => {
    it("no mode and no count: ExactCount of 1", () => {
      expect(exactly({ allocationMode: "", count: 0 })).toEqual([]);
    });

    it("All with a count", () => {
      expect(exactly({ allocationMode: "All", count: 2 })).toEqual([
        `${at}.exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'`,
      ]);
    });

    it("a negative count", () => {
      expect(exactly({ count: -1 })).toEqual([`${at}.exactly.count: Invalid value: -1: must be greater than zero`]);
    });

    it("an unknown mode", () => {
      expect(exactly({ allocationMode: "Any" })).toEqual([
        `${at}.exactly.allocationMode: Unsupported value: "Any": supported values: "All", "ExactCount"`,
      ]);
    });
  });

  describe("validateDeviceSubRequest", () => {
    const first = (subrequests: JsonObject[], minor = 36) =>
      said({ requests: [{ name: "gpu", firstAvailable: subrequests }] }, minor);

    it("a subrequest's name, class and count", () => {
      expect(first([{ name: "Big", deviceClassName: "", allocationMode: "All", count: 1 }])).toEqual([
        `${at}.firstAvailable[0].count: Invalid value: 1: must not be specified when allocationMode is 'All'`,
        `${at}.firstAvailable[0].deviceClassName: Required value`,
        `${at}.firstAvailable[0].name: Invalid value: "Big": ${dns1123LabelError}`,
      ]);
    });

    it('a request or subrequest without name: Go\'s "", not a DNS label', () => {
      expect(said({ requests: [{ firstAvailable: [{ deviceClassName: "c" }] }] })).toEqual([
        `${at}.firstAvailable[0].name: Invalid value: "": ${dns1123LabelError}`,
        `${at}.name: Invalid value: "": ${dns1123LabelError}`,
      ]);
    });

    it("more than 8 subrequests", () => {
      const subs = Array.from({ length: 9 }, (_, i) => ({ name: `s${i}`, deviceClassName: "c" }));
      expect(first(subs)).toEqual([`${at}.firstAvailable: Too many: 9: must have at most 8 items`]);
    });

    it("a subrequest name said twice, from 1.36", () => {
      const subs = [
        { name: "s", deviceClassName: "c" },
        { name: "s", deviceClassName: "c" },
      ];
      expect(first(subs)).toEqual([`${at}.firstAvailable[1]: Duplicate value: "s"`]);
      expect(first(subs, 34)).toEqual([]);
    });
  });

  describe("validateSelector and the CEL selector", () => {
    it("a selector without cel", () => {
      expect(exactly({ selectors: [{}] })).toEqual([`${at}.exactly.selectors[0].cel: Required value`]);
    });

    it("an expression that does not compile, with the expression as the value", () => {
      expect(exactly({ selectors: [{ cel: { expression: "device.name == 'a'" } }] })).toEqual([
        `${at}.exactly.selectors[0].cel.expression: Invalid value: "device.name == 'a'": compilation failed: ERROR: <input>:1:7: undefined field 'name'\n | device.name == 'a'\n | ......^`,
      ]);
    });

    it("an expression that is no bool", () => {
      expect(exactly({ selectors: [{ cel: { expression: "device.driver" } }] })).toEqual([
        `${at}.exactly.selectors[0].cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string`,
      ]);
    });

    it("an attribute's value is of the unknown type: accepted", () => {
      expect(exactly({ selectors: [{ cel: { expression: 'device.attributes["a.b"].c' } }] })).toEqual([]);
    });

    it("device.allowMultipleAllocations from 1.36 (DRAConsumableCapacity)", () => {
      const selectors = [{ cel: { expression: "device.allowMultipleAllocations" } }];
      expect(exactly({ selectors })).toEqual([]);
      expect(exactly({ selectors }, 35)).toHaveLength(1);
    });

    it("an expression over 10 KiB is not compiled", () => {
      expect(exactly({ selectors: [{ cel: { expression: `${"x".repeat(10 * 1024)}+` } }] })).toEqual([
        `${at}.exactly.selectors[0].cel.expression: Too long: may not be more than 10240 bytes`,
      ]);
    });

    it("more than 32 selectors", () => {
      const selectors = Array.from({ length: 33 }, () => ({ cel: { expression: "true" } }));
      expect(exactly({ selectors })).toEqual([`${at}.exactly.selectors: Too many: 33: must have at most 32 items`]);
    });
  });

  describe("validateDeviceToleration (DRADeviceTaints, from 1.36)", () => {
    it("each rule, the operator defaulted to Equal", () => {
      const tolerations: JsonObject[] = [
        { key: "a b", value: "x y" },
        { operator: "Exists", value: "v" },
        { operator: "Gt", effect: "Evict" },
        { key: "example.com/gpu", operator: "Exists", effect: "NoExecute" },
      ];
      expect(exactly({ tolerations })).toEqual([
        `${at}.exactly.tolerations[0].key: Invalid value: "a b": ${qualifiedNamePartError}`,
        `${at}.exactly.tolerations[0].value: Invalid value: "x y": ${labelValueError}`,
        `${at}.exactly.tolerations[1].value: Invalid value: "v": must be empty for operator \`Exists\``,
        `${at}.exactly.tolerations[2].effect: Unsupported value: "Evict": supported values: "NoExecute", "NoSchedule", "None"`,
        `${at}.exactly.tolerations[2].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"`,
      ]);
      expect(exactly({ tolerations }, 35)).toEqual([]);
    });
  });

  describe("validateDeviceConstraint", () => {
    const constraint = (c: JsonObject, minor = 36) => said({ constraints: [c] }, minor);
    const cAt = "spec.devices.constraints[0]";

    it("neither attribute: Required matchAttribute before 1.36, the constraint from 1.36", () => {
      expect(constraint({ requests: ["gpu"] }, 35)).toEqual([`${cAt}.matchAttribute: Required value`]);
      expect(constraint({ requests: ["gpu"] })).toEqual([
        `${cAt}: Required value: exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`,
      ]);
    });

    it("distinctAttribute is dropped before 1.36", () => {
      expect(constraint({ distinctAttribute: "x" }, 35)).toEqual([`${cAt}.matchAttribute: Required value`]);
      expect(constraint({ distinctAttribute: "example.com/x" })).toEqual([]);
    });

    it("validateFullyQualifiedName", () => {
      expect(constraint({ matchAttribute: "model" })).toEqual([
        `${cAt}.matchAttribute: Invalid value: "model": a fully qualified name must be a domain and a name separated by a slash`,
      ]);
      expect(constraint({ matchAttribute: "/" })).toEqual([
        `${cAt}.matchAttribute: Invalid value: "": the domain must not be empty`,
        `${cAt}.matchAttribute: Invalid value: "": the name must not be empty`,
      ]);
      expect(constraint({ matchAttribute: "Example_com/pcie-root" })).toEqual([
        `${cAt}.matchAttribute: Invalid value: "Example_com": ${dns1123SubdomainError}`,
        `${cAt}.matchAttribute: Invalid value: "pcie-root": ${cIdentifierError}`,
      ]);
      expect(constraint({ matchAttribute: `example.com/${"a".repeat(33)}` })).toEqual([
        `${cAt}.matchAttribute: Too long: may not be more than 32 bytes`,
      ]);
      expect(constraint({ matchAttribute: "a/b/c" })).toEqual([]);
    });

    it("validateRequestNameRef", () => {
      expect(constraint({ requests: ["gpu", "nic", "gpu/x", "a/B/c", "GPU"], matchAttribute: "d.e/f" })).toEqual([
        `${cAt}.requests[1]: Invalid value: "nic": ${refError}`,
        `${cAt}.requests[2]: Invalid value: "gpu/x": ${refError}`,
        `${cAt}.requests[3]: Invalid value: "a/B/c": ${refError}`,
        `${cAt}.requests[4]: Invalid value: "GPU": ${dns1123LabelError}`,
        `${cAt}.requests[4]: Invalid value: "GPU": ${refError}`,
      ]);
    });

    it("a request referred to twice, from 1.36", () => {
      expect(constraint({ requests: ["gpu", "gpu"], matchAttribute: "d.e/f" })).toEqual([
        `${cAt}.requests[1]: Duplicate value: "gpu"`,
      ]);
    });
  });

  describe("validateDeviceConfiguration", () => {
    const config = (c: JsonObject) => said({ config: [c] });
    const kAt = "spec.devices.config[0]";

    it("opaque is required", () => {
      expect(config({ requests: ["gpu"] })).toEqual([`${kAt}.opaque: Required value`]);
    });

    it("the driver a CSI driver name", () => {
      expect(config({ opaque: { driver: "GPU_Driver", parameters: {} } })).toEqual([
        `${kAt}.opaque.driver: Invalid value: "GPU_Driver": ${dns1123SubdomainError}`,
      ]);
      expect(config({ opaque: { driver: "", parameters: {} } })).toContain(`${kAt}.opaque.driver: Required value`);
    });

    it("parameters: a JSON object of at most 10 KiB, null no value", () => {
      expect(config({ opaque: { driver: "d.example.com", parameters: "x" } })).toEqual([
        `${kAt}.opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object`,
      ]);
      expect(config({ opaque: { driver: "d.example.com", parameters: null } })).toEqual([
        `${kAt}.opaque.parameters: Required value`,
      ]);
      // {"a":"…"} is 8 bytes besides the string; Go escapes < as \u003c
      expect(config({ opaque: { driver: "d.example.com", parameters: { a: "<".repeat(1706) } } })).toEqual([
        `${kAt}.opaque.parameters: Too long: may not be more than 10240 bytes`,
      ]);
      expect(config({ opaque: { driver: "d.example.com", parameters: { a: "x".repeat(10232) } } })).toEqual([]);
    });

    it("more than 32 configs", () => {
      const cfg = Array.from({ length: 33 }, () => ({}));
      expect(said({ config: cfg })).toEqual(["spec.devices.config: Too many: 33: must have at most 32 items"]);
    });
  });
});

describe("validateResourceClaimTemplate", () => {
  it("the claim spec under spec.spec", () => {
    const template = {
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaimTemplate",
      metadata: { name: "gpu" },
      spec: { spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "", count: 0 } }] } } },
    };
    expect(messages(validateResourceClaimTemplate(template, 36))).toEqual([
      "spec.spec.devices.requests[0].exactly.deviceClassName: Required value",
    ]);
  });

  it("its spec.metadata as core's ValidateTemplateObjectMeta (validateResourceClaimTemplateSpec)", () => {
    const template = {
      metadata: { name: "gpu" },
      spec: {
        metadata: { name: "claim", labels: { "bad key": "x" } },
        spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] } },
      },
    };
    expect(messages(validateResourceClaimTemplate(template, 36))).toEqual([
      "spec.metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.metadata.name: Forbidden: cannot be set",
    ]);
  });
});

describe("validateDeviceClass", () => {
  const deviceClass = (spec: JsonObject, minor = 36) =>
    messages(
      validateDeviceClass(
        { apiVersion: "resource.k8s.io/v1", kind: "DeviceClass", metadata: { name: "gpu.nvidia.com" }, spec },
        minor,
      ),
    );

  it("accepts the driver's class", () => {
    expect(
      deviceClass({
        selectors: [{ cel: { expression: "device.driver == 'gpu.nvidia.com'" } }],
        config: [{ opaque: { driver: "gpu.nvidia.com", parameters: { kind: "GpuConfig" } } }],
        extendedResourceName: "example.com/gpu",
      }),
    ).toEqual([]);
  });

  it("selectors and config", () => {
    expect(deviceClass({ selectors: [{ cel: { expression: "1" } }], config: [{}] })).toEqual(
      [
        'spec.selectors[0].cel.expression: Invalid value: "1": must evaluate to bool or the unknown type, not int',
        "spec.config[0].opaque: Required value",
      ].sort(),
    );
  });

  it("extendedResourceName from 1.36 (DRAExtendedResource)", () => {
    for (const name of ["cpu", "kubernetes.io/gpu", "requests.example.com/gpu", "example.com/a b"])
      expect(deviceClass({ extendedResourceName: name })).toEqual([
        `spec.extendedResourceName: Invalid value: "${name}": must be a valid extended resource name`,
      ]);
    expect(deviceClass({ extendedResourceName: "cpu" }, 35)).toEqual([]);
  });
});

describe("the DeviceRequest union's words (validateDeviceRequest)", () => {
  const union: Union = {
    members: [
      { field: "exactly", kind: "object" },
      { field: "firstAvailable", kind: "list" },
    ],
  } as unknown as Union;
  const word = (node: JsonObject) =>
    messages(
      deviceRequest({ union, path: ["spec", "devices", "requests", 0], node, isSet: (m) => unionIsSet(node, m) }),
    );

  it("none set, an empty firstAvailable being none", () => {
    expect(word({ name: "a", firstAvailable: [] })).toEqual([
      `${at}: Required value: exactly one of \`exactly\` or \`firstAvailable\` is required`,
    ]);
  });

  it("both set: Go's nil printed as the string null", () => {
    expect(word({ name: "a", exactly: {}, firstAvailable: [{}] })).toEqual([
      `${at}: Invalid value: "null": exactly one of \`exactly\` or \`firstAvailable\` is required, but multiple fields are set`,
    ]);
  });

  it("one set", () => {
    expect(word({ name: "a", exactly: {} })).toEqual([]);
    expect(word({ name: "a", firstAvailable: [{}] })).toEqual([]);
  });
});
