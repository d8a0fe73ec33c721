// run.mjs: `ragjudge run`, the page's batch run in a terminal. The rows are set up as the Batch view
// sets them up (setup.mjs) and judged by the page's engine built as the page builds it
// (batch/buildrunner.js runnerFor: the same request bodies, retry policy, AIMD slots, repair request,
// outage watch and request cache); only what touches the world is the command line's: fetch (to
// the endpoint, failures worded for a terminal), the store (the --out file, record.mjs), the key
// (from the environment) and the progress (progress.mjs).

import { HELP, UsageError, parse, number, required } from "./args.mjs";
import { setup, requestOptions } from "./setup.mjs";
import { Record } from "./record.mjs";
import { Progress } from "./progress.mjs";
import { gatesAsked } from "./gates.mjs";
import { finishRun, rowExtra } from "./finish.mjs";
import { runnerFor, LiveRows, MemoryStore, RunState, todoIndices, failure, CallKind, fmtInt } from "./page.mjs";

/** DEFAULT_BASE_URL is where calls go without --base-url or $OPENAI_BASE_URL. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** NULL_BODY: statuses whose response has no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * endpointFetch is fetch for the engine's calls (model/llm.js chat): Node's own, with the whole body read
 * here, so that a connection refused or broken mid-answer is a network CallError worded for the
 * command line (chat retries it like any unreachable endpoint), not the page's "is the dev server
 * still running?".
 * @param {string} base the --base-url
 * @returns {typeof fetch}
 */
export function endpointFetch(base) {
  let host = base;
  try {
    host = new URL(base).host;
  } catch {
    // kept as written
  }
  return /** @type {any} */ (
    async (/** @type {any} */ url, /** @type {any} */ init = {}) => {
      const { onStarted, ...rest } = init;
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
 * heldMessage says, for the command line, why every row would fail alike (a refused key, an
 * unknown model or path: the page holds the run and waits for Model settings to change).
 * @param {any} e the CallError @param {{keyEnv: string, key: string, model: string, base: string}} o
 */
function heldMessage(e, { keyEnv, key, model, base }) {
  if (e.kind === CallKind.NO_KEY) return `${base} needs an API key, and ${keyEnv} is not set: put the key in it (in CI, from a secret), or name the variable that holds it with --key-env. No call was made.`;
  const said = e.detail ? ` The endpoint said: ${e.detail}` : "";
  if (e.status === 401) return `${base} refused the key (401 Unauthorized): ${key ? `check ${keyEnv}` : `no key was sent: put it in ${keyEnv}, or name its variable with --key-env`}.${said}`;
  if (e.status === 403) return `${base} does not allow this key to do this (403 Forbidden): check the key's permissions and --model.${said}`;
  return `${base} answered 404 Not Found: check --model "${model}" and --base-url (the API's base, ending in /v1 for most).${said}`;
}

/**
 * run is `ragjudge run`; resolves to the exit code.
 * @param {string[]} argv
 * @param {import("./main.mjs").IO} io
 */
export async function run(argv, io) {
  const { values: o } = parse("run", argv);
  if (o.help) {
    io.out(HELP.run);
    return 0;
  }
  required("run", o, ["data", "model"]);
  const keyEnv = o["key-env"] || "OPENAI_API_KEY";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new UsageError(`--key-env takes the name of an environment variable (letters, digits, _), not "${keyEnv}".`);
  const key = io.env[keyEnv] || "";
  if (o["key-env"] && !key) throw new UsageError(`--key-env ${keyEnv}: the environment has no ${keyEnv} (or it is empty).`);
  io.secret(key);
  const base = String(o["base-url"] || io.env.OPENAI_BASE_URL || DEFAULT_BASE_URL);
  let url;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--base-url takes an http or https URL, such as ${DEFAULT_BASE_URL}, not "${base}".`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`--base-url takes an http or https URL, not ${url.protocol} (${base}).`);
  if (url.username || url.password) throw new UsageError("--base-url must not carry a user or password: the key goes in the environment (--key-env).");
  const concurrency = number(o, "concurrency", { min: 1, max: 64, int: true }) ?? 8;
  const timeoutS = number(o, "timeout", { min: 1, max: 3600 }) ?? 60;
  const attempts = number(o, "attempts", { min: 1, max: 20, int: true }) ?? 5;
  const outageWait = number(o, "outage-wait", { min: 0, max: 86400 }) ?? 600;
  const threshold = number(o, "threshold") ?? null;
  requestOptions(o); // its options are checked before anything is read

  const s = await setup(o, (line) => io.err(line + "\n"));
  const gates = gatesAsked(o, { labels: s.labels });
  const req = requestOptions(o);
  s.run.settings = { endpoint: base, model: req.model, params: req.params, where: `direct → ${url.host}`, repeats: req.repeats };

  const record = o.out ? new Record(o.out, { run: s.run, items: s.items, columns: s.table.columns, rj: s.rj, ev: s.ev, threshold, redact: io.redact }) : null;
  const results = record ? await record.open() : new Array(s.items.length);
  if (record && record.resumed) io.err(`${o.out}: ${fmtInt(record.resumed)} of ${fmtInt(s.items.length)} rows already judged there; they are not asked again.\n`);
  const todo = todoIndices(s.items.length, results, { threshold });

  let state = "done";
  /** @type {any} */
  let held = null;
  let gaveUp = "";
  let interrupted = "";
  if (todo.length) {
    const live = new LiveRows();
    const cache = new MemoryStore();
    /** @type {any} */
    let runner = null;
    const progress = new Progress({ write: io.err, tty: io.tty, columns: io.columns }, () => ({
      total: s.items.length,
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
        if (record) record.append(r, rowExtra(s.labels, r, threshold));
      },
      flush: async () => {},
      cacheGet: (/** @type {string} */ k) => cache.cacheGet(k),
      cachePut: (/** @type {string} */ k, /** @type {any} */ v) => cache.cachePut(k, v),
      cacheKeys: () => cache.cacheKeys(),
    };
    /** @type {any} */
    let outageTimer = null;
    runner = runnerFor(/** @type {any} */ ({ ev: s.ev, run: s.run, items: s.items, live }), {
      rj: s.rj,
      store,
      // What the page's key guard reads (keyguard.js): a direct endpoint; a call to a hosted one
      // without a key is not made, and the run is held (exit 2, saying which variable to set).
      st: /** @type {any} */ ({ key, config: null, endpoint: () => ({ mode: "direct", baseURL: base }) }),
      request: { endpoint: base },
      prefs: { useCache: true, timeoutS, attempts },
      todo,
      retryFailed: false,
      concurrency,
      calls: null,
      socket: undefined,
      fetch: endpointFetch(base),
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
        io.err(`\n${sig} again: quitting now; ${o.out ? `${o.out} keeps every row finished so far.` : "nothing is kept without --out."}\n`);
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
    io.err(`Judging ${fmtInt(todo.length)} rows with ${s.ev.id} on ${req.model} at ${url.host}, ${concurrency} at a time.\n`);
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
    state = end === RunState.DONE ? "done" : "cancelled";
  }

  const ok = await finishRun({ s, results, state, threshold, record, report: o.report, gates, io });
  if (held) throw new UsageError(heldMessage(held, { keyEnv, key, model: req.model, base }));
  if (gaveUp) throw new UsageError(`${base} could not be reached for ${outageWait} s, so the run stopped: ${gaveUp}${o.out ? ` The same command goes on from ${o.out}.` : ""}`);
  if (interrupted) {
    io.err(`Interrupted: ${fmtInt(results.filter(Boolean).length)} of ${fmtInt(s.items.length)} rows done.` + (o.out ? ` Run the same command again to go on from ${o.out}.\n` : " Without --out nothing is kept.\n"));
    return interrupted === "SIGTERM" ? 143 : 130;
  }
  return ok ? 0 : 1;
}

