/**
 * The GitHub Action: inputs → files → core → annotations, summary, outputs.
 * This first cut checks the union rules of every manifest the `manifests`
 * globs match; changed-file detection, evolution checks and SARIF come with
 * the Action's own issue.
 */
import { globSync, readFileSync } from "node:fs";
import * as core from "@actions/core";
import {
  compareFindings,
  type Finding,
  failsAt,
  loadWorkspace,
  type Severity,
  summarize,
  type TextFile,
  validateObjects,
} from "../src/index.js";

interface Inputs {
  manifests: string[];
  crds: string[];
  goTypes: string[];
  failOn: Severity | "never";
  annotations: boolean;
  summary: boolean;
}

export function getInputs(): Inputs {
  const failOn = core.getInput("fail-on") || "error";
  if (!["error", "warning", "notice", "never"].includes(failOn)) {
    throw new Error(`fail-on must be error, warning, notice or never, not "${failOn}"`);
  }
  return {
    manifests: core.getMultilineInput("manifests"),
    crds: core.getMultilineInput("crds"),
    goTypes: core.getMultilineInput("go-types"),
    failOn: failOn as Inputs["failOn"],
    annotations: core.getInput("annotations") !== "false",
    summary: core.getInput("summary") !== "false",
  };
}

function read(patterns: readonly string[]): TextFile[] {
  const paths = [...new Set(patterns.flatMap((p) => globSync(p)))].sort();
  return paths.map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

// GitHub shows at most 10 error and 10 warning annotations per step.
const annotationBudget: Record<Severity, number> = { error: 10, warning: 10, notice: 10 };

export function annotate(findings: readonly Finding[]): number {
  const used: Record<Severity, number> = { error: 0, warning: 0, notice: 0 };
  let skipped = 0;
  for (const f of [...findings].sort((a, b) => compareFindings(a, b))) {
    if (used[f.severity] >= annotationBudget[f.severity]) {
      skipped++;
      continue;
    }
    used[f.severity]++;
    const props = { title: `kunion ${f.rule}`, file: f.file, startLine: f.line, startColumn: f.column };
    if (f.severity === "error") core.error(f.message, props);
    else if (f.severity === "warning") core.warning(f.message, props);
    else core.notice(f.message, props);
  }
  if (skipped > 0) core.notice(`${skipped} more finding(s) are listed in the job summary.`);
  return skipped;
}

// The summary is HTML; findings quote values from the manifests.
const escapeHtml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

export async function main(): Promise<void> {
  try {
    const inputs = getInputs();
    const manifests = read(inputs.manifests);
    const workspace = loadWorkspace({ inputs: manifests, crds: read(inputs.crds), goTypes: read(inputs.goTypes) });
    const findings = [...workspace.findings, ...validateObjects(workspace.objects, workspace.catalog)];
    const summary = summarize(findings, manifests.length, workspace.objects.length);
    if (inputs.annotations) annotate(findings);
    if (inputs.summary) {
      await core.summary
        .addHeading("kunion", 2)
        .addRaw(
          `${summary.files} file(s), ${summary.objects} object(s): ${summary.errors} error(s), ${summary.warnings} warning(s)`,
          true,
        )
        .addTable([
          [
            { data: "where", header: true },
            { data: "severity", header: true },
            { data: "message", header: true },
          ],
          ...[...findings]
            .sort(compareFindings)
            .map((f) => [escapeHtml(`${f.file ?? ""}:${f.line ?? 1}`), f.severity, escapeHtml(f.message)]),
        ])
        .write();
    }
    core.setOutput("errors", summary.errors);
    core.setOutput("warnings", summary.warnings);
    if (failsAt(findings, inputs.failOn)) core.setFailed(`kunion found ${summary.errors} error(s)`);
  } catch (e) {
    core.setFailed((e as Error).message);
  }
}

await main();
