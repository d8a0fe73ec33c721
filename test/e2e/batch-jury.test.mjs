// batch-jury.test.mjs: a jury of two judges across two upstreams of the real dev server
// (serve/, -upstream a=URL -upstream b=URL), each a fake upstream (batch-upstream.mjs) whose
// model answers otherwise on some rows ("fake-judge-b" flips rows N % 7 == 0), in real headless
// chromium. The second judge is chosen in the Jury option by the upstream's name, as
// /ragjudge/config lists it. The table shows each judge's verdict and the jury's, the Agreement
// panel each judge's κ against the labels, the jury's and the κ between the judges, all equal to
// the core's over what the fakes said; a reload in the middle of the run resumes both judges and
// no answer is paid twice; the exports and the report carry each judge's verdict.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { load } from "../../web/ragjudge.js";
import { axeViolations } from "./axe.mjs";
import { startFakeUpstream, fakeVerdict } from "./batch-upstream.mjs";
import { startServe, launch, newBatchPage, setRunOptions, loadDataset, runEnd, progress, waitFor, ROOT } from "./batch-env.mjs";

const N = 28;
const rj = await load();
const SHOTS = process.env.RAGJUDGE_SHOTS || "";

/** The fakes' verdicts per row: judge a ("fake-judge" at upstream a), judge b ("fake-judge-b" at b). */
const rows = Array.from({ length: N }, (_, i) => i + 1);
const aSays = rows.map((r) => fakeVerdict(r, "fake-judge"));
const bSays = rows.map((r) => fakeVerdict(r, "fake-judge-b"));
/** The human label: judge a's verdict, flipped on every 4th row. */
const labels = rows.map((r, i) => (r % 4 === 0 ? !aSays[i] : aSays[i]));
/** The jury's majority of two: their verdict when they agree, a tie (undetermined) otherwise. */
const jurySays = rows.map((_, i) => (aSays[i] === bSays[i] ? aSays[i] : null));

function dataset() {
  return (
    rows
      .map((r, i) =>
        JSON.stringify({
          user_input: `Question ${r}: where is the Eiffel Tower?`,
          response: `row-${r}: The Eiffel Tower is in Paris, built in 1889.`,
          retrieved_contexts: [`The Eiffel Tower stands in Paris (fact ${r}).`],
          human_label: labels[i] ? "pass" : "fail",
        }),
      )
      .join("\n") + "\n"
  );
}

const env = {};
before(async () => {
  env.a = await startFakeUpstream({ latencyMs: 5, faults: false, flips: true });
  env.b = await startFakeUpstream({ latencyMs: 5, faults: false, flips: true });
  env.serve = await startServe(`a=${env.a.url}/v1`, ["-upstream", `b=${env.b.url}/v1`]);
  env.browser = await launch();
});
after(async () => {
  if (env.browser) await env.browser.close();
  if (env.serve) await env.serve.close();
  if (env.a) await env.a.close();
  if (env.b) await env.b.close();
});

/** cached counts the answers in the page's request cache (IndexedDB). */
function cached(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("ragjudge-batch");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const q = db.transaction("cache").objectStore("cache").count();
          q.onsuccess = () => (db.close(), resolve(q.result));
          q.onerror = () => reject(q.error);
        };
      }),
  );
}

async function exported(page, fmt) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-ref="batch-export-${fmt}"]`)]);
  return readFile(await download.path(), "utf8");
}

/** shot saves a screenshot of what (a page or a locator) when RAGJUDGE_SHOTS names a directory. */
async function shot(what, name) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await what.screenshot({ path: join(SHOTS, name + ".png") });
}

test("a jury of two judges on two upstreams: each judge's verdict, the jury's, each κ and the matrix; a reload resumes both, paying nothing twice", async () => {
  const { browser, serve, a, b } = env;
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(() => {
    if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: { model: "fake-judge" } }));
  });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { concurrency: 2 });

    // ---- the jury: judge 2 at the dev server's upstream b, chosen by name ----------------------
    await page.click('[data-ref="batch-jury"] > summary');
    assert.match(await page.textContent('[data-ref="batch-jury-state"]'), /off: one judge/);
    assert.match(await page.textContent('[data-ref="batch-judge"][data-judge="0"]'), /Judge 1\s*fake-judge @ a\s*Model settings/);
    await page.click('[data-ref="batch-add-judge"]');
    const second = page.locator('[data-ref="batch-judge"][data-judge="1"]');
    const offered = await second.locator('[data-ref="batch-judge-endpoint"] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(
      offered.map(([v]) => v),
      ["proxy:a", "proxy:b", "direct"],
      "every upstream /ragjudge/config lists, and a direct URL",
    );
    assert.match(offered[1][1], /Dev server → b \(127\.0\.0\.1:\d+\)/);
    assert.equal(await second.locator('[data-ref="batch-judge-endpoint"]').inputValue(), "proxy:b", "a new judge starts on the other upstream");
    assert.equal(await second.locator('[data-ref="batch-judge-key"]').count(), 0, "a local upstream needs no key");
    await second.locator('[data-ref="batch-judge-model"]').evaluate((el) => (el.dataset.mark = "typed-in"));
    await second.locator('[data-ref="batch-judge-model"]').fill("fake-judge-b");
    await second.locator('[data-ref="batch-judge-model"]').press("Tab");
    // Its change saved, the field is the same node, and Tab went on to the next control.
    assert.equal(await second.locator('[data-ref="batch-judge-model"]').getAttribute("data-mark"), "typed-in");
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.dataset.ref), "batch-judge-remove");
    assert.match(await page.textContent('[data-ref="batch-jury-state"]'), /2 judges/);
    assert.equal(await page.inputValue('[data-ref="batch-jury-rule"]'), "majority");

    await loadDataset(page, "jury.jsonl", dataset());
    assert.equal(await page.inputValue('[data-ref="batch-map-label"]'), "human_label");
    // What Run will spend says the jury: each row a call per judge.
    assert.equal(await page.textContent('[data-ref="batch-setup-line"]'), `${N} rows × 2 judges = ${2 * N} calls · a jury of fake-judge @ a, fake-judge-b @ b · temperature 0 · max tokens 2,048`);
    assert.match(await page.textContent('[data-ref="batch-estimate"]'), new RegExp(`About ${2 * N} calls \\(${N} rows × 2 judges\\)`));
    // A batch file goes to one provider: it holds judge 1's requests, and says so.
    assert.match(await page.textContent('[data-ref="batchfile-setup-line"]'), new RegExp(`The file: ${N} requests, one per row · fake-judge .*Judge 1's requests only: a batch file goes to one provider, so a jury runs live\\.`));
    await shot(page, "jury-option");

    // ---- the run, held on b after 10 answers, then reloaded ------------------------------------
    b.hold();
    b.release(10);
    await page.click('[data-ref="batch-run"]');
    await waitFor(async () => {
      const p = await progress(page);
      return p && p.done === 10 ? p : null;
    }, 30_000, "10 rows judged by both judges");
    // a answers every row the run has started; b holds the rest. Every answer is in the cache.
    await waitFor(async () => (await (await fetch(a.url + "/stats")).json()).inflight === 0, 15_000, "a to answer the rows started");
    const answered = (s) => Object.values(s.answeredByRow).reduce((x, y) => x + y, 0);
    await waitFor(async () => (await cached(page)) === answered(a.stats) + answered(b.stats), 15_000, "the answers to be cached");
    const aBefore = answered(a.stats);
    assert.ok(aBefore > 10, `a answered rows b has not yet (${aBefore})`);
    assert.ok(b.stats.calls > 10, "b holds calls in flight");
    await page.reload();
    await page.waitForSelector('[data-ref="batch-run-card"]');
    b.release();
    const end = await runEnd(page, 60_000, "the resumed jury run");
    assert.equal(end.done, N);
    for (const r of rows) {
      assert.equal(a.stats.answeredByRow[r], 1, `a answered row ${r} once`);
      assert.equal(b.stats.answeredByRow[r], 1, `b answered row ${r} once`);
    }
    assert.equal(a.stats.calls, N, "a was asked nothing twice: its answers came from the cache after the reload");
    assert.ok(b.stats.dropped >= 1, "b's calls held at the reload were dropped, never answered");
    assert.ok(end.cacheHits >= aBefore - 10, `the resumed rows read a's answers from the cache (${end.cacheHits})`);

    // ---- each judge's verdict and the jury's, row by row ----------------------------------------
    const shown = await page.$$eval('[data-ref="batch-table"] [data-index]', (els) => els.map((e) => ({ i: Number(e.dataset.index), status: e.dataset.status, judges: e.dataset.judges, note: e.querySelector(".vt-note").textContent })));
    assert.ok(shown.length >= 10, "rows drawn");
    const word = (v) => (v === true ? "passed" : v === false ? "failed" : "undetermined");
    for (const s of shown) {
      assert.equal(s.judges, `${word(aSays[s.i])} ${word(bSays[s.i])}`, `row ${s.i + 1}'s judges`);
      assert.equal(s.status, word(jurySays[s.i]), `row ${s.i + 1}'s jury`);
      assert.match(s.note, /^judges [✓✗] [✓✗]/);
    }
    // Row 7: the judges split, the jury's verdict is undetermined and says why.
    await page.click('[data-ref="batch-filter-undetermined"]');
    await page.click('[data-ref="batch-table"] [data-index="6"]');
    const dialog = page.locator('[data-ref="batch-dialog"][open]');
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('[data-ref="batch-row-judge"]').evaluateAll((els) => els.map((e) => e.dataset.status)), [word(aSays[6]), word(bSays[6])]);
    assert.match(await dialog.textContent(), /the jury split evenly/);
    assert.match(await dialog.textContent(), /The jury \(majority\)/);
    assert.notEqual(await dialog.locator('[data-ref="yesno"] .yesno-word').textContent(), "YES", "no judge's word drawn as the row's");

    await shot(dialog, "jury-row");
    await page.keyboard.press("Escape");
    await page.click('[data-ref="batch-filter-all"]');

    // ---- κ: each judge's against the labels, the jury's, and between the judges: the core's ----
    const kappa = (x, y) => rj.agreement(x, y).kappa;
    const panel = page.locator('[data-ref="jury-panel"]');
    await panel.waitFor();
    const lines = await page.$$eval('[data-ref="jury-kappa"]', (els) => els.map((e) => [e.dataset.judge, e.dataset.kappa]));
    assert.deepEqual(
      lines.map(([j, k]) => [j, Number(k)]),
      [
        ["0", kappa(aSays, labels)],
        ["1", kappa(bSays, labels)],
        ["jury", kappa(jurySays, labels)],
      ],
    );
    assert.equal(Number(await page.getAttribute('[data-ref="agreement-panel"]', "data-kappa")), kappa(jurySays, labels), "the Agreement panel is the jury's verdict against the labels");
    const cell = await page.getAttribute('[data-ref="jury-cell"][data-i="0"][data-j="1"]', "data-kappa");
    assert.equal(Number(cell), kappa(aSays, bSays));
    assert.equal(await page.getAttribute('[data-ref="jury-cell"][data-i="1"][data-j="0"]', "data-kappa"), cell);
    assert.match(await panel.textContent(), new RegExp(`${N} rows judged by both judges`));
    await shot(panel, "jury-panel");

    // ---- the exports and the report carry each judge's verdict ----------------------------------
    const jsonl = (await exported(page, "jsonl")).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(jsonl.length, N);
    for (const rec of jsonl) {
      const i = rec.index;
      assert.equal(rec.judge1_passed, aSays[i]);
      assert.equal(rec.judge2_passed, bSays[i]);
      assert.equal(rec.passed, jurySays[i]);
      assert.equal(rec.jury_rule, "majority");
      assert.deepEqual(rec.judges.map((j) => j.name), ["fake-judge @ a", "fake-judge-b @ b"]);
      assert.equal(rec.judges[1].answers.length, 1);
    }
    const csv = await exported(page, "csv");
    const head = csv.split("\r\n")[0].split(",");
    for (const k of ["judge1_status", "judge1_passed", "judge1_score", "judge2_status", "judge2_passed", "judge2_score", "jury_rule", "judges"]) assert.ok(head.includes(k), k);
    const json = JSON.parse(await exported(page, "json"));
    assert.deepEqual(json.run.judges.map((j) => [j.via, j.upstream, j.model]), [["proxy", "a", "fake-judge"], ["proxy", "b", "fake-judge-b"]]);
    assert.ok(!JSON.stringify(json.run).includes("key"), "no key in the run's record");

    await page.waitForSelector('[data-ref="batch-report"]:not([hidden])');
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-report"]')]);
    const html = await readFile(await download.path(), "utf8");
    assert.match(html, /data-ref="jury-panel"/);
    assert.match(html, /a jury of 2: fake-judge @ a, fake-judge-b @ b/);
    assert.match(html, /fake-judge-b @ b: [✓✗]/);
    if (SHOTS) {
      // The report's panel and a row's judges, looked at as a reader opens the file.
      await mkdir(SHOTS, { recursive: true });
      const file = join(SHOTS, "jury-report.html");
      await writeFile(file, html);
      const r = await context.newPage();
      await r.goto("file://" + file);
      await shot(r.locator('[data-ref="jury-panel"]'), "jury-report-panel");
      await r.close();
    }

    assert.deepEqual(await axeViolations(page), [], "the jury's option and panel: axe violations");

    // ---- dark mode and a phone: nothing leaves the screen --------------------------------------
    for (const scheme of ["dark", "light"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 390, height: 844 });
      await panel.scrollIntoViewIfNeeded();
      await shot(panel, `jury-panel-phone-${scheme}`);
      await shot(page.locator('[data-ref="batch-table"]'), `jury-table-phone-${scheme}`);
      const over = await page.evaluate(() => [...document.querySelectorAll('[data-ref="jury-panel"] *, [data-ref="batch-jury"] *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest(".confusion-wrap")).map((e) => e.className || e.tagName));
      assert.deepEqual(over, [], `${scheme}: wider than a phone`);
      assert.deepEqual(await axeViolations(page), [], `axe at 390 px, ${scheme}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.click('[data-ref="batch-new-run"]');
    await page.locator('[data-ref="batch-jury"]').scrollIntoViewIfNeeded();
    await shot(page.locator('[data-ref="batch-jury"]'), "jury-option-dark");
    await page.click('[data-ref="batch-jury"] > summary');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page.locator('[data-ref="batch-jury"]'), "jury-option-phone-dark");
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

test("a check-up with a jury set up: its line counts each judge's calls, and each case's verdict is the jury's", async () => {
  const { browser, serve } = env;
  const context = await browser.newContext();
  await context.addInitScript(() => {
    if (!localStorage.getItem("ragjudge.page.v1"))
      localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: { model: "fake-judge" }, batch: { jury: { rule: "all", judges: [{ via: "proxy", upstream: "b", model: "fake-judge-b" }] } } }));
  });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await loadDataset(page, "jury.jsonl", dataset());
    if (!(await page.locator('[data-ref="checkup-setup"]').evaluate((d) => d.open))) await page.click('[data-ref="checkup-new"]');
    await page.waitForSelector('[data-ref="checkup-cases"] table');
    await page.waitForFunction(() => !document.querySelector('[data-ref="checkup-run"]').disabled);
    const line = await page.textContent('[data-ref="checkup-setup-line"]');
    const m = /(\d+) cases.* × 2 judges = (\d+) calls · a jury of fake-judge @ a, fake-judge-b @ b/.exec(line);
    assert.ok(m, line);
    assert.equal(Number(m[2]), 2 * Number(m[1]));
    await page.click('[data-ref="checkup-run"]');
    await runEnd(page, 60_000, "the check-up");
    await page.waitForSelector('[data-ref="checkup-panel"]');
    const rows = await page.$$eval('[data-ref="batch-table"] [data-index]', (els) => els.map((e) => ({ status: e.dataset.status, judges: e.dataset.judges })));
    assert.ok(rows.length > 0);
    // Rule "all": a case passes only when both judges passed it, fails when either failed it.
    for (const r of rows) {
      const [x, y] = r.judges.split(" ");
      assert.equal(r.status, x === "failed" || y === "failed" ? "failed" : x === "passed" && y === "passed" ? "passed" : "undetermined", JSON.stringify(r));
    }
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

void ROOT;
