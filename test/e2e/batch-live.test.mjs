// batch-live.test.mjs: what the Batch view shows while a run goes. Every count on the screen (the
// progress line, the filter chips, the summary cards, the tokens card, the runs list) is drawn
// from the same moment, also right after a reload; rows in flight say "Judging…" or "Retrying in
// N s", not "Not run yet"; and a second tab on a run the first tab runs is read-only, follows its
// progress, and has no Resume button. Real headless chromium, the real dev server, a fake upstream.

import { test } from "node:test";
import assert from "node:assert/strict";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, startServed, openBatch, newBatchPage, setRunOptions, loadDataset, setNumber, progress, waitFor } from "./batch-env.mjs";
import { axeViolations } from "./axe.mjs";

/** audit runs axe over the page and fails with every violation listed. */
async function audit(page, where) {
  assert.deepEqual(await axeViolations(page), [], `${where}: axe violations`);
}

const env = useBatchEnv();

/** screen reads every count the run card and the runs list show, in one task (one drawn state). */
function screen(page) {
  return page.evaluate(() => {
    const $ = (sel) => document.querySelector(sel);
    const int = (s) => Number(String(s).replace(/,/g, ""));
    const prog = $('[data-ref="batch-progress-text"]');
    if (!prog || !prog.dataset.total) return null;
    const text = prog.textContent;
    const chips = {};
    for (const b of document.querySelectorAll('[data-ref="batch-filters"] [data-filter]')) chips[b.dataset.filter] = int(b.lastChild.textContent.trim());
    const card = $('[data-ref="batch-run-card"]');
    const runRow = $(`[data-ref="batch-runs"] tr[data-run="${card.dataset.runId}"] [data-col=rows]`);
    return {
      state: card.dataset.state,
      text,
      done: int(prog.dataset.done),
      total: int(prog.dataset.total),
      cacheHits: int(prog.dataset.cacheHits),
      lineDone: int(/^([\d,]+) of/.exec(text)[1]),
      lineRemaining: int(/([\d,]+) remaining/.exec(text)[1]),
      // No call answered yet but some failed: the line says "N calls failed" alone.
      lineCalls: /cache hits [\d,]+ of ([\d,]+) calls/.test(text) ? int(/cache hits [\d,]+ of ([\d,]+) calls/.exec(text)[1]) : 0,
      chips,
      passSub: $('[data-ref="batch-pass-rate"] .hint').textContent,
      undetermined: int($('[data-ref="batch-undetermined"] .stat-value').textContent),
      errorsSub: $('[data-ref="batch-undetermined"] .hint').textContent,
      tokensSub: $('[data-ref="batch-tokens"] .hint').textContent,
      runsRow: runRow ? runRow.textContent : "",
    };
  });
}

function assertAgree(s) {
  const why = JSON.stringify(s);
  assert.equal(s.lineDone, s.done, why);
  assert.equal(s.lineRemaining, s.total - s.done, why);
  const c = s.chips;
  assert.equal(c.all, s.total, why);
  assert.equal(c.passed + c.failed + c.undetermined + c.error + c.scored, s.done, why);
  assert.equal(c.pending, s.total - s.done, why);
  const pass = /^([\d,]+) passed of ([\d,]+)/.exec(s.passSub);
  if (pass) {
    assert.equal(Number(pass[1]), c.passed, why);
    assert.equal(Number(pass[2]), c.passed + c.failed, why);
  } else assert.equal(c.passed + c.failed, 0, why);
  assert.equal(s.undetermined, c.undetermined, why);
  assert.equal(s.errorsSub, `${c.error} error${c.error === 1 ? "" : "s"}`, why);
  const tok = /([\d,]+) paid calls, ([\d,]+) from cache/.exec(s.tokensSub) || (/calls? failed, none answered$/.test(s.tokensSub) ? [s.tokensSub, "0", "0"] : null);
  assert.ok(tok, why);
  assert.equal(Number(tok[2]), s.cacheHits, why);
  assert.equal(Number(tok[1]) + Number(tok[2]), s.lineCalls, why);
  assert.equal(s.runsRow, `${s.done} / ${s.total}`, why);
}

test("every count agrees at every moment, also right after a reload, and rows in flight say so", async () => {
  const { serve, close } = await startServed({ latencyMs: 300, faults: true });
  const context = await env.browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 4 });
    await loadDataset(page, "ragas.jsonl", datasetJSONL(100));
    // Row 2's first call gets a 429 with Retry-After: 1, so for about a second it waits to retry:
    // too short a while to be sure a poll from here sees it on a busy machine. The page itself
    // records each row state the table draws, with the row's text as drawn, as it draws it.
    await page.evaluate(() => {
      const seen = (/** @type {any} */ (window).__liveSeen = {});
      const look = () => {
        for (const el of document.querySelectorAll('[data-ref="batch-table"] .vt-row[data-live]')) {
          const state = /** @type {HTMLElement} */ (el).dataset.live;
          if (state && !(state in seen)) seen[state] = el.textContent;
        }
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-live"] });
    });
    await page.click('[data-ref="batch-run"]');
    const drawn = (state) => () => page.evaluate((st) => /** @type {any} */ (window).__liveSeen[st] ?? null, state);
    const retrying = await waitFor(drawn("retrying"), 30_000, "a row drawn waiting to retry");
    assert.match(retrying, /Retrying in \d+ s/);
    const judging = await waitFor(drawn("judging"), 30_000, "a row drawn in flight");
    assert.match(judging, /Judging…/);
    assert.doesNotMatch(judging, /Not run yet/);
    const s = await screen(page);
    assert.match(s.text, /\(\d+ judging/, "the progress line counts the rows in flight");
    assert.doesNotMatch(s.text, /… rows\/s/);
    await waitFor(async () => ((await progress(page)) || {}).done >= 10, 30_000, "10 rows done");

    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    await waitFor(() => screen(page), 15_000, "the run after reload");
    let seen = 0;
    for (;;) {
      const now = await screen(page);
      assertAgree(now);
      seen++;
      if (now.state === "done") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(seen > 3, `looked ${seen} times while the run went on`);
    const end = await screen(page);
    assert.equal(end.done, 100, end.text);
    await audit(page, "a finished run with errors and undetermined rows");
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await close();
  }
});

test("a second tab on a run the first tab runs is read-only, follows its progress and has no Resume button", async () => {
  const { upstream, serve, close } = await startServed({ latencyMs: 200, faults: false });
  const context = await env.browser.newContext();
  try {
    const a = await context.newPage();
    await openBatch(a, serve.url);
    await setNumber(a, "batch-concurrency", 2);
    await loadDataset(a, "ragas.jsonl", datasetJSONL(40));
    await a.click('[data-ref="batch-run"]');
    const runId = (await waitFor(async () => ((await progress(a)) || {}).done >= 2 && progress(a), 30_000, "tab A to start")).run;
    // A's next calls wait at the upstream until the test lets them go: A's run (40 rows, about 4 s)
    // must still be going when B has loaded and again when B looks at the rows in flight, and on
    // a loaded machine B's load alone can take longer than the whole run.
    upstream.hold();

    const { page: b, pageErrors } = await newBatchPage(context, serve.url);
    await b.waitForSelector('[data-ref="batch-run-card"][data-readonly="true"]', { timeout: 15_000 });
    const card = b.locator('[data-ref="batch-run-card"]');
    assert.equal(await card.getAttribute("data-run-id"), runId);
    assert.equal(await b.locator('[data-ref="batch-readonly"]').isVisible(), true);
    assert.match(await b.textContent('[data-ref="batch-readonly"]'), /running in another tab.*read-only/);
    for (const ref of ["batch-resume", "batch-pause", "batch-cancel", "batch-retry-failed"]) {
      assert.equal(await b.locator(`[data-ref="${ref}"]`).isHidden(), true, `${ref} is hidden in the watching tab`);
    }
    // B's counts go up while A runs, without a reload: eight more answers, and A waits again.
    const first = (await progress(b)).done;
    upstream.release(8);
    const later = await waitFor(async () => {
      const p = await progress(b);
      const pa = await progress(a);
      // The rows A has in flight are counted in B too.
      return p.done >= first + 4 && /remaining \(\d judging\)/.test(p.text) && pa.state === "running" ? p : null;
    }, 30_000, "tab B to follow tab A's progress, its rows in flight too");
    assert.ok(later.done > first);
    assert.equal(later.state, "running");
    // In B's table they say so (first among the rows not finished).
    await b.click('[data-ref="batch-filter-pending"]');
    await b.waitForSelector('[data-ref="batch-table"] .vt-row[data-live="judging"]', { timeout: 10_000 });
    await audit(b, "a watching tab with rows in flight");
    await b.click('[data-ref="batch-filter-all"]');
    assert.equal(await b.locator('[data-ref="batch-resume"]').isHidden(), true);

    // When A finishes, B shows the finished run and lets go of read-only.
    upstream.release();
    await waitFor(async () => ((await progress(a)) || {}).state === "done", 60_000, "tab A to finish");
    const end = await waitFor(async () => {
      const p = await progress(b);
      return p && p.done === 40 && (await card.getAttribute("data-readonly")) === "false" ? p : null;
    }, 15_000, "tab B to show the finished run");
    assert.match(await b.textContent(`[data-ref="batch-runs"] tr[data-run="${runId}"]`), /40 \/ 40\s*done/);
    assert.equal(end.done, 40, end.text);
    assert.equal(await b.locator('[data-ref="batch-readonly"]').isHidden(), true);
    assert.equal(await b.locator('[data-ref="batch-resume"]').isHidden(), true, "nothing is left to resume");
    assert.equal(upstream.stats.calls, 40, "only tab A called the judge");
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await close();
  }
});
