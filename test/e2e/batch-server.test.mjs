// batch-server.test.mjs: the page and its own dev server agree. At the highest concurrency the
// page offers, a run through the real dev server (its calls socket) against a healthy endpoint
// fails no call: the server is never asked for more calls than it takes, and the page's
// "(N judging)" never says more calls are out than the concurrency set. Real headless chromium,
// the real dev server, the fake upstream.

import { test } from "node:test";
import assert from "node:assert/strict";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, startServed, newBatchPage, loadDataset, setNumber, runEnd, waitFor } from "./batch-env.mjs";

const env = useBatchEnv();

/** watchJudging records, in the page, the largest "(N judging)" the progress line ever says. */
function watchJudging(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-ref="batch-progress-text"]');
    const w = /** @type {any} */ (window);
    w.__maxJudging = 0;
    const look = () => {
      const m = /\(([\d,]+) judging/.exec(el.textContent || "");
      if (m) w.__maxJudging = Math.max(w.__maxJudging, Number(m[1].replace(/,/g, "")));
    };
    new MutationObserver(look).observe(el, { childList: true, characterData: true, subtree: true });
  });
}

test("200 rows at the page's highest concurrency through the dev server: no call fails, never more judging than chosen", async () => {
  const { upstream, serve, close } = await startServed({ latencyMs: 150, faults: false });
  const context = await env.browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    const max = Number(await page.getAttribute('[data-ref="batch-concurrency"]', "max"));
    assert.ok(max >= 16, `the page offers ${max} calls at once`);
    await setNumber(page, "batch-concurrency", max);
    await loadDataset(page, "many.jsonl", datasetJSONL(200));
    await watchJudging(page);

    // The endpoint holds every call until the run has filled all it may: then the calls in
    // flight upstream are exactly what the page chose, whatever the machine's speed.
    upstream.hold();
    await page.click('[data-ref="batch-run"]');
    await waitFor(() => upstream.stats.inflight >= max, 60_000, `${max} calls in flight upstream (${upstream.stats.inflight})`);
    await page.waitForFunction((n) => new RegExp(`\\(${n} judging`).test(document.querySelector('[data-ref="batch-progress-text"]').textContent), max, { timeout: 30_000 });
    assert.equal(upstream.stats.inflight, max, "no more calls upstream than chosen");
    upstream.release();

    const end = await runEnd(page, 120_000);
    assert.equal(end.done, 200, end.text);
    assert.match(end.text, / 0 without a verdict /, end.text);
    assert.equal(await page.getAttribute('[data-ref="batch-progress-text"]', "data-failed-calls"), "0", end.text);
    assert.doesNotMatch(end.text, /failed/, end.text);
    assert.equal(upstream.stats.calls, 200, "one call per row, none refused and sent again");
    assert.ok(upstream.stats.maxInflight <= max, `${upstream.stats.maxInflight} calls at once upstream, ${max} chosen`);
    const judging = await page.evaluate(() => /** @type {any} */ (window).__maxJudging);
    assert.ok(judging <= max, `the progress line said ${judging} judging, ${max} chosen`);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await close();
  }
});
