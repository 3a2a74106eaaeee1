/**
 * Fuzzing validate and normalize: valid objects of built-in kinds and of the
 * example CRD, mutated at random paths (wrong types, prototype keys, huge
 * strings, deep nesting), with and without a previous revision. Two routes,
 * as the faces use them: text files through loadWorkspace (CLI, Action), and
 * parsed objects through validateObject and normalize (HTTP functions).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Document, Pair, Scalar, stringify, YAMLMap } from "yaml";
import {
  buildCatalog,
  documentOf,
  type JsonObject,
  type JsonValue,
  normalize,
  parseSource,
  validateObject,
} from "../../src/index.js";
import { copy, mutate, mutations, objectOf, type Path, pathsOf, put } from "./arbitraries.js";
import { checksFiles, rendersNormalized } from "./faces.js";
import { answer, expectPlain, json, params, testTimeout } from "./harness.js";

const examples = join(import.meta.dirname, "../../examples");
const crdText = readFileSync(join(examples, "crds/backups.kunion.dev.yaml"), "utf8");
const valuesOf = (file: string) =>
  parseSource(readFileSync(join(examples, file), "utf8"), file).documents.map((d) => d.value);

const podSpec = {
  containers: [
    {
      name: "app",
      image: "nginx:1.27",
      ports: [{ containerPort: 80 }],
      env: [{ name: "A", value: "1" }],
      resources: { limits: { cpu: "500m", memory: "1Gi" } },
    },
  ],
  volumes: [{ name: "data", emptyDir: {} }],
};
const meta = (name: string) => ({ name, namespace: "default", labels: { app: name } });

/** Valid objects to start from: built-in kinds with unions, and the custom resources of the example CRD. */
const bases = [
  ...valuesOf("deployment/live.yaml"),
  ...valuesOf("deployment/recreate.yaml"),
  ...valuesOf("manifests/backups.yaml"),
  ...valuesOf("manifests/backups-invalid.yaml"),
  { apiVersion: "v1", kind: "Pod", metadata: meta("pod"), spec: podSpec },
  {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: meta("cron"),
    spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template: { spec: podSpec } } } },
  },
  {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: meta("hpa"),
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
      maxReplicas: 3,
      metrics: [
        { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } } },
      ],
    },
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: meta("ing"),
    spec: {
      rules: [
        {
          host: "x.example.com",
          http: {
            paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } }],
          },
        },
      ],
    },
  },
  { apiVersion: "v1", kind: "ConfigMap", metadata: meta("cm"), data: { a: "1" } },
  { apiVersion: "example.com/v1", kind: "Unknown", metadata: meta("u"), spec: {} },
] as JsonObject[];

/**
 * Edits of union fields: a discriminator switched, a member added or removed.
 * Random paths rarely hit a union; these make old and new revisions disagree
 * on one, which is what normalization acts on.
 */
const unionEdits: ReadonlyArray<readonly [Array<string | number>, readonly JsonValue[]]> = [
  [
    ["spec", "strategy", "type"],
    ["Recreate", "RollingUpdate", "", 7],
  ],
  [
    ["spec", "strategy", "rollingUpdate"],
    [{ maxSurge: 1 }, null, {}],
  ],
  [
    ["spec", "destination", "type"],
    ["S3", "GCS", "PVC", "Disabled", "s3", null],
  ],
  [
    ["spec", "destination", "s3"],
    [{ bucket: "b" }, null],
  ],
  [
    ["spec", "destination", "gcs"],
    [{ bucket: "b" }, {}],
  ],
  [
    ["spec", "destination", "pvc"],
    [{ claimName: "c" }, []],
  ],
  [
    ["spec", "schedule", "cron"],
    ["0 3 * * *", 5],
  ],
  [
    ["spec", "schedule", "interval"],
    ["1h", null],
  ],
  [
    ["spec", "metrics", 0, "type"],
    ["Resource", "Pods", "Object", "External", "ContainerResource"],
  ],
  [["spec", "metrics", 0, "pods"], [{ metric: { name: "m" }, target: { type: "AverageValue", averageValue: "1" } }]],
  [
    ["spec", "containers", 0, "env", 0, "valueFrom"],
    [{ fieldRef: { fieldPath: "metadata.name" } }, null],
  ],
  [
    ["spec", "containers", 0, "env", 0, "value"],
    ["", "v", null],
  ],
  [
    ["spec", "volumes", 0, "configMap"],
    [{ name: "c" }, null],
  ],
  [
    ["spec", "volumes", 0, "emptyDir"],
    [{}, null],
  ],
  [["spec", "rules", 0, "http", "paths", 0, "backend", "resource"], [{ kind: "K", name: "n" }]],
];
const unionEdit = fc.tuple(fc.nat(unionEdits.length - 1), fc.nat(), fc.boolean()).map(([i, j, remove]) => {
  const [path, values] = unionEdits[i] as (typeof unionEdits)[number];
  return { path, value: remove ? undefined : copy(values[j % values.length] as JsonValue) };
});

/** The value at `path` set (creating the objects on the way) or removed; arrays are only walked, never made. */
function edit(object: JsonObject, path: ReadonlyArray<string | number>, value: JsonValue | undefined): void {
  let cur: JsonValue = object;
  for (const seg of path.slice(0, -1)) {
    if (cur === null || typeof cur !== "object") return;
    let next: JsonValue | undefined = (cur as Record<string | number, JsonValue>)[seg];
    if (next === undefined && typeof seg === "string" && !Array.isArray(cur)) {
      next = {};
      put(cur, seg, next);
    }
    if (next === undefined) return;
    cur = next;
  }
  const last = path[path.length - 1] as string | number;
  if (cur === null || typeof cur !== "object" || Array.isArray(cur) !== (typeof last === "number")) return;
  if (value === undefined) delete (cur as Record<string | number, JsonValue>)[last];
  else if (Array.isArray(cur)) cur[last as number] = value;
  else put(cur, last as string, value);
}

/** One revision of a base: random mutations and union edits; apiVersion and kind mostly kept, or few objects reach a schema. */
const revision = (base: JsonObject) =>
  fc
    .record({ random: mutations, unions: fc.array(unionEdit, { minLength: 1, maxLength: 4 }), keepType: fc.nat(9) })
    .map(({ random, unions, keepType }) => {
      const object = mutate(base, random);
      for (const u of unions) edit(object, u.path, u.value);
      if (keepType > 0) {
        put(object, "apiVersion", base.apiVersion as JsonValue);
        put(object, "kind", base.kind as JsonValue);
      }
      return object;
    });

/** An object and, half of the time, its previous revision: both revisions of the same base. */
const revisions = fc
  .constantFrom(...bases)
  .chain((base) => fc.record({ object: revision(base), oldObject: fc.option(revision(base), { nil: undefined }) }));

const options = fc.record({
  yaml: fc.boolean(),
  unknownFields: fc.constantFrom("error", "warning", "ignore"),
  ratcheting: fc.boolean(),
  mode: fc.constantFrom("update", "apply"),
  policy: fc.constantFrom("kep", "smd"),
});

const text = (value: JsonValue, yaml: boolean) => (yaml ? stringify(value) : JSON.stringify(value));

const valueAt = (v: JsonValue, path: Path): JsonValue | undefined =>
  path.reduce<JsonValue | undefined>((cur, seg) => (cur as Record<string | number, JsonValue> | undefined)?.[seg], v);
const isMapping = (v: JsonValue | undefined): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The object as YAML where one of its mappings is an alias of an anchor
 * defined first, under `x-anchor` (or a merge `<<:` of that alias): YAML's
 * ways of writing the same subtree twice, which an edit must not go through.
 */
function aliased(object: JsonObject, pick: number, merge: boolean): string {
  const candidates = pathsOf(object).filter((p) => p.length >= 2 && isMapping(valueAt(object, p)));
  const path = candidates[pick % Math.max(candidates.length, 1)];
  if (path === undefined) return stringify(object);
  // The same reference twice: the yaml package writes it as an anchor and an alias.
  const shared = objectOf([["x-anchor", valueAt(object, path) as JsonValue], ...Object.entries(object)]);
  const doc = new Document(shared);
  if (merge) {
    const map = new YAMLMap();
    map.items.push(new Pair(new Scalar("<<"), doc.getIn(path, true)));
    doc.setIn(path, map);
  }
  return doc.toString();
}

describe("fuzz: validate and normalize", () => {
  it(
    "files through loadWorkspace, validateObjects and normalizeObjects",
    () => {
      fc.assert(
        fc.property(revisions, options, ({ object, oldObject }, { yaml, ...o }) => {
          checksFiles(
            {
              inputs: [{ path: "new.yaml", text: text(object, yaml) }],
              crds: [{ path: "crd.yaml", text: crdText }],
              old: oldObject === undefined ? [] : [{ path: "old.yaml", text: text(oldObject, yaml) }],
            },
            o,
          );
        }),
        params(300),
      );
    },
    testTimeout,
  );

  it(
    "parsed objects through validateObject and normalize, as the HTTP functions call them",
    () => {
      const crd = parseSource(crdText, "crd.yaml").documents[0]?.value as JsonObject;
      fc.assert(
        fc.property(revisions, options, ({ object, oldObject }, o) => {
          const { apiVersion, kind } = object;
          // The functions answer 422 before validating an object without a string apiVersion and kind.
          fc.pre(typeof apiVersion === "string" && apiVersion !== "" && typeof kind === "string" && kind !== "");
          const given = json([object, oldObject]);
          const old = oldObject as JsonObject | undefined;
          const got = answer(() => {
            const { catalog } = buildCatalog([documentOf(copy(crd), "crd")]);
            const findings = validateObject(catalog, apiVersion as string, kind as string, object, {
              oldObject: old,
              ...o,
            });
            const schema = catalog.schemaFor(apiVersion as string, kind as string);
            const normalized = normalize({ object, oldObject: old, schema }, o);
            return { findings, normalized };
          });
          expect(json([object, oldObject]), "the inputs were changed").toBe(given);
          for (const f of got.findings) expect(typeof f.message).toBe("string");
          expectPlain(got.normalized.object);
        }),
        params(300),
      );
    },
    testTimeout,
  );

  it(
    "normalize --write: the edited text reads back as the normalized object",
    () => {
      // Aliases and merge keys on the way to an edit: the document is printed anew, never edited wrongly.
      const alias = fc.option(fc.tuple(fc.nat(), fc.boolean()), { nil: undefined });
      fc.assert(
        fc.property(revisions, fc.boolean(), alias, ({ object, oldObject }, yaml, aliasing) => {
          rendersNormalized({
            inputs: [
              { path: "new.yaml", text: aliasing === undefined ? text(object, yaml) : aliased(object, ...aliasing) },
            ],
            crds: [{ path: "crd.yaml", text: crdText }],
            old: oldObject === undefined ? [] : [{ path: "old.yaml", text: text(oldObject, yaml) }],
          });
        }),
        params(300),
      );
    },
    testTimeout,
  );
});
