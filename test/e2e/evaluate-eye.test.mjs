// evaluate-eye.test.mjs: the Evaluate view tells what happened, where the user looks, in real
// headless chromium through the real dev server and the fake upstream: an action taken right after
// typing acts on what was typed (Ctrl+Enter, a report, a reload), a failed call is told in the
// verdict panel and stays there, a streamed answer that came whole leaves no failed request in the
// console, and on a 390×844 phone the top bar is one row, nothing scrolls sideways, the tabs are
// reached by keyboard, and a shared verdict opens on the first screen.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { EXAMPLES } from "./fake-upstream.mjs";
import { encodeShare } from "../../web/share/codec.js";
import { axeViolations } from "./axe.mjs";
import { loadDataset, runEnd } from "./batch-env.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-eye-5150";
const PHONE = { width: 390, height: 844 };
const chats = () => env.fake.requests.filter((r) => r.path === "/chat/completions");
const runOver = (page) =>
  page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && (document.querySelector('[data-ref="verdict-view"]') || document.querySelector('[data-ref="call-failed"]') || document.querySelector('[data-ref="run-error"]').textContent));

/** typeThenRun sets the answer input and presses Ctrl+Enter in one task: no debounce can have run between. */
function typeThenRun(page, value) {
  return page.evaluate((v) => {
    const ta = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-input="answer"]'));
    ta.focus();
    ta.value = v;
    ta.dispatchEvent(new Event("input", { bubbles: true }));
    ta.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true, cancelable: true }));
  }, value);
}

test("Ctrl+Enter right after typing runs what was typed, not the form before the last keystroke", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="facts"] textarea', "Paris is the capital of France.");
  // Real keystrokes, then Ctrl+Enter at once: the prompt has not been drawn since the form was empty.
  await page.click('[data-input="answer"]');
  await page.keyboard.type("Paris is in France.");
  await page.keyboard.press("Control+Enter");
  await runOver(page);
  assert.equal(await text(page, '[data-ref="run-error"]'), "", "no 'cannot be rendered'");
  assert.match(chats().at(-1).body.messages[0].content, /Paris is in France\./);
  assert.equal(await page.getAttribute('[data-ref="verdict-view"]', "data-state"), "pass");

  // An edit and Ctrl+Enter in the same task: the run still asks about the edited text.
  const before = chats().length;
  await typeThenRun(page, "Lyon is the capital of France.");
  await page.waitForFunction((n) => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="run-status"]').textContent === "Done.", before);
  assert.equal(chats().length, before + 1);
  assert.match(chats().at(-1).body.messages[0].content, /Lyon is the capital of France\./);
  assert.doesNotMatch(chats().at(-1).body.messages[0].content, /Paris is in France\./);
  assert.deepEqual(page.pageErrors, []);
});

test("a report made right after an edit holds the edited prompt", async () => {
  const page = await env.page({ settings: { endpoint: "manual", model: "judge-mini" } });
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="example"]');
  await page.fill('[data-ref="answer"]', "yes");
  await page.waitForSelector('[data-ref="verdict-view"]');
  // A first report loads the report's code, so that the next one is made at once.
  await Promise.all([page.waitForEvent("download"), page.click('[data-ref="download-report"]')]);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.evaluate(() => {
      const ta = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-input="answer"]'));
      ta.value = "Edited just before the report.";
      ta.dispatchEvent(new Event("input", { bubbles: true }));
      /** @type {HTMLElement} */ (document.querySelector('[data-ref="download-report"]')).click();
    }),
  ]);
  const html = await readFile(await download.path(), "utf8");
  const prompt = /data-ref="report-prompt"[\s\S]*?<\/section>/.exec(html)?.[0] || "";
  assert.match(prompt, /Edited just before the report\./, "the report's prompt is the edited form's");
});

test("a reload right after typing keeps what was typed", async () => {
  const page = await env.page({ settings: { endpoint: "manual", model: "judge-mini" } });
  await pickEvaluator(page, "answer-grounding");
  await page.evaluate(() => {
    const ta = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-input="answer"]'));
    ta.value = "Typed, then the page reloaded at once.";
    ta.dispatchEvent(new Event("input", { bubbles: true }));
    location.reload();
  });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.querySelector('[data-input="answer"]'));
  assert.equal(await page.inputValue('[data-input="answer"]'), "Typed, then the page reloaded at once.");
});

for (const size of [PHONE, { width: 1280, height: 800 }]) {
  test(`${size.width}×${size.height}: a failed call (429, 500, unreachable) is told in the verdict panel, in view, and stays there`, async () => {
    for (const [settings, cause, message] of [
      [proxySettings("judge-429"), "rate limited (429)", /Rate limited .*429.*: wait 7 s and run again/],
      [proxySettings("judge-500"), "server error (500)", /model server failed \(500\): try again in a moment/],
      [proxySettings("judge-mini", { endpoint: "direct", baseURL: env.fake.url }), "call failed", /could not call 127\.0\.0\.1:\d+ directly/],
    ]) {
      const page = await env.page({ settings, key: KEY });
      await page.setViewportSize(size);
      await pickEvaluator(page, "claim-groundedness");
      await page.click('[data-ref="example"]');
      await page.click('[data-ref="run"]');
      await page.waitForSelector('[data-ref="verdict"] [data-ref="call-failed"]');
      await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden);
      const panel = await text(page, '[data-ref="verdict"]');
      assert.match(panel, message, cause);
      assert.equal(await text(page, '[data-ref="failed-badge"]'), "!Error — " + cause);
      assert.doesNotMatch(panel, /No verdict yet/);
      // Where the eye is: the message is on screen, below the sticky top bar.
      const seen = await page.evaluate(() => {
        const r = document.querySelector('[data-ref="call-failed-message"]').getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, bar: document.querySelector(".topbar").getBoundingClientRect().bottom, h: innerHeight };
      });
      assert.ok(seen.top >= seen.bar && seen.bottom <= seen.h, `${cause}: the message at ${seen.top}-${seen.bottom}, the screen ${seen.bar}-${seen.h}`);
      // It stays: the settings changing (which draws the panel again) does not bring back "No verdict yet".
      await page.click('[data-ref="settings-button"]');
      await page.fill('[data-ref="max-tokens"]', "900");
      await page.keyboard.press("Escape");
      assert.equal(await page.locator('[data-ref="verdict"] [data-ref="call-failed"]').count(), 1, cause);
      // Run again is offered there, and a pasted answer replaces the message with its verdict.
      assert.equal(await page.locator('[data-ref="run-again"]').count(), 1);
      await page.fill('[data-ref="answer"]', EXAMPLES["claim-groundedness"].answer);
      await page.waitForSelector('[data-ref="verdict-view"]');
      assert.equal(await page.locator('[data-ref="call-failed"]').count(), 0);
      assert.deepEqual(page.pageErrors, []);
    }
  });
}

test("a streamed answer that came whole leaves no failed request (net::ERR_ABORTED) behind", async () => {
  for (const model of ["judge-mini", "judge-slow"]) {
    const page = await env.page({ settings: proxySettings(model), key: KEY });
    const console = [];
    const failed = [];
    page.on("console", (m) => console.push(m.text()));
    page.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    await pickEvaluator(page, "answer-grounding");
    await page.click('[data-ref="example"]');
    const isChat = (r) => r.url().endsWith("/chat/completions");
    // The request ends one way or the other: read to its end, or failed (cancelled).
    const ended = Promise.race([page.waitForEvent("requestfinished", { predicate: isChat, timeout: 60000 }).then(() => "finished"), page.waitForEvent("requestfailed", { predicate: isChat, timeout: 60000 }).then(() => "failed")]);
    await page.click('[data-ref="run"]');
    await runOver(page);
    assert.equal(await text(page, '[data-ref="run-status"]'), "Done.");
    assert.equal(await ended, "finished", model);
    assert.deepEqual(failed, [], model);
    assert.deepEqual(console.filter((m) => /ERR_ABORTED|Failed to load/i.test(m)), [], model);
  }
});

/** overflow is how far the document is wider than the window (0: nothing scrolls sideways). */
const overflow = (page) => page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);

test("390×844: a one-row top bar, the tabs by keyboard, nothing wider than the screen in any view", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  await page.setViewportSize(PHONE);
  const bar = await page.locator(".topbar").boundingBox();
  assert.ok(bar.height <= 64, `the top bar is ${bar.height} px high`);
  for (const id of Object.keys(EXAMPLES)) {
    await pickEvaluator(page, id);
    await page.click('[data-ref="example"]');
    await page.waitForSelector('[data-ref="verdict-view"]');
    assert.equal(await overflow(page), 0, `Evaluate ${id}`);
  }

  // Every control of the top bar by keyboard: Tab reaches the views button, which opens the tabs.
  await page.focus("a.skip"); // the page's first stop
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.ref), "views-button");
  assert.equal(await page.isVisible('[role="tab"]'), false, "the tabs are folded");
  await page.keyboard.press("Enter");
  assert.equal(await page.getAttribute('[data-ref="views-button"]', "aria-expanded"), "true");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "tab-evaluate");
  // Accessible names hold the text shown (the views button's is "View: Evaluate").
  const names = await page.evaluate(() => {
    // The text of el's text nodes that pass keep (an element's), spaces as one.
    const textOf = (el, keep) => {
      const out = [];
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) if (keep(n.parentElement)) out.push(n.textContent);
      return out.join("").replace(/\s+/g, " ").trim();
    };
    const hidden = (e) => e.closest("[aria-hidden=true]");
    const clipped = (e) => e.getBoundingClientRect().width <= 1; // sr-only: read, not shown
    return [...document.querySelectorAll(".topbar button, .topbar [role=tab]")]
      .filter((b) => b.getClientRects().length > 0)
      .map((b) => ({ shown: textOf(b, (e) => !hidden(e) && !clipped(e)), name: b.getAttribute("aria-label") || textOf(b, (e) => !hidden(e)) }));
  });
  assert.ok(names.length >= 6, JSON.stringify(names));
  for (const n of names) assert.ok(n.name.includes(n.shown) && n.shown, JSON.stringify(n));
  assert.deepEqual(await axeViolations(page), [], "the views list open");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => !document.querySelector('[data-ref="view-batch"]').hidden && document.activeElement?.id === "tab-batch");
  await page.keyboard.press("Enter");
  assert.equal(await page.getAttribute('[data-ref="views-button"]', "aria-expanded"), "false");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.ref), "views-button");
  assert.equal(await text(page, '[data-ref="views-button"]'), "View: Batch▾");
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  assert.equal(await overflow(page), 0, "Batch");
  // Escape closes the list where it opened; the calculator by mouse.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  assert.equal(await page.getAttribute('[data-ref="views-button"]', "aria-expanded"), "false");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.ref), "views-button");
  await page.click('[data-ref="views-button"]');
  await page.click("#tab-calculator");
  await page.waitForFunction(() => !document.querySelector('[data-ref="view-calculator"]').hidden);
  assert.equal(await overflow(page), 0, "Recall calculator");
  assert.deepEqual(page.pageErrors, []);
});

test("390×844: My evaluators' template editor wraps long lines, numbered where they start, and its inputs table fits", async () => {
  const page = await env.page({ settings: { endpoint: "manual", model: "judge-mini" }, view: "custom" });
  await page.setViewportSize(PHONE);
  await page.click('[data-ref="custom-new"]');
  await page.waitForSelector('[data-ref="custom-tpl-input"]');
  const long = "Question: {{ question }}, and then a line far longer than a phone is wide, which must wrap rather than run off to the side: {{ answer }}";
  await page.fill('[data-ref="custom-tpl-input"]', `${long}\nAnswer {{ answer + }}.\nLast line.`);
  await page.waitForSelector('[data-ref="custom-tpl"] [data-ref="tpl-pin"]');
  const lay = await page.evaluate(() => {
    const ta = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-ref="custom-tpl-input"]'));
    const ln = (n) => document.querySelector(`[data-ref="custom-tpl"] .tpl-gutter [data-line="${n}"]`).getBoundingClientRect();
    const lh = parseFloat(getComputedStyle(ta).lineHeight);
    const pin = document.querySelector('[data-ref="custom-tpl"] [data-ref="tpl-pin"]');
    const inputs = document.querySelector('[data-ref="custom-inputs"]');
    const edge = inputs.getBoundingClientRect().right;
    return {
      sideways: ta.scrollWidth - ta.clientWidth,
      lines: [1, 2, 3].map((n) => ln(n).top),
      lh,
      taBottom: ta.getBoundingClientRect().bottom,
      last: ln(3).bottom,
      pin: pin.scrollWidth - pin.clientWidth,
      pastInputs: [...inputs.querySelectorAll("input, select, button")].filter((e) => e.getBoundingClientRect().right > edge + 1).length,
      inputsScroll: [...inputs.querySelectorAll("*")].filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible" && e.clientWidth > 1).length,
    };
  });
  assert.equal(lay.sideways, 0, "the editor scrolls sideways");
  assert.ok(lay.lines[1] - lay.lines[0] >= 2 * lay.lh - 1, `line 1 wraps onto several rows and line 2 is numbered where it starts: ${JSON.stringify(lay)}`);
  assert.ok(Math.abs(lay.lines[2] - lay.lines[1] - lay.lh) <= 1, `line 2 is one row: ${JSON.stringify(lay)}`);
  assert.ok(lay.taBottom >= lay.last, "the editor holds every line");
  assert.equal(lay.pin, 0, "the error's quote scrolls sideways");
  assert.equal(lay.pastInputs, 0, "a control of the inputs table past its edge");
  assert.equal(lay.inputsScroll, 0, "the inputs table scrolls sideways");
  assert.equal(await overflow(page), 0, "My evaluators");
  // The text the mirror lays out is the template's: typing on keeps the numbers in step.
  await page.focus('[data-ref="custom-tpl-input"]');
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\nAnother line.");
  await page.waitForSelector('[data-ref="custom-tpl"] .tpl-gutter [data-line="4"]');
  const after = await page.evaluate(() => {
    const ln = (n) => document.querySelector(`[data-ref="custom-tpl"] .tpl-gutter [data-line="${n}"]`).getBoundingClientRect().top;
    return { l3: ln(3), l4: ln(4), lh: parseFloat(getComputedStyle(document.querySelector('[data-ref="custom-tpl-input"]')).lineHeight), scrollTop: document.querySelector('[data-ref="custom-tpl-input"]').scrollTop };
  });
  assert.ok(Math.abs(after.l4 - after.l3 - after.lh) <= 1, JSON.stringify(after));
  assert.equal(after.scrollTop, 0);
  assert.deepEqual(page.pageErrors, []);
});

test("390×844: a verdict opened from a share link is on the first screen", async () => {
  const ex = EXAMPLES["claim-groundedness"];
  const fragment = await encodeShare({ evaluator: "claim-groundedness", inputs: ex.inputs, answer: ex.answer, model: "judge-mini" });
  const page = await env.page({ settings: proxySettings(), key: KEY });
  await page.setViewportSize(PHONE);
  await page.goto(env.serve.url + "/nothing-here");
  await page.goto(env.serve.url + "/#" + fragment);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.waitForSelector('[data-ref="share-opened"]');
  await page.waitForSelector('[data-ref="verdict-badge"]');
  const seen = await page.evaluate(() => {
    const r = document.querySelector('[data-ref="verdict-badge"]').getBoundingClientRect();
    const s = document.querySelector('[data-ref="verdict"] [data-ref="score"]').getBoundingClientRect();
    return { top: r.top, bottom: Math.max(r.bottom, s.bottom), bar: document.querySelector(".topbar").getBoundingClientRect().bottom, h: innerHeight };
  });
  assert.ok(seen.top >= seen.bar && seen.bottom <= seen.h, `the verdict at ${seen.top}-${seen.bottom}, the first screen ${seen.bar}-${seen.h}`);
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✗Not grounded");
});

test("390×844: a finished run's rows and the runs list fit the screen, nothing off to the side unmarked (finding 11)", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "batch" });
  await page.setViewportSize(PHONE);
  const rows = [1, 2, 3].map((i) => JSON.stringify({ response: `Paris is the capital of France, and has been since the tenth century (${i}).`, retrieved_contexts: ["Paris is the capital of France."] })).join("\n") + "\n";
  await loadDataset(page, "three.jsonl", rows);
  await page.click('[data-ref="batch-run"]');
  assert.equal((await runEnd(page, 60_000)).done, 3);
  await page.waitForSelector('[data-ref="batch-open-run"]');
  const laid = await page.evaluate(() => {
    const w = innerWidth;
    const box = (el) => el.getBoundingClientRect();
    const row = document.querySelector('[data-ref="batch-table"] .vt-row');
    const cell = (cls) => row.querySelector("." + cls);
    // Anything in the view that reaches past the screen's edge, unless it is inside a scroller marked as one.
    const wide = [...document.querySelectorAll("#view-batch *")].filter((e) => e.getClientRects().length && box(e).right > w + 1 && !e.closest(".table-wrap, .table-scroll")).map((e) => e.tagName + "." + e.className);
    return {
      wide,
      input: Math.round(box(cell("vt-text")).width),
      note: [getComputedStyle(cell("vt-note")).display, box(cell("vt-note")).right <= w],
      score: box(cell("vt-score")).right <= w,
      runs: [...document.querySelectorAll('[data-ref="batch-runs"] td, [data-ref="batch-open-run"], [data-ref="batch-delete-run"]')].filter((e) => e.getClientRects().length).every((e) => box(e).right <= w && box(e).left >= 0),
    };
  });
  assert.deepEqual(laid.wide, [], "nothing reaches past the screen unmarked");
  assert.ok(laid.input >= 250, `the input column is ${laid.input} px wide`);
  assert.deepEqual(laid.note, ["block", true], "Why / note is on the screen");
  assert.ok(laid.score);
  assert.ok(laid.runs, "every field of the runs list, Open and Delete on the screen");
  await page.locator('[data-ref="batch-open-run"]').first().click();
  assert.equal(await overflow(page), 0);
  assert.deepEqual(page.pageErrors, []);
});

test("Copy link and Download report are offered only with a verdict to share: not under a failed call, nor before any answer (finding 15)", async () => {
  const page = await env.page({ settings: proxySettings("judge-429"), key: KEY });
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="example"]');
  const offered = () => page.evaluate(() => [document.querySelector('[data-ref="copy-link"]').disabled, document.querySelector('[data-ref="download-report"]').disabled, document.querySelector('[data-ref="share-hint"]').textContent]);
  await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
  assert.deepEqual(await offered(), [true, true, "A link and a report come with a verdict."], "before any answer");
  await page.click('[data-ref="run"]');
  await page.waitForSelector('[data-ref="verdict"] [data-ref="call-failed"]');
  assert.deepEqual((await offered()).slice(0, 2), [true, true], "under the rate limit's error");
  assert.equal(await page.locator('[data-ref="share-status"] .msg-error').count(), 0, "nothing refused in red");
  // A judge's answer pasted: its verdict can be shared.
  await page.fill('[data-ref="answer"]', "no");
  await page.waitForFunction(() => !document.querySelector('[data-ref="copy-link"]').disabled);
  assert.deepEqual(await offered(), [false, false, ""]);
  await page.click('[data-ref="copy-link"]');
  await page.waitForSelector('[data-ref="share-url"]');
  assert.deepEqual(page.pageErrors, []);
});
