import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import Ajv04 from "ajv-draft-04";
import { describe, expect, it } from "vitest";
import { evolutionRules } from "../evolution/index.js";
import { type Finding, finding, forbidden, invalid, parseError, required } from "../findings/index.js";
import { fingerprintKey, fingerprints, formatSarif, messageRules, pathToUri, ruleDocsOf, toSarif } from "./index.js";

const at = (f: Finding, file: string, line?: number, column?: number): Finding => ({
  ...f,
  file,
  ...(line !== undefined ? { line } : {}),
  ...(column !== undefined ? { column } : {}),
});

// The SARIF 2.1.0 schema as OASIS published it (draft-04), shipped by @microsoft/jest-sarif.
// Formats are not checked by Ajv (the schema's `uri` formats): checkShape parses the URIs. Its
// `language` pattern has a stray `]` that only a non-Unicode RegExp accepts.
const schemaFile = createRequire(import.meta.url).resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
// A CommonJS module: its class is `default` (which is also what it exports as a whole).
const validate = new Ajv04.default({
  allErrors: true,
  strict: false,
  validateFormats: false,
  unicodeRegExp: false,
}).compile(JSON.parse(readFileSync(schemaFile, "utf8")));

/** Schema check plus what a schema cannot say: ruleIndex points at its rule, URIs resolve. */
function checkShape(text: string) {
  const log = JSON.parse(text);
  expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  const [run] = log.runs;
  const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const r of run.results) {
    expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    for (const l of r.locations ?? [])
      expect(new URL(l.physicalLocation.artifactLocation.uri, "file:///w/").protocol).toBe("file:");
  }
  return log;
}

const union = at(
  forbidden(["spec", "strategy", "rollingUpdate"], "may not be specified when strategy `type` is 'Recreate'", {
    rule: "union",
  }),
  "examples/deployment/recreate.yaml",
  15,
  5,
);
const missing = at(
  finding({ type: "SchemaMissing", path: ["kind"], detail: "x", rule: "schema-missing", severity: "notice" }),
  "b.yaml",
  2,
  1,
);
const warning = at(required(["spec", "x"], "", { rule: "schema", severity: "warning" }), "a.yaml", 4, 3);

describe("SARIF 2.1.0", () => {
  it("writes one run with kunion as the driver and one rule per rule id found", () => {
    const log = checkShape(formatSarif([union, missing, { ...union, line: 20 }, warning], { version: "0.1.0" }));
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const { driver } = log.runs[0].tool;
    expect(driver).toMatchObject({ name: "kunion", version: "0.1.0" });
    expect(driver.informationUri).toMatch(/^https:\/\//);
    expect(driver.rules.map((r: { id: string }) => r.id)).toEqual(["schema", "schema-missing", "union"]);
    expect(driver.rules[2]).toMatchObject({
      id: "union",
      name: "Union",
      shortDescription: { text: "An object breaks a union (one-of) rule of its schema." },
      helpUri: "https://github.com/kunion/kunion/blob/main/docs/messages.md#union",
    });
  });

  it("gives each result its rule, level, message, location and Kubernetes type and field", () => {
    const log = checkShape(formatSarif([union, missing, warning]));
    const results = log.runs[0].results;
    expect(results.map((r: { level: string }) => r.level)).toEqual(["warning", "note", "error"]);
    expect(results[2]).toEqual({
      ruleId: "union",
      ruleIndex: 2,
      level: "error",
      message: { text: union.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "examples/deployment/recreate.yaml", uriBaseId: "%SRCROOT%" },
            region: { startLine: 15, startColumn: 5 },
          },
        },
      ],
      partialFingerprints: { [fingerprintKey]: expect.stringMatching(/^[0-9a-f]{16}:1$/) },
      properties: { type: "FieldValueForbidden", field: "spec.strategy.rollingUpdate" },
    });
  });

  it("describes rule ids it has no description for, and results without a file or line", () => {
    const log = checkShape(
      formatSarif([
        { ...parseError("no file"), rule: "mystery" },
        at(parseError("no line"), "c.yaml"),
        { ...union, document: 1 },
      ]),
    );
    const { rules } = log.runs[0].tool.driver;
    expect(rules.find((r: { id: string }) => r.id === "mystery").shortDescription.text).toMatch(/mystery/);
    const [noFile, noLine, doc] = [...log.runs[0].results].sort((a, b) => a.message.text.localeCompare(b.message.text));
    expect(noFile.locations).toBeUndefined();
    expect(noLine.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "c.yaml", uriBaseId: "%SRCROOT%" },
    });
    expect(doc.properties).toEqual({ type: "FieldValueForbidden", field: "spec.strategy.rollingUpdate", document: 1 });
  });

  it("keeps hostile messages and file names as data", () => {
    const text = 'a "quoted" \\ message\n\u0000\u2028</script>%0A::error::x';
    const file = "odd dir/#1?/100%.yaml";
    const hostile = at(invalid(["metadata", "name"], text, "bad"), file, 1, 1);
    const log = checkShape(formatSarif([hostile]));
    const [r] = log.runs[0].results;
    expect(r.message.text).toBe(hostile.message);
    const uri = r.locations[0].physicalLocation.artifactLocation.uri;
    expect(uri).toBe("odd%20dir/%231%3F/100%25.yaml");
    expect(decodeURIComponent(uri)).toBe(file);
  });

  it("turns absolute paths into file URIs", () => {
    expect(pathToUri("/work/a b/x.yaml")).toBe("file:///work/a%20b/x.yaml");
    expect(pathToUri("C:\\repo\\x.yaml")).toBe("file:///C:/repo/x.yaml");
    expect(pathToUri("deploy/x.yaml")).toBe("deploy/x.yaml");
    const log = checkShape(formatSarif([at(parseError("x"), "/abs/x.yaml", 1, 1)]));
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: "file:///abs/x.yaml",
    });
  });

  it("is a valid log with no findings", () => {
    const log = checkShape(formatSarif([]));
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].tool.driver.rules).toEqual([]);
    expect(toSarif([]).runs[0].tool.driver.name).toBe("kunion");
    // The schema is the real one: it refuses what SARIF 2.1.0 does not define.
    expect(validate({ ...log, version: "2.0.0" })).toBe(false);
    const badLevel = toSarif([union]);
    (badLevel.runs[0].results[0] as { level: string }).level = "fatal";
    expect(validate(badLevel)).toBe(false);
  });

  it("keeps a finding's fingerprint when lines are added above it, and tells same-looking findings apart", () => {
    const before = toSarif([union, warning]).runs[0].results;
    const after = toSarif([{ ...union, line: 40, column: 9 }, warning]).runs[0].results;
    const print = (rs: typeof before, rule: string) => rs.find((r) => r.ruleId === rule)?.partialFingerprints;
    expect(print(after, "union")).toEqual(print(before, "union"));
    // Another message, field, file or rule: another fingerprint.
    const others = [
      { ...union, message: `${union.message}!` },
      { ...union, field: "spec.strategy" },
      { ...union, file: "other.yaml" },
      { ...union, rule: "schema" },
    ];
    const all = fingerprints([union, ...others]);
    expect(new Set(all).size).toBe(5);
    // The same mistake in two objects of a file: two results, numbered in file order.
    const twice = fingerprints([{ ...union, line: 30 }, union]);
    expect(twice[1]?.replace(/:\d+$/, "")).toBe(twice[0]?.replace(/:\d+$/, ""));
    expect([twice[1]?.slice(-2), twice[0]?.slice(-2)]).toEqual([":1", ":2"]);
    // A line number quoted in a message does not count either.
    const dup = (line: number) =>
      fingerprints([at(parseError(`mapping key "a" already defined at line ${line}`), "a.yaml", line + 2, 1)]);
    expect(dup(9)).toEqual(dup(3));
  });

  it("writes one result per cause: the same finding reported twice is one result", () => {
    const log = checkShape(formatSarif([union, { ...union }, { ...union, line: 16 }]));
    expect(log.runs[0].results).toHaveLength(2);
    expect(
      new Set(log.runs[0].results.map((r: { partialFingerprints: object }) => JSON.stringify(r.partialFingerprints)))
        .size,
    ).toBe(2);
  });

  it("describes every rule with a full description, help in text and Markdown, and its docs anchor", () => {
    const rules = ruleDocsOf(evolutionRules);
    const findings = rules.map((r, i) => at({ ...parseError("x"), rule: r.id }, "a.yaml", i + 1, 1));
    const log = checkShape(formatSarif(findings, { version: "9.9.9", rules }));
    const { driver } = log.runs[0].tool;
    expect(driver.version).toBe("9.9.9");
    expect(driver.rules).toHaveLength(rules.length);
    for (const d of driver.rules) {
      const doc = rules.find((r) => r.id === d.id);
      expect(d.fullDescription.text).toBe(doc?.description);
      expect(d.shortDescription.text).toMatch(/^[A-Z].*\.$/);
      expect(d.help.markdown).toContain(`**${d.id}**`);
      expect(d.help.markdown).toContain(`(${d.helpUri})`);
      expect(d.help.text).toContain(d.fullDescription.text);
      expect(d.helpUri).toMatch(new RegExp(`/docs/(messages|evolution)\\.md#${d.id}$`));
    }
    expect(driver.rules.find((d: { id: string }) => d.id === "description-changed").defaultConfiguration).toEqual({
      level: "none",
      enabled: false,
    });
  });
});

/** The rows of a docs table whose first cell carries the rule's anchor: id → [default, what]. */
function docsRows(file: string): Map<string, [string, string]> {
  const text = readFileSync(join(import.meta.dirname, "../../docs", file), "utf8");
  const rows = new Map<string, [string, string]>();
  for (const m of text.matchAll(/^\| <a id="([a-z0-9-]+)"><\/a>`\1` \| ([a-z]+) \| (.*) \|$/gm)) {
    rows.set(m[1] as string, [m[2] as string, m[3] as string]);
  }
  return rows;
}

describe("the rules' docs", () => {
  it("has a row with its own anchor for every rule, saying what the code says", () => {
    const rules = ruleDocsOf(evolutionRules);
    const rows = new Map([...docsRows("messages.md"), ...docsRows("evolution.md")]);
    expect([...rows.keys()].sort()).toEqual(rules.map((r) => r.id).sort());
    for (const r of rules) {
      expect(rows.get(r.id), r.id).toEqual([r.severity, r.description]);
      expect(r.uri.endsWith(`/${messageRules.includes(r) ? "messages" : "evolution"}.md#${r.id}`)).toBe(true);
    }
  });
});
