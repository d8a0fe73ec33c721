// main.mjs: the ragjudge command: its commands, how what it writes is kept free of the key, and
// how an outcome becomes the exit code (0 the gates hold, 1 a gate fails, 2 bad usage or input,
// 130 interrupted, 70 a failure of ragjudge itself). Run by node (`node cli/main.mjs run …`) it is
// the command, as ragjudge.mjs, the package's bin, is (cli).
//
// COMMANDS is where a command is added: a function (argv, io) => exit code, its options in
// args.mjs OPTIONS and its --help in HELP, its gates in gates.mjs GATES.

import { readFileSync } from "node:fs";
import { setMaxListeners } from "node:events";
import { isEntry } from "./entry.mjs";
import { HELP, UsageError } from "./args.mjs";
import { run } from "./run.mjs";
import { checkup } from "./checkup.mjs";
import { importCommand, exportBatchCommand } from "./batchfile.mjs";

/**
 * @typedef {Object} IO what a command reads and writes besides files
 * @property {(text: string) => void} out  results (stdout)
 * @property {(text: string) => void} err  progress and messages (stderr)
 * @property {Record<string, string|undefined>} env
 * @property {boolean} tty  stderr is a terminal: the progress line is redrawn in place
 * @property {number} [columns]
 * @property {(secret: string) => void} secret  never write this text anywhere from now on
 * @property {(text: string) => string} redact  text with every secret replaced
 */

/** @type {Record<string, (argv: string[], io: IO) => Promise<number>>} */
export const COMMANDS = {
  run,
  checkup,
  import: importCommand,
  "export-batch": exportBatchCommand,
};

/** MIN_SECRET: a secret shorter than this is not looked for (it would match ordinary text). */
const MIN_SECRET = 8;

/** REDACTED replaces a secret wherever it would be written. */
export const REDACTED = "[redacted]";

/**
 * redactor keeps the secrets a run must never write (the key) and removes them from any text.
 * @returns {{add: (s: string) => void, redact: (t: string) => string}}
 */
export function redactor() {
  /** @type {string[]} */
  const secrets = [];
  return {
    add(s) {
      if (typeof s === "string" && s.length >= MIN_SECRET && !secrets.includes(s)) secrets.push(s);
    },
    redact(t) {
      let out = String(t);
      for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
      return out;
    },
  };
}

/** version is the package's version. */
function version() {
  return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
}

/**
 * main runs the command argv names and resolves to its exit code.
 * @param {string[]} argv the arguments after `ragjudge`
 * @param {{env: Record<string, string|undefined>, stdout: {write: (s: string) => any, isTTY?: boolean}, stderr: {write: (s: string) => any, isTTY?: boolean, columns?: number}}} sys
 * @returns {Promise<number>}
 */
export async function main(argv, sys) {
  const r = redactor();
  /** @type {IO} */
  const io = {
    out: (t) => void sys.stdout.write(r.redact(t)),
    err: (t) => void sys.stderr.write(r.redact(t)),
    env: sys.env,
    tty: !!sys.stderr.isTTY,
    columns: sys.stderr.columns,
    secret: (s) => r.add(s),
    redact: (t) => r.redact(t),
  };
  // The page's modules warn on the console (a cache write that failed): through the same filter.
  for (const k of /** @type {const} */ (["log", "info", "warn", "error"])) {
    console[k] = (...a) => io.err(a.map((x) => (x instanceof Error ? x.stack || x.message : typeof x === "string" ? x : JSON.stringify(x))).join(" ") + "\n");
  }
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === "--help" || cmd === "-h" || cmd === "help") {
    io.out(HELP[""]);
    return cmd ? 0 : 2;
  }
  if (cmd === "--version" || cmd === "-v") {
    io.out(version() + "\n");
    return 0;
  }
  const command = COMMANDS[cmd];
  if (!command) {
    io.err(`ragjudge: no command "${cmd}"; the commands are ${Object.keys(COMMANDS).join(", ")} (ragjudge --help).\n`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`✗ ${e.message}\n`);
      return 2;
    }
    io.err(`✗ ragjudge ${cmd} failed: ${(e && /** @type {any} */ (e).stack) || e}\n`);
    return 70;
  }
}

/**
 * cli runs the command as a process: its arguments, environment and streams, and its exit code.
 * @returns {Promise<void>}
 */
export async function cli() {
  // Every call waiting for a slot or in flight listens to the run's one AbortSignal (llm.js), so a
  // run with repeats or both orders has more listeners on it than Node's leak warning allows (10):
  // no leak, the listeners go with their calls. The warning would only clutter a CI log.
  setMaxListeners(0);
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 20) {
    process.stderr.write(`ragjudge needs Node.js 20 or later; this is ${process.version}.\n`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = await main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
}

if (isEntry(import.meta.url)) await cli();
