/**
 * Every input once found slow or failing (regressions.yaml), through its
 * area with the fuzz properties (faces.ts). Entries marked `known` still
 * fail: they are listed as skipped until fixed (KUNION_FUZZ_KNOWN=1 runs them).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Finding, type JsonObject, loadConversions, parseSource, readCrd } from "../../src/index.js";
import { checksFiles, converts, diffsCrds, readsDeclaration, readsText, rendersNormalized } from "./faces.js";
import { boundMs, knownBugs } from "./harness.js";

type Text = string | Array<string | { repeat: string; times: number }>;
interface Entry {
  name: string;
  note: string;
  face: "text" | "validate" | "write" | "crd-diff" | "convert" | "declaration";
  known?: boolean;
  boundMs?: number;
  expect?: string;
  text?: Text;
  crd?: Text;
  crdFile?: string;
  object?: Text;
  old?: Text;
  before?: Text;
  after?: Text;
  to?: string;
}

const root = join(import.meta.dirname, "../..");
// Read with the yaml package, not kunion's reader: the data must not depend on the code it tests.
const entries = parse(readFileSync(join(import.meta.dirname, "regressions.yaml"), "utf8")) as Entry[];

function textOf(t: Text | undefined): string {
  if (t === undefined) return "";
  if (typeof t === "string") return t;
  return t
    .map((p) =>
      typeof p === "string"
        ? p
        : Array.from({ length: p.times }, (_, i) => p.repeat.replaceAll("{i}", String(i))).join(""),
    )
    .join("");
}

const crdOf = (e: Entry) => (e.crdFile ? readFileSync(join(root, e.crdFile), "utf8") : textOf(e.crd));
const files = (e: Entry) => ({
  inputs: [{ path: "object.yaml", text: textOf(e.object) }],
  crds: e.crd || e.crdFile ? [{ path: "crd.yaml", text: crdOf(e) }] : [],
  old: e.old ? [{ path: "old.yaml", text: textOf(e.old) }] : [],
});

const cronJobCrd = () =>
  readCrd(
    parseSource(readFileSync(join(import.meta.dirname, "cronjob-crd.yaml"), "utf8"), "crd.yaml").documents[0]
      ?.value as JsonObject,
  ).crd;

/** The declaration of examples/conversions with the CronJob CRD of this folder. */
function cronJobConversion() {
  const text = readFileSync(join(root, "examples/conversions/cronjob.yaml"), "utf8");
  const { conversions } = loadConversions([{ path: "cronjob.yaml", text }], [cronJobCrd()]);
  return conversions[0] as NonNullable<(typeof conversions)[0]>;
}

function run(e: Entry): Finding[] | string | undefined {
  const bound = e.boundMs ?? boundMs;
  switch (e.face) {
    case "text": {
      const text = textOf(e.text);
      return [
        ...readsText(text, "regression.yaml", bound),
        ...checksFiles({ inputs: [{ path: "r.yaml", text }] }, {}, bound),
      ];
    }
    case "validate":
      return checksFiles(files(e), {}, bound);
    case "write":
      rendersNormalized(files(e), bound);
      return undefined;
    case "crd-diff":
      return diffsCrds(textOf(e.before), textOf(e.after), bound);
    case "convert": {
      const { error } = converts(cronJobConversion(), JSON.parse(textOf(e.object)) as JsonObject, e.to ?? "", {
        bound,
      });
      return error;
    }
    case "declaration":
      return readsDeclaration({ path: "declaration.yaml", text: textOf(e.text) }, [cronJobCrd()], bound);
  }
}

describe("fuzz regressions: every input once found slow or failing", () => {
  it("are well formed", () => {
    for (const e of entries) {
      expect(e.name, JSON.stringify(e).slice(0, 100)).toBeTypeOf("string");
      expect(e.note, e.name).toBeTypeOf("string");
      expect(["text", "validate", "write", "crd-diff", "convert", "declaration"], e.name).toContain(e.face);
    }
    expect(new Set(entries.map((e) => e.name)).size, "names are unique").toBe(entries.length);
  });

  for (const e of entries) {
    it.skipIf(e.known === true && !knownBugs)(`${e.name} (${e.face})`, () => {
      const answer = run(e);
      if (e.expect === undefined) return;
      const said = typeof answer === "string" ? answer : (answer ?? []).map((f) => f.message).join("\n");
      expect(said).toContain(e.expect);
    });
  }
});
