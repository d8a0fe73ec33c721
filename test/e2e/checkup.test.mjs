// checkup.test.mjs: the check-up and "judge both orders" in real headless chromium, through the
// real dev server, against the fake upstream answering with the judges of checkup-judges.mjs:
// one that catches every case (it reads each prompt and answers what is true of it) and one that
// always says yes, their charts showing the difference, a missed case opened, the two side by
// side, the exports and the report carrying it; a judge that always prefers the first of two
// answers, its flips reported when each row is judged in both orders; and a reload in the middle
// of a check-up, which resumes it without paying for any answer twice.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup, proxySettings } from "./harness.mjs";
import { loadDataset, setNumber, waitFor } from "./batch-env.mjs";
import { axeViolations } from "./axe.mjs";
import { judgeAnswer, groundingJSONL, GROUNDING_ROWS, PAIRWISE_ROWS, groundingParts, ADDRESSES } from "./checkup-judges.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  if (env) await env.close();
});

const chats = () => env.fake.requests.filter((r) => r.path === "/chat/completions");

async function setModel(page, model) {
  await page.click('[data-ref="settings-button"]');
  await page.fill('[data-ref="model"]', model);
  await page.locator('[data-ref="model"]').dispatchEvent("change");
  await page.keyboard.press("Escape");
}

/** openCheckup opens the check-up card and waits until its cases are made and Run can be pressed. */
async function openCheckup(page) {
  if (!(await page.locator('[data-ref="checkup-setup"]').evaluate((d) => d.open))) await page.click('[data-ref="checkup-new"]');
  await page.waitForSelector('[data-ref="checkup-cases"] table');
  await page.waitForFunction(() => !document.querySelector('[data-ref="checkup-run"]').disabled);
}

/** runState is the open run's id and state, as the run card says them. */
const runState = (page) => page.evaluate(() => {
  const c = document.querySelector('[data-ref="batch-run-card"]');
  return c && !c.hidden ? { id: c.dataset.runId || "", state: c.dataset.state || "" } : null;
});

/** started presses button ref and waits until a new run is open; returns its id. */
async function started(page, ref) {
  const before = await runState(page);
  await page.click(`[data-ref="${ref}"]`);
  const now = await waitFor(async () => {
    const s = await runState(page);
    return s && s.id && (!before || s.id !== before.id) ? s : null;
  }, 15_000, "the new run to open");
  return now.id;
}

/** finished waits until run id is done. */
const finished = (page, id) => waitFor(async () => {
  const s = await runState(page);
  return s && s.id === id && s.state === "done" ? s : null;
}, 60_000, "the run to finish");

async function exported(page, ref) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="${ref}"]`)]);
  return readFile(await download.path(), "utf8");
}

/** chart reads the check-up chart: the overall counts and each failure mode's. */
const chart = (page) =>
  page.evaluate(() => {
    const p = document.querySelector('[data-ref="checkup-panel"]');
    const rows = [...p.querySelectorAll(".cu-row[data-transform]")].map((r) => ({ transform: r.dataset.transform, caught: Number(r.dataset.caught), missed: Number(r.dataset.missed), rate: r.dataset.rate }));
    return { caught: Number(p.dataset.caught), missed: Number(p.dataset.missed), undetermined: Number(p.dataset.undetermined), rate: p.dataset.rate, big: p.querySelector('[data-ref="checkup-rate"]').textContent, rows };
  });

test("a check-up: a judge that catches every case and one that always says yes, the chart showing the difference; a missed case opened; the two side by side; exports and report", async () => {
  env.fake.answer = judgeAnswer;
  const page = await env.page({ settings: proxySettings("judge-right"), view: "batch" });
  await page.waitForSelector('[data-ref="batch-setup"]');
  await loadDataset(page, "facts.jsonl", groundingJSONL(), { evaluator: "answer-grounding" });
  await openCheckup(page);
  assert.match(await page.textContent('[data-ref="checkup-dataset-note"]'), /facts\.jsonl: 8 rows/);
  await page.fill('[data-ref="checkup-seed"]', "4242");
  await page.locator('[data-ref="checkup-seed"]').dispatchEvent("change");
  await setNumber(page, "checkup-rows", 6);
  await page.waitForFunction(() => /from 6 rows/.test(document.querySelector('[data-ref="checkup-setup-line"]').textContent));
  const transforms = await page.$$eval('[data-ref="checkup-cases"] tbody tr', (trs) => trs.map((tr) => ({ t: tr.dataset.transform, n: Number(tr.dataset.cases) })));
  assert.deepEqual(transforms.map((x) => x.t), ["verbatim", "foreign", "number-changed", "verbatim-plus-foreign"]);
  const cases = transforms.reduce((n, x) => n + x.n, 0);
  const verbatim = transforms[0].n;
  assert.equal(verbatim, 6, "one verbatim case per row");
  // Before paying: the cases and the calls, the model, the temperature.
  assert.equal(await page.textContent('[data-ref="checkup-setup-line"]'), `${cases} cases from 6 rows: ${cases} calls, one per case · judge-right · temperature 0 · max tokens 1,024`);
  assert.equal(chats().length, 0, "nothing is paid for before Run");
  assert.deepEqual(await axeViolations(page), [], "the check-up card: axe violations");

  // ---- the judge that catches everything ---------------------------------------------------
  const right = await started(page, "checkup-run");
  await finished(page, right);
  assert.equal(chats().length, cases);
  const good = await chart(page);
  assert.deepEqual([good.caught, good.missed, good.undetermined, good.big], [cases, 0, 0, "100%"]);
  assert.match(await page.textContent('[data-ref="checkup-meaning"]'), new RegExp(`The judge caught ${cases} of the ${cases} cases it decided \\(100%`));
  assert.match(await page.textContent('[data-ref="checkup-references"]'), /MT-Bench[\s\S]*ContextualJudgeBench[\s\S]*GroUSE/);
  assert.equal(await page.locator('[data-ref="batch-summary"]').isHidden(), true, "a check-up's pass rate is not shown");

  // ---- the judge that always says yes: the same cases, every failure missed -----------------
  await setModel(page, "judge-yes");
  await openCheckup(page);
  assert.match(await page.textContent('[data-ref="checkup-setup-line"]'), /judge-yes/);
  const yes = await started(page, "checkup-run");
  await finished(page, yes);
  const bad = await chart(page);
  assert.deepEqual([bad.caught, bad.missed], [verbatim, cases - verbatim]);
  const by = Object.fromEntries(bad.rows.map((r) => [r.transform, r]));
  assert.equal(by.verbatim.rate, "1");
  for (const t of ["foreign", "number-changed", "verbatim-plus-foreign"]) assert.equal(by[t].rate, "0", t);
  assert.equal(await page.getAttribute('[data-ref="checkup-standing"]', "data-standing"), "poor");
  assert.match(await page.textContent('[data-ref="checkup-meaning"]'), /It misses most of: a sentence from another row/);

  for (const scheme of ["dark", "light"]) {
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await axeViolations(page), [], `the check-up chart, ${scheme}: axe violations`);
  }

  // A missed case, one click away: the right verdict, the one read, the judge's answer, the prompt.
  assert.equal(await page.locator('[data-ref="checkup-open-case"]').count(), cases - verbatim);
  await page.locator('[data-ref="checkup-open-case"]').first().click();
  const dialog = page.locator('[data-ref="checkup-dialog"]');
  await dialog.waitFor({ state: "visible" });
  assert.equal(await dialog.locator('[data-ref="checkup-case-outcome"]').getAttribute("data-outcome"), "missed");
  assert.equal(await dialog.locator('[data-ref="checkup-case-expected"]').textContent(), "Not grounded");
  assert.equal(await dialog.locator('[data-ref="checkup-case-read"]').textContent(), "✓ Grounded");
  assert.equal(await dialog.locator('[data-ref="checkup-case-answer"]').first().textContent(), "Yes");
  const prompt = await dialog.locator('[data-ref="checkup-case-prompt"]').textContent();
  const { answer, facts } = groundingParts(prompt);
  assert.ok(answer && facts.length, "the prompt the judge got, with the case's answer and facts");
  assert.ok(!facts.some((f) => f.includes(answer)), "the missed case's answer is in no fact");
  assert.deepEqual(await axeViolations(page), [], "the case dialog: axe violations");
  await page.click('[data-ref="checkup-dialog"] .dialog-close');

  // ---- exports and report ------------------------------------------------------------------
  const json = JSON.parse(await exported(page, "batch-export-json"));
  assert.equal(json.run.checkup.seed, 4242);
  assert.equal(json.run.checkup.matrix.overall.caught, verbatim);
  assert.equal(json.rows.length, cases);
  assert.deepEqual(new Set(json.rows.map((r) => r.outcome)), new Set(["caught", "missed"]));
  const miss = json.rows.find((r) => r.outcome === "missed");
  assert.equal(miss.right_verdict, "Not grounded");
  assert.equal(miss.id, GROUNDING_ROWS[miss.checkup_row - 1].id, "a case joins back to its dataset row");
  const csv = await exported(page, "batch-export-csv");
  assert.match(csv.split("\r\n")[0], /,checkup_row,failure_mode,right_verdict,outcome,outcome_detail,/);
  const html = await exported(page, "batch-report");
  assert.match(html, /data-ref="checkup-panel"/);
  assert.match(html, new RegExp(`Missed cases \\(${cases - verbatim}\\)`));
  assert.match(html, /What was done to the row/);

  // ---- the two side by side ----------------------------------------------------------------
  await page.selectOption('[data-ref="compare-a"]', right);
  await page.selectOption('[data-ref="compare-b"]', yes);
  await page.click('[data-ref="compare-run"]');
  const cmp = page.locator('[data-ref="checkup-compare"]');
  await cmp.waitFor();
  assert.equal(await cmp.locator('[data-ref="checkup-compare-a"]').getAttribute("data-rate"), "1");
  assert.equal(Number(await cmp.locator('[data-ref="checkup-compare-b"]').getAttribute("data-rate")), verbatim / cases);
  assert.equal(await cmp.getAttribute("data-changed"), String(cases - verbatim), "every failure the second judge missed");
  assert.equal(await cmp.getAttribute("data-paired"), String(cases), "the same cases: same rows, seed and evaluator");
  assert.match(await cmp.locator('[data-ref="checkup-compare-verdict"]').textContent(), /A catches clearly more/);
  assert.deepEqual(await axeViolations(page), [], "two check-ups side by side: axe violations");
  assert.deepEqual(page.pageErrors, []);
});

test("judge both orders: a judge that prefers the first slot flips every row, and the run says so; one that follows the answers does not", async () => {
  env.fake.answer = judgeAnswer;
  const page = await env.page({ settings: proxySettings("judge-first"), view: "batch" });
  await page.waitForSelector('[data-ref="batch-setup"]');
  const field = page.locator('[data-ref="batch-both-orders-field"]');
  await loadDataset(page, "pairs.jsonl", PAIRWISE_ROWS.map((r) => JSON.stringify(r)).join("\n") + "\n", { evaluator: "pairwise-faithfulness" });
  assert.equal(await field.isVisible(), true, "offered for an evaluator that compares two answers");
  await page.check('[data-ref="batch-both-orders"]');
  const n = PAIRWISE_ROWS.length;
  await page.waitForFunction((n) => document.querySelector('[data-ref="batch-setup-line"]').textContent.startsWith(`${n} rows × 2 orders = ${2 * n} calls`), n);
  assert.match(await page.textContent('[data-ref="batch-estimate"]'), new RegExp(`About ${2 * n} calls \\(${n} rows × 2 orders\\)`));
  const before = chats().length;
  const first = await started(page, "batch-run");
  await finished(page, first);
  assert.equal(chats().length - before, 2 * n, "each row twice");
  const panel = page.locator('[data-ref="position-panel"]');
  await panel.waitFor();
  assert.deepEqual(await panel.evaluate((p) => ({ ...p.dataset })), { ref: "position-panel", flips: String(n), compared: String(n), firstWon: String(2 * n), decided: String(2 * n) });
  assert.equal(await page.textContent('[data-ref="position-flip"] .stat-value'), "100%");
  assert.equal(await page.textContent('[data-ref="position-first"] .stat-value'), "100%");
  assert.match(await page.textContent('[data-ref="position-first"]'), /favours the answer it reads first/);
  assert.deepEqual(await axeViolations(page), [], "the position panel: axe violations");
  assert.match(await page.textContent('[data-ref="batch-run-sub"]'), /in both orders/);
  assert.match(await page.textContent('[data-ref="batch-summary"]'), /the grade changed when the answers swapped places/);
  // A row opens with each order's answer.
  await page.locator('[data-ref="batch-table"] .vt-row').first().click();
  await page.waitForSelector('[data-ref="batch-dialog"][open] [data-order="2"]');
  assert.match(await page.textContent('[data-ref="batch-dialog"] [data-order="2"] summary'), /answers exchanged/);
  await page.click('[data-ref="batch-dialog"] .dialog-close');
  const csv = (await exported(page, "batch-export-csv")).split("\r\n");
  const head = csv[0].split(",");
  const flip = head.indexOf("position_flip");
  assert.ok(flip > 0 && head.includes("exchanged_answer"));
  assert.ok(csv.slice(1, n + 1).every((line) => line.split(",")[flip] === "true"));
  const html = await exported(page, "batch-report");
  assert.match(html, /data-ref="position-panel"/);

  // A judge whose grades follow the answers: no flip, each slot wins half the time.
  await setModel(page, "judge-fair");
  await page.click('[data-ref="batch-new-run"]');
  await page.waitForFunction(() => !document.querySelector('[data-ref="batch-run"]').disabled);
  const fair = await started(page, "batch-run");
  await finished(page, fair);
  await page.waitForFunction(() => document.querySelector('[data-ref="position-panel"]')?.dataset.flips === "0");
  assert.equal(await page.textContent('[data-ref="position-first"] .stat-value'), "50%");

  // Another evaluator compares no two answers: the option is not offered.
  await page.click('[data-ref="batch-new-run"]');
  await page.selectOption('[data-ref="batch-evaluator"]', "answer-grounding");
  assert.equal(await field.isVisible(), false);
  assert.deepEqual(page.pageErrors, []);
});

test("a reload in the middle of a check-up resumes it, and no answer is paid for twice", async () => {
  // The first few calls are answered; the rest are held (never answered) until the page reloads.
  let open = false;
  let answered = 0;
  env.fake.answer = (prompt, id, request) => {
    if (open || answered < 5) {
      answered++;
      return judgeAnswer(prompt, id, request);
    }
    return new Promise(() => {});
  };
  env.fake.answered.length = 0;
  const page = await env.page({ settings: proxySettings("judge-right"), view: "batch" });
  await page.waitForSelector('[data-ref="batch-setup"]');
  // The earlier tests' answers are in this profile's request cache: emptied, every answer is paid for here.
  if (!(await page.locator('[data-ref="batch-setup"]').evaluate((d) => d.open))) await page.click('[data-ref="batch-new-run"]');
  await page.click('[data-ref="batch-clear-cache"]');
  await page.waitForFunction(() => /^0 answers cached/.test(document.querySelector('[data-ref="batch-cache-count"]').textContent));
  await loadDataset(page, "facts.jsonl", groundingJSONL(), { evaluator: "answer-grounding" });
  await openCheckup(page);
  await page.fill('[data-ref="checkup-seed"]', "77");
  await page.locator('[data-ref="checkup-seed"]').dispatchEvent("change");
  await page.waitForFunction(() => /^\d+ cases from 8 rows/.test(document.querySelector('[data-ref="checkup-setup-line"]').textContent));
  const cases = Number(/^(\d+) cases/.exec(await page.textContent('[data-ref="checkup-setup-line"]'))[1]);
  const id = await started(page, "checkup-run");
  // Five cases are stored; the others wait on the endpoint.
  await page.waitForFunction(() => Number(document.querySelector('[data-ref="batch-progress-text"]')?.dataset.done) >= 5);
  await waitFor(() => chats().length > 5, 15_000, "calls held in flight");
  assert.equal(env.fake.answered.length, 5);

  // From now on calls are answered: the reloaded page resumes the run as it loads. (The held calls
  // fill every slot of the page being left, so it sends no new one meanwhile.)
  open = true;
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  // The run reopens as it was left (running) and goes on by itself.
  await finished(page, id);
  const got = await chart(page);
  assert.deepEqual([got.caught, got.missed], [cases, 0], "every case graded after the reload");
  const prompts = env.fake.answered.map((a) => a.prompt);
  assert.equal(prompts.length, cases, "each case's answer delivered once");
  assert.equal(new Set(prompts).size, cases, "no answer paid for twice");
  assert.deepEqual(page.pageErrors, []);
});

test("a custom evaluator: its check-up's right verdicts set in My evaluators, warnings where they point, kept; its check-up run in Batch", async () => {
  env.fake.answer = judgeAnswer;
  const page = await env.page({ settings: proxySettings("judge-yes"), view: "custom" });
  await page.waitForSelector('[data-ref="custom-list"]');
  await page.locator('[data-ref="custom-import-file"]').setInputFiles({ name: "addresses.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(ADDRESSES)) });
  await page.waitForFunction(() => /Imported addresses-question/.test(document.querySelector('[data-ref="custom-msg"]').textContent));
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  const pick = async (key, value) => {
    await page.selectOption(`[data-ref="custom-checkup-${key}"]`, value);
  };
  const warning = (key) => page.locator(`[data-error-for="checkup.${key}"]`);
  assert.deepEqual(await page.locator('[data-ref="custom-checkup-replaced"] option').allTextContents(), ["not offered", "passes (Addresses it)", "fails (Off the question)", "the judge declines (a label mapped to null)"]);
  await pick("replaced", "fail");
  await pick("emptied", "pass");
  await pick("halved", "decline");
  // What no case can come of is said under its own control: the judged input is required; a yes/no reader cannot decline.
  await page.waitForFunction(() => /required/.test(document.querySelector('[data-error-for="checkup.emptied"]').textContent));
  await page.waitForFunction(() => /cannot decline/.test(document.querySelector('[data-error-for="checkup.halved"]').textContent));
  assert.equal(await warning("replaced").textContent(), "");
  assert.match(await page.textContent('[data-ref="custom-status"]'), /Ready[\s\S]*2 warnings/);
  await pick("emptied", "");
  await pick("halved", "fail");
  await page.waitForFunction(() => document.querySelector('[data-error-for="checkup.halved"]').textContent === "" && document.querySelector('[data-error-for="checkup.emptied"]').textContent === "");
  await page.waitForFunction(() => document.querySelector('[data-ref="custom-editor"]')?.dataset.saving !== "true");
  const file = JSON.parse(await exported(page, "custom-export"));
  assert.deepEqual(file.checkup, { replaced: false, halved: false });

  // Kept: after a reload the controls say what was chosen.
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.waitForSelector('[data-ref="custom-checkup-halved"]');
  assert.equal(await page.inputValue('[data-ref="custom-checkup-replaced"]'), "fail");
  assert.equal(await page.inputValue('[data-ref="custom-checkup-emptied"]'), "");

  // Its check-up in Batch: the judge that always says yes misses both.
  await page.click("#tab-batch");
  await page.waitForSelector('[data-ref="batch-setup"]');
  if (!(await page.locator('[data-ref="batch-setup"]').evaluate((d) => d.open))) await page.click('[data-ref="batch-new-run"]');
  await loadDataset(page, "facts.jsonl", groundingJSONL(), { evaluator: ADDRESSES.id });
  await openCheckup(page);
  const lines = await page.$$eval('[data-ref="checkup-cases"] tbody tr', (trs) => trs.map((tr) => [tr.dataset.transform, Number(tr.dataset.cases)]));
  assert.deepEqual(lines.map(([t]) => t), ["replaced", "halved", "emptied"]);
  assert.equal(lines[2][1], 0, "emptied is not offered");
  const id = await started(page, "checkup-run");
  await finished(page, id);
  const got = await chart(page);
  assert.equal(got.caught, 0);
  assert.equal(got.missed, lines[0][1] + lines[1][1]);
  assert.match(await page.textContent('[data-ref="checkup-chart"] [data-transform="emptied"]'), /not offered/);
  assert.deepEqual(page.pageErrors, []);
});
