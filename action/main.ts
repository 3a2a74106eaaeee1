/**
 * The GitHub Action's run: inputs → changed files → the checkout's check
 * (src/checkout, the same as `kunion check`) → annotations, job summary,
 * SARIF and findings files, outputs. It talks to the runner only through
 * its protocol: the environment (INPUT_*, GITHUB_*, RUNNER_TEMP, the event
 * file) in, workflow commands on stdout, the output and step summary files
 * out (through @actions/core), so a test can run it in its own process.
 * entry.ts, the bundle's entry, calls it once.
 */
import { appendFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import { type ChangedLines, checkCheckout, loadConfig, readBaseline, readInside } from "../src/checkout/index.js";
import { type Finding, failsAt, releaseOf, type Summary, summarize } from "../src/index.js";
import { collect } from "./changes.js";
import { fixesSection, postSuggestions, suggestedFixes } from "./fixes.js";
import { getInputs, type Inputs, type RunContext, readContext } from "./inputs.js";
import { annotate, type SummaryInput, summaryText, writeReports } from "./report.js";

/** One run of the Action; a failure is the step's (process.exitCode, via core.setFailed), never a throw. */
export async function run(): Promise<void> {
  try {
    const inputs = getInputs();
    const ctx = readContext();
    ctx.workspace = realpathSync(ctx.workspace);
    const loaded = loadConfig(ctx.workspace, inputs.config || undefined);
    const { config, findings: configFindings } = loaded;
    const configErrors = configFindings.filter((f) => f.severity === "error");
    if (configErrors.length > 0) {
      // Nothing is checked; the configuration's errors are shown as findings are, within the same limits.
      const failure = `the configuration ${configErrors[0]?.file} is not valid: ${configErrors[0]?.message}`;
      publish(inputs, ctx, {
        findings: configErrors,
        summary: summarize(configErrors, 0, 0),
        notes: [`failed: the configuration ${configErrors[0]?.file} is not valid: nothing is checked`],
        noticesEmitted: 0,
        fails: true,
      });
      core.setFailed(failure);
      return;
    }
    // The configuration's release was checked, with its line, when the file was read.
    const configured = config.kubernetesVersion === undefined ? undefined : releaseOf(config.kubernetesVersion);
    const kubernetesVersion =
      inputs.kubernetesVersion ?? (configured && "release" in configured ? configured.release : undefined);
    const baselineFile = inputs.baseline || config.baseline;
    const baseline = baselineFile ? readBaselineFile(ctx.workspace, baselineFile) : undefined;
    if (baseline && "failure" in baseline) {
      // Nothing is checked; the summary and the outputs still say so.
      publish(inputs, ctx, {
        findings: [],
        summary: summarize([], 0, 0),
        notes: [`failed: ${baseline.failure}`],
        noticesEmitted: 0,
        fails: true,
      });
      core.setFailed(`kunion: ${baseline.failure}`);
      return;
    }
    const started = Date.now();
    const collected = await collect(inputs, config, ctx);
    const { changed, deleted, problems, notes } = collected;
    const checked = checkCheckout(ctx.workspace, {
      changed,
      deleted,
      problems,
      config,
      crds: inputs.crds,
      strict: inputs.strict,
      kubernetesVersion,
      acceptance: {
        configFile: loaded.file,
        configText: loaded.text,
        today: new Date().toISOString().slice(0, 10),
        baseline: baseline?.fingerprints,
        baselineFile,
      },
    });
    const { findings, lines, crds, goTypes } = checked;
    if (collected.failure === undefined && changed.length + deleted.length + problems.length === 0) {
      notes.push("no Kubernetes files changed");
    }
    const summary = summarize(findings, checked.checkedFiles, checked.objects);
    core.info(
      `kunion: ${checked.checkedFiles} file(s) checked${collected.base ? ` against ${collected.base.slice(0, 12)}` : ""} in ${Date.now() - started} ms: ${summary.errors} error(s), ${summary.warnings} warning(s), ${summary.notices} notice(s)`,
    );
    const failOn = inputs.failOn ?? config.failOn ?? "error";
    const fails = collected.failure !== undefined || failsAt(findings, failOn);
    // The changed lines, when there is a base to compare with: else every line counts as changed.
    const diffLines = collected.base && inputs.changedOnly ? lines : undefined;
    const policy = inputs.policy ?? config.policy ?? "kep";
    const fixes =
      inputs.suggestFixes && collected.base
        ? suggestedFixes(checked.changed, findings, { policy, crds, goTypes, kubernetesVersion, lines: diffLines })
        : [];
    const skipped = await postSuggestions(fixes, ctx, inputs.token, policy);
    if (skipped) notes.push(skipped);
    for (const n of notes) core.notice(n);
    publish(inputs, ctx, {
      findings,
      summary,
      notes: collected.failure ? [`failed: ${collected.failure}`, ...notes] : notes,
      noticesEmitted: notes.length,
      fails,
      lines: diffLines,
      fixes: fixesSection(fixes, policy),
    });
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

interface Outcome {
  findings: readonly Finding[];
  summary: Summary;
  /** The summary's notes (the failure first, when there is one). */
  notes: readonly string[];
  /** Notices the step emitted already: they count against the annotations' limits. */
  noticesEmitted: number;
  /** The step fails: its failure is one error annotation. */
  fails: boolean;
  /** The changed lines; undefined: every line counts as changed. */
  lines?: ChangedLines;
  fixes?: SummaryInput["fixes"];
}

/** What a run shows, whatever it found: annotations, the SARIF and findings files, the job summary, the outputs. */
function publish(inputs: Inputs, ctx: RunContext, outcome: Outcome): void {
  const { findings, summary, lines } = outcome;
  if (inputs.annotations) {
    annotate(findings, {
      lines,
      outsideDiff: inputs.annotateOutsideDiff,
      used: { error: outcome.fails ? 1 : 0, warning: 0, notice: outcome.noticesEmitted },
    });
  }
  const sarifFile = resolve(ctx.workspace, inputs.sarifFile);
  const findingsFile = join(process.env.RUNNER_TEMP || ctx.workspace, "kunion-findings.json");
  writeReports(findings, summary, sarifFile, findingsFile);
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (inputs.summary && summaryFile) {
    const text = summaryText({ findings, summary, notes: outcome.notes, ctx, lines, fixes: outcome.fixes });
    // Appended as core.summary would, without its cache of the file's path (one per process, not per run).
    appendFileSync(summaryFile, text);
  }
  core.setOutput("errors", summary.errors);
  core.setOutput("warnings", summary.warnings);
  core.setOutput("findings-file", findingsFile);
  core.setOutput("sarif-file", inputs.sarifFile);
}

/** The baseline file, read inside the workspace as every file of the checkout is. */
function readBaselineFile(root: string, file: string): { fingerprints: Set<string> } | { failure: string } {
  const read = readInside(root, file);
  if (read === undefined) return { failure: `the baseline ${file} is not in the checkout` };
  if ("problem" in read) return { failure: `the baseline ${file} ${read.problem.detail}` };
  const parsed = readBaseline(read.text, file);
  return "problem" in parsed ? { failure: `the baseline ${file} is ${parsed.problem.detail}` } : parsed;
}
