/**
 * Every example of docs/http.md, run as written against the Node server on 127.0.0.1: the
 * shell does what it does in the docs (heredocs, `$(npx js-yaml …)`, jq, pipes), and `curl`
 * is replayed with fetch (a small client that reads curl's options), so the docs and this
 * test cannot drift apart. Each request and its answer is logged and checked here.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "./node-server.js";
import { serverBundle } from "./test-bundle.js";

const root = join(import.meta.dirname, "..");
const docs = readFileSync(join(root, "docs/http.md"), "utf8");

/** The examples: the `sh` block under "## Examples", split at blank lines, the URL line apart. */
function examples(): { title: string; script: string }[] {
  const section = docs.slice(docs.indexOf("## Examples"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split(/\n\s*\n/)
    .map((chunk) => chunk.split("\n").filter((l) => !/^URL=/.test(l)))
    .filter((lines) => lines.some((l) => l.trim() !== "" && !l.startsWith("#")))
    .map((lines) => ({
      title: lines.find((l) => l.startsWith("#"))?.replace(/^#\s*/, "") ?? (lines[0] as string),
      script: lines.join("\n"),
    }));
}

/** curl, as the examples use it (-s, -H, -d, --data-binary @file | @- | text), replayed with fetch. */
const replay = `
import { readFileSync, appendFileSync } from "node:fs";
const args = process.argv.slice(2);
const headers = {};
let url, body;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "-s" || a === "--silent") continue;
  else if (a === "-H" || a === "--header") {
    const h = args[++i]; const colon = h.indexOf(":");
    headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
  } else if (a === "-d" || a === "--data" || a === "--data-binary") {
    const d = args[++i];
    body = d.startsWith("@") ? readFileSync(d === "@-" ? 0 : d.slice(1)) : d;
    // curl -d @file drops the file's line breaks; --data-binary keeps every byte.
    if (a !== "--data-binary" && d.startsWith("@")) body = body.toString("utf8").replace(/[\\r\\n]/g, "");
  } else if (a.startsWith("-")) { console.error("replay: unknown curl option " + a); process.exit(2); }
  else url = a;
}
const res = await fetch(url, { method: body === undefined ? "GET" : "POST", headers, body });
const text = await res.text();
appendFileSync(process.env.REPLAY_LOG, JSON.stringify({ url, status: res.status, body: text }) + "\\n");
process.stdout.write(text);
`;

interface Logged {
  url: string;
  status: number;
  body: string;
}

const hasJq = spawnSync("jq", ["--version"]).status === 0;

describe.skipIf(!hasJq)("docs/http.md examples, against the Node server", () => {
  let server: RunningServer;
  const dir = mkdtempSync(join(tmpdir(), "kunion-docs-"));
  const client = join(dir, "curl.mjs");
  writeFileSync(client, replay);

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      crdsDir: join(root, "examples/crds"),
      conversionsDir: join(root, "examples/conversions"),
      workers: 1,
      workerEntry: await serverBundle(),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Runs an example with bash from the checkout's top folder (asynchronously: the server's
   * sockets are on this thread); what its curl calls sent and got.
   */
  async function run(script: string): Promise<{ stdout: string; requests: Logged[] }> {
    const log = join(dir, `log-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(log, "");
    const prelude = `set -eo pipefail\ncurl() { "${process.execPath}" "${client}" "$@"; }\n`;
    const { stdout } = await promisify(execFile)("bash", ["-c", prelude + script], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, URL: server.url, REPLAY_LOG: log },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    });
    const requests = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Logged);
    return { stdout, requests };
  }

  const all = examples();
  const find = (words: string) => {
    const example = all.find((e) => e.title.includes(words));
    if (!example) throw new Error(`docs/http.md has no example "${words}"`);
    return example;
  };

  it("has the examples this test knows", () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
  });

  it.each(all.map((e) => [e.title, e.script]))("%s: every request answered 200", async (_, script) => {
    const { requests } = await run(script);
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) expect([r.url, r.status, r.body]).toEqual([r.url, 200, r.body]);
  });

  it("the YAML bodies get findings with line and column", async () => {
    const single = JSON.parse((await run(find("Validate a manifest against the deployed CRDs").script)).stdout);
    expect(single.valid).toBe(false);
    expect(
      single.findings.map((f: { field: string; line: number; column: number }) => [f.field, f.line, f.column]),
    ).toEqual([
      ["spec.destination", 5, 10],
      ["spec.destination", 5, 10],
    ]);
    const many = JSON.parse((await run(find("several manifests").script)).stdout);
    const at = many.findings.map((f: { document: number; line: number; column: number }) => [
      f.document,
      f.line,
      f.column,
    ]);
    // The lines of backups-invalid.yaml that `kunion validate` names.
    expect(at).toEqual([
      [0, 8, 3],
      [0, 8, 3],
      [0, 12, 3],
      [1, 24, 3],
    ]);
  });

  it("a bare manifest is read as {object: …}", async () => {
    const bare = JSON.parse((await run(find("bare manifest").script)).stdout);
    expect(bare.findings).toContainEqual(
      expect.objectContaining({ field: "spec.strategy.rollingUpdate", rule: "union", line: 15, column: 5 }),
    );
  });

  it("the crd-diff example finds the dropped enum value", async () => {
    const diff = JSON.parse((await run(find("Two revisions of a CRD").script)).stdout);
    expect(diff.findings.map((f: { rule: string }) => f.rule)).toEqual(["enum-restricted"]);
  });

  const big = join(root, "../shared/corpus/prometheus-operator/crds/monitoring.coreos.com_prometheuses.yaml");
  it.skipIf(!existsSync(big))(
    "the crd-diff example, as written, takes a CRD of 800 KB (../shared corpus)",
    async () => {
      const script = find("Two revisions of a CRD")
        .script.replace("examples/crds/backups.kunion.dev.yaml", big)
        .replace("examples/evolution/backups.kunion.dev.yaml", big);
      expect(readFileSync(big).length).toBeGreaterThan(500_000);
      const { requests } = await run(script);
      expect(requests.map((r) => [r.status, JSON.parse(r.body)])).toEqual([[200, { findings: [] }]]);
    },
    60_000,
  );
});
