// juryrow.js: how the batch engine judges one row by a jury: each judge (the Runner's
// opts.judges) judges the row as a run of one judge would (once, N repeats, both orders), through
// the Runner's ask under its own request, so the slots, retries, outage watch and cache apply
// per judge; then the core's jury (judge.jury, rj.jury) makes the row's verdict of theirs. A judge
// that fails fails the row, as a repeat does, and the row keeps what the other judges answered
// (they are in the cache: running the row again pays only the judge that failed).

import { judgeSingle, judgeRepeats, firstFailure } from "./judging.js";
import { newRowResult, failRow } from "./rowresult.js";

/**
 * @typedef {{judge: number, verdict: any, answers: string[], repaired: boolean, repeats?: any[], orders?: any[], error?: any}} JuryMember
 *   one judge's part of a row: its verdict (its repeats' majority when it judged several times), its
 *   answers, and its error when it failed
 * @typedef {{rule: string, pass_at?: number}} JuryRule
 */

/**
 * judgeBy is runner as one judge of its jury sees it: its asks go under judge j's request.
 * @param {any} runner @param {number} j
 * @returns {any} the Runner's part its judging uses (judging.js): o, stats, state, ask
 */
function judgeBy(runner, j) {
  return {
    o: runner.o,
    stats: runner.stats,
    get state() {
      return runner.state;
    },
    ask: (/** @type {any} */ messages, /** @type {number} */ index, /** @type {boolean} */ repair, /** @type {number} */ k) => runner.ask(messages, index, repair, k, j),
  };
}

/**
 * judgeJury judges row index by each of runner.o.judges at once and stores on result each
 * judge's part (result.jury.members) and the jury's verdict. Resolves as judgeSingle does.
 * @param {any} runner @param {any} item
 * @param {{messages: {role: string, content: string}[]}} rendered @param {number} index
 * @param {number} repeats @param {import("./rowresult.js").RowResult} result
 * @param {Promise<unknown>[]} cacheWrites
 * @param {any} once how one judgement is made: judging.js judgeOnce, or orders.js judgeOrders
 * @returns {Promise<{stage: string, error?: unknown}>}
 */
export async function judgeJury(runner, item, rendered, index, repeats, result, cacheWrites, once) {
  const o = runner.o;
  const parts = o.judges.map(() => newRowResult(result.runId, index));
  const settled = await Promise.all(
    parts.map((part, j) => {
      const by = judgeBy(runner, j);
      return repeats === 1 ? judgeSingle(by, item, rendered, index, part, cacheWrites, once) : judgeRepeats(by, item, rendered, index, repeats, part, cacheWrites, once);
    }),
  );
  /** @type {JuryMember[]} */
  const members = parts.map((part, j) => memberOf(part, j, settled[j]));
  for (const part of parts) addCounts(result, part);
  result.answers = members.flatMap((m) => m.answers);
  result.repaired = members.some((m) => m.repaired);
  const rule = juryRule(o.jury);
  result.jury = { rule: rule.rule, ...(rule.pass_at !== undefined ? { pass_at: rule.pass_at } : {}), members };
  const failed = settled.filter((s) => s.error !== undefined);
  if (failed.length) return firstFailure(runner, /** @type {{stage: string, error: unknown}[]} */ (failed));
  result.verdict = juryVerdict(o.judge.jury, members, rule);
  return { stage: "call" };
}

/**
 * memberOf is judge j's part of a row from what it left on its scratch result.
 * @param {import("./rowresult.js").RowResult} part @param {number} j @param {{stage: string, error?: unknown}} s
 * @returns {JuryMember}
 */
function memberOf(part, j, s) {
  /** @type {JuryMember} */
  const m = { judge: j, verdict: s.error === undefined ? part.verdict : null, answers: part.answers, repaired: part.repaired };
  if (part.repeats) m.repeats = part.repeats;
  if (part.orders) m.orders = part.orders;
  if (s.error !== undefined) {
    const scratch = { ...part };
    failRow(scratch, s.error, s.stage);
    m.error = scratch.error;
  }
  return m;
}

/**
 * addCounts adds a judge's calls, cached calls, attempts and tokens to the row's.
 * @param {import("./rowresult.js").RowResult} into @param {import("./rowresult.js").RowResult} part
 */
function addCounts(into, part) {
  into.calls += part.calls;
  into.cachedCalls += part.cachedCalls;
  into.attempts += part.attempts;
  into.usage = { prompt_tokens: into.usage.prompt_tokens + part.usage.prompt_tokens, completion_tokens: into.usage.completion_tokens + part.usage.completion_tokens };
}

/** JURY_RULES are the rules a jury may decide by (rj.jury's opts.rule). */
export const JURY_RULES = Object.freeze(["majority", "all", "any", "mean"]);

/**
 * juryRule is the run's rule, majority when it names none or one the core does not know.
 * @param {any} jury @returns {JuryRule}
 */
export function juryRule(jury) {
  const rule = jury && JURY_RULES.includes(jury.rule) ? jury.rule : "majority";
  const at = jury && typeof jury.pass_at === "number" && Number.isFinite(jury.pass_at) ? jury.pass_at : undefined;
  return rule === "mean" && at !== undefined ? { rule, pass_at: at } : { rule };
}

/**
 * juryVerdict is the verdict a row judged by a jury stores: passed, score and the jury's checks
 * (jury.tie, jury.undetermined) from the core's jury over the members' verdicts, and the verdict
 * and checks of the first member that agrees with it (none when none does: a tie), so that the
 * row opens on an answer that says what the row says, as a row's repeats do (results/majority.js).
 * @param {(verdicts: any[], opts: any) => any} jury the core's rj.jury
 * @param {JuryMember[]} members @param {JuryRule} rule
 */
export function juryVerdict(jury, members, rule) {
  const j = jury(
    members.map((m) => ({ passed: m.verdict ? (m.verdict.passed ?? null) : null, score: m.verdict && typeof m.verdict.score === "number" ? m.verdict.score : null })),
    rule,
  );
  // No judge agrees with an undetermined jury (a tie): the row then shows no judge's verdict as its own.
  const shown = members.find((m) => m.verdict && m.verdict.passed === j.passed);
  const checks = [...(j.checks || []), ...((shown && shown.verdict && shown.verdict.checks) || [])];
  return { passed: j.passed, score: j.score, verdict: shown && shown.verdict ? shown.verdict.verdict : null, checks, jury: { rule: j.rule, votes: j.votes, members: j.members } };
}
