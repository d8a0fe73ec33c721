#!/usr/bin/env node
// ragjudge.mjs: the `ragjudge` command (package.json bin). Everything is in main.mjs; this only
// hands it the process and sets the exit code.

import { setMaxListeners } from "node:events";
import { main } from "./main.mjs";

// Every call waiting for a slot or in flight listens to the run's one AbortSignal (llm.js), so a
// run with repeats or both orders has more listeners on it than Node's leak warning allows (10):
// no leak, the listeners go with their calls. The warning would only clutter a CI log.
setMaxListeners(0);

const major = Number(process.versions.node.split(".")[0]);
if (major < 20) {
  process.stderr.write(`ragjudge needs Node.js 20 or later; this is ${process.version}.\n`);
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
