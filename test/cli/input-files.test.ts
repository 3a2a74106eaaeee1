/**
 * Files as the CLI and `kunion check` read them: bytes that are not UTF-8, numbers JSON has not,
 * directives, streams of JSON values, and what a folder may hold besides files (a FIFO, a broken link).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitRepository } from "../../src/checkout/testing.js";
import { folder, kunion, kunionIn } from "./run.js";

const configMap = (name: string) =>
  Buffer.from(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata:\n  x: "ab"\n`);
/** A ConfigMap whose value holds bytes that are not UTF-8 (0xff 0xfe: UTF-16's byte order mark), on line 5. */
const latin = Buffer.concat([configMap("a").subarray(0, -3), Buffer.from([0xff, 0xfe]), Buffer.from('b"\n')]);
/** A Deployment the API server accepts, but for `extra` under spec. */
const deployment = (extra: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  ${extra}\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n`;

const notUtf8 = "5:8: error parse: Invalid document: input is not UTF-8 text: invalid leading UTF-8 octet 0xff";

describe("bytes that are not UTF-8", () => {
  it("are a parse error at the first of them, and the file is not checked further: validate and normalize", () => {
    const dir = folder({ "ok.yaml": configMap("ok").toString() });
    writeFileSync(join(dir, "t7.yaml"), latin);
    const validated = kunion("validate", dir);
    expect(validated.code).toBe(1);
    expect(validated.stdout.trimEnd().split("\n")).toEqual([`${join(dir, "t7.yaml")}:${notUtf8}`]);
    expect(validated.stderr).toContain("2 file(s), 1 object(s): 1 error(s)");
    const normalized = kunion("normalize", join(dir, "t7.yaml"));
    expect(normalized.code).toBe(1);
    expect(normalized.stderr).toContain(`t7.yaml:${notUtf8}`);
    expect(kunion("normalize", "-o", "json", join(dir, "t7.yaml")).stdout).toBe("[]\n");
  });

  it("in a CRD, an old revision or a configuration: a finding, or a broken configuration (exit 2)", () => {
    const dir = folder({ "ok.yaml": configMap("ok").toString() });
    writeFileSync(join(dir, "bad.bin"), latin);
    const bad = join(dir, "bad.bin");
    expect(kunion("validate", "--crd", bad, join(dir, "ok.yaml")).stdout).toContain(`bad.bin:${notUtf8}`);
    expect(kunion("validate", "--old", bad, join(dir, "ok.yaml")).stdout).toContain(`bad.bin:${notUtf8}`);
    expect(kunion("crd-diff", bad, bad).stdout).toContain(`bad.bin:${notUtf8}`);
    const config = kunion("validate", "--config", bad, join(dir, "ok.yaml"));
    expect(config).toMatchObject({
      code: 2,
      stderr: `kunion: ${bad}:5:8: input is not UTF-8 text: invalid leading UTF-8 octet 0xff\n`,
    });
  });

  it("kunion check: a changed Kubernetes file is a finding with its line; other YAML and a base revision are not read", () => {
    const { ws, git } = gitRepository("kunion-utf8-");
    writeFileSync(join(ws, "app.yaml"), latin);
    writeFileSync(join(ws, "was.yaml"), configMap("was"));
    git("add", ".");
    git("commit", "-qm", "base");
    writeFileSync(join(ws, "app.yaml"), configMap("a"));
    writeFileSync(join(ws, "was.yaml"), latin);
    // Latin-1 text that names no apiVersion is no Kubernetes file: not kunion's to judge.
    writeFileSync(join(ws, "notes.yaml"), Buffer.from([0x6e, 0x3a, 0x20, 0xe9, 0x0a]));
    const { code, stdout } = kunionIn(ws, "check");
    expect(code).toBe(1);
    expect(stdout.trimEnd().split("\n")).toEqual([`was.yaml:${notUtf8}`]);
  });

  it("kunion crd-diff git:REF:PATH: a blob that is not UTF-8 is a finding", () => {
    const { ws, git } = gitRepository("kunion-utf8-");
    writeFileSync(join(ws, "crd.yaml"), latin);
    git("add", ".");
    git("commit", "-qm", "base");
    const { code, stdout } = kunionIn(ws, "crd-diff", "git:HEAD:crd.yaml", "crd.yaml");
    expect(code).toBe(1);
    expect(stdout).toContain(`crd.yaml:${notUtf8}`);
  });
});

describe("numbers JSON has not", () => {
  it("infinity and NaN: an error at the value naming its field, and the document is not checked further", () => {
    const dir = folder({ "inf.yaml": deployment("minReadySeconds: .inf\n  paused: false") });
    const { code, stdout } = kunion("validate", dir);
    expect(code).toBe(1);
    expect(stdout.trimEnd().split("\n")).toEqual([
      `${join(dir, "inf.yaml")}:5:3: error parse: spec.minReadySeconds: Invalid value: +Inf: infinity and NaN are not JSON numbers: kubectl refuses the document`,
    ]);
    const json = kunion("normalize", "-o", "json", join(dir, "inf.yaml"));
    expect(json.stdout).toBe("[]\n");
    expect(json.stdout).not.toContain("null");
  });

  it("a number past float64's range is the string go-yaml makes of it: kept, never null", () => {
    const dir = folder({ "big.yaml": deployment("minReadySeconds: 1e400") });
    const { code, stdout } = kunion("validate", dir);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'big.yaml:5:3: error schema: spec.minReadySeconds: Invalid value: "string": spec.minReadySeconds in body must be of type integer: "string"',
    );
    const [normalized] = JSON.parse(kunion("normalize", "-o", "json", join(dir, "big.yaml")).stdout);
    expect(normalized.object.spec.minReadySeconds).toBe("1e400");
    // In a string field it is just that string, as kubectl sends it.
    const data = folder({ "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: 1e400}\n" });
    expect(kunion("validate", data)).toMatchObject({ code: 0, stdout: "" });
  });
});

describe("a %YAML directive", () => {
  it("is refused saying why: kubectl splits the file at the --- line that ends the directives", () => {
    const dir = folder({ "dir2.yaml": "%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n" });
    const { code, stdout } = kunion("validate", dir);
    expect(code).toBe(1);
    expect(stdout).toContain("dir2.yaml:1:1: error parse: Invalid document: directive cut from its document: ");
    expect(stdout).not.toContain("Missing directives-end indicator line");
  });
});

describe("a stream of JSON values, one object per line (NDJSON)", () => {
  const json = (name: string, data: object) =>
    JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data });

  it("is read as kubectl reads it, each object a document of its own: one invalid ConfigMap, one finding on its line", () => {
    const dir = folder({ "maps.json": `${json("a", { x: "1" })}\n${json("b", { y: 2 })}\n` });
    const { code, stdout } = kunion("validate", "--summary", dir);
    expect(code).toBe(1);
    expect(stdout.trimEnd().split("\n")).toEqual([
      `${join(dir, "maps.json")}:2:71: error schema: data.y: Invalid value: "integer": data.y in body must be of type string: "integer"`,
      "1 file(s), 2 object(s): 1 error(s), 0 warning(s), 0 notice(s)",
    ]);
  });

  it("normalize prints the stream back with only the edited object changed, still JSON", () => {
    const strategy = { type: "Recreate", rollingUpdate: { maxSurge: 1 } };
    const recreate = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: { strategy, template: { spec: { containers: [{ name: "c", image: "i" }] } } },
    };
    const dir = folder({
      "live.yaml": deployment("strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}"),
      "s.json": `${json("a", {})}\n${JSON.stringify(recreate)}\n\n${json("c", {})}\n`,
    });
    const { code, stdout, stderr } = kunion("normalize", "--old", join(dir, "live.yaml"), join(dir, "s.json"));
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect([lines[0], ...lines.slice(2)]).toEqual([json("a", {}), "", json("c", {}), ""]);
    expect(JSON.parse(lines[1] as string)).toEqual({
      ...recreate,
      spec: { ...recreate.spec, strategy: { type: "Recreate" } },
    });
    const column = JSON.stringify(recreate).indexOf('"rollingUpdate"') + 1;
    expect(stderr).toBe(`${join(dir, "s.json")}:2:${column}: cleared spec.strategy.rollingUpdate\n`);
  });
});

describe("what a folder holds besides files", () => {
  it("skips a FIFO found in a folder with a notice (one named on the command line is read, as - is)", () => {
    const dir = folder({ "ok.yaml": configMap("ok").toString() });
    mkdirSync(join(dir, "sub"));
    const fifo = join(dir, "sub/f.yaml");
    execFileSync("mkfifo", [fifo]);
    // Were the FIFO read, the read would wait for a writer: this one comes after 2 seconds and writes nothing.
    const writer = spawn("sh", ["-c", 'sleep 2; : > "$0"', fifo], { stdio: "ignore" });
    try {
      const { code, stdout, stderr } = kunion("validate", dir);
      expect(code).toBe(0);
      expect(stdout).toBe(
        `${fifo}:1:1: notice skipped: 1 file(s) found in folders are not regular files (a FIFO, a socket, a device, a link to a folder): not read\n`,
      );
      expect(stderr).toContain("1 file(s), 1 object(s)");
    } finally {
      writer.kill();
    }
  });

  it("a broken link found in a folder is an error on it; the other files are checked, and the exit code is 2", () => {
    const dir = folder({ "a.yaml": deployment("strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}") });
    symlinkSync(join(dir, "gone.yaml"), join(dir, "zz.yaml"));
    const { code, stdout, stderr } = kunion("validate", dir);
    expect(code).toBe(2);
    expect(stdout).toContain(
      `${join(dir, "zz.yaml")}:1:1: error input: Invalid document: is a broken symbolic link: not read`,
    );
    expect(stdout).toMatch(/a\.yaml:5:\d+: error union: spec\.strategy\.rollingUpdate: Forbidden/);
    expect(stderr).not.toContain("cannot be read");
    // --fail-on never leaves findings alone, not an input that could not be read.
    expect(kunion("validate", "--fail-on", "never", dir).code).toBe(2);
    // A link to a file is read as the file; one named on the command line that leads nowhere is an input error.
    symlinkSync(join(dir, "a.yaml"), join(dir, "b.yaml"));
    expect(kunion("validate", join(dir, "b.yaml")).stdout).toMatch(/b\.yaml:5:\d+: error union/);
    expect(kunion("validate", join(dir, "zz.yaml"))).toMatchObject({
      code: 2,
      stderr: `kunion: ${join(dir, "zz.yaml")}: no such file or folder\n`,
    });
  });
});
