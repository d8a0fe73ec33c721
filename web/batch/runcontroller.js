// runcontroller.js: the run controller. It owns the open run (its rows, results and Runner), starts, pauses,
// resumes, cancels and deletes runs, keeps the run's record in the store up to date, and coordinates
// with other tabs (tabs.js): a run held by another tab is opened read-only and follows that tab's
// progress. Views read it (current, counts(), state()) and, in effects (lib/store.js), its signals:
//   opened: the open run as this tab holds it (null once deleted)   message: the line under the progress bar
//   counted, turned: bumped when its counts change (drawn soon) or its state (at once)   ended: {runId, state}
//   runs: bumped when run records change (the runs list)   protocol: bumped when the calls' protocol is known

import { openRunner } from "./buildrunner.js";
import { newRun, saveRun, loadRun, todoIndices, askedAfresh, Retry } from "./runrecords.js";
import { CallRoute } from "./callroute.js";
import { requestSettings } from "./endpoint.js";
import { LiveRows } from "./live.js";
import { busyWhile } from "../lib/busy.js";
import { runCounts } from "../results/counts.js";
import { claimRun, heldElsewhere, RunChannel } from "./tabs.js";
import { prefsOf, thresholdOf } from "./prefs.js";
import { runSettings } from "./repeatopts.js";
import { jurySettings, juryProblem } from "./judges.js";
import { runPace } from "./pace.js";
import { watchRun, applyNews, tellState, postLiveEvery } from "./watching.js";
import { runLabel } from "../stats/labels.js";
import { RunState } from "./states.js";
import { waitingForKey, runningText, restingState, going, storingNote, keyEntered } from "./openrun.js";
import { fmtInt } from "../lib/format.js";
import { signal, batch, onChange } from "../lib/store.js";

/** KEY_SETTLE_MS: a run waiting for a key goes on this long after the key last changed (a key typed, not pasted, is whole only at the end). */
const KEY_SETTLE_MS = 600;

const bump = (/** @type {import("../lib/store.js").Signal<number>} */ s) => (s.value = s.peek() + 1);

export class RunController {
  /**
   * evaluatorFor, when given, is the evaluator a stored run is shown and resumed with (a custom
   * evaluator's definition as the run recorded it: custom/registry.js forRun).
   * @param {{rj: Object, state: import("../shell/state.js").State, store: Object, byID: Map<string, Object>, evaluatorFor?: (run: any) => any}} ctx
   */
  constructor({ rj, state, store, byID, evaluatorFor }) {
    this.rj = rj;
    this.st = state;
    this.store = store;
    this.byID = byID;
    this.evaluatorFor = evaluatorFor;
    /** @type {import("./openrun.js").OpenRun|null} */
    this.cur = null;
    /** @type {Map<string, import("./openrun.js").OpenRun>} runs this tab is running (their Runner is running or paused), by id */
    this.going = new Map();
    this.route = new CallRoute(state, () => this.protocolLearned());
    this.channel = new RunChannel((m) => this.onNews(m));
    /** @type {any} */
    this.keyTimer = 0;
    this.opened = signal(/** @type {{run: import("./openrun.js").OpenRun, readOnly: boolean} | null} */ (null));
    this.counted = signal(0);
    this.turned = signal(0);
    this.message = signal("");
    this.runs = signal(0);
    this.protocol = signal(0);
    this.ended = signal(/** @type {{runId: string, state: string} | null} */ (null));
    // A run waiting for a key goes on by itself once one is entered (or calls go where none is
    // needed: settings changed, or the dev server's config came, shell/settings.js watchServer).
    onChange(() => [state.key, state.judgeKeyed.value, state.get("settings"), state.config], () => {
      clearTimeout(this.keyTimer);
      this.keyTimer = setTimeout(() => keyEntered(this), KEY_SETTLE_MS);
    });
  }

  /** @returns {import("./openrun.js").OpenRun|null} */
  get current() {
    return this.cur;
  }

  /** show tells the views that the open run, or how this tab holds it, changed. */
  show() {
    const c = this.cur;
    if (c) batch(() => {
      this.opened.value = { run: c, readOnly: c.readOnly };
      this.message.value = c.message;
    });
  }

  /** changed tells the views the open run's counts changed; full: its state too, drawn at once. */
  changed(full) {
    bump(full ? this.turned : this.counted);
  }

  /** runsChanged tells the views that run records changed (the runs list). */
  runsChanged() {
    bump(this.runs);
  }

  /** say sets the open run's message line, and tells watching tabs when this tab runs it. */
  say(text, c = this.cur) {
    if (!c) return;
    c.message = text;
    if (c === this.cur) this.message.value = text;
    if (going(c.runner)) tellState(this.channel, c);
  }

  /**
   * state is the open run's state as this tab shows it (the running tab's, when watching). A run
   * this tab is not running (reopened, imported from a batch file) is never "idle": it is as its
   * record says it ended, done or cancelled, else paused (Resume goes on with it) while rows are
   * left and done when none is.
   */
  state() {
    const c = this.cur;
    if (!c) return RunState.IDLE;
    if (c.readOnly) return c.run.state || RunState.RUNNING;
    if (c.runner && c.runner.state !== RunState.IDLE) return c.runner.state;
    return restingState(c.run, c.results);
  }

  /** running: this tab has a Runner for the open run (Pause and Cancel act on it). */
  running() {
    return !!(this.cur && this.cur.runner && !this.cur.readOnly);
  }

  /** counts derives every count of the open run from this moment (counts.js). */
  counts() {
    const c = this.cur;
    if (!c) return null;
    const p = prefsOf(this.st);
    return runCounts({ total: c.run.total, results: c.results, live: c.live.snapshot(c.results), threshold: thresholdOf(p), priceIn: p.priceIn, priceOut: p.priceOut, unstoredFailed: c.live.failedCalls() });
  }

  /** callsCapped: calls through the dev server without a calls socket share a browser's 6 connections. */
  callsCapped() {
    return this.route.capped();
  }

  /** calls starts the call worker (callroute.js), once. */
  calls() {
    return this.route.worker();
  }

  /** browserLimit: the browser's limit on calls to a direct HTTP/1.1 endpoint, or null (callroute.js). */
  browserLimit() {
    return this.route.browserLimit();
  }

  protocolLearned() {
    for (const c of this.going.values()) if (c.runner && c.chosen) c.runner.setConcurrency(this.route.effective(c.chosen));
    bump(this.protocol);
    this.changed(false);
  }

  /**
   * pace is how many calls the open run has in flight at most now, of how many chosen, and why
   * fewer (summary.js RunPace); null when this tab does not run it.
   * @returns {import("../results/summarywords.js").RunPace | null}
   */
  pace() {
    const c = this.cur;
    if (!c || !c.runner || c.readOnly) return null;
    return runPace(c.runner, c.chosen, this.browserLimit());
  }

  /** warmUp gets ready for a run while the user is still looking at the mapping. */
  warmUp() {
    this.route.warmUp();
  }

  /**
   * startNew creates a run of what setup holds and runs it; resolves to an error message, or "".
   * checkup: a check-up's record (web/checkup/: its items are its cases), kept on the run.
   * @param {{name: string, table: Object, mapping: Object, label?: string, labelYes?: string, items: Object[], ev: Object, checkup?: Object}} s
   */
  async startNew(s) {
    const rs = requestSettings(this.st);
    if (rs.error) return rs.error;
    const juryError = juryProblem(this.st, prefsOf(this.st));
    if (juryError) return juryError;
    const run = newRun(
      { name: s.name, evaluator: s.ev.id, evaluatorSpec: s.ev.custom ? s.ev.spec : undefined, mapping: s.mapping, label: runLabel(s.label, s.labelYes), columns: s.table.columns, readErrors: (s.table.errors || []).slice(0, 200), settings: { ...runSettings(/** @type {any} */ (rs), prefsOf(this.st), s.ev), ...jurySettings(this.st, /** @type {any} */ (rs).request.model, prefsOf(this.st)) }, checkup: s.checkup },
      s.items,
    );
    // The claim is asked for before any other tab can see the run, so the run need not wait for it.
    const claim = claimRun(run.id);
    // The run starts from memory while its rows are written, so its first calls go out at once;
    // no result is stored before the run and its rows are (the store waits on created).
    const note = storingNote(this, run.id, s.items.length);
    const created = saveRun(this.store, run, s.items, { onProgress: note.progress });
    created.then(
      () => (note.end(), this.runsChanged()),
      (e) => {
        const c = this.going.get(run.id);
        if (c && c.runner) c.runner.cancel();
        if (c) this.say("✗ The run could not be stored in this browser, so it was stopped: " + ((e && e.message) || e), c);
      },
    );
    await this.open(run.id, { start: true, loaded: { run, items: s.items, results: new Array(s.items.length), created, claim } });
    return "";
  }

  /**
   * open shows run id (loaded from the store, or given as loaded) and with start runs it. A run
   * another tab holds opens read-only.
   * @param {string} id
   * @param {{start?: boolean, loaded?: any}} [opts]
   */
  async open(id, { start = false, loaded = null } = {}) {
    if (this.cur && this.cur.run.id === id && (going(this.cur.runner) || this.cur.readOnly)) return;
    if (this.cur && going(this.cur.runner)) this.pause();
    this.unwatch();
    if (this.going.has(id)) {
      this.cur = /** @type {import("./openrun.js").OpenRun} */ (this.going.get(id));
      this.show();
      this.changed(true);
      return;
    }
    loaded ||= await loadRun(this.store, id);
    if (!loaded) return;
    const ev = (this.evaluatorFor && this.evaluatorFor(loaded.run)) || this.byID.get(loaded.run.evaluator) || { id: loaded.run.evaluator, inputs: [] };
    /** @type {import("./openrun.js").OpenRun} */
    const c = { ...loaded, ev, runner: null, live: new LiveRows(), doneTimes: [], startedAt: 0, readOnly: false, message: "" };
    this.cur = c;
    if (!loaded.claim && (await heldElsewhere(id)) && this.cur === c) this.watch(c);
    this.show();
    this.changed(true);
    if (start && !c.readOnly) await this.resume();
  }

  /** watch makes c read-only: another tab runs it. This tab follows it, and takes over when that tab lets go. */
  watch(c) {
    watchRun(c, {
      store: this.store,
      stillOpen: () => this.cur === c,
      takenOver: (run) => {
        this.show();
        this.changed(true);
        this.runsChanged();
        // The tab that ran it went away mid-run: this one goes on with it, as after a reload.
        if (run.state === RunState.RUNNING) this.resume();
      },
    });
  }

  unwatch() {
    if (this.cur && this.cur.unwatch) this.cur.unwatch();
  }

  /** onNews takes in what the tab that runs a run tells the others. */
  onNews(msg) {
    const c = this.cur;
    if (msg.type === "state") this.runsChanged();
    if (!c) return;
    const news = applyNews(c, msg);
    if (news === "result" || news === "live") this.changed(false);
    else if (news === "state") {
      if (typeof msg.message === "string") this.say(msg.message, c);
      this.changed(true);
    }
  }

  /** persist writes c's state and counts to its record (never before its rows are stored); resolves when written. */
  persist(s, c = this.cur) {
    if (!c || c.readOnly) return Promise.resolve();
    c.run.state = s;
    c.run.finished = c.results.filter(Boolean).length;
    const run = { ...c.run };
    return (c.created || Promise.resolve())
      .then(() => this.store.putRun(run))
      .then(
        () => {
          this.runsChanged();
          tellState(this.channel, c);
        },
        () => {},
      );
  }

  /**
   * resume runs the open run's unfinished rows; retry (runrecords.js Retry) also its failed rows, or
   * its undetermined ones.
   * @param {string} [retry]
   */
  async resume(retry = Retry.NONE) {
    const c = this.cur;
    if (!c || c.readOnly) return;
    if (c.runner && [RunState.PAUSED, RunState.HELD, RunState.OUTAGE].includes(c.runner.state) && !retry) {
      c.runner.resume();
      this.persist(RunState.RUNNING, c);
      return;
    }
    if (going(c.runner)) return;
    // A new run's claim was asked for before the run was stored; otherwise the claim and the
    // worker are asked for at once (each takes a while).
    const fresh = c.claim;
    c.claim = null;
    const claim = fresh || claimRun(c.run.id);
    const calls = await busyWhile(this.calls()); // busy from here (offline.js): the worker's start can take a while
    const lock = fresh ? { held: true, release: () => claim.then((l) => l.release()) } : await claim;
    if (this.cur !== c || going(c.runner)) return lock.release();
    if (!lock.held) {
      this.watch(c);
      this.show();
      this.changed(true);
      return;
    }
    const p = prefsOf(this.st);
    const todo = todoIndices(c.run.total, c.results, { retry, threshold: thresholdOf(p) });
    if (!todo.length) {
      lock.release();
      this.persist(RunState.DONE, c);
      this.changed(true);
      return;
    }
    const rs = requestSettings(this.st);
    if (rs.error) {
      lock.release();
      this.say("✗ " + rs.error, c);
      this.persist(RunState.PAUSED, c);
      this.changed(true);
      return;
    }
    const runner = openRunner(this, c, { request: /** @type {{endpoint: string}} */ (rs.request), prefs: p, todo, fresh: askedAfresh(c.results, todo, retry), calls });
    c.runner = runner;
    c.chosen = p.concurrency;
    c.live.attach(runner, todo);
    this.going.set(c.run.id, c);
    if (fresh) {
      fresh.then((l) => {
        if (l.held) return;
        runner.cancel(); // another tab had it after all: it runs the run, this one watches
        this.watch(c);
        this.show();
      });
    }
    c.startedAt = performance.now();
    c.doneTimes = [];
    this.persist(RunState.RUNNING, c);
    this.say(runningText(retry, todo.length), c);
    this.changed(true);
    this.go(c, lock); // resume returns once the run is under way, not when it ends
  }

  /** go runs c's Runner to its end, then records how it ended and lets go of c's claim. */
  async go(c, lock) {
    const stopLivePosts = postLiveEvery(this.channel, c);
    try {
      const end = await busyWhile(c.runner.start()); // the service worker's precache waits (offline.js)
      await this.store.flush();
      this.going.delete(c.run.id);
      this.say(end === "done" ? `Finished: ${fmtInt(c.results.filter(Boolean).length)} of ${fmtInt(c.run.total)} rows have a verdict or an error.` : "Cancelled: unfinished rows can be resumed.", c);
      // The record says how the run ended before another tab may take the run over.
      await this.persist(end === "done" ? RunState.DONE : RunState.CANCELLED, c);
      this.ended.value = { runId: c.run.id, state: end };
    } finally {
      stopLivePosts();
      this.going.delete(c.run.id);
      lock.release();
    }
  }

  /** pause starts no new row; rows in flight finish. */
  pause() {
    const c = this.cur;
    if (!c || !c.runner || c.readOnly) return;
    c.runner.pause();
    this.persist(RunState.PAUSED, c);
    this.say("Paused: calls in flight finish, no new ones start.", c);
  }

  /** cancel aborts the calls in flight; unfinished rows can be resumed. */
  cancel() {
    const c = this.cur;
    if (!c || !c.runner || c.readOnly) return;
    c.runner.cancel();
    this.persist(RunState.CANCELLED, c);
  }

  /** waitingForKey tells whether the open run waits for a key (this tab runs it). */
  waitingForKey() {
    return waitingForKey(this.cur);
  }

  /** maxConcurrency is the most calls at once the page offers where calls go now (callroute.js). */
  maxConcurrency() {
    return this.route.maxConcurrency();
  }

  /** setConcurrency changes the open run's bound on calls in flight at once. */
  setConcurrency(n) {
    const c = this.cur;
    if (!c || !c.runner) return;
    c.chosen = n;
    c.runner.setConcurrency(this.route.effective(n));
  }

  /** remove deletes run id from the store, stopping it first when this tab runs it. */
  async remove(id) {
    const c = this.going.get(id);
    if (c && c.runner) c.runner.cancel();
    if (this.cur && this.cur.run.id === id) {
      if (this.cur.runner) this.cur.runner.cancel();
      this.unwatch();
      this.cur = null;
      this.opened.value = null;
    }
    await this.store.deleteRun(id);
    this.runsChanged();
  }
}
