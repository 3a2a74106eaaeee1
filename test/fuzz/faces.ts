/**
 * One input through one area of kunion, through its public API, with the
 * fuzz properties asserted (harness.ts) and what each area promises besides:
 * findings placed on a line of a named file, results of plain objects, inputs
 * left unchanged, conversion errors as results. The fuzz tests feed these
 * generated inputs; regressions.test.ts feeds them the inputs once found slow
 * or failing.
 */
import { expect } from "vitest";
import {
  type ChangedFile,
  type CheckOptions,
  type Conversion,
  type Crd,
  checkChanges,
  checkRoundTrips,
  convert,
  deepEqual,
  diffCrdFiles,
  type Finding,
  type JsonObject,
  loadWorkspace,
  type NormalizeOptions,
  normalizeObjects,
  type PathSegment,
  parseSource,
  type TextFile,
  type ValidateObjectsOptions,
  validateObjects,
  type WorkspaceInput,
} from "../../src/index.js";
import { pathsOf } from "./arbitraries.js";
import { answer, boundMs, expectPlaced, expectPlain, json } from "./harness.js";

/** YAML reading: findings placed, documents of plain values, every path located, the text rendered back. */
export function readsText(text: string, file = "fuzz.yaml", bound = boundMs): Finding[] {
  const got = answer(() => {
    const { documents, findings } = parseSource(text, file);
    return {
      findings,
      documents: documents.map((d) => ({
        index: d.index,
        file: d.file,
        value: d.value,
        // The first paths of the value: each is placed, on its node or its nearest parent.
        positions: [
          ...pathsOf(d.value)
            .slice(0, 30)
            .map((p) => d.locate(p)),
          d.locate(["no", 7, "such"]),
        ],
        rendered: d.render([]),
      })),
    };
  }, bound);
  expectPlaced(got.findings, [file]);
  for (const d of got.documents) {
    expect(d.file).toBe(file);
    expect(Number.isInteger(d.index) && d.index >= 0).toBe(true);
    expectPlain(d.value);
    for (const p of d.positions) expect(p.line >= 1 && p.column >= 1, `position ${json(p)}`).toBe(true);
    expect(d.rendered === undefined || typeof d.rendered === "string").toBe(true);
  }
  return got.findings;
}

/**
 * Files as `kunion validate` and `kunion normalize` read them: loadWorkspace,
 * validateObjects and normalizeObjects, which must not change the objects
 * read. Returns the findings of reading and validating.
 */
export function checksFiles(
  files: WorkspaceInput,
  options: ValidateObjectsOptions & NormalizeOptions = {},
  bound = boundMs,
): Finding[] {
  const names = [...files.inputs, ...(files.crds ?? []), ...(files.old ?? [])].map((f) => f.path);
  const got = answer(() => {
    const ws = loadWorkspace(files);
    const read = json(ws.objects.map((x) => x.object));
    const validated = validateObjects(ws.objects, ws.catalog, { old: ws.old, ...options });
    const normalized = normalizeObjects(ws.objects, ws.catalog, { old: ws.old, ...options });
    const untouched = json(ws.objects.map((x) => x.object)) === read;
    return { findings: ws.findings, validated, normalized, untouched };
  }, bound);
  expect(got.untouched, "validation or normalization changed the objects it was given").toBe(true);
  expectPlaced([...got.findings, ...got.validated], names);
  for (const n of got.normalized) {
    expectPlain(n.object);
    expectPlaced(n.errors, names);
  }
  return [...got.findings, ...got.validated];
}

/** A JSON Pointer as a path, as `kunion normalize` turns a change into an edit of the text. */
const pathOf = (pointer: string): PathSegment[] =>
  pointer
    .split("/")
    .slice(1)
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((t) => (/^(0|[1-9][0-9]*)$/.test(t) ? Number(t) : t));

/**
 * `kunion normalize` writing its result: each object's changes applied to its
 * own syntax tree (comments and layout kept) must read back as the normalized object.
 */
export function rendersNormalized(files: WorkspaceInput, bound = boundMs): void {
  const ws = loadWorkspace(files);
  const results = normalizeObjects(ws.objects, ws.catalog, { old: ws.old, mode: "update" });
  results.forEach((r, i) => {
    if (r.changes.length === 0) return;
    const edits = r.changes.map((c) => ({ path: pathOf(c.pointer), value: c.op === "clear" ? undefined : c.value }));
    const rendered = answer(() => ws.objects[i]?.doc.render(edits), bound);
    if (rendered === undefined) return; // read leniently: the CLI prints the object instead
    const reread = parseSource(rendered, r.file);
    expect(reread.findings).toEqual([]);
    expect(deepEqual(reread.documents[0]?.value, r.object), rendered).toBe(true);
  });
}

/** Two revisions of a CRD file, compared both ways by `kunion crd-diff`; the findings of before → after. */
export function diffsCrds(before: string, after: string, bound = boundMs): Finding[] {
  const got = answer(
    () => [
      diffCrdFiles({ path: "old.yaml", text: before }, { path: "new.yaml", text: after }),
      diffCrdFiles({ path: "old.yaml", text: after }, { path: "new.yaml", text: before }),
    ],
    bound,
  );
  for (const findings of got) {
    expectPlaced(findings, ["old.yaml", "new.yaml"]);
    for (const f of findings) if (f.oldLine !== undefined) expect(f.oldLine).toBeGreaterThanOrEqual(1);
  }
  return got[0] as Finding[];
}

/** A pull request as `kunion check` and the Action see it. */
export function checksChanges(changed: readonly ChangedFile[], options: CheckOptions = {}, bound = boundMs): Finding[] {
  const findings = answer(() => checkChanges(changed, options), bound);
  for (const f of findings) {
    expect(typeof f.message).toBe("string");
    if (f.line !== undefined) expect(f.line).toBeGreaterThanOrEqual(1);
  }
  return findings;
}

/** A Conversion declaration parsed, read against some CRDs, and round-trip checked over a few samples. */
export function readsDeclaration(file: TextFile, crds: readonly Crd[], bound = boundMs): Finding[] {
  const got = answer(() => {
    const parsed = { ...file, ...parseSource(file.text, file.path) };
    return [...parsed.findings, ...checkRoundTrips(parsed, crds, 3)];
  }, bound);
  expectPlaced(got, [file.path]);
  return got;
}

/**
 * One conversion: an object or an error, never an exception and never an
 * internal error (an exception the engine caught); the input unchanged; and
 * when it converted, converting back gives the input again (losslessness).
 */
export function converts(
  conversion: Conversion,
  object: JsonObject,
  to: string,
  { roundTrip = true, bound = boundMs } = {},
): { object?: JsonObject; error?: string } {
  const given = json(object);
  const there = answer(() => convert(object, to, conversion), bound);
  expect(json(object), "convert changed its input").toBe(given);
  expect((there.object === undefined) !== (there.error === undefined), "an object or an error").toBe(true);
  if (there.error !== undefined) {
    expect(there.error).not.toMatch(/^internal error/);
    return there;
  }
  expectPlain(there.object);
  const from = object.apiVersion as string;
  if (roundTrip && from !== to) {
    const back = answer(() => convert(there.object as JsonObject, from, conversion), bound);
    expect(back.error, `converting back to ${from}`).toBeUndefined();
    expect(back.object, `${from} → ${to} → ${from}`).toEqual(object);
  }
  return there;
}
