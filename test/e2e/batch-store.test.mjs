// batch-store.test.mjs: a live run of enough rows that storing them takes a while says so after
// its message line, a percentage at a time, and takes it away once they are stored; after a
// reload the run opens with every row (stored in chunks: store.js), in real headless chromium
// through the real dev server and a fake upstream.

import { test } from "node:test";
import assert from "node:assert/strict";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, newBatchPage, setRunOptions, loadDataset, progress, waitFor } from "./batch-env.mjs";

const ROWS = 6000;
const env = useBatchEnv({ latencyMs: 50, faults: false });

test("a live run of 6,000 rows says how far its rows are stored, then opens whole after a reload", async () => {
  const { browser, serve } = env;
  const context = await browser.newContext();
  await context.addInitScript(() => {
    if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: { model: "fake-judge" } }));
    // Every text the run's message line shows, however briefly.
    window.__lines = [];
    addEventListener("DOMContentLoaded", () =>
      new MutationObserver(() => {
        const el = document.querySelector('[data-ref="batch-live"]');
        const t = el ? el.textContent : "";
        if (t && window.__lines[window.__lines.length - 1] !== t) window.__lines.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true }),
    );
  });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { concurrency: 2 });
    await loadDataset(page, "big.jsonl", datasetJSONL(ROWS));
    await page.click('[data-ref="batch-run"]');
    const base = `Running ${ROWS.toLocaleString("en")} rows.`;
    const lines = await waitFor(async () => {
      const l = await page.evaluate(() => window.__lines);
      return l.includes(`${base} Storing its rows in this browser… 100%`) && l[l.length - 1] === base ? l : null;
    }, 60_000, "the rows to be stored and the note to go");
    const notes = lines.filter((l) => l.startsWith(base + " Storing"));
    assert.ok(notes.length >= 2, "the note counts up: " + notes.join(" | "));
    const pcts = notes.map((l) => Number(/(\d+)%$/.exec(l)[1]));
    assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b), "never backwards");
    await page.click('[data-ref="batch-pause"]');

    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    const p = await waitFor(() => progress(page), 60_000, "the run to reopen");
    assert.equal(p.total, ROWS);
    // Every row is there: the last one's question is in the stored rows.
    const last = await page.evaluate(async (runId) => {
      const { IDBStore } = await import("./batch/runstore.js");
      const store = await IDBStore.open();
      const items = await store.getItems(runId);
      return { n: items.length, q: items[items.length - 1].inputs };
    }, p.run);
    assert.equal(last.n, ROWS);
    assert.match(JSON.stringify(last.q), new RegExp(`row-${ROWS}\\b`));
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
