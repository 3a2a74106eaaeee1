import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Finding, fingerprints } from "../index.js";
import { accept, baselineText, readBaseline, waiverProblems } from "./waivers.js";

const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n";
const at = (field: string, rule = "union"): Finding => ({
  type: "FieldValueForbidden",
  rule,
  severity: "error",
  field,
  path: [],
  detail: "d",
  message: `${field}: Forbidden`,
  file: "deploy/web.yaml",
  line: 3,
  document: 0,
});
const files = [{ path: "deploy/web.yaml", text: deployment }];
const run = (waivers: object[], findings: Finding[], today = "2026-06-01") =>
  accept(findings, { config: { waivers }, files, today }).map((f) => `${f.field} ${f.severity}`);

describe("waivers", () => {
  it("match by rule, kind and field-path glob (`*` within a segment, `**` across)", () => {
    const findings = [at("spec.strategy.rollingUpdate"), at("spec.template.spec.containers[0].image", "schema")];
    expect(run([{ rule: "union", kind: "Deployment", path: "spec.strategy.*", reason: "r" }], findings)).toEqual([
      "spec.strategy.rollingUpdate notice",
      "spec.template.spec.containers[0].image error",
    ]);
    expect(run([{ kind: "Deployment", path: "spec.**", reason: "r" }], findings)).toEqual([
      "spec.strategy.rollingUpdate notice",
      "spec.template.spec.containers[0].image notice",
    ]);
    expect(
      run(
        [
          { path: "spec.*", reason: "r" },
          { kind: "Service", reason: "r" },
        ],
        findings,
      ),
    ).toEqual(["spec.strategy.rollingUpdate error", "spec.template.spec.containers[0].image error"]);
  });

  it("stop applying the day after they expire", () => {
    const waiver = { rule: "union", reason: "until the migration", expires: "2026-06-01" };
    expect(run([waiver], [at("spec.x")], "2026-06-01")).toEqual(["spec.x notice"]);
    const expired = accept([at("spec.x")], { config: { waivers: [waiver] }, files, today: "2026-06-02" });
    expect(expired.map((f) => [f.rule, f.severity])).toEqual([
      ["union", "error"],
      ["waiver", "notice"],
    ]);
    expect(expired[1]?.message).toContain("the waiver expired on 2026-06-01");
  });

  it("are checked: known rule ids, a reason, a real date, something to match", () => {
    const text = "waivers:\n  - rule: unoin\n    reason: x\n  - reason: ''\n    expires: 2026-13-40\n";
    const problems = waiverProblems(
      {
        waivers: [
          { rule: "unoin", reason: "x" },
          { reason: "", expires: "2026-13-40" },
        ],
      },
      text,
      ".kunion.yaml",
      ["union", "schema"],
    );
    expect(problems.map((f) => `${f.line} ${f.message}`)).toEqual([
      '2 waivers[0].rule: Unsupported value: "unoin"',
      "4 waivers[1].rule: Required value: a waiver names a rule id, a CRD, a kind or a path",
      "4 waivers[1].reason: Required value: say why the findings are accepted",
      '5 waivers[1].expires: Invalid value: "2026-13-40": must be a date, YYYY-MM-DD',
    ]);
  });

  it("take an expiry date only when the calendar has that day", () => {
    const problemLines = (dates: string[]) => {
      const text = `waivers:\n${dates.map((d) => `  - rule: union\n    reason: x\n    expires: ${d}\n`).join("")}`;
      const waivers = dates.map((expires) => ({ rule: "union", reason: "x", expires }));
      return waiverProblems({ waivers }, text, ".kunion.yaml", ["union"]).map((f) => `${f.line} ${f.message}`);
    };
    expect(problemLines(["2026-02-30", "2026-04-31", "2026-02-29", "2026-13-01", "2028-02-29", "2026-12-31"])).toEqual([
      '4 waivers[0].expires: Invalid value: "2026-02-30": must be a date, YYYY-MM-DD',
      '7 waivers[1].expires: Invalid value: "2026-04-31": must be a date, YYYY-MM-DD',
      '10 waivers[2].expires: Invalid value: "2026-02-29": must be a date, YYYY-MM-DD',
      '13 waivers[3].expires: Invalid value: "2026-13-01": must be a date, YYYY-MM-DD',
    ]);
    // Every day there is passes.
    fc.assert(
      fc.property(fc.date({ min: new Date("1970-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }), (d) => {
        expect(problemLines([d.toISOString().slice(0, 10)])).toEqual([]);
      }),
    );
  });
});

describe("a baseline", () => {
  it("accepts exactly the findings it recorded, and counts the ones that are gone", () => {
    const recorded = [at("spec.a"), at("spec.b")];
    const read = readBaseline(baselineText(recorded), "b.json");
    if ("problem" in read) throw new Error(read.problem.message);
    expect(read.fingerprints).toEqual(new Set(fingerprints(recorded)));
    const now = [{ ...at("spec.a"), line: 40 }, at("spec.c")];
    const out = accept(now, { config: {}, files, today: "2026-01-01", baseline: read.fingerprints });
    expect(out.map((f) => `${f.field} ${f.severity}`)).toEqual(["spec.a notice", "spec.c error", " notice"]);
    expect(out[2]?.message).toMatch(/^1 finding\(s\) of the baseline are gone/);
    expect(readBaseline("{}", "b.json")).toMatchObject({ problem: { file: "b.json", rule: "config" } });
  });
});
