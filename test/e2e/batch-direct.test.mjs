// batch-direct.test.mjs: a batch run that calls an endpoint directly (not through the dev server)
// over HTTP/1.1, where a browser runs at most 6 calls to one host at once. The page must say so
// next to the concurrency control (with the limit in effect) and in the run's progress line, learn
// the protocol its calls used from resource timing (the fake upstream sends Timing-Allow-Origin),
// and hold the run to 6 calls at once. Real headless chromium, the real dev server serving the
// page, the fake upstream answering browsers directly (CORS).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startFakeUpstream, datasetJSONL } from "./batch-upstream.mjs";
import { startServe, launch, openBatch, setNumber, progress, waitFor } from "./batch-env.mjs";

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
});

test("a direct HTTP/1.1 endpoint: the page says the browser limits calls to 6, beside the concurrency and while the run goes", async () => {
  const upstream = await startFakeUpstream({ latencyMs: 150, faults: false, cors: true });
  const serve = await startServe(upstream.url + "/v1");
  const context = await browser.newContext();
  try {
    const settings = { endpoint: "direct", baseURL: upstream.url + "/v1", model: "fake-judge" };
    await context.addInitScript((s) => {
      if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: s }));
    }, settings);
    const page = await context.newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await openBatch(page, serve.url);
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

    await page.locator('[data-ref="batch-file"]').setInputFiles({ name: "direct.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(datasetJSONL(150)) });
    await page.waitForFunction(() => /✓ .*rows/.test(document.querySelector('[data-ref="batch-file-msg"]').textContent));
    await page.selectOption('[data-ref="batch-evaluator"]', "answer-grounding");
    await page.waitForFunction(() => /About [\d,]+ calls/.test(document.querySelector('[data-ref="batch-estimate"]').textContent));
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

    const end = await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "done" ? p : null;
    }, 60_000, "the run to finish");
    assert.equal(end.done, 150, end.text);
    assert.doesNotMatch(end.text, /limited to/, "a finished run says nothing of its pace");
    assert.ok(upstream.stats.maxInflight <= 6, `${upstream.stats.maxInflight} calls at once upstream`);
    assert.ok(upstream.stats.maxInflight >= 5, `${upstream.stats.maxInflight} calls at once upstream: the run used the 6 it has`);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
    await serve.close();
    await upstream.close();
  }
});
