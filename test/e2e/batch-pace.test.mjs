// batch-pace.test.mjs: a batch run says when it has fewer calls in flight than chosen, and why.
// Through the dev server, an endpoint that answers many calls 429: the run slows down (AIMD, the
// limit reaching the dev server's calls socket), says so in its progress line, and ends with every
// row judged. Directly, an endpoint over HTTP/1.1, where a browser runs at most 6 calls to one
// host at once: the page says so next to the concurrency control (with the limit in effect) and
// in the progress line, learns the protocol its calls used from resource timing (the fake upstream
// sends Timing-Allow-Origin), and holds the run to 6. Real headless chromium, the real dev server,
// the fake upstream (answering browsers directly with CORS for the direct test).

import { test } from "node:test";
import assert from "node:assert/strict";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, startServed, newBatchPage, loadDataset, setNumber, progress, runEnd, waitFor } from "./batch-env.mjs";

const env = useBatchEnv();

test("a direct HTTP/1.1 endpoint: the page says the browser limits calls to 6, beside the concurrency and while the run goes", async () => {
  const { upstream, serve, close } = await startServed({ latencyMs: 150, faults: false, cors: true });
  const context = await env.browser.newContext();
  try {
    const settings = { endpoint: "direct", baseURL: upstream.url + "/v1", model: "fake-judge" };
    await context.addInitScript((s) => {
      if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: s }));
    }, settings);
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    const origin = upstream.url;
    const hint = '[data-ref="batch-concurrency-hint"]';

    await setNumber(page, "batch-concurrency", 4);
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-concurrency"]').dataset.effective === "4");
    assert.equal(await page.textContent(hint), "", "4 at once is within the browser's limit: nothing to say");

    await setNumber(page, "batch-concurrency", 16);
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-concurrency"]').dataset.effective === "6");
    assert.equal(
      await page.textContent(hint),
      `6 at once in effect: calls to ${origin} are limited to 6 at a time by the browser (HTTP/1.1); the dev server (make run) has no such limit.`,
    );

    await loadDataset(page, "direct.jsonl", datasetJSONL(150));
    await page.click('[data-ref="batch-run"]');

    // While it runs, the progress line says why there are 6 calls at once, not 16.
    const running = await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "running" && p.text.includes("limited to") ? p : null;
    }, 30_000, "the progress line to name the browser's limit");
    assert.match(running.text, new RegExp(` · calls to ${origin.replace(/[.:/]/g, "\\$&")} are limited to 6 at a time by the browser \\(HTTP/1\\.1\\); the dev server has no such limit`));
    assert.equal(await page.getAttribute('[data-ref="batch-progress-text"]', "data-limit"), "6");
    // The worker read the protocol of its calls from resource timing (not only from the http: scheme).
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-concurrency-hint"]').dataset.protocolSeen === "timing");

    const end = await runEnd(page, 60_000);
    assert.equal(end.done, 150, end.text);
    assert.doesNotMatch(end.text, /limited to/, "a finished run says nothing of its pace");
    assert.ok(upstream.stats.maxInflight <= 6, `${upstream.stats.maxInflight} calls at once upstream`);
    assert.ok(upstream.stats.maxInflight >= 5, `${upstream.stats.maxInflight} calls at once upstream: the run used the 6 it has`);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await close();
  }
});

test("through the dev server, 429s slow the run down and the progress line says why; every row is judged", async () => {
  const { upstream, serve, close } = await startServed({ latencyMs: 60, faults: false, random: { p429: 0.3, seed: 5 } });
  const context = await env.browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setNumber(page, "batch-concurrency", 8);
    await loadDataset(page, "throttled.jsonl", datasetJSONL(120));
    await page.click('[data-ref="batch-run"]');

    const slowed = await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "running" && / · \d+ of 8 calls at once: the endpoint asked to slow down \(429\)$/.test(p.text) ? p : null;
    }, 30_000, "the progress line to say the run slowed down for 429s");
    const limit = Number(await page.getAttribute('[data-ref="batch-progress-text"]', "data-limit"));
    assert.ok(limit >= 1 && limit < 8, `${limit} calls at once (${slowed.text})`);

    const end = await runEnd(page, 90_000);
    assert.equal(end.done, 120, end.text);
    assert.match(end.text, / 0 without a verdict /, "no row failed for lack of attempts");
    assert.ok(upstream.stats.byFault["429"] >= 20, `${upstream.stats.byFault["429"]} 429s`);
    assert.ok(upstream.stats.maxInflight <= 8, `${upstream.stats.maxInflight} calls at once upstream`);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await close();
  }
});
