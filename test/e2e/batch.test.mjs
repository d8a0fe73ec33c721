// batch.test.mjs: the Batch view in real headless chromium, through the real dev server, against
// a fake upstream that injects faults (5xx, 429 with Retry-After, hangs, unreadable answers). A
// 200-row RAGAS-style dataset must end with every row a verdict or an error; a reload mid-run must
// lose nothing and resume; a second run must be answered from the cache; exports hold every row.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { datasetJSONL, expectedStatus } from "./batch-upstream.mjs";
import { useBatchEnv, startServed, openBatch, newBatchPage, setRunOptions, loadDataset, setNumber, progress, runEnd, waitFor } from "./batch-env.mjs";

const N = 200;
const env = useBatchEnv({ latencyMs: 40, faults: true });

async function exported(page, fmt) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="batch-export-${fmt}"]`)]);
  return readFile(await download.path(), "utf8");
}

test("a 200-row run through faults: every row ends, a reload resumes, a second run is cached, exports hold every row", async () => {
  const { browser, serve, upstream } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  const { page, pageErrors } = await newBatchPage(context, serve.url);

  // Short timeouts keep the test quick: a hung call is abandoned after 2 s, a row tries 3 times.
  await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 6 });
  await loadDataset(page, "ragas.jsonl", datasetJSONL(N));

  // The RAGAS names were mapped onto answer-grounding's inputs, and the preview shows no problem.
  assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "response");
  assert.equal(await page.inputValue('[data-ref="batch-map-facts"]'), "retrieved_contexts");
  assert.match(await page.textContent('[data-ref="batch-problems"]'), /All 200 rows/);
  assert.match(await page.textContent('[data-ref="batch-estimate"]'), /About 200 calls and ~[\d,]+ input tokens .*4 characters per token/);

  await page.click('[data-ref="batch-run"]');
  const before = await waitFor(async () => {
    const p = await progress(page);
    return p && p.done >= 50 && p.done < N ? p : null;
  }, 30_000, "50 rows done");

  // Reload mid-run: what finished is still there, and the run goes on by itself.
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  const afterReload = await waitFor(progress.bind(null, page), 15_000, "the run after reload");
  assert.ok(afterReload.done >= before.done, `after reload ${afterReload.done} rows shown, ${before.done} before`);
  const end = await runEnd(page, 45_000);
  assert.equal(end.done, N, end.text);

  // Every row: a verdict or an error, the one the fake upstream's faults call for.
  const lines = (await exported(page, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, N);
  const wrong = lines.filter((r) => r.status !== expectedStatus(r.row)).map((r) => `row ${r.row}: ${r.status} (${r.reason})`);
  assert.deepEqual(wrong, []);
  for (const r of lines) {
    if (r.status === "error") assert.match(r.error.message, /failed \(503\) after 3 attempts/);
    if (r.status === "undetermined") assert.equal(r.answers.length, 2, "one repair request was made");
  }
  const repaired = lines.filter((r) => r.row % 20 === 4 && r.row % 50 !== 6);
  // A row whose unreadable first answer reached the page but was neither stored nor cached when
  // the page reloaded is asked again after the reload, and the fake answers its second call
  // readably: one answer, and the upstream saw the lost call.
  const lostToReload = (r) => r.answers.length === 1 && upstream.stats.byRow[r.row] >= 2;
  const unrepaired = repaired.filter((r) => !((r.answers.length === 2 || lostToReload(r)) && r.status !== "undetermined"));
  assert.deepEqual(unrepaired.map((r) => [r.row, r.status, r.answers]), [], "unreadable answers were repaired");

  // The summary agrees with the rows.
  const passed = lines.filter((r) => r.status === "passed").length;
  const decided = lines.filter((r) => r.status === "passed" || r.status === "failed").length;
  assert.equal(await page.textContent('[data-ref="batch-pass-rate"] .stat-value'), Math.round((passed / decided) * 1000) / 10 + "%");
  assert.equal(await page.locator('[data-ref="histogram"] .hist-bin').count(), 10);

  // A row opens the same verdict view as Evaluate.
  await page.click('[data-ref="batch-filter-failed"]');
  await page.locator('[data-ref="batch-table"] .vt-row').first().click();
  await page.waitForSelector('[data-ref="batch-dialog"][open] [data-ref="verdict-view"]');
  assert.equal(await page.getAttribute('[data-ref="batch-dialog"] [data-ref="verdict-view"]', "data-state"), "fail");
  await page.keyboard.press("Escape");

  // Markup in a dataset cell is shown as text in the preview, the table and the row's verdict view, and never runs.
  await page.click('[data-ref="batch-filter-all"]');
  const row7 = page.locator('[data-ref="batch-table"] .vt-row[data-index="6"]');
  assert.match(await row7.textContent(), /<img src=x onerror=/);
  await row7.click();
  await page.waitForSelector('[data-ref="batch-dialog"][open]');
  assert.match(await page.textContent('[data-ref="batch-dialog"]'), /<script>window.__xss=2<\/script>/);
  await page.keyboard.press("Escape");
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.equal(await page.locator('main img, main script').count(), 0);

  // CSV and JSON exports hold every row too.
  const csv = await exported(page, "csv");
  assert.equal(csv.split("\r\n").filter((l) => /^\d+,/.test(l)).length, N);
  const json = JSON.parse(await exported(page, "json"));
  assert.equal(json.rows.length, N);
  assert.equal(json.summary.total, N);
  assert.ok(!JSON.stringify(json).includes("Bearer"));

  // A second run of the same dataset is answered from the cache: no row the first run answered calls upstream again.
  const callsBefore = { ...upstream.stats.byRow };
  const firstRun = (await progress(page)).run;
  await loadDataset(page, "ragas.jsonl", datasetJSONL(N));
  await page.click('[data-ref="batch-run"]');
  const second = await waitFor(async () => {
    const p = await progress(page);
    return p && p.run !== firstRun && p.state === "done" && p.total === N && p.done === N ? p : null;
  }, 30_000, "the second run to finish");
  const errorRows = lines.filter((r) => r.status === "error").map((r) => r.row);
  const recalled = Object.keys(upstream.stats.byRow).filter((row) => upstream.stats.byRow[row] !== callsBefore[row]).map(Number);
  assert.deepEqual(recalled.sort((a, b) => a - b), errorRows, "only the rows that ended in errors were asked again");
  // Every answer a row kept is in the cache (a row that lost its first answer to the reload kept one).
  const answeredCalls = lines.filter((r) => r.status !== "error").reduce((sum, r) => sum + r.answers.length, 0);
  assert.equal(second.cacheHits, answeredCalls, second.text);
  assert.match(second.text, new RegExp(`cache hits ${answeredCalls} of`));

  // The runs list has both runs; deleting asks twice, in place, and removes one.
  assert.equal(await page.locator('[data-ref="batch-runs"] tbody tr').count(), 2);
  const del = page.locator('[data-ref="batch-runs"] tbody tr').last().locator('[data-ref="batch-delete-run"]');
  await del.click();
  assert.match(await del.textContent(), /Delete 200 rows\?/);
  await del.click();
  await waitFor(async () => (await page.locator('[data-ref="batch-runs"] tbody tr').count()) === 1, 5_000, "the run to be deleted");
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test("through the dev server a run keeps more than 6 calls in flight: they share its calls socket", async () => {
  const { upstream: slow, serve: srv, close } = await startServed({ latencyMs: 150, faults: false });
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    const sockets = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    await openBatch(page, srv.url);
    await setNumber(page, "batch-concurrency", 12);
    await loadDataset(page, "ragas.jsonl", datasetJSONL(48));
    assert.equal(await page.textContent('[data-ref="batch-concurrency-hint"]').catch(() => ""), "", "no 6-call warning");
    await page.click('[data-ref="batch-run"]');
    const end = await runEnd(page, 60_000);
    assert.equal(end.done, 48, end.text);
    assert.ok(slow.stats.maxInflight > 6, `at most ${slow.stats.maxInflight} calls were in flight at the upstream`);
    assert.ok(slow.stats.maxInflight <= 12, `the concurrency is a bound: ${slow.stats.maxInflight} in flight`);
    assert.deepEqual([...new Set(sockets)], [srv.url.replace(/^http/, "ws") + "/ragjudge/calls"]);
  } finally {
    await context.close();
    await close();
  }
});

test("a RAGAS-style CSV with JSON-array cells loads with the right mapping and runs to the end", async () => {
  // question,answer,contexts,ground_truth: the older RAGAS names; contexts is a JSON array in a
  // quoted cell, with commas, doubled quotes and a newline inside, as spreadsheets write them.
  const rows = ["question,answer,contexts,ground_truth"];
  for (let i = 1; i <= 300; i++) {
    const contexts = JSON.stringify([`The Eiffel Tower stands in Paris, "the capital" (fact ${i}).`, "It was completed in 1889.\nIt is 330 m tall."]);
    rows.push([`Where is it? (${i})`, `row-${i}: It is in Paris.`, contexts, "Paris"].map((c) => '"' + c.replaceAll('"', '""') + '"').join(","));
  }
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    await openBatch(page, env.serve.url);
    await setRunOptions(page, { timeout: 2, attempts: 3, concurrency: 12 }); // the fake upstream's faults include hangs
    await loadDataset(page, "ragas.csv", rows.join("\r\n") + "\r\n");
    assert.match(await page.textContent('[data-ref="batch-file-msg"]'), /300 rows \(CSV\)/);
    assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "answer");
    assert.equal(await page.inputValue('[data-ref="batch-map-facts"]'), "contexts");
    assert.match(await page.textContent('[data-ref="batch-problems"]'), /All 300 rows/);
    // The contexts cell became a list of two facts, not one string.
    assert.match(await page.textContent('[data-ref="batch-preview"]'), /completed in 1889/);
    await page.click('[data-ref="batch-run"]');
    const end = await runEnd(page, 90_000, "the CSV run to finish");
    assert.equal(end.done, 300, end.text);
    const lines = (await exported(page, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 300);
    assert.deepEqual(lines[0].inputs.facts, [`The Eiffel Tower stands in Paris, "the capital" (fact 1).`, "It was completed in 1889.\nIt is 330 m tall."]);
  } finally {
    await context.close();
  }
});
