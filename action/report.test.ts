import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Finding, Severity } from "../src/index.js";
import { type Fix, fixesSection } from "./fixes.js";
import { limits, pickAnnotations, summaryBudget, summaryText } from "./report.js";

const finding = (severity: Severity, line: number, rule = "schema"): Finding => ({
  type: "FieldValueInvalid",
  rule,
  severity,
  field: "x",
  path: [],
  detail: "",
  message: `m${line}`,
  file: "a.yaml",
  line,
});

describe("which findings become annotations", () => {
  it("never passes a severity's ten (with what the step emits and the 'N more' notice), nor fifty in all", () => {
    const severity = fc.constantFrom<Severity>("error", "warning", "notice");
    const arbitrary = fc.array(fc.record({ severity, line: fc.integer({ min: 1, max: 200 }), missing: fc.boolean() }), {
      maxLength: 80,
    });
    const used = fc.record({ error: fc.integer({ min: 0, max: 1 }), notice: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(arbitrary, used, (rows, used) => {
        const findings = rows.map((r) =>
          finding(r.missing ? "notice" : r.severity, r.line, r.missing ? "schema-missing" : "schema"),
        );
        const { shown, more } = pickAnnotations(findings, { used });
        const count = (s: Severity) => shown.filter((f) => f.severity === s).length;
        expect(count("error") + used.error).toBeLessThanOrEqual(limits.error);
        expect(count("warning")).toBeLessThanOrEqual(limits.warning);
        // The "N more" notice is a notice too.
        expect(count("notice") + used.notice + (more > 0 ? 1 : 0)).toBeLessThanOrEqual(limits.notice);
        expect(shown.length + used.error + used.notice + (more > 0 ? 1 : 0)).toBeLessThanOrEqual(limits.total);
        expect(shown.filter((f) => f.rule === "schema-missing").length).toBeLessThanOrEqual(1);
        // Every finding is shown, grouped, or counted in "N more".
        const grouped = findings.filter((f) => f.rule === "schema-missing").length;
        const groupShown = shown.some((f) => f.rule === "schema-missing") ? grouped - 1 : 0;
        expect(shown.length + groupShown + more).toBe(findings.length);
      }),
    );
  });

  it("shows findings on changed lines before the others, errors first in each part", () => {
    const lines = new Map([["a.yaml", [{ oldStart: 50, oldCount: 0, newStart: 51, newCount: 2 }]]]);
    const findings = [finding("error", 48), finding("notice", 52), finding("error", 2), finding("warning", 51)];
    const { shown, more } = pickAnnotations(findings, { lines });
    expect(shown.map((f) => f.line)).toEqual([51, 52, 48]);
    expect(more).toBe(1);
    expect(pickAnnotations(findings, { lines, outsideDiff: true }).shown.map((f) => f.line)).toEqual([51, 52, 2, 48]);
  });
});

describe("the job summary", () => {
  const ctx = {
    eventName: "pull_request",
    repository: "o/r",
    serverUrl: "https://github.com",
    apiUrl: "",
    workspace: "",
    headSha: "abc",
  };
  const summary = { files: 2, objects: 0, errors: 3, warnings: 0, notices: 0 };

  it("has one section per file, the findings on changed lines first, manifest text inert", () => {
    const lines = new Map([["b.yaml", [{ oldStart: 9, oldCount: 1, newStart: 9, newCount: 1 }]]]);
    const findings = [
      { ...finding("error", 2), file: "a.yaml", message: "<img src=x> **bold** [link](http://x)" },
      { ...finding("error", 3), file: "b.yaml" },
      { ...finding("notice", 9), file: "b.yaml" },
    ];
    const text = summaryText({ findings, summary, notes: [], ctx, lines });
    const sections = text.split("\n### ").slice(1);
    expect(sections.map((s) => s.split("\n")[0])).toEqual(["b.yaml", "a.yaml"]);
    expect(sections[0]).toMatch(
      /On the lines this change touched:\n\n- 🔵 notice \[line 9\][^\n]*\n\nElsewhere in the file:\n\n- 🔴 error \[line 3\]/,
    );
    expect(text).toContain("&lt;img src=x&gt; \\*\\*bold\\*\\* \\[link\\](http://x)");
    expect(text).not.toMatch(/<table|<img/);
  });

  const manyErrors = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      ...finding("error", i + 1),
      file: `deploy/${i % 50}.yaml`,
      message: `spec.x: Invalid value: ${"y".repeat(60)}`,
    }));
  // The fix of a Deployment switched to Recreate, as suggestedFixes gives it.
  const manyFixes = (n: number) =>
    fixesSection(
      Array.from(
        { length: n },
        (_, i): Fix => ({
          file: `deploy/web-${i}.yaml`,
          startLine: 14,
          endLine: 17,
          original: ["    type: Recreate", "    rollingUpdate:", "      maxSurge: 25%", "      maxUnavailable: 25%"],
          replacement: ["    type: Recreate"],
          what: "clears `spec.strategy.rollingUpdate`",
          finding: { ...finding("error", 15, "union"), file: `deploy/web-${i}.yaml` },
        }),
      ),
      "kep",
    );
  const fixesShown = (text: string) => text.match(/^```diff$/gm)?.length ?? 0;

  it("stops before GitHub's 1 MiB and says how many findings are left out", () => {
    const findings = manyErrors(20_000);
    const text = summaryText({ findings, summary, notes: [], ctx, fixes: manyFixes(1) });
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
    const shown = text.match(/^- 🔴 error/gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(1000);
    expect(text).toContain(`\n${20_000 - shown} more finding(s) do not fit in the summary`);
    // The findings come first: the fix has no room left, and the summary says so.
    expect(text).toContain("### Suggested fixes (normalization, policy kep)");
    expect(fixesShown(text)).toBe(0);
    expect(text.trimEnd().endsWith("1 more suggested fix(es) do not fit in the summary.")).toBe(true);
  });

  it("counts the suggested fixes in the 1 MiB: those that fit after the findings, and how many are left out", () => {
    const findings = manyErrors(100);
    const text = summaryText({ findings, summary, notes: [], ctx, fixes: manyFixes(8000) });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(summaryBudget);
    expect(text.match(/^- 🔴 error/gm)?.length).toBe(100);
    expect(text).not.toContain("more finding(s) do not fit");
    const shown = fixesShown(text);
    expect(shown).toBeGreaterThan(1000);
    expect(text.trimEnd().endsWith(`\n${8000 - shown} more suggested fix(es) do not fit in the summary.`)).toBe(true);
    // What fits is whole: every diff shown is closed.
    expect(text.match(/^```$/gm)?.length).toBe(shown);
  });
});
