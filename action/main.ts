/**
 * The GitHub Action: inputs → changed files → the core's checkChanges →
 * annotations, job summary, SARIF and findings files, outputs. All I/O is
 * here and in inputs.ts, git.ts, changes.ts and report.ts; the checks are
 * the core's, the same as `kunion check`.
 */
import { appendFileSync, existsSync, globSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import {
  applySeverities,
  checkChanges,
  type Finding,
  failsAt,
  type KunionConfig,
  readConfig,
  summarize,
  type TextFile,
} from "../src/index.js";
import { collect, readFile } from "./changes.js";
import { trackedFiles } from "./git.js";
import { getInputs, type Inputs, readContext } from "./inputs.js";
import { annotate, summaryText, writeReports } from "./report.js";

function loadConfig(inputs: Inputs): { config: KunionConfig; findings: Finding[] } {
  const path = inputs.config || (existsSync(".kunion.yaml") ? ".kunion.yaml" : "");
  if (path === "") return { config: {}, findings: [] };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new Error(`config ${path} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return readConfig(text, path);
}

/** CRDs for the manifests: the `crds` input, else the configuration's, else every tracked file declaring one. */
function repositoryCrds(inputs: Inputs, config: KunionConfig, changed: ReadonlySet<string>): TextFile[] {
  const globs = inputs.crds.length > 0 ? inputs.crds : (config.crds ?? []);
  const paths =
    globs.length > 0
      ? [...new Set(globs.flatMap((g) => globSync(g)))].sort()
      : trackedFiles().filter((p) => /\.(ya?ml|json)$/i.test(p));
  return paths.flatMap((path) => {
    if (changed.has(path)) return []; // already among the changed files
    const read = readFile(path);
    if (read === undefined || "problem" in read) return [];
    return globs.length > 0 || read.text.includes("CustomResourceDefinition") ? [{ path, text: read.text }] : [];
  });
}

export async function main(): Promise<void> {
  try {
    const inputs = getInputs();
    const ctx = readContext();
    process.chdir(ctx.workspace);
    const { config, findings: configFindings } = loadConfig(inputs);
    const configErrors = configFindings.filter((f) => f.severity === "error");
    if (configErrors.length > 0) {
      for (const f of configErrors) core.error(f.message, { title: "kunion config", file: f.file, startLine: f.line });
      core.setFailed(`the configuration ${configErrors[0]?.file} is not valid: ${configErrors[0]?.message}`);
      return;
    }
    const started = Date.now();
    const collected = await collect(inputs, config, ctx);
    const { changed, problems, notes } = collected;
    let found: Finding[] = [];
    if (changed.length > 0) {
      const strict = inputs.strict ?? config.strict ?? true;
      found = checkChanges(changed, {
        severities: config.rules,
        crds: repositoryCrds(inputs, config, new Set(changed.map((c) => c.path))),
        goTypes: [...new Set((config.goTypes ?? []).flatMap((g) => globSync(g)))].flatMap((path) => {
          const read = readFile(path);
          return read && "text" in read ? [{ path, text: read.text }] : [];
        }),
        unknownFields: strict ? "error" : "warning",
      });
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
