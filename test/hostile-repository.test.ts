import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Files, repository, runAction } from "../action/testing.js";
import { run } from "../src/cli/main.js";

// A pull request is the attacker here: what it adds must not make kunion read
// outside the checkout, print what it read there, or run anything. Each case
// runs through the Action (its source, in this process) and through `kunion check`.

const root = join(import.meta.dirname, "..");
const recreate = readFileSync(join(root, "examples/deployment/recreate.yaml"), "utf8");
const live = readFileSync(join(root, "examples/deployment/live.yaml"), "utf8");

/** A file outside every checkout, with a secret kunion must never print. */
function secretFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "kunion-secret-"));
  const path = join(dir, "credentials.yaml");
  writeFileSync(path, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {token: SECRET-0123456789}\n");
  return path;
}

/** `kunion check --base <base>` in the head of a repository. */
function check(ws: string, ...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const cwd = process.cwd();
  process.chdir(ws);
  try {
    const code = run(["check", ...argv], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      color: false,
    });
    return { code, out: stdout + stderr };
  } finally {
    process.chdir(cwd);
  }
}

async function bothFaces(base: Files, head: Files, inputs: Record<string, string> = {}) {
  const repo = repository(base, head);
  const action = await runAction(repo, inputs);
  const cli = check(repo.ws, "--base", repo.baseSha);
  return { repo, action: { ...action, out: action.stdout + action.stderr + action.summary }, cli };
}

describe("a hostile pull request", () => {
  it("a .kunion.yaml linked to a secret file is not followed, and nothing of the file is printed", async () => {
    const secret = secretFile();
    const { action, cli } = await bothFaces({}, { ".kunion.yaml": { link: secret }, "web.yaml": recreate });
    expect(action.status).toBe(1);
    expect(action.out).toContain("file=.kunion.yaml,line=1,col=1::Invalid document: is a symbolic link: not followed");
    expect(action.out).not.toContain("SECRET");
    expect(cli.code).toBe(2);
    expect(cli.out).toContain(".kunion.yaml:1:1: error input: Invalid document: is a symbolic link: not followed");
    expect(cli.out).not.toContain("SECRET");
  });

  it("a .kunion.yaml that is not a configuration is named, never quoted", async () => {
    const passwd = "root:x:0:0:root:/root:/bin/bash\nSECRET-0123456789:x:1:1::/:/bin/false\n";
    const { action, cli } = await bothFaces({}, { ".kunion.yaml": passwd, "web.yaml": recreate });
    expect(action.status).toBe(1);
    expect(cli.code).toBe(2);
    for (const out of [action.out, cli.out]) {
      expect(out).toMatch(/Invalid value: "<a string of \d+ characters>": must be object/);
      expect(out).not.toMatch(/SECRET|root:x/);
    }
  });

  it("a base ref that git would read as an option is refused before git runs", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "kunion-marker-")), "ran");
    const repo = repository({ "web.yaml": live }, { "web.yaml": recreate });
    const action = await runAction(repo, { "base-ref": `--upload-pack=touch ${marker}` });
    expect(action.status).toBe(1);
    expect(action.stdout).toContain("base-ref must be a ref or sha, not an option");
    const target = join(repo.dir, "truncated.txt");
    writeFileSync(target, "keep me");
    const cli = check(repo.ws, `--base=--output=${target}`);
    expect(cli.code).toBe(2);
    expect(cli.out).toContain('--base: not a revision: "--output=');
    expect(readFileSync(target, "utf8")).toBe("keep me");
    expect(existsSync(marker)).toBe(false);
  });

  it("globs and linked folders that lead out of the checkout read nothing there", async () => {
    const secret = secretFile();
    const outside = join(secret, "..");
    const config = `crds: ["../**/*.yaml", "${outside}/*.yaml"]\nmanifests: ["linked/*.yaml"]\n`;
    const { action, cli } = await bothFaces(
      { "web.yaml": live },
      { ".kunion.yaml": config, linked: { link: outside }, "web.yaml": recreate, "leak.yaml": { link: secret } },
    );
    for (const out of [action.out, cli.out]) {
      expect(out).not.toContain("SECRET");
      expect(out).toContain("a glob must stay inside the checkout: not used");
      expect(out).toMatch(/leak\.yaml.*is a symbolic link: not followed/);
      // The real change is still found.
      expect(out).toContain("spec.strategy.rollingUpdate: Forbidden");
    }
    expect(action.status).toBe(1);
    expect(cli.code).toBe(1);
  });

  it("kunion check runs none of the repository's fsmonitor, hooks or clean filters", () => {
    const marker = join(mkdtempSync(join(tmpdir(), "kunion-marker-")), "ran");
    const repo = repository({ "web.yaml": live, ".gitattributes": "*.yaml filter=evil diff=evil\n" }, {});
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.ws });
    git("config", "core.fsmonitor", `touch ${marker}; false`);
    git("config", "filter.evil.clean", `touch ${marker}; cat`);
    git("config", "diff.evil.textconv", `touch ${marker}; cat`);
    git("config", "core.pager", `touch ${marker}; cat`);
    writeFileSync(join(repo.ws, "web.yaml"), recreate);
    const cli = check(repo.ws, "--base", "HEAD");
    expect(cli.code).toBe(1);
    expect(cli.out).toContain("web.yaml:15:5: error union: spec.strategy.rollingUpdate: Forbidden");
    expect(existsSync(marker)).toBe(false);
  });

  it("an anchor that refers to itself is one finding on its line, and the rest of the pull request is checked", async () => {
    const loop = "apiVersion: v1\nkind: ConfigMap\ndata: &a [*a]\n";
    const { action, cli } = await bothFaces({ "web.yaml": live }, { "web.yaml": recreate, "loop.yaml": loop });
    for (const out of [action.out, cli.out]) {
      expect(out).toContain("anchor 'a' value contains itself");
      expect(out).toContain("spec.strategy.rollingUpdate: Forbidden");
    }
    expect(action.out).toMatch(/^::error title=kunion parse,file=loop.yaml,line=3/m);
    expect(cli.out).toContain("loop.yaml:3:11: error parse: Invalid document: anchor 'a' value contains itself");
    expect(action.status).toBe(1);
    expect(cli.code).toBe(1);
  });

  it("file names with a tab or a newline are checked, not skipped", async () => {
    const names = ["tab\there.yaml", "new\nline.yaml"];
    const base = Object.fromEntries(names.map((n) => [n, live]));
    const head = Object.fromEntries(names.map((n) => [n, recreate]));
    const { action, cli } = await bothFaces(base, head);
    expect(cli.code).toBe(1);
    expect(cli.out.match(/spec\.strategy\.rollingUpdate: Forbidden/g)).toHaveLength(2);
    expect(action.status).toBe(1);
    expect(action.out).toMatch(/2 file\(s\) checked/);
  });

  it("a baseline linked to a secret file, or outside the checkout, is refused and nothing of it is printed", async () => {
    const secret = secretFile();
    const linked = await bothFaces(
      {},
      {
        ".kunion.yaml": "baseline: kunion-baseline.json\n",
        "kunion-baseline.json": { link: secret },
        "web.yaml": recreate,
      },
    );
    expect(linked.action.status).toBe(1);
    expect(linked.action.out).toContain(
      "::error::kunion: the baseline kunion-baseline.json is a symbolic link: not followed",
    );
    expect(linked.cli.code).toBe(2);
    expect(linked.cli.out).toContain("kunion: baseline kunion-baseline.json: is a symbolic link: not followed");
    const outside = await bothFaces({}, { "web.yaml": recreate }, { baseline: secret });
    expect(outside.action.status).toBe(1);
    expect(outside.action.out).toContain(`the baseline ${secret} is outside the checkout: not read`);
    for (const out of [linked.action.out, linked.cli.out, outside.action.out]) expect(out).not.toContain("SECRET");
  });

  it("a waiver's reason is data: it cannot start a workflow command or break the summary", async () => {
    const config = 'waivers:\n  - rule: union\n    reason: "ok\\n::error file=x::forged <img src=x>"\n';
    const { action, cli } = await bothFaces({ "web.yaml": live }, { "web.yaml": recreate, ".kunion.yaml": config });
    expect(cli.code).toBe(0);
    expect(action.status).toBe(0);
    expect(action.stdout).not.toMatch(/^::error file=x/m);
    expect(action.summary).not.toContain("<img");
  });
});
