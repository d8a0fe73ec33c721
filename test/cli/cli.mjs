// cli.mjs: what the command line's tests share: the ragjudge command run as a process (as CI runs
// it) or in this process (main(), for the many quick refusals), temporary folders, datasets whose
// rows say what the fake upstream (test/e2e/fake-upstream.mjs, the one stand-in) answers them, and
// waiting for conditions, never for time.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { after } from "node:test";
import { main } from "../../cli/main.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = join(ROOT, "cli", "ragjudge.mjs");

/** running are the processes started and not yet ended: a test that fails midway leaves none behind. */
const running = new Set();
after(() => {
  for (const c of running) c.kill("SIGKILL");
});

/** KEY is a key the tests send; it must never be written anywhere. */
export const KEY = "sk-ragjudge-test-" + Math.random().toString(36).slice(2, 12) + "-SECRET";

/** tmp makes a temporary folder, removed when the file's tests end. */
export function tmp(prefix = "ragjudge-cli-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * start runs `ragjudge …args` as a process in cwd; result() resolves to {code, signal, out, err}.
 * @param {string[]} args @param {{cwd?: string, env?: Record<string, string>, bin?: string}} [o]
 */
export function start(args, { cwd = ROOT, env = {}, bin = BIN } = {}) {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.on("exit", () => running.delete(child));
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const done = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, out, err })));
  return { child, result: () => /** @type {Promise<{code: number|null, signal: string|null, out: string, err: string}>} */ (done), output: () => out + err };
}

/** ragjudge runs the command to its end: {code, out, err}. */
export function ragjudge(args, o) {
  return start(args, o).result();
}

/**
 * inProcess runs main() here (no process to start): for refusals that never call anything.
 * @param {string[]} args @param {Record<string, string>} [env]
 */
export async function inProcess(args, env = {}) {
  let out = "";
  let err = "";
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  try {
    const code = await main(args, { env, stdout: { write: (s) => (out += s) }, stderr: { write: (s) => (err += s), isTTY: false } });
    return { code, out, err };
  } finally {
    Object.assign(console, saved);
  }
}

/** lines reads a JSONL file into its objects. */
export function jsonl(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** fileLines counts the complete lines of a file (0 when it does not exist). */
export function fileLines(path) {
  if (!existsSync(path)) return 0;
  return readFileSync(path, "utf8").split("\n").length - 1;
}

/** q quotes a CSV cell. */
export const q = (s) => '"' + String(s).replace(/"/g, '""') + '"';

/**
 * rowOf is the row number a prompt is about (its answer says "row-N"), or 0.
 * @param {string} prompt
 */
export function rowOf(prompt) {
  const m = /row-(\d+)\b/.exec(prompt);
  return m ? Number(m[1]) : 0;
}

/**
 * verdictFor is what the fake judge answers row r's answer-grounding prompt: "no" on every 3rd
 * row, an unreadable first answer on row 5 (the engine's one repair request then gets "yes"),
 * "yes" otherwise.
 * @param {string} prompt
 */
export function verdictFor(prompt) {
  if (prompt.includes("could not be read")) return "Yes";
  const r = rowOf(prompt);
  if (r === 5) return "The facts are many and varied, so it is hard to say.";
  return r % 3 === 0 ? "No" : "Yes";
}

/**
 * dataset is a CSV of n answer-grounding rows (RAGAS column names) with an id and a human label
 * that agrees with verdictFor except on row 2; with blank, row `blank` has no answer (an input
 * error, never sent).
 * @param {number} n @param {{blank?: number}} [o]
 */
export function dataset(n, { blank = 0 } = {}) {
  const lines = ["id,user_input,response,retrieved_contexts,human_label"];
  for (let r = 1; r <= n; r++) {
    const label = r === 2 ? "fail" : r % 3 === 0 ? "fail" : "pass";
    lines.push([`q${r}`, q(`Question ${r}: where is the Eiffel Tower?`), r === blank ? "" : q(`row-${r}: The Eiffel Tower is in Paris.`), q(JSON.stringify([`The Eiffel Tower stands in Paris (fact ${r}).`])), label].join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** chatCalls are the fake's chat completion requests. @param {any} fake */
export function chatCalls(fake) {
  return fake.requests.filter((r) => r.path === "/chat/completions");
}
