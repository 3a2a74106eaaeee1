import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { run } from "../../src/cli/main.js";
import { widgetCrd } from "../widget-crd.js";
import { kunion, kunionIn } from "./run.js";

const examples = join(import.meta.dirname, "../../examples");
const ex = (p: string) => join(examples, p);

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "kunion-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A Deployment the API server would accept but for its strategy. */
const deploymentWith = (strategy: string, extra = "") =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n${extra}  strategy: ${strategy}\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}}\n    spec: {containers: [{name: w, image: nginx}]}\n`;

describe("kunion validate", () => {
  it("reports each error of the examples at its line, in the CRD's own words, and exits 1", () => {
    const { code, stdout } = kunion("validate", "--crd", ex("crds"), ex("manifests"));
    expect(code).toBe(1);
    const file = ex("manifests/backups-invalid.yaml");
    // The unions of this CRD are written as CEL rules: those rules report them, once each.
    expect(stdout.trim().split("\n")).toEqual([
      `${file}:8:3: error cel: spec.destination: Invalid value: gcs must be nil if the type is not GCS`,
      `${file}:8:3: error cel: spec.destination: Invalid value: s3 must be specified for type S3`,
      `${file}:12:3: error cel: spec.schedule: Invalid value: exactly one of the fields in [cron interval] must be set`,
      `${file}:24:3: error cel: spec.schedule: Invalid value: exactly one of the fields in [cron interval] must be set`,
    ]);
  });

  it("exits 0 on valid objects and counts them in the JSON summary", () => {
    const { code, stdout } = kunion("validate", "-o", "json", "--crd", ex("crds"), ex("manifests/backups.yaml"));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      findings: [],
      summary: { files: 1, objects: 2, errors: 0, warnings: 0, notices: 0 },
    });
  });

  it("reads unions from Go types as well, without reporting them twice", () => {
    const withGo = kunion("validate", "--crd", ex("crds"), "--go-types", ex("go"), ex("manifests"));
    const without = kunion("validate", "--crd", ex("crds"), ex("manifests"));
    expect(withGo.stdout).toBe(without.stdout);
  });

  it("reports the Deployment switched to Recreate exactly as the API server words it (kubernetes#34292)", () => {
    const { code, stdout } = kunion("validate", ex("deployment/recreate.yaml"));
    expect(code).toBe(1);
    expect(stdout).toContain(
      "recreate.yaml:15:5: error union: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
  });

  it("--fail-on never exits 0 even with errors", () => {
    expect(kunion("validate", "--fail-on", "never", ex("deployment/recreate.yaml")).code).toBe(0);
  });

  it("ratchets on update unless told not to", () => {
    const old = tempFile("old.yaml", deploymentWith("{type: Recreate, rollingUpdate: {}}"));
    const now = tempFile("new.yaml", deploymentWith("{type: Recreate, rollingUpdate: {}}", "  replicas: 3\n"));
    expect(kunion("validate", "--old", old, now).code).toBe(0);
    expect(kunion("validate", "--no-ratcheting", "--old", old, now).code).toBe(1);
  });

  it("checks metadata of Kubernetes' own kinds as the API server does", () => {
    const file = tempFile(
      "cm.yaml",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n  labels: {app: ok}\n",
    );
    const { code, stdout } = kunion("validate", file);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'cm.yaml:4:3: error schema: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain',
    );
  });

  it("checks a CRD among the inputs as the object it is, besides reading its schema", () => {
    // a misspelt extension: the API server's strict decoding refuses it; as a schema it would silently do nothing
    const crd = widgetCrd({ properties: "spec: {type: object, x-kubernetes-preserve-unknown-field: true}" });
    const file = tempFile("crd.yaml", `${crd}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n`);
    const { code, stdout } = kunion("validate", file);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /crd\.yaml:16:\d+: error schema: unknown field "spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-preserve-unknown-field"/,
    );
  });

  it("an object with more findings than a call takes arguments: counted and capped, no stack trace", () => {
    const items = Array.from({ length: 130_000 }, () => "1").join(",");
    const file = tempFile(
      "many.yaml",
      `apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [${items}]\n`,
    );
    const { code, stdout, stderr } = kunion("validate", file);
    expect(code).toBe(1);
    expect(stdout).toContain("more finding(s) in this file not shown");
    expect(stderr).toContain("1 object(s): 130000 error(s)");
  });

  it("notes a CRD declared twice, differently, and which one objects are checked against", () => {
    const first = tempFile("a.yaml", widgetCrd());
    const again = tempFile(
      "b.yaml",
      widgetCrd({ properties: "spec: {type: object, properties: {size: {type: string}}}" }),
    );
    const widget = tempFile(
      "w.yaml",
      "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n",
    );
    const { code, stdout } = kunion("validate", "--crd", first, "--crd", again, widget);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `b.yaml:1:1: notice crd-duplicate: the CustomResourceDefinition widgets.example.com is declared again, differently (first in ${first}:1): objects are checked against the first that serves their version`,
    );
    // the same CRD twice is no news
    expect(kunion("validate", "--crd", first, "--crd", tempFile("c.yaml", widgetCrd()), widget).stdout).toBe("");
  });

  it("notes objects whose kind it has no schema for", () => {
    const file = tempFile("x.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
    const { code, stdout } = kunion("validate", file);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "x.yaml:2:1: notice schema-missing: kind: No schema known: example.com/v1, Kind=Widget (give its CRD to check it)",
    );
  });
});

describe("kunion normalize", () => {
  it("clears rollingUpdate from the Deployment switched to Recreate, and says where", () => {
    const { code, stdout, stderr } = kunion(
      "normalize",
      "--old",
      ex("deployment/live.yaml"),
      ex("deployment/recreate.yaml"),
    );
    expect(code).toBe(0);
    const [object] = parseAllDocuments(stdout).map((d) => d.toJS());
    expect(object.spec.strategy).toEqual({ type: "Recreate" });
    expect(object.spec.template.spec.containers[0].image).toBe("nginx:1.27");
    expect(stderr).toContain("recreate.yaml:15:5: cleared spec.strategy.rollingUpdate");
  });

  it("keeps comments and layout, and prints unchanged objects byte for byte", () => {
    const text =
      "# keep me\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  strategy:\n    type: Recreate # why\n    rollingUpdate: {maxSurge: 1}\n";
    const untouched = "apiVersion: v1\nkind: ConfigMap   # odd   spacing\ndata: {a: b}\n";
    const file = tempFile("c.yaml", `${text}---\n${untouched}`);
    const live = tempFile("live.yaml", text.replace("Recreate", "RollingUpdate"));
    const { stdout } = kunion("normalize", "--old", live, file);
    expect(stdout).toBe(
      `# keep me\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  strategy:\n    type: Recreate # why\n---\n${untouched}`,
    );
  });

  it("prints objects, changes and notes as JSON", () => {
    const { stdout } = kunion(
      "normalize",
      "-o",
      "json",
      "--old",
      ex("deployment/live.yaml"),
      ex("deployment/recreate.yaml"),
    );
    const [result] = JSON.parse(stdout);
    expect(result).toMatchObject({
      index: 0,
      changes: [{ op: "clear", path: "spec.strategy.rollingUpdate" }],
      notes: [],
    });
    expect(result.file).toMatch(/recreate\.yaml$/);
  });

  it("applies an applied configuration over the live object (--mode apply)", () => {
    const applied = tempFile(
      "applied.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\nspec:\n  strategy: {type: Recreate}\n",
    );
    const { stdout } = kunion("normalize", "--mode", "apply", "--old", ex("deployment/live.yaml"), applied);
    expect(parse(stdout).spec.strategy).toEqual({ type: "Recreate" });
    expect(parse(stdout).spec.replicas).toBe(2);
  });

  it("returns SMD's error under --policy smd", () => {
    const file = tempFile(
      "s.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        env:\n        - {name: A, value: x, valueFrom: {fieldRef: {fieldPath: metadata.name}}}\n",
    );
    const { code, stderr } = kunion("normalize", "--policy", "smd", file);
    expect(code).toBe(1);
    expect(stderr).toContain(
      "spec.template.spec.containers[0].env[0]: Invalid value: multiple fields set without discriminator change: value, valueFrom",
    );
  });
});

describe("usage and unreadable input", () => {
  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["validate"], /needs at least one path/],
    [["validate", "-o", "xml", "x"], /--output must be one of text, json/],
    [["normalize", "--policy", "ssa", "x"], /--policy must be one of kep, smd/],
    [["validate", "--bogus", "x"], /unknown option --bogus\n/],
  ])("%j is a usage error (exit 2)", (argv, message) => {
    const { code, stderr } = kunion(...argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("Usage: kunion");
  });

  it("a missing file exits 2 naming it", () => {
    const { code, stderr } = kunion("validate", "/nonexistent/m.yaml");
    expect(code).toBe(2);
    expect(stderr).toBe("kunion: /nonexistent/m.yaml: no such file or folder\n");
  });

  it("--help prints the usage and exits 0", () => {
    expect(kunion("--help")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: kunion <command>") });
  });
});

describe("kunion validate -o sarif and -o github", () => {
  // Paths as a CI job gives them: relative to the checkout.
  const invalidRel = relative(process.cwd(), ex("manifests/backups-invalid.yaml"));
  const crdsRel = relative(process.cwd(), ex("crds"));

  it("-o sarif prints a SARIF 2.1.0 log with a rule per rule id and a region per finding, exit 1", () => {
    const { code, stdout, stderr } = kunion("validate", "-o", "sarif", "--crd", crdsRel, invalidRel);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    const log = JSON.parse(stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    expect(run.tool.driver.name).toBe("kunion");
    expect(run.tool.driver.informationUri).toMatch(/^https:\/\//);
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(["cel"]);
    const located = run.results.map(
      (r: {
        ruleId: string;
        level: string;
        locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: object } }>;
      }) => [
        r.ruleId,
        r.level,
        r.locations[0]?.physicalLocation.artifactLocation.uri,
        r.locations[0]?.physicalLocation.region,
      ],
    );
    const uri = invalidRel.split(sep).join("/");
    expect(located).toEqual([
      ["cel", "error", uri, { startLine: 8, startColumn: 3 }],
      ["cel", "error", uri, { startLine: 8, startColumn: 3 }],
      ["cel", "error", uri, { startLine: 12, startColumn: 3 }],
      ["cel", "error", uri, { startLine: 24, startColumn: 3 }],
    ]);
    expect(run.results[1].message.text).toBe("spec.destination: Invalid value: s3 must be specified for type S3");
    expect(run.results[1].properties).toEqual({
      type: "FieldValueInvalid",
      field: "spec.destination",
      document: 0,
    });
  });

  it("-o sarif with no findings is a valid empty run, exit 0", () => {
    const { code, stdout } = kunion("validate", "-o", "sarif", "--crd", crdsRel, ex("manifests/backups.yaml"));
    expect(code).toBe(0);
    const log = JSON.parse(stdout);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].tool.driver.rules).toEqual([]);
  });

  it("-o github prints one workflow command per finding, notices as ::notice", () => {
    const unknown = tempFile("w,x.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
    const { code, stdout, stderr } = kunion("validate", "-o", "github", ex("deployment/recreate.yaml"), unknown);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toContain(
      `::error file=${ex("deployment/recreate.yaml")},line=15,col=5,title=kunion union::spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy \`type\` is 'Recreate'`,
    );
    expect(lines).toContain(
      `::notice file=${unknown.replace(",", "%2C")},line=2,col=1,title=kunion schema-missing::kind: No schema known: example.com/v1, Kind=Widget (give its CRD to check it)`,
    );
    expect(lines).toHaveLength(2);
    expect(stderr).toContain("2 file(s), 2 object(s): 1 error(s), 0 warning(s), 1 notice(s)");
  });

  it("-o github escapes a hostile file name, so it cannot end the command or start another", () => {
    const file = tempFile(
      "odd,na:me%\n::warning file=x::pwned.yaml",
      deploymentWith("{type: Recreate, rollingUpdate: {}}"),
    );
    const { stdout } = kunion("validate", "-o", "github", "--fail-on", "never", file);
    const escaped = file.replaceAll("%", "%25").replaceAll("\n", "%0A").replaceAll(":", "%3A").replaceAll(",", "%2C");
    expect(stdout).toBe(
      `::error file=${escaped},line=5,col=30,title=kunion union::spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy \`type\` is 'Recreate'\n`,
    );
  });

  it("-o github never colours, even on a TTY", () => {
    let stdout = "";
    run(["validate", "-o", "github", ex("deployment/recreate.yaml")], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
      color: true,
    });
    expect(stdout).not.toContain("\u001b[");
    expect(stdout.startsWith("::error ")).toBe(true);
  });

  it("-o is checked against the four formats", () => {
    const { code, stderr } = kunion("validate", "-o", "junit", "x");
    expect(code).toBe(2);
    expect(stderr).toContain("--output must be one of text, json, sarif, github");
  });
});

describe("the configuration file", () => {
  it("sets rule severities, strictness and the failing severity", () => {
    const config = tempFile("kunion.yaml", "rules:\n  union: warning\nfailOn: error\n");
    const { code, stdout } = kunion("validate", "--config", config, ex("deployment/recreate.yaml"));
    expect(code).toBe(0);
    expect(stdout).toContain("warning union: spec.strategy.rollingUpdate: Forbidden");
    const off = tempFile("kunion.yaml", "rules:\n  union: off\n");
    expect(kunion("validate", "--config", off, ex("deployment/recreate.yaml")).stdout).toBe("");
  });

  it("a command-line flag wins over the configuration", () => {
    const config = tempFile("kunion.yaml", "failOn: never\n");
    expect(kunion("validate", "--config", config, ex("deployment/recreate.yaml")).code).toBe(0);
    expect(kunion("validate", "--config", config, "--fail-on", "error", ex("deployment/recreate.yaml")).code).toBe(1);
  });

  it("a broken configuration is a usage error naming the line", () => {
    const config = tempFile("kunion.yaml", "rules: {}\nstrictt: true\n");
    const { code, stderr } = kunion("validate", "--config", config, ex("deployment/recreate.yaml"));
    expect(code).toBe(2);
    expect(stderr).toContain('kunion.yaml:2:1: error config: unknown field "strictt"');
  });
});

describe("kunion crd-diff", () => {
  // Block style, so a test can replace the line of `size` with another line.
  const crd = (...versions: string[]) =>
    widgetCrd({
      kind: "Thing",
      versions,
      properties: "spec:\n  type: object\n  properties:\n    size: {type: integer}",
    });

  it("reports a removed storage version as an error on the new file, exit 1", () => {
    const before = tempFile("old.yaml", crd("v1alpha1", "v1"));
    const after = tempFile("new.yaml", crd("v1"));
    const { code, stdout } = kunion("crd-diff", before, after);
    expect(code).toBe(1);
    expect(stdout).toMatch(/new\.yaml:\d+:\d+: error stored-version-removed: /);
    expect(stdout).toMatch(/v1alpha1/);
  });

  it("accepts a finding with a kunion:allow comment on its line, as a notice", () => {
    const before = tempFile("old.yaml", crd("v1"));
    const changed = crd("v1").replace(
      "size: {type: integer}",
      "size: {type: string} # kunion:allow type-changed nothing stored yet",
    );
    const { code, stdout } = kunion("crd-diff", before, tempFile("new.yaml", changed));
    expect(code).toBe(0);
    expect(stdout).toMatch(/notice type-changed: .*\(allowed: nothing stored yet\)/);
  });

  it("reads revisions from git with git:REF:PATH", () => {
    const dir = mkdtempSync(join(tmpdir(), "kunion-git-"));
    const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(dir, "crd.yaml"), crd("v1"));
    git("add", ".");
    git("-c", "user.email=k@k", "-c", "user.name=k", "commit", "-qm", "one");
    writeFileSync(join(dir, "crd.yaml"), crd("v1").replace("size: {type: integer}", "{}"));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { code, stdout } = kunion("crd-diff", "git:HEAD:crd.yaml", "crd.yaml");
      expect(code).toBe(1);
      expect(stdout).toContain("field-removed");
      expect(kunion("crd-diff", "git:nope:crd.yaml", "crd.yaml")).toMatchObject({ code: 2 });
    } finally {
      process.chdir(cwd);
    }
  });

  it("pairs several CRDs of one file by name, and reports one that is gone", () => {
    const two = (a: string, b: string) => `${a}---\n${b}`;
    const thing = crd("v1");
    const other = thing.replaceAll("things", "others").replace("kind: Thing", "kind: Other");
    const before = tempFile("old.yaml", two(thing, other));
    const changed = other.replace("size: {type: integer}", "size: {type: string}");
    const { stdout } = kunion("crd-diff", before, tempFile("new.yaml", two(thing, changed)));
    expect(stdout).toMatch(/new\.yaml:\d+:\d+: error type-changed: v1 spec\.size/);
    expect(stdout.match(/error/g)).toHaveLength(1);
    const { stdout: gone } = kunion("crd-diff", before, tempFile("new.yaml", thing));
    expect(gone).toContain(
      "error crd-removed: the CustomResourceDefinition others.example.com is gone: its objects cannot be read any more",
    );
  });

  it("does not call a CRD gone when the new file does not read: its syntax error is the finding", () => {
    const thing = crd("v1");
    // the document cannot be read, so whether the CRD is still there is unknown
    const broken = thing.replace("kind: Thing", "kind: Thing\n    kind: Thing");
    const { code, stdout } = kunion("crd-diff", tempFile("old.yaml", thing), tempFile("new.yaml", broken));
    expect(code).toBe(1);
    expect(stdout).toContain("error parse:");
    expect(stdout).not.toContain("crd-removed");
  });

  it("a file without a CRD, and a wrong number of arguments", () => {
    const deployment = ex("deployment/live.yaml");
    expect(kunion("crd-diff", deployment, deployment).stdout).toContain("crd-invalid");
    expect(kunion("crd-diff", deployment)).toMatchObject({ code: 2 });
  });
});

describe("kunion check", () => {
  function repo() {
    const dir = mkdtempSync(join(tmpdir(), "kunion-check-"));
    const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
    git("init", "-q");
    const commit = () => {
      git("add", ".");
      git("-c", "user.email=k@k", "-c", "user.name=k", "commit", "-qm", "x");
    };
    return { dir, commit };
  }

  it("catches an update the API server would refuse: the Deployment switched to Recreate", () => {
    const { dir, commit } = repo();
    writeFileSync(join(dir, "app.yaml"), readFileSync(ex("deployment/live.yaml"), "utf8"));
    writeFileSync(join(dir, "README.md"), "not a manifest");
    commit();
    writeFileSync(join(dir, "app.yaml"), readFileSync(ex("deployment/recreate.yaml"), "utf8"));
    const { code, stdout } = kunionIn(dir, "check");
    expect(code).toBe(1);
    expect(stdout).toContain("app.yaml:15:5: error union: spec.strategy.rollingUpdate: Forbidden");
  });

  it("runs the evolution rules on a changed CRD, and skips templates with one notice", () => {
    const { dir, commit } = repo();
    const crd = readFileSync(ex("crds/backups.kunion.dev.yaml"), "utf8");
    writeFileSync(join(dir, "crd.yaml"), crd);
    commit();
    writeFileSync(
      join(dir, "crd.yaml"),
      crd.replace("                retention:\n                  type: integer\n", ""),
    );
    writeFileSync(
      join(dir, "chart.yaml"),
      "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: {{ .Values.replicas }}\n",
    );
    const { code, stdout } = kunionIn(dir, "check", "--base", "HEAD");
    expect(code).toBe(1);
    expect(stdout).toMatch(/crd\.yaml:\d+:\d+: error field-removed: v1 spec\.retention/);
    expect(stdout).toContain("chart.yaml:1:1: notice skipped: 1 changed file(s) hold templates");
  });

  it.skipIf(!existsSync(join(import.meta.dirname, "../../../shared/corpus")))(
    "round-trips a changed conversion declaration over samples of every version",
    () => {
      const { dir, commit } = repo();
      const crd = join(import.meta.dirname, "../../../shared/corpus/kubebuilder-book/crds/multiversion-tutorial");
      const declaration = readFileSync(ex("../examples/conversions/cronjob.yaml"), "utf8");
      writeFileSync(
        join(dir, "crd.yaml"),
        readFileSync(join(crd, "batch.tutorial.kubebuilder.io_cronjobs.yaml"), "utf8"),
      );
      writeFileSync(join(dir, "conversion.yaml"), declaration);
      commit();
      writeFileSync(join(dir, "conversion.yaml"), `# reviewed\n${declaration}`);
      const ok = kunionIn(dir, "check");
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/conversion\.yaml:1:1: notice round-trip: .*refused by the declaration's own rules/);
      // A declaration that no longer compiles is an error on its line.
      writeFileSync(join(dir, "conversion.yaml"), declaration.replace(".join(' ')", ".join(' ') +"));
      const bad = kunionIn(dir, "check");
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/conversion\.yaml:\d+:\d+: error conversion: /);
    },
  );

  it("says so when nothing Kubernetes changed, and fails clearly outside a repository", () => {
    const { dir, commit } = repo();
    writeFileSync(join(dir, "notes.txt"), "x");
    commit();
    expect(kunionIn(dir, "check")).toMatchObject({
      code: 0,
      stderr: "no Kubernetes YAML or JSON changed since HEAD\n",
    });
    const outside = mkdtempSync(join(tmpdir(), "kunion-nogit-"));
    expect(kunionIn(outside, "check").code).toBe(2);
  });
});

describe("kunion convert", () => {
  const corpus = join(import.meta.dirname, "../../../shared/corpus/kubebuilder-book");
  const tutorial = join(corpus, "examples/multiversion-tutorial");

  it.skipIf(!existsSync(corpus))("converts the kubebuilder CronJob v1 sample into the v2 sample, and back", () => {
    const common = ["--crd", join(corpus, "crds"), "--conversion", ex("../examples/conversions")];
    const toV2 = kunion("convert", ...common, "--to", "v2", "-o", "json", join(tutorial, "batch_v1_cronjob.yaml"));
    expect(toV2.code).toBe(0);
    const [converted] = JSON.parse(toV2.stdout);
    const [expected] = parseAllDocuments(readFileSync(join(tutorial, "batch_v2_cronjob.yaml"), "utf8")).map((d) =>
      d.toJS(),
    );
    expect(converted.apiVersion).toBe("batch.tutorial.kubebuilder.io/v2");
    expect(converted.spec).toEqual(expected.spec);
    const back = tempFile("v2.json", JSON.stringify(converted));
    const [v1] = JSON.parse(kunion("convert", ...common, "--to", "v1", "-o", "json", back).stdout);
    expect(v1.spec.schedule).toBe("*/1 * * * *");
    // the target as a whole apiVersion, as kubectl convert --output-version takes it
    const whole = kunion("convert", ...common, "--to", "batch.tutorial.kubebuilder.io/v1", "-o", "json", back);
    expect(whole.code).toBe(0);
    expect(JSON.parse(whole.stdout)).toEqual([v1]);
    const elsewhere = kunion("convert", ...common, "--to", "batch/v1", back);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(
      'cannot convert to unknown apiVersion "batch/v1": known versions are batch.tutorial.kubebuilder.io/v2, batch.tutorial.kubebuilder.io/v1',
    );
  });

  it("names objects with no declared conversion, and a declaration file that holds none", () => {
    const { code, stderr } = kunion(
      "convert",
      "--conversion",
      ex("deployment/live.yaml"),
      "--to",
      "v2",
      ex("deployment/live.yaml"),
    );
    expect(code).toBe(1);
    expect(stderr).toContain("the file holds no Conversion declaration");
    expect(stderr).toContain("no Conversion declared for apps/Deployment");
  });

  it("needs --to and --conversion", () => {
    expect(kunion("convert", ex("deployment/live.yaml")).code).toBe(2);
    expect(kunion("convert", "--to", "v2", ex("deployment/live.yaml")).stderr).toContain("--conversion");
  });
});
