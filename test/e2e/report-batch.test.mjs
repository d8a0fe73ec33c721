// report-batch.test.mjs: a 1,000-row batch run, judged through the real dev server by the fake
// upstream (faults on: errors, unreadable answers, retries), leaves the page as one report file:
// under 3 MB, no key, opened from file:// with the network off, its own script only; the summary
// says what the page's does, the filters and the search find the rows, a row expands, markup from
// a dataset cell stays text, and the print layout hides the controls. Twice: with the short rows
// of the batch tests (a plain file), and with rows of a few KB each, which would make a 4 MB file
// and are packed (deflated in the file, unpacked by its script when it opens).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { datasetJSONL } from "./batch-upstream.mjs";
import { useBatchEnv, openBatch, setRunOptions, loadDataset, runEnd, startServed, setNumber, progress, waitFor } from "./batch-env.mjs";
import { axeViolations } from "./axe.mjs";

const N = 1000;
const BUDGET = 3 * 1024 * 1024;
const KEY = "sk-batch-report-SECRET-5150";
const env = useBatchEnv({ latencyMs: 2, faults: true });

/**
 * bigDataset is datasetJSONL's rows with a longer answer and three contexts of ~700 characters
 * of words drawn at random (seeded) from a vocabulary, so they deflate about as real text does;
 * every 97th row's contexts hold markup.
 */
function bigDataset(n) {
  const vocab = "the a of to in is was for on that with as by at from it an be are this which or have has had not but were their its can all been more one also into other than only when after most some time such these over may about two year new first would them who many could where then like well between".split(" ");
  let seed = 99;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed >>> 8);
  const words = (len) => {
    let out = "";
    while (out.length < len) out += (rnd() % 5 ? vocab[rnd() % vocab.length] : String.fromCharCode(65 + (rnd() % 26)) + vocab[rnd() % vocab.length] + (rnd() % 1000)) + (rnd() % 11 ? " " : ". ");
    return out;
  };
  const lines = [];
  for (let i = 1; i <= n; i++) {
    const evil = i % 97 === 0 ? `<img src=x onerror="window.__xss=${i}"><script>window.__xss=${i}</script>` : "";
    lines.push(JSON.stringify({ user_input: `Question ${i}: ${words(80)}`, response: `row-${i}: ${words(450)}`, retrieved_contexts: [evil + words(700), words(700), words(700)], reference: words(60) }));
  }
  return lines.join("\n") + "\n";
}

for (const [size, dataset, packed] of [
  ["short", () => datasetJSONL(N), false],
  ["few-KB", () => bigDataset(N), true],
]) {
test(`a finished 1,000-row run's report, ${size} rows: under 3 MB, offline, filterable, no key, markup as text`, async () => {
  const { browser, serve } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript((key) => {
    if (sessionStorage.getItem("seeded")) return;
    sessionStorage.setItem("seeded", "1");
    localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: { endpoint: "proxy", model: "judge-batch", remember: true } }));
    localStorage.setItem("ragjudge.page.key", key);
  }, KEY);
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await openBatch(page, serve.url);
  await setRunOptions(page, { timeout: 2, attempts: 2, concurrency: 16 });
  await loadDataset(page, "ragas-1000.jsonl", dataset());
  await page.click('[data-ref="batch-run"]');
  await runEnd(page, 180_000);
  await page.waitForSelector('[data-ref="batch-report"]:not([hidden])');
  const cards = await page.locator('[data-ref="batch-summary"] .stat-value').allTextContents();
  const chip = async (k) => Number((await page.textContent(`[data-ref="batch-filter-${k}"] .chip-count`)).replace(/\D/g, ""));
  const failed = await chip("failed");
  const errors = await chip("error");
  assert.ok(failed > 0 && errors > 0, `failed ${failed}, errors ${errors}`);

  const t0 = Date.now();
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-report"]')]);
  const html = await readFile(await download.path(), "utf8");
  const ms = Date.now() - t0;
  const bytes = Buffer.byteLength(html);
  console.log(`report of ${N} ${size} rows: ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MB, ${packed ? "packed" : "plain"}), made and saved in ${ms} ms`);
  assert.equal(html.includes('id="rp-packed"'), packed, packed ? "the rows are not packed" : "the rows are packed");
  assert.ok(bytes < BUDGET, `${bytes} bytes, over the ${BUDGET} budget`);
  assert.match(download.suggestedFilename(), /^ragas-1000-answer-grounding-report-\d{4}-\d\d-\d\d\.html$/);
  assert.match(await page.textContent('[data-ref="batch-report-msg"]'), /Report saved as .*\(\d[\d,]* KB\)/);
  assert.ok(!html.includes(KEY), "the key is in the report");
  assert.ok(!html.includes(serve.url), "the page's address is in the report");
  assert.deepEqual(pageErrors, []);

  const dir = await mkdtemp(join(tmpdir(), "ragjudge-report-batch-"));
  const path = join(dir, "report.html");
  await writeFile(path, html);
  const offline = await browser.newContext({ offline: true });
  const r = await offline.newPage();
  const requests = [];
  const csp = [];
  const errs = [];
  r.on("request", (q) => !q.url().startsWith("file://") && requests.push(q.url()));
  r.on("console", (m) => /Content.Security.Policy|Refused to/i.test(m.text()) && csp.push(m.text()));
  r.on("pageerror", (e) => errs.push(String(e)));
  try {
    await r.goto("file://" + path);
    await r.waitForFunction(() => document.documentElement.dataset.script === "ready");
    assert.equal(await r.locator(".rp-row").count(), N);
    // The header says what was judged, by which model, when, with which prompt.
    const header = await r.textContent('[data-ref="report-header"]');
    assert.match(header, /ragas-1000\.jsonl \(1,000 rows\)/);
    assert.match(header, /Answer grounding \(answer-grounding, built-in\)/);
    assert.match(header, /judge-batch \(via dev server → 127\.0\.0\.1:\d+\)/);
    assert.match(header, /finished, 1,000 of 1,000 rows judged/);
    assert.match(header, /ragjudge \d+\.\d+\.\d+/);
    assert.match(await r.textContent('[data-ref="report-prompt"]'), /The built-in prompt "answer-grounding"[\s\S]*row-1: /);
    // The cards are the page's.
    assert.deepEqual(await r.locator('[data-ref="report-summary"] .stat-value').allTextContents(), cards);
    assert.equal(await r.locator('[data-ref="report-summary"] svg.histogram .hist-bin').count(), 10);
    // Filters, search, expanding.
    const shown = () => r.locator(".rp-row:not([hidden])").count();
    await r.click('[data-f="failed"]');
    assert.equal(await shown(), failed);
    assert.equal(await r.locator('.rp-row:not([hidden]):not([data-status="failed"])').count(), 0);
    await r.click('[data-f="error"]');
    assert.equal(await shown(), errors);
    assert.match(await r.textContent("#rp-count"), new RegExp(`^${errors} of ${N} rows shown$`));
    await r.click('[data-f="all"]');
    await r.fill("#rp-q", "row-77:");
    assert.equal(await shown(), 1);
    const row = r.locator(".rp-row:not([hidden])");
    assert.equal(await row.getAttribute("data-n"), "77");
    await row.locator("summary").click();
    assert.equal(await row.evaluate((d) => d.open), true);
    assert.match(await row.textContent(), /The judge's answer[\s\S]*(Yes|No)[\s\S]*Inputs[\s\S]*(The Eiffel Tower stands in Paris \(fact 77\)|row-77: )/);
    // A cell holds markup: text in the report, and it never ran.
    const evil = packed ? 97 : 7;
    await r.fill("#rp-q", `row-${evil}:`);
    await r.click("#rp-open");
    assert.match(await r.textContent(`.rp-row[data-n="${evil}"]`), packed ? /<img src=x onerror="window.__xss=97"><script>window.__xss=97<\/script>/ : /<img src=x onerror="window.__xss=1"><script>window.__xss=2<\/script> Paris\./);
    assert.equal(await r.locator(".rp-row img, .rp-row script, .rp-row svg, [onerror], [onload], a[href]").count(), 0);
    assert.equal(await r.locator("script").count(), 1);
    assert.equal(await r.evaluate(() => window.__xss), undefined);
    // Accessible in both themes (axe-core, as the page's own tests check it).
    if (!packed) {
      // Over a hundred rows of every kind (1, 10–19, 100–199, 1000), one of them open: axe over all
      // 1,000 takes a minute and finds nothing more.
      await r.fill("#rp-q", "row-1");
      await r.click("#rp-close");
      await r.locator('.rp-row[data-n="105"] summary').click();
      for (const scheme of ["light", "dark"]) {
        await r.emulateMedia({ colorScheme: scheme });
        assert.deepEqual(await axeViolations(r), [], scheme);
      }
    }
    // Printed: the controls go, the rows stay, each with what it holds (finding 19: a closed row printed its line alone).
    await r.fill("#rp-q", "");
    await r.click("#rp-close");
    const closed = r.locator(".rp-row:not([hidden])").first();
    assert.equal(await closed.evaluate((d) => d.open), false);
    assert.equal(await closed.locator(".rp-body").evaluate((b) => b.checkVisibility()), false, "on screen a closed row shows its line");
    await r.emulateMedia({ media: "print" });
    assert.equal(await r.locator('[data-ref="report-filters"]').evaluate((e) => getComputedStyle(e).display), "none");
    assert.equal(await closed.locator(".rp-body").evaluate((b) => b.checkVisibility()), true, "printed, a closed row shows the judge's reasons and answer");
    const pdf = await r.pdf({ format: "A4" });
    assert.ok(pdf.length > 10_000);
    assert.deepEqual(requests, []);
    assert.deepEqual(csp, []);
    assert.deepEqual(errs, []);
  } finally {
    await offline.close();
    await context.close();
    await rm(dir, { recursive: true, force: true });
  }
});
}

test("a run with human labels and repeats: its report has the Agreement and Consistency panels, with the page's numbers", async () => {
  // A judge that flips some rows' verdicts between repeats, so the repeats disagree somewhere.
  const served = await startServed({ latencyMs: 2, faults: false, flips: true });
  const context = await env.browser.newContext({ acceptDownloads: true });
  const dir = await mkdtemp(join(tmpdir(), "ragjudge-report-trust-"));
  try {
    const page = await context.newPage();
    await openBatch(page, served.serve.url);
    await setRunOptions(page, { concurrency: 8 });
    await setNumber(page, "batch-repeats", 3);
    const rows = 60;
    const q = (x) => '"' + String(x).replace(/"/g, '""') + '"';
    const csv = ["id,user_input,response,retrieved_contexts,human_label"];
    for (let r = 1; r <= rows; r++) csv.push([`q${r}`, q(`Question ${r}?`), q(`row-${r}: The Eiffel Tower is in Paris.`), q(JSON.stringify([`The Eiffel Tower stands in Paris (fact ${r}).`])), r % 4 === 0 ? "no" : "yes"].join(","));
    await loadDataset(page, "labelled.csv", csv.join("\r\n") + "\r\n", { mimeType: "text/csv" });
    assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "human_label");
    await page.click('[data-ref="batch-run"]');
    await runEnd(page, 90_000);
    await page.waitForFunction(() => document.querySelector('[data-ref="agreement-panel"]')?.dataset.pending === "0");
    const agreement = await page.locator('[data-ref="agreement-panel"]').evaluate((e) => ({ ...e.dataset }));
    const split = await page.locator('[data-ref="consistency-panel"] [data-ref="split-bar"]').evaluate((e) => [e.dataset.unanimous, e.dataset.split]);
    assert.ok(Number(split[1]) > 0, "some rows split");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-report"]')]);
    const html = await readFile(await download.path(), "utf8");
    const path = join(dir, "trust.html");
    await writeFile(path, html);
    const offline = await env.browser.newContext({ offline: true });
    try {
      const r = await offline.newPage();
      await r.goto("file://" + path);
      await r.waitForFunction(() => document.documentElement.dataset.script === "ready");
      const panels = r.locator('[data-ref="report-panels"]');
      assert.deepEqual(await panels.locator('[data-ref="agreement-panel"]').evaluate((e) => ({ ...e.dataset })), agreement);
      assert.deepEqual(await panels.locator('[data-ref="split-bar"]').evaluate((e) => [e.dataset.unanimous, e.dataset.split]), split);
      assert.match(await r.textContent('[data-ref="report-header"]'), /each row judged 3 times, its verdict the majority/);
      assert.match(await r.textContent('[data-ref="report-summary"] [data-ref="batch-pass-rate"]'), /each row's majority of 3 repeats/);
      // A row shows each repeat's verdict and answer.
      const row = r.locator('.rp-row[data-n="2"]');
      await row.locator("summary").click();
      assert.match(await row.textContent(), /Repeat 1 of 3: .*Repeat 2 of 3: .*Repeat 3 of 3: /s);
      assert.match(await row.locator(".rp-note").textContent(), /^repeats /);
      // Each row shows its human label and whether the judge agrees; the Disagree and Flipped
      // filters show the rows the page's panels count.
      assert.match(await row.locator('[data-ref="report-row-label"]').textContent(), /^Human label \(human_label\): ✓ Grounded · ✓ the judge (agrees|disagrees)$/);
      assert.match(await r.locator('.rp-row[data-n="4"] .rp-label').textContent(), /^label ✗ Not grounded/);
      const disagree = Number(agreement.compared) - Number(agreement.agree);
      assert.ok(disagree > 0, "some rows disagree with their label");
      const shown = async (f, n) => {
        await r.click(`[data-ref="report-filters"] [data-f="${f}"]`);
        await r.waitForFunction((n) => document.getElementById("rp-count").textContent === `${n} of 60 rows shown`, n);
        return r.$$eval(".rp-row:not([hidden])", (rows) => rows.map((x) => x.dataset));
      };
      const dis = await shown("disagree", disagree);
      assert.ok(dis.every((d) => d.agrees === "false"));
      assert.match(await r.textContent('[data-f="disagree"]'), new RegExp(`≠ Disagree with label ${disagree}$`));
      const flipped = await shown("split", Number(split[1]));
      assert.ok(flipped.every((d) => d.split === "true"));
      assert.match(await r.textContent('[data-f="split"]'), new RegExp(`⇄ Flipped ${split[1]}$`));
      await shown("all", 60);
    } finally {
      await offline.close();
    }
  } finally {
    await context.close();
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a paused run's report says it is paused and how far it got; Download report hides while it runs", async () => {
  const served = await startServed({ latencyMs: 150, faults: false });
  const context = await env.browser.newContext({ acceptDownloads: true });
  const dir = await mkdtemp(join(tmpdir(), "ragjudge-report-paused-"));
  try {
    const page = await context.newPage();
    await openBatch(page, served.serve.url);
    await setRunOptions(page, { concurrency: 2 });
    await loadDataset(page, "slow.jsonl", datasetJSONL(200));
    await page.click('[data-ref="batch-run"]');
    await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "running" && p.done >= 6 ? p : null;
    }, 30_000, "a few rows done");
    assert.equal(await page.locator('[data-ref="batch-report"]').isVisible(), false, "no report of a run still going");
    await page.click('[data-ref="batch-pause"]');
    // Paused, the calls that were out have ended (the progress line no longer says "judging") and
    // the rows they answered are stored (none saving: such a row is done a moment later).
    const paused = await waitFor(async () => {
      const p = await progress(page);
      return p && p.state === "paused" && !/judging|retrying/.test(p.text) && p.saving === 0 ? p : null;
    }, 15_000, "the run to pause");
    await page.waitForSelector('[data-ref="batch-report"]:not([hidden])');
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-report"]')]);
    const path = join(dir, "paused.html");
    await writeFile(path, await readFile(await download.path()));
    const offline = await env.browser.newContext({ offline: true });
    try {
      const r = await offline.newPage();
      await r.goto("file://" + path);
      await r.waitForFunction(() => document.documentElement.dataset.script === "ready");
      const done = paused.done;
      assert.equal((await progress(page)).done, done, "rows finished after the pause");
      assert.match(await r.textContent('[data-ref="report-header"]'), new RegExp(`paused, ${done} of 200 rows judged`));
      assert.equal(await r.locator('.rp-row[data-status="pending"]').count(), 200 - done);
      await r.click('[data-f="pending"]');
      assert.equal(await r.locator(".rp-row:not([hidden])").count(), 200 - done);
      assert.match(await r.locator('.rp-row[data-status="pending"] .rp-note').first().textContent(), /not judged yet/);
    } finally {
      await offline.close();
    }
  } finally {
    await context.close();
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
});
