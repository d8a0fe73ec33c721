// batch-agreement.test.mjs: agreement with human labels in real headless chromium, through the
// real dev server, against the fake upstream with its faults on (so rows end passed, failed,
// undetermined and in error). A 100-row CSV with a human_label column that disagrees with the
// judge on known rows, leaves some rows unlabelled and one unreadable: the label column must be
// proposed, the Agreement panel's numbers must be the core's (rj.agreement over the verdicts the
// fake gives, computed here in Node), during the run and after it; the Disagree filter, the row
// dialog and the exports must say the same; and the same run compared with a numeric column must
// give rj.correlation's numbers and a scatter of every scored row.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { load } from "../../web/ragjudge.js";
import { expectedStatus } from "./batch-upstream.mjs";
import { useBatchEnv, newBatchPage, setRunOptions, loadDataset, progress, runEnd, waitFor } from "./batch-env.mjs";
import { axeViolations } from "./axe.mjs";

const N = 100;
const env = useBatchEnv({ latencyMs: 30, faults: true });
const rj = await load();

/** judgeOf is what the fake makes the judge say of row r: true, false, null (undetermined) or "error". */
function judgeOf(r) {
  const s = expectedStatus(r);
  return s === "error" ? "error" : s === "undetermined" ? null : s === "passed";
}

/** The human label of row r: the judge's expected verdict, flipped on every 7th row; none on every
 * 25th; "maybe" (unreadable) on row 40; words varying with the row, in mixed case. */
function labelOf(r) {
  if (r % 25 === 0) return "";
  if (r === 40) return "maybe";
  const passes = (r % 3 !== 0) !== (r % 7 === 0);
  return [["Pass", "fail"], ["yes", "NO"], ["TRUE", "false"], ["1", "0"]][r % 4][passes ? 0 : 1];
}

/** A human score per row, for the numeric comparison: 0.1 to 1.0, unrelated to row 1's. */
const scoreOf = (r) => ((r * 37) % 10) / 10 + 0.1;
/** A human score on another scale than the judge's 0–1: 1 to 5 stars. */
const starsOf = (r) => 1 + ((r * 13) % 5);

/** q quotes a CSV cell. */
const q = (s) => '"' + String(s).replace(/"/g, '""') + '"';

function csv() {
  const lines = ["id,user_input,response,retrieved_contexts,human_label,human_score,human_stars"];
  for (let r = 1; r <= N; r++) {
    lines.push([`q${r}`, q(`Question ${r}: where is the Eiffel Tower?`), q(`row-${r}: The Eiffel Tower is in Paris.`), q(JSON.stringify([`The Eiffel Tower stands in Paris (fact ${r}).`])), labelOf(r), scoreOf(r).toFixed(1), starsOf(r)].join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** expected is what the core says of the labels against the fake's verdicts (rows in error left out). */
function expected() {
  const judge = [];
  const human = [];
  for (let r = 1; r <= N; r++) {
    const j = judgeOf(r);
    if (j === "error") continue;
    judge.push(j);
    const l = labelOf(r).toLowerCase();
    human.push(l === "" || l === "maybe" ? null : ["pass", "yes", "true", "1"].includes(l));
  }
  return rj.agreement(judge, human);
}

async function exported(page, fmt) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="batch-export-${fmt}"]`)]);
  return readFile(await download.path(), "utf8");
}

const panelData = (page) => page.locator('[data-ref="agreement-panel"]').evaluate((el) => ({ ...el.dataset }));

test("a human_label column: proposed, compared during and after the run; the panel's numbers are the core's", async () => {
  const { browser, serve } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 6 });
    await loadDataset(page, "labelled.csv", csv(), { mimeType: "text/csv" });

    // The label column is proposed from its name, and what it holds is said, with the unreadable cell by row.
    assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "human_label");
    const summary = page.locator('[data-ref="batch-label-summary"]');
    assert.equal(await summary.getAttribute("data-kind"), "boolean");
    assert.match(await summary.textContent(), /Proposed from its name\. 95 boolean labels \(\d+ pass, \d+ fail\), 4 rows without one; 1 unreadable/);
    assert.match(await page.textContent('[data-ref="batch-label-unreadable"]'), /row 40: “maybe”/);

    await page.click('[data-ref="batch-run"]');
    // During the run the panel already compares the rows judged so far (the hung rows keep it going
    // for at least the 2 s timeout).
    const during = await waitFor(async () => {
      const p = await progress(page);
      if (!p || p.state !== "running") return null;
      const panel = page.locator('[data-ref="agreement-panel"]');
      if (!(await panel.count())) return null;
      const d = await panelData(page);
      return Number(d.pending) > 0 && Number(d.compared) > 0 ? d : null;
    }, 30_000, "the panel during the run");
    assert.ok(Number(during.compared) < 95, `compared so far: ${during.compared}`);

    const end = await runEnd(page, 60_000);
    assert.equal(end.done, N, end.text);
    const want = expected();
    const shown = await waitFor(async () => {
      const d = await panelData(page);
      return d.pending === "0" ? d : null;
    }, 10_000, "the panel after the run");
    assert.equal(Number(shown.compared), want.compared);
    assert.equal(Number(shown.agree), want.agree);
    assert.equal(Number(shown.accuracy), want.accuracy);
    assert.equal(Number(shown.kappa), want.kappa);
    assert.deepEqual([Number(shown.kappaLo), Number(shown.kappaHi)], want.kappa_ci);
    assert.equal(Number(shown.precision), want.judge_fail_precision);
    assert.equal(Number(shown.recall), want.judge_fail_recall);
    assert.equal(Number(shown.undetermined), want.undetermined);
    assert.equal(Number(shown.noLabel), 4, "rows 25, 50, 75, 100");
    assert.equal(Number(shown.unreadable), 1, "row 40");
    assert.equal(Number(shown.errors), 2, "rows 5 and 55");
    // The disagreements are the rows built to disagree: every 7th row the judge decided and that has a label.
    const disagree = Array.from({ length: N }, (_, i) => i + 1).filter((r) => r % 7 === 0 && typeof judgeOf(r) === "boolean" && r % 25 !== 0 && r !== 40);
    assert.equal(want.compared - want.agree, disagree.length);

    // The confusion matrix: every cell, the undetermined column included.
    const cells = await page.$$eval('[data-ref="confusion-matrix"] [data-cell]', (tds) => Object.fromEntries(tds.map((td) => [td.dataset.cell, Number(td.dataset.count)])));
    assert.deepEqual(cells, want.matrix);
    assert.ok(want.matrix.nt + want.matrix.nf > 0, "the fake leaves some labelled rows undetermined");
    // κ in large type, with its interval and its meaning in words.
    const kappaCard = await page.textContent('[data-ref="agreement-kappa"]');
    assert.match(kappaCard, new RegExp(`κ ${Math.round(want.kappa * 100) / 100}`));
    assert.match(kappaCard, /-?[\d.]+ to [\d.]+Cohen.s kappa · 95% interval/);
    assert.match(kappaCard, /the judge agrees with your reviewers beyond chance: (slight|fair|moderate|substantial|almost perfect)$/);
    assert.equal(await page.textContent('[data-ref="agreement-kappa-ci"]'), `${Math.round(want.kappa_ci[0] * 100) / 100} to ${Math.round(want.kappa_ci[1] * 100) / 100}`);
    assert.match(await page.textContent('[data-ref="agreement-skipped"]'), /Left out: 4 without a label · 2 undetermined by the judge · 2 errors · 1 unreadable label \(row 40 “maybe”\)\./);
    // The panel passes axe (contrast included) in both themes.
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(page), [], `axe, ${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // The Disagree filter shows exactly those rows; a row opens with the label beside the verdict.
    await page.click('[data-ref="batch-filter-disagree"]');
    await page.waitForFunction((n) => document.querySelector('[data-ref="batch-table-count"]').textContent === `${n} rows shown`, disagree.length);
    const rows = await page.$$eval('[data-ref="batch-table"] .vt-row', (els) => els.map((e) => Number(e.dataset.index) + 1));
    assert.deepEqual(rows, disagree.slice(0, rows.length));
    await page.locator('[data-ref="batch-table"] .vt-row').first().click();
    const beside = page.locator('[data-ref="batch-dialog"][open] [data-ref="batch-row-label"]');
    await beside.waitFor();
    assert.equal(await beside.getAttribute("data-agrees"), "false");
    assert.match(await beside.textContent(), /Judge.*(Grounded|Not grounded).*Human label \(human_label\).*(Grounded|Not grounded).*they disagree/);
    await page.keyboard.press("Escape");

    // On a phone (400 px) the confusion matrix fits: its last column is seen without side-scrolling.
    await page.setViewportSize({ width: 400, height: 800 });
    const fit = await page.evaluate(() => {
      const wrap = document.querySelector('[data-ref="agreement-panel"] .confusion-wrap');
      const last = wrap.querySelector('[data-cell="nf"]').getBoundingClientRect();
      return { over: wrap.scrollWidth - wrap.clientWidth, lastRight: last.right, width: document.documentElement.clientWidth };
    });
    assert.ok(fit.over <= 0 && fit.lastRight <= fit.width, `the matrix on a phone: ${JSON.stringify(fit)}`);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The exports carry the label and agrees, row by row.
    const lines = (await exported(page, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, N);
    for (const l of lines) {
      const j = judgeOf(l.row);
      const lab = labelOf(l.row).toLowerCase();
      const h = lab === "" || lab === "maybe" ? null : ["pass", "yes", "true", "1"].includes(lab);
      assert.equal(l.label, h, `row ${l.row}'s label`);
      assert.equal(l.agrees, typeof j === "boolean" && h !== null ? j === h : null, `row ${l.row}'s agrees`);
    }
    const head = (await exported(page, "csv")).split("\r\n")[0].split(",");
    assert.ok(head.includes("label") && head.includes("agrees"), head.join(","));

    // The same run compared with the numeric column instead: the core's correlation, and a scatter.
    await page.selectOption('[data-ref="agreement-column"]', "human_score");
    await page.waitForFunction(() => document.querySelector('[data-ref="agreement-panel"]')?.dataset.kind === "number");
    const num = await panelData(page);
    const xs = [];
    const ys = [];
    for (let r = 1; r <= N; r++) {
      const j = judgeOf(r);
      if (j === "error") continue;
      xs.push(typeof j === "boolean" ? (j ? 1 : 0) : null);
      ys.push(Number(scoreOf(r).toFixed(1)));
    }
    const corr = rj.correlation(xs, ys);
    assert.equal(Number(num.compared), corr.n);
    assert.equal(Number(num.pearson), corr.pearson);
    assert.equal(Number(num.spearman), corr.spearman);
    assert.equal(Number(num.mae), corr.mae);
    assert.equal(Number(await page.getAttribute('[data-ref="agreement-scatter"]', "data-points")), corr.n);
    const piles = await page.$$eval('[data-ref="agreement-scatter"] .scatter-point', (gs) => gs.reduce((n, g) => n + Number(g.dataset.count), 0));
    assert.equal(piles, corr.n);
    // Labels of 0.1 to 1.0 against the judge's 0–1: one scale, the diagonal drawn, no warning.
    assert.equal(num.scales, "same");
    assert.equal(await page.locator('[data-ref="agreement-scales"]').count(), 0);
    assert.equal(await page.locator('[data-ref="scatter-diagonal"]').count(), 1);
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(page), [], `axe, numeric labels, ${colorScheme}`);
    }
    // The choice is kept with the run: a reload shows the numeric comparison again.
    await page.reload();
    await page.waitForSelector('[data-ref="agreement-panel"][data-kind="number"]', { timeout: 30_000 });
    assert.equal(await page.inputValue('[data-ref="agreement-column"]'), "human_score");

    // 1 to 5 stars against the judge's 0–1: the panel says the scales differ, the mean absolute
    // error is not shown as if it meant something, the correlations stay the core's, and the
    // plot has each axis on its own range, with no diagonal.
    await page.selectOption('[data-ref="agreement-column"]', "human_stars");
    await page.waitForSelector('[data-ref="agreement-panel"][data-scales="differ"]');
    const stars = await panelData(page);
    const corrStars = rj.correlation(xs, Array.from({ length: N }, (_, i) => i + 1).filter((r) => judgeOf(r) !== "error").map(starsOf));
    assert.equal(Number(stars.pearson), corrStars.pearson);
    assert.equal(Number(stars.spearman), corrStars.spearman);
    assert.equal(Number(stars.mae), corrStars.mae);
    const note = await page.textContent('[data-ref="agreement-scales"]');
    assert.match(note, /judge's scores run from 0 to 1 \(as the evaluator declares them\), the human scores in human_stars from 1 to 5/);
    assert.match(note, /not meaningful here; the correlations \(Pearson, Spearman\) do not depend on the scale/);
    assert.equal(await page.textContent('[data-ref="agreement-mae"] .stat-value'), "–");
    assert.equal(await page.locator('[data-ref="scatter-diagonal"]').count(), 0);
    const axis = await page.$$eval('[data-ref="agreement-scatter"] .scatter-axis', (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(axis, ["Judge's score (0 to 1)", "Human score (1 to 5)"]);
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(page), [], `axe, labels on another scale, ${colorScheme}`);
    }

    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

test("every row in error: the Agreement panel says there is nothing to compare, with no dashes, no empty matrix and no NaN", async () => {
  const { browser, serve } = env;
  const context = await browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 1, concurrency: 4 });
    // Row 5 of the fake fails every call (HTTP 503); every row here names it.
      const lines = ["user_input,response,retrieved_contexts,human_label"];
    for (let r = 1; r <= 6; r++) lines.push([q(`Question ${r}`), q(`row-5: answer ${r}`), q(JSON.stringify(["A fact."])), r % 2 ? "yes" : "no"].join(","));
    await loadDataset(page, "all-errors.csv", lines.join("\n") + "\n", { mimeType: "text/csv" });
    await page.click('[data-ref="batch-run"]');
    const end = await runEnd(page, 30_000);
    assert.equal(end.done, 6, end.text);
    const panel = page.locator('[data-ref="agreement-panel"]');
    await page.waitForSelector('[data-ref="agreement-panel"][data-pending="0"]');
    assert.equal(await panel.getAttribute("data-compared"), "0");
    assert.equal(await panel.getAttribute("data-errors"), "6");
    assert.match(await panel.locator('[data-ref="agreement-none"]').textContent(), /nothing to compare/);
    assert.equal(await panel.locator('[data-ref="confusion-matrix"]').count(), 0, "no matrix of zeros");
    assert.equal(await panel.locator(".stat").count(), 0, "no cards of dashes");
    assert.match(await panel.locator('[data-ref="agreement-skipped"]').textContent(), /Left out: 6 errors\./);
    assert.doesNotMatch(await page.locator("body").innerText(), /NaN|Infinity/);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

test("a hallucination column (HaluEval's yes for a failed answer): read as failures and said so; the choice turns it around", async () => {
  const { browser, serve } = env;
  const context = await browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 4 });
    // Rows the fake answers 7 to 18 (away from its faults on 5 and 6): the judge passes a row unless
    // r % 3 === 0, and the reviewers' hallucination column says "yes" exactly on the rows it fails.
      const lines = ["user_input,response,retrieved_contexts,hallucination"];
    for (let r = 7; r <= 18; r++) lines.push([q(`Question ${r}`), q(`row-${r}: The tower is in Paris.`), q(JSON.stringify(["The tower is in Paris."])), r % 3 === 0 ? "yes" : "no"].join(","));
    await loadDataset(page, "halueval.csv", lines.join("\n") + "\n", { mimeType: "text/csv" });
    await page.selectOption('[data-ref="batch-map-label"]', "hallucination");
    const summary = page.locator('[data-ref="batch-label-summary"]');
    assert.match(await summary.textContent(), /12 boolean labels \(8 pass, 4 fail\)\. Yes, true and 1 are read as FAIL: the column's name \(hallucination\) asks about a fault\./);
    assert.equal(await summary.getAttribute("data-yes"), "fail");
    assert.equal(await page.isVisible('[data-ref="batch-map-label-yes"]'), true, "the choice is offered");
    await page.click('[data-ref="batch-run"]');
    const end = await runEnd(page, 30_000);
    assert.equal(end.done, 12, end.text);
    const panel = page.locator('[data-ref="agreement-panel"]');
    await page.waitForSelector('[data-ref="agreement-panel"][data-pending="0"]');
    assert.equal(await panel.getAttribute("data-compared"), "12");
    assert.equal(await panel.getAttribute("data-agree"), "12", "the judge agrees with every row once yes reads as a failure");
    assert.match(await page.textContent('[data-ref="agreement-yes-note"]'), /read as FAIL/);
    // The run's record keeps the column; turning yes around makes every row disagree.
    await page.selectOption('[data-ref="agreement-yes"]', "pass");
    await page.waitForSelector('[data-ref="agreement-panel"][data-agree="0"]');
    assert.match(await page.textContent('[data-ref="agreement-yes-note"]'), /read as pass \(your choice\)/);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
