import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { type Finding, finding, forbidden, invalid, parseError, required } from "../findings/index.js";
import { formatSarif, pathToUri, ruleDescriptions, toSarif } from "./index.js";

const at = (f: Finding, file: string, line?: number, column?: number): Finding => ({
  ...f,
  file,
  ...(line !== undefined ? { line } : {}),
  ...(column !== undefined ? { column } : {}),
});

// The part of the SARIF 2.1.0 schema (docs.oasis-open.org/sarif/sarif/v2.1.0) that kunion
// writes, with the schema's own constraints: required members, enums, minimums, and no
// member the standard does not define (the standard's objects are closed, as here).
const message = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
  additionalProperties: false,
};
const sarif2_1_0 = {
  type: "object",
  required: ["version", "runs"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    version: { enum: ["2.1.0"] },
    runs: {
      type: "array",
      minItems: 1,
      maxItems: 1,
      items: {
        type: "object",
        required: ["tool"],
        additionalProperties: false,
        properties: {
          columnKind: { enum: ["utf16CodeUnits", "unicodeCodePoints"] },
          tool: {
            type: "object",
            required: ["driver"],
            additionalProperties: false,
            properties: {
              driver: {
                type: "object",
                required: ["name"],
                additionalProperties: false,
                properties: {
                  name: { const: "kunion" },
                  informationUri: { type: "string", pattern: "^https?://" },
                  version: { type: "string" },
                  rules: {
                    type: "array",
                    uniqueItems: true,
                    items: {
                      type: "object",
                      required: ["id", "shortDescription"],
                      additionalProperties: false,
                      properties: {
                        id: { type: "string", minLength: 1 },
                        name: { type: "string", pattern: "^[A-Za-z0-9]+$" },
                        shortDescription: message,
                        helpUri: { type: "string" },
                      },
                    },
                  },
                },
              },
            },
          },
          results: {
            type: "array",
            items: {
              type: "object",
              required: ["message", "ruleId", "level"],
              additionalProperties: false,
              properties: {
                ruleId: { type: "string", minLength: 1 },
                ruleIndex: { type: "integer", minimum: -1 },
                level: { enum: ["none", "note", "warning", "error"] },
                message,
                locations: {
                  type: "array",
                  minItems: 1,
                  items: {
                    type: "object",
                    additionalProperties: false,
                    properties: {
                      physicalLocation: {
                        type: "object",
                        required: ["artifactLocation"],
                        additionalProperties: false,
                        properties: {
                          artifactLocation: {
                            type: "object",
                            required: ["uri"],
                            additionalProperties: false,
                            properties: { uri: { type: "string", minLength: 1 }, uriBaseId: { type: "string" } },
                          },
                          region: {
                            type: "object",
                            required: ["startLine"],
                            additionalProperties: false,
                            properties: {
                              startLine: { type: "integer", minimum: 1 },
                              startColumn: { type: "integer", minimum: 1 },
                            },
                          },
                        },
                      },
                    },
                  },
                },
                properties: {
                  type: "object",
                  required: ["type", "field"],
                  properties: { type: { type: "string" }, field: { type: "string" }, document: { type: "integer" } },
                },
              },
            },
          },
        },
      },
    },
  },
};
const validate = new Ajv({ allErrors: true, strict: true }).compile(sarif2_1_0);

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
      expect(() => new URL(l.physicalLocation.artifactLocation.uri, "file:///w/")).not.toThrow();
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
      shortDescription: { text: ruleDescriptions.union },
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

  it("has a description for every rule id kunion reports", () => {
    for (const id of ["union", "union-declaration", "schema", "cel", "parse", "object", "schema-missing"]) {
      expect(ruleDescriptions[id], id).toMatch(/\.$/);
    }
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
  });
});
