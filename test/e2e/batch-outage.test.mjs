// batch-outage.test.mjs: a batch run through an outage of the endpoint. The fake upstream goes
// away mid-run (the dev server answers 502 for every call and for GET models), the run pauses
// itself and says so, and when the upstream is back on the same port the run goes on by itself and
// ends with every row judged: no row fails for lack of attempts. Real headless chromium, the real
// dev server, a fake upstream.

import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startFakeUpstream, datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, startServe, newBatchPage, setRunOptions, loadDataset, progress, runEnd, waitFor } from "./batch-env.mjs";

const env = useBatchEnv();

test("an outage mid-run pauses the run with a message, and the run goes on by itself when the endpoint answers", async () => {
  let upstream = await startFakeUpstream({ latencyMs: 40, faults: false });
  const port = Number(new URL(upstream.url).port);
  const serve = await startServe(upstream.url + "/v1");
  const context = await env.browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 4 });
    await loadDataset(page, "ragas.jsonl", datasetJSONL(120));
    await page.click('[data-ref="batch-run"]');
    await waitFor(async () => ((await progress(page)) || {}).done >= 10, 30_000, "10 rows done");

    // The upstream goes away: every call and every probe through the dev server is a 502.
    await upstream.close();
    const paused = await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "outage" ? p : null;
    }, 30_000, "the run to pause itself");
    assert.match(await page.textContent('[data-ref="batch-live"]'), /The dev server cannot reach its model server \(its -upstream\): the run waits, and goes on by itself when it answers again\./);
    assert.ok(await page.locator('[data-ref="batch-pause"]').isVisible(), "Pause stops the probes");
    assert.ok(await page.locator('[data-ref="batch-cancel"]').isVisible());

    // Back on the same port: the next probe is answered and the run goes on by itself.
    upstream = await startFakeUpstream({ latencyMs: 5, faults: false, port });
    const end = await runEnd(page, 90_000, "the run to finish after the outage");
    assert.equal(end.done, 120, end.text);
    assert.ok(end.done >= paused.done);
    const chips = await page.evaluate(() => {
      const out = {};
      for (const b of document.querySelectorAll('[data-ref="batch-filters"] [data-filter]')) out[b.dataset.filter] = Number(b.lastChild.textContent.trim().replace(/,/g, ""));
      return out;
    });
    assert.equal(chips.error, 0, "no row failed for lack of attempts");
    assert.equal(chips.passed + chips.failed, 120);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await serve.close();
    await upstream.close();
  }
});

test("an endpoint that answers 503 to everything: the page says how many calls failed, not '0 of 0 calls'", async () => {
  // Every judge call is a 503 (the models list too, so probes fail): the run pauses for an outage
  // with its rows back in the queue, none with a result.
  let posts = 0;
  const down = http.createServer((req, res) => {
    if (req.method === "POST") posts++;
    req.resume();
    req.on("end", () => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "down for maintenance" } }));
    });
  });
  await new Promise((r) => down.listen(0, "127.0.0.1", r));
  const serve = await startServe(`http://127.0.0.1:${down.address().port}/v1`);
  const context = await env.browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 4 });
    await loadDataset(page, "ragas.jsonl", datasetJSONL(4));
    await page.click('[data-ref="batch-run"]');
    const out = await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "outage" && /calls? failed/.test(p.text) ? p : null;
    }, 30_000, "the run to pause for the outage, its failed calls said");
    // Calls still in flight when the outage began are aborted, not failed: the page counts at most what reached the server.
    const failed = Number(/([\d,]+) calls? failed/.exec(out.text)[1]);
    assert.ok(failed >= 1 && failed <= posts, `${failed} failed of ${posts} sent: ${out.text}`);
    assert.doesNotMatch(out.text, /of 0 calls/, out.text);
    assert.equal(await page.getAttribute('[data-ref="batch-progress-text"]', "data-failed-calls"), String(failed));
    assert.match(await page.textContent('[data-ref="batch-tokens"] .hint'), new RegExp(`^${failed} calls? failed, none answered$`));
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await serve.close();
    await new Promise((r) => down.close(r));
  }
});
