// batch-seams.test.mjs: where the Batch view's features meet, in real headless chromium through the
// real dev server against the fake upstream (batch-upstream.mjs). What a run will spend is said
// before Run and before a batch file's export, the default model is one the endpoint lists, and a
// new dataset does not take the last one's repeats; a batch file's answers are bought once: an
// import fills the request cache, so Resume and the retries pay only for what the file did not
// answer, the retry buttons say the summary's counts, a failed repeat's siblings are kept, and a
// finished run is never "idle".

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { load } from "../../web/ragjudge.js";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, newBatchPage, loadDataset, setNumber, progress, runEnd, waitFor } from "./batch-env.mjs";

const env = useBatchEnv({ latencyMs: 1, faults: false, keepBodies: true });
const rj = await load();
const KEY = "sk-seams-test";
/** SHOTS: where the screenshots of the setup line and the summary go, to be looked at. */
const SHOTS = join(tmpdir(), "ragjudge-batch-seams");

/** seeded is a context whose page starts with settings (and the key, remembered) already saved. */
async function seeded(settings) {
  const context = await env.browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  await context.addInitScript(
    ([s, k]) => {
      if (localStorage.getItem("ragjudge.page.v1")) return;
      localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: s }));
      localStorage.setItem("ragjudge.page.key", k);
    },
    [{ endpoint: "proxy", remember: true, ...settings }, KEY],
  );
  return context;
}

const text = (page, ref) => page.textContent(`[data-ref="${ref}"]`);

async function downloaded(page, ref) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="${ref}"]`)]);
  return readFile(await download.path(), "utf8");
}

const jsonl = (t) => t.trimEnd().split("\n").map((l) => JSON.parse(l));

/** upstreamCalls are the chat calls the fake upstream got since `from` (an index into its bodies), with their row and whether each is a repair request. */
function upstreamCalls(from) {
  return env.upstream.bodies.slice(from).map((b) => {
    const j = JSON.parse(b);
    return { row: Number(/row-(\d+)/.exec(j.messages[0].content)[1]), repair: j.messages.length > 1, body: j };
  });
}

/** answerLine is an OpenAI batch output line for request r, with the fake upstream's real answer to its body. */
async function answerLine(r, edit = (body) => body) {
  const res = await fetch(env.upstream.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(r.body) });
  return JSON.stringify({ id: "batch_req_" + r.custom_id, custom_id: r.custom_id, response: { status_code: 200, request_id: "req_" + r.custom_id, body: edit(await res.json()) }, error: null });
}

/** waitRun waits until the open run is not runId, has done rows and is in state (progress's view of it). */
function waitRun(page, { not = "", done, state, what }) {
  return waitFor(async () => {
    const p = await progress(page);
    return p && p.run !== not && (done === undefined || p.done === done) && (state === undefined || p.state === state) ? p : null;
  }, 60_000, what);
}

test("before Run and before an export: calls, model, temperature and max tokens on one line; the default model is the endpoint's; a new dataset starts at one repeat", async () => {
  await mkdir(SHOTS, { recursive: true });
  // No model chosen: the page's default (gpt-4o-mini) is not one the fake upstream lists.
  const context = await seeded({});
  const { page, pageErrors } = await newBatchPage(context, env.serve.url);
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-ref="where"]').dataset.models || ""));
  const settings = () => page.evaluate(() => JSON.parse(localStorage.getItem("ragjudge.page.v1")).settings);
  assert.equal((await settings()).model, "fake-judge", "the first model the endpoint lists");
  await page.click('[data-ref="settings-button"]');
  await page.waitForFunction(() => /models offered by the endpoint/.test(document.querySelector('[data-ref="settings"]').textContent));
  const hint = await page.locator('[data-ref="settings"]').textContent();
  assert.match(hint, /2 models offered by the endpoint; type to pick one\. gpt-4o-mini is not offered here, so the model is fake-judge, one the endpoint lists/);
  assert.equal(await page.inputValue('[data-ref="model"]'), "fake-judge");
  await page.keyboard.press("Escape");

  // Repeats and temperature chosen before any dataset is loaded are the first dataset's.
  await setNumber(page, "batch-repeats", 3);
  await setNumber(page, "batch-temperature", 0.7);
  await loadDataset(page, "first.jsonl", datasetJSONL(10));
  assert.equal(await text(page, "batch-setup-line"), "10 rows × 3 repeats = 30 calls · fake-judge · temperature 0.7 · max tokens 2,048");
  assert.equal(await text(page, "batchfile-setup-line"), "The file: 10 rows × 3 repeats = 30 requests · fake-judge · temperature 0.7 · max tokens 2,048");
  assert.equal(await text(page, "batch-repeats-note"), "");
  await page.locator('[data-ref="batch-setup-line"]').scrollIntoViewIfNeeded();
  await page.locator(".batch-options").screenshot({ path: join(SHOTS, "setup-line.png") });

  // The model settings change the line at once (here the cap on answer tokens).
  await page.click('[data-ref="settings-button"]');
  await page.fill('[data-ref="max-tokens"]', "512");
  await page.locator('[data-ref="max-tokens"]').dispatchEvent("change");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => /max tokens 512$/.test(document.querySelector('[data-ref="batch-setup-line"]').textContent));
  assert.match(await text(page, "batchfile-setup-line"), /= 30 requests · fake-judge · temperature 0\.7 · max tokens 512$/);

  const calls = env.upstream.bodies.length;
  await page.click('[data-ref="batch-run"]');
  const first = await runEnd(page, 60_000, "the run of 3 repeats");
  assert.equal(env.upstream.bodies.length - calls, 30, "the calls the line said");
  assert.ok(upstreamCalls(calls).every((c) => c.body.model === "fake-judge" && c.body.temperature === 0.7 && c.body.max_tokens === 512), "what the line said is what was sent");

  // Another dataset does not take those repeats silently: back to 1, and said.
  await loadDataset(page, "second.jsonl", datasetJSONL(12));
  assert.equal(await page.inputValue('[data-ref="batch-repeats"]'), "1");
  assert.equal(await text(page, "batch-repeats-note"), "Back to 1 for second.jsonl: 3 was chosen for first.jsonl.");
  assert.equal(await text(page, "batch-setup-line"), "12 calls, one per row · fake-judge · temperature 0.7 · max tokens 512");
  assert.match(await text(page, "batch-estimate"), /^About 12 calls and/);
  // Chosen again for this dataset, they stay with it when it is loaded again.
  await setNumber(page, "batch-repeats", 2);
  assert.equal(await text(page, "batch-repeats-note"), "");
  await loadDataset(page, "second.jsonl", datasetJSONL(12));
  assert.equal(await page.inputValue('[data-ref="batch-repeats"]'), "2");
  assert.match(await text(page, "batch-setup-line"), /^12 rows × 2 repeats = 24 calls · /);
  assert.equal((await progress(page)).run, first.run, "loading a dataset starts no run");

  // A model the user types is kept, even one the endpoint does not list, and the hint says so.
  await page.click('[data-ref="settings-button"]');
  await page.fill('[data-ref="model"]', "my-deployment");
  await page.locator('[data-ref="model"]').dispatchEvent("change");
  await page.waitForFunction(() => /does not list my-deployment \(it lists 2 models\)/.test(document.querySelector('[data-ref="settings"]').textContent));
  await page.keyboard.press("Escape");
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-ref="where"]').dataset.models || ""));
  assert.equal((await settings()).model, "my-deployment", "never replaced by the endpoint's list");
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test("a batch file's answers are bought once: Resume and the retries pay only for what the file did not answer; the buttons say the summary's counts; never idle", async () => {
  const N = 20;
  const context = await seeded({ model: "fake-judge" });
  const { page, pageErrors } = await newBatchPage(context, env.serve.url);
  await loadDataset(page, "half.jsonl", datasetJSONL(N));
  const requests = jsonl(await downloaded(page, "batch-export-batchfile"));
  assert.equal(requests.length, N);

  // The batch service answered rows 1-10: row 3 refused (400, context_length_exceeded), row 4
  // unreadable, row 5 expired (in the error file). Rows 11-20 are in no file.
  const out = [];
  const errs = [];
  for (const r of requests.slice(0, 10)) {
    const row = Number(r.custom_id.split(":")[2]);
    if (row === 3) out.push(JSON.stringify({ id: "b3", custom_id: r.custom_id, response: { status_code: 400, request_id: "r3", body: { error: { message: "This model's maximum context length is 128000 tokens.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } } }, error: null }));
    else if (row === 5) errs.push(JSON.stringify({ id: "b5", custom_id: r.custom_id, response: null, error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." } }));
    else out.push(await answerLine(r, (body) => (row === 4 ? { ...body, choices: [{ ...body.choices[0], message: { role: "assistant", content: "Hard to say; the facts are vague." } }] } : body)));
  }
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([
    { name: "results.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(out.join("\n") + "\n") },
    { name: "errors.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(errs.join("\n") + "\n") },
  ]);
  const imported = await waitRun(page, { done: 10, what: "the imported run" });
  assert.equal(imported.state, "paused", "an imported run with rows left is paused, not idle");
  assert.equal(await page.getAttribute('[data-ref="batch-run-card"]', "data-state"), "paused");
  const causes = await text(page, "batch-causes");
  assert.match(causes, /batch expired before it ran/);
  assert.match(causes, /HTTP 400 \(context_length_exceeded\)/);
  assert.equal(await page.locator('[data-ref="batch-cancel"]').isHidden(), true, "nothing to cancel in a run this tab is not running");

  // Resume: the rows the file did not answer, and the expired one; none of the file's answers again.
  let from = env.upstream.bodies.length;
  await page.click('[data-ref="batch-resume"]');
  const resumed = await waitRun(page, { done: N, state: "done", what: "the resumed run" });
  const paid = upstreamCalls(from);
  assert.deepEqual(paid.map((c) => c.row).sort((a, b) => a - b), [5, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.equal(resumed.state, "done");

  // The retry buttons say the summary's counts: 1 error (row 3's 400), 1 undetermined (row 4).
  assert.equal(await page.textContent('[data-ref="batch-undetermined"] .stat-value'), "1");
  assert.match(await page.textContent('[data-ref="batch-undetermined"] .hint'), /^1 error$/);
  assert.equal(await text(page, "batch-retry-failed"), "↻ Retry 1 failed row");
  assert.equal(await text(page, "batch-retry-undetermined"), "↻ Ask again for 1 undetermined row");
  await page.locator('[data-ref="batch-summary"]').screenshot({ path: join(SHOTS, "summary.png") });
  await page.locator('[data-ref="batch-run-card"] .run-row').screenshot({ path: join(SHOTS, "run-buttons.png") });

  // Retry failed rows: one call, row 3's.
  from = env.upstream.bodies.length;
  await page.click('[data-ref="batch-retry-failed"]');
  await waitFor(async () => (await page.locator('[data-ref="batch-retry-failed"]').isHidden()) && (await progress(page)).state === "done", 60_000, "the retry");
  assert.deepEqual(upstreamCalls(from).map((c) => [c.row, c.repair]), [[3, false]]);

  // Ask again for the undetermined row: its answer came from the file, so what it never got is
  // its repair request; nothing else is paid for.
  from = env.upstream.bodies.length;
  await page.click('[data-ref="batch-retry-undetermined"]');
  await waitFor(async () => (await page.locator('[data-ref="batch-retry-undetermined"]').isHidden()) && (await progress(page)).state === "done", 60_000, "asking again");
  assert.deepEqual(upstreamCalls(from).map((c) => [c.row, c.repair]), [[4, true]]);
  const rows = jsonl(await downloaded(page, "batch-export-jsonl"));
  assert.deepEqual(rows.filter((r) => r.status === "error" || r.status === "undetermined"), []);

  // A reload reopens it finished, not idle.
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  const again = await waitRun(page, { done: N, what: "the run after a reload" });
  assert.equal(again.state, "done");
  assert.equal(await page.textContent(`[data-ref="batch-runs"] tr[data-run="${again.run}"] [data-col="state"]`), "done");
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test("repeats from a batch file: a row whose repeat failed keeps its answered repeats in the export, and Retry pays for that repeat alone", async () => {
  const N = 4;
  const context = await seeded({ model: "fake-judge" });
  const { page, pageErrors } = await newBatchPage(context, env.serve.url);
  await setNumber(page, "batch-repeats", 3);
  await loadDataset(page, "reps.jsonl", datasetJSONL(N));
  const requests = jsonl(await downloaded(page, "batch-export-batchfile"));
  assert.equal(requests.length, N * 3);
  const out = [];
  for (const r of requests) {
    const [, , row, rep] = r.custom_id.split(":").map(Number);
    if (row === 2 && rep === 2) out.push(JSON.stringify({ id: "x", custom_id: r.custom_id, response: { status_code: 500, request_id: "r", body: { error: { message: "The server had an error while processing your request.", type: "server_error" } } }, error: null }));
    else out.push(await answerLine(r));
  }
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([{ name: "results.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(out.join("\n") + "\n") }]);
  await waitRun(page, { done: N, what: "the imported run" });
  const rows = jsonl(await downloaded(page, "batch-export-jsonl"));
  const two = rows.find((r) => r.row === 2);
  assert.equal(two.status, "error");
  assert.deepEqual(two.repeats.map((x) => [x.passed, x.answers.length, x.error === null]), [[true, 1, true], [null, 0, false], [true, 1, true]], "the answered repeats of a row that ended in an error");
  assert.match(two.repeats[1].error, /server/);
  const csv = rj.readDataset(await downloaded(page, "batch-export-csv"), "csv");
  const line2 = csv.rows.find((r) => r.row === "2");
  assert.deepEqual([line2.status, line2.repeat_1, line2.repeat_2, line2.repeat_3, line2.repeat_3_answer], ["error", "true", "", "true", "Yes"]);

  // Every row has a result: the run is done, with one error to retry.
  assert.equal((await progress(page)).state, "done");
  assert.equal(await text(page, "batch-retry-failed"), "↻ Retry 1 failed row");
  const from = env.upstream.bodies.length;
  await page.click('[data-ref="batch-retry-failed"]');
  await waitFor(async () => {
    const p = await progress(page);
    return p && p.state === "done" && (await page.locator('[data-ref="batch-retry-failed"]').isHidden()) ? p : null;
  }, 60_000, "the retry");
  assert.deepEqual(upstreamCalls(from).map((c) => c.row), [2], "one call: the repeat that failed");
  const after = jsonl(await downloaded(page, "batch-export-jsonl")).find((r) => r.row === 2);
  assert.equal(after.status, "passed");
  assert.equal(after.cached_calls, 2);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
