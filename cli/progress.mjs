// progress.mjs: how a run tells its progress: the page's progress line (results/summarywords.js
// progressLine over results/counts.js runCounts, with the rows in flight from batch/live.js), redrawn in
// place on a terminal, or written as a plain line every so often (a CI log) with what changed in
// between (a hold, an outage, the run going on).

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { progressLine, rate, runCounts } from "./page.mjs";

/** TTY_MS: how often the line is redrawn on a terminal. */
const TTY_MS = 250;
/** PLAIN_MS: at most one plain progress line this often… */
const PLAIN_MS = 10_000;
/** PLAIN_STEP: …unless this share of the rows has finished since the last one. */
const PLAIN_STEP = 0.1;

export class Progress {
  /**
   * @param {{write: (text: string) => void, tty: boolean, columns?: number}} out where the lines go
   * @param {() => {total: number, results: any[], live: Map<number, any>, threshold: number|null, unstoredFailed: number, pace: any, running: boolean}} snapshot
   */
  constructor(out, snapshot) {
    this.out = out;
    this.snapshot = snapshot;
    /** @type {number[]} */
    this.doneTimes = [];
    this.startedAt = performance.now();
    this.timer = null;
    this.lastPlain = 0;
    this.lastDone = -1;
    this.drawn = false;
  }

  start() {
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.tick(), this.out.tty ? TTY_MS : 1000);
    this.timer.unref?.();
  }

  /** rowDone notes a row finishing now, for the rate. */
  rowDone() {
    this.doneTimes.push(performance.now());
  }

  /** line is the progress line as the page words it. */
  line() {
    const s = this.snapshot();
    const c = runCounts({ total: s.total, results: s.results, live: s.live, threshold: s.threshold, unstoredFailed: s.unstoredFailed });
    const now = performance.now();
    return { c, text: progressLine(c, s.running ? rate(this.doneTimes, this.startedAt, now) : null, s.running ? s.pace : null) };
  }

  tick() {
    const { c, text } = this.line();
    if (this.out.tty) {
      const width = Math.max(20, (this.out.columns || 100) - 1);
      this.out.write("\r\x1b[2K" + (text.length > width ? text.slice(0, width - 1) + "…" : text));
      this.drawn = true;
      return;
    }
    const now = performance.now();
    const step = Math.max(1, Math.ceil(c.total * PLAIN_STEP));
    if (c.done === this.lastDone) return;
    if (now - this.lastPlain < PLAIN_MS && c.done - this.lastDone < step && c.remaining > 0) return;
    this.lastPlain = now;
    this.lastDone = c.done;
    this.out.write(text + "\n");
  }

  /** say writes a line of its own (a hold, an outage), not overwritten by the next progress line. */
  say(text) {
    if (this.out.tty && this.drawn) this.out.write("\r\x1b[2K");
    this.drawn = false;
    this.out.write(text + "\n");
  }

  /** stop ends the redrawing and writes the last line. */
  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const { text } = this.line();
    if (this.out.tty && this.drawn) this.out.write("\r\x1b[2K");
    this.drawn = false;
    this.out.write(text + "\n");
  }
}
