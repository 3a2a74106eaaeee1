#!/usr/bin/env node
/**
 * The `kunion` executable (bundled to dist/kunion.js, the package's `bin`): refuses a Node.js
 * older than package.json's `engines` with one line and exit code 2, else starts the CLI
 * (bin.ts, bundled to dist/kunion-cli.js).
 *
 * The CLI bundle imports what only Node.js 24 has (`globSync` from node:fs); an ES module's
 * static imports are linked before any of its code runs, so on an older Node that bundle
 * fails with a SyntaxError before it could say why. This file therefore imports nothing
 * statically and loads the CLI with a dynamic import, after the check.
 */

/** engines.node's major (">=24"); test/cli/node-version.test.ts runs this file on both sides of engines' bound. */
const neededMajor = 24;
const running = process.versions.node;
if (Number(running.split(".")[0]) < neededMajor) {
  process.stderr.write(`kunion needs Node.js ${neededMajor} or later; this is Node.js ${running}\n`);
  process.exitCode = 2;
} else {
  // V8's compiled code for the 2 MB CLI bundle, kept between runs (as TypeScript's tsc keeps its own):
  // a run that repeats on one machine, as a pre-commit hook's does, takes about 15% less time (a small
  // validate: 181 -> 155 ms). Node keeps it under the temporary folder, or NODE_COMPILE_CACHE;
  // NODE_DISABLE_COMPILE_CACHE turns it off.
  process.getBuiltinModule("node:module").enableCompileCache();
  // A variable, not a literal: esbuild leaves the import to run time, resolved beside this bundle.
  const cli = "./kunion-cli.js";
  await import(cli);
}
