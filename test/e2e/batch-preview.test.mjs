// batch-preview.test.mjs: the Batch view's preview makes every check that can be made before
// paying. Each row is rendered as the run will render it: a row the prompt refuses is counted and
// grouped by its error's code before the run, and the run makes it an input error without a call.
// Real headless chromium, the real dev server, the fake upstream counting the calls it gets.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { useBatchEnv, openBatch, newBatchPage, loadDataset, runEnd } from "./batch-env.mjs";

const env = useBatchEnv({ latencyMs: 5, faults: false });

/** load1 loads a dataset whose rows the preview may refuse, some or all (no "About N calls" then). */
function load1(page, name, text, evaluator) {
  return loadDataset(page, name, text, { evaluator, mimeType: "text/plain", checkedOnly: true });
}

test("rows that cannot be judged are counted and grouped by code before the run, and end as input errors without a call", async () => {
  // claim-groundedness rows: 3, 7 and 11 give two claims one id (the row's inputs read fine, its
  // prompt does not render); 5 and 15 have no evidence (the row's inputs are refused).
  const dupIds = new Set([3, 7, 11]);
  const noEvidence = new Set([5, 15]);
  const lines = [];
  for (let i = 1; i <= 20; i++) {
    const claims = dupIds.has(i) ? [{ id: "c1", text: `row-${i}: Paris is in France.` }, { id: "c1", text: "It is big." }] : [`row-${i}: Paris is in France.`];
    lines.push(JSON.stringify({ question: `Question ${i}`, claims, evidence: noEvidence.has(i) ? [] : [`Paris is the capital of France (fact ${i}).`] }));
  }
  const refused = [...dupIds, ...noEvidence].sort((a, b) => a - b);
  const { browser, serve, upstream } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await openBatch(page, serve.url);
    await load1(page, "claims.jsonl", lines.join("\n") + "\n", "claim-groundedness");
    // The run options' fields line up along their labels' top, whether or not a hint follows them:
    // the first row's inputs at one height, and the temperature's placeholder not cut short.
    await page.setViewportSize({ width: 1280, height: 800 });
    const tops = await page.$$eval(["batch-concurrency", "batch-timeout", "batch-attempts", "batch-repeats"].map((r) => `[data-ref="${r}"]`).join(","), (els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `the run options' inputs at one height: ${tops}`);
    assert.ok(await page.$eval('[data-ref="batch-temperature"]', (e) => { const c = document.createElement("canvas").getContext("2d"); const st = getComputedStyle(e); c.font = `${st.fontSize} ${st.fontFamily}`; return c.measureText(e.placeholder).width <= e.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight); }), "the temperature's placeholder fits its field");
    const problems = page.locator('[data-ref="batch-row-problems"]');
    assert.match(await problems.locator("summary").textContent(), /^⚠ 15 of 20 rows will be judged; 5 will not/);
    // Two groups, largest first: the prompt's refusal, and the rows without evidence (input.empty-list).
    const groups = await problems.locator("[data-code]").evaluateAll((els) => els.map((e) => ({ code: e.dataset.code, count: e.dataset.count, text: e.textContent })));
    assert.deepEqual(groups.map((g) => g.count), ["3", "2"], JSON.stringify(groups));
    assert.match(groups[0].text, /same id "c1".*Rows 3, 7, 11/s);
    assert.equal(groups[1].code, "input.empty-list");
    assert.match(groups[1].text, /empty.*Rows 5, 15/s, "rows saying the same thing are named once");
    assert.equal(await page.locator('[data-ref="batch-all-ok"]').count(), 0, "no ✓ All rows line");
    assert.match(await page.textContent('[data-ref="batch-estimate"]'), /^About 15 calls/);

    await page.click('[data-ref="batch-run"]');
    const end = await runEnd(page, 30_000);
    assert.equal(end.done, 20, end.text);
    for (const row of refused) assert.equal(upstream.stats.byRow[row], undefined, `row ${row} was never sent`);
    for (let row = 1; row <= 20; row++) if (!refused.includes(row)) assert.ok(upstream.stats.byRow[row] >= 1, `row ${row} was judged`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-export-jsonl"]')]);
    const out = (await readFile(await download.path(), "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(out.filter((r) => r.status === "error").map((r) => r.row), refused);
    assert.equal(await page.textContent('[data-ref="batch-undetermined"] .hint'), "5 errors");
  } finally {
    await context.close();
  }
});

// A RAGAS-style file for rag-recall: ground_truth is plain text, without the [ESSENTIAL PASSAGE]
// markers the evaluator scores; render refuses such a passage_gt, so no row can be judged.
test("a RAGAS-style rag-recall CSV without passage markers is refused in the preview, with zero calls", async () => {
  const rows = ["question,answer,contexts,ground_truth"];
  for (let i = 1; i <= 12; i++) {
    const contexts = JSON.stringify([`Paris is the capital of France (${i}).`]);
    rows.push([`What is the capital of France? (${i})`, `row-${i}: Paris.`, contexts, `Paris is the capital of France (${i}).`].map((c) => '"' + c.replaceAll('"', '""') + '"').join(","));
  }
  const { browser, serve, upstream } = env;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await openBatch(page, serve.url);
    const callsBefore = upstream.stats.calls;
    await load1(page, "ragas.csv", rows.join("\r\n") + "\r\n", "rag-recall");
    assert.equal(await page.inputValue('[data-ref="batch-map-passage_gt"]'), "ground_truth");
    const problems = page.locator('[data-ref="batch-row-problems"]');
    assert.match(await problems.locator("summary").textContent(), /^⚠ 0 of 12 rows will be judged; 12 will not/);
    const groups = await problems.locator("[data-code]").evaluateAll((els) => els.map((e) => ({ code: e.dataset.code, count: e.dataset.count, text: e.textContent })));
    assert.equal(groups.length, 1, JSON.stringify(groups));
    assert.equal(groups[0].count, "12");
    assert.match(groups[0].text, /ESSENTIAL PASSAGE/);
    assert.equal(await page.locator('[data-ref="batch-all-ok"]').count(), 0);
    assert.match(await page.textContent('[data-ref="batch-estimate"]'), /No row can be judged/);
    assert.equal(await page.locator('[data-ref="batch-run"]').isDisabled(), true);
    // Neither the button nor the keyboard shortcut starts a run.
    await page.locator('[data-ref="batch-setup"]').press("Control+Enter");
    assert.equal(await page.locator('[data-ref="batch-run-card"]').isHidden(), true);
    assert.equal(upstream.stats.calls - callsBefore, 0, "no call was made");
  } finally {
    await context.close();
  }
});

// HaluEval ships JSON Lines named .json (data/general_data.json); RAGChecker writes {"results":
// [...]} with claims as [subject, predicate, object] triplets. The content decides the format,
// the file line says what it was read as, and the columns map without manual work.
test("a file is read by its content, the extension only a hint: the file line says what was detected", async () => {
  const halu = [1, 2, 3].map((i) => JSON.stringify({ ID: String(i), user_query: `Name a color (${i}).`, chatgpt_response: `row-${i}: Red.`, hallucination: i === 2 ? "yes" : "no", hallucination_spans: [] })).join("\n") + "\n";
  const ragChecker = JSON.stringify({
    results: [1, 2].map((i) => ({
      query_id: String(i), query: `What's the longest river? (${i})`, gt_answer: "The Nile.", response: `row-${i}: The Nile [1].`,
      retrieved_context: [{ doc_id: "000", text: "Scientists debate whether the Amazon or the Nile is the longest river." }],
      response_claims: [["Nile", "is", "longest river in the world"]],
      metrics: { precision: 1 },
    })),
    metrics: { overall_metrics: { precision: 100 } },
  });
  const { browser, serve } = env;
  const context = await browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await page.setViewportSize({ width: 1280, height: 800 });
    await load1(page, "general_data.json", halu, "answer-grounding");
    const msg = page.locator('[data-ref="batch-file-msg"]');
    assert.match(await msg.textContent(), /^✓ general_data\.json: 3 rows \(JSON Lines by its content, though named \.json\), columns ID, user_query, chatgpt_response/);
    assert.equal(await msg.getAttribute("data-format"), "jsonl");
    assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "chatgpt_response");
    if (process.env.SHOT) await msg.screenshot({ path: process.env.SHOT });
    await load1(page, "checking_outputs.json", ragChecker, "claim-groundedness");
    assert.match(await msg.textContent(), /^✓ checking_outputs\.json: 2 rows \(JSON\), columns query_id, query/);
    assert.equal(await page.inputValue('[data-ref="batch-map-claims"]'), "response_claims");
    assert.equal(await page.inputValue('[data-ref="batch-map-evidence"]'), "retrieved_context");
    assert.match(await page.textContent('[data-ref="batch-estimate"]'), /^About 2 calls/);
    await load1(page, "export.txt", "question\tanswer\tcontexts\nWho?\tAda, in 1843.\tAda wrote it in 1843.\n", "answer-grounding");
    assert.match(await msg.textContent(), /^✓ export\.txt: 1 rows \(TSV\), columns question, answer, contexts/);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

// A browser cannot read a chosen file again after a reload; the page asks for it by name, and the
// mapping the user made is what the file gets when chosen again (finding 20).
test("a dataset chosen before a reload is asked for by name, and chosen again it keeps the mapping made for it", async () => {
  const rows = [1, 2, 3].map((i) => JSON.stringify({ response: `row-${i}: Paris.`, my_answer: `a${i}: Paris.`, contexts: [`Paris is in France (${i}).`], mode: "strict", label: i === 2 ? "fail" : "pass" })).join("\n") + "\n";
  const { browser, serve } = env;
  const context = await browser.newContext();
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    const msg = page.locator('[data-ref="batch-file-msg"]');
    assert.equal(await msg.textContent(), "", "a fresh page asks for nothing");
    await load1(page, "a.jsonl", rows, "answer-grounding");
    assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "response", "the guess");
    assert.equal(await page.inputValue('[data-ref="batch-map-mode"]'), "mode");
    assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "label");
    // The user's own choices: another column, an input left unused, no label.
    await page.selectOption('[data-ref="batch-map-answer"]', "my_answer");
    await page.selectOption('[data-ref="batch-map-mode"]', "");
    await page.selectOption('[data-ref="batch-map-label"]', "");
    await page.waitForFunction(() => /About 3 calls/.test(document.querySelector('[data-ref="batch-estimate"]').textContent));
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    assert.equal(await msg.getAttribute("data-again"), "a.jsonl");
    assert.match(await msg.textContent(), /^Choose a\.jsonl again: .*Its mapping is kept\.$/);
    assert.equal(await page.locator('[data-ref="batch-run"]').isDisabled(), true);
    await load1(page, "a.jsonl", rows, "answer-grounding");
    assert.equal(await msg.getAttribute("data-again"), null);
    assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "my_answer", "the mapping made, not the guess");
    assert.equal(await page.inputValue('[data-ref="batch-map-facts"]'), "contexts");
    assert.equal(await page.inputValue('[data-ref="batch-map-mode"]'), "", "left unused");
    assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "");
    // Another file is guessed afresh.
    await load1(page, "b.jsonl", rows, "answer-grounding");
    assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "response");
    assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "label");
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
