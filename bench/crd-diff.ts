/**
 * CRD evolution checks on the largest CRDs of shared/corpus: each compared
 * with itself after one change (a field's type), as comparisons per second
 * and as a ratio to parsing both revisions' YAML in the same run, the cost
 * every comparison must pay anyway. Run: npm run bench
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { diffCrdFiles } from "../src/index.js";
import { median, parseYaml } from "./measure.js";

const corpus = process.env.KUNION_CORPUS ?? join(process.cwd(), "../shared/corpus");
const files = [
  "argo-workflows/crds/full/argoproj.io_workflows.yaml",
  "argo-workflows/crds/full/argoproj.io_workflowtemplates.yaml",
  "prometheus-operator/crds/monitoring.coreos.com_prometheuses.yaml",
  "gateway-api/crds/experimental/gateway.networking.k8s.io_httproutes.yaml",
].map((f) => join(corpus, f));

// One change deep in the schema: the first `type: integer` becomes a string.
const pairs = files.map((path) => {
  const text = readFileSync(path, "utf8");
  return { old: { path, text }, new: { path, text: text.replace("type: integer", "type: string") } };
});

let sink = 0;
const parseMs = median(() => {
  for (const p of pairs) sink += parseYaml(p.old.text) + parseYaml(p.new.text);
});
const diffMs = median(() => {
  for (const p of pairs) sink += diffCrdFiles(p.old, p.new).length;
});
const mb = files.reduce((n, f) => n + statSync(f).size, 0) / 1024 / 1024;
console.log(`${pairs.length} CRDs (${mb.toFixed(1)} MiB), each against itself with one type changed`);
console.log(`baseline: parsing both revisions (yaml package) ${parseMs.toFixed(0)} ms per pass`);
console.log(
  `crd-diff (parse included): ${diffMs.toFixed(0)} ms, ${((pairs.length / diffMs) * 1000).toFixed(1)} comparisons/s, ratio to parsing ${(diffMs / parseMs).toFixed(2)}`,
);
if (sink < 0) console.log(sink);
