// batch-file.test.mjs: the batch file round trip in real headless chromium. A dataset is run live
// through the dev server against the fake upstream; the same dataset is exported as an OpenAI
// Batch API file, whose every line's body this test sends to the same fake upstream over HTTP and
// writes back as batch output lines (with an error file, a non-200 line, an unreadable answer, a
// duplicate, unknown custom_ids and a malformed line); the import must give every row the verdict
// the live run gave it, except the rows the batch service failed, report each odd line with where
// it is, survive a reload, and refuse the same output for another dataset.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, newBatchPage, loadDataset, setRunOptions, setNumber, progress, runEnd, waitFor } from "./batch-env.mjs";

const N = 30;
const env = useBatchEnv({ latencyMs: 1, faults: false, keepBodies: true });

async function downloaded(page, ref) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="${ref}"]`)]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
}

const jsonl = (text) => text.trimEnd().split("\n").map((l) => JSON.parse(l));

test("export a batch file, answer it with the fake upstream, import the output: the live run's verdicts, every odd line reported", async () => {
  const { browser, serve, upstream } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  const { page, pageErrors } = await newBatchPage(context, serve.url);

  // The live run, for the verdicts to compare with, and the bodies its calls sent.
  await loadDataset(page, "ragas.jsonl", datasetJSONL(N));
  await page.click('[data-ref="batch-run"]');
  const live = await runEnd(page, 60_000, "the live run");
  assert.equal(live.done, N);
  const liveRows = jsonl((await downloaded(page, "batch-export-jsonl")).text);
  const liveBodies = upstream.bodies.map((b) => JSON.parse(b));
  assert.equal(liveBodies.length, N, "one call per row, no repair needed");

  // The batch file of the same dataset.
  await loadDataset(page, "ragas.jsonl", datasetJSONL(N));
  const file = await downloaded(page, "batch-export-batchfile");
  assert.equal(file.name, "ragas-answer-grounding.batch.jsonl");
  // The model the live run asked: a keyless local endpoint's listed one, not gpt-4o-mini (finding 4).
  assert.notEqual(liveBodies[0].model, "gpt-4o-mini");
  assert.match(await page.textContent('[data-ref="batchfile-msg"]'), new RegExp(`✓ Wrote ${file.name}: ${N} requests for model ${liveBodies[0].model},`));
  assert.ok(!/Bearer|sk-/.test(file.text), "no key in the file");
  const requests = jsonl(file.text);
  assert.equal(requests.length, N);
  const hash = /^rj:([0-9a-f]{16}):1$/.exec(requests[0].custom_id)[1];
  requests.forEach((r, i) => {
    assert.deepEqual(Object.keys(r), ["custom_id", "method", "url", "body"]);
    assert.equal(r.custom_id, `rj:${hash}:${i + 1}`);
    assert.equal(r.method, "POST");
    assert.equal(r.url, "/v1/chat/completions");
    assert.equal(r.body.stream, false);
    // Exactly what the live run sent for that row (its calls went out in any order).
    const sent = liveBodies.find((b) => b.messages[0].content === r.body.messages[0].content);
    assert.deepEqual(r.body, sent, `row ${i + 1}'s request`);
  });

  // The batch service: each body sent to the fake upstream over HTTP, written as OpenAI's output lines.
  const out = [];
  const errs = [];
  for (const r of requests) {
    const row = Number(r.custom_id.split(":")[2]);
    if (row === 10) {
      errs.push(JSON.stringify({ id: "batch_req_" + row, custom_id: r.custom_id, response: null, error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." } }));
      continue;
    }
    const res = await fetch(upstream.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(r.body) });
    let body = await res.json();
    let status = res.status;
    if (row === 11) [status, body] = [500, { error: { message: "The server had an error while processing your request.", type: "server_error" } }];
    if (row === 12) body.choices[0].message.content = "Hard to say; the facts are vague.";
    out.push(JSON.stringify({ id: "batch_req_" + row, custom_id: r.custom_id, response: { status_code: status, request_id: "req_" + row, body }, error: null }));
  }
  out.push(out[0]); // line 30: a duplicate of row 1
  out.push(out[1].replace(`rj:${hash}:2`, `rj:${hash}:999`)); // line 31: a row the export does not have
  out.push(out[2].replace(`rj:${hash}:3`, "request-3")); // line 32: not this page's
  out.push("{half a line"); // line 33
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([
    { name: "errors.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(errs.join("\n") + "\n") },
    { name: "results.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(out.join("\n") + "\n") },
  ]);
  const imported = await waitFor(async () => {
    const p = await progress(page);
    return p && p.run !== live.run && p.done === N ? p : null;
  }, 30_000, "the imported run");
  assert.equal(imported.total, N);

  // The report: each odd line with its file and line number.
  const report = page.locator('[data-ref="batchfile-report"]');
  assert.equal(await report.isHidden(), false);
  assert.match(await report.locator("summary").textContent(), /results\.jsonl, errors\.jsonl\): 28 answered, 2 failed, 1 duplicate, 2 unknown custom_ids, 1 malformed line\./);
  assert.match(await page.textContent('[data-ref="batchfile-report-failed"]'), /results\.jsonl:10 rj:\w+:11: HTTP 500: The server had an error[\s\S]*errors\.jsonl:1 rj:\w+:10: not run \(batch_expired\)/);
  assert.match(await page.textContent('[data-ref="batchfile-report-duplicate"]'), /results\.jsonl:30 .*row 1 was already answered at results\.jsonl:1/);
  assert.match(await page.textContent('[data-ref="batchfile-report-unknown"]'), /results\.jsonl:31 .*:999: row 999 was not in the exported file[\s\S]*results\.jsonl:32 request-3: not a custom_id this page wrote/);
  assert.match(await page.textContent('[data-ref="batchfile-report-malformed"]'), /results\.jsonl:33: not JSON/);
  assert.equal(await page.locator('[data-ref="batchfile-report-missing"]').count(), 0);

  // The verdicts: the live run's, row for row, but for the three rows the batch service failed.
  const rows = jsonl((await downloaded(page, "batch-export-jsonl")).text);
  assert.equal(rows.length, N);
  for (const r of rows) {
    if (r.row === 10) {
      assert.equal(r.status, "error");
      assert.match(r.error.message, /The batch expired before it ran this request \(batch_expired\)/);
      assert.equal(r.cause, "batch expired before it ran");
    } else if (r.row === 11) {
      assert.equal(r.status, "error");
      assert.equal(r.error.status, 500);
    } else if (r.row === 12) {
      assert.equal(r.status, "undetermined");
      assert.ok(r.checks.some((c) => c.code === "repair.none"), "says no repair request was possible");
      assert.deepEqual(r.answers, ["Hard to say; the facts are vague."]);
    } else assert.deepEqual(r, liveRows[r.row - 1], `row ${r.row}`);
  }
  assert.ok(rows.some((r) => r.status === "failed") && rows.some((r) => r.status === "passed"), "both verdicts occur");

  // A reload reopens the imported run, its report with it.
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  const again = await waitFor(async () => {
    const p = await progress(page);
    return p && p.run === imported.run && p.done === N ? p : null;
  }, 15_000, "the imported run after a reload");
  assert.equal(again.total, N);
  assert.match(await page.locator('[data-ref="batchfile-report"] summary').textContent(), /28 answered/);

  // The same output for another dataset is refused, and makes no run.
  const runsBefore = await page.locator('[data-ref="batch-runs"] tbody tr').count();
  await loadDataset(page, "other.jsonl", datasetJSONL(N + 1));
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([{ name: "results.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(out.join("\n") + "\n") }]);
  await page.waitForFunction(() => /another export/.test(document.querySelector('[data-ref="batchfile-msg"]').textContent));
  assert.match(await page.textContent('[data-ref="batchfile-msg"]'), new RegExp(`✗ This output file answers another export \\(rj:${hash}\\)`));
  assert.equal(await page.locator('[data-ref="batch-runs"] tbody tr').count(), runsBefore);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test("repeats and the run's temperature: each row's lines carry the repeat number, the import gives the live run's majority verdicts", async () => {
  const { browser, serve, upstream } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  const { page, pageErrors } = await newBatchPage(context, serve.url);
  const n = 8;
  await setRunOptions(page, { concurrency: 4 });
  await setNumber(page, "batch-repeats", 3);
  await setNumber(page, "batch-temperature", 0.7);
  const sentBefore = upstream.bodies.length;
  await loadDataset(page, "rep.jsonl", datasetJSONL(n));
  await page.click('[data-ref="batch-run"]');
  const live = await runEnd(page, 60_000, "the live run with repeats");
  assert.equal(live.done, n);
  const liveRows = jsonl((await downloaded(page, "batch-export-jsonl")).text);
  const liveBodies = upstream.bodies.slice(sentBefore).map((b) => JSON.parse(b));
  assert.equal(liveBodies.length, 3 * n);

  await loadDataset(page, "rep.jsonl", datasetJSONL(n));
  const file = await downloaded(page, "batch-export-batchfile");
  assert.match(await page.textContent('[data-ref="batchfile-msg"]'), new RegExp(`${3 * n} requests \\(each row 3 times\\)`));
  const requests = jsonl(file.text);
  assert.equal(requests.length, 3 * n);
  const out = [];
  for (const [k, r] of requests.entries()) {
    const [, , row, rep] = r.custom_id.split(":").map(Number);
    assert.deepEqual([row, rep], [Math.floor(k / 3) + 1, (k % 3) + 1]);
    assert.equal(r.body.temperature, 0.7);
    assert.deepEqual(r.body, liveBodies.find((b) => b.messages[0].content === r.body.messages[0].content), `row ${row}'s request`);
    const res = await fetch(upstream.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(r.body) });
    out.push(JSON.stringify({ id: "b" + k, custom_id: r.custom_id, response: { status_code: res.status, request_id: "r" + k, body: await res.json() }, error: null }));
  }
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([{ name: "results.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(out.reverse().join("\n")) }]);
  await waitFor(async () => {
    const p = await progress(page);
    return p && p.run !== live.run && p.done === n ? p : null;
  }, 30_000, "the imported run");
  assert.match(await page.locator('[data-ref="batchfile-report"] summary').textContent(), new RegExp(`: ${3 * n} answered\\.`));
  const rows = jsonl((await downloaded(page, "batch-export-jsonl")).text);
  assert.deepEqual(rows, liveRows);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test("an error row's badge is its word whole; its cause leads the note, never cut mid-word by the column (finding 12)", async () => {
  const context = await env.browser.newContext({ acceptDownloads: true });
  const { page, pageErrors } = await newBatchPage(context, env.serve.url);
  await loadDataset(page, "three.jsonl", datasetJSONL(3));
  const requests = jsonl((await downloaded(page, "batch-export-batchfile")).text);
  // Row 2 refused as an over-long prompt, as OpenAI's batch output writes it; the others answered.
  const out = requests.map((r, i) =>
    JSON.stringify(
      i === 1
        ? { id: "b2", custom_id: r.custom_id, response: { status_code: 400, request_id: "r2", body: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.", type: "invalid_request_error", code: "context_length_exceeded" } } }, error: null }
        : { id: "b" + i, custom_id: r.custom_id, response: { status_code: 200, request_id: "r" + i, body: { choices: [{ index: 0, message: { role: "assistant", content: "Yes" }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 1 } } }, error: null },
    ),
  );
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([{ name: "out.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(out.join("\n") + "\n") }]);
  await waitFor(async () => ((await progress(page)) || {}).done === 3, 30_000, "the imported run");
  const row = page.locator('[data-ref="batch-table"] .vt-row[data-index="1"]');
  await row.waitFor();
  const badge = await row.locator(".vt-verdict .badge").evaluate((b) => ({ text: b.textContent.trim(), cut: b.scrollWidth > b.clientWidth + 1 }));
  assert.deepEqual(badge, { text: "!Error", cut: false });
  assert.match(await row.locator(".vt-note").textContent(), /^HTTP 400 \(context_length_exceeded\) · /);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
