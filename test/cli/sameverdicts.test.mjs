// sameverdicts.test.mjs: the page and the command line give the same verdicts. One dataset (ids,
// human labels, a source column named like one of the export's own fields, a row without an
// answer, a row whose first answer cannot be read and gets the engine's repair request), one
// evaluator, one model, the same answers from the fake upstream: the page's run in real headless
// Chromium through the dev server (the e2e harness), its JSONL export downloaded, and `ragjudge run`
// straight at the fake upstream with the page's defaults. The two files must be equal, line for
// line, byte for byte. The two reports too, but for what differs by nature: the styles (the
// page's CSSOM against its stylesheet files), the dates, and where the calls went. The same for a
// check-up: the page's check-up of a dataset and seed, and `ragjudge checkup` of the same, give
// the same cases, outcomes, export and report.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setup } from "../e2e/harness.mjs";
import { loadDataset, runEnd, setNumber, waitFor } from "../e2e/batch-env.mjs";
import { judgeAnswer, PAIRWISE_ROWS } from "../e2e/checkup-judges.mjs";
import { KEY, tmp, ragjudge, verdictFor, q } from "./cli.mjs";

const N = 10;

/** data is the dataset: RAGAS names, an id, a human label, and a column called status. */
function data() {
  const lines = ["id,user_input,response,retrieved_contexts,human_label,status"];
  for (let r = 1; r <= N; r++) {
    const label = r === 2 ? "fail" : r % 3 === 0 ? "no" : "yes";
    lines.push([`q${r}`, q(`Question ${r}: where is the Eiffel Tower? <b>&amp;</b>`), r === 7 ? "" : q(`row-${r}: The Eiffel Tower is in Paris & "nowhere" else.`), q(JSON.stringify([`The Eiffel Tower stands in Paris (fact ${r}).`, "Lyon\u00a0is elsewhere."])), label, r % 2 ? "reviewed" : ""].join(","));
  }
  return lines.join("\n") + "\n";
}

/**
 * normalized is a report's text without what differs by nature between the page's and the CLI's:
 * the styles, the dates, where the calls went, and the random ids of a check-up's bar patterns.
 */
function normalized(html) {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, "<style></style>")
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, "DATE")
    .replace(/\((via dev server|direct) → [^)]*\)/g, "(WHERE)")
    .replace(/cu-[0-9a-z]{6}(-[mu])/g, "cu-ID$1");
}

/** downloads are the open run's JSONL export and report, as the page saves them. */
async function downloads(page) {
  const [jsonlDownload] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-export-jsonl"]')]);
  const jsonl = await readFile(await jsonlDownload.path(), "utf8");
  await page.waitForSelector('[data-ref="batch-report"]:not([hidden])');
  const [reportDownload] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-report"]')]);
  return { jsonl, report: await readFile(await reportDownload.path(), "utf8") };
}

/** sameFiles holds the CLI's results file and report equal to the page's export and report; returns the rows. */
function sameFiles(page, cli) {
  const a = page.jsonl.split("\n");
  const b = cli.jsonl.split("\n");
  assert.equal(b.length, a.length);
  for (let i = 0; i < a.length; i++) assert.equal(b[i], a[i], `line ${i + 1}`);
  const pr = normalized(page.report);
  const cr = normalized(cli.report);
  if (cr !== pr) {
    let i = 0;
    while (i < pr.length && pr[i] === cr[i]) i++;
    assert.fail(`the reports differ at ${i}:\n page: …${pr.slice(Math.max(0, i - 120), i + 200)}\n cli:  …${cr.slice(Math.max(0, i - 120), i + 200)}`);
  }
  return a.filter(Boolean).map((l) => JSON.parse(l));
}

/** @type {any} */
let env;
before(async () => {
  env = await setup();
});
after(() => env && env.close());

test("the page's JSONL export and the CLI's results file are equal line for line; so are the reports", async () => {
  env.fake.answer = (prompt) => verdictFor(prompt);
  const page = await env.page({ settings: { endpoint: "proxy", model: "judge-mini", remember: true }, key: KEY, view: "batch" });
  await page.waitForSelector('[data-ref="batch-setup"]');
  await loadDataset(page, "eiffel.csv", data(), { mimeType: "text/csv" });
  assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "human_label");
  await page.click('[data-ref="batch-run"]');
  const end = await runEnd(page, 60_000);
  assert.equal(end.done, N, end.text);
  const pageFiles = await downloads(page);
  assert.deepEqual(page.pageErrors, []);
  const bodies = () => env.fake.requests.filter((r) => r.path === "/chat/completions").map((r) => r.body).sort((x, y) => (JSON.stringify(x.messages) < JSON.stringify(y.messages) ? -1 : 1));
  const pageBodies = bodies();

  const dir = tmp();
  writeFileSync(join(dir, "eiffel.csv"), data());
  env.fake.requests.length = 0;
  const cli = await ragjudge(["run", "--evaluator", "answer-grounding", "--data", "eiffel.csv", "--model", "judge-mini", "--base-url", env.fake.url, "--out", "results.jsonl", "--report", "report.html"], {
    cwd: dir,
    env: { OPENAI_API_KEY: KEY },
  });
  assert.equal(cli.code, 0, cli.out + cli.err);
  // The same requests, body for body: model, messages, parameters (the page's defaults).
  const cliBodies = bodies();
  assert.equal(cliBodies.length, N - 1 + 1, "nine rows and one repair request");
  assert.deepEqual(cliBodies, pageBodies);
  assert.deepEqual([cliBodies[0].temperature, cliBodies[0].max_tokens, cliBodies[0].stream], [0, 2048, false]);
  const rows = sameFiles(pageFiles, { jsonl: readFileSync(join(dir, "results.jsonl"), "utf8"), report: readFileSync(join(dir, "report.html"), "utf8") });
  // What the file holds: every kind of row, the source's own status column beside the verdict's.
  assert.deepEqual(rows.map((r) => r.ragjudge_status), ["passed", "passed", "failed", "passed", "passed", "failed", "error", "passed", "failed", "passed"]);
  assert.equal(rows[0].status, "reviewed");
  assert.equal(rows[4].checks.at(-1).code, "repair.used");
  assert.deepEqual([rows[1].label, rows[1].agrees], [false, false]);
});

test("a check-up: the page's JSONL export and the CLI's results file are equal line for line, outcome by outcome; so are the reports", async () => {
  // Pairwise rows judged in both orders ("judge both orders", --both-orders) by a judge that
  // prefers the first slot: its grades flip, the cases are undetermined or missed, each case's
  // exchanged answers are exported and the report has the position panel.
  env.fake.answer = judgeAnswer;
  const text = PAIRWISE_ROWS.map((r) => JSON.stringify(r)).join("\n") + "\n";
  const page = await env.page({ settings: { endpoint: "proxy", model: "judge-first", remember: true }, key: KEY, view: "batch" });
  await page.waitForSelector('[data-ref="batch-setup"]');
  await loadDataset(page, "pairs.jsonl", text, { evaluator: "pairwise-faithfulness" });
  await page.check('[data-ref="batch-both-orders"]');
  await page.click('[data-ref="checkup-new"]');
  await page.fill('[data-ref="checkup-seed"]', "77");
  await page.locator('[data-ref="checkup-seed"]').dispatchEvent("change");
  await setNumber(page, "checkup-rows", 4);
  await page.waitForFunction(() => /^From 4 rows: \d+ cases × 2 orders = /.test(document.querySelector('[data-ref="checkup-setup-line"]').textContent) && !document.querySelector('[data-ref="checkup-run"]').disabled);
  const pageLine = await page.textContent('[data-ref="checkup-setup-line"]');
  env.fake.requests.length = 0;
  await page.click('[data-ref="checkup-run"]');
  await waitFor(() => page.evaluate(() => document.querySelector('[data-ref="batch-run-card"]').dataset.state === "done" && !!document.querySelector('[data-ref="checkup-panel"]')), 60_000, "the check-up to finish");
  const pageFiles = await downloads(page);
  assert.deepEqual(page.pageErrors, []);
  const pageCalls = env.fake.requests.filter((r) => r.path === "/chat/completions").length;

  const dir = tmp();
  writeFileSync(join(dir, "pairs.jsonl"), text);
  env.fake.requests.length = 0;
  const cli = await ragjudge(["checkup", "--evaluator", "pairwise-faithfulness", "--data", "pairs.jsonl", "--model", "judge-first", "--base-url", env.fake.url, "--seed", "77", "--rows", "4", "--both-orders", "--out", "cases.jsonl", "--report", "report.html"], {
    cwd: dir,
    env: { OPENAI_API_KEY: KEY },
  });
  assert.equal(cli.code, 0, cli.out + cli.err);
  assert.ok(cli.err.includes(pageLine), `the page said "${pageLine}" before paying:\n${cli.err}`);
  assert.equal(env.fake.requests.filter((r) => r.path === "/chat/completions").length, pageCalls);
  const rows = sameFiles(pageFiles, { jsonl: readFileSync(join(dir, "cases.jsonl"), "utf8"), report: readFileSync(join(dir, "report.html"), "utf8") });
  assert.ok(rows.some((r) => r.outcome === "undetermined" && r.position_flip === true), "grades that flipped");
  assert.ok(rows.every((r) => Array.isArray(r.exchanged_answers) && r.exchanged_answers[0].length === 1), "each case's exchanged answers");
  assert.match(pageFiles.report, /data-ref="position-panel"/);
});
