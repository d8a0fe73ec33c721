// evaluate.test.mjs: the Evaluate view in real headless chromium, through the real dev server to
// the fake upstream: each evaluator end to end with streaming, manual mode, errors from the
// upstream shown as clear messages, Stop cancelling a stream, inputs surviving a reload.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setup, launch, proxySettings, pickEvaluator, text, buildServe, startServe } from "./harness.mjs";
import { EXAMPLES } from "./fake-upstream.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-secret-key-1234";

async function runExample(page, id) {
  await pickEvaluator(page, id);
  await page.click('[data-ref="example"]');
  await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
  await page.click('[data-ref="run"]');
  // The run is over when the Stop button hides again and a verdict (or an error) is shown.
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && (document.querySelector('[data-ref="verdict-view"]') || document.querySelector('[data-ref="call-failed"]') || document.querySelector('[data-ref="run-error"]').textContent));
  assert.equal(await text(page, '[data-ref="run-error"]'), "", "no error");
  assert.equal(await page.locator('[data-ref="call-failed"]').count(), 0, "no failed call");
  assert.equal(await page.inputValue('[data-ref="answer"]'), EXAMPLES[id].answer, "the streamed answer arrived whole");
  const last = env.fake.requests.filter((r) => r.path === "/chat/completions").at(-1);
  assert.equal(last.auth, "Bearer " + KEY, "the key reached the upstream through the proxy");
  assert.equal(last.body.stream, true);
  assert.deepEqual(last.body.stream_options, { include_usage: true });
  assert.ok(Math.abs(last.body.temperature) < 1e-6, `temperature ${last.body.temperature}`); // go-openai sends 0 as the smallest float32
  assert.equal(last.body.model, "judge-mini");
  assert.match(await text(page, '[data-ref="usage"]'), /\d+ prompt \+ \d+ answer = \d+ tokens/);
  return last;
}

test("claim-groundedness end to end: claim cards and '2 of 3 claims grounded'", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  const req = await runExample(page, "claim-groundedness");
  assert.match(req.body.messages[0].content, /Claim c2: The patient had no adverse reactions/);
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✗Not grounded");
  assert.match(await text(page, '[data-ref="verdict"] [data-ref="score"]'), /2 of 3\s*claims grounded/);
  assert.equal(await page.locator(".claim-card").count(), 3);
  assert.equal(await page.getAttribute('[data-claim="c2"]', "data-state"), "fail");
  assert.equal(await page.getAttribute('[data-claim="c1"]', "data-state"), "pass");
  assert.match(await text(page, '[data-claim="c2"]'), /discharged the next day/);
  // The legend names the form's Claims, as the variable its reader makes of them (finding 20).
  const legend = await page.locator('#view-evaluate [data-ref="legend"] .legend-item').evaluateAll((els) => els.map((e) => [e.textContent, e.className]));
  assert.deepEqual(legend.map((l) => l[0]).sort(), ["claims (as reports)", "evidence", "question"]);
  const reports = page.locator('[data-ref="prompt"] mark[data-input="reports"]').first();
  assert.equal(await reports.getAttribute("class"), legend.find((l) => l[0] === "claims (as reports)")[1].replace(" legend-item", ""));
  assert.match(await reports.getAttribute("title"), /made from your claims/);
  assert.deepEqual(page.pageErrors, []);
});

test("answer-grounding end to end: a large YES badge with the mode", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  const req = await runExample(page, "answer-grounding");
  assert.match(req.body.messages[0].content, /Mode: lenient\./);
  assert.match(req.body.messages[0].content, /1\. The Eiffel Tower is located in Paris\./);
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✓Grounded");
  assert.match(await text(page, '[data-ref="yesno"]'), /YES\s*lenient mode/);
});

test("pairwise-faithfulness end to end: side by side, sentence table, citation check", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  const req = await runExample(page, "pairwise-faithfulness");
  assert.match(req.body.messages[0].content, /Reference 2: Mass coral bleaching/);
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✗Not faithful");
  assert.equal(await page.locator(".sides .side").count(), 2);
  assert.ok((await page.locator('[data-side="2"] .cite-bad').count()) >= 1, "the out-of-range [3] is marked");
  assert.ok((await page.locator("table.sentences tbody tr").count()) >= 3);
  assert.ok((await page.locator('[data-ref="citations"]').count()) === 1, "the citation check is shown");
});

test("rag-recall end to end: '4 / 5', bars, and the judge's arithmetic agreeing line by line", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  await runExample(page, "rag-recall");
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✓Meets threshold");
  assert.match(await text(page, '[data-ref="verdict"] [data-ref="score"]'), /^4 \/ 5/);
  assert.equal(await page.locator('[data-ref="bars"] .bar-essential').count(), 2);
  assert.equal(await page.locator('[data-ref="bars"] .bar-bonus').count(), 2);
  const states = await page.locator('[data-ref="formula"] tbody tr').evaluateAll((trs) => trs.map((t) => t.dataset.state));
  assert.ok(states.length >= 4 && states.every((s) => s === "same"), JSON.stringify(states));
});

test("the rendered prompt updates live and highlights where each input landed", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="answer"]', "Lyon is the capital 🇫🇷 of France.");
  await page.fill('[data-input="facts"] textarea', "Paris is the capital of France.");
  await page.waitForFunction(() => [...document.querySelectorAll('[data-ref="prompt"] mark')].some((m) => m.textContent === "Lyon is the capital 🇫🇷 of France."));
  const marks = await page.locator('[data-ref="prompt"] mark').evaluateAll((ms) => ms.map((m) => [m.dataset.expr, m.textContent]));
  assert.deepEqual(Object.fromEntries(marks), { mode: "strict", answer: "Lyon is the capital 🇫🇷 of France.", facts: "1. Paris is the capital of France." });
  assert.ok((await page.locator('[data-ref="prompt"] .fold').count()) >= 1, "the seed text is folded by default");
  // A choice input is a select; the prompt follows it.
  await page.selectOption('[data-input="mode"]', "lenient");
  await page.waitForFunction(() => [...document.querySelectorAll('[data-ref="prompt"] mark')].some((m) => m.textContent === "lenient"));
});

test("manual mode: no calls; copy the prompt, paste an answer, the same verdict", async () => {
  const page = await env.page({ settings: { endpoint: "manual", model: "judge-mini" } });
  const before = env.fake.requests.length;
  assert.equal(await text(page, '[data-ref="where"]'), "manual, no calls");
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="clear"]');
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="answer"]');
  await page.fill('[data-ref="answer"]', "");
  await page.click('[data-ref="run"]');
  // Run copies the prompt asynchronously (navigator.clipboard.writeText), and says so when done.
  await page.waitForFunction(() => /Prompt copied/.test(document.querySelector('[data-ref="run-status"]').textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^You are an answer-groundedness reviewer/);
  assert.match(copied, /Claim c3: A follow-up visit/);
  await page.fill('[data-ref="answer"]', EXAMPLES["claim-groundedness"].answer);
  await page.waitForSelector('[data-ref="verdict-view"]');
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✗Not grounded");
  assert.match(await text(page, '[data-ref="verdict"] [data-ref="score"]'), /2 of 3/);
  // An answer that cannot be read is undetermined, and says why.
  await page.fill('[data-ref="answer"]', "Sorry, I cannot help with that.");
  await page.waitForFunction(() => document.querySelector('[data-ref="verdict-view"]')?.dataset.state === "undetermined");
  assert.match(await text(page, '[data-ref="verdict-badge"]'), /^\?Undetermined — /);
  assert.ok((await page.locator('[data-ref="checks"] .check-error').count()) >= 1);
  assert.equal(env.fake.requests.length, before, "manual mode made no call");
});

// failedCall waits for a Run's call to fail and returns what the verdict panel says of it, after
// checking it is said once: in the panel, not again beside Run.
async function failedCall(page) {
  await page.waitForSelector('[data-ref="verdict"] [data-ref="call-failed"]');
  const msg = await text(page, '[data-ref="call-failed-message"]');
  assert.equal(await text(page, '[data-ref="run-error"]'), "", "nothing beside Run repeats it");
  const times = await page.evaluate((m) => document.body.innerText.split(m).length - 1, msg);
  assert.equal(times, 1, `the error is on the page once: ${msg}`);
  return msg;
}

test("401 from the upstream is a clear message, told once, in the verdict panel", async () => {
  const page = await env.page({ settings: proxySettings("judge-401"), key: "sk-wrong" });
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="run"]');
  const msg = await failedCall(page);
  assert.match(msg, /key was refused \(401 Unauthorized\): check the API key in Model settings/);
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes("sk-wrong"), "the key is not echoed");
  // The panel is on screen: Run has no pointer to it.
  assert.equal(await page.isVisible('[data-ref="run-failed-pointer"]'), false);
});

test("429 from the upstream says to wait, with the Retry-After time", async () => {
  const page = await env.page({ settings: proxySettings("judge-429"), key: KEY });
  await page.click('[data-ref="example"]');
  await page.keyboard.press("Control+Enter");
  assert.match(await failedCall(page), /Rate limited .*429.*: wait 7 s and run again/);
});

test("404 for an unknown model names the model", async () => {
  const page = await env.page({ settings: proxySettings("judge-404"), key: KEY });
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="run"]');
  assert.match(await failedCall(page), /does not know the model “judge-404” \(404/);
});

test("on a phone, a failed call brings its verdict panel into view; Run points to it only while it is off screen", async () => {
  const page = await env.page({ settings: proxySettings("judge-404"), key: KEY });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="run"]');
  assert.match(await failedCall(page), /does not know the model/);
  const pointer = page.locator('[data-ref="run-failed-pointer"]');
  assert.equal(await pointer.isVisible(), false, "the panel was brought into view: no pointer");
  // Back at Run, the panel is off screen (under the prompt): a short pointer, not the message.
  await page.evaluate(() => window.scrollTo(0, 0));
  await pointer.waitFor({ state: "visible" });
  assert.match(await pointer.textContent(), /^✗ The call failed: see why in the verdict/);
  assert.equal(await text(page, '[data-ref="run-error"]'), "");
  await pointer.press("Enter");
  await pointer.waitFor({ state: "hidden" });
  assert.ok(await page.evaluate(() => { const r = document.querySelector('[data-ref="call-failed"]').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }), "the pointer shows the panel");
  // A new answer forgets the failed call: no pointer when the panel goes off screen again.
  await page.fill('[data-ref="answer"]', "Verdict: yes");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => !document.querySelector('[data-ref="call-failed"]'));
  assert.equal(await pointer.isVisible(), false);
});

test("Stop cancels a streaming answer and the upstream sees the disconnect", async () => {
  const page = await env.page({ settings: proxySettings("judge-slow"), key: KEY });
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="example"]');
  const gone = env.fake.disconnects;
  await page.click('[data-ref="run"]');
  // The answer is visible while it arrives.
  await page.waitForFunction(() => document.querySelector('[data-ref="answer"]').value.length > 12);
  assert.equal(await page.isVisible('[data-ref="stop"]'), true);
  assert.match(await text(page, '[data-ref="verdict"]'), /The judge is answering/);
  await page.click('[data-ref="stop"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden);
  assert.match(await text(page, '[data-ref="run-status"]'), /^Stopped/);
  const partial = await page.inputValue('[data-ref="answer"]');
  assert.ok(partial.length > 0 && partial.length < EXAMPLES["claim-groundedness"].answer.length, "the partial answer is kept");
  const deadline = Date.now() + 10000;
  while (env.fake.disconnects === gone && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(env.fake.disconnects, gone + 1, "the fake upstream saw the stream abandoned");
  // The partial answer is not a verdict.
  await page.waitForSelector('[data-ref="verdict-view"]');
  assert.notEqual(await page.getAttribute('[data-ref="verdict-view"]', "data-state"), "pass");
});

test("inputs survive a reload; the key only when remembered", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { remember: false }), key: "" });
  await pickEvaluator(page, "pairwise-faithfulness");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="expected_output"]', "Kept across reloads [1].");
  await page.click('[data-ref="settings-button"]');
  await page.fill('[data-ref="key"]', "sk-memory-only");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => (localStorage.getItem("ragjudge.page.v1") || "").includes("Kept across reloads [1]."));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  assert.equal(await page.inputValue('[data-input="expected_output"]'), "Kept across reloads [1].");
  assert.equal(await page.evaluate(() => JSON.stringify(localStorage).includes("sk-memory-only")), false, "the key was not stored");
  await page.click('[data-ref="settings-button"]');
  assert.equal(await page.inputValue('[data-ref="key"]'), "");
  await page.fill('[data-ref="key"]', "sk-remembered");
  await page.check('[data-ref="remember"]');
  await page.keyboard.press("Escape");
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.click('[data-ref="settings-button"]');
  assert.equal(await page.inputValue('[data-ref="key"]'), "sk-remembered");
});

test("model settings offer the upstream's models and show where calls go", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY });
  assert.match(await text(page, '[data-ref="where"]'), /^via dev server → 127\.0\.0\.1:\d+$/);
  await page.click('[data-ref="settings-button"]');
  await page.waitForFunction(() => document.querySelectorAll("datalist option").length >= 5);
  const models = await page.locator("datalist option").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(models.includes("judge-slow"), JSON.stringify(models));
  await page.check('[data-ref="endpoint-direct"]');
  await page.fill('[data-ref="base-url"]', "https://llm.example.test/v1");
  await page.press('[data-ref="base-url"]', "Tab");
  assert.equal(await text(page, '[data-ref="where"]'), "direct → llm.example.test");
});

test("500 from the upstream and a CORS refusal in direct mode are clear messages", async () => {
  const page = await env.page({ settings: proxySettings("judge-500"), key: KEY });
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="run"]');
  assert.match(await failedCall(page), /model server failed \(500\): try again in a moment/);
  // The fake upstream sends no CORS headers, like most providers: a direct call is refused.
  const direct = await env.page({ settings: proxySettings("judge-mini", { endpoint: "direct", baseURL: env.fake.url }), key: KEY });
  assert.match(await text(direct, '[data-ref="where"]'), /^direct → 127\.0\.0\.1:\d+$/);
  await direct.click('[data-ref="example"]');
  await direct.click('[data-ref="run"]');
  assert.match(await failedCall(direct), /could not call 127\.0\.0\.1:\d+ directly \(CORS refusal or network error\): use the dev server/);
});

test("list rows can be added, reordered and removed by keyboard, and the prompt follows", async () => {
  const page = await env.page({ settings: { endpoint: "manual" } });
  await pickEvaluator(page, "pairwise-faithfulness");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="expected_output"]', "E [1].");
  await page.fill('[data-input="actual_output"]', "A [2].");
  await page.fill('[data-input="contexts"] li[data-row="0"] textarea', "First reference.");
  await page.focus('[data-add="contexts"]');
  await page.keyboard.press("Enter");
  await page.keyboard.type("Second reference.");
  await page.waitForFunction(() => document.querySelector('[data-ref="prompt"]')?.textContent.includes("Reference 2: Second reference."));
  await page.focus('button[aria-label="Move reference 2 up"]');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('[data-ref="prompt"]').textContent.includes("Reference 1: Second reference.\nReference 2: First reference."));
  await page.click('button[aria-label="Remove reference 1"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="prompt"]').textContent.includes("Reference 1: First reference.\n[/SAMPLE]"));
  // The view tabs follow the arrow keys.
  await page.focus("#tab-evaluate");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => !document.querySelector('[data-ref="view-calculator"]').hidden && document.activeElement.id === "tab-calculator");
  // While the keyboard is on a tab, a hint names the arrow keys (finding 20); a click shows none.
  const hint = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-ref="tabs"]'), "::after").content);
  assert.match(await hint(), /^"← → other views"/);
  await page.click("#tab-evaluate");
  assert.equal(await hint(), "none");
  assert.deepEqual(page.pageErrors, []);
});

test("switching evaluators mid-stream stops the run and drops its text rather than mix it into other inputs", async () => {
  const page = await env.page({ settings: proxySettings("judge-slow"), key: KEY });
  await pickEvaluator(page, "answer-grounding");
  await page.fill('[data-ref="answer"]', "yes");
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="answer"]').value.length > 8);
  await pickEvaluator(page, "answer-grounding");
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden);
  assert.equal(await page.inputValue('[data-ref="answer"]'), "yes");
  assert.equal(await page.getAttribute('[data-ref="verdict-view"]', "data-state"), "pass");
  await pickEvaluator(page, "claim-groundedness");
  assert.equal(await page.inputValue('[data-ref="answer"]'), "");
  assert.match(await text(page, '[data-ref="verdict"]'), /No verdict yet/);
  assert.deepEqual(page.pageErrors, []);
});

test("Stop mid-answer: what arrived is shown as such, the rest is 'cut short', and there is no score", async () => {
  const page = await env.page({ settings: proxySettings("judge-slow"), key: KEY });
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="example"]');
  await page.click('[data-ref="run"]');
  // Stop once the first claim's verdict has arrived whole and the second has begun.
  await page.waitForFunction(() => document.querySelector('[data-ref="answer"]').value.includes('"c2"'));
  await page.click('[data-ref="stop"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden);
  await page.waitForSelector('[data-ref="verdict-view"]');
  assert.equal(await page.getAttribute('[data-ref="verdict-view"]', "data-state"), "undetermined");
  assert.equal(await text(page, '[data-ref="verdict-badge"]'), "?Undetermined — answer cut short");
  assert.equal(await page.locator('[data-ref="verdict"] [data-ref="score"]').count(), 0, "no score for a cut-short answer");
  // The stream is stopped inside c2's entry, which takes seconds more to close: c1 arrived whole.
  assert.match(await text(page, '[data-ref="cut-short"]'), /^Cut short: 1 of 3 claims arrived/);
  const verdict = await text(page, '[data-ref="verdict"]');
  assert.doesNotMatch(verdict, /claims grounded/);
  assert.doesNotMatch(verdict, /skipped/, "the judge is not blamed for what the cut lost");
  // The claim that arrived keeps its own verdict; every other says the answer was cut short
  // before it, as the core's status "cut" says.
  const cards = await page.locator(".claim-card").evaluateAll((els) => els.map((e) => ({ claim: e.dataset.claim, state: e.dataset.state, arrived: e.dataset.arrived, text: e.textContent })));
  assert.deepEqual(cards.map((c) => [c.claim, c.state, c.arrived]), [
    ["c1", "pass", "true"],
    ["c2", "undetermined", "false"],
    ["c3", "undetermined", "false"],
  ]);
  for (const c of cards.slice(1)) assert.match(c.text, /cut short before it/);
  const raw = JSON.parse(await text(page, '[data-ref="verdict"] .raw-data pre'));
  assert.deepEqual(raw.verdict.claims.map((c) => c.status), ["grounded", "cut", "cut"]);
  assert.equal(raw.verdict.counts.cut, 2);
  assert.equal(raw.checks[0].code, "answer.truncated", "the cut comes first");
  assert.ok(!raw.checks.some((c) => c.code === "claims.skipped" || c.code === "claims.missing"), "no claim is reported skipped or missing");
  assert.equal(await page.locator('[data-ref="checks"] [data-code="answer.truncated"]').count(), 1);
});

test("a check that points into the judge's answer selects that span", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="example"]');
  await page.fill('[data-ref="answer"]', '{"claims": [\n  {"claim_id": "c1", "grounded": tru');
  await page.waitForSelector('[data-ref="checks"] [data-code="answer.truncated"] [data-ref="locate"]');
  await page.click('[data-ref="checks"] [data-code="answer.truncated"] [data-ref="locate"]');
  const sel = await page.evaluate(() => {
    const ta = document.querySelector('[data-ref="answer"]');
    return { focused: document.activeElement === ta, start: ta.selectionStart, line: ta.value.slice(0, ta.selectionStart).split("\n").length };
  });
  assert.equal(sel.focused, true);
  assert.equal(sel.line, 2, "the cut is on the answer's second line");
});

for (const [w, hgt] of [
  [390, 844],
  [1366, 650],
]) {
  test(`model settings at ${w}×${hgt}: every control can be reached (the popover fits or scrolls)`, async () => {
    const page = await env.page({ settings: proxySettings(), key: KEY });
    await page.setViewportSize({ width: w, height: hgt });
    await page.click('[data-ref="settings-button"]');
    await page.waitForSelector('[data-ref="settings"]:not([hidden])');
    const box = await page.evaluate(() => {
      const pop = document.querySelector('[data-ref="settings"]');
      const r = pop.getBoundingClientRect();
      return { bottom: r.bottom, scrolls: pop.scrollHeight > pop.clientHeight, overflowY: getComputedStyle(pop).overflowY };
    });
    assert.ok(box.bottom <= hgt, `the popover ends inside the window (bottom ${box.bottom} of ${hgt})`);
    if (box.scrolls) assert.equal(box.overflowY, "auto", "taller than the window, it scrolls");
    for (const sel of ['[data-ref="max-tokens"]', '[data-ref="stream"]', '[data-ref="settings"] .popover-actions button']) {
      await page.locator(sel).scrollIntoViewIfNeeded();
      const inView = await page.locator(sel).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
      });
      assert.ok(inView, `${sel} can be scrolled into view`);
    }
    await page.click('[data-ref="settings"] .popover-actions button');
    await page.waitForSelector('[data-ref="settings"][hidden]', { state: "attached" });
  });
}

test("on a phone the table of sentences shows every column, none cut off", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  await page.setViewportSize({ width: 390, height: 844 });
  await pickEvaluator(page, "pairwise-faithfulness");
  await page.click('[data-ref="example"]');
  await page.waitForSelector("table.sentences tbody tr");
  const cut = await page.locator("table.sentences").first().evaluate((t) => {
    const wrap = t.closest(".table-wrap") || t.parentElement;
    const limit = wrap.getBoundingClientRect().right;
    return [...t.querySelectorAll("td")].filter((td) => td.getBoundingClientRect().right > limit + 1 || td.getBoundingClientRect().right > window.innerWidth).map((td) => td.textContent);
  });
  assert.deepEqual(cut, [], "cells past the right edge");
  // Each cell still says which column it is.
  const label = await page.locator("table.sentences tbody td").nth(1).evaluate((td) => getComputedStyle(td, "::before").content);
  assert.match(label, /cites a source/);
});

test("an input error is shown under its own field, placed by the core's fields, not its wording", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  await pickEvaluator(page, "rag-recall");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="passage_gt"]', "A ground truth with no passage markers.");
  await page.fill('[data-input="passage_llm"]', "A returned passage.");
  await page.waitForSelector('[data-ref="render-error"]');
  await page.waitForFunction(() => document.querySelector('[data-field="passage_gt"]')?.classList.contains("has-error"));
  assert.match(await text(page, '[data-field="passage_gt"] .field-error'), /^✗ .*\[ESSENTIAL PASSAGE\]/);
  assert.equal(await text(page, '[data-field="passage_llm"] .field-error'), "");
});

test("an upstream nothing answers at is 'endpoint unreachable', naming it, not a server error to retry (finding 9)", async () => {
  // A port that was free a moment ago: nothing listens there.
  const probe = net.createServer();
  await new Promise((r) => probe.listen(0, "127.0.0.1", r));
  const port = /** @type {any} */ (probe.address()).port;
  await new Promise((r) => probe.close(r));
  const serve = await startServe(buildServe(mkdtempSync(join(tmpdir(), "ragjudge-e2e-unreachable-"))), `http://127.0.0.1:${port}/v1`);
  const fresh = await launch();
  try {
    const page = await fresh.ctx.newPage();
    await page.addInitScript((s) => localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: s })), proxySettings());
    await page.goto(serve.url + "/#evaluate");
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await page.click('[data-ref="example"]');
    await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
    await page.click('[data-ref="run"]');
    await page.waitForSelector('[data-ref="verdict"] [data-ref="call-failed"]', { timeout: 60_000 });
    assert.match(await text(page, '[data-ref="failed-badge"]'), /^! ?Error — endpoint unreachable \(502\)$/);
    const said = await text(page, '[data-ref="verdict"] [data-ref="call-failed"]');
    assert.match(said, /The dev server could not reach its model server \(502\)/);
    assert.ok(said.includes(`127.0.0.1:${port}`), "the upstream is named: " + said);
    assert.doesNotMatch(said, /server error|try again in a moment/);
  } finally {
    await fresh.close();
    await serve.stop();
  }
});

test("'Yes, every claim is supported.' reads as a verdict with a quiet note, not a warning (finding 16)", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="example"]');
  await page.fill('[data-ref="answer"]', "Yes, every claim is supported.");
  await page.waitForSelector('[data-ref="verdict"] [data-ref="verdict-view"][data-state="pass"] [data-code="answer.prose-after-verdict"]');
  const checks = page.locator('[data-ref="verdict"] [data-ref="checks"]');
  assert.match(await checks.textContent(), /^✓ No problems reading the judge's answer\.ℹ Note read the verdict yes from the first word/);
  assert.equal(await checks.locator(".check-warning").count(), 0, "no warning");
  assert.equal(await checks.locator('.check-note[data-code="answer.prose-after-verdict"]').count(), 1);
  assert.deepEqual(page.pageErrors, []);
});

test("Load example says what it loads: the inputs with a model, the judge's answer too in manual mode (finding 20)", async () => {
  const id = "answer-grounding";
  const model = await env.page({ settings: proxySettings(), key: KEY });
  await pickEvaluator(model, id);
  await model.click('[data-ref="clear"]');
  assert.equal(await text(model, '[data-ref="example"]'), "Load example inputs");
  assert.match(await model.getAttribute('[data-ref="example"]', "title"), /the model answers when you run/);
  await model.click('[data-ref="example"]');
  assert.equal(await model.inputValue('[data-ref="answer"]'), "", "no answer the model did not give");
  assert.equal(await model.locator('[data-ref="verdict-view"]').count(), 0);
  const manual = await env.page({ settings: { endpoint: "manual", model: "judge-mini" } });
  await pickEvaluator(manual, id);
  await manual.click('[data-ref="clear"]');
  assert.equal(await text(manual, '[data-ref="example"]'), "Load example");
  await manual.click('[data-ref="example"]');
  assert.equal(await manual.inputValue('[data-ref="answer"]'), EXAMPLES[id].answer);
  await manual.waitForSelector('[data-ref="verdict-view"]');
  assert.deepEqual([...model.pageErrors, ...manual.pageErrors], []);
});
