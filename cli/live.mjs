// live.mjs: what every command that calls the endpoint shares (ragjudge run, ragjudge checkup):
// the endpoint's options (the key from the environment, the base URL, concurrency, timeouts), and
// the page's engine judging the rows still to judge, built as the page builds it (batch/runner.js
// runnerFor: the same request bodies, retry policy, AIMD slots, repair request, both orders,
// outage watch and request cache). Only what touches the world is the command line's: fetch (to
// the endpoint, failures worded for a terminal), the store (the --out file, record.mjs), the key
// and the progress (progress.mjs), and signals (Ctrl+C stops and keeps what is done).

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { UsageError, number } from "./args.mjs";
import { Progress } from "./progress.mjs";
import { runnerFor, LiveRows, MemoryStore, RunState, failure, CallKind, ServerCode, KeySource, fmtInt, judgeLabel } from "./page.mjs";

/** DEFAULT_BASE_URL is where calls go without --base-url or $OPENAI_BASE_URL. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** NULL_BODY: statuses whose response has no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * endpointFetch is fetch for the engine's calls (llm.js chat): Node's own, with the whole body read
 * here, so that a connection refused or broken mid-answer is a network CallError worded for the
 * command line (chat retries it like any unreachable endpoint), not the page's "is the dev server
 * still running?".
 * @param {string} base the --base-url
 * @param {Record<string, string>} [headers] sent with every request besides the page's own (the dev server's token and upstream)
 * @returns {typeof fetch}
 */
export function endpointFetch(base, headers = {}) {
  let host = base;
  try {
    host = new URL(base).host;
  } catch {
    // kept as written
  }
  return /** @type {any} */ (
    async (/** @type {any} */ url, /** @type {any} */ init = {}) => {
      const { onStarted, ...rest } = init;
      // The dev server's headers (its access token) go to it alone, never to a jury's other judges.
      if (Object.keys(headers).length && String(url).startsWith(base.replace(/\/+$/, "") + "/")) rest.headers = { ...(rest.headers || {}), ...headers };
      try {
        const res = await fetch(url, rest);
        const body = NULL_BODY.has(res.status) ? null : await res.arrayBuffer();
        return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      } catch (e) {
        if (rest.signal && rest.signal.aborted) throw e;
        const err = /** @type {any} */ (e);
        const cause = err && err.cause ? [err.cause.code, err.cause.message].filter(Boolean).join(": ") : String((err && err.message) || err);
        throw failure(CallKind.NETWORK, `Could not reach ${host} (${cause})`, "check --base-url, and that the endpoint is up", { retryable: true });
      }
    }
  );
}

/**
 * @typedef {Object} Connection the endpoint and how it is called, from the options
 * @property {string} keyEnv the variable the key is read from
 * @property {string} key "" without one
 * @property {string} tokenEnv the variable a dev server's access token is read from
 * @property {Record<string, string>} headers the dev server's: its access token (Ragjudge-Token) and upstream (Ragjudge-Upstream), when given
 * @property {string} base the --base-url
 * @property {URL} url
 * @property {number} concurrency @property {number} timeoutS @property {number} attempts
 * @property {number} outageWait seconds an unreachable endpoint is waited for
 * @property {Map<string, string>} [judgeKeys] a jury's keys by endpoint (jury.mjs), set by ragjudge run
 */

/**
 * connection reads the endpoint's options, the key from the environment (made a secret: never
 * written from now on); a bad one is a UsageError.
 * @param {Record<string, any>} o the parsed options
 * @param {import("./main.mjs").IO} io
 * @returns {Connection}
 */
export function connection(o, io) {
  const keyEnv = o["key-env"] || "OPENAI_API_KEY";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new UsageError(`--key-env takes the name of an environment variable (letters, digits, _), not "${keyEnv}".`);
  const key = io.env[keyEnv] || "";
  if (o["key-env"] && !key) throw new UsageError(`--key-env ${keyEnv}: the environment has no ${keyEnv} (or it is empty).`);
  io.secret(key);
  // A shared ragjudge dev server's access token, as the server itself reads it (RAGJUDGE_TOKEN):
  // from the environment only, a secret as the key is.
  const tokenEnv = o["token-env"] || "RAGJUDGE_TOKEN";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv)) throw new UsageError(`--token-env takes the name of an environment variable (letters, digits, _), not "${tokenEnv}".`);
  const token = io.env[tokenEnv] || "";
  if (o["token-env"] && !token) throw new UsageError(`--token-env ${tokenEnv}: the environment has no ${tokenEnv} (or it is empty).`);
  io.secret(token);
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers["Ragjudge-Token"] = token;
  if (o.upstream !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(o.upstream)) throw new UsageError(`--upstream takes the name of one of the dev server's upstreams (its -upstream NAME=URL: letters, digits, '.', '_' and '-'), not "${o.upstream}".`);
    headers["Ragjudge-Upstream"] = o.upstream;
  }
  const base = String(o["base-url"] || io.env.OPENAI_BASE_URL || DEFAULT_BASE_URL);
  let url;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--base-url takes an http or https URL, such as ${DEFAULT_BASE_URL}, not "${base}".`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`--base-url takes an http or https URL, not ${url.protocol} (${base}).`);
  if (url.username || url.password) throw new UsageError("--base-url must not carry a user or password: the key goes in the environment (--key-env).");
  return {
    keyEnv,
    key,
    tokenEnv,
    headers,
    base,
    url,
    concurrency: number(o, "concurrency", { min: 1, max: 64, int: true }) ?? 8,
    timeoutS: number(o, "timeout", { min: 1, max: 3600 }) ?? 60,
    attempts: number(o, "attempts", { min: 1, max: 20, int: true }) ?? 5,
    outageWait: number(o, "outage-wait", { min: 0, max: 86400 }) ?? 600,
  };
}

/**
 * heldMessage says, for the command line, why every row would fail alike (a refused key, an
 * unknown model or path: the page holds the run and waits for Model settings to change).
 * @param {any} e the CallError @param {Connection} conn @param {string} model
 */
function heldMessage(e, { keyEnv, key, tokenEnv, headers, base, judgeKeys }, model) {
  // A jury's judges call several endpoints: the error is one judge's, which this cannot name.
  if (judgeKeys) return `A judge of the jury could not be asked, and every row would fail alike: ${e.message}${e.detail ? ` The endpoint said: ${e.detail}` : ""} Check --model at --base-url (its key in ${keyEnv}) and each --judge MODEL@URL (its key in the variable after #). No row was judged by it.`;
  if (e.kind === CallKind.NO_KEY) return `${base} needs an API key, and ${keyEnv} is not set: put the key in it (in CI, from a secret), or name the variable that holds it with --key-env. No call was made.`;
  const said = e.detail ? ` The endpoint said: ${e.detail}` : "";
  // A 401 says what was refused: the dev server's access token (its own error codes), or the key
  // the dev server says the call went upstream with (Ragjudge-Key), else this command's key.
  if (e.status === 401 && e.code === ServerCode.TOKEN_REQUIRED)
    return `${base} is a shared ragjudge dev server and needs its access token (401): put the token of the address it printed at its start (…/?token=TOKEN) in ${tokenEnv}${tokenEnv === "RAGJUDGE_TOKEN" ? ", or name its variable with --token-env" : ""}. No model was called.`;
  if (e.status === 401 && e.code === ServerCode.INVALID_TOKEN)
    return `${base} refused the access token in ${tokenEnv} (401): it is not this dev server's (it makes a new one at each start unless given -token); put the one of the address it printed in ${tokenEnv}. No model was called.`;
  if (e.status === 401 && e.key === KeySource.SERVER) return `${base} is a dev server whose own key (its OPENAI_API_KEY or -upstream-key-env) was refused upstream (401 Unauthorized): fix the server's key, or send yours in ${keyEnv}.${said}`;
  if (e.status === 401 && (e.key === KeySource.NONE || (!e.key && !key)))
    return `${base} refused the call without a key (401 Unauthorized): no key was sent${headers["Ragjudge-Token"] ? " (the dev server's access token was accepted)" : ""}; put it in ${keyEnv}, or name its variable with --key-env.${said}`;
  if (e.status === 401) return `${base} refused the key in ${keyEnv} (401 Unauthorized): check it.${said}`;
  if (e.status === 400 && e.code === ServerCode.UNKNOWN_UPSTREAM) return `${base} has no upstream named "${headers["Ragjudge-Upstream"] || ""}" (400): check --upstream.${said}`;
  if (e.status === 403) return `${base} does not allow this key to do this (403 Forbidden): check the key's permissions and --model.${said}`;
  return `${base} answered 404 Not Found: check --model "${model}" and --base-url (the API's base, ending in /v1 for most).${said}`;
}

/**
 * @typedef {Object} LiveEnd how a live run ended
 * @property {"done"|"cancelled"} state
 * @property {any} held the error that held the run (every row would fail alike), or null
 * @property {string} gaveUp why the endpoint was given up on, or ""
 * @property {string} interrupted the signal that stopped it, or ""
 */

/**
 * judgeLive judges rows todo of run c = {ev, run, items} with the page's engine, storing each
 * result in results (by row index) and appending it to record (with extra(r)'s fields) as it
 * comes. noun names a row in the messages ("row", "case").
 * @param {{ev: any, run: any, items: any[]}} c
 * @param {{rj: any, results: any[], todo: number[], record: import("./record.mjs").Record|null, extra: (r: any) => any, threshold: number|null,
 *   conn: Connection, io: import("./main.mjs").IO, noun?: string}} o
 * @returns {Promise<LiveEnd>}
 */
export async function judgeLive(c, { rj, results, todo, record, extra, threshold, conn, io, noun = "row" }) {
  const { base, url, key, headers, concurrency, timeoutS, attempts, outageWait } = conn;
  const live = new LiveRows();
  const cache = new MemoryStore();
  /** @type {any} */
  let runner = null;
  /** @type {any} */
  let held = null;
  let gaveUp = "";
  let interrupted = "";
  const progress = new Progress({ write: io.err, tty: io.tty, columns: io.columns }, () => ({
    total: c.items.length,
    results,
    live: live.snapshot(results),
    threshold,
    unstoredFailed: live.failedCalls(),
    pace: runner ? { ...runner.pace() } : null,
    running: !!runner && runner.state === RunState.RUNNING,
  }));
  const store = {
    putResult: async (/** @type {any} */ r) => {
      results[r.index] = r;
      if (record) record.append(r, extra(r));
    },
    flush: async () => {},
    cacheGet: (/** @type {string} */ k) => cache.cacheGet(k),
    cachePut: (/** @type {string} */ k, /** @type {any} */ v) => cache.cachePut(k, v),
    cacheKeys: () => cache.cacheKeys(),
  };
  /** @type {any} */
  let outageTimer = null;
  runner = runnerFor(/** @type {any} */ ({ ev: c.ev, run: c.run, items: c.items, live, results }), {
    rj,
    store,
    // What the page's key guard reads (keyguard.js): a direct endpoint; a call to a hosted one
    // without a key is not made, and the run is held (exit 2, saying which variable to set). A dev
    // server reached with its token decides the key itself (its own, or none for a local
    // upstream), as the page's guard lets a dev server with a key of its own decide: a 401 then
    // says which key was missing or refused (Ragjudge-Key). A jury's judges have keys of their own.
    st: /** @type {any} */ ({
      key,
      ...(headers["Ragjudge-Token"]
        ? { config: { server_key: true }, endpoint: () => ({ mode: "proxy", baseURL: base }) }
        : { config: null, endpoint: () => ({ mode: "direct", baseURL: base }) }),
      judgeKey: (/** @type {string} */ id) => (conn.judgeKeys && conn.judgeKeys.get(id)) || "",
    }),
    request: { endpoint: base },
    prefs: { useCache: true, timeoutS, attempts },
    todo,
    fresh: /** @type {any} */ (undefined),
    concurrency,
    calls: null,
    socket: undefined,
    fetch: endpointFetch(base, headers),
    onResult: (r) => {
      live.finish(r.index);
      progress.rowDone();
    },
    say: () => {}, // each retry: counted in the progress line's failed calls
    onPace: () => {},
    onHold: (e) => {
      held = e;
      runner.cancel();
    },
    onState: (st, reason) => {
      if (st === RunState.OUTAGE && reason && reason.by === "runner" && !outageTimer) {
        progress.say(`⚠ ${reason.message} (${base}; giving up after ${outageWait} s)`);
        outageTimer = setTimeout(() => {
          gaveUp = reason.error && reason.error.message ? reason.error.message : reason.message;
          runner.cancel();
        }, outageWait * 1000);
      } else if (st === RunState.RUNNING && reason && reason.by === "runner" && outageTimer) {
        clearTimeout(outageTimer);
        outageTimer = null;
        progress.say(reason.message);
      }
    },
  });
  live.attach(runner, todo);
  const onSignal = (/** @type {string} */ sig) => {
    if (interrupted) {
      io.err(`\n${sig} again: quitting now; ${record ? `${record.path} keeps every ${noun} finished so far.` : "nothing is kept without --out."}\n`);
      process.exit(sig === "SIGTERM" ? 143 : 130);
    }
    interrupted = sig;
    progress.say(`${sig}: stopping; the calls in flight are cancelled and what is done is kept (${sig === "SIGINT" ? "Ctrl+C" : sig} again quits at once).`);
    runner.cancel();
  };
  const onInt = () => onSignal("SIGINT");
  const onTerm = () => onSignal("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  const judges = Array.isArray(c.run.settings.judges) && c.run.settings.judges.length > 1 ? c.run.settings.judges.map((/** @type {any} */ j) => judgeLabel(j)) : null;
  const by = judges ? `a jury of ${judges.join(", ")} (${c.run.settings.jury.rule})` : `${c.run.settings.model} at ${url.host}`;
  io.err(`Judging ${fmtInt(todo.length)} ${noun}${todo.length === 1 ? "" : "s"} with ${c.ev.id} on ${by}, ${concurrency} at a time.\n`);
  progress.start();
  let end;
  try {
    end = await runner.start();
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    if (outageTimer) clearTimeout(outageTimer);
    progress.stop();
  }
  return { state: end === RunState.DONE ? "done" : "cancelled", held, gaveUp, interrupted };
}

/**
 * liveExit is what follows a live run once its files are written: a UsageError for a run held
 * (the key, the model, the path) or given up on (the endpoint unreachable), the exit code of an
 * interrupted one, else null (the gates decide).
 * @param {LiveEnd} end @param {Connection} conn
 * @param {{model: string, out?: string, done: number, total: number, noun?: string, io: import("./main.mjs").IO}} o
 * @returns {number|null}
 */
export function liveExit(end, conn, { model, out, done, total, noun = "row", io }) {
  if (end.held) throw new UsageError(heldMessage(end.held, conn, model));
  if (end.gaveUp) throw new UsageError(`${conn.base} could not be reached for ${conn.outageWait} s, so the run stopped: ${end.gaveUp}${out ? ` The same command goes on from ${out}.` : ""}`);
  if (!end.interrupted) return null;
  io.err(`Interrupted: ${fmtInt(done)} of ${fmtInt(total)} ${noun}s done.` + (out ? ` Run the same command again to go on from ${out}.\n` : " Without --out nothing is kept.\n"));
  return end.interrupted === "SIGTERM" ? 143 : 130;
}
