import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../src/cli/main.js";
import { actionFindings, brief, commit, type ReportedFinding, repository, runAction, write } from "./testing.js";

// Each case is a throwaway repository with a base and a head commit, run
// through the Action's source as the runner runs it and through `kunion
// check --base`, which must report the same findings.

/** `kunion check` run in the head of a repository, in-process, with JSON output. */
function kunionCheck(ws: string, ...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const cwd = process.cwd();
  process.chdir(ws);
  try {
    const code = run(["check", "-o", "json", ...argv], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      color: false,
    });
    const findings = stdout.trim() ? (JSON.parse(stdout).findings as ReportedFinding[]) : [];
    return { code, findings, stderr };
  } finally {
    process.chdir(cwd);
  }
}

const root = join(import.meta.dirname, "..");
const crd = readFileSync(join(root, "examples/crds/backups.kunion.dev.yaml"), "utf8");
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
const annotations = (stdout: string) => stdout.split("\n").filter((l) => /^::(error|warning|notice)/.test(l));

async function bothFaces(
  base: Record<string, string>,
  head: Record<string, string>,
  inputs = {},
  remove: string[] = [],
) {
  const repo = repository(base, head, remove);
  const action = await runAction(repo, inputs);
  const cli = kunionCheck(repo.ws, "--base", repo.baseSha);
  expect(brief(actionFindings(action.outputs))).toEqual(brief(cli.findings));
  return { repo, action, cli };
}

describe("findings on the lines a pull request changed", () => {
  it("puts a tightened bound on its keyword's line, not on the property", async () => {
    const head = crd.replace(
      "                retention:\n                  type: integer",
      "                retention:\n                  type: integer\n                  minimum: 1",
    );
    const { action, cli } = await bothFaces({ "crds/backups.yaml": crd }, { "crds/backups.yaml": head });
    const line = lineOf(head, "minimum: 1");
    expect(cli.findings.find((f) => f.rule === "bounds-tightened")?.line).toBe(line);
    expect(action.stdout).toMatch(
      new RegExp(
        `^::error title=kunion bounds-tightened,file=crds/backups.yaml,line=${line},col=\\d+::v1 spec.retention: minimum added: 1`,
        "m",
      ),
    );
  });

  it("puts a removed field on the hunk that removed it, with its old line", async () => {
    const start = crd.indexOf("                schedule:");
    const end = crd.indexOf("                retention:");
    const head = crd.slice(0, start) + crd.slice(end);
    const { action, cli } = await bothFaces({ "crds/backups.yaml": crd }, { "crds/backups.yaml": head });
    const removed = cli.findings.find((f) => f.rule === "field-removed");
    // The lines after the removal moved up: the hunk sits after the line before it.
    expect(removed).toMatchObject({
      line: lineOf(crd, "                schedule:") - 1,
      oldLine: lineOf(crd, "                schedule:"),
    });
    expect(action.stdout).toMatch(
      new RegExp(`^::error title=kunion field-removed,file=crds/backups.yaml,line=${removed?.line},`, "m"),
    );
  });

  it("annotates the author's own mistakes first; what the diff does not show goes to the summary", async () => {
    // Fifteen broken objects the pull request did not touch, then one it adds.
    const old = Array.from({ length: 15 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_${i}}\n`);
    const base = { "deploy/cms.yaml": old.join("---\n") };
    const added = readFileSync(join(root, "examples/deployment/recreate.yaml"), "utf8");
    const head = { "deploy/cms.yaml": [...old, added].join("---\n") };
    const { action, cli } = await bothFaces(base, head);
    expect(cli.findings.filter((f) => f.severity === "error")).toHaveLength(16);
    const shown = annotations(action.stdout).filter((l) => l.includes("title=kunion"));
    // The new object's error, then the one broken object the diff shows beside it (GitHub shows three lines around a hunk).
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatch(/^::error title=kunion union,file=deploy\/cms.yaml,line=7\d,.*rollingUpdate/);
    expect(shown[1]).toMatch(/^::error title=kunion schema,file=deploy\/cms.yaml,line=59,.*Bad_14/);
    expect(action.stdout).toContain("::notice::14 more finding(s) are listed in the job summary.");
    expect(action.summary).toContain("Bad\\_3");

    // Asked to, the Action annotates them too, within the ten error annotations a step shows.
    const all = await runAction(repository(base, head), { "annotate-outside-diff": "true" });
    const errors = annotations(all.stdout).filter((l) => l.startsWith("::error title=kunion"));
    expect(errors).toHaveLength(9);
    expect(errors[0]).toContain("rollingUpdate");
    expect(all.stdout).toContain("::notice::7 more finding(s) are listed in the job summary.");
  });

  it("groups objects of unknown kinds into one notice, and keeps every kind of annotation within its ten", async () => {
    const head: Record<string, string> = {};
    for (let i = 0; i < 14; i++) head[`data/d${i}.yaml`] = `apiVersion: example.com/v1\nkind: Thing${i}\nvalue: ${i}\n`;
    for (let i = 0; i < 12; i++) {
      head[`deploy/w${i}.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: w${i}}\ndata: {a: 1}\n`;
    }
    const { action, cli } = await bothFaces({}, head, { "fail-on": "never" });
    expect(cli.findings.filter((f) => f.rule === "schema-missing")).toHaveLength(14);
    const notices = annotations(action.stdout).filter((l) => l.startsWith("::notice"));
    expect(notices.filter((l) => l.includes("schema-missing"))).toHaveLength(1);
    expect(notices.find((l) => l.includes("schema-missing"))).toContain("14 object(s) in 14 file(s)");
    expect(notices.length).toBeLessThanOrEqual(10);
    expect(annotations(action.stdout).filter((l) => l.startsWith("::error title="))).toHaveLength(10);
    expect(notices.at(-1)).toMatch(/^::notice::\d+ more finding\(s\)/);
  });
});

describe("files a pull request deletes", () => {
  it("reports a deleted CRD that was served, and whose objects are stored", async () => {
    const { action, cli } = await bothFaces({ "crds/backups.yaml": crd }, {}, {}, ["crds/backups.yaml"]);
    expect(brief(cli.findings)).toEqual([
      `crds/backups.yaml:${lineOf(crd, "apiVersion:")} error crd-removed: the CustomResourceDefinition backups.kunion.dev is deleted while it serves v1 and objects may be stored as v1: the API server deletes every object of it with the CRD, and clients of its API fail`,
    ]);
    expect(action.status).toBe(1);
    expect(cli.code).toBe(1);
  });

  it("reports a renamed CRD file that drops its stored version, whether or not git pairs the files", async () => {
    const head = crd.replace("- name: v1", "- name: v2");
    const { action, cli } = await bothFaces({ "crds/backups.yaml": crd }, { "config/crd/backups.yaml": head }, {}, [
      "crds/backups.yaml",
    ]);
    const stored = cli.findings.filter((f) => f.rule === "stored-version-removed");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ file: "config/crd/backups.yaml", line: lineOf(head, "- name: v2") });
    expect(action.status).toBe(1);
  });

  const corpusCrd = join(
    root,
    "../shared/corpus/kubebuilder-book/crds/multiversion-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml",
  );
  it.skipIf(!existsSync(corpusCrd))("reports a deleted Conversion declaration its CRD still needs", async () => {
    const conversion = readFileSync(join(root, "examples/conversions/cronjob.yaml"), "utf8");
    const base = {
      "config/crd/cronjobs.yaml": readFileSync(corpusCrd, "utf8"),
      "conversions/cronjob.yaml": conversion,
    };
    const { cli } = await bothFaces(base, {}, {}, ["conversions/cronjob.yaml"]);
    expect(brief(cli.findings)).toEqual([
      expect.stringMatching(
        /^conversions\/cronjob.yaml:\d+ error conversion: the Conversion declaration for batch.tutorial.kubebuilder.io\/CronJob is deleted, but the CustomResourceDefinition cronjobs.batch.tutorial.kubebuilder.io \(config\/crd\/cronjobs.yaml\) still serves v1, v2/,
      ),
    ]);
    // Still declared elsewhere: nothing is lost.
    const moved = await bothFaces(
      base,
      { "conversions/v2/cronjob.yaml": conversion.replace("hub: v2", "hub: v2 ") },
      {},
      ["conversions/cronjob.yaml"],
    );
    expect(moved.cli.findings.filter((f) => f.severity === "error")).toEqual([]);
  });
});

describe("intended breaks accepted durably", () => {
  const dropped = crd.replace("- name: v1", "- name: v2");
  const waiver = (extra: string) =>
    `waivers:\n  - rule: stored-version-removed\n    crd: backups.kunion.dev\n    path: "v1"\n    reason: v1 was never released\n${extra}`;

  it("a waiver by rule, CRD and path turns the finding into a notice that says why", async () => {
    const base = { "crds/backups.yaml": crd, ".kunion.yaml": waiver("    expires: 2999-12-31\n") };
    const { action, cli } = await bothFaces(base, { "crds/backups.yaml": dropped });
    expect(cli.findings.map((f) => [f.rule, f.severity])).toEqual([["stored-version-removed", "notice"]]);
    expect(cli.findings[0]?.message).toMatch(/\(waived: v1 was never released\)$/);
    expect([action.status, cli.code]).toEqual([0, 0]);
  });

  it("a waiver past its date no longer applies, and a notice on its line says so", async () => {
    const config = waiver("    expires: 2000-01-31\n");
    const base = { "crds/backups.yaml": crd, ".kunion.yaml": config };
    const { action, cli } = await bothFaces(base, { "crds/backups.yaml": dropped });
    expect(cli.findings.map((f) => [f.file, f.line, f.rule, f.severity])).toEqual([
      [".kunion.yaml", lineOf(config, "expires"), "waiver", "notice"],
      ["crds/backups.yaml", lineOf(dropped, "- name: v2"), "stored-version-removed", "error"],
    ]);
    expect(cli.findings[0]?.message).toContain("the waiver expired on 2000-01-31");
    expect([action.status, cli.code]).toEqual([1, 1]);
  });

  it("a misspelled rule id or an unknown key in a waiver is an error on its line", async () => {
    const config = "waivers:\n  - rule: stored-version-remove\n    reason: x\n  - rule: field-removed\n    reasn: y\n";
    const repo = repository({ "crds/backups.yaml": crd, ".kunion.yaml": config }, { "crds/backups.yaml": dropped });
    const action = await runAction(repo);
    const cli = kunionCheck(repo.ws, "--base", repo.baseSha);
    expect(action.status).toBe(1);
    expect(action.stdout).toMatch(
      /^::error title=kunion config,file=.kunion.yaml,line=2,col=\d+::waivers\[0\]\.rule: Unsupported value: "stored-version-remove": supported values: "stored-version-removed"$/m,
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('.kunion.yaml:5:5: error config: unknown field "waivers[1].reasn"');
    expect(cli.stderr).toContain(".kunion.yaml:2:");
  });

  it("a misspelled rule id under rules: or an unknown release is an error on its line, in both", async () => {
    const config = "rules:\n  unoin: off\nkubernetesVersion: '1.37'\n";
    const repo = repository({ "crds/backups.yaml": crd, ".kunion.yaml": config }, { "crds/backups.yaml": dropped });
    const action = await runAction(repo);
    const cli = kunionCheck(repo.ws, "--base", repo.baseSha);
    expect(action.status).toBe(1);
    expect(action.stdout).toMatch(/^::error title=kunion config,file=.kunion.yaml,line=2,col=\d+::rules\.unoin: /m);
    expect(action.stdout).toMatch(
      /^::error title=kunion config,file=.kunion.yaml,line=3,col=\d+::kubernetesVersion: /m,
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/^\.kunion\.yaml:2:\d+: error config: rules\.unoin: /m);
    expect(cli.stderr).toMatch(/^\.kunion\.yaml:3:\d+: error config: kubernetesVersion: /m);
  });

  it("a baseline that is not in the checkout fails the step, and the summary and outputs say so", async () => {
    const repo = repository({ "crds/backups.yaml": crd }, { "crds/backups.yaml": dropped });
    const { status, stdout, summary, outputs } = await runAction(repo, { baseline: "kunion-baseline.json" });
    expect(status).toBe(1);
    expect(stdout).toMatch(/^::error::kunion: the baseline kunion-baseline.json is not in the checkout$/m);
    expect(summary).toContain("> failed: the baseline kunion-baseline.json is not in the checkout");
    expect(outputs).toMatchObject({ errors: "0", warnings: "0" });
  });

  it("a baseline accepts the findings it recorded: only new ones fail", async () => {
    const repo = repository({ "crds/backups.yaml": crd }, { "crds/backups.yaml": dropped });
    const written = kunionCheck(repo.ws, "--base", repo.baseSha, "--write-baseline", "kunion-baseline.json");
    expect(written.code).toBe(0);
    const { findings } = JSON.parse(readFileSync(join(repo.ws, "kunion-baseline.json"), "utf8"));
    expect(findings.map((f: { rule: string }) => f.rule)).toEqual(["stored-version-removed"]);
    // The baseline is a file of the checkout: the next commit adds it, and a new break.
    write(repo.ws, { "deploy/web.yaml": readFileSync(join(root, "examples/deployment/recreate.yaml"), "utf8") });
    const cli = kunionCheck(repo.ws, "--base", repo.baseSha, "--baseline", "kunion-baseline.json");
    expect(cli.findings.map((f) => [f.rule, f.severity])).toEqual([
      ["stored-version-removed", "notice"],
      ["union", "error"],
    ]);
    commit(repo.ws, "later");
    const action = await runAction({ ...repo, headSha: "HEAD" }, { baseline: "kunion-baseline.json" });
    expect(brief(actionFindings(action.outputs))).toEqual(brief(cli.findings));
    expect(action.status).toBe(1);
    expect(action.stdout).toMatch(/^::error title=kunion union/m);
    expect(action.stdout).not.toMatch(/^::error title=kunion stored-version-removed/m);
  });
});

describe("fixes as suggestions", () => {
  const live = readFileSync(join(root, "examples/deployment/live.yaml"), "utf8");
  const recreate = readFileSync(join(root, "examples/deployment/recreate.yaml"), "utf8");

  /** A local API that records what is posted, answering reviews with `status`. */
  async function api(status: number) {
    const posted: { url: string; auth: string; body: Record<string, unknown> }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        posted.push({
          url: `${req.method} ${req.url}`,
          auth: req.headers.authorization ?? "",
          body: JSON.parse(body || "{}"),
        });
        res.statusCode = status;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(status < 300 ? { id: 1 } : { message: "Resource not accessible by integration" }));
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    return {
      posted,
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      close: () => server.close(),
    };
  }

  it("posts one review whose suggestion removes the stale union member", async () => {
    const repo = repository({ "deploy/web.yaml": live }, { "deploy/web.yaml": recreate });
    const server = await api(200);
    try {
      const run = await runAction(repo, { token: "t0k" }, { apiUrl: server.url });
      expect(server.posted.map((p) => [p.url, p.auth])).toEqual([
        ["POST /repos/acme/demo/pulls/7/reviews", "token t0k"],
      ]);
      const review = server.posted[0]?.body as {
        commit_id: string;
        event: string;
        comments: Record<string, unknown>[];
      };
      expect(review).toMatchObject({ commit_id: repo.headSha, event: "COMMENT" });
      const start = lineOf(recreate, "rollingUpdate:");
      expect(review.comments).toEqual([
        {
          path: "deploy/web.yaml",
          side: "RIGHT",
          start_side: "RIGHT",
          start_line: start,
          line: start + 2,
          body: expect.stringMatching(/clears `spec\.strategy\.rollingUpdate`[\s\S]*\n```suggestion\n```$/),
        },
      ]);
      expect(run.summary).toContain("### Suggested fixes (normalization, policy kep)");
      expect(run.summary).toContain(
        "```diff\n-    rollingUpdate:\n-      maxSurge: 25%\n-      maxUnavailable: 25%\n```",
      );
      expect(run.stdout).not.toContain("not posted as a review");
    } finally {
      server.close();
    }
  });

  it("on a fork's pull request posts nothing and says so once; the summary shows the fix", async () => {
    const repo = repository({ "deploy/web.yaml": live }, { "deploy/web.yaml": recreate });
    const server = await api(200);
    try {
      const run = await runAction(repo, { token: "t0k" }, { apiUrl: server.url, headRepository: "someone/demo" });
      expect(server.posted).toEqual([]);
      expect(annotations(run.stdout).filter((l) => l.includes("not posted as a review"))).toEqual([
        "::notice::1 suggested fix(es) are not posted as a review (a fork's pull request gets a read-only token): see the job summary",
      ]);
      expect(run.summary).toContain("-    rollingUpdate:");
    } finally {
      server.close();
    }
  });

  it("with a read-only token, one notice names the permission", async () => {
    const repo = repository({ "deploy/web.yaml": live }, { "deploy/web.yaml": recreate });
    const server = await api(403);
    try {
      const run = await runAction(repo, { token: "t0k", policy: "smd" }, { apiUrl: server.url });
      expect(server.posted).toHaveLength(1);
      expect(run.stdout).toMatch(
        /^::notice::1 suggested fix\(es\) are not posted as a review \(the token cannot write reviews \(HTTP 403\): give the job pull-requests: write\)/m,
      );
      expect(run.summary).toContain("### Suggested fixes (normalization, policy smd)");
      expect(run.status).toBe(1);
    } finally {
      server.close();
    }
  });
});
