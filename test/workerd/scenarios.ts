/**
 * The core's own work, the same in Node and in workerd: the lane runs this
 * inside workerd (core.worker.ts, at request time, where code generation
 * throws) and in Node (workerd.test.ts), and requires both answers to agree.
 * Imports the core only through src/index.ts, as the faces do.
 */
import {
  buildCatalog,
  findingToJson,
  formatGithub,
  formatSarif,
  formatText,
  loadWorkspace,
  normalize,
  normalizeObjects,
  parseSource,
  validateObjects,
  validateUnions,
} from "../../src/index.js";

/** The example files the lane works on, by their path in the repository. */
export const examplePaths = {
  crd: "examples/crds/backups.kunion.dev.yaml",
  invalid: "examples/manifests/backups-invalid.yaml",
  valid: "examples/manifests/backups.yaml",
  live: "examples/deployment/live.yaml",
  recreate: "examples/deployment/recreate.yaml",
  goTypes: "examples/go/v1/backup_types.go",
} as const;

export type ExampleTexts = Record<keyof typeof examplePaths, string>;

const file = (texts: ExampleTexts, key: keyof typeof examplePaths) => ({ path: examplePaths[key], text: texts[key] });

/** JSON-safe results of every core entry point the faces use. */
export function coreScenarios(texts: ExampleTexts) {
  // validateUnions and normalize directly, as functions/app.ts calls them.
  const { catalog, findings: declared } = buildCatalog(parseSource(texts.crd, examplePaths.crd).documents);
  const invalid = parseSource(texts.invalid, examplePaths.invalid);
  const validateDirect = invalid.documents.map((doc) => {
    const object = doc.value as { apiVersion: string; kind: string };
    const schema = catalog.schemaFor(object.apiVersion, object.kind);
    return validateUnions({ object: doc.value, schema }).map(findingToJson);
  });
  const [live] = parseSource(texts.live, examplePaths.live).documents;
  const [recreate] = parseSource(texts.recreate, examplePaths.recreate).documents;
  const deployment = catalog.schemaFor("apps/v1", "Deployment");
  const normalizeDirect = (["kep", "smd"] as const).map((policy) => {
    const r = normalize({ object: recreate?.value ?? null, oldObject: live?.value, schema: deployment }, { policy });
    return { policy, object: r.object, changes: r.changes, notes: r.notes, errors: r.errors.map(findingToJson) };
  });
  const applied = normalize(
    {
      object: { apiVersion: "apps/v1", kind: "Deployment", spec: { strategy: { type: "Recreate" } } },
      oldObject: live?.value,
      schema: deployment,
    },
    { mode: "apply" },
  );

  // The CLI's path: files → workspace → findings with lines, and every report format.
  const workspace = loadWorkspace({
    inputs: [file(texts, "invalid"), file(texts, "valid"), file(texts, "recreate")],
    crds: [file(texts, "crd")],
    goTypes: [file(texts, "goTypes")],
    old: [file(texts, "live")],
  });
  const findings = [
    ...workspace.findings,
    ...validateObjects(workspace.objects, workspace.catalog, { old: workspace.old, ratcheting: true }),
  ];
  const normalized = normalizeObjects(workspace.objects, workspace.catalog, { old: workspace.old });

  return {
    declared: declared.map(findingToJson),
    validateDirect,
    normalizeDirect,
    applied: { object: applied.object, changes: applied.changes },
    workspace: {
      findings: findings.map(findingToJson),
      text: formatText(findings),
      sarif: JSON.parse(formatSarif(findings)) as unknown,
      github: formatGithub(findings),
      normalized: normalized.map((r) => ({ file: r.file, index: r.index, changes: r.changes, object: r.object })),
    },
  };
}
