// jury.mjs: `ragjudge run --judge MODEL@URL[#VAR]`, repeatable: a jury, as the page's Batch view
// makes one (web/batch/judges.js, juryrow.js). The run's own --model at --base-url is judge 1;
// each --judge adds one at its base URL, and --jury-rule says how their verdicts make the row's.
// Each judge's key is read from the environment like the run's: the variable after "#", else the
// run's key when the judge calls the run's --base-url, else none (a local server needs none; a
// hosted one then holds the run, no call made). A key is never an argument.

import { UsageError } from "./args.mjs";
import { JURY_RULES, judgeLabel } from "./page.mjs";

/** SPEC reads one --judge: the model, then @ and the base URL, then #VAR for its key. */
const SPEC = /^(.+?)@(https?:\/\/[^#\s]+)(?:#([A-Za-z_][A-Za-z0-9_]*))?$/i;

/**
 * juryOf reads the --judge and --jury-rule options into the run's settings (judges and jury) and
 * each judge's key by its endpoint (judges.js keyId: "direct:" and its base URL); null without --judge.
 * @param {Record<string, any>} o the parsed options
 * @param {import("./live.mjs").Connection} conn the run's endpoint (judge 1's)
 * @param {string} model the run's --model
 * @param {import("./main.mjs").IO} io
 * @returns {{judges: any[], jury: {rule: string}, keys: Map<string, string>, names: string[]} | null}
 */
export function juryOf(o, conn, model, io) {
  const given = /** @type {string[]} */ (o.judge || []);
  if (o["jury-rule"] !== undefined && !given.length) throw new UsageError("--jury-rule: a jury needs a judge beside --model: add --judge MODEL@URL.");
  if (!given.length) return null;
  const rule = o["jury-rule"] === undefined ? "majority" : String(o["jury-rule"]);
  if (!JURY_RULES.includes(rule)) throw new UsageError(`--jury-rule takes ${JURY_RULES.join(", ")}, not "${rule}".`);
  if (given.length > 4) throw new UsageError(`--judge: a jury has at most 5 judges (--model and 4 more), not ${given.length + 1}.`);
  const base = conn.base.replace(/\/+$/, "");
  const keys = new Map([["direct:" + base, conn.key]]);
  const judges = [{ via: "direct", baseURL: base, model }];
  for (const g of given) {
    const m = SPEC.exec(String(g).trim());
    if (!m) throw new UsageError(`--judge takes MODEL@URL (the model, then the API's base URL: llama3@http://127.0.0.1:11434/v1), with #VAR after it for the variable that holds its key; not "${g}".`);
    let url;
    try {
      url = new URL(m[2]);
    } catch {
      throw new UsageError(`--judge ${g}: "${m[2]}" is not a URL.`);
    }
    if (url.username || url.password) throw new UsageError(`--judge ${g}: the URL must not carry a user or password: the key goes in the environment (#VAR).`);
    const baseURL = m[2].replace(/\/+$/, "");
    const id = "direct:" + baseURL;
    if (m[3]) {
      const key = io.env[m[3]] || "";
      if (!key) throw new UsageError(`--judge ${g}: the environment has no ${m[3]} (or it is empty).`);
      io.secret(key);
      if (keys.has(id) && keys.get(id) && keys.get(id) !== key) throw new UsageError(`--judge ${g}: ${baseURL} already has another key; one key per endpoint.`);
      keys.set(id, key);
    }
    judges.push({ via: "direct", baseURL, model: m[1] });
  }
  return { judges, jury: { rule }, keys, names: judges.map((j) => judgeLabel(j)) };
}
