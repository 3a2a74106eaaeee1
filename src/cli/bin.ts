#!/usr/bin/env node
/** The `kunion` executable (bundled to dist/kunion.js): process in, exit code out. */
import { run } from "./main.js";

process.exitCode = run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
});
