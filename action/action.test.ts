import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type ActionRun, type Files, repository, runAction, runBundle, write } from "./testing.js";

// The Action's source run the way the runner runs it (testing.ts); one case
// runs the committed bundle as a process too, for what bundling can break.
const root = join(import.meta.dirname, "..");
const example = (p: string) => readFileSync(join(root, "examples", p), "utf8");
// The corpus sits beside the checkout (shared/), in CI as here.
const corpusCrd = join(
  root,
  "../shared/corpus/kubebuilder-book/crds/multiversion-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml",
);

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

describe("the committed bundle", () => {
  // What a run shows the runner, but for the timing in its log line.
  const seen = (run: ActionRun) => ({
    status: run.status,
    log: run.stdout.replace(/ in \d+ ms:/, " in N ms:"),
    summary: run.summary,
    outputs: run.outputs,
    findings: readFileSync(run.outputs["findings-file"] as string, "utf8"),
  });

  it("runs as a process and shows the runner what the source shows", async () => {
    const repo = repository(
      { "deploy/web.yaml": example("deployment/live.yaml") },
      { "deploy/web.yaml": example("deployment/recreate.yaml") },
    );
    const bundled = seen(await runBundle(repo));
    expect(bundled.status).toBe(1);
    expect(bundled.log).toMatch(/^::error title=kunion union,file=deploy\/web.yaml,line=15,col=5::/m);
    expect(bundled.outputs).toMatchObject({ errors: "1", warnings: "0" });
    expect(bundled).toEqual(seen(await runAction(repo)));
  });
});

describe("the Action on a pull request", () => {
  it("validates a changed manifest with its base revision as the old object, and fails the step", async () => {
    const repo = repository(
      { "deploy/web.yaml": example("deployment/live.yaml") },
      { "deploy/web.yaml": example("deployment/recreate.yaml") },
    );
    const { stdout, status, summary, outputs, dir } = { ...(await runAction(repo)), dir: repo.dir };
    expect(status).toBe(1);
    expect(stdout).toContain(
      "::error title=kunion union,file=deploy/web.yaml,line=15,col=5::spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
    expect(stdout).toMatch(/^::error::kunion found 1 error\(s\)/m);
    expect(summary).toContain("1 file(s) checked: **1 error(s)**");
    expect(summary).toContain("\n### deploy/web.yaml\n");
    expect(summary).toContain(
      `- 🔴 error [line 15](https://github.com/acme/demo/blob/${repo.headSha}/deploy/web.yaml#L15) \`union\`: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy \\\`type\\\` is 'Recreate'`,
    );
    expect(outputs).toMatchObject({ errors: "1", warnings: "0", "sarif-file": "kunion.sarif" });
    const sarif = JSON.parse(readFileSync(join(repo.ws, "kunion.sarif"), "utf8"));
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe("deploy/web.yaml");
    const json = JSON.parse(readFileSync(outputs["findings-file"] as string, "utf8"));
    expect(outputs["findings-file"]).toBe(join(dir, "kunion-findings.json"));
    expect(json.summary.errors).toBe(1);
    expect(json.findings[0].rule).toBe("union");
  });

  it("runs the evolution rules on a CRD whose new revision removes the stored version", async () => {
    const crd = example("crds/backups.kunion.dev.yaml");
    const repo = repository(
      { "crds/backups.yaml": crd },
      { "crds/backups.yaml": crd.replace("- name: v1", "- name: v2") },
    );
    const { stdout, status, outputs } = await runAction(repo);
    expect(status).toBe(1);
    expect(stdout).toMatch(/^::error title=kunion stored-version-removed,file=crds\/backups.yaml,line=\d+.*::/m);
    expect(Number(outputs.errors)).toBeGreaterThanOrEqual(1);
  });

  it.skipIf(!existsSync(corpusCrd))(
    "round-trips a changed conversion and reports one that does not compile",
    async () => {
      const conversion = example("conversions/cronjob.yaml");
      const crd = readFileSync(corpusCrd, "utf8");
      const good = repository({ "config/crd/cronjobs.yaml": crd }, { "conversions/cronjob.yaml": conversion });
      const ok = await runAction(good);
      expect(ok.stdout).not.toMatch(/^::error/m);
      expect(ok.status).toBe(0);
      const bad = repository(
        { "config/crd/cronjobs.yaml": crd, "conversions/cronjob.yaml": conversion },
        { "conversions/cronjob.yaml": conversion.replace(".join(' '))", ".join(' ')))") },
      );
      const run = await runAction(bad);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/^::error title=kunion conversion[^,]*,file=conversions\/cronjob.yaml,line=\d+/m);
    },
  );

  it("reports a file with broken YAML on its line, and still checks the other files", async () => {
    const repo = repository(
      {},
      {
        "deploy/broken.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: [a, b\n",
        "deploy/web.yaml": example("deployment/recreate.yaml"),
      },
    );
    const { stdout, status, outputs } = await runAction(repo);
    expect(status).toBe(1);
    expect(stdout).toMatch(/^::error title=kunion [\w-]+,file=deploy\/broken.yaml,line=\d+/m);
    expect(stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml,line=15/m);
    expect(outputs.errors).toBe("2");
  });

  it("finishes fast and says so when no Kubernetes file changed", async () => {
    const repo = repository(
      { "deploy/web.yaml": example("deployment/live.yaml") },
      { "README.md": "# demo\n\nMore.\n" },
    );
    const { stdout, status, summary, outputs, ms } = await runAction(repo);
    expect(status).toBe(0);
    expect(stdout).toContain("::notice::no Kubernetes files changed");
    expect(summary).toContain("no Kubernetes files changed");
    expect(outputs).toMatchObject({ errors: "0", warnings: "0" });
    expect(ms).toBeLessThan(3000);
  });

  it("counts as checked the files it checked: not templates, links or files it could not read", async () => {
    const repo = repository(
      { "real/web.yaml": example("deployment/live.yaml") },
      {
        "chart/templates/dep.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\n",
        "chart/templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n",
        "deploy/link.yaml": { link: "../real/web.yaml" },
        "deploy/web.yaml": example("deployment/recreate.yaml"),
      },
    );
    const { stdout, summary } = await runAction(repo);
    expect(stdout).toContain("2 changed file(s) hold templates");
    expect(stdout).toMatch(/file=deploy\/link.yaml.*link/);
    expect(stdout).toMatch(/kunion: 1 file\(s\) checked/);
    expect(summary).toContain("1 file(s) checked: **1 error(s)**");
  });

  it("reads the checkout's files as git lists them: tracked, and untracked ones git does not ignore", async () => {
    const repo = repository(
      { ".gitignore": "ignored/\n", "deploy/web.yaml": example("deployment/live.yaml") },
      { "deploy/backup.yaml": example("manifests/backups-invalid.yaml") },
    );
    const recreate = example("deployment/recreate.yaml");
    write(repo.ws, {
      "config/crd/backups.yaml": example("crds/backups.kunion.dev.yaml"),
      "untracked.yaml": recreate,
      "ignored/web.yaml": recreate,
    });
    // The untracked CRD gives the changed custom resource its schema.
    const changed = await runAction(repo);
    expect(changed.stdout).toMatch(/^::error title=kunion cel,file=deploy\/backup.yaml,line=8/m);
    expect(changed.stdout).not.toContain("schema-missing");
    // changed-only: false checks every such file naming an apiVersion.
    const all = await runAction(repo, { "changed-only": "false" });
    expect(all.stdout).toMatch(/^::error title=kunion union,file=untracked.yaml,line=15/m);
    expect(all.stdout).not.toContain("file=ignored/");
  });

  it("checks 5,000 changed files, fast", async () => {
    const head: Files = {};
    for (let i = 0; i < 5000; i++) {
      head[`cm/cm-${i}.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}}\ndata: {k: v}\n`;
    }
    head["cm/cm-4999.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n";
    const repo = repository({}, head);
    const { stdout, status, outputs, ms } = await runAction(repo);
    expect(status).toBe(1);
    expect(stdout).toMatch(/5000 file\(s\) checked/);
    expect(outputs).toMatchObject({ errors: "1" });
    expect(stdout).toContain("file=cm/cm-4999.yaml,line=3");
    expect(ms).toBeLessThan(15_000);
  });

  it("keeps within GitHub's annotation limits: 10 errors (the failure one of them), 10 warnings, then one notice for the rest", async () => {
    // Each document: the Recreate error, and a bad label value that the configuration makes a warning.
    const recreate = example("deployment/recreate.yaml").replace(
      "namespace: default",
      "namespace: default\n  labels: {tier: -x-}",
    );
    const docs = Array.from({ length: 20 }, (_, i) => recreate.replace("name: web", `name: web-${i}`)).join("---\n");
    const repo = repository({ ".kunion.yaml": "rules: {schema: warning}\n" }, { "deploy/many.yaml": docs });
    const { stdout, status, summary, outputs } = await runAction(repo);
    expect(status).toBe(1);
    expect(outputs).toMatchObject({ errors: "20", warnings: "20" });
    expect(count(stdout, /^::error title=/gm)).toBe(9);
    expect(count(stdout, /^::error/gm)).toBe(10);
    expect(count(stdout, /^::warning title=/gm)).toBe(10);
    expect(stdout).toContain("::notice::21 more finding(s) are listed in the job summary.");
    expect(count(summary, /^- (🔴 error|🟠 warning) /gm)).toBe(40);
  });

  it("shows a broken configuration's errors within the annotation limits, and still writes the summary and outputs", async () => {
    const config = Array.from({ length: 15 }, (_, i) => `bogus${i}: 1`).join("\n");
    const repo = repository(
      { ".kunion.yaml": `${config}\n` },
      { "deploy/web.yaml": example("deployment/recreate.yaml") },
    );
    const { stdout, status, summary, outputs } = await runAction(repo);
    expect(status).toBe(1);
    expect(count(stdout, /^::error title=kunion config,file=\.kunion\.yaml,line=\d+/gm)).toBe(9);
    expect(stdout).toMatch(/^::error::the configuration \.kunion\.yaml is not valid: /m);
    expect(count(stdout, /^::error/gm)).toBe(10);
    expect(stdout).toContain("::notice::6 more finding(s) are listed in the job summary.");
    expect(summary).toContain("0 file(s) checked: **15 error(s)**");
    expect(summary).toContain("> failed: the configuration .kunion.yaml is not valid: nothing is checked");
    expect(count(summary, /^- 🔴 error \[line \d+\]\([^)]*\/\.kunion\.yaml#L\d+\) `config`/gm)).toBe(15);
    expect(outputs).toMatchObject({ errors: "15", warnings: "0", "sarif-file": "kunion.sarif" });
    const json = JSON.parse(readFileSync(outputs["findings-file"] as string, "utf8"));
    expect(json.findings).toHaveLength(15);
    expect(existsSync(join(repo.ws, "kunion.sarif"))).toBe(true);
  });

  it("fails with a clear message when the base commit cannot be fetched", async () => {
    const repo = repository({}, { "deploy/web.yaml": example("deployment/recreate.yaml") });
    const missing = "0123456789abcdef0123456789abcdef01234567";
    const { stdout, stderr, status, summary, outputs } = await runAction(repo, {}, { baseSha: missing });
    expect(status).toBe(1);
    expect(stdout).toMatch(
      new RegExp(`^::error::kunion: the base commit ${missing} cannot be found or fetched \\(git fetch`, "m"),
    );
    expect(stdout).toContain("the pull-request files API failed");
    expect(stdout).toContain("fetch-depth: 0");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(summary).toContain("failed: the base commit");
    expect(outputs).toMatchObject({ errors: "0" });
  });

  /** A pull-request files API on this machine, paged as GitHub pages it (a Link to the next page, at most 30 pages). */
  async function filesApi(rows: readonly { filename: string; status: string }[]) {
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      const url = new URL(req.url ?? "/", "http://x");
      const page = Number(url.searchParams.get("page") ?? "1");
      const perPage = Number(url.searchParams.get("per_page"));
      const { port } = server.address() as { port: number };
      if (page * perPage < rows.length) {
        res.setHeader(
          "link",
          `<http://127.0.0.1:${port}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"`,
        );
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(rows.slice((page - 1) * perPage, page * perPage)));
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const { port } = server.address() as { port: number };
    return { asked, url: `http://127.0.0.1:${port}`, close: () => server.close() };
  }
  const missing = "0123456789abcdef0123456789abcdef01234567";

  it("falls back on the pull-request files API (read only, every page) when the base cannot be fetched", async () => {
    const repo = repository({}, { "deploy/web.yaml": example("deployment/recreate.yaml") });
    // 250 files over three pages, as GitHub lists them: the changed manifest is on the last one.
    const rows = Array.from({ length: 250 }, (_, i) => ({ filename: `docs/page-${i}.md`, status: "modified" }));
    rows[120] = { filename: "gone.yaml", status: "removed" };
    rows[249] = { filename: "deploy/web.yaml", status: "modified" };
    const api = await filesApi(rows);
    try {
      const run = await runAction(repo, { token: "t0k" }, { baseSha: missing, apiUrl: api.url });
      expect(api.asked).toEqual([
        "GET /repos/acme/demo/pulls/7/files?per_page=100 token t0k",
        "GET /repos/acme/demo/pulls/7/files?per_page=100&page=2 token t0k",
        "GET /repos/acme/demo/pulls/7/files?per_page=100&page=3 token t0k",
      ]);
      expect(run.stdout).toContain("::notice::the base commit");
      expect(run.stdout).toContain("the changed files come from the pull-request files API");
      expect(run.stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml,line=15/m);
      expect(run.status).toBe(1);
    } finally {
      api.close();
    }
  });

  it("says the files API left files out only when it has a page past the 30th", async () => {
    const repo = repository({}, { "deploy/web.yaml": example("deployment/recreate.yaml") });
    const rows = (n: number) => [
      { filename: "deploy/web.yaml", status: "modified" },
      ...Array.from({ length: n - 1 }, (_, i) => ({ filename: `docs/page-${i}.md`, status: "modified" })),
    ];
    const truncation = "the pull-request files API lists at most 3,000 files: later files are not checked";
    for (const [n, truncated] of [
      [2999, false],
      [3000, false],
      [3001, true],
    ] as const) {
      const api = await filesApi(rows(n));
      try {
        const run = await runAction(repo, {}, { baseSha: missing, apiUrl: api.url });
        expect(api.asked).toHaveLength(30);
        expect(run.stdout.includes(truncation), `${n} files`).toBe(truncated);
        expect(run.stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml,line=15/m);
      } finally {
        api.close();
      }
    }
  });

  it("asks the files API through the runner's proxy (http_proxy), as the committed bundle runs", async () => {
    const repo = repository({}, { "deploy/web.yaml": example("deployment/recreate.yaml") });
    const rows = [{ filename: "deploy/web.yaml", status: "modified" }];
    // A forward proxy: requests in absolute form, or a CONNECT tunnel whose socket this server then reads.
    const proxied: string[] = [];
    const proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.headers.host}${new URL(req.url ?? "/", "http://x").pathname}`);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(rows));
    });
    proxy.on("connect", (req, socket, head) => {
      proxied.push(`CONNECT ${req.url}`);
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) socket.unshift(head);
      proxy.emit("connection", socket);
    });
    await new Promise<void>((ok) => proxy.listen(0, "127.0.0.1", ok));
    const { port } = proxy.address() as { port: number };
    try {
      const missing = "0123456789abcdef0123456789abcdef01234567";
      // .test never resolves: the API is reached through the proxy or not at all.
      const run = await runBundle(
        repo,
        { token: "t0k" },
        { baseSha: missing, apiUrl: "http://api.github.test", proxy: `http://127.0.0.1:${port}` },
      );
      expect(proxied).toContain("GET api.github.test/repos/acme/demo/pulls/7/files");
      expect(run.stdout).toContain("the changed files come from the pull-request files API");
      expect(run.stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml,line=15/m);
    } finally {
      proxy.close();
    }
  });

  it("reports a binary .yaml, a 50 MB YAML file and an unreadable one, and checks the rest", async () => {
    const repo = repository(
      {},
      {
        "deploy/blob.yaml": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x0a, 0x1a, 0x0a]),
        "deploy/web.yaml": example("deployment/recreate.yaml"),
      },
    );
    const binary = await runAction(repo);
    expect(binary.status).toBe(1);
    expect(binary.stdout).toMatch(/^::error title=kunion \w+,file=deploy\/blob.yaml,line=1,col=1::.*binary/m);
    expect(binary.stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml/m);

    // Not committed: with changed-only false every file the globs match is checked.
    writeFileSync(join(repo.ws, "deploy/huge.yaml"), Buffer.alloc(50 * 1024 * 1024, "a: 1\n"));
    write(repo.ws, { "deploy/secret.yaml": "apiVersion: v1\n" });
    execFileSync("chmod", ["000", join(repo.ws, "deploy/secret.yaml")]);
    const all = await runAction(repo, { manifests: "deploy/*.yaml", "changed-only": "false", "fail-on": "never" });
    expect(all.status).toBe(0);
    expect(all.stdout).toMatch(
      /^::error title=kunion input,file=deploy\/huge.yaml,line=1,col=1::.*50\.0 MiB, over the 10 MiB/m,
    );
    if (process.getuid?.() !== 0) {
      expect(all.stdout).toMatch(/^::error title=kunion input,file=deploy\/secret.yaml.*cannot be read: EACCES/m);
    }
    expect(all.stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml/m);
  });

  it("names a bad input instead of crashing", async () => {
    const repo = repository({}, {});
    const { stdout, status } = await runAction(repo, { "fail-on": "sometimes" });
    expect(status).toBe(1);
    expect(stdout).toContain('::error::kunion: fail-on must be error, warning, notice or never, not "sometimes"');
  });
});

describe("the workflow docs/action.md gives to copy", () => {
  const docs = readFileSync(join(root, "docs/action.md"), "utf8");
  const block = /```yaml\n(# \.github\/workflows\/kunion\.yml[\s\S]*?)```/.exec(docs)?.[1] ?? "";
  const workflow = parse(block) as { jobs: Record<string, { steps: { uses?: string; if?: string; with?: object }[] }> };
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);

  it("skips the SARIF upload on a fork's pull request, whose read-only token GitHub refuses", () => {
    const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif"));
    expect(upload?.if).toContain("github.event.pull_request.head.repo.full_name == github.repository");
    expect(upload?.if).toContain("github.event_name != 'pull_request'");
  });

  it("checks a pull request's manifests with the inputs it sets (crds adds to discovery)", async () => {
    const step = steps.find((s) => s.uses?.startsWith("kunion/kunion"));
    const inputs = Object.fromEntries(Object.entries(step?.with ?? {}).map(([k, v]) => [k, String(v)]));
    expect(inputs).toHaveProperty("crds");
    const repo = repository(
      {
        "deploy/web.yaml": example("deployment/live.yaml"),
        "config/crd/backups.yaml": example("crds/backups.kunion.dev.yaml"),
      },
      { "deploy/web.yaml": example("deployment/recreate.yaml") },
    );
    const run = await runAction(repo, inputs);
    expect(run.stdout).toMatch(/kunion: 1 file\(s\) checked/);
    expect(run.stdout).toMatch(/^::error title=kunion union,file=deploy\/web.yaml,line=15/m);
    expect(run.status).toBe(1);
  });

  it("asks for the permissions the Action uses", () => {
    const perms = (workflow as unknown as { permissions: Record<string, string> }).permissions;
    expect(perms).toMatchObject({ contents: "read", "pull-requests": "write", "security-events": "write" });
  });

  it("is the workflow the README gives, word for word", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(/```yaml\n(# \.github\/workflows\/kunion\.yml[\s\S]*?)```/.exec(readme)?.[1]).toBe(block);
  });

  it("checks out the history the base commit needs", () => {
    expect(steps.find((s) => s.uses?.startsWith("actions/checkout"))?.with).toMatchObject({ "fetch-depth": 0 });
  });
});
