import { type Conversion, readConversion, roundTrip, sampleObjects } from "../convert/index.js";
import type { Crd } from "../crd/index.js";
import { type Finding, parseError } from "../findings/index.js";
import { parseSource, type SourceDocument } from "../source/index.js";
import { getKey, isObject } from "../value/index.js";
import { isConversionDeclaration } from "./catalog.js";
import type { TextFile } from "./workspace.js";

/** A Conversion declaration (kunion.dev), among other documents. */
export function isConversion(doc: SourceDocument): boolean {
  return isConversionDeclaration(doc.value);
}

/** The CRD of a group and kind; of several (two tutorials, two channels), the one with the hub version. */
function crdFor(crds: readonly Crd[], group: unknown, kind: unknown, hub: unknown): Crd | undefined {
  const candidates = crds.filter((c) => c.group === group && c.kind === kind);
  return candidates.find((c) => c.versions.some((v) => v.name === hub)) ?? candidates[0];
}

/** The Conversion declarations of some files, each read with the CRD of its group and kind when there is one. */
export function loadConversions(
  files: readonly TextFile[],
  crds: readonly Crd[],
): { conversions: Conversion[]; findings: Finding[] } {
  const conversions: Conversion[] = [];
  const findings: Finding[] = [];
  for (const file of files) {
    const parsed = parseSource(file.text, file.path);
    findings.push(...parsed.findings);
    const docs = parsed.documents.filter(isConversion);
    if (docs.length === 0 && parsed.findings.length === 0) {
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
  }
  return { conversions, findings };
}

/**
 * The round-trip check of a declaration: samples generated from each version's
 * schema (deterministic) go spoke → hub → spoke and hub → spoke → hub; the
 * first path that differs is a finding on the declaration.
 */
export function checkRoundTrips(file: TextFile, crds: readonly Crd[], samplesPerVersion = 25): Finding[] {
  const { conversions, findings } = loadConversions([file], crds);
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
