// batch-key.test.mjs: no call without a key. A run through the dev server in front of a hosted
// endpoint (one that needs a key: here the fake upstream, reached as http://judge.example through
// an HTTP proxy, so that neither the page nor the server can tell it is on this machine) is
// reloaded mid-run with the key in memory only: the resumed run sends nothing, says "Enter your
// key to resume", and goes on by itself once the key is entered; a paused run's Resume without a
// key sends nothing either. Real headless chromium, the real dev server, the fake upstream.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { datasetJSONL, startFakeUpstream } from "./batch-upstream.mjs";
import { launch, startServe, newBatchPage, loadDataset, setRunOptions, progress, runEnd, waitFor } from "./batch-env.mjs";

const KEY = "sk-test-remember-me-not-0123";
const env = {};

before(async () => {
  env.upstream = await startFakeUpstream({ latencyMs: 250, faults: false, requireKey: true });
  // The dev server reaches the upstream as judge.example through its HTTP proxy (Go's
  // ProxyFromEnvironment): a host that is not local, as api.openai.com is not.
  env.serve = await startServe("http://judge.example/v1", [], { HTTP_PROXY: env.upstream.url, http_proxy: env.upstream.url, NO_PROXY: "", no_proxy: "" });
  env.browser = await launch();
});
after(async () => {
  if (env.browser) await env.browser.close();
  if (env.serve) await env.serve.close();
  if (env.upstream) await env.upstream.close();
});

/** enterKey types the key into Model settings (kept in memory only) and closes it. */
async function enterKey(page, key) {
  await page.click('[data-ref="settings-button"]');
  await page.fill('[data-ref="key"]', key);
  await page.keyboard.press("Escape");
}

/** held waits until the open run waits for a key and returns the line under its progress bar. */
async function held(page) {
  await page.waitForFunction(() => document.querySelector('[data-ref="batch-run-card"]').dataset.state === "held", null, { timeout: 30_000 });
  await page.waitForSelector('[data-ref="batch-enter-key"]:not([hidden])');
  return page.textContent('[data-ref="batch-live"]');
}

test("reloaded mid-run without a remembered key: nothing is sent without it, 'Enter your key to resume', and the run goes on once it is entered", async () => {
  const { upstream, serve, browser } = env;
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    assert.match(await page.textContent('[data-ref="where"]'), /via dev server → judge\.example/);
    await enterKey(page, KEY);
    await setRunOptions(page, { concurrency: 4 });
    await loadDataset(page, "keyed.jsonl", datasetJSONL(60));
    await page.click('[data-ref="batch-run"]');
    const mid = await waitFor(async () => {
      const p = await progress(page);
      return p && p.done >= 8 && p.done < 60 ? p : null;
    }, 60_000, "8 rows done");
    assert.deepEqual(upstream.stats.keyless, [], "with the key, every call carries it");

    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    const line = await held(page);
    assert.match(line, /^Enter your key to resume/, line);
    const heldAt = await progress(page);
    assert.ok(heldAt.done >= mid.done && heldAt.done < 60, heldAt.text);
    assert.ok(await page.isHidden('[data-ref="batch-resume"]'), "Resume waits for the key: the button to enter it is shown instead");

    // RAGJUDGE_SHOTS=dir keeps a picture of the state, to look at.
    if (process.env.RAGJUDGE_SHOTS) await page.screenshot({ path: join(process.env.RAGJUDGE_SHOTS, "enter-your-key.png"), fullPage: false });

    // Model settings asks the endpoint for nothing without the key either.
    await page.click('[data-ref="settings-button"]');
    await page.waitForFunction(() => /Enter your API key/.test(document.querySelector('[data-ref="settings"]').textContent));
    await page.keyboard.press("Escape");
    assert.deepEqual(upstream.stats.keyless, [], "no keyless request reached the upstream");

    // The button opens Model settings; the key typed there lets the run go on by itself.
    await page.click('[data-ref="batch-enter-key"]');
    assert.ok(await page.isVisible('[data-ref="key"]'));
    await page.fill('[data-ref="key"]', KEY);
    await page.keyboard.press("Escape");
    const end = await runEnd(page, 90_000);
    assert.equal(end.done, 60, end.text);
    assert.match(end.text, / 0 without a verdict /, end.text);
    assert.deepEqual(upstream.stats.keyless, [], "no keyless request reached the upstream");
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

test("a paused run reopened without its key: Resume sends nothing and says to enter the key", async () => {
  const { upstream, serve, browser } = env;
  const context = await browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await enterKey(page, KEY);
    await setRunOptions(page, { concurrency: 2 });
    await loadDataset(page, "paused.jsonl", datasetJSONL(40));
    await page.click('[data-ref="batch-run"]');
    await waitFor(async () => {
      const p = await progress(page);
      return p && p.done >= 2 ? p : null;
    }, 60_000, "2 rows done");
    await page.click('[data-ref="batch-pause"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-run-card"]').dataset.state === "paused");

    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    await page.waitForSelector('[data-ref="batch-resume"]:not([hidden])', { timeout: 30_000 });
    const calls = upstream.stats.calls;
    await page.click('[data-ref="batch-resume"]');
    assert.match(await held(page), /^Enter your key to resume/);
    assert.equal(upstream.stats.calls, calls, "Resume without the key: not one call");
    assert.deepEqual(upstream.stats.keyless, []);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
