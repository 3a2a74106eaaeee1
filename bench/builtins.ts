/**
 * Kubernetes' own kinds: throughput and the embedded tables' cold cost.
 *
 * 1. Throughput: 1,000 mixed built-in objects (Deployments, Services,
 *    ConfigMaps, Secrets, RBAC, Jobs, CronJobs, Ingresses, StatefulSets,
 *    HPAs, PDBs, NetworkPolicies, PVCs), generated here, read and validated
 *    as `kunion validate` does; objects per second and the ratio to parsing
 *    the same text with the `yaml` package, alternated in the same run.
 * 2. Cold start, in fresh processes (medians of KUNION_COLD_RUNS, default 9):
 *    the first use of the default release's table (JSON.parse) and of one
 *    kind's schema (expand and compile); and the CPU time of whole
 *    `kunion validate` processes on one ConfigMap against one custom
 *    resource with its CRD (both parse the default table: every object's
 *    validation looks its kind up there).
 *
 * Run: npm run bench:builtins
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parseAllDocuments } from "yaml";
import "../src/builtins/all-releases.js";
import table132 from "../src/builtins/tables/k8s-1-32.generated.js";
import table133 from "../src/builtins/tables/k8s-1-33.generated.js";
import table134 from "../src/builtins/tables/k8s-1-34.generated.js";
import table136 from "../src/builtins/tables/k8s-1-36.generated.js";
import { buildCatalog, objectsOf, parseSource, releaseTable, validateObjects } from "../src/index.js";
import { widgetCrd } from "../test/widget-crd.js";
import { median, medianPair } from "./measure.js";

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

if (process.argv[2] === "--first-use") {
  // A fresh process: what the first built-in object costs before any validation.
  let t = performance.now();
  releaseTable("1.36");
  const tableMs = performance.now() - t;
  const { catalog } = buildCatalog([]);
  const doc = parseSource("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n", "c.yaml");
  const { objects } = objectsOf(doc.documents);
  t = performance.now();
  validateObjects(objects, catalog);
  const kindMs = performance.now() - t;
  console.log(JSON.stringify({ tableMs, kindMs }));
  process.exit(0);
}

const container = (i: number) =>
  `      - name: app\n        image: registry.example.com/app:${i}.0\n        ports: [{containerPort: 8080, name: http}]\n        resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {memory: 256Mi}}\n        env: [{name: MODE, value: prod}]\n        readinessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10}\n`;
const kinds: ((i: number) => string)[] = [
  (i) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-${i}, labels: {app: web-${i}}}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web-${i}}}\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}\n  template:\n    metadata: {labels: {app: web-${i}}}\n    spec:\n      containers:\n${container(i)}`,
  (i) =>
    `apiVersion: v1\nkind: Service\nmetadata: {name: web-${i}}\nspec:\n  selector: {app: web-${i}}\n  ports: [{name: http, port: 80, targetPort: http, protocol: TCP}]\n`,
  (i) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: config-${i}}\ndata:\n  app.properties: |\n    mode=prod\n    replicas=${i}\n  LOG_LEVEL: info\n`,
  (i) => `apiVersion: v1\nkind: Secret\nmetadata: {name: secret-${i}}\ntype: Opaque\ndata: {password: cGFzc3dvcmQ=}\n`,
  (i) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: reader-${i}, namespace: team}\nrules:\n- apiGroups: [""]\n  resources: [pods, configmaps]\n  verbs: [get, list, watch]\n`,
  (i) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: reader-${i}, namespace: team}\nsubjects: [{kind: ServiceAccount, name: app-${i}, namespace: team}]\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader-${i}}\n`,
  (i) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: "system:viewer-${i}"}\nrules:\n- apiGroups: [apps]\n  resources: [deployments]\n  verbs: [get, list]\n`,
  (i) => `apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: app-${i}, namespace: team}\n`,
  (i) =>
    `apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate-${i}}\nspec:\n  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n${container(i)}`,
  (i) =>
    `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: report-${i}}\nspec:\n  schedule: "0 ${i % 24} * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{name: report, image: "busybox:1.36", args: [date]}]\n`,
  (i) =>
    `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web-${i}}\nspec:\n  ingressClassName: nginx\n  tls: [{hosts: [web-${i}.example.com], secretName: tls-${i}}]\n  rules:\n  - host: web-${i}.example.com\n    http:\n      paths: [{path: /, pathType: Prefix, backend: {service: {name: web-${i}, port: {name: http}}}}]\n`,
  (i) =>
    `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db-${i}}\nspec:\n  serviceName: db-${i}\n  replicas: 1\n  selector: {matchLabels: {app: db-${i}}}\n  template:\n    metadata: {labels: {app: db-${i}}}\n    spec:\n      containers:\n${container(i)}  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}\n`,
  (i) =>
    `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web-${i}}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web-${i}}\n  minReplicas: 2\n  maxReplicas: 10\n  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]\n`,
  (i) =>
    `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-${i}}\nspec: {minAvailable: 1, selector: {matchLabels: {app: web-${i}}}}\n`,
  (i) =>
    `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: web-${i}}\nspec:\n  podSelector: {matchLabels: {app: web-${i}}}\n  policyTypes: [Ingress]\n  ingress: [{from: [{podSelector: {matchLabels: {role: frontend}}}], ports: [{protocol: TCP, port: 8080}]}]\n`,
  (i) =>
    `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-${i}}\nspec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 5Gi}}}\n`,
];
const count = 1000;
const text = Array.from({ length: count }, (_, i) => (kinds[i % kinds.length] as (i: number) => string)(i)).join(
  "---\n",
);

// Every generated object must be valid: a benchmark of error paths would measure the wrong thing.
const { catalog } = buildCatalog([]);
const check = () => {
  const { documents } = parseSource(text, "objects.yaml");
  const { objects } = objectsOf(documents);
  return { objects: objects.length, findings: validateObjects(objects, catalog) };
};
const first = check();
const errors = first.findings.filter((f) => f.severity === "error");
if (first.objects !== count || errors.length > 0) {
  throw new Error(`expected ${count} valid objects: ${first.objects} read, ${errors[0]?.message ?? ""}`);
}

let sink = 0;
const [kunionMs, yamlMs] = medianPair(
  () => {
    sink += check().findings.length;
  },
  () => {
    for (const doc of parseAllDocuments(text)) if ("toJS" in doc) sink += doc.toJS() ? 1 : 0;
  },
  4000,
);
const validateOnly = (() => {
  const { objects } = objectsOf(parseSource(text, "objects.yaml").documents);
  return median(() => {
    sink += validateObjects(objects, catalog).length;
  }, 2000);
})();

console.log(
  `bench/builtins: ${count} built-in objects of ${kinds.length} kinds (${(text.length / 1024).toFixed(0)} KiB)`,
);
console.log(
  `  read + validate: ${(count / (kunionMs / 1000)).toFixed(0)} objects/s (${kunionMs.toFixed(1)} ms); yaml package parse alone: ${yamlMs.toFixed(1)} ms; ratio ${(kunionMs / yamlMs).toFixed(2)}`,
);
console.log(
  `  validate alone: ${(count / (validateOnly / 1000)).toFixed(0)} objects/s (${validateOnly.toFixed(1)} ms)`,
);

const tables = { "1.32": table132, "1.33": table133, "1.34": table134, "1.36": table136 };
for (const [release, t] of Object.entries(tables)) {
  console.log(
    `  table ${release}: ${(t.length / 1024).toFixed(0)} KiB, ${(gzipSync(t).length / 1024).toFixed(1)} KiB gzip`,
  );
}

// Cold: fresh processes.
const runs = Number(process.env.KUNION_COLD_RUNS ?? 9);
const firstUse = Array.from({ length: runs }, () => {
  const r = spawnSync(process.execPath, [process.argv[1] as string, "--first-use"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`--first-use exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { tableMs: number; kindMs: number };
});
console.log(
  `  fresh process, first use: parse the 1.36 table ${medianOf(firstUse.map((u) => u.tableMs)).toFixed(2)} ms, expand and compile ConfigMap and validate it ${medianOf(firstUse.map((u) => u.kindMs)).toFixed(2)} ms`,
);

const dir = mkdtempSync(join(tmpdir(), "kunion-bench-builtins-"));
writeFileSync(join(dir, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n");
writeFileSync(join(dir, "crd.yaml"), widgetCrd());
writeFileSync(join(dir, "cr.yaml"), "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1}\n");
const root = join(import.meta.dirname, "../..");
const usageFile = join(dir, "usage.json");
/** CPU time (user + system) of a whole `kunion validate` process, read by bench/usage.mjs at its exit. */
const cpu = (args: string[]) => {
  const r = spawnSync(
    process.execPath,
    ["--import", join(root, "bench/usage.mjs"), join(root, "dist/kunion.js"), "validate", ...args],
    // without the launcher's code cache, as bench/cold.ts: a fresh machine's first run
    {
      cwd: dir,
      stdio: "ignore",
      env: { ...process.env, KUNION_USAGE_FILE: usageFile, NODE_DISABLE_COMPILE_CACHE: "1" },
    },
  );
  if (r.status !== 0) throw new Error(`kunion validate ${args.join(" ")} exited ${r.status}`);
  return (JSON.parse(readFileSync(usageFile, "utf8")) as { cpuMs: number }).cpuMs;
};
const configMap: number[] = [];
const customResource: number[] = [];
for (let i = 0; i < runs; i++) {
  configMap.push(cpu(["cm.yaml"]));
  customResource.push(cpu(["--crd", "crd.yaml", "cr.yaml"]));
}
const cm = medianOf(configMap);
const cr = medianOf(customResource);
console.log(
  `  whole process (dist/kunion.js), CPU time: validate one ConfigMap ${cm.toFixed(0)} ms, one custom resource with its CRD ${cr.toFixed(0)} ms; difference ${(cm - cr).toFixed(1)} ms`,
);
if (sink === -1) console.log(sink);
