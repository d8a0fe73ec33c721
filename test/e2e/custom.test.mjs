// custom.test.mjs: the user's own evaluators in real headless chromium, through the real dev server
// to the fake upstream. One made from scratch with a deliberate template error (shown under the line
// it is on), fixed, a judge answer pasted and its verdict seen; run in Evaluate (streaming) and on a
// 50-row dataset in Batch; exported; the page reloaded, the evaluator and the run still there; the
// evaluator edited, and the run still showing the definition it used; the exported file imported
// into a fresh browser profile, and a broken file refused with a clear error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup, launch, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { loadDataset, runEnd, progress } from "./batch-env.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-custom-5678";
/** STARTERS is the New from… menu's list of starters, in its order. */
const STARTERS = JSON.parse(await readFile(new URL("../../web/custom/starters.json", import.meta.url), "utf8"));
const N = 50;

// The template, with an error on line 3: a "+" with nothing after it.
const BROKEN = ["You check the tone of a support answer.", "Question: {{ question }}", "Answer: {{ answer + }}", "", "Is the answer polite? Reply with yes or no only."].join("\n");
const FIXED = BROKEN.replace("{{ answer + }}", "{{ answer }}");

/** openCustom opens the My evaluators view on page and waits for it to be drawn. */
async function openCustom(page) {
  await page.click("#tab-custom");
  await page.waitForSelector('[data-ref="custom-list"]');
}

/** statusOf waits until the editor's status says state ("ok" or "error") and returns its text. */
async function statusOf(page, state) {
  await page.waitForSelector(`[data-ref="custom-status"][data-state="${state}"]`);
  return text(page, '[data-ref="custom-status"]');
}

/**
 * makeEvaluator makes a new evaluator with make (a click on + New evaluator, a pick in the New
 * from… menu), waits until the editor has it open and returns its id. Until it is stored (and a
 * starter's file read first) the editor still shows the evaluator open before, status "ok" and
 * all: a test that waited on the status alone went on with the old one (and its "Use in
 * Evaluate" then picked the other, so the test timed out waiting for the one it had read).
 * @param {import("playwright-core").Page} page @param {() => Promise<unknown>} make
 * @returns {Promise<string>}
 */
async function makeEvaluator(page, make) {
  const had = await page.locator(".custom-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  await make();
  const made = await page.waitForFunction((had) => {
    const open = document.querySelector(".custom-item.is-open")?.getAttribute("data-id");
    return !!open && !had.includes(open) && /** @type {HTMLInputElement|null} */ (document.querySelector('[data-ref="custom-id"]'))?.value === open && open;
  }, had);
  return /** @type {string} */ (await made.jsonValue());
}

/**
 * fitsPhone shows page at a 400 px wide window and returns how far the page is wider than the
 * window (0 when nothing widens it: wide tables scroll inside their card), then restores the size.
 */
async function fitsPhone(page) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 400, height: 800 });
  const over = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(document.documentElement.scrollWidth - document.documentElement.clientWidth))));
  await page.setViewportSize(size);
  return over;
}

/** exportEvaluator clicks the editor's Export and returns the downloaded file's text. */
async function exportEvaluator(page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="custom-export"]')]);
  assert.equal(download.suggestedFilename(), "tone-check.json");
  return readFile(await download.path(), "utf8");
}

test("an evaluator from scratch: error under its line, fixed, verdict, Evaluate, a 50-row batch, export, reload, edit, import in a fresh profile", async () => {
  // The fake judge says "no" for rows whose answer is rude, "yes" otherwise (and "Yes." in Evaluate).
  env.fake.answer = (prompt) => (/Answer: rude/.test(prompt) ? "No." : "Yes.");
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  await page.waitForSelector('[data-ref="custom-empty"]');

  // ---- new from scratch, named
  await page.click('[data-ref="custom-new"]');
  await page.waitForSelector('[data-ref="custom-tpl-input"]');
  await page.fill('[data-ref="custom-title"]', "Tone check");
  await page.fill('[data-ref="custom-id"]', "tone-check");
  await statusOf(page, "ok");

  // ---- a deliberate error: line 3's number marked, listed with its place, line 3 quoted with a
  // ▲ under the column, and nothing drawn over the template's text (the lines after the error
  // stay readable while it is fixed)
  await page.fill('[data-ref="custom-tpl-input"]', BROKEN);
  await statusOf(page, "error");
  const pin = page.locator('[data-ref="custom-tpl"] [data-ref="tpl-pin"]');
  await pin.waitFor();
  assert.equal(await pin.count(), 1);
  assert.equal(await pin.getAttribute("data-line"), "3");
  const col = Number(await pin.getAttribute("data-col"));
  assert.equal(await text(page, '[data-ref="custom-tpl"] [data-ref="tpl-pin"] .tpl-pin-src'), "Answer: {{ answer + }}");
  assert.equal(await pin.locator(".tpl-caret").textContent(), " ".repeat(col - 1) + "▲");
  assert.equal("Answer: {{ answer + }}"[col - 1], "}", "the column of the unexpected '}}'");
  assert.match(await page.getAttribute('[data-ref="custom-tpl"] .tpl-gutter [data-line="3"]', "class"), /tpl-ln-error/);
  assert.doesNotMatch(await page.getAttribute('[data-ref="custom-tpl"] .tpl-gutter [data-line="2"]', "class"), /tpl-ln-error/);
  const boxOf = (sel) => page.locator(sel).boundingBox();
  const [pinBox, taBox, line4] = await Promise.all([boxOf('[data-ref="custom-tpl"] [data-ref="tpl-pin"]'), boxOf('[data-ref="custom-tpl-input"]'), boxOf('[data-ref="custom-tpl"] .tpl-gutter [data-line="4"]')]);
  assert.ok(pinBox.y >= taBox.y + taBox.height - 1, `the quote (y ${pinBox.y}) is under the editor (bottom ${taBox.y + taBox.height}), not over its text`);
  // What is on screen at the lines after the error, across the text's width, is the template itself.
  const covered = await page.evaluate(({ x0, x1, ys }) => {
    const ta = document.querySelector('[data-ref="custom-tpl-input"]');
    const out = [];
    for (const y of ys) for (let x = x0; x < x1; x += 20) if (document.elementFromPoint(x, y) !== ta) out.push([x, y]);
    return out;
  }, { x0: taBox.x + 8, x1: taBox.x + Math.min(taBox.width, 420) - 4, ys: [line4.y + line4.height / 2, line4.y + line4.height * 1.5] });
  assert.deepEqual(covered, [], "the lines after the error are not covered");
  assert.match(await text(page, '[data-ref="custom-tpl-checks"]'), /line 3, column \d+: /);
  // An evaluator with an error is not offered elsewhere.
  assert.equal(await page.locator('[data-ref="pick-tone-check"]').count(), 0);
  assert.match(await text(page, '.custom-item[data-id="tone-check"] [data-ref="custom-state"]'), /has errors/);

  // ---- fixed: no error left, the inputs come from the template, the preview renders
  await page.fill('[data-ref="custom-tpl-input"]', FIXED);
  assert.match(await statusOf(page, "ok"), /Ready/);
  assert.equal(await pin.count(), 0);
  assert.deepEqual(await page.locator('[data-ref="custom-input-name"]').evaluateAll((els) => els.map((e) => e.value)), ["question", "answer"]);
  await page.locator('[data-ref="custom-sample"] [data-input="answer"]').fill("rude reply");
  await page.waitForFunction(() => /Answer: rude reply/.test(document.querySelector('[data-ref="custom-rendered"]')?.textContent || ""));

  // ---- a judge answer pasted: its verdict, drawn as Evaluate draws verdicts
  await page.fill('[data-ref="custom-answer"]', "Reasoning: the answer is curt.\nVerdict: no");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="fail"]');
  await page.fill('[data-ref="custom-answer"]', "There is no way to tell.");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="undetermined"]');
  assert.match(await text(page, '[data-ref="custom-verdict"] [data-ref="checks"]'), /✗ Error/);
  await page.fill('[data-ref="custom-answer"]', "Yes");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="pass"]');

  // ---- in Evaluate, marked as the user's, run with the model (streaming)
  await page.click("#tab-evaluate");
  await page.waitForSelector('[data-ref="pick-tone-check"]', { state: "attached" });
  assert.match(await text(page, 'label[for="pick-tone-check"]'), /Tone check\s*yours/);
  await pickEvaluator(page, "tone-check");
  await page.locator('[data-ref="form"] [data-input="question"]').fill("Where is my parcel?");
  await page.locator('[data-ref="form"] [data-input="answer"]').fill("It arrives tomorrow, thank you for waiting.");
  // The prompt is rendered again a moment after typing: Run sends the one shown.
  await page.waitForFunction(() => /It arrives tomorrow/.test(document.querySelector('#view-evaluate [data-ref="prompt"]').textContent) && !document.querySelector('[data-ref="run"]').disabled);
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict"] [data-ref="verdict-view"]'));
  assert.equal(await page.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"), "pass");
  const call = env.fake.requests.filter((r) => r.path === "/chat/completions").at(-1);
  assert.equal(call.body.stream, true);
  assert.match(call.body.messages.at(-1).content, /Question: Where is my parcel\?\nAnswer: It arrives tomorrow/);

  // ---- a 50-row batch run with it
  await page.click("#tab-batch");
  await page.waitForSelector('[data-ref="batch-setup"]');
  const rows = Array.from({ length: N }, (_, i) => JSON.stringify({ question: `Question ${i}?`, answer: i % 5 === 0 ? `rude answer ${i}` : `A kind answer ${i}.` })).join("\n") + "\n";
  await loadDataset(page, "tone.jsonl", rows, { evaluator: "tone-check" });
  assert.equal(await page.inputValue('[data-ref="batch-map-question"]'), "question");
  assert.equal(await page.inputValue('[data-ref="batch-map-answer"]'), "answer");
  await page.click('[data-ref="batch-run"]');
  const end = await runEnd(page, 60_000);
  assert.equal(end.done, N, end.text);
  const runId = end.run;
  assert.match(await text(page, '[data-ref="batch-run-title"]'), /tone\.jsonl · Tone check/);
  assert.match(await text(page, '[data-ref="batch-pass-rate"] .stat-value'), /^80%$/);
  assert.equal(await page.getAttribute('[data-ref="batch-used-evaluator"]', "data-state"), "current");
  assert.match(await page.textContent('[data-ref="batch-used-spec"]'), /"id": "tone-check"/);
  const [jsonExport] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-export-json"]')]);
  const exported = JSON.parse(await readFile(await jsonExport.path(), "utf8"));
  assert.equal(exported.rows.length, N);
  assert.equal(exported.run.evaluatorSpec.prompt, FIXED, "the export records the definition the run used");

  // ---- the sample made its example, exported as a .json file with it
  await openCustom(page);
  assert.equal(await page.getAttribute('[data-ref="custom-example-state"]', "data-state"), "none", "what was tried is no example by itself");
  await page.click('[data-ref="custom-example-save"]');
  await page.waitForSelector('[data-ref="custom-example-state"][data-state="same"]');
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  const file = await exportEvaluator(page);
  const spec = JSON.parse(file);
  assert.equal(spec.id, "tone-check");
  assert.equal(spec.prompt, FIXED);
  assert.deepEqual(spec.output, { kind: "yes-no", pass: "yes" });
  assert.deepEqual(spec.example, { inputs: { answer: "rude reply" }, answer: "Yes" }, "the placeholder (question) is no part of it");

  // ---- reloaded: the evaluator and the run are still there
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await openCustom(page);
  await page.waitForSelector('.custom-item[data-id="tone-check"]');
  assert.equal(await page.inputValue('[data-ref="custom-tpl-input"]'), FIXED);
  assert.equal(await page.inputValue('[data-ref="custom-answer"]'), "Yes");
  await page.click("#tab-batch");
  await page.waitForSelector(`[data-ref="batch-runs"] tr[data-run="${runId}"]`);
  assert.match(await text(page, `[data-ref="batch-runs"] tr[data-run="${runId}"]`), /tone-check/);
  assert.equal(await fitsPhone(page), 0, "the runs list on a phone");
  // Its example, saved since the run, judges nothing: the run's evaluator is still the current one.
  await page.locator(`[data-ref="batch-runs"] tr[data-run="${runId}"] [data-ref="batch-open-run"]`).click();
  await page.waitForFunction((id) => document.querySelector('[data-ref="batch-run-card"]')?.dataset.runId === id && document.querySelector('[data-ref="batch-used-evaluator"]'), runId);
  assert.equal(await page.getAttribute('[data-ref="batch-used-evaluator"]', "data-state"), "current", "an example saved is no edit of the evaluator");

  // ---- drawn before the engine is ready: the wasm held back, the evaluator is in Evaluate's
  // picker and in its editor at once, and the editor checks it once the engine is there
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route("**/ragjudge.wasm", async (route) => {
    await gate;
    await route.continue();
  });
  await page.evaluate(() => history.replaceState(null, "", "#evaluate"));
  await page.reload({ waitUntil: "commit" });
  await page.waitForSelector("html[data-shell=ready]");
  assert.equal(await page.getAttribute("html", "data-engine"), "loading");
  assert.ok(await page.isVisible('label[for="pick-tone-check"]'));
  await page.click("#tab-custom");
  await page.waitForSelector('[data-ref="custom-tpl-input"]');
  assert.equal(await page.inputValue('[data-ref="custom-tpl-input"]'), FIXED);
  assert.match(await text(page, '[data-ref="custom-status"]'), /when the judge engine has loaded/);
  release();
  await page.waitForSelector("html[data-ready=true]");
  await statusOf(page, "ok");
  await page.unroute("**/ragjudge.wasm");

  // ---- edited since: the run still shows, and resumes with, the definition it used
  await openCustom(page);
  await page.fill('[data-ref="custom-tpl-input"]', FIXED + "\nBe strict.");
  await statusOf(page, "ok");
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  await page.reload(); // the edit was saved: a fresh page reopens the run against the edited evaluator
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.click("#tab-batch");
  await page.locator(`[data-ref="batch-runs"] tr[data-run="${runId}"] [data-ref="batch-open-run"]`).click();
  await page.waitForFunction((id) => document.querySelector('[data-ref="batch-run-card"]')?.dataset.runId === id, runId);
  await page.waitForSelector('[data-ref="batch-used-evaluator"][data-state="edited"]');
  const used = JSON.parse(await page.textContent('[data-ref="batch-used-spec"]'));
  assert.equal(used.prompt, FIXED, "the definition the run used, not the edited one");
  assert.equal(await page.textContent('[data-ref="batch-used-template"]'), FIXED, "its template shown as it reads");
  assert.equal((await progress(page)).done, N);
  assert.deepEqual(page.pageErrors, []);

  // ---- a fresh browser profile: a file of the exported evaluator and a broken one: the good one
  // is imported ready, with its example; the broken one is imported too, and opened to be fixed
  const fresh = await launch();
  try {
    const p2 = await fresh.ctx.newPage();
    const errors = [];
    p2.on("pageerror", (e) => errors.push(e.message));
    await p2.goto(`${env.serve.url}/#custom`);
    await p2.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await p2.waitForSelector('[data-ref="custom-empty"]');
    const broken = { ...spec, id: "tone-broken", prompt: BROKEN };
    const both = JSON.stringify({ format: "ragjudge.evaluators", version: 1, evaluators: [spec, broken] });
    await p2.locator('[data-ref="custom-import-file"]').setInputFiles({ name: "mine.json", mimeType: "application/json", buffer: Buffer.from(both) });
    await p2.waitForFunction(() => /Imported tone-check\./.test(document.querySelector('[data-ref="custom-msg"]').textContent));
    assert.match(await text(p2, '[data-ref="custom-msg"]'), /Imported with errors, to fix: Evaluator 2 \(tone-broken\): 1 error, open below\./);
    await p2.waitForFunction(() => document.querySelector('[data-ref="custom-id"]')?.value === "tone-broken");
    await p2.waitForSelector('[data-ref="custom-status"][data-state="error"]');
    await p2.waitForSelector('[data-ref="custom-tpl"] [data-ref="tpl-pin"][data-line="3"]');
    assert.match(await text(p2, '.custom-item[data-id="tone-broken"] [data-ref="custom-state"]'), /has errors/);
    assert.match(await text(p2, '.custom-item[data-id="tone-check"] [data-ref="custom-state"]'), /ready/);
    // Fixed where it was opened: ready, and offered.
    await p2.fill('[data-ref="custom-tpl-input"]', FIXED);
    await p2.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
    await p2.click("#tab-evaluate");
    await p2.waitForSelector('[data-ref="pick-tone-broken"]', { state: "attached" });
    // The imported example is the one exported: Evaluate loads it.
    await pickEvaluator(p2, "tone-check");
    await p2.click('#view-evaluate [data-ref="example"]');
    await p2.waitForFunction(() => document.querySelector('#view-evaluate [data-ref="form"] [data-input="answer"]')?.value === "rude reply");
    assert.equal(await p2.inputValue('#view-evaluate [data-ref="form"] [data-input="question"]'), "");
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test("a duplicated built-in, an id taken or invalid, messages, each reader's settings and verdicts, the starters", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  await page.waitForSelector('[data-ref="custom-new-from"] option[value^="starter:"]', { state: "attached" }); // the menu reads custom/starters.json
  const options = await page.locator('[data-ref="custom-new-from"] option').evaluateAll((els) => els.map((e) => e.value));
  assert.ok(options.includes("builtin:answer-grounding"), options.join(", "));
  assert.equal(await makeEvaluator(page, () => page.selectOption('[data-ref="custom-new-from"]', "builtin:answer-grounding")), "answer-grounding-copy");
  assert.match(await statusOf(page, "ok"), /Ready/);
  assert.equal(await page.inputValue('[data-ref="custom-title"]'), "Answer grounding (copy)", "said once");
  // "Offered in Evaluate and Batch": Batch, first shown now, offers it too.
  await page.click("#tab-batch");
  await page.waitForSelector('[data-ref="batch-evaluator"] option[value="answer-grounding-copy"]', { state: "attached" });
  await page.click("#tab-custom");
  await page.waitForSelector('[data-ref="custom-tpl-input"]');
  assert.match(await page.inputValue('[data-ref="custom-tpl-input"]'), /context grounding evaluator/);
  assert.equal(await page.inputValue('[data-ref="custom-dialect"]'), "format");

  await page.fill('[data-ref="custom-id"]', "answer-grounding");
  await statusOf(page, "error");
  assert.match(await text(page, '[data-error-for="id"]'), /✗/);
  await page.fill('[data-ref="custom-id"]', "Not An Id");
  await statusOf(page, "error");
  assert.match(await text(page, '[data-error-for="id"]'), /✗/);
  await page.fill('[data-ref="custom-id"]', "grounding-fr");
  await statusOf(page, "ok");
  await page.waitForSelector('.custom-item[data-id="grounding-fr"]');

  // Messages: a template error is shown under its line in the message it is in.
  await makeEvaluator(page, () => page.click('[data-ref="custom-new"]'));
  await statusOf(page, "ok");
  await page.selectOption('[data-ref="custom-shape"]', "messages");
  await page.waitForSelector('[data-ref="custom-tpl-1-input"]');
  await page.fill('[data-ref="custom-tpl-0-input"]', "You are a strict judge.\nAnswer {% if %}yes{% endif %} or no.");
  await page.waitForSelector('[data-ref="custom-tpl-0"] [data-ref="tpl-pin"][data-line="2"]');
  assert.equal(await page.locator('[data-ref="custom-tpl-1"] [data-ref="tpl-pin"]').count(), 0, "not in the other message");
  await page.fill('[data-ref="custom-tpl-0-input"]', "You are a strict judge.");
  assert.match(await statusOf(page, "ok"), /Ready/);
  // The reader's settings: a check about one of them is shown under it.
  await page.selectOption('[data-ref="custom-output-kind"]', "score");
  await page.fill('[data-ref="custom-output-pass_at"]', "9");
  await statusOf(page, "error");
  assert.match(await text(page, '[data-error-for="output.pass_at"]'), /✗ .*pass_at/);
  await page.fill('[data-ref="custom-output-pass_at"]', "4");
  await statusOf(page, "ok");
  await page.fill('[data-ref="custom-answer"]', "The answer is on topic.\n**Score:** 4/5");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="pass"]');
  assert.match(await text(page, '[data-ref="custom-verdict"] [data-ref="score"]'), /4 \/ 5/);
  await page.selectOption('[data-ref="custom-output-kind"]', "label");
  await page.fill('[data-ref="custom-answer"]', "Verdict: partially correct");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="undetermined"]');
  await page.fill('[data-ref="custom-answer"]', "Incorrect.");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="fail"]');
  await page.selectOption('[data-ref="custom-output-kind"]', "json");
  await page.fill('[data-ref="custom-answer"]', 'Here you go:\n```json\n{"verdict": "pass", "score": 0.9, "reason": "cites [1]",}\n```');
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="pass"]');

  // "Use in Evaluate" opens it there, chosen.
  const id = await page.inputValue('[data-ref="custom-id"]');
  await page.click('[data-ref="custom-use"]');
  await page.waitForFunction((id) => !document.querySelector("#view-evaluate").hidden && document.querySelector(`[data-ref="pick-${id}"]`)?.checked, id);
  await page.click("#tab-custom");

  const starters = options.filter((o) => o.startsWith("starter:"));
  assert.equal(starters.length, 3, "three starters: " + options.join(", "));
  // In the menu's order: context relevance (a score), answer relevance (labels), citation faithfulness (JSON).
  const kinds = ["score", "label", "json"];
  for (const s of starters) {
    await makeEvaluator(page, () => page.selectOption('[data-ref="custom-new-from"]', s));
    assert.match(await statusOf(page, "ok"), /Ready/);
    assert.equal(await page.inputValue('[data-ref="custom-output-kind"]'), kinds[starters.indexOf(s)]);
    assert.ok((await page.locator('[data-ref="custom-input-name"]').count()) >= 2, "its inputs are listed");
    // It opens with its own example (inputs and judge answer), not with placeholders: the
    // preview and the verdict pane show a real case, and Evaluate's Load example offers it.
    const file = STARTERS[Number(s.slice("starter:".length))].file;
    const example = JSON.parse(await readFile(new URL(`../../web/starters/${file}`, import.meta.url), "utf8")).example;
    assert.equal(await page.inputValue('[data-ref="custom-answer"]'), example.answer, file);
    const firstText = Object.entries(example.inputs).find(([, v]) => typeof v === "string");
    await page.waitForFunction((t) => (document.querySelector('[data-ref="custom-rendered"]')?.textContent || "").includes(t), firstText[1]);
    await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"]');
  }

  assert.equal(await fitsPhone(page), 0, "the editor on a phone (its inputs table)");

  // An edit followed at once by opening another evaluator is kept (stored before the switch).
  const last = await page.inputValue('[data-ref="custom-id"]');
  const edited = (await page.inputValue('[data-ref="custom-tpl-input"]')) + "\nKeep this line.";
  await page.fill('[data-ref="custom-tpl-input"]', edited);
  await page.locator('.custom-item [data-ref="custom-open"]').first().click();
  await page.waitForFunction((id) => document.querySelector('[data-ref="custom-id"]').value !== id, last);
  await page.locator(`.custom-item[data-id="${last}"] [data-ref="custom-open"]`).click();
  await page.waitForFunction((id) => document.querySelector('[data-ref="custom-id"]').value === id, last);
  assert.equal(await page.inputValue('[data-ref="custom-tpl-input"]'), edited);
  assert.deepEqual(page.pageErrors, []);
});

test("a new evaluator in Evaluate: an empty form, no placeholders as values, no example to load until one is saved as the example", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  await page.waitForSelector('[data-ref="custom-list"]');
  const id = await makeEvaluator(page, () => page.click('[data-ref="custom-new"]'));
  await statusOf(page, "ok");
  // The editor's preview starts from made-up values, which are not an example.
  assert.equal(await page.inputValue('[data-ref="custom-sample"] [data-input="question"]'), "(question)");
  await page.click('[data-ref="custom-use"]');
  await page.waitForFunction((id) => !document.querySelector("#view-evaluate").hidden && document.querySelector(`[data-ref="pick-${id}"]`)?.checked, id);
  const values = () => page.locator('#view-evaluate [data-ref="form"] [data-input]').evaluateAll((els) => els.map((e) => /** @type {HTMLInputElement} */ (e).value));
  assert.deepEqual(await values(), ["", ""]);
  const example = page.locator('#view-evaluate [data-ref="example"]');
  assert.equal(await example.isDisabled(), true);
  assert.match(await example.getAttribute("title"), /no example/);
  assert.deepEqual(await values(), ["", ""]);
  // What is typed and pasted in the editor to try the prompt is no example by itself...
  await page.click("#tab-custom");
  await page.locator('[data-ref="custom-sample"] [data-input="question"]').fill("Where is my parcel?");
  await page.fill('[data-ref="custom-answer"]', "Verdict: yes");
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="pass"]');
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  assert.equal(await page.getAttribute('[data-ref="custom-example-state"]', "data-state"), "none");
  assert.equal(await page.isDisabled('[data-ref="custom-example-load"]'), true);
  await page.click("#tab-evaluate");
  assert.equal(await example.isDisabled(), true, "the last answer pasted is not the example");
  // ...until it is saved as the example: then Evaluate loads it.
  await page.click("#tab-custom");
  await page.click('[data-ref="custom-example-save"]');
  await page.waitForSelector('[data-ref="custom-example-state"][data-state="same"]');
  await page.click("#tab-evaluate");
  await page.waitForFunction(() => !document.querySelector('#view-evaluate [data-ref="example"]').disabled);
  await example.click();
  await page.waitForFunction(() => document.querySelector('#view-evaluate [data-ref="form"] [data-input="question"]').value === "Where is my parcel?");
  assert.deepEqual(await values(), ["Where is my parcel?", ""]);
  // Trying something else in the editor leaves the example as it was saved, and it comes back.
  await page.click("#tab-custom");
  await page.fill('[data-ref="custom-answer"]', "Verdict: no");
  await page.waitForSelector('[data-ref="custom-example-state"][data-state="differs"]');
  await page.click('[data-ref="custom-example-load"]');
  await page.waitForSelector('[data-ref="custom-example-state"][data-state="same"]');
  assert.equal(await page.inputValue('[data-ref="custom-answer"]'), "Verdict: yes");
  await page.click("#tab-evaluate");
  // A built-in still has its example.
  await pickEvaluator(page, "answer-grounding");
  assert.equal(await example.isDisabled(), false);
  assert.deepEqual(page.pageErrors, []);
});

test("an evaluator clicked in the list while the last edit is being saved opens", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  await page.waitForSelector('[data-ref="custom-list"]');
  const other = await makeEvaluator(page, () => page.click('[data-ref="custom-new"]'));
  const edited = await makeEvaluator(page, () => page.click('[data-ref="custom-new"]'));
  await statusOf(page, "ok");
  // An edit is checked and saved a moment after the typing stops, and the list drawn again then.
  // The user has already pressed the mouse on another evaluator; the save lands before the release.
  await page.fill('[data-ref="custom-tpl-input"]', (await page.inputValue('[data-ref="custom-tpl-input"]')) + "\nEdited.");
  const item = page.locator(`.custom-item[data-id="${other}"] [data-ref="custom-open"]`);
  await item.scrollIntoViewIfNeeded();
  const box = await item.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  await page.mouse.up();
  await page.waitForFunction((id) => document.querySelector('[data-ref="custom-id"]').value === id, other);
  assert.match(await text(page, `.custom-item[data-id="${other}"]`), /✓ ready/);
  await page.locator(`.custom-item[data-id="${edited}"] [data-ref="custom-open"]`).click();
  await page.waitForFunction((id) => document.querySelector('[data-ref="custom-id"]').value === id, edited);
  assert.match(await page.inputValue('[data-ref="custom-tpl-input"]'), /\nEdited\.$/);
  assert.deepEqual(page.pageErrors, []);
});

test("a starter with a loop in Evaluate: its prompt marks and lists only the inputs, not the loop's own variables", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const k = STARTERS.findIndex((e) => e.file === "citation-faithfulness.json");
  await page.waitForSelector(`[data-ref="custom-new-from"] option[value="starter:${k}"]`, { state: "attached" });
  const id = await makeEvaluator(page, () => page.selectOption('[data-ref="custom-new-from"]', `starter:${k}`));
  await statusOf(page, "ok");
  await page.click('[data-ref="custom-use"]');
  await page.waitForFunction((id) => !document.querySelector("#view-evaluate").hidden && document.querySelector(`[data-ref="pick-${id}"]`)?.checked, id);
  await page.click('#view-evaluate [data-ref="example"]');
  await page.waitForFunction(() => document.querySelectorAll('#view-evaluate [data-ref="prompt"] mark.span').length > 0);
  // The loop is {% for passage in contexts %}[{{ loop.index }}] {{ passage }}: the passages are the
  // contexts input's text, the numbers the template's own.
  assert.deepEqual(await page.locator('#view-evaluate [data-ref="legend"] .legend-item').evaluateAll((els) => els.map((e) => e.textContent)), ["contexts", "answer"]);
  const marks = await page.locator('#view-evaluate [data-ref="prompt"] mark.span').evaluateAll((els) => els.map((e) => `${e.dataset.expr}=${e.dataset.input}`));
  assert.ok(marks.includes("passage=contexts"), marks.join(", "));
  assert.ok(!marks.some((m) => m.startsWith("loop.")), marks.join(", "));
  assert.deepEqual([...new Set(marks)].sort(), ["answer=answer", "passage=contexts"]);
  assert.deepEqual(page.pageErrors, []);
});

test("markup in an imported evaluator stays text everywhere it is shown", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const img = (tag) => `<img src=x onerror="window.__pwned='${tag}'">`;
  const spec = {
    id: "markup",
    title: `Title ${img("title")}`,
    description: `<script>window.__pwned='description'</script>`,
    dialect: "jinja",
    prompt: `Judge ${img("prompt")} {{ answer }}`,
    inputs: [{ name: "answer", label: `Answer ${img("label")}`, kind: "text", required: true }],
    output: { kind: "label", labels: { good: true, bad: false } },
    words: { passed: `Good ${img("word")}`, failed: "Bad" },
  };
  await page.locator('[data-ref="custom-import-file"]').setInputFiles({ name: "markup.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(spec)) });
  await page.waitForFunction(() => /Imported markup/.test(document.querySelector('[data-ref="custom-msg"]').textContent));
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.locator('[data-ref="custom-sample"] [data-input="answer"]').fill(img("sample"));
  await page.waitForFunction(() => /onerror/.test(document.querySelector('[data-ref="custom-rendered"]')?.textContent || ""));
  await page.fill('[data-ref="custom-answer"]', `${img("answer")}\nVerdict: good`);
  await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"][data-state="pass"]');
  assert.match(await text(page, '.custom-item[data-id="markup"]'), /<img src=x onerror=/);
  assert.match(await text(page, '[data-ref="custom-verdict"] [data-ref="verdict-badge"]'), /Good <img/);
  await page.click("#tab-evaluate");
  await page.waitForSelector('label[for="pick-markup"]');
  assert.match(await text(page, 'label[for="pick-markup"]'), /Title <img/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator("main img, main script").count(), 0);
  assert.deepEqual(page.pageErrors, []);
});
