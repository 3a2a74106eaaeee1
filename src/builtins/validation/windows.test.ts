/**
 * A pod's OS and Windows options, word for word: pkg/apis/core/validation/validation.go
 * (validateOS, validateLinux, validateWindows, validateWindowsSecurityContextOptions,
 * validateWindowsHostProcessPod).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../value/index.js";
import { container, dns1123SubdomainError as subdomain } from "./test-helpers.js";
import { validatePodOS } from "./windows.js";

const says = (spec: JsonObject, path: string[] = ["spec"]) =>
  validatePodOS(spec, path, 36)
    .map((f) => f.message)
    .sort();

const windows = (spec: JsonObject = {}): JsonObject => ({
  os: { name: "windows" },
  containers: [container()],
  ...spec,
});
const linux = (spec: JsonObject = {}): JsonObject => ({ os: { name: "linux" }, containers: [container()], ...spec });
const withOptions = (windowsOptions: JsonObject): JsonObject => windows({ securityContext: { windowsOptions } });

const forbiddenOnWindows = (field: string) => `${field}: Forbidden: cannot be set for a windows pod`;
const userName = (value: string, detail: string) =>
  `spec.securityContext.windowsOptions.runAsUserName: Invalid value: ${JSON.stringify(value)}: ${detail}`;
const bigSpec = `{"a":"${"x".repeat(64 * 1024)}"}`;

const cases: [string, JsonObject, string[]][] = [
  [
    "a valid windows pod",
    windows({
      securityContext: {
        runAsNonRoot: true,
        windowsOptions: { gmsaCredentialSpecName: "webapp1", runAsUserName: "NT AUTHORITY\\NETWORK SERVICE" },
      },
      containers: [
        container({ securityContext: { runAsNonRoot: true, windowsOptions: { runAsUserName: "contoso.com\\app" } } }),
      ],
      initContainers: [
        container({ name: "init", securityContext: { windowsOptions: { runAsUserName: "CONTOSO\\x" } } }),
      ],
      hostPID: false,
    }),
    [],
  ],
  [
    "a valid linux pod",
    linux({
      hostPID: true,
      hostUsers: false,
      securityContext: { runAsUser: 1000, fsGroup: 2000, seccompProfile: { type: "RuntimeDefault" } },
      containers: [container({ securityContext: { capabilities: { drop: ["ALL"] }, privileged: false } })],
    }),
    [],
  ],
  [
    "a pod without os may set options of both",
    {
      containers: [
        container({ securityContext: { runAsUser: 1, windowsOptions: { runAsUserName: "ContainerUser" } } }),
      ],
      securityContext: { seLinuxOptions: { level: "s0" }, windowsOptions: { gmsaCredentialSpec: "{}" } },
    },
    [],
  ],
  ["a null os", { os: null, securityContext: { runAsUser: 1, windowsOptions: {} } }, []],
  [
    "a valid HostProcess pod",
    windows({
      hostNetwork: true,
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: "NT AUTHORITY\\SYSTEM" } },
      containers: [container(), container({ name: "b", securityContext: { windowsOptions: { hostProcess: true } } })],
    }),
    [],
  ],
  ["an empty os name", { os: { name: "" } }, ["spec.os.name: Required value: cannot be empty"]],
  [
    "an os name of another case",
    { os: { name: "Windows" }, securityContext: { seLinuxOptions: {} } },
    ['spec.os: Unsupported value: "Windows": supported values: "linux", "windows"'],
  ],
  [
    "a linux pod with windows options",
    linux({
      securityContext: { windowsOptions: {} },
      initContainers: [container({ name: "i", securityContext: { windowsOptions: { runAsUserName: "u" } } })],
    }),
    [
      "spec.initContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
      "spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
    ],
  ],
  [
    "a windows pod sharing host namespaces",
    windows({ hostPID: true, hostIPC: true, hostUsers: true, shareProcessNamespace: false, hostNetwork: true }),
    [
      forbiddenOnWindows("spec.hostIPC"),
      forbiddenOnWindows("spec.hostPID"),
      forbiddenOnWindows("spec.hostUsers"),
      forbiddenOnWindows("spec.shareProcessNamespace"),
    ],
  ],
  [
    "a windows pod with Linux security options",
    windows({
      securityContext: {
        appArmorProfile: { type: "RuntimeDefault" },
        seLinuxOptions: { level: "s0" },
        seccompProfile: { type: "RuntimeDefault" },
        seLinuxChangePolicy: "Recursive",
      },
    }),
    [
      forbiddenOnWindows("spec.securityContext.appArmorProfile"),
      forbiddenOnWindows("spec.securityContext.seLinuxChangePolicy"),
      forbiddenOnWindows("spec.securityContext.seLinuxOptions"),
      forbiddenOnWindows("spec.securityContext.seccompProfile"),
    ],
  ],
  [
    "a windows pod with Linux ids and groups",
    windows({
      securityContext: {
        runAsUser: 1000,
        runAsGroup: 1000,
        fsGroup: 2000,
        fsGroupChangePolicy: "Always",
        supplementalGroups: [],
        supplementalGroupsPolicy: "Strict",
        sysctls: [{ name: "kernel.shm_rmid_forced", value: "1" }],
      },
    }),
    [
      forbiddenOnWindows("spec.securityContext.fsGroup"),
      forbiddenOnWindows("spec.securityContext.fsGroupChangePolicy"),
      forbiddenOnWindows("spec.securityContext.runAsGroup"),
      forbiddenOnWindows("spec.securityContext.runAsUser"),
      forbiddenOnWindows("spec.securityContext.supplementalGroups"),
      forbiddenOnWindows("spec.securityContext.supplementalGroupsPolicy"),
      forbiddenOnWindows("spec.securityContext.sysctls"),
    ],
  ],
  ["an empty sysctls list on a windows pod", windows({ securityContext: { sysctls: [] } }), []],
  [
    "a windows container with Linux security options",
    windows({
      containers: [
        container({
          securityContext: {
            capabilities: {},
            readOnlyRootFilesystem: false,
            privileged: false,
            allowPrivilegeEscalation: false,
            procMount: "Default",
            runAsUser: 1,
            runAsGroup: 1,
            runAsNonRoot: true,
          },
        }),
      ],
    }),
    [
      forbiddenOnWindows("spec.containers[0].securityContext.allowPrivilegeEscalation"),
      forbiddenOnWindows("spec.containers[0].securityContext.capabilities"),
      forbiddenOnWindows("spec.containers[0].securityContext.privileged"),
      forbiddenOnWindows("spec.containers[0].securityContext.procMount"),
      forbiddenOnWindows("spec.containers[0].securityContext.readOnlyRootFilesystem"),
      forbiddenOnWindows("spec.containers[0].securityContext.runAsGroup"),
      forbiddenOnWindows("spec.containers[0].securityContext.runAsUser"),
    ],
  ],
  [
    "windows init and ephemeral containers with Linux profiles",
    windows({
      initContainers: [container({ name: "i", securityContext: { seLinuxOptions: {}, appArmorProfile: {} } })],
      ephemeralContainers: [container({ name: "e", securityContext: { seccompProfile: { type: "Unconfined" } } })],
    }),
    [
      forbiddenOnWindows("spec.ephemeralContainers[0].securityContext.seccompProfile"),
      forbiddenOnWindows("spec.initContainers[0].securityContext.appArmorProfile"),
      forbiddenOnWindows("spec.initContainers[0].securityContext.seLinuxOptions"),
    ],
  ],
  [
    "an invalid os skips the windows rules",
    { os: { name: "darwin" }, hostPID: true },
    ['spec.os: Unsupported value: "darwin": supported values: "linux", "windows"'],
  ],
  [
    "a GMSA credential spec name that is no DNS subdomain",
    withOptions({ gmsaCredentialSpecName: "Web_App" }),
    [`spec.securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "Web_App": ${subdomain}`],
  ],
  [
    "an empty GMSA credential spec",
    withOptions({ gmsaCredentialSpec: "" }),
    [
      'spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string',
    ],
  ],
  [
    "a GMSA credential spec over 64 KiB",
    withOptions({ gmsaCredentialSpec: bigSpec }),
    [
      `spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: ${JSON.stringify(bigSpec)}: gmsaCredentialSpec size must be under 64 KiB`,
    ],
  ],
  [
    "an empty runAsUserName",
    withOptions({ runAsUserName: "" }),
    [userName("", "runAsUserName cannot be an empty string")],
  ],
  [
    "a control character in runAsUserName",
    withOptions({ runAsUserName: "user\tname" }),
    [userName("user\tname", "runAsUserName cannot contain control characters")],
  ],
  [
    "two backslashes in runAsUserName",
    withOptions({ runAsUserName: "a\\b\\c" }),
    [userName("a\\b\\c", "runAsUserName cannot contain more than one backslash")],
  ],
  [
    "a runAsUserName domain of 256 characters",
    withOptions({ runAsUserName: `${"d".repeat(256)}\\user` }),
    [
      userName(`${"d".repeat(256)}\\user`, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"),
      userName(`${"d".repeat(256)}\\user`, "runAsUserName's Domain length must be under 256 characters"),
    ],
  ],
  [
    "a runAsUserName domain neither NetBIOS nor DNS",
    withOptions({ runAsUserName: "my_domain.example.com\\user" }),
    [userName("my_domain.example.com\\user", "runAsUserName's Domain doesn't match the NetBios nor the DNS format")],
  ],
  [
    "a runAsUserName without a user",
    withOptions({ runAsUserName: "CONTOSO\\" }),
    [userName("CONTOSO\\", "runAsUserName's User cannot be empty")],
  ],
  [
    "a runAsUserName user of 105 characters",
    withOptions({ runAsUserName: "u".repeat(105) }),
    [userName("u".repeat(105), "runAsUserName's User length must not be longer than 104 characters")],
  ],
  [
    "a runAsUserName user of only periods and spaces",
    withOptions({ runAsUserName: "CONTOSO\\. ." }),
    [userName("CONTOSO\\. .", "runAsUserName's User cannot contain only periods or spaces")],
  ],
  [
    "a runAsUserName user with an @",
    withOptions({ runAsUserName: "user@contoso" }),
    [userName("user@contoso", `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`)],
  ],
  [
    "an ephemeral container's bad runAsUserName",
    windows({
      ephemeralContainers: [container({ name: "e", securityContext: { windowsOptions: { runAsUserName: "a:b" } } })],
    }),
    [
      `spec.ephemeralContainers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "a:b": runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`,
    ],
  ],
  [
    "a container hostProcess differing from the pod's",
    windows({
      hostNetwork: true,
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [container({ securityContext: { windowsOptions: { hostProcess: false } } })],
    }),
    [
      "spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
    ],
  ],
  [
    "a HostProcess container beside one that is not",
    windows({
      hostNetwork: true,
      initContainers: [container({ name: "i", securityContext: { windowsOptions: { hostProcess: true } } })],
    }),
    [
      'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
    ],
  ],
  [
    "a HostProcess pod without the host's network",
    windows({ securityContext: { windowsOptions: { hostProcess: true } } }),
    ["spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers"],
  ],
  ["hostProcess false everywhere", windows({ securityContext: { windowsOptions: { hostProcess: false } } }), []],
];

describe("validatePodOS", () => {
  it.each(cases)("%s", (_name, spec, expected) => {
    expect(says(spec)).toEqual(expected);
  });

  it("names the fields of a template's spec under its path", () => {
    expect(
      says(windows({ hostIPC: true, securityContext: { windowsOptions: { hostProcess: true } } }), [
        "spec",
        "template",
        "spec",
      ]),
    ).toEqual([
      "spec.template.spec.hostIPC: Forbidden: cannot be set for a windows pod",
      "spec.template.spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
    ]);
  });

  it("visits init containers, containers, then ephemeral containers, after the pod", () => {
    const spec = windows({
      hostPID: true,
      containers: [container({ securityContext: { privileged: true } })],
      initContainers: [container({ name: "i", securityContext: { privileged: true } })],
      ephemeralContainers: [container({ name: "e", securityContext: { privileged: true } })],
    });
    expect(validatePodOS(spec, ["spec"], 36).map((f) => f.field)).toEqual([
      "spec.hostPID",
      "spec.initContainers[0].securityContext.privileged",
      "spec.containers[0].securityContext.privileged",
      "spec.ephemeralContainers[0].securityContext.privileged",
    ]);
  });

  // pkg/registry/core/pod/strategy.go drops the fields of a disabled gate before validating: UserNamespacesSupport,
  // SupplementalGroupsPolicy and SELinuxChangePolicy are on by default from 1.33
  it("leaves the fields of the gates 1.33 turns on to 1.33 and later", () => {
    const spec = windows({
      hostUsers: false,
      securityContext: { supplementalGroupsPolicy: "Strict", seLinuxChangePolicy: "Recursive" },
    });
    const gated = [
      "spec.hostUsers",
      "spec.securityContext.supplementalGroupsPolicy",
      "spec.securityContext.seLinuxChangePolicy",
    ];
    expect(validatePodOS(spec, ["spec"], 33).map((f) => f.field)).toEqual(gated);
    expect(validatePodOS(spec, ["spec"], 32).map((f) => f.field)).toEqual([]);
  });

  it("reports errors with the schema rule", () => {
    const [f] = validatePodOS({ os: { name: "" } }, ["spec"], 36);
    expect(f).toMatchObject({ type: "FieldValueRequired", rule: "schema", severity: "error", field: "spec.os.name" });
  });
});
