/**
 * The Action's check on a pull request of a realistic size: a git repository
 * of 2,000 manifests and 50 CRDs, of which about 10% change in one commit.
 * Times the core's `checkChanges` over the changed files (read from disk, with
 * their base revision) as a ratio to reading and parsing the same files
 * with the `yaml` package (measure.ts: parseYaml), the two run pass for pass
 * so both meet the same load. Run: esbuild-bundle it as the other
 * benchmarks, then `node dist/bench/check.js`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readAt } from "../src/checkout/index.js";
import { type ChangedFile, checkChanges } from "../src/index.js";
import { widgetCrd } from "../test/widget-crd.js";
import { medianPair, parseYaml } from "./measure.js";

const crdCount = 50;
const manifestCount = 2000;

function crd(i: number, extra = ""): string {
  return widgetCrd({
    kind: `Widget${i}`,
    properties: `spec:
  type: object
  required: [size]
  x-kubernetes-validations:
    - rule: "[has(self.s3),has(self.gcs)].filter(x,x==true).size() <= 1"
      message: at most one of s3 and gcs
  properties:
    size: { type: integer, minimum: 1, maximum: 100 }
    mode: { type: string, enum: [fast, safe] }
    labels: { type: object, additionalProperties: { type: string } }
    s3: { type: object, properties: { bucket: { type: string, maxLength: 63 } } }
    gcs: { type: object, properties: { bucket: { type: string } } }${extra}`,
  });
}

function manifest(i: number, size: number): string {
  if (i % 4 === 0) {
    return `apiVersion: apps/v1
kind: Deployment
metadata: { name: app-${i}, namespace: team-${i % 7} }
spec:
  replicas: ${size % 5}
  selector: { matchLabels: { app: app-${i} } }
  strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1 } }
  template:
    metadata: { labels: { app: app-${i} } }
    spec:
      containers:
        - name: app
          image: registry.example.com/app:${size}
          ports: [{ containerPort: 8080 }]
`;
  }
  return `apiVersion: example.com/v1
kind: Widget${i % crdCount}
metadata: { name: w-${i}, namespace: team-${i % 7} }
spec:
  size: ${size}
  mode: ${i % 2 ? "fast" : "safe"}
  labels: { owner: team-${i % 7} }
  s3: { bucket: bucket-${i} }
`;
}

const dir = mkdtempSync(join(tmpdir(), "kunion-bench-check-"));
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "-c", "commit.gpgsign=false", ...args], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  }).trim();
try {
  mkdirSync(join(dir, "crds"));
  mkdirSync(join(dir, "deploy"));
  for (let i = 0; i < crdCount; i++) writeFileSync(join(dir, `crds/widget${i}.yaml`), crd(i));
  for (let i = 0; i < manifestCount; i++) writeFileSync(join(dir, `deploy/m${i}.yaml`), manifest(i, 3));
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  const base = git("rev-parse", "HEAD");
  // About 10%: 5 CRDs gain a field, 200 manifests change a value.
  for (let i = 0; i < crdCount; i += 10) {
    writeFileSync(join(dir, `crds/widget${i}.yaml`), crd(i, "\n    note: { type: string }"));
  }
  for (let i = 0; i < manifestCount; i += 10) writeFileSync(join(dir, `deploy/m${i}.yaml`), manifest(i, 4));
  git("commit", "-q", "-am", "head");

  const paths = git("diff", "--name-only", `${base}...HEAD`).split("\n").filter(Boolean);
  process.chdir(dir);
  const before = readAt(dir, base, paths, 1 << 24);
  const crds = Array.from({ length: crdCount }, (_, i) => `crds/widget${i}.yaml`)
    .filter((p) => !paths.includes(p))
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
  const read = (): ChangedFile[] =>
    paths.map((path) => ({ path, before: before.get(path)?.toString("utf8"), after: readFileSync(path, "utf8") }));

  let sink = 0;
  let findings = 0;
  const [parseMs, checkMs] = medianPair(
    () => {
      for (const f of read()) {
        sink += parseYaml(f.after);
        if (f.before !== undefined) sink += parseYaml(f.before);
      }
    },
    () => {
      findings = checkChanges(read(), { crds }).length;
    },
    4000,
  );
  console.log(
    `${manifestCount} manifests and ${crdCount} CRDs in git; ${paths.length} changed files (${paths.filter((p) => p.startsWith("crds/")).length} CRDs), ${findings} finding(s)`,
  );
  console.log(
    `baseline: reading and parsing (yaml package) the changed files and their base revisions ${parseMs.toFixed(1)} ms`,
  );
  console.log(
    `checkChanges (reading included): ${checkMs.toFixed(1)} ms, ${((paths.length / checkMs) * 1000).toFixed(0)} files/s, ratio to parsing ${(checkMs / parseMs).toFixed(2)}`,
  );
  if (sink < 0) console.log(sink);
} finally {
  process.chdir(tmpdir());
  rmSync(dir, { recursive: true, force: true });
}
