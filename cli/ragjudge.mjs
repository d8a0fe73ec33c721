#!/usr/bin/env node
// ragjudge.mjs: the `ragjudge` command (package.json bin). Everything is in main.mjs; this only
// hands it the process and sets the exit code.

import { main } from "./main.mjs";

const major = Number(process.versions.node.split(".")[0]);
if (major < 20) {
  process.stderr.write(`ragjudge needs Node.js 20 or later; this is ${process.version}.\n`);
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
