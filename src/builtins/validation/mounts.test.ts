/**
 * Volume mounts past their names and paths, and volume devices, word for word and in Go's order:
 * pkg/apis/core/validation/validation.go ValidateVolumeMounts (its volumeDevices overlap, subPath,
 * subPathExpr, mountPropagation and recursiveReadOnly checks), validateLocalDescendingPath,
 * validatePathNoBacksteps, validateMountPropagation, validateMountRecursiveReadOnly, ValidateVolumeDevices,
 * GetVolumeMountMap and GetVolumeDeviceMap; cases after validation_test.go's TestValidateVolumeMounts,
 * TestValidateSubpathMutuallyExclusive, TestValidateMountPropagation and TestAlphaValidateVolumeDevices.
 */
import { describe, expect, it } from "vitest";
import { child } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { objectItems } from "./common.js";
import {
  localDescendingPathErrors,
  validateMountDetails,
  validateVolumeDevices,
  volumeDeviceMap,
  volumeMountMap,
} from "./mounts.js";
import { container, pod, said } from "./test-helpers.js";

/** The pod's valid volumes, as ValidateVolumes hands them on: name → volume. */
const volumeList: JsonObject[] = [
  { name: "data", emptyDir: {} },
  { name: "host", hostPath: { path: "/srv" } },
  { name: "claim", persistentVolumeClaim: { claimName: "c" } },
  { name: "other", persistentVolumeClaim: { claimName: "o" } },
  {
    name: "scratch",
    ephemeral: {
      volumeClaimTemplate: { spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
    },
  },
];
const volumes = new Map(volumeList.map((v) => [v.name as string, v]));

const ctrPath = ["spec", "containers", 0];
const mountsAt = child(ctrPath, "volumeMounts");

/** What validateMountDetails says of each mount of `ctr`, as pod.ts's loop would call it: in order, unsorted. */
const mountsSay = (ctr: JsonObject): string[] => {
  const devices = volumeDeviceMap(ctr);
  return objectItems(ctr, "volumeMounts").flatMap(([i, mount]) =>
    validateMountDetails(ctr, mount, mountsAt, i, devices).map((f) => f.message),
  );
};
const mounts = (...volumeMounts: JsonObject[]): JsonObject => container({ volumeMounts });

/** What validateVolumeDevices says of `ctr`, in order. */
const devicesSay = (ctr: JsonObject): string[] =>
  validateVolumeDevices(ctr, child(ctrPath, "volumeDevices"), volumes).map((f) => f.message);

// Go's unindexed paths: fldPath.Child("subPath") and the like, fldPath being <container>.volumeMounts.
const subPath = (value: string, detail: string) =>
  `spec.containers[0].volumeMounts.subPath: Invalid value: ${JSON.stringify(value)}: ${detail}`;
const subPathExpr = (value: string, detail: string) =>
  `spec.containers[0].volumeMounts.subPathExpr: Invalid value: ${JSON.stringify(value)}: ${detail}`;
const relative = "must be a relative path";
const backsteps = "must not contain '..'";
const propagationPath = "spec.containers[0].volumeMounts.mountPropagation";
const bidirectional = `${propagationPath}: Forbidden: Bidirectional mount propagation is available only to privileged containers`;
const propagationUnsupported = (value: string) =>
  `${propagationPath}: Unsupported value: ${JSON.stringify(value)}: supported values: "Bidirectional", "HostToContainer", "None"`;
const rroPath = "spec.containers[0].volumeMounts.recursiveReadOnly";
const rroNotReadOnly = `${rroPath}: Forbidden: may only be specified when readOnly is true`;
const rroPropagation = `${rroPath}: Forbidden: may only be specified when mountPropagation is None or not specified`;
const rroUnsupported = (value: string) =>
  `${rroPath}: Unsupported value: ${JSON.stringify(value)}: supported values: "Disabled", "Enabled", "IfPossible"`;

describe("validateLocalDescendingPath (subPath, subPathExpr)", () => {
  it.each([
    ["a plain relative path", "baz", []],
    ["a dotted name (TestValidateVolumeMounts: .baz)", ".baz", []],
    ["a name starting with two dots (TestValidateVolumeMounts: ..baz)", "..baz", []],
    ["a name ending with two dots", "baz..", []],
    ["a backslash, which separates nothing on the server's Linux", "..\\baz", []],
    ["a Windows drive path, not absolute to path.IsAbs", "C:\\data", []],
    ["an absolute path", "/baz", [relative]],
    ["a leading backstep", "../baz", [backsteps]],
    ["a backstep inside (TestValidateVolumeMounts: baz/../bat)", "baz/../bat", [backsteps]],
    ["a trailing backstep (TestValidateVolumeMounts: ./..)", "./..", [backsteps]],
    ["only a backstep", "..", [backsteps]],
    ["many backsteps, said once", "../../..", [backsteps]],
    ["absolute and climbing: both, relative first", "/../etc", [relative, backsteps]],
  ])("%s", (_name, target, want) => {
    expect(localDescendingPathErrors(target)).toEqual(want);
  });
});

describe("ValidateVolumeMounts past names and mount paths", () => {
  it("accepts TestValidateVolumeMounts' good mounts", () => {
    const ctr = mounts(
      { name: "claim", mountPath: "/foo" },
      { name: "host", mountPath: "/bar" },
      { name: "claim", mountPath: "/baa", subPath: "" },
      { name: "claim", mountPath: "/bab", subPath: "baz" },
      { name: "claim", mountPath: "/bac", subPath: ".baz" },
      { name: "claim", mountPath: "/bad", subPath: "..baz" },
      { name: "data", mountPath: "/bae", subPathExpr: "$(POD_NAME)" },
      { name: "data", mountPath: "/baf", subPath: null, subPathExpr: null, mountPropagation: null },
      { name: "host", mountPath: "/h2c", mountPropagation: "HostToContainer" },
      { name: "host", mountPath: "/none", mountPropagation: "None" },
      { name: "host", mountPath: "/rro-nil", readOnly: true, recursiveReadOnly: null },
      { name: "host", mountPath: "/rro-disabled", readOnly: true, recursiveReadOnly: "Disabled" },
      { name: "host", mountPath: "/rro-disabled-2", readOnly: false, recursiveReadOnly: "Disabled" },
      { name: "host", mountPath: "/rro-ifpossible", readOnly: true, recursiveReadOnly: "IfPossible" },
      { name: "host", mountPath: "/rro-enabled", readOnly: true, recursiveReadOnly: "Enabled" },
      {
        name: "host",
        mountPath: "/rro-enabled-2",
        readOnly: true,
        recursiveReadOnly: "Enabled",
        mountPropagation: "None",
      },
    );
    ctr.volumeDevices = [
      { name: "scratch", devicePath: "/foofoo" },
      { name: "other", devicePath: "/foofoo/share/test" },
    ];
    expect(mountsSay(ctr)).toEqual([]);
  });

  const cases: [string, JsonObject, string[]][] = [
    // subPath and subPathExpr: paths without the mount's index.
    ["an absolute subPath", mounts({ name: "data", mountPath: "/d", subPath: "/baz" }), [subPath("/baz", relative)]],
    [
      "a subPath that climbs out",
      mounts({ name: "data", mountPath: "/d", subPath: "../baz" }),
      [subPath("../baz", backsteps)],
    ],
    [
      "an absolute subPath that climbs",
      mounts({ name: "data", mountPath: "/d", subPath: "/a/../b" }),
      [subPath("/a/../b", relative), subPath("/a/../b", backsteps)],
    ],
    [
      "an absolute subPathExpr",
      mounts({ name: "data", mountPath: "/d", subPathExpr: "/abs/$(POD_NAME)" }),
      [subPathExpr("/abs/$(POD_NAME)", relative)],
    ],
    [
      "a subPathExpr that climbs",
      mounts({ name: "data", mountPath: "/d", subPathExpr: "$(POD_NAME)/.." }),
      [subPathExpr("$(POD_NAME)/..", backsteps)],
    ],
    [
      "subPath and subPathExpr together (TestValidateSubpathMutuallyExclusive): indexed, between the two path checks",
      mounts({ name: "data", mountPath: "/d", subPath: "/a", subPathExpr: "../b" }),
      [
        subPath("/a", relative),
        'spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: "../b": subPathExpr and subPath are mutually exclusive',
        subPathExpr("../b", backsteps),
      ],
    ],
    [
      "the same bad subPath on two mounts: the same words twice (the server prints them once)",
      mounts({ name: "data", mountPath: "/a", subPath: "/x" }, { name: "data", mountPath: "/b", subPath: "/x" }),
      [subPath("/x", relative), subPath("/x", relative)],
    ],
    // mountPropagation (TestValidateMountPropagation).
    [
      "Bidirectional in a container without a securityContext",
      mounts({ name: "host", mountPath: "/h", mountPropagation: "Bidirectional" }),
      [bidirectional],
    ],
    [
      "Bidirectional in an explicitly unprivileged container",
      container({
        securityContext: { privileged: false },
        volumeMounts: [{ name: "host", mountPath: "/h", mountPropagation: "Bidirectional" }],
      }),
      [bidirectional],
    ],
    [
      "Bidirectional in a container whose securityContext leaves privileged unset",
      container({
        securityContext: { runAsNonRoot: true },
        volumeMounts: [{ name: "host", mountPath: "/h", mountPropagation: "Bidirectional" }],
      }),
      [bidirectional],
    ],
    [
      "Bidirectional in a privileged container",
      container({
        securityContext: { privileged: true },
        volumeMounts: [{ name: "host", mountPath: "/h", mountPropagation: "Bidirectional" }],
      }),
      [],
    ],
    [
      "an unknown mode, even in a privileged container",
      container({
        securityContext: { privileged: true },
        volumeMounts: [{ name: "host", mountPath: "/h", mountPropagation: "Sideways" }],
      }),
      [propagationUnsupported("Sideways")],
    ],
    [
      "a mode in the wrong case is unknown, and not Bidirectional",
      mounts({ name: "host", mountPath: "/h", mountPropagation: "bidirectional" }),
      [propagationUnsupported("bidirectional")],
    ],
    [
      "an empty mode is set, so unknown (nothing defaults it)",
      mounts({ name: "host", mountPath: "/h", mountPropagation: "" }),
      [propagationUnsupported("")],
    ],
    // recursiveReadOnly (TestValidateVolumeMounts' rro cases).
    [
      "Enabled on a writable mount",
      mounts({ name: "host", mountPath: "/r", readOnly: false, recursiveReadOnly: "Enabled" }),
      [rroNotReadOnly],
    ],
    [
      "IfPossible without readOnly",
      mounts({ name: "host", mountPath: "/r", recursiveReadOnly: "IfPossible" }),
      [rroNotReadOnly],
    ],
    [
      "Enabled with HostToContainer propagation",
      mounts({
        name: "host",
        mountPath: "/r",
        readOnly: true,
        recursiveReadOnly: "Enabled",
        mountPropagation: "HostToContainer",
      }),
      [rroPropagation],
    ],
    [
      "Enabled with an empty propagation: set and not None",
      mounts({ name: "host", mountPath: "/r", readOnly: true, recursiveReadOnly: "Enabled", mountPropagation: "" }),
      [propagationUnsupported(""), rroPropagation],
    ],
    [
      "IfPossible, writable, Bidirectional in an unprivileged container: propagation first, then readOnly, then propagation again",
      mounts({ name: "host", mountPath: "/r", recursiveReadOnly: "IfPossible", mountPropagation: "Bidirectional" }),
      [bidirectional, rroNotReadOnly, rroPropagation],
    ],
    [
      "an unknown recursiveReadOnly, whatever readOnly says",
      mounts({ name: "host", mountPath: "/r", readOnly: false, recursiveReadOnly: "Maybe" }),
      [rroUnsupported("Maybe")],
    ],
    [
      "an empty recursiveReadOnly",
      mounts({ name: "host", mountPath: "/r", readOnly: true, recursiveReadOnly: "" }),
      [rroUnsupported("")],
    ],
    // The container's volumeDevices (TestValidateVolumeMounts: "name exists in volumeDevice" and the like).
    [
      "a mount named as a device",
      container({
        volumeMounts: [{ name: "claim", mountPath: "/bar" }],
        volumeDevices: [{ name: "claim", devicePath: "/mnt/exists" }],
      }),
      ['spec.containers[0].volumeMounts[0].name: Invalid value: "claim": must not already exist in volumeDevices'],
    ],
    [
      "a mount path that is a device path",
      container({
        volumeMounts: [{ name: "data", mountPath: "/mnt/exists" }],
        volumeDevices: [{ name: "claim", devicePath: "/mnt/exists" }],
      }),
      [
        'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/mnt/exists": must not already exist as a path in volumeDevices',
      ],
    ],
    [
      "both, and the mount's own faults after them",
      container({
        volumeMounts: [{ name: "claim", mountPath: "/mnt/exists", subPath: "/x", mountPropagation: "Bidirectional" }],
        volumeDevices: [{ name: "claim", devicePath: "/mnt/exists" }],
      }),
      [
        'spec.containers[0].volumeMounts[0].name: Invalid value: "claim": must not already exist in volumeDevices',
        'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/mnt/exists": must not already exist as a path in volumeDevices',
        subPath("/x", relative),
        bidirectional,
      ],
    ],
    [
      "a device path replaced by a later device of the same name is not compared (a Go map keeps the last)",
      container({
        volumeMounts: [{ name: "data", mountPath: "/dev/first" }],
        volumeDevices: [
          { name: "claim", devicePath: "/dev/first" },
          { name: "claim", devicePath: "/dev/second" },
        ],
      }),
      [],
    ],
    [
      "each mount's errors in turn, at its own index",
      container({
        volumeMounts: [
          { name: "claim", mountPath: "/a", mountPropagation: "Sideways" },
          { name: "data", mountPath: "/dev/x", subPath: "../up" },
        ],
        volumeDevices: [{ name: "claim", devicePath: "/dev/x" }],
      }),
      [
        'spec.containers[0].volumeMounts[0].name: Invalid value: "claim": must not already exist in volumeDevices',
        propagationUnsupported("Sideways"),
        'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/dev/x": must not already exist as a path in volumeDevices',
        subPath("../up", backsteps),
      ],
    ],
  ];

  it.each(cases)("%s", (_name, ctr, want) => {
    expect(mountsSay(ctr)).toEqual(want);
  });
});

describe("ValidateVolumeDevices", () => {
  const devices = (volumeDevices: JsonObject[], volumeMounts: JsonObject[] = []): JsonObject =>
    container({ volumeDevices, volumeMounts });
  const at = (i: number, field: string) => `spec.containers[0].volumeDevices[${i}].${field}`;
  const blockOnly = "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode";

  it("accepts TestAlphaValidateVolumeDevices' good devices: a claim, a generic ephemeral volume, a relative path", () => {
    const ctr = devices(
      [
        { name: "claim", devicePath: "/foo" },
        { name: "other", devicePath: "baz" },
        { name: "scratch", devicePath: "/disk" },
      ],
      [
        { name: "data", mountPath: "/foofoo" },
        { name: "host", mountPath: "/foo/usr/share/test" },
      ],
    );
    expect(devicesSay(ctr)).toEqual([]);
  });

  const cases: [string, JsonObject, string[]][] = [
    [
      "an empty name: Required, and no volume of that name",
      devices([{ name: "", devicePath: "/foo" }]),
      [`${at(0, "name")}: Required value`, `${at(0, "name")}: Not found: ""`],
    ],
    [
      "an absent name: the schema's Required, and no volume of that name",
      devices([{ devicePath: "/foo" }]),
      [`${at(0, "name")}: Not found: ""`],
    ],
    [
      "a duplicate name",
      devices([
        { name: "claim", devicePath: "/foo" },
        { name: "claim", devicePath: "/foo/bar" },
      ]),
      [`${at(1, "name")}: Invalid value: "claim": must be unique`],
    ],
    ["a name not found", devices([{ name: "nope", devicePath: "/dev/x" }]), [`${at(0, "name")}: Not found: "nope"`]],
    [
      "a hostPath volume (name found but invalid source)",
      devices([{ name: "host", devicePath: "/dev/x" }]),
      [`${at(0, "name")}: Invalid value: "host": ${blockOnly}`],
    ],
    [
      "an emptyDir volume",
      devices([{ name: "data", devicePath: "/dev/x" }]),
      [`${at(0, "name")}: Invalid value: "data": ${blockOnly}`],
    ],
    ["an empty device path", devices([{ name: "claim", devicePath: "" }]), [`${at(0, "devicePath")}: Required value`]],
    [
      "two empty device paths: the empty one is taken, so the second is not unique",
      devices([
        { name: "claim", devicePath: "" },
        { name: "other", devicePath: "" },
      ]),
      [
        `${at(0, "devicePath")}: Required value`,
        `${at(1, "devicePath")}: Required value`,
        `${at(1, "devicePath")}: Invalid value: "": must be unique`,
      ],
    ],
    [
      "a duplicate device path",
      devices([
        { name: "claim", devicePath: "/foo" },
        { name: "other", devicePath: "/foo" },
      ]),
      [`${at(1, "devicePath")}: Invalid value: "/foo": must be unique`],
    ],
    [
      "backsteps (TestAlphaValidateVolumeDevices: /baz/../)",
      devices([{ name: "claim", devicePath: "/baz/../" }]),
      [`${at(0, "devicePath")}: Invalid value: "/baz/../": can not contain backsteps ('..')`],
    ],
    [
      "the same path with backsteps twice: not taken, so never 'must be unique'",
      devices([
        { name: "claim", devicePath: "/dev/../x" },
        { name: "other", devicePath: "/dev/../x" },
      ]),
      [
        `${at(0, "devicePath")}: Invalid value: "/dev/../x": can not contain backsteps ('..')`,
        `${at(1, "devicePath")}: Invalid value: "/dev/../x": can not contain backsteps ('..')`,
      ],
    ],
    [
      "a name that is a mount's",
      devices([{ name: "claim", devicePath: "/dev/x" }], [{ name: "claim", mountPath: "/foo" }]),
      [`${at(0, "name")}: Invalid value: "claim": must not already exist in volumeMounts`],
    ],
    [
      "a path that is a mount's",
      devices(
        [{ name: "claim", devicePath: "/this/path/exists" }],
        [{ name: "other", mountPath: "/this/path/exists" }],
      ),
      [`${at(0, "devicePath")}: Invalid value: "/this/path/exists": must not already exist as a path in volumeMounts`],
    ],
    [
      "every fault of a device, in Go's order",
      devices(
        [
          { name: "host", devicePath: "/m" },
          { name: "host", devicePath: "/m" },
        ],
        [{ name: "host", mountPath: "/m" }],
      ),
      [
        `${at(0, "name")}: Invalid value: "host": ${blockOnly}`,
        `${at(0, "name")}: Invalid value: "host": must not already exist in volumeMounts`,
        `${at(0, "devicePath")}: Invalid value: "/m": must not already exist as a path in volumeMounts`,
        `${at(1, "name")}: Invalid value: "host": must be unique`,
        `${at(1, "name")}: Invalid value: "host": ${blockOnly}`,
        `${at(1, "devicePath")}: Invalid value: "/m": must be unique`,
        `${at(1, "name")}: Invalid value: "host": must not already exist in volumeMounts`,
        `${at(1, "devicePath")}: Invalid value: "/m": must not already exist as a path in volumeMounts`,
      ],
    ],
    [
      "an empty name is never taken, so a second one is not 'must be unique'",
      devices([
        { name: "", devicePath: "/a" },
        { name: "", devicePath: "/b" },
      ]),
      [
        `${at(0, "name")}: Required value`,
        `${at(0, "name")}: Not found: ""`,
        `${at(1, "name")}: Required value`,
        `${at(1, "name")}: Not found: ""`,
      ],
    ],
    [
      "items the schema rejects are left to it",
      devices(["claim" as unknown as JsonObject, { name: 5, devicePath: "/a" }, { name: "claim", devicePath: ["/b"] }]),
      [],
    ],
  ];

  it.each(cases)("%s", (_name, ctr, want) => {
    expect(devicesSay(ctr)).toEqual(want);
  });

  it("reports at the path it is given (a template's init container)", () => {
    const ctr = devices([{ name: "nope", devicePath: "/dev/x" }]);
    const path = ["spec", "template", "spec", "initContainers", 2, "volumeDevices"];
    expect(validateVolumeDevices(ctr, path, volumes).map((f) => f.message)).toEqual([
      'spec.template.spec.initContainers[2].volumeDevices[0].name: Not found: "nope"',
    ]);
  });

  it("finds a mount with a path shadowed by a later mount of the same name only by the last (GetVolumeMountMap)", () => {
    const ctr = devices(
      [{ name: "claim", devicePath: "/first" }],
      [
        { name: "data", mountPath: "/first" },
        { name: "data", mountPath: "/second" },
      ],
    );
    expect(devicesSay(ctr)).toEqual([]);
  });
});

describe("GetVolumeMountMap and GetVolumeDeviceMap", () => {
  it("map names to paths, the last of a name winning, empty names included", () => {
    const ctr = container({
      volumeMounts: [{ name: "a", mountPath: "/1" }, { name: "a", mountPath: "/2" }, { mountPath: "/3" }],
      volumeDevices: [{ name: "b", devicePath: "/dev/b" }, { name: "c" }],
    });
    expect([...volumeMountMap(ctr)]).toEqual([
      ["a", "/2"],
      ["", "/3"],
    ]);
    expect([...volumeDeviceMap(ctr)]).toEqual([
      ["b", "/dev/b"],
      ["c", ""],
    ]);
  });
});

describe("through the whole pod (validatePodSpec)", () => {
  it("a climbing subPath and Bidirectional propagation without privileges, said once for two mounts", () => {
    const object = pod({
      volumes: [{ name: "data", emptyDir: {} }],
      containers: [
        container({
          volumeMounts: [
            { name: "data", mountPath: "/d", subPath: "../etc", mountPropagation: "Bidirectional" },
            { name: "data", mountPath: "/e", subPath: "../etc" },
          ],
        }),
      ],
    });
    expect(said("v1", "Pod", object)).toEqual([
      "spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers",
      "spec.containers[0].volumeMounts.subPath: Invalid value: \"../etc\": must not contain '..'",
    ]);
  });

  it("raw block devices beside the mounts", () => {
    const object = pod({
      volumes: [
        { name: "data", emptyDir: {} },
        { name: "disk", persistentVolumeClaim: { claimName: "disk" } },
      ],
      containers: [
        container({
          volumeMounts: [{ name: "disk", mountPath: "/dev/xvda" }],
          volumeDevices: [
            { name: "disk", devicePath: "/dev/xvda" },
            { name: "data", devicePath: "/dev/xvdb" },
            { name: "nope", devicePath: "/dev/../xvdc" },
          ],
        }),
      ],
    });
    expect(said("v1", "Pod", object)).toEqual([
      'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/xvda": must not already exist as a path in volumeMounts',
      'spec.containers[0].volumeDevices[0].name: Invalid value: "disk": must not already exist in volumeMounts',
      'spec.containers[0].volumeDevices[1].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      "spec.containers[0].volumeDevices[2].devicePath: Invalid value: \"/dev/../xvdc\": can not contain backsteps ('..')",
      'spec.containers[0].volumeDevices[2].name: Not found: "nope"',
      'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices',
      'spec.containers[0].volumeMounts[0].name: Invalid value: "disk": must not already exist in volumeDevices',
    ]);
  });
});
