// batch-repeat.test.mjs: judging each row several times, and two runs side by side, in real
// headless chromium through the real dev server, against a fake upstream that flips some verdicts
// on some calls (batch-upstream.mjs fakeVerdict) and answers differently per model. The
// Consistency panel's numbers must be the core's (rj.consistency, rj.describe) over the verdicts
// the fake gave; a rerun of the same run must be answered from the cache; the comparison of a
// run with another model must give rj.agreement's κ and list exactly the rows that changed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { load } from "../../web/ragjudge.js";
import { axeViolations } from "./axe.mjs";
import { datasetJSONL, fakeVerdict, expectedStatus } from "./batch-upstream.mjs";
import { useBatchEnv, startServed, newBatchPage, setRunOptions, loadDataset, setNumber, runEnd, progress, waitFor } from "./batch-env.mjs";

const N = 30;
const REPEATS = 3;
const env = useBatchEnv({ latencyMs: 5, faults: false, flips: true, keepBodies: true });
const rj = await load();

/** rowsWith are the rows 1..N (as the dataset numbers them) whose fake verdicts satisfy f. */
const rowsWith = (f) => Array.from({ length: N }, (_, i) => i + 1).filter(f);
/** repeatsOf is what the fake answers row's REPEATS calls (in call order) with model "fake-judge". */
const repeatsOf = (row) => Array.from({ length: REPEATS }, (_, k) => fakeVerdict(row, "fake-judge", k + 1));

async function exported(page, fmt) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="batch-export-${fmt}"]`)]);
  return readFile(await download.path(), "utf8");
}

async function setModel(page, model) {
  await page.click('[data-ref="settings-button"]');
  await page.fill('[data-ref="model"]', model);
  await page.locator('[data-ref="model"]').dispatchEvent("change");
  await page.keyboard.press("Escape");
}

async function runAndWait(page, what) {
  const before = await progress(page);
  await page.click('[data-ref="batch-run"]');
  await waitFor(async () => {
    const p = await progress(page);
    return p && (!before || p.run !== before.run) ? p : null;
  }, 15_000, "the new run to open");
  return runEnd(page, 60_000, what);
}

test("N=3 repeats against a judge that flips: the Consistency panel is the core's; a rerun is free; two models compare", async () => {
  const { browser, serve, upstream } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(() => {
    if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: { model: "fake-judge" } }));
  });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { concurrency: 8 });
    await setNumber(page, "batch-repeats", 12);
    assert.equal(await page.inputValue('[data-ref="batch-repeats"]'), "10", "held to 10");
    await setNumber(page, "batch-repeats", REPEATS);
    await setNumber(page, "batch-temperature", 0.7);
    await loadDataset(page, "flips.jsonl", datasetJSONL(N));
    assert.match(await page.textContent('[data-ref="batch-estimate"]'), new RegExp(`About ${N * REPEATS} calls \\(${N} rows × ${REPEATS} repeats\\)`));

    // ---- the repeat run ----------------------------------------------------------------------
    const end = await runAndWait(page, "the repeat run");
    assert.equal(end.done, N, end.text);
    assert.equal(upstream.stats.calls, N * REPEATS, "every repeat is a call of its own");
    const bodies = upstream.bodies.map((b) => JSON.parse(b));
    assert.ok(bodies.every((b) => b.temperature === 0.7 && b.model === "fake-judge"), "the run's temperature is sent");
    const runA = end.run;

    // What the fake said, row by row, and what the core makes of it.
    const expected = Array.from({ length: N }, (_, i) => repeatsOf(i + 1));
    const core = rj.consistency(expected);
    const split = rowsWith((r) => r % 5 === 2 || r % 10 === 9);
    assert.equal(core.split, split.length, "the fake flips what it says it flips");
    const sds = expected.map((v) => rj.describe(v.map((x) => (x ? 1 : 0))).sd);
    const meanSD = rj.describe(sds).mean;

    const panel = page.locator('[data-ref="consistency-panel"]');
    await panel.waitFor();
    const shown = await panel.evaluate((el) => ({ ...el.dataset }));
    assert.equal(Number(shown.rows), N);
    assert.equal(Number(shown.repeats), REPEATS);
    assert.equal(Number(shown.unanimous), core.unanimous);
    assert.equal(Number(shown.split), core.split);
    assert.equal(Number(shown.kappa), core.fleiss_kappa);
    assert.ok(Math.abs(Number(shown.meanSd) - meanSD) < 1e-12, `${shown.meanSd} vs ${meanSD}`);
    assert.match(await page.textContent('[data-ref="consistency-unanimous"]'), new RegExp(`${Math.round((core.unanimous / N) * 1000) / 10}%`));
    assert.match(await page.textContent('[data-ref="consistency-kappa"]'), new RegExp(`κ ${Math.round(core.fleiss_kappa * 100) / 100}Fleiss' kappa`));
    const bar = await page.locator('[data-ref="split-bar"]').evaluate((el) => ({ u: el.dataset.unanimous, s: el.dataset.split, title: el.querySelector("title").textContent }));
    assert.deepEqual([Number(bar.u), Number(bar.s)], [core.unanimous, core.split]);
    assert.match(bar.title, new RegExp(`${core.unanimous} of ${N} rows unanimous`));
    // The rows that flipped are listed, in row order.
    const listed = await page.$$eval('[data-ref="consistency-flipped"] li', (lis) => lis.map((li) => Number(li.dataset.index) + 1));
    assert.deepEqual(listed, split);
    // Each flipped row's majority in the evaluator's words, as the rest of the page says it.
    const flippedText = await page.$$eval('[data-ref="consistency-flipped"] li', (lis) => lis.map((li) => li.textContent));
    for (const t of flippedText) {
      assert.match(t, /→ (✓ Grounded|✗ Not grounded|no majority)/, t);
      assert.doesNotMatch(t, /passed|failed/, t);
    }

    // The pass rate is of the majority verdicts, and says so.
    const majorities = expected.map((v, i) => rj.consistency([v]).per_row[0].majority ?? `row ${i + 1}`);
    const passed = majorities.filter((m) => m === true).length;
    assert.match(await page.textContent('[data-ref="batch-pass-rate"]'), new RegExp(`${passed} passed of ${N} with a pass/fail verdict \\(each row's majority of 3 repeats\\)`));
    assert.ok(rowsWith((r) => r % 10 === 9).every((r) => majorities[r - 1] === !fakeVerdict(r)), "rows flipped twice take the flipped verdict");

    assert.deepEqual(await axeViolations(page), [], "the Consistency panel: axe violations");

    // On a phone (400 px) the bar's labels keep a readable size, each flipped row's marks stay on
    // one line, and every view tab shows its whole name inside the screen.
    await page.setViewportSize({ width: 400, height: 800 });
    const phone = await page.evaluate(() => ({
      labels: [...document.querySelectorAll('[data-ref="consistency-panel"] .split-label')].map((t) => t.getBoundingClientRect().height),
      markLines: [...document.querySelectorAll(".flipped-marks")].map((m) => {
        const r = document.createRange();
        r.selectNodeContents(m);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
      }),
      tabs: [...document.querySelectorAll('.tabs [role="tab"]')].map((t) => ({ name: t.textContent, right: t.getBoundingClientRect().right, clipped: t.scrollWidth > t.clientWidth })),
      width: document.documentElement.clientWidth,
    }));
    assert.equal(phone.labels.length, 2, "the bar's two labels");
    for (const h of phone.labels) assert.ok(h >= 18, `a bar label on a phone is ${h} px high`);
    assert.ok(phone.markLines.length > 0 && phone.markLines.every((n) => n === 1), `flipped marks on one line: ${phone.markLines}`);
    for (const t of phone.tabs) assert.ok(t.right <= phone.width && !t.clipped, `tab ${t.name} on a phone: right edge ${t.right} of ${phone.width}`);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The Flipped filter shows exactly those rows.
    await page.click('[data-ref="batch-filter-split"]');
    await page.waitForFunction((n) => document.querySelector('[data-ref="batch-table-count"]').textContent === `${n} rows shown`, split.length);

    // One record per dataset row with the majority and each repeat's verdict.
    const lines = (await exported(page, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, N);
    for (const l of lines) {
      assert.equal(l.majority, majorities[l.row - 1], `row ${l.row}`);
      assert.deepEqual(l.repeats.map((r) => r.passed).sort(), [...expected[l.row - 1]].sort(), `row ${l.row}`);
      assert.equal(l.status, l.majority ? "passed" : "failed");
    }
    const csvHead = (await exported(page, "csv")).split("\r\n")[0].split(",");
    for (const c of ["majority", "unanimous", "score_sd", "repeat_1", "repeat_3", "repeat_3_answer"]) assert.ok(csvHead.includes(c), c);

    // ---- the same run again: answered from the cache -----------------------------------------
    await loadDataset(page, "flips.jsonl", datasetJSONL(N));
    const again = await runAndWait(page, "the rerun");
    assert.equal(upstream.stats.calls, N * REPEATS, "no new call");
    assert.equal(again.cacheHits, N * REPEATS, again.text);
    assert.equal(Number(await panel.getAttribute("data-kappa")), core.fleiss_kappa, "the same verdicts, from the cache");

    // ---- another model, one verdict per row, compared with the repeat run --------------------
    await setModel(page, "fake-judge-b");
    await loadDataset(page, "flips.jsonl", datasetJSONL(N));
    await setNumber(page, "batch-repeats", 1);
    await page.waitForFunction((n) => new RegExp(`About ${n} calls and`).test(document.querySelector('[data-ref="batch-estimate"]').textContent), N);
    const runB = (await runAndWait(page, "the run of the second model")).run;
    assert.equal(await page.locator('[data-ref="consistency-panel"]').count(), 0, "no consistency panel for one repeat");

    await page.selectOption('[data-ref="compare-a"]', runA);
    await page.selectOption('[data-ref="compare-b"]', runB);
    await page.click('[data-ref="compare-run"]');
    const cmp = page.locator('[data-ref="compare-panel"]');
    await cmp.waitFor();
    const vb = Array.from({ length: N }, (_, i) => fakeVerdict(i + 1, "fake-judge-b", 1));
    const agreement = rj.agreement(majorities, vb);
    const changed = rowsWith((r) => majorities[r - 1] !== vb[r - 1]);
    assert.deepEqual(changed, rowsWith((r) => (r % 10 === 9) !== (r % 7 === 0)));
    const got = await cmp.evaluate((el) => ({ ...el.dataset }));
    assert.equal(got.by, "index");
    assert.equal(Number(got.kappa), agreement.kappa);
    assert.equal(Number(got.changed), changed.length);
    assert.equal(Number(got.compared), N);
    const rows = await page.$$eval('[data-ref="compare-changed-table"] tbody tr', (trs) => trs.map((tr) => ({
      a: Number(tr.dataset.a) + 1,
      // A verdict's cell is the page's badge (its icon, its word) and the score beside it.
      cells: [...tr.cells].map((td) => {
        const b = td.querySelector(".badge");
        return b ? `${b.querySelector(".badge-icon")?.textContent} ${b.querySelector(".badge-word")?.textContent}` : td.textContent;
      }),
    })));
    assert.deepEqual(
      rows.map((r) => r.a),
      changed,
    );
    for (const r of rows) {
      assert.equal(r.cells[1].startsWith(majorities[r.a - 1] ? "✓ Grounded" : "✗ Not grounded"), true, r.cells[1]);
      assert.equal(r.cells[2].startsWith(vb[r.a - 1] ? "✓ Grounded" : "✗ Not grounded"), true, r.cells[2]);
      assert.equal(r.cells[5], vb[r.a - 1] ? "Yes" : "No", "run B's answer beside run A's");
    }
    assert.match(await page.textContent('[data-ref="compare-a-pass-rate"]'), new RegExp(`of ${N}`));
    assert.match(await page.textContent('[data-ref="compare-card-a"]'), /each row judged 3 times \(majority\)/);
    assert.match(await page.textContent('[data-ref="compare-card-b"]'), /fake-judge-b/);
    assert.deepEqual(await axeViolations(page), [], "the comparison: axe violations");
    // On a phone the changed rows' table scrolls in its box; its input keeps a readable width
    // (not one word per line) and the page does not widen.
    await page.setViewportSize({ width: 400, height: 800 });
    const narrow = await page.evaluate(() => ({
      input: document.querySelector('[data-ref="compare-changed-table"] .compare-input').getBoundingClientRect().width,
      over: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    assert.ok(narrow.input >= 150, `the input column on a phone: ${narrow.input} px`);
    assert.equal(narrow.over, 0, "the page is no wider than the phone");
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

test("repeats through faults and a reload: retries, repairs and resume keep every repeat of every row", async () => {
  // 500s, 429s, hangs and unreadable answers on first calls; rows that fail every call.
  const { upstream, serve, close } = await startServed({ latencyMs: 40, faults: true });
  const context = await env.browser.newContext({ acceptDownloads: true });
  await context.addInitScript(() => {
    if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: { model: "fake-judge" } }));
  });
  const rows = 60;
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 4 });
    await loadDataset(page, "faults.jsonl", datasetJSONL(rows));
    await setNumber(page, "batch-repeats", REPEATS);
    await page.click('[data-ref="batch-run"]');
    const before = await waitFor(async () => {
      const p = await progress(page);
      return p && p.done >= 10 && p.done < rows ? p : null;
    }, 30_000, "10 rows done");
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    const after = await waitFor(progress.bind(null, page), 15_000, "the run after reload");
    assert.ok(after.done >= before.done);
    const end = await runEnd(page, 90_000, "the repeat run through faults");
    assert.equal(end.done, rows, end.text);
    const lines = (await exported(page, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l));
    const wrong = lines.filter((r) => r.status !== expectedStatus(r.row)).map((r) => `row ${r.row}: ${r.status} (${r.reason})`);
    assert.deepEqual(wrong, []);
    for (const l of lines) {
      assert.equal(l.repeats.length, REPEATS, `row ${l.row}`);
      // A row that ended in an error (503 on every call) keeps its repeats, each with its error.
      if (l.status === "error") assert.ok(l.repeats.every((r) => r.passed === null && /503|server/i.test(r.error)), `row ${l.row}: ${JSON.stringify(l.repeats)}`);
    }
    // Every repeat of every row that did not fail was a call of its own.
    assert.ok(upstream.stats.calls >= (rows - rows / 50) * REPEATS);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await close();
  }
});
