// batchmatch.js: the lines of a batch service's output file (and its error file) matched to the
// rows a batch file exported (batchfile.js), with the report of every line that answers none.

import { parseOutputLine, parseCustomId } from "./batchfile.js";

/** @typedef {import("./batchfile.js").OutputLine} OutputLine */

/**
 * @typedef {{where: string, customId?: string, message: string, request?: boolean}} Problem
 *   request: the line is a request of a batch input file (the export itself), not an answer
 * @typedef {{malformed: Problem[], unknown: Problem[], duplicate: Problem[], failed: Problem[], missing: number[],
 *   lines: number, matched: number, answered: number, foreign: Record<string, number>}} MatchReport
 *   missing: 0-based indices of exported rows no line answered; foreign: counts of custom_ids from other exports, by hash
 */

/**
 * Matcher takes the lines of an output file (and its error file) one by one and says which row
 * each answers, keeping the report of every line that answers none: malformed lines, unknown
 * custom_ids (not this page's, another export's, a row that was not exported, a repeat this run
 * does not have), duplicates (a second line for a row: the first answer is kept, but an answer
 * replaces an earlier failure), and lines that carry no answer (non-200, not run). Nothing is
 * dropped without a line in the report.
 */
export class Matcher {
  /**
   * @param {{hash: string, exported: Uint8Array, repeats?: number}} o  exported[i] is 1 for each row in the batch file
   */
  constructor({ hash, exported, repeats = 1 }) {
    this.hash = hash;
    this.exported = exported;
    this.repeats = repeats;
    /** @type {Map<number, {where: string, ok: boolean}>} key: index * repeats + repeat */
    this.taken = new Map();
    /** @type {MatchReport} */
    this.report = { malformed: [], unknown: [], duplicate: [], failed: [], missing: [], lines: 0, matched: 0, answered: 0, foreign: {} };
  }

  /**
   * take reads line text found at where ("results.jsonl:12") and returns what to do with it:
   * null (reported, or blank), or {index, repeat, line} to turn into that row's result (which
   * replaces an earlier one for the same row and repeat).
   * @param {string} text
   * @param {string} where
   * @returns {{index: number, repeat: number, line: OutputLine} | null}
   */
  take(text, where) {
    const parsed = parseOutputLine(text);
    if (!parsed) return null;
    const rep = this.report;
    rep.lines++;
    if ("malformed" in parsed) {
      const m = /** @type {any} */ (parsed);
      rep.malformed.push({ where, customId: m.customId, message: m.malformed, ...(m.request ? { request: true } : {}) });
      return null;
    }
    const line = /** @type {OutputLine} */ (parsed);
    const id = parseCustomId(line.customId);
    const unknown = (message) => (rep.unknown.push({ where, customId: line.customId, message }), null);
    if (!id) return unknown("not a custom_id this page wrote");
    if (id.hash !== this.hash) {
      rep.foreign[id.hash] = (rep.foreign[id.hash] || 0) + 1;
      return unknown("from another export (" + id.hash + ")");
    }
    if (id.index >= this.exported.length || !this.exported[id.index]) return unknown(`row ${id.index + 1} was not in the exported file`);
    const repeat = id.repeat ?? 0;
    if ((this.repeats > 1) !== (id.repeat !== null) || repeat >= this.repeats) {
      return unknown(this.repeats > 1 ? `this run judges each row ${this.repeats} times: a custom_id ends in :1 to :${this.repeats}` : "this run judges each row once: no repeat number");
    }
    const ok = line.status === 200;
    const key = id.index * this.repeats + repeat;
    const first = this.taken.get(key);
    if (first) {
      rep.duplicate.push({ where, customId: line.customId, message: `row ${id.index + 1} was already answered at ${first.where}` + (ok && !first.ok ? "; this answer replaces that failure" : "; kept the first") });
      if (first.ok || !ok) return null;
      rep.failed = rep.failed.filter((p) => p.where !== first.where);
    } else rep.matched++;
    this.taken.set(key, { where, ok });
    if (ok) rep.answered++;
    else rep.failed.push({ where, customId: line.customId, message: line.status ? `HTTP ${line.status}` + errorText(line) : "not run" + (line.error && line.error.code ? ` (${line.error.code})` : "") + errorText(line) });
    return { index: id.index, repeat, line };
  }

  /**
   * finish lists the exported rows (and repeats) no line answered, and returns the report.
   * @returns {MatchReport}
   */
  finish() {
    const missing = [];
    for (let i = 0; i < this.exported.length; i++) {
      if (!this.exported[i]) continue;
      for (let r = 0; r < this.repeats; r++) {
        if (!this.taken.has(i * this.repeats + r)) {
          missing.push(i);
          break;
        }
      }
    }
    this.report.missing = missing;
    return this.report;
  }

  /**
   * refusal says why the file is not this export's output (null when it is): none of its
   * custom_ids is this export's, and some are another export's or none is this page's.
   * @returns {string | null}
   */
  refusal() {
    const rep = this.report;
    if (rep.matched > 0) return null;
    const other = Object.keys(rep.foreign);
    if (other.length) {
      return `This output file answers another export (rj:${other[0]}), not the requests the dataset, evaluator, mapping, model and run options set up here make (rj:${this.hash}). Load the dataset and choose the evaluator, mapping, model and number of repeats it was exported with, then import it again.`;
    }
    if (rep.lines === 0) return "This file has no output lines.";
    if (rep.malformed.length && rep.malformed.every((p) => p.request)) {
      return "This is a batch input file (the requests Export as batch file writes), not the output of a batch: import the output file your batch service returned (and its error file, if there is one).";
    }
    return "None of this file's lines has a custom_id written by this page's batch export (rj:…): is it a batch output file of a ragjudge export?";
  }
}

/** errorText is a line's own words about its failure, for the report. @param {OutputLine} line */
function errorText(line) {
  const b = line.body;
  const msg = (b && b.error && typeof b.error.message === "string" && b.error.message) || (line.error && line.error.message) || "";
  return msg ? ": " + msg.slice(0, 200) : "";
}
