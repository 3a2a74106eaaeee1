/**
 * The GitHub Action: inputs → changed files → the core's checkChanges →
 * annotations, job summary, SARIF and findings files, outputs. All I/O is
 * here and in inputs.ts, git.ts, changes.ts and report.ts; the checks are
 * the core's, the same as `kunion check`.
 */
import { appendFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import { loadConfig, readGlobbed, repositoryCrds } from "../src/checkout/index.js";
import { applySeverities, checkChanges, type Finding, failsAt, releaseOf, summarize } from "../src/index.js";
import { collect } from "./changes.js";
import { getInputs, readContext } from "./inputs.js";
import { annotate, summaryText, writeReports } from "./report.js";

export async function main(): Promise<void> {
  try {
    const inputs = getInputs();
    const ctx = readContext();
    ctx.workspace = realpathSync(ctx.workspace);
    process.chdir(ctx.workspace);
    const { config, findings: configFindings } = loadConfig(ctx.workspace, inputs.config || undefined);
    const configErrors = configFindings.filter((f) => f.severity === "error");
    if (configErrors.length > 0) {
      for (const f of configErrors) core.error(f.message, { title: "kunion config", file: f.file, startLine: f.line });
      core.setFailed(`the configuration ${configErrors[0]?.file} is not valid: ${configErrors[0]?.message}`);
      return;
    }
    const configured = config.kubernetesVersion === undefined ? undefined : releaseOf(config.kubernetesVersion);
    if (configured && "error" in configured) {
      core.setFailed(`the configuration's kubernetesVersion ${configured.error}`);
      return;
    }
    const kubernetesVersion = inputs.kubernetesVersion ?? configured?.release;
    const started = Date.now();
    const collected = await collect(inputs, config, ctx);
    const { changed, problems, notes } = collected;
    let found: Finding[] = [];
    if (changed.length > 0) {
      const strict = inputs.strict ?? config.strict ?? true;
      const crdGlobs = inputs.crds.length > 0 ? inputs.crds : (config.crds ?? []);
      const crds = repositoryCrds(ctx.workspace, crdGlobs, new Set(changed.map((c) => c.path)));
      const goTypes = readGlobbed(ctx.workspace, config.goTypes ?? []);
      found = [
        ...crds.problems,
        ...goTypes.problems,
        ...checkChanges(changed, {
          severities: config.rules,
          crds: crds.files,
          goTypes: goTypes.files,
          unknownFields: strict ? "error" : "warning",
          kubernetesVersion,
        }),
      ];
    }
    const findings = applySeverities([...problems, ...found], config.rules);
    const files = changed.length + new Set(problems.map((p) => p.file)).size;
    if (collected.failure === undefined && files === 0) notes.push("no Kubernetes files changed");
    const summary = summarize(findings, files, 0);
    core.info(
      `kunion: ${files} file(s) checked${collected.base ? ` against ${collected.base.slice(0, 12)}` : ""} in ${Date.now() - started} ms: ${summary.errors} error(s), ${summary.warnings} warning(s), ${summary.notices} notice(s)`,
    );
    for (const n of notes) core.notice(n);
    if (inputs.annotations) annotate(findings, notes.length);

    const sarifFile = resolve(inputs.sarifFile);
    const findingsFile = join(process.env.RUNNER_TEMP || ctx.workspace, "kunion-findings.json");
    writeReports(findings, summary, sarifFile, findingsFile);
    if (inputs.summary && process.env.GITHUB_STEP_SUMMARY) {
      const all = collected.failure ? [`failed: ${collected.failure}`, ...notes] : notes;
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, summaryText(findings, summary, all, ctx));
    }
    core.setOutput("errors", summary.errors);
    core.setOutput("warnings", summary.warnings);
    core.setOutput("findings-file", findingsFile);
    core.setOutput("sarif-file", inputs.sarifFile);
    const failOn = inputs.failOn ?? config.failOn ?? "error";
    if (collected.failure) core.setFailed(`kunion: ${collected.failure}`);
    else if (failsAt(findings, failOn)) {
      core.setFailed(
        `kunion found ${summary.errors} error(s), ${summary.warnings} warning(s), ${summary.notices} notice(s) (fail-on: ${failOn})`,
      );
    }
  } catch (e) {
    core.setFailed(`kunion: ${(e as Error).message}`);
  }
}

await main();
