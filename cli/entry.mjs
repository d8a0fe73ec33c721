// entry.mjs: which modules of cli/ run the ragjudge command when node runs them: ragjudge.mjs (the
// package's bin) and main.mjs (the command's module, which people run by its name). Every other
// module of cli/ imports this one, so that `node cli/run.mjs …` refuses loudly (exit 2) rather
// than load, do nothing and exit 0, which a CI step would take for a pass.

import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** ENTRIES are the modules of cli/ that run the command when node runs them. */
export const ENTRIES = ["ragjudge.mjs", "main.mjs"];

/** ranFile is the file node was asked to run, its links resolved; "" when none (a REPL, node -e). */
function ranFile() {
  try {
    return process.argv[1] ? realpathSync(process.argv[1]) : "";
  } catch {
    return "";
  }
}

/**
 * isEntry says whether node was asked to run the module at url itself.
 * @param {string} url import.meta.url
 */
export function isEntry(url) {
  const ran = ranFile();
  return ran !== "" && ran === realpathSync(fileURLToPath(url));
}

const ran = ranFile();
if (ran && dirname(ran) === realpathSync(dirname(fileURLToPath(import.meta.url))) && !ENTRIES.includes(basename(ran))) {
  process.stderr.write(`✗ cli/${basename(ran)} is a part of the ragjudge command, not a command: run node cli/ragjudge.mjs COMMAND … (npx ragjudge COMMAND … once installed; ragjudge --help lists the commands).\n`);
  process.exit(2);
}
