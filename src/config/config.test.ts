import { describe, expect, it } from "vitest";
import { finding } from "../findings/index.js";
import { applySeverities, readConfig } from "./index.js";

describe(".kunion.yaml", () => {
  it("reads a valid configuration", () => {
    const text =
      "rules:\n  description-changed: notice\n  schema-missing: off\ncrds: [config/crd/*.yaml]\npolicy: smd\nstrict: false\nfailOn: warning\n";
    expect(readConfig(text, ".kunion.yaml")).toEqual({
      config: {
        rules: { "description-changed": "notice", "schema-missing": "off" },
        crds: ["config/crd/*.yaml"],
        policy: "smd",
        strict: false,
        failOn: "warning",
      },
      findings: [],
    });
  });

  it("names every unknown key and bad value with its line", () => {
    const text = "rules:\n  union: fatal\nrulez: {}\npolicy: ssa\nstrict: sometimes\n";
    const messages = readConfig(text, ".kunion.yaml").findings.map((f) => `${f.line}:${f.column} ${f.message}`);
    expect(messages).toEqual([
      '3:1 unknown field "rulez"',
      '2:3 rules.union: Unsupported value: "fatal": supported values: "error", "warning", "notice", "off"',
      '4:1 policy: Unsupported value: "ssa": supported values: "kep", "smd"',
      '5:1 strict: Invalid value: "sometimes": must be boolean',
    ]);
  });

  it("refuses broken YAML and several documents, and reads an empty file as no configuration", () => {
    expect(readConfig("rules: [", "c.yaml").findings[0]?.type).toBe("ParseError");
    expect(readConfig("a: 1\n---\nb: 2\n", "c.yaml").findings[0]?.message).toContain("one document");
    expect(readConfig("", "c.yaml")).toEqual({ config: {}, findings: [] });
    expect(readConfig("__proto__: {}\n", "c.yaml").findings[0]?.message).toBe('unknown field "__proto__"');
  });

  it("with the known rule ids and releases, names an unknown one with its line", () => {
    const known = { rules: ["union", "enum-restricted", "enum-extended"], releases: ["1.35", "1.36"] };
    const text = "rules:\n  union: warning\n  unoin: off\n  enum-restrictd: notice\nkubernetesVersion: 1.37\n";
    const messages = readConfig(text, ".kunion.yaml", known).findings.map((f) => `${f.line}:${f.column} ${f.message}`);
    expect(messages).toEqual([
      '3:3 rules.unoin: Unsupported value: "unoin"',
      '4:3 rules.enum-restrictd: Unsupported value: "enum-restrictd": supported values: "enum-restricted", "enum-extended"',
      '5:1 kubernetesVersion: Unsupported value: 1.37: supported values: "1.35", "1.36"',
    ]);
    // Quoted or not, a known release reads; without the lists nothing but the schema is checked.
    for (const version of ["1.36", '"1.35"']) {
      expect(readConfig(`rules: {union: off}\nkubernetesVersion: ${version}\n`, "c.yaml", known).findings).toEqual([]);
    }
    expect(readConfig(text, "c.yaml").findings).toEqual([]);
  });

  it("applies severities per rule and drops rules set to off", () => {
    const f = (rule: string) => finding({ type: "FieldValueInvalid", path: ["x"], rule });
    const out = applySeverities([f("union"), f("schema-missing"), f("cel")], {
      union: "warning",
      "schema-missing": "off",
    });
    expect(out.map((x) => [x.rule, x.severity])).toEqual([
      ["union", "warning"],
      ["cel", "error"],
    ]);
  });

  it("never prints a value whole: a file that is not a configuration is described, not echoed", () => {
    const passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";
    const credentials = "https://someone:ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com\n";
    for (const text of [
      passwd,
      credentials,
      "policy: {token: ghp_0123456789abcdefghij}\n",
      "ghp_0123456789abcdefghijklmnopqrstuvwxyz: 1\n",
    ]) {
      const messages = readConfig(text, ".kunion.yaml")
        .findings.map((f) => f.message)
        .join("\n");
      expect(messages).not.toMatch(/root:x|daemon|ghp_|someone/);
      expect(messages).not.toBe("");
    }
    expect(readConfig(passwd, ".kunion.yaml").findings[0]?.message).toMatch(/<a string of \d+ characters>/);
  });
});
