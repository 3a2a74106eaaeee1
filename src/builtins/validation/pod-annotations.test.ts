/**
 * A pod's annotations, word for word: pkg/apis/core/validation/validation.go
 * ValidatePodSpecificAnnotations (ValidateTolerationsInPodAnnotations,
 * ValidateSeccompPodAnnotations and ValidateSeccompProfile,
 * ValidateAppArmorPodAnnotations and ValidateAppArmorProfileFormat) with
 * pkg/apis/core/helper GetDeletionCostFromPodAnnotations and
 * GetTolerationsFromPodAnnotations (encoding/json), and the create-time
 * rules validateSeccompAnnotationsAndFields and
 * validateAppArmorAnnotationsAndFieldsMatchOnCreate, as a Pod
 * (ValidatePodCreate, after pkg/registry/core/pod/strategy.go
 * applyAppArmorVersionSkew) and a template (ValidatePodTemplateSpec) get
 * them. Read in 1.32 (a7264f95) and 1.33/1.34 copies of validation.go: the
 * same rules and words.
 */
import { describe, expect, it } from "vitest";
import type { FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  decodeTolerations,
  validateAnnotationsMatchFields,
  validatePodSpecificAnnotations,
} from "./pod-annotations.js";
import { deployment, pod, said, template } from "./test-helpers.js";

const meta: FieldPath = ["metadata", "annotations"];
const app = { name: "app", image: "nginx" };

/** The messages ValidatePodSpecificAnnotations gives a Pod with these annotations and spec. */
const podSays = (annotations: JsonObject, spec: JsonObject = { containers: [app] }, path: FieldPath = meta) =>
  validatePodSpecificAnnotations(annotations, spec, path).map((f) => f.message);

const matchSays = (annotations: JsonObject, spec: JsonObject, pod: boolean, path: FieldPath = ["spec"]) =>
  validateAnnotationsMatchFields(annotations, spec, path, { pod }).map((f) => f.message);

describe("ValidatePodSpecificAnnotations", () => {
  it("accepts what each annotation may say", () => {
    expect(
      podSays(
        {
          "kubernetes.io/config.mirror": "abc",
          "scheduler.alpha.kubernetes.io/tolerations": '[{"key":"k","operator":"Exists","effect":"NoSchedule"}]',
          "controller.kubernetes.io/pod-deletion-cost": "-2147483648",
          "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
          "container.seccomp.security.alpha.kubernetes.io/app": "docker/default",
          "container.seccomp.security.alpha.kubernetes.io/other": "localhost/profiles/audit.json",
          "container.apparmor.security.beta.kubernetes.io/app": "localhost/k8s-apparmor-example-deny-write",
          "container.apparmor.security.beta.kubernetes.io/init": "",
          unrelated: "anything",
        },
        { nodeName: "node-1", initContainers: [{ name: "init", image: "busybox" }], containers: [app] },
      ),
    ).toEqual([]);
  });

  it("wants spec.nodeName with the mirror pod annotation, whatever its value", () => {
    expect(podSays({ "kubernetes.io/config.mirror": "" })).toEqual([
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "": must set spec.nodeName if mirror pod annotation is set',
    ]);
    expect(podSays({ "kubernetes.io/config.mirror": "x" }, { nodeName: "n", containers: [app] })).toEqual([]);
  });

  // GetDeletionCostFromPodAnnotations: validFirstDigit, then strconv.ParseInt(value, 10, 32).
  it.each(["abc", "", "+10", "008", "00", "1.5", "1_000", "2147483648", "-2147483649", "-", " 1"])(
    "refuses the pod-deletion-cost %j",
    (cost) => {
      expect(podSays({ "controller.kubernetes.io/pod-deletion-cost": cost })).toEqual([
        `metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: ${JSON.stringify(cost)}: must be a 32bit integer`,
      ]);
    },
  );

  it.each(["0", "-0", "-01", "7", "2147483647", "-2147483648"])("accepts the pod-deletion-cost %j", (cost) => {
    expect(podSays({ "controller.kubernetes.io/pod-deletion-cost": cost })).toEqual([]);
  });

  it("checks a template's annotations at <template>.annotations", () => {
    expect(
      podSays(
        { "controller.kubernetes.io/pod-deletion-cost": "abc", "seccomp.security.alpha.kubernetes.io/pod": "bogus" },
        { containers: [app] },
        ["spec", "template", "annotations"],
      ),
    ).toEqual([
      'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "abc": must be a 32bit integer',
      'spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
    ]);
  });

  describe("the seccomp annotations (ValidateSeccompProfile, at Child(key): no brackets)", () => {
    it("refuses a profile of no known form", () => {
      expect(
        podSays({
          "container.seccomp.security.alpha.kubernetes.io/app": "RuntimeDefault",
          "seccomp.security.alpha.kubernetes.io/pod": "bogus",
        }),
      ).toEqual([
        // the pod's first, then the containers' in the map's order
        'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
        'metadata.annotations.container.seccomp.security.alpha.kubernetes.io/app: Invalid value: "RuntimeDefault": must be a valid seccomp profile',
      ]);
    });

    it("wants a localhost profile relative and without '..' (validateLocalDescendingPath)", () => {
      expect(
        podSays({
          "seccomp.security.alpha.kubernetes.io/pod": "localhost//etc/../x",
          "container.seccomp.security.alpha.kubernetes.io/nope": "localhost/..",
        }),
      ).toEqual([
        'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "/etc/../x": must be a relative path',
        "metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: \"/etc/../x\": must not contain '..'",
        // no container of that name is needed for seccomp
        "metadata.annotations.container.seccomp.security.alpha.kubernetes.io/nope: Invalid value: \"..\": must not contain '..'",
      ]);
    });

    it("accepts an empty localhost profile name", () => {
      expect(podSays({ "seccomp.security.alpha.kubernetes.io/pod": "localhost/" })).toEqual([]);
    });
  });

  describe("the AppArmor annotations (ValidateAppArmorPodAnnotations, at Key(key))", () => {
    it("names a container of the pod: init, regular or ephemeral", () => {
      const spec = {
        initContainers: [{ name: "init", image: "busybox" }],
        containers: [app],
        ephemeralContainers: [{ name: "debug", image: "busybox" }],
      };
      expect(
        podSays(
          {
            "container.apparmor.security.beta.kubernetes.io/init": "runtime/default",
            "container.apparmor.security.beta.kubernetes.io/debug": "unconfined",
            "container.apparmor.security.beta.kubernetes.io/gone": "runtime/default",
          },
          spec,
        ),
      ).toEqual([
        'metadata.annotations[container.apparmor.security.beta.kubernetes.io/gone]: Invalid value: "gone": container not found',
      ]);
    });

    it("gives both findings, container first, for a wrong name and a wrong profile", () => {
      expect(podSays({ "container.apparmor.security.beta.kubernetes.io/nope": "bogus3" })).toEqual([
        'metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": container not found',
        'metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "bogus3": invalid AppArmor profile name: "bogus3"',
      ]);
    });

    it("quotes the profile as %q does", () => {
      expect(podSays({ "container.apparmor.security.beta.kubernetes.io/app": 'docker/"x"' })).toEqual([
        'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: Invalid value: "docker/\\"x\\"": invalid AppArmor profile name: "docker/\\"x\\""',
      ]);
    });

    it("leaves the pod-level key alone: only the container prefix is checked", () => {
      expect(podSays({ "apparmor.security.beta.kubernetes.io/pod": "bogus" })).toEqual([]);
    });
  });

  describe("the tolerations annotation (ValidateTolerationsInPodAnnotations)", () => {
    const key = "scheduler.alpha.kubernetes.io/tolerations";
    it("reports a decoding error at the annotations, the key as the value", () => {
      expect(podSays({ [key]: "not json" })).toEqual([
        `metadata.annotations: Invalid value: "${key}": invalid character 'o' in literal null (expecting 'u')`,
      ]);
    });

    it("validates each toleration at Child(key)[i]", () => {
      expect(podSays({ [key]: '[{"key":"k","operator":"Exists"},{"key":"k","operator":"Bogus"}]' })).toEqual([
        `metadata.annotations.${key}[1].operator: Unsupported value: "Bogus": supported values: "Equal", "Exists"`,
      ]);
      expect(podSays({ [key]: '[{"key":"k","effect":"NoSchedule","tolerationSeconds":5}]' })).toEqual([
        `metadata.annotations.${key}[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
      ]);
    });

    it("matches fields without regard to case, as encoding/json does", () => {
      expect(podSays({ [key]: '[{"KEY":"","Operator":"Equal"}]' })).toEqual([
        `metadata.annotations.${key}[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
      ]);
    });

    it("skips an empty annotation, and a null or empty list", () => {
      expect(podSays({ [key]: "" })).toEqual([]);
      expect(podSays({ [key]: "null" })).toEqual([]);
      expect(podSays({ [key]: " [ ] " })).toEqual([]);
    });
  });

  it("keeps Go's order: mirror, tolerations, deletion cost, seccomp, AppArmor", () => {
    expect(
      podSays({
        "container.apparmor.security.beta.kubernetes.io/nope": "runtime/default",
        "seccomp.security.alpha.kubernetes.io/pod": "bogus",
        "controller.kubernetes.io/pod-deletion-cost": "x",
        "scheduler.alpha.kubernetes.io/tolerations": "{}",
        "kubernetes.io/config.mirror": "m",
      }),
    ).toEqual([
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "m": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": json: cannot unmarshal object into Go value of type []core.Toleration',
      'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "x": must be a 32bit integer',
      'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": container not found',
    ]);
  });
});

describe("json.Unmarshal into []core.Toleration", () => {
  it.each([
    ["{}", "json: cannot unmarshal object into Go value of type []core.Toleration"],
    ['"x"', "json: cannot unmarshal string into Go value of type []core.Toleration"],
    ["1", "json: cannot unmarshal number into Go value of type []core.Toleration"],
    ["[1]", "json: cannot unmarshal number into Go value of type core.Toleration"],
    ["[[]]", "json: cannot unmarshal array into Go value of type core.Toleration"],
    ['[{"key":1}]', "json: cannot unmarshal number into Go struct field Toleration.key of type string"],
    [
      '[{"operator":true}]',
      "json: cannot unmarshal bool into Go struct field Toleration.operator of type core.TolerationOperator",
    ],
    [
      '[{"effect":{}}]',
      "json: cannot unmarshal object into Go struct field Toleration.effect of type core.TaintEffect",
    ],
    [
      '[{"tolerationSeconds":1.5}]',
      "json: cannot unmarshal number 1.5 into Go struct field Toleration.tolerationSeconds of type int64",
    ],
    [
      '[{"tolerationSeconds":1e3}]',
      "json: cannot unmarshal number 1e3 into Go struct field Toleration.tolerationSeconds of type int64",
    ],
    [
      '[{"tolerationSeconds":"5"}]',
      "json: cannot unmarshal string into Go struct field Toleration.tolerationSeconds of type int64",
    ],
    // the first type error is the one returned; decoding goes on past it
    ['[{"value":[]},{"key":2}]', "json: cannot unmarshal array into Go struct field Toleration.value of type string"],
    ["[", "unexpected end of JSON input"],
    ["[]x", "invalid character 'x' after top-level value"],
  ])("%s: %s", (text, want) => {
    expect(decodeTolerations(text)).toBe(want);
  });

  it("decodes Go's zero values, null, unknown and folded keys", () => {
    expect(
      decodeTolerations(
        '[null, {"key":"a","key":"b","Value":null,"EFFECT":"NoExecute","tolerationSeconds":9223372036854775807,"other":[1]}, {"tolerationSeconds":3,"tolerationSeconds":null}]',
      ),
    ).toEqual([
      { key: "", operator: "", value: "", effect: "" },
      { key: "b", operator: "", value: "", effect: "NoExecute", tolerationSeconds: 2 ** 63 }, // int64 max, as a double
      { key: "", operator: "", value: "", effect: "" },
    ]);
    expect(decodeTolerations('[{"tolerationSeconds":9223372036854775808}]')).toBe(
      "json: cannot unmarshal number 9223372036854775808 into Go struct field Toleration.tolerationSeconds of type int64",
    );
    // bytes.EqualFold: the Kelvin sign folds to k
    expect(decodeTolerations('[{"\u212aey":"x"}]')).toEqual([{ key: "x", operator: "", value: "", effect: "" }]);
  });
});

describe("validateSeccompAnnotationsAndFields", () => {
  const withPodProfile = (profile: JsonObject, extra: JsonObject = {}) => ({
    securityContext: { seccompProfile: profile },
    containers: [app],
    ...extra,
  });
  const podKey = "seccomp.security.alpha.kubernetes.io/pod";

  it("wants the pod's annotation and field of one type", () => {
    expect(matchSays({ [podKey]: "unconfined" }, withPodProfile({ type: "RuntimeDefault" }), false)).toEqual([
      "spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
    ]);
    expect(matchSays({ [podKey]: "runtime/default" }, withPodProfile({ type: "Unconfined" }), true)).toEqual([
      "spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
    ]);
    expect(matchSays({ [podKey]: "docker/default" }, withPodProfile({ type: "RuntimeDefault" }), true)).toEqual([]);
    expect(matchSays({ [podKey]: "unconfined" }, withPodProfile({ type: "Unconfined" }), true)).toEqual([]);
  });

  it("wants a localhost annotation naming the field's profile", () => {
    const localhost = withPodProfile({ type: "Localhost", localhostProfile: "a.json" });
    expect(matchSays({ [podKey]: "localhost/b.json" }, localhost, true)).toEqual([
      "spec.securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match",
    ]);
    expect(matchSays({ [podKey]: "runtime/default" }, localhost, true)).toEqual([
      "spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
    ]);
    expect(matchSays({ [podKey]: "localhost/a.json" }, localhost, true)).toEqual([]);
    expect(matchSays({ [podKey]: "localhost/a.json" }, withPodProfile({ type: "Localhost" }), true)).toEqual([
      "spec.securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match",
    ]);
  });

  it("matches a container's field against its own annotation only", () => {
    const spec = {
      securityContext: { seccompProfile: { type: "RuntimeDefault" } },
      initContainers: [{ name: "init", image: "busybox", securityContext: { seccompProfile: { type: "Unconfined" } } }],
      containers: [app],
    };
    const annotations = {
      "container.seccomp.security.alpha.kubernetes.io/init": "runtime/default",
      // app has no field of its own: nothing to match, the pod's field is not inherited here
      "container.seccomp.security.alpha.kubernetes.io/app": "unconfined",
    };
    expect(matchSays(annotations, spec, false, ["spec", "template", "spec"])).toEqual([
      "spec.template.spec.initContainers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
    ]);
  });

  it("lets a field of an unknown type pass (its own rules refuse it)", () => {
    expect(matchSays({ [podKey]: "unconfined" }, withPodProfile({ type: "Bogus" }), true)).toEqual([]);
  });

  it("checks Windows pods as well", () => {
    expect(
      matchSays(
        { [podKey]: "unconfined" },
        withPodProfile({ type: "RuntimeDefault" }, { os: { name: "windows" } }),
        true,
      ),
    ).toEqual(["spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"]);
  });
});

describe("validateAppArmorAnnotationsAndFieldsMatchOnCreate", () => {
  const key = "container.apparmor.security.beta.kubernetes.io/app";
  const podLevel = (profile: JsonObject, extra: JsonObject = {}) => ({
    securityContext: { appArmorProfile: profile },
    containers: [app],
    ...extra,
  });

  it("in a template, matches the annotation against the pod's field when the container has none", () => {
    expect(
      matchSays({ [key]: "localhost/x" }, podLevel({ type: "RuntimeDefault" }), false, ["spec", "template", "spec"]),
    ).toEqual([
      "spec.template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
    ]);
    expect(matchSays({ [key]: "unconfined" }, podLevel({ type: "Unconfined" }), false)).toEqual([]);
  });

  it("on a Pod, lets a valid annotation become the container's field first (applyAppArmorVersionSkew)", () => {
    expect(matchSays({ [key]: "localhost/x" }, podLevel({ type: "RuntimeDefault" }), true)).toEqual([]);
  });

  it("on a Pod, matches an annotation no field can hold against the pod's field", () => {
    expect(matchSays({ [key]: "bogus" }, podLevel({ type: "RuntimeDefault" }), true)).toEqual([
      "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
    ]);
    // an empty or padded localhost profile makes no valid field either
    expect(matchSays({ [key]: "localhost/" }, podLevel({ type: "Localhost", localhostProfile: "p" }), true)).toEqual([
      "spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match",
    ]);
    expect(matchSays({ [key]: "localhost/ p" }, podLevel({ type: "Localhost", localhostProfile: " p" }), true)).toEqual(
      [],
    );
  });

  it("matches a container's own field on a Pod too", () => {
    const spec = {
      containers: [{ ...app, securityContext: { appArmorProfile: { type: "Localhost", localhostProfile: "a" } } }],
    };
    expect(matchSays({ [key]: "localhost/b" }, spec, true)).toEqual([
      "spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match",
    ]);
    expect(matchSays({ [key]: "unconfined" }, spec, true)).toEqual([
      "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
    ]);
    expect(matchSays({ [key]: "localhost/a" }, spec, true)).toEqual([]);
  });

  it("takes docker/default for no AppArmor profile, unlike seccomp", () => {
    expect(matchSays({ [key]: "docker/default" }, podLevel({ type: "RuntimeDefault" }), false)).toEqual([
      "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
    ]);
  });

  it("skips Windows pods, and containers with no profile at all", () => {
    expect(
      matchSays({ [key]: "unconfined" }, podLevel({ type: "RuntimeDefault" }, { os: { name: "windows" } }), false),
    ).toEqual([]);
    expect(matchSays({ [key]: "bogus" }, { containers: [app] }, true)).toEqual([]);
  });

  it("visits init containers before containers, seccomp before AppArmor", () => {
    const spec = {
      securityContext: { appArmorProfile: { type: "Unconfined" }, seccompProfile: { type: "Unconfined" } },
      initContainers: [{ name: "init", image: "busybox" }],
      containers: [app],
    };
    expect(
      matchSays(
        {
          [key]: "runtime/default",
          "container.apparmor.security.beta.kubernetes.io/init": "runtime/default",
          "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
        },
        spec,
        false,
      ),
    ).toEqual([
      "spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
      "spec.initContainers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
      "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
    ]);
  });
});

describe("through the whole object (a Pod's metadata, a template's, and their specs)", () => {
  it("a Pod's annotations: mirror, deletion cost, seccomp and AppArmor values", () => {
    const object = pod({});
    (object.metadata as JsonObject).annotations = {
      "controller.kubernetes.io/pod-deletion-cost": "abc",
      "kubernetes.io/config.mirror": "x",
      "seccomp.security.alpha.kubernetes.io/pod": "bogus",
      "container.apparmor.security.beta.kubernetes.io/nope": "bogus3",
    };
    expect(said("v1", "Pod", object).filter((m) => !m.startsWith("warning "))).toEqual(
      [
        'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
        'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "abc": must be a 32bit integer',
        'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
        'metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": container not found',
        'metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "bogus3": invalid AppArmor profile name: "bogus3"',
      ].sort(),
    );
  });

  it("a Deployment's template: the tolerations annotation, and an AppArmor annotation against the field", () => {
    const t = template({ securityContext: { appArmorProfile: { type: "RuntimeDefault" } } });
    (t.metadata as JsonObject).annotations = {
      "container.apparmor.security.beta.kubernetes.io/app": "localhost/custom",
      "scheduler.alpha.kubernetes.io/tolerations": '[{"key":"k","operator":"Bogus"}]',
    };
    expect(said("apps/v1", "Deployment", deployment({ template: t })).filter((m) => !m.startsWith("warning "))).toEqual(
      [
        'spec.template.annotations.scheduler.alpha.kubernetes.io/tolerations[0].operator: Unsupported value: "Bogus": supported values: "Equal", "Exists"',
        "spec.template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
      ].sort(),
    );
  });

  it("a Pod's seccomp annotation against its field; its AppArmor annotation became the container's field", () => {
    const object = pod({
      securityContext: {
        appArmorProfile: { type: "RuntimeDefault" },
        seccompProfile: { type: "Localhost", localhostProfile: "a.json" },
      },
    });
    (object.metadata as JsonObject).annotations = {
      "container.apparmor.security.beta.kubernetes.io/app": "localhost/custom",
      "seccomp.security.alpha.kubernetes.io/pod": "localhost/b.json",
    };
    expect(said("v1", "Pod", object).filter((m) => !m.startsWith("warning "))).toEqual([
      "spec.securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match",
    ]);
  });
});
