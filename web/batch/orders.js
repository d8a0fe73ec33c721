// orders.js: a pairwise row judged in both orders ("judge both orders", and a check-up's
// position-swap case): as it is, and with its two answers exchanged (the judge's swap, the core's
// rj.swapOrders). Each order is a judgement of its own (its call, its one repair request, its
// cache entry: the two orders' prompts differ, so do their keys), and the two verdicts become the
// row's through the judge's combine (the core's rj.combineOrders): the actual output's grade when
// the orders agree, else undetermined with position.flip. The scheduler (scheduler.js) asks for it in
// place of judgeOnce, per row or per repeat of a row; the row's answers are the first order's
// (the combined verdict is read from them), and `orders` keeps both.

import { CallError } from "../model/callerror.js";
import { RowErrorKind } from "./states.js";
import { renderRow, messageOf } from "./rowresult.js";
import { judgeOnce, failedRepeat, firstFailure } from "./judging.js";

/**
 * @typedef {{verdict: any, answers: string[], repaired: boolean, error?: import("./rowresult.js").RowError}} Order
 *   one order of a row judged in both: its verdict as parsed, its answers, whether a repair request was
 *   made; an order whose call failed has no verdict and its error
 */

/**
 * swapped is item with its two answers exchanged, through the judge's swap; a judge that cannot
 * exchange them (an evaluator that compares no two answers) makes it a render error of the row.
 * @param {{swap?: (inputs: any) => any}} judge
 * @param {any} item
 */
export function swapped(judge, item) {
  try {
    if (typeof judge.swap !== "function") throw new Error("this judge compares no two answers");
    return { ...item, inputs: judge.swap(item.inputs) };
  } catch (e) {
    throw new CallError("The two answers could not be exchanged: " + ((e && /** @type {any} */ (e).detail) || messageOf(e)), { kind: RowErrorKind.RENDER });
  }
}

/**
 * combined is the row's verdict from its two orders' verdicts, through the judge's combine; a
 * throw is a row error of kind parse, as a verdict that cannot be computed is.
 * @param {{combine?: (first: any, second: any) => any}} judge
 * @param {any} first
 * @param {any} second
 */
export function combined(judge, first, second) {
  try {
    if (typeof judge.combine !== "function") throw new Error("this judge cannot combine two orders");
    return judge.combine(first, second);
  } catch (e) {
    throw new CallError("The two orders' verdicts could not be combined: " + ((e && /** @type {any} */ (e).detail) || messageOf(e)), { kind: RowErrorKind.PARSE });
  }
}

/**
 * judgeOrders judges a row (repeat k of it) in both orders at once, as judgeOnce judges it in
 * one, and resolves to {verdict, answers, repaired, orders}: the combined verdict, the first
 * order's answers (pushed onto answers as they come), and both orders. An order that fails fails
 * the row (the error that puts the row back in the queue wins, else the first); both orders are
 * then left on at.orders, the failed one marked, for the row to keep, and the answered one is in
 * the cache, so running the row again pays only for the failed order.
 * @param {import("./scheduler.js").Runner} runner
 * @param {any} item
 * @param {{messages: {role: string, content: string}[]}} rendered the row's prompt as it is
 * @param {number} index @param {number} k
 * @param {import("./rowresult.js").RowResult} result
 * @param {Promise<unknown>[]} cacheWrites
 * @param {{stage: string, orders?: Order[]}} at
 * @param {string[]} [answers]
 * @returns {Promise<{verdict: any, answers: string[], repaired: boolean, orders: Order[]}>}
 */
export async function judgeOrders(runner, item, rendered, index, k, result, cacheWrites, at, answers = []) {
  const judge = runner.o.judge;
  const other = swapped(judge, item);
  const renderedOther = renderRow(judge, other.inputs);
  const ats = [{ stage: "call" }, { stage: "call" }];
  /** @type {string[][]} */
  const got = [answers, []];
  const settled = await Promise.allSettled([
    judgeOnce(runner, item, rendered, index, k, result, cacheWrites, ats[0], got[0]),
    judgeOnce(runner, other, renderedOther, index, k, result, cacheWrites, ats[1], got[1]),
  ]);
  /** @type {Order[]} */
  const orders = settled.map((s, n) => (s.status === "fulfilled" ? { verdict: s.value.verdict, answers: s.value.answers, repaired: s.value.repaired } : failedRepeat(s.reason, ats[n].stage, got[n])));
  const failed = settled.map((s, n) => (s.status === "rejected" ? { error: s.reason, stage: ats[n].stage } : null)).filter((f) => f !== null);
  if (failed.length) {
    const f = firstFailure(runner, failed);
    at.stage = f.stage;
    at.orders = orders;
    throw f.error;
  }
  return { verdict: combined(judge, orders[0].verdict, orders[1].verdict), answers: got[0], repaired: orders.some((x) => x.repaired), orders };
}
