// outage.js: tells an outage from a flaky call, and paces the probes while one lasts. A run whose
// every call fails to reach the dev server or the endpoint (network errors, timeouts, 502/503/504)
// would otherwise burn each row's attempts in turn and end with a table of errors; the Runner
// (scheduler.js) pauses itself instead when OutageWatch says so, probes at growing intervals, and
// goes on when the endpoint answers.
//
// The rule: since the last answer from the endpoint (any answer, even a 400 or a 429: it was
// reached), unreachable failures came from at least `rows` distinct rows (fewer when fewer calls
// may be out: with a concurrency of one, one row is all there is to see), and either they have gone on
// for `afterMs`, or a row has run out of attempts. One row failing while others are answered is a
// flaky call, not an outage: the others' answers keep ending the streak. Right after an outage
// (half-open), the first unreachable failure before any answer is an outage again at once.
//
// A probe can be answered while calls still fail (the last row of a run whose request breaks the
// connection; an Azure dev server answers GET models itself while Azure is down). So after
// `maxFalseRecoveries` recoveries in a row that no call confirmed, the watch stands down until a
// call is answered: failures then end rows as errors, as they would without it, and the run ends.

/**
 * @typedef {object} OutageConfig
 * @property {number} afterMs       failures for this long, with no answer between, are an outage
 * @property {number} rows          …from at least this many rows (or every row with a call out)
 * @property {number} probeBaseMs   the first probe after an outage starts; each next one waits twice as long…
 * @property {number} probeMaxMs    …up to this
 * @property {number} probeTimeoutMs one probe's own timeout
 * @property {number} maxFalseRecoveries recoveries no call confirmed before the watch stands down
 */

/** DEFAULT_OUTAGE: 5 s of failures from 3 rows; probes after 2, 4, 8 … s, at most a minute apart. */
export const DEFAULT_OUTAGE = Object.freeze({ afterMs: 5_000, rows: 3, probeBaseMs: 2_000, probeMaxMs: 60_000, probeTimeoutMs: 10_000, maxFalseRecoveries: 2 });

/** OutageWatch keeps the streak of unreachable failures and the probe schedule of one run. */
export class OutageWatch {
  /**
   * @param {Partial<OutageConfig>} cfg
   * @param {{now(): number, setTimeout(fn: () => void, ms: number): any, clearTimeout(id: any): void}} clock
   */
  constructor(cfg, clock) {
    /** @type {OutageConfig} */
    this.cfg = { ...DEFAULT_OUTAGE, ...(cfg || {}) };
    this.clock = clock;
    this.streak = null; // {since, rows: Set, casualties: Set} while failures go unanswered
    this.halfOpen = false;
    this.probes = 0; // probes made in the current outage
    this.timer = null;
    this.falseRecoveries = 0; // recoveries in a row that the next call did not confirm
    this.standDown = false;
  }

  /** answered: the endpoint answered a call; the streak (and a half-open state) ends. */
  answered() {
    this.streak = null;
    this.halfOpen = false;
    this.falseRecoveries = 0;
    this.standDown = false;
  }

  /**
   * failed records an unreachable failure of row index and says whether the run is now in an
   * outage. final: the row ran out of attempts (if no outage, it ends as an error row, and is put
   * back in the queue should an outage be declared before the streak ends). calling: how many
   * rows may have a call out (the run's concurrency).
   * @param {number} index
   * @param {{final: boolean, calling: number}} o
   * @returns {boolean}
   */
  failed(index, { final, calling }) {
    if (this.standDown) return false;
    if (this.halfOpen) {
      this.halfOpen = false;
      if (++this.falseRecoveries < this.cfg.maxFalseRecoveries) return true;
      this.standDown = true;
      return false;
    }
    const now = this.clock.now();
    const s = (this.streak ||= { since: now, rows: new Set(), casualties: new Set() });
    s.rows.add(index);
    const need = Math.max(1, Math.min(this.cfg.rows, calling));
    if (s.rows.size >= need && (final || now - s.since >= this.cfg.afterMs)) return true;
    if (final) s.casualties.add(index);
    return false;
  }

  /**
   * trip starts an outage: it returns the rows that ran out of attempts during the streak (to be
   * run again) and forgets the streak.
   * @returns {number[]}
   */
  trip() {
    const rows = this.streak ? [...this.streak.casualties] : [];
    this.streak = null;
    this.halfOpen = false;
    if (!this.falseRecoveries) this.probes = 0; // after a false recovery the probes keep growing apart
    return rows;
  }

  /** nextDelay is the wait before the next probe: probeBaseMs doubling, at most probeMaxMs. */
  nextDelay() {
    return Math.min(this.cfg.probeMaxMs, this.cfg.probeBaseMs * 2 ** Math.min(this.probes, 30));
  }

  /**
   * probeUntil probes after growing delays while stillOut() holds: probe() resolves true when the
   * endpoint can be reached. waiting(nextProbeAt) is told when each probe is scheduled (clock
   * time), answered() once one is answered; a probe that throws counts as not answered.
   * @param {{probe: () => Promise<boolean>, stillOut: () => boolean, waiting: (nextProbeAt: number) => void, answered: () => void}} o
   */
  probeUntil(o) {
    this.stop();
    const delay = this.nextDelay();
    this.timer = this.clock.setTimeout(async () => {
      this.timer = null;
      if (!o.stillOut()) return;
      const ok = await o.probe().catch(() => false);
      this.probes++;
      if (!o.stillOut()) return;
      if (!ok) return this.probeUntil(o);
      this.recovered();
      o.answered();
    }, delay);
    o.waiting(this.clock.now() + delay);
  }

  /** stop cancels a scheduled probe. */
  stop() {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** recovered: a probe was answered; the run goes on, half-open until a call is answered. */
  recovered() {
    this.stop();
    this.streak = null;
    this.halfOpen = true;
  }
}
