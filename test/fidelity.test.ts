import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../src/cli/main.js";
import { widgetCrd } from "./widget-crd.js";

// Where kunion claims the API server's behaviour, each case here names the
// Kubernetes source it follows.

function kunion(files: Record<string, string>, ...argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "kunion-fidelity-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  let stdout = "";
  let stderr = "";
  const code = run(
    argv.map((a) => (a.startsWith("@") ? join(dir, a.slice(1)) : a)),
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false },
  );
  return { code, stdout: stdout.replaceAll(`${dir}/`, ""), stderr: stderr.replaceAll(`${dir}/`, "") };
}

const deployment = (strategy: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  selector: {matchLabels: {app: w}}\n  strategy:\n${strategy}  template:\n    metadata: {labels: {app: w}}\n    spec: {containers: [{name: w, image: nginx}]}\n`;

describe("a discriminator of the wrong type", () => {
  // go-yaml v2 (sigs.k8s.io/yaml) reads an unquoted Off or y as a YAML 1.1 boolean; the API server
  // then refuses the type (kube-openapi validate/type.go: "in body must be of type string").
  const text = deployment("    type: Off\n    rollingUpdate: {maxSurge: 1}\n");

  it("is reported once", () => {
    const { code, stdout } = kunion({ "d.yaml": text }, "validate", "@d.yaml");
    expect(code).toBe(1);
    expect(stdout.trim().split("\n")).toEqual([
      'd.yaml:7:5: error schema: spec.strategy.type: Invalid value: "boolean": spec.strategy.type in body must be of type string: "boolean"',
    ]);
  });

  it("is left alone by normalization, with a note saying why", () => {
    const { stdout, stderr } = kunion({ "d.yaml": text }, "normalize", "@d.yaml");
    expect(stdout).toBe(text);
    expect(stderr).toContain("note: spec.strategy: `type` is a boolean, not a string: left as is");
  });
});

describe("status of a custom resource", () => {
  // apiextensions-apiserver pkg/registry/customresource/strategy.go: with the status subresource,
  // PrepareForCreate deletes status and PrepareForUpdate keeps the stored one, so the manifest's
  // status is never validated; without it, status is validated like spec.
  const crd = (statusSubresource: boolean) =>
    widgetCrd({
      statusSubresource,
      properties: `spec: {type: object, properties: {size: {type: integer}}}
status: {type: object, properties: {ready: {type: boolean}}}`,
    });
  const widget =
    "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1}\nstatus: {ready: maybe}\n";

  it("is ignored, with a notice, when the CRD has the status subresource", () => {
    const { code, stdout } = kunion(
      { "crd.yaml": crd(true), "w.yaml": widget },
      "validate",
      "--crd",
      "@crd.yaml",
      "@w.yaml",
    );
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(
      "w.yaml:5:1: notice status-ignored: status: Forbidden: the CRD has the status subresource: the API server ignores status on create and update",
    );
  });

  it("is validated when the CRD has none", () => {
    const { code, stdout } = kunion(
      { "crd.yaml": crd(false), "w.yaml": widget },
      "validate",
      "--crd",
      "@crd.yaml",
      "@w.yaml",
    );
    expect(code).toBe(1);
    expect(stdout).toContain('w.yaml:5:10: error schema: status.ready: Invalid value: "string"');
  });
});

describe("one finding once", () => {
  it("a type error on metadata.finalizers of a built-in kind is reported once", () => {
    // apimachinery ValidateObjectMeta is the one home of metadata; the OpenAPI types of the kind say it again.
    const { stdout } = kunion(
      { "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, finalizers: {a: b}}\n" },
      "validate",
      "@cm.yaml",
    );
    expect(stdout.trim().split("\n")).toEqual([
      'cm.yaml:3:21: error schema: metadata.finalizers: Invalid value: "object": metadata.finalizers in body must be of type array: "object"',
    ]);
  });
});

describe("API versions Kubernetes removed", () => {
  // The deprecated-API migration guide; kubectl answers `no matches for kind "Ingress" in version
  // "extensions/v1beta1"` against a cluster that no longer serves the version.
  it("an object to apply in a removed version is an error naming the release and the replacement", () => {
    const files = {
      "ing.yaml": "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: i}\n",
      "cj.yaml": "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\n",
      "psp.yaml": "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: p}\n",
    };
    const { code, stdout } = kunion(files, "validate", "@cj.yaml", "@ing.yaml", "@psp.yaml");
    expect(code).toBe(1);
    expect(stdout.trim().split("\n")).toEqual([
      'cj.yaml:1:1: error api-removed: apiVersion: No schema known: no matches for kind "CronJob" in version "batch/v1beta1": removed in Kubernetes 1.25; use batch/v1',
      'ing.yaml:1:1: error api-removed: apiVersion: No schema known: no matches for kind "Ingress" in version "extensions/v1beta1": removed in Kubernetes 1.22; use networking.k8s.io/v1',
      'psp.yaml:1:1: error api-removed: apiVersion: No schema known: no matches for kind "PodSecurityPolicy" in version "policy/v1beta1": removed in Kubernetes 1.25',
    ]);
  });

  it("an apiextensions.k8s.io/v1beta1 CRD is refused as an object to apply, and still read as a schema source", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  version: v1
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec: {type: object, properties: {size: {type: integer}}}
`;
    const widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: big}\n";
    const applied = kunion({ "crd.yaml": crd }, "validate", "@crd.yaml");
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain(
      'no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1": removed in Kubernetes 1.22; use apiextensions.k8s.io/v1',
    );
    const source = kunion({ "crd.yaml": crd, "w.yaml": widget }, "validate", "--crd", "@crd.yaml", "@w.yaml");
    expect(source.stdout.trim()).toMatch(/^w\.yaml:4:\d+: error schema: spec\.size: Invalid value: "string"/);
  });
});

describe("API versions a release does not serve yet", () => {
  // kubectl against an older cluster: `no matches for kind "MutatingAdmissionPolicy" in version
  // "admissionregistration.k8s.io/v1"` (apimachinery pkg/api/meta/errors.go NoKindMatchError); the kind went GA in 1.36.
  const policy = [
    "apiVersion: admissionregistration.k8s.io/v1",
    "kind: MutatingAdmissionPolicy",
    "metadata: {name: m}",
    "spec:",
    "  reinvocationPolicy: Never",
    "  matchConstraints:",
    "    resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]",
    "  mutations:",
    "  - {patchType: JSONPatch, jsonPatch: {expression: \"[JSONPatch{op: 'remove', path: '/spec/x'}]\"}}",
    "",
  ].join("\n");
  it("is an error naming the first release that serves it, and passes on that release", () => {
    const older = kunion({ "m.yaml": policy }, "validate", "--kubernetes-version", "1.34", "@m.yaml");
    expect(older.code).toBe(1);
    expect(older.stdout.trim()).toBe(
      'm.yaml:1:1: error schema: apiVersion: No schema known: no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1": served from Kubernetes 1.36',
    );
    expect(kunion({ "m.yaml": policy }, "validate", "--kubernetes-version", "1.36", "@m.yaml").code).toBe(0);
  });
});

describe("names per kind, as each kind's name validation in the API server", () => {
  const object = (apiVersion: string, kind: string, name: string) =>
    `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: "${name}"}\n`;
  const nameFindings = (apiVersion: string, kind: string, name: string) =>
    kunion({ "o.yaml": object(apiVersion, kind, name) }, "validate", "@o.yaml")
      .stdout.split("\n")
      .filter((l) => l.includes("metadata.name"));

  it("RBAC roles and bindings are path segments (rbac validation ValidateRBACName)", () => {
    for (const kind of ["ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding"]) {
      expect(nameFindings("rbac.authorization.k8s.io/v1", kind, "system:controller:foo"), kind).toEqual([]);
      expect(nameFindings("rbac.authorization.k8s.io/v1", kind, "keda:edit"), kind).toEqual([]);
    }
    expect(nameFindings("rbac.authorization.k8s.io/v1", "ClusterRole", "a/b")).toEqual([
      "o.yaml:3:12: error schema: metadata.name: Invalid value: \"a/b\": may not contain '/'",
    ]);
  });

  it("Services are DNS-1035 labels until 1.36, DNS labels from 1.36 (ValidateServiceName, RelaxedServiceNameValidation)", () => {
    const serviceNameFindings = (name: string, release: string) =>
      kunion({ "o.yaml": object("v1", "Service", name) }, "validate", "--kubernetes-version", release, "@o.yaml")
        .stdout.split("\n")
        .filter((l) => l.includes("metadata.name"));
    expect(serviceNameFindings("my.service", "1.35")[0]).toContain(
      'metadata.name: Invalid value: "my.service": a DNS-1035 label must consist of lower case alphanumeric characters',
    );
    expect(serviceNameFindings("1web", "1.35")[0]).toContain("a DNS-1035 label");
    // kubernetes#136389: the gate is beta and on by default in 1.36, and names are checked with NameIsDNSLabel.
    expect(serviceNameFindings("1web", "1.36")).toEqual([]);
    expect(serviceNameFindings("my.service", "1.36")[0]).toContain(
      'Invalid value: "my.service": must not contain dots',
    );
    expect(nameFindings("v1", "Service", "web")).toEqual([]);
  });

  it("Namespaces are DNS-1123 labels, other kinds subdomains", () => {
    expect(nameFindings("v1", "Namespace", "team.a")[0]).toContain('Invalid value: "team.a": must not contain dots');
    expect(nameFindings("v1", "Namespace", "Team")[0]).toContain("a lowercase RFC 1123 label must consist of");
    expect(nameFindings("v1", "ConfigMap", "team.a")).toEqual([]);
    expect(nameFindings("v1", "ConfigMap", "system:foo")[0]).toContain("a lowercase RFC 1123 subdomain");
  });
});

describe("lists", () => {
  it("every item of a kind: List and of a typed list is validated and located as an object of its own", () => {
    // kubectl applies a List item by item (resource.Builder flattens it); each item is validated alone.
    const list = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: good}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: Bad_Name}
`;
    const typed = "apiVersion: v1\nkind: ConfigMapList\nitems:\n- metadata: {name: ok}\n- metadata: {name: Also_Bad}\n";
    const { code, stdout, stderr } = kunion({ "l.yaml": list, "t.yaml": typed }, "validate", "@l.yaml", "@t.yaml");
    expect(code).toBe(1);
    expect(
      stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(": a lowercase")[0]),
    ).toEqual([
      'l.yaml:9:14: error schema: metadata.name: Invalid value: "Bad_Name"',
      't.yaml:5:14: error schema: metadata.name: Invalid value: "Also_Bad"',
    ]);
    expect(stderr).toContain("2 file(s), 4 object(s)");
  });

  it("a List whose items are no list is refused, as kubectl cannot decode it; a custom kind ending in List is not", () => {
    const list = "apiVersion: v1\nkind: List\nitems: {a: b}\n";
    const custom = "apiVersion: example.com/v1\nkind: AllowList\nmetadata: {name: a}\nitems: {a: b}\n";
    const { code, stdout } = kunion({ "l.yaml": list, "c.yaml": custom }, "validate", "@l.yaml", "@c.yaml");
    expect(code).toBe(1);
    expect(stdout.split("\n").filter(Boolean)).toEqual([
      "c.yaml:2:1: notice schema-missing: kind: No schema known: example.com/v1, Kind=AllowList (give its CRD to check it)",
      'l.yaml:3:1: error object: items: Invalid value: "object": items in body must be of type array: "object"',
    ]);
  });
});

describe("the Kubernetes release to validate for", () => {
  const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";

  it("is chosen with --kubernetes-version or kubernetesVersion, unquoted or quoted; others are usage errors", () => {
    expect(kunion({ "c.yaml": cm }, "validate", "--kubernetes-version", "1.34", "@c.yaml").code).toBe(0);
    const unknown = kunion({ "c.yaml": cm }, "validate", "--kubernetes-version", "1.20", "@c.yaml");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--kubernetes-version must be one of 1.32, 1.33, 1.34, 1.35, 1.36, not "1.20"');
    const dir = mkdtempSync(join(tmpdir(), "kunion-release-"));
    for (const [text, code] of [
      ["kubernetesVersion: 1.33\n", 0],
      ['kubernetesVersion: "1.35"\n', 0],
      ["kubernetesVersion: 2.1\n", 2],
    ] as const) {
      writeFileSync(join(dir, "k.yaml"), text);
      const run = kunion({ "c.yaml": cm }, "validate", "--config", join(dir, "k.yaml"), "@c.yaml");
      expect(run.code, text).toBe(code);
      if (code === 2)
        expect(run.stderr).toContain("k.yaml:1:1: error config: kubernetesVersion: Unsupported value: 2.1");
    }
    expect(kunion({ "c.yaml": cm }, "normalize", "--kubernetes-version", "1.35", "@c.yaml").code).toBe(2);
  });
});

describe("CEL failure messages by release", () => {
  // kubernetes#132798 and #133832: from 1.35 a failing rule prints a simple value and omits an object;
  // 1.34 and older print the type of self.
  const crd = widgetCrd({
    properties: `spec:
  type: object
  x-kubernetes-validations: [{rule: "has(self.size)", message: "size is required"}]
  properties:
    size: {type: integer, x-kubernetes-validations: [{rule: "self >= 0", message: "must not be negative"}]}`,
  });
  const widget = (spec: string) => `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: ${spec}\n`;
  const messages = (release: string, spec: string) =>
    kunion(
      { "crd.yaml": crd, "w.yaml": widget(spec) },
      "validate",
      "--kubernetes-version",
      release,
      "--crd",
      "@crd.yaml",
      "@w.yaml",
    )
      .stdout.trim()
      .split("\n")
      .map((l) => l.slice(l.indexOf(" cel: ") + 6));

  it("1.35 prints a simple value as it is and an object not at all", () => {
    expect(messages("1.35", "{size: -3}")).toEqual(["spec.size: Invalid value: -3: must not be negative"]);
    expect(messages("1.35", "{}")).toEqual(["spec: Invalid value: size is required"]);
  });

  it("1.34 prints the type", () => {
    expect(messages("1.34", "{size: -3}")).toEqual(['spec.size: Invalid value: "integer": must not be negative']);
    expect(messages("1.34", "{}")).toEqual(['spec: Invalid value: "object": size is required']);
  });
});

// pkg/apis/admissionregistration/validation/validation.go validateValidation and validateVariable, over
// apiserver admission/plugin/cel compile.go CompileCELExpression and CompositedCompiler
describe("admission policies' expressions (examples/admission)", () => {
  const example = readFileSync(join(import.meta.dirname, "../examples/admission/replica-limit.yaml"), "utf8");

  it("the examples compile, a validating and a mutating policy", () => {
    const mutating = readFileSync(join(import.meta.dirname, "../examples/admission/team-label.yaml"), "utf8");
    const { code, stdout } = kunion({ "p.yaml": example, "m.yaml": mutating }, "validate", "@p.yaml", "@m.yaml");
    expect(stdout).toBe("");
    expect(code).toBe(0);
  });

  // validateApplyConfiguration: the trimmed expression, with HasPatchTypes, must build an Object
  it("a mutation that builds no Object is refused", () => {
    const mutating = readFileSync(join(import.meta.dirname, "../examples/admission/team-label.yaml"), "utf8").replace(
      "expression: \"Object{metadata: Object.metadata{labels: {'example.com/team': variables.team}}}\"",
      "expression: \"{'metadata': {'labels': {'example.com/team': variables.team}}}\"",
    );
    const { code, stdout } = kunion({ "m.yaml": mutating }, "validate", "@m.yaml");
    expect(code).toBe(1);
    expect(stdout.trim()).toBe(
      `m.yaml:26:7: error schema: spec.mutations[0].applyConfiguration.expression: Invalid value: "{'metadata': {'labels': {'example.com/team': variables.team}}}": must evaluate to Object but got map(string, map(string, map(string, string)))`,
    );
  });

  it("a misspelt variable and params without a paramKind are refused where they are written", () => {
    const broken = example
      .replace("variables.replicas <= variables.limit", "variables.replica <= variables.limit")
      .replace("  paramKind:\n    apiVersion: v1\n    kind: ConfigMap\n", "");
    const { code, stdout } = kunion({ "p.yaml": broken }, "validate", "@p.yaml");
    expect(code).toBe(1);
    expect(stdout.trim().split("\n")).toEqual([
      `p.yaml:24:5: error schema: spec.variables[1].expression: Invalid value: "int(params.data.maxReplicas)": compilation failed: ERROR: <input>:1:5: undeclared reference to 'params' (in container '')\\n | int(params.data.maxReplicas)\\n | ....^`,
      `p.yaml:26:5: error schema: spec.validations[0].expression: Invalid value: "variables.replica <= variables.limit": compilation failed: ERROR: <input>:1:10: undefined field 'replica'\\n | variables.replica <= variables.limit\\n | .........^`,
    ]);
  });
});
