import { type Conversion, readConversion, roundTrip, sampleObjects } from "../convert/index.js";
import type { Crd } from "../crd/index.js";
import { type Finding, parseError } from "../findings/index.js";
import { parseSource, type SourceDocument } from "../source/index.js";
import { getKey, isObject } from "../value/index.js";
import { isConversionDeclaration } from "./catalog.js";
import type { ParsedFile, TextFile } from "./workspace.js";

/** A Conversion declaration (kunion.dev), among other documents. */
export function isConversion(doc: SourceDocument): boolean {
  return isConversionDeclaration(doc.value);
}

/** The CRD of a group and kind; of several (two tutorials, two channels), the one with the hub version. */
function crdFor(crds: readonly Crd[], group: unknown, kind: unknown, hub: unknown): Crd | undefined {
  const candidates = crds.filter((c) => c.group === group && c.kind === kind);
  return candidates.find((c) => c.versions.some((v) => v.name === hub)) ?? candidates[0];
}

/**
 * The Conversion declarations of a parsed file, each read with the CRD of its
 * group and kind when there is one: what reading them found, not what
 * parsing found (that is the parser's caller's to report).
 */
function declarationsOf(file: ParsedFile, crds: readonly Crd[]): { conversions: Conversion[]; findings: Finding[] } {
  const conversions: Conversion[] = [];
  const findings: Finding[] = [];
  const docs = file.documents.filter(isConversion);
  // A file that did not parse has its syntax findings already: no "holds nothing" on top.
  if (docs.length === 0 && file.findings.length === 0) {
    findings.push({
      ...parseError("the file holds no Conversion declaration", { rule: "conversion" }),
      file: file.path,
      line: 1,
      column: 1,
    });
  }
  for (const doc of docs) {
    const spec = isObject(doc.value) ? getKey(doc.value, "spec") : undefined;
    const crd = isObject(spec)
      ? crdFor(crds, getKey(spec, "group"), getKey(spec, "kind"), getKey(spec, "hub"))
      : undefined;
    const read = readConversion(doc, crd);
    findings.push(...read.findings);
    if (read.conversion) conversions.push(read.conversion);
  }
  return { conversions, findings };
}

/** The Conversion declarations of some files (a text is parsed here), with what parsing and reading them found. */
export function loadConversions(
  files: readonly (TextFile | ParsedFile)[],
  crds: readonly Crd[],
): { conversions: Conversion[]; findings: Finding[] } {
  const conversions: Conversion[] = [];
  const findings: Finding[] = [];
  for (const file of files) {
    const parsed = "documents" in file ? file : { ...file, ...parseSource(file.text, file.path) };
    const read = declarationsOf(parsed, crds);
    findings.push(...parsed.findings, ...read.findings);
    conversions.push(...read.conversions);
  }
  return { conversions, findings };
}

/**
 * The round-trip check of a parsed declaration file: samples generated from
 * each version's schema (deterministic) go spoke → hub → spoke and hub →
 * spoke → hub; the first path that differs is a finding on the declaration.
 * The findings are reading the declarations' and the round trips', not the
 * parse's (`file.findings`), which its caller reports with the file's others.
 */
export function checkRoundTrips(file: ParsedFile, crds: readonly Crd[], samplesPerVersion = 25): Finding[] {
  const { conversions, findings } = declarationsOf(file, crds);
  for (const conversion of conversions) {
    const crd = crdFor(crds, conversion.group, conversion.kind, conversion.hub);
    if (!crd) continue;
    const samples = crd.versions.flatMap((v, i) =>
      sampleObjects(crd, v.name, samplesPerVersion, i + 1).map((object) => ({
        apiVersion: `${crd.group}/${v.name}`,
        object,
      })),
    );
    findings.push(
      ...roundTrip(conversion, samples).map((f) => ({
        ...f,
        file: file.path,
        line: f.line ?? 1,
        column: f.column ?? 1,
      })),
    );
  }
  return findings;
}
