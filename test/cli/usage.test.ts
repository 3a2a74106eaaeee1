import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseServeArgs, UsageError } from "../../src/cli/args.js";
import { colorWanted, run } from "../../src/cli/main.js";
import { Progress } from "../../src/cli/progress.js";
import { editDistance, nearest } from "../../src/cli/suggest.js";
import { kunionVersion } from "../../src/index.js";
import { folder, kunion as runKunion } from "./run.js";

/** The CLI's answer with the first line of what it printed on stderr. */
function kunion(...argv: string[]) {
  const answer = runKunion(...argv);
  return { ...answer, message: answer.stderr.split("\n")[0] ?? "" };
}

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n`;
const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n";
/** `count` ConfigMaps in one file, each named against RFC 1123: one error each. */
const badConfigMaps = (count: number) => Array.from({ length: count }, (_, i) => configMap(`Bad_${i}`)).join("---\n");

describe("kunion --version", () => {
  it.each([["--version"], ["-v"], ["validate", "--version"]])("%s prints the package's version", (...argv) => {
    const { code, stdout } = kunion(...argv);
    expect(code).toBe(0);
    expect(stdout).toBe(`kunion ${kunionVersion}\n`);
  });
});

describe("usage errors: one clear line, the usage text, exit 2", () => {
  it.each([
    [["valdate", "x.yaml"], 'unknown command "valdate": did you mean "validate"?'],
    [["normalise", "x.yaml"], 'unknown command "normalise": did you mean "normalize"?'],
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["--crd", "x", "validate"], "the command comes first"],
    [["validate", "--crds", "c", "x.yaml"], "unknown option --crds: did you mean --crd?"],
    [
      ["validate", "--ignore-missing", "x.yaml"],
      "unknown option --ignore-missing: did you mean --ignore-missing-schemas?",
    ],
    [["validate", "--sumary", "x.yaml"], "unknown option --sumary: did you mean --summary?"],
    [["validate", "--no-stirct", "x.yaml"], "unknown option --no-stirct: did you mean --no-strict?"],
    [["validate", "-x", "x.yaml"], "unknown option -x: short options are -o, -h and -v"],
    [["validate", "-strict", "x.yaml"], "-strict: kunion's long options take two dashes: --strict"],
    [["validate", "-summary", "x.yaml"], "-summary: kunion's long options take two dashes: --summary"],
    [
      ["validate", "-ignore-missing-schemas", "x.yaml"],
      "kunion's long options take two dashes: --ignore-missing-schemas",
    ],
    [["validate", "--crd"], "--crd needs a value"],
    [["validate", "--old", "-x", "y.yaml"], "--old needs a value; one that begins with a dash is written --old=-VALUE"],
    [["validate", "--summary=yes", "x.yaml"], "--summary takes no value"],
    [
      ["validate", "--max-per-file", "many", "x.yaml"],
      '--max-per-file must be a whole number (0: no limit), not "many"',
    ],
    [["validate", "--skip", "apps/v1/", "x.yaml"], 'not "apps/v1/"'],
    [["normalize", "--summary", "x.yaml"], "--summary belongs to validate"],
    [["crd-diff", "--skip", "Pod", "a", "b"], "--skip belongs to validate"],
    [["check", "--ignore", "x"], "--ignore belongs to validate and normalize (check leaves out .kunion.yaml's ignore)"],
    [
      ["validate", "--ignore-missing-schemas", "--reject-missing-schemas", "x.yaml"],
      "--ignore-missing-schemas and --reject-missing-schemas exclude each other",
    ],
    [["validate"], "validate needs at least one path"],
  ])("%j", (argv, message) => {
    const { code, stderr, message: first } = kunion(...argv);
    expect(code).toBe(2);
    expect(first).toContain(message);
    expect(first.startsWith("kunion: ")).toBe(true);
    expect(stderr).toContain("Usage: kunion <command>");
  });

  it("never reads kubeconform's -strict as the short options -s -t -r…", () => {
    expect(kunion("validate", "-strict", "x.yaml").stderr).not.toContain("'-s'");
  });

  it("a short option with its value glued on is still read (-ojson)", () => {
    const dir = folder({ "cm.yaml": configMap("ok") });
    expect(JSON.parse(kunion("validate", "-ojson", dir).stdout).summary.objects).toBe(1);
  });

  it("a folder without YAML or JSON is exit 2 with a message, not a silent success", () => {
    const dir = folder({ "README.md": "# nothing here\n" });
    const { code, stderr, stdout } = kunion("validate", dir);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`kunion: no YAML or JSON file (*.yaml, *.yml, *.json) in ${dir}\n`);
  });

  it("says so when every file found was ignored", () => {
    const dir = folder({ "a.yaml": configMap("a") });
    expect(kunion("normalize", "--ignore", "**/a.yaml", dir).message).toBe(
      `kunion: no YAML or JSON file (*.yaml, *.yml, *.json) in ${dir} that is not ignored`,
    );
  });
});

describe("kubeconform's habits", () => {
  it("--summary prints the summary line on stdout, after the findings", () => {
    const dir = folder({ "cm.yaml": configMap("Bad") });
    const { code, stdout, stderr } = kunion("validate", "--summary", dir);
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toContain("metadata.name: Invalid value");
    expect(lines[1]).toBe("1 file(s), 1 object(s): 1 error(s), 0 warning(s), 0 notice(s)");
    expect(stderr).toBe("");
  });

  it("--skip leaves out kinds, by Kind or apiVersion/Kind, and counts them", () => {
    const dir = folder({ "all.yaml": `${configMap("Bad")}---\n${deployment}` });
    const byKind = kunion("validate", "--summary", "--skip", "ConfigMap,Deployment", dir);
    expect(byKind.code).toBe(0);
    expect(byKind.stdout).toBe("1 file(s), 0 object(s), 2 skipped (--skip): 0 error(s), 0 warning(s), 0 notice(s)\n");
    const byGvk = kunion("validate", "--skip", "v1/ConfigMap", "--skip", "apps/v1/Deployment", dir);
    expect(byGvk.code).toBe(0);
    // Another version of the kind is not skipped.
    expect(kunion("validate", "--skip", "v2/ConfigMap", "--skip", "Deployment", dir).code).toBe(1);
  });

  it("--reject makes every object of a kind an error with rule reject", () => {
    const dir = folder({ "d.yaml": deployment });
    const { code, stdout } = kunion("validate", "--reject", "apps/v1/Deployment", dir);
    expect(code).toBe(1);
    expect(stdout).toBe(
      `${join(dir, "d.yaml")}:2:1: error reject: kind: Forbidden: apps/v1/Deployment is rejected (--reject)\n`,
    );
  });

  it("--ignore-missing-schemas drops the notice; --reject-missing-schemas makes it an error", () => {
    const dir = folder({ "foo.yaml": "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: f}\n" });
    const plain = kunion("validate", dir);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("notice schema-missing: kind: No schema known: example.com/v1, Kind=Foo");
    const ignored = kunion("validate", "--ignore-missing-schemas", dir);
    expect([ignored.code, ignored.stdout]).toEqual([0, ""]);
    const rejected = kunion("validate", "--reject-missing-schemas", dir);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toContain("error schema-missing: kind: No schema known");
  });

  it("--ignore and .kunion.yaml's ignore leave files out of validate and normalize", () => {
    const dir = folder({
      "ok.yaml": configMap("ok"),
      "vendor/bad.yaml": configMap("Bad"),
      ".kunion.yaml": "ignore: ['**/vendor/**']\n",
    });
    expect(kunion("validate", dir).code).toBe(1);
    expect(kunion("validate", "--ignore", "**/vendor/**", dir).code).toBe(0);
    const config = join(dir, ".kunion.yaml");
    const validated = kunion("validate", "--config", config, "-o", "json", join(dir, "ok.yaml"), join(dir, "vendor"));
    expect(JSON.parse(validated.stdout).summary).toMatchObject({ files: 1, errors: 0 });
    const normalized = kunion("normalize", "--config", config, join(dir, "ok.yaml"), join(dir, "vendor"));
    expect(normalized.stdout).toBe(configMap("ok"));
  });
});

describe("floods", () => {
  it("at most 50 findings per file by default, then one line with how many more", () => {
    const dir = folder({ "many.yaml": badConfigMaps(60) });
    const { code, stdout, stderr } = kunion("validate", dir);
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toBe(
      `${join(dir, "many.yaml")}: … 10 more finding(s) in this file not shown (--max-per-file 0 shows every one)`,
    );
    // The counts are of every finding.
    expect(stderr).toContain("60 error(s)");
  });

  it("--max-per-file N and 0; JSON keeps every finding; github output says so with a notice", () => {
    const dir = folder({ "many.yaml": badConfigMaps(5) });
    expect(kunion("validate", "--max-per-file", "2", dir).stdout.trim().split("\n")).toHaveLength(3);
    expect(kunion("validate", "--max-per-file", "0", dir).stdout.trim().split("\n")).toHaveLength(5);
    expect(JSON.parse(kunion("validate", "--max-per-file", "1", "-o", "json", dir).stdout).findings).toHaveLength(5);
    const github = kunion("validate", "--max-per-file", "1", "-o", "github", dir).stdout.trim().split("\n");
    expect(github).toHaveLength(2);
    expect(github[1]).toMatch(/^::notice file=.*many\.yaml.*::4 more finding\(s\) in this file not shown/);
  });

  it("errors come before notices when a file is cut", () => {
    const foo = "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: f}\n";
    const dir = folder({ "mixed.yaml": `${foo}---\n${foo}---\n${configMap("Bad")}` });
    const { stdout } = kunion("validate", "--max-per-file", "1", dir);
    expect(stdout.split("\n")[0]).toContain("error schema: metadata.name");
  });

  it("identical parse errors of a file are one line with their count and lines", () => {
    const broken = "a: [1\n---\n";
    const dir = folder({ "broken.yaml": broken.repeat(8) });
    const { stdout } = kunion("validate", dir);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^.*broken\.yaml:2:1: error parse: .* \(8 times; also at lines 4, 6, 8, 10, 12, …\)$/);
  });

  it("templated files are left out with one notice, as kunion check does; `{{` in a manifest's strings is checked", () => {
    const dir = folder({
      "templates/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n",
      "templates/b.yaml": `# {{ a comment is not a template }}\n${configMap("Bad")}`,
      "templates/c.yaml": "{{- if .Values.x }}\nkind: Foo\n{{- end }}\n",
      // an Alertmanager template kept in a ConfigMap: a manifest, checked (its number is no string)
      "alerts.yaml":
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: alerts}\ndata:\n  slack.tmpl: |\n    {{ define "title" }}[{{ .Status }}]{{ end }}\n  retries: 3\n',
    });
    const { code, stdout } = kunion("validate", dir);
    expect(code).toBe(1);
    expect(stdout.trim().split("\n")).toEqual([
      expect.stringContaining('alerts.yaml:7:3: error schema: data.retries: Invalid value: "integer"'),
      `${join(dir, "templates/a.yaml")}:1:1: notice skipped: 2 file(s) hold templates ({{ … }}), not manifests: not checked (render them first, e.g. helm template)`,
      expect.stringContaining("b.yaml:4:12: error schema: metadata.name"),
    ]);
  });
});

describe("terminal niceties", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "1", FORCE_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true],
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "0" }, false, false],
  ])("colour with %j, terminal %s: %s", (env, terminal, expected) => {
    expect(colorWanted(env, terminal)).toBe(expected);
  });

  it("progress counts the second from the run's start when told", () => {
    let out = "";
    const progress = new Progress((t) => (out += t), 2, "validating", { start: 0, now: () => 1500 });
    progress.advance(1);
    expect(out).toBe("\r\u001b[Kvalidating 1/2 object(s)…");
  });

  it("progress is silent for the first second, then one rewritten line, erased at the end", () => {
    let now = 0;
    let out = "";
    const progress = new Progress((t) => (out += t), 30, "validating", { now: () => now });
    progress.advance(10);
    now = 900;
    progress.advance(10);
    expect(out).toBe("");
    now = 1200;
    progress.advance(5);
    now = 1250; // within 100 ms of the last drawing: not drawn again
    progress.advance(5);
    expect(out).toBe("\r\u001b[Kvalidating 25/30 object(s)…");
    progress.clear();
    expect(out.endsWith("\r\u001b[K")).toBe(true);
    const quiet = new Progress(undefined, 1, "validating", { now: () => 5000 });
    quiet.advance(1);
    quiet.clear();
  });

  it("a short run on a terminal writes no progress at all", () => {
    let stderr = "";
    const dir = folder({ "cm.yaml": configMap("ok") });
    run(["validate", dir], { stdout: () => {}, stderr: (t) => (stderr += t), color: true, progress: true });
    expect(stderr).not.toContain("\r");
  });
});

describe("suggestions", () => {
  it("edit distance is a metric with swaps counted once", () => {
    const word = fc.string({ maxLength: 8 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(editDistance(a, a)).toBe(0);
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(editDistance(a, b)).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
    expect(editDistance("stirct", "strict")).toBe(1);
  });

  it("suggests nothing far away", () => {
    expect(nearest("xyz", ["crd", "old"])).toBeUndefined();
    expect(nearest("output", ["crd", "old", "output"])).toBe("output");
  });
});

describe("kunion serve's usage errors", () => {
  it.each([
    [["--prot", "80"], "unknown option --prot: did you mean --port?"],
    [["-x"], "unknown option -x: short options are -p and -h"],
    [["--port"], "--port needs a value"],
    [["--port", "http"], '--port must be a port number (0-65535), not "http"'],
  ])("%j", (argv, message) => {
    expect(() => parseServeArgs(argv)).toThrow(new UsageError(message));
  });
});

describe("kunion convert", () => {
  it("leaves out .kunion.yaml's ignore, and says so when nothing is left", () => {
    const dir = folder({ "a.yaml": configMap("a"), ".kunion.yaml": "ignore: ['**/a.yaml']\n" });
    const { code, message } = kunion(
      "convert",
      "--config",
      join(dir, ".kunion.yaml"),
      "--conversion",
      join(import.meta.dirname, "../../examples/conversions"),
      "--to",
      "v2",
      dir,
    );
    expect([code, message]).toEqual([
      2,
      `kunion: no YAML or JSON file (*.yaml, *.yml, *.json) in ${dir} that is not ignored`,
    ]);
  });
});
